"""W6 character sheets: what the GM enters, and the values the rules derive from it.

Every rule number is cited in data/w6/RULES.md. The sheet is a frozen value; edit it with
``engines.w6.sheet_io.edit_sheet`` and serialize it with ``sheet_to_json``/``sheet_from_json``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PM_REQUIRED = ("K", "G", "M", "B")
TECHNIQUES = (
    "zweihaendig",
    "rundumschlag",
    "angriffsserie",
    "ausrichten",
    "blockade",
    "beidhaendig",
)
SHIELD_SKILL = "Schildkampf"
KRAFT = "Kraft"
INTUITION = "Intuition"
GESCHICK = "Geschick"
WAHRNEHMUNG = "Wahrnehmung"

Pairs = tuple[tuple[str, int], ...]


def lookup(pairs: Pairs, name: str, default: int = 0) -> int:
    """The value stored under ``name`` in a name/value list, else ``default``."""
    for key, value in pairs:
        if key == name:
            return value
    return default


@dataclass(frozen=True, slots=True)
class Bonus:
    """Zusatzschaden: a Persönlichkeitsmerkmal plus a modifier (``K+1``), or a fixed ``+3``."""

    trait: str = ""
    mod: int = 0

    def text(self) -> str:
        if not self.trait:
            return "" if self.mod == 0 else f"{self.mod:+d}"
        return self.trait if self.mod == 0 else f"{self.trait}{self.mod:+d}"


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon line of the Charakterdokument.

    ``schaden`` is the Basisschaden ratio (SP per 5, SP per 6); ``cap`` the highest value of
    the Waffenfertigkeit that still adds Fertigkeitsschaden; ``stabilitaet`` (successes per
    point, points) is used only with the optional stability rule.
    """

    name: str
    fertigkeit: str = ""
    schaden: tuple[int, int] = (1, 1)
    zusatz: Bonus = Bonus()
    cap: int = 0
    reichweite: int = 1
    techniken: tuple[str, ...] = ()
    fernkampf: bool = False
    zielen: int = 1
    block: int = 0
    stabilitaet: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Armour:
    """One armour piece on one body zone."""

    name: str
    zone: str = "Torso"
    rs: int = 0
    be: int = 0


@dataclass(frozen=True, slots=True)
class Shield:
    """A shield: its KW bonus in defence, Behinderung, Block value and armour value."""

    name: str = "Schild"
    kw_bonus: int = 0
    be: int = 0
    block: int = 0
    rs: int = 0
    stabilitaet: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Mount:
    """A Reittier; its Behinderung is subtracted from the rider's KW."""

    name: str = "Reittier"
    be: int = 0


@dataclass(frozen=True, slots=True)
class Sheet:
    """A W6 character as the GM enters it (see RULES.md for every derived value)."""

    name: str
    rasse: str = ""
    pm: Pairs = (("K", 0), ("G", 0), ("M", 0), ("B", 0))
    eigenschaften: Pairs = ()
    fertigkeiten: Pairs = ()
    erfahrung: int = 0
    faktor: int = 1
    lp: int = 0
    lp_max: int = 0
    rlp: int = 0
    kw: int = 0
    reflex: int = 0
    magie: int = 0
    ab: int = 0
    handlungen: tuple[int, ...] = ()
    waffen: tuple[Weapon, ...] = ()
    ruestung: tuple[Armour, ...] = ()
    schild: Shield | None = None
    reittier: Mount | None = None
    be_temp: int = 0
    be_fertigkeiten: tuple[str, ...] = ("Zähigkeit",)
    schwelle_mod: int = 0
    fix: Pairs = field(default=())
    notizen: str = ""

    def pm_value(self, name: str) -> int:
        return lookup(self.pm, name)

    def eigenschaft(self, name: str) -> int:
        return lookup(self.eigenschaften, name)

    def fertigkeit(self, name: str) -> int:
        return lookup(self.fertigkeiten, name)

    def weapon(self, name: str) -> Weapon | None:
        return next((w for w in self.waffen if w.name == name), None)


FIXABLE = ("gesamtschutz", "handlungen", "schwelle")


@dataclass(frozen=True, slots=True)
class WeaponValues:
    """The derived damage values of one weapon."""

    name: str
    basisschaden: tuple[int, int]
    zusatzschaden: int
    fertigkeitsschaden: int


@dataclass(frozen=True, slots=True)
class Derived:
    """Every value the rules compute from a sheet."""

    gesamtschutz: int
    zonen_rs: Pairs
    be_ruestung: int
    be_senkung: int
    be_schild: int
    behinderung_kw: int
    kw_effektiv: int
    kw_beritten: int
    reflex_effektiv: int
    handlungen: int
    schwelle: int
    kraft: int
    waffen: tuple[WeaponValues, ...]
    beidhaendig: bool


def gesamtschutz(sheet: Sheet) -> int:
    """Gesamtschutz = (Summe aller Rüstungswerte) : 3, rounded down; shield included."""
    fixed = lookup(sheet.fix, "gesamtschutz", -1)
    if fixed >= 0:
        return fixed
    total = sum(piece.rs for piece in sheet.ruestung)
    total += sheet.schild.rs if sheet.schild else 0
    return total // 3


def zone_rs(sheet: Sheet, zone: str) -> int:
    """The Rüstungsschutz of one body zone: the RS of every piece worn there."""
    return sum(piece.rs for piece in sheet.ruestung if piece.zone == zone)


def zusatzschaden(sheet: Sheet, weapon: Weapon) -> int:
    """PM value plus modifier; only with at least one point in the weapon's Fertigkeit."""
    if weapon.zusatz.trait and sheet.fertigkeit(weapon.fertigkeit) < 1:
        return 0
    base = sheet.pm_value(weapon.zusatz.trait) if weapon.zusatz.trait else 0
    return max(0, base + weapon.zusatz.mod)


def fertigkeitsschaden(sheet: Sheet, weapon: Weapon) -> int:
    """Waffenfertigkeit (counted up to the weapon's cap; a weapon without a stated cap, 0,
    counts it all) times the Faktor."""
    skill = sheet.fertigkeit(weapon.fertigkeit)
    return (min(skill, weapon.cap) if weapon.cap else skill) * sheet.faktor


def handlungen(sheet: Sheet) -> int:
    """How many race thresholds the sum M + B reaches (or the GM's fixed number); a sheet
    without thresholds has one («Jeder hat die Möglichkeit, … eine oder mehrere Handlungen
    auszuführen», HANDLUNGEN UND KOMPLEXE HANDLUNGEN)."""
    fixed = lookup(sheet.fix, "handlungen", -1)
    if fixed >= 0:
        return fixed
    if not sheet.handlungen:
        return 1
    total = sheet.pm_value("M") + sheet.pm_value("B")
    return sum(1 for threshold in sheet.handlungen if threshold <= total)


def schwelle(sheet: Sheet) -> int:
    """Heavy-hit threshold (K + G) x (Faktor + Mod.) (optional rule)."""
    fixed = lookup(sheet.fix, "schwelle", -1)
    if fixed >= 0:
        return fixed
    return (sheet.pm_value("K") + sheet.pm_value("G")) * (sheet.faktor + sheet.schwelle_mod)


def kraft_dice(sheet: Sheet) -> int:
    """Dice of the Kraft check: the Eigenschaft Kraft, else the PM K."""
    names = [name for name, _ in sheet.eigenschaften]
    return sheet.eigenschaft(KRAFT) if KRAFT in names else sheet.pm_value("K")


def can_fight_two_handed(sheet: Sheet) -> bool:
    """Beidhändiger Kampf: Geschick 10, Wahrnehmung 7 and two weapons of one Fertigkeit
    (or both marked ``beidhaendig`` as an exception from the weapon table)."""
    if sheet.eigenschaft(GESCHICK) < 10 or sheet.eigenschaft(WAHRNEHMUNG) < 7:
        return False
    return len(dual_pair(sheet)) == 2


def dual_pair(sheet: Sheet) -> tuple[Weapon, ...]:
    """The first two melee weapons that may be used together, or ()."""
    melee = [w for w in sheet.waffen if not w.fernkampf]
    for index, first in enumerate(melee):
        for second in melee[index + 1 :]:
            same = first.fertigkeit == second.fertigkeit
            exception = "beidhaendig" in first.techniken and "beidhaendig" in second.techniken
            if same or exception:
                return (first, second)
    return ()


UNARMED = "Waffenlos"
UNARMED_SKILLS = ("Waffenloser Kampf", "Waffenlos")
UNARMED_CAP = 99


def unarmed(sheet: Sheet) -> Weapon:
    """The unarmed attack (silent in the rulebook, see RULES.md): Basisschaden 1-1, no
    Zusatzschaden; Fertigkeitsschaden only from a Fertigkeit ``Waffenloser Kampf`` (or
    ``Waffenlos``) on the sheet, uncapped."""
    skill = next((name for name in UNARMED_SKILLS if sheet.fertigkeit(name) > 0), "")
    return Weapon(UNARMED, fertigkeit=skill, schaden=(1, 1), cap=UNARMED_CAP if skill else 0)


def combat_weapons(sheet: Sheet) -> tuple[Weapon, ...]:
    """The weapons a fighter takes into a combat: the sheet's, plus the unarmed attack when
    the sheet has no melee weapon (a fighter can always strike with bare hands)."""
    if any(not w.fernkampf for w in sheet.waffen):
        return sheet.waffen
    return (*sheet.waffen, unarmed(sheet))


def derive(sheet: Sheet) -> Derived:
    """All derived values. Behinderung: armour BE (plus temporary BE) is lowered by the
    points in ``be_fertigkeiten``; shield BE only by Schildkampf, and fully on Reflexwürfel."""
    be_ruestung = sum(piece.be for piece in sheet.ruestung) + sheet.be_temp
    be_senkung = sum(sheet.fertigkeit(name) for name in sheet.be_fertigkeiten)
    armour_left = max(0, be_ruestung - be_senkung)
    be_schild = sheet.schild.be if sheet.schild else 0
    shield_left = max(0, be_schild - sheet.fertigkeit(SHIELD_SKILL))
    behinderung_kw = armour_left + shield_left
    kw_effektiv = max(0, sheet.kw - behinderung_kw)
    mount_be = sheet.reittier.be if sheet.reittier else 0
    zonen = tuple(sorted({piece.zone for piece in sheet.ruestung}))
    return Derived(
        gesamtschutz=gesamtschutz(sheet),
        zonen_rs=tuple((zone, zone_rs(sheet, zone)) for zone in zonen),
        be_ruestung=be_ruestung,
        be_senkung=be_senkung,
        be_schild=be_schild,
        behinderung_kw=behinderung_kw,
        kw_effektiv=kw_effektiv,
        kw_beritten=max(0, kw_effektiv - mount_be),
        reflex_effektiv=max(0, sheet.reflex - armour_left - be_schild),
        handlungen=handlungen(sheet),
        schwelle=schwelle(sheet),
        kraft=kraft_dice(sheet),
        waffen=tuple(
            WeaponValues(w.name, w.schaden, zusatzschaden(sheet, w), fertigkeitsschaden(sheet, w))
            for w in sheet.waffen
        ),
        beidhaendig=can_fight_two_handed(sheet),
    )
