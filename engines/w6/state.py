"""The combat tracker's state: plain frozen data, JSON round-trip exact, Rng inside.

A :class:`Fighter` is a snapshot of what the combat needs from a sheet (or an NPC block)
plus its per-phase budget; a :class:`Pending` is an interactive step that waits for someone's
answer (a defender's announcement, an attacker's choice).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engines.core import BadInput, IllegalAction, Rng
from engines.core.codec import JsonObject
from engines.w6.sheet import (
    Sheet,
    combat_weapons,
    derive,
    dual_pair,
    fertigkeitsschaden,
    zusatzschaden,
)

STATE_VERSION = 3  # the core Schema's version (engines/w6/combat.py stores and upgrades)
OLD_SCHEMA = "w6.combat"  # versions 1 and 2 were wrapped: see ``unwrap``

UNCONSCIOUS = "bewusstlos"
DYING = "sterbend"
WEAPON_LOST = "waffe_verloren"
CONDITIONS = (UNCONSCIOUS, DYING, WEAPON_LOST, "liegend", "betaeubt")


@dataclass(frozen=True, slots=True)
class WeaponStats:
    """A weapon as the combat uses it; ``stab_je`` 0 means no stability value."""

    name: str
    schaden: tuple[int, int]
    zusatz: int
    fertigkeitsschaden: int
    reichweite: int = 1
    techniken: tuple[str, ...] = ()
    fernkampf: bool = False
    zielen: int = 1
    block: int = 0
    stab_je: int = 0
    stab: int = 0
    stab_max: int = 0
    stab_erfolge: int = 0
    fertigkeit: str = ""  # its Waffenfertigkeit (Beidhändiger Kampf needs the same one twice)


@dataclass(frozen=True, slots=True)
class ShieldStats:
    name: str
    kw_bonus: int
    block: int
    stab_je: int = 0
    stab: int = 0
    stab_max: int = 0
    stab_erfolge: int = 0


@dataclass(frozen=True, slots=True)
class Fighter:
    """One participant: snapshot values, per-phase budget and conditions."""

    id: str
    name: str
    owner: int | None
    ab: int
    intuition: int
    handlungen_max: int
    kw_max: int
    reflex: int
    magie: int
    lp: int
    lp_max: int
    rlp: int
    gesamtschutz: int
    zonen: tuple[tuple[str, int], ...]
    waffen: tuple[WeaponStats, ...]
    schild: ShieldStats | None = None
    kraft: int = 0
    k: int = 0
    g: int = 0
    b: int = 0
    schwelle: int = 0
    schildkampf: int = 0
    beidhaendig: bool = False
    reittier_be: int = 0
    beritten: bool = False
    kw_left: int = 0
    handlungen_left: int = 0
    reflex_used: bool = False
    turn_done: bool = False
    fertig: bool = False
    kw_malus: int = 0
    conditions: tuple[str, ...] = ()
    blockade: int = 0
    ausrichten: int = 0
    zielen: int = 0
    serie_ziel: str = ""
    serie_zahl: int = 0
    serie_gesperrt: tuple[str, ...] = ()

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    @property
    def conscious(self) -> bool:
        return UNCONSCIOUS not in self.conditions

    @property
    def able(self) -> bool:
        """Whether the fighter can act at all: conscious, not dying, LP above 0."""
        return self.conscious and DYING not in self.conditions and self.lp > 0

    def zone_rs(self, zone: str) -> int:
        return dict(self.zonen).get(zone, 0)

    def weapon(self, name: str) -> WeaponStats | None:
        if not name:
            return self.waffen[0] if self.waffen else None
        return next((w for w in self.waffen if w.name == name), None)

    def phase_kw(self) -> int:
        """The KW of a fresh phase: KW after BE, minus zone malus and a mount's BE."""
        mount = self.reittier_be if self.beritten else 0
        return max(0, self.kw_max - self.kw_malus - mount)


MAX_FIGHTERS = 50  # participants in one combat (every one needs a line in the board message)
MAX_UNDO = 100  # steps a combat keeps to undo (``undo_tiefe`` at most)


@dataclass(frozen=True, slots=True)
class Settings:
    """Optional rules and table choices (all off by default, as the rulebook marks them)."""

    schwere_treffer: bool = False
    kaufen: bool = False
    stabilitaet: bool = False
    freie_folgephasen: bool = False
    fernkampf_abwehr: str = "schild"
    undo_tiefe: int = 20


# the optional rules a campaign switches on or off (the on/off ones of ``Settings``)
OPTIONAL_RULES = ("schwere_treffer", "kaufen", "stabilitaet", "freie_folgephasen")
SETTING_NAMES = (
    "schwere_treffer",
    "kaufen",
    "stabilitaet",
    "freie_folgephasen",
    "fernkampf_abwehr",
    "undo_tiefe",
)
RANGED_DEFENCE = ("schild", "alle", "keine")


@dataclass(frozen=True, slots=True)
class Defence:
    """One target of a pending attack and its answer so far."""

    target: str
    answer: str = ""  # "" open, "kw", "keine", "reflex", "blockade"
    kw: int = 0
    weapon: str = ""  # which of the attacker's weapons hits this target
    state: str = "offen"  # offen, angesagt, entscheidung, erledigt


@dataclass(frozen=True, slots=True)
class Pending:
    """An attack (or a choice) waiting for answers. ``stage`` names who must act:
    ``ansage`` (attacker: dice after the Erschwernisprobe), ``abwehr`` (defenders announce),
    ``entscheidung`` (defenders: roll or Zurückweichen), ``rundum`` (attacker: go on or stop
    after a failed Rundumschlag probe), ``nachschlagen`` (attacker: follow-up hit or not)."""

    stage: str
    kind: str
    attacker: str
    targets: tuple[Defence, ...]
    kw: int = 0
    bonus_dice: int = 0
    required: int = 2
    defence_mod: int = 0
    erschwert: int = 0
    zone: str = ""
    zweihaendig: bool = False
    fert: bool = True
    dice: tuple[int, ...] = ()
    successes: int = 0
    dual_same: bool = False
    weapon2: str = ""  # the second weapon of a two-weapon attack on one target
    serie: bool = False
    retreated: str = ""
    nr: int = 0  # the step that began this attack (names its decisions)


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One standing step: its number, the seat that took it (0: the game master), its notation
    and the types of the events it caused."""

    step: int
    actor: int
    action: str
    events: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CombatState:
    """The whole combat. ``phase`` 0 means not begun; ``turn`` indexes ``order`` (-1: every
    fighter has had their turn this phase, only held Handlungen remain).

    Seats (the engine contract's players): seat 0 is the game master (``gm``, the user id the
    GM and every co-GM act as); ``seats`` are the other owners' user ids (opaque keys) in the
    order their first fighter joined, seat ``i + 1`` for ``seats[i]``. Seats never close.

    ``log`` holds the standing steps (an undo replays the log without its last step; no
    snapshot is kept). The log replays from the fresh combat of ``gm``, the Rng's seed,
    ``start`` (the settings it began with) and ``roster`` (fighters the GM may bring in with a
    click), or, for a combat carried over from schema 1 whose history does not replay, from
    ``base`` (that state's JSON; its own log cannot be undone). ``undone`` counts the undos
    in a row (``Settings.undo_tiefe`` caps it); ``gone`` the player seats that left (the GM
    runs their fighters); ``tie_asked`` the fighters asked this phase whether they act first
    on a tie of the Aktionsbasis.
    """

    gm: int
    rng: Rng
    settings: Settings = Settings()
    fighters: tuple[Fighter, ...] = ()
    order: tuple[str, ...] = ()
    phase: int = 0
    turn: int = -1
    pending: Pending | None = None
    last_actor: str = ""
    forced: tuple[int, ...] = ()
    ended: bool = False
    step: int = 0
    log: tuple[LogEntry, ...] = ()
    seats: tuple[int, ...] = ()
    start: Settings = Settings()
    roster: tuple[Fighter, ...] = ()
    base: str = ""
    undone: int = 0
    gone: tuple[int, ...] = ()
    tie_asked: tuple[str, ...] = ()

    def fighter(self, fighter_id: str) -> Fighter:
        """The participant ``fighter_id``. Raises IllegalAction("w6.combat.no_such_fighter")."""
        for fighter in self.fighters:
            if fighter.id == fighter_id:
                return fighter
        raise IllegalAction("w6.combat.no_such_fighter", fighter=fighter_id)

    def find(self, fighter_id: str) -> Fighter | None:
        return next((f for f in self.fighters if f.id == fighter_id), None)

    def with_fighter(self, fighter: Fighter) -> CombatState:
        return replace(
            self, fighters=tuple(fighter if f.id == fighter.id else f for f in self.fighters)
        )

    @property
    def current(self) -> str:
        """The fighter whose turn it is ('' when the AB order has run through)."""
        return self.order[self.turn] if 0 <= self.turn < len(self.order) else ""


def new_combat(
    gm: int, seed: int, settings: Settings | None = None, roster: tuple[Fighter, ...] = ()
) -> CombatState:
    """An empty combat for one channel, led by the user ``gm``."""
    chosen = settings or Settings()
    return CombatState(gm=gm, rng=Rng(seed), settings=chosen, start=chosen, roster=roster)


def seat_of_owner(state: CombatState, owner: int | None) -> int:
    """The seat that runs fighters of ``owner``: 0 for NPCs and the GM's own, else the
    owner's seat (a new owner gets the next seat)."""
    if owner is None or owner == state.gm:
        return 0
    if owner in state.seats:
        return state.seats.index(owner) + 1
    return len(state.seats) + 1


def owner_of_seat(state: CombatState, seat: int) -> int | None:
    """The user id behind player seat ``seat`` (None for the GM seat or an unknown seat)."""
    return state.seats[seat - 1] if 1 <= seat <= len(state.seats) else None


def _stab(value: tuple[int, int] | None) -> tuple[int, int, int]:
    return (0, 0, 0) if value is None else (value[0], value[1], value[1])


def fighter_from_sheet(sheet: Sheet, fighter_id: str, owner: int | None) -> Fighter:
    """Snapshot the values a combat needs from a sheet (its weapons, and the unarmed attack
    when it has no melee weapon). Raises BadInput for a bad id."""
    check_fighter_id(fighter_id)
    derived = derive(sheet)
    weapons = []
    for w in combat_weapons(sheet):
        je, stab, stab_max = _stab(w.stabilitaet)
        weapons.append(
            WeaponStats(
                w.name,
                w.schaden,
                zusatzschaden(sheet, w),
                fertigkeitsschaden(sheet, w),
                w.reichweite,
                w.techniken,
                w.fernkampf,
                w.zielen,
                w.block,
                je,
                stab,
                stab_max,
                fertigkeit=w.fertigkeit,
            )
        )
    shield = None
    if sheet.schild is not None:
        je, stab, stab_max = _stab(sheet.schild.stabilitaet)
        shield = ShieldStats(
            sheet.schild.name, sheet.schild.kw_bonus, sheet.schild.block, je, stab, stab_max
        )
    return Fighter(
        id=fighter_id,
        name=sheet.name,
        owner=owner,
        ab=sheet.ab,
        intuition=sheet.eigenschaft("Intuition"),
        handlungen_max=derived.handlungen,
        kw_max=derived.kw_effektiv,
        reflex=derived.reflex_effektiv,
        magie=sheet.magie,
        lp=sheet.lp,
        lp_max=sheet.lp_max,
        rlp=sheet.rlp,
        gesamtschutz=derived.gesamtschutz,
        zonen=derived.zonen_rs,
        waffen=tuple(weapons),
        schild=shield,
        kraft=derived.kraft,
        k=sheet.pm_value("K"),
        g=sheet.pm_value("G"),
        b=sheet.pm_value("B"),
        schwelle=derived.schwelle,
        schildkampf=sheet.fertigkeit("Schildkampf"),
        beidhaendig=derived.beidhaendig and len(dual_pair(sheet)) == 2,
        reittier_be=sheet.reittier.be if sheet.reittier else 0,
    )


def check_fighter_id(fighter_id: str) -> None:
    """Ids are short words (letters, digits, ``_``, ``-``). Raises BadInput."""
    ok = 0 < len(fighter_id) <= 24 and all(c.isalnum() or c in "_-" for c in fighter_id)
    if not ok:
        raise BadInput("w6.combat.bad_id", value=fighter_id)


def unwrap(data: object) -> object:
    """A stored combat as the core ``Schema`` reads it: versions 1 and 2 were written as
    ``{"schema": "w6.combat", "version": n, "state": {...}}``, version 3 on is
    ``{"schema": n, ...fields}``. Raises BadInput("w6.combat.bad_state")."""
    if not isinstance(data, dict) or data.get("schema") != OLD_SCHEMA:
        return data
    body = data.get("state")
    if not isinstance(body, dict):
        raise BadInput("w6.combat.bad_state", field="state")
    version = data.get("version")
    if type(version) is not int:
        raise BadInput("w6.combat.bad_state", field="version")
    return {**body, "schema": version}


def from_v2(body: JsonObject) -> JsonObject:
    """Version 2 -> 3: the same fields; only the wrapper around them changed."""
    return body
