"""Armageddon's words: the reader's names of figures, fields, parties, spells and verbs
(``Words``), every engine event told as a line, the round line and the words on the map
(``map_text`` for ``bot.render.armageddon``). Pure functions of views and events, in the
reader's language; the game's table plug-in is ``bot.play.specs.armageddon``. Seat 0 is the
game master; seat ``p`` plays party ``p``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from bot.i18n import catalog, t
from bot.render.armageddon import EDGE_MARKS, MapText
from engines.armageddon.hexmap import DIRECTIONS
from engines.armageddon.scenario import COLOURS
from engines.core import Event
from engines.core.content import data_dir

DOMAIN = "armageddoncog"
GM = 0
GM_ICON = "🎩"
COLOUR_ICONS = {
    "rot": "🟥",
    "blau": "🟦",
    "gruen": "🟩",
    "gelb": "🟨",
    "lila": "🟪",
    "orange": "🟧",
    "weiss": "⬜",
    "schwarz": "⬛",
}
TERRAIN_KEYS = {"~": "water"}
TERRAIN_CODES = ("T", "H", "B", "W", "S", "~")  # in the order of the map's colours
FIGURE_KEYS = (
    "figure",
    "wizard",
    "carrier",
    "animal",
    "with",
    "ship",
    "attacker",
    "defender",
    "wagon",
)
PARTY_KEYS = ("to", "starter", "claimer")


def phrase(key: str, lang: str, **params: Any) -> str:
    return t(f"{DOMAIN}.{key}", lang, **params)


def has_phrase(key: str) -> bool:
    return f"{DOMAIN}.{key}" in catalog()


@lru_cache(maxsize=1)
def _kind_of_abbr() -> dict[str, str]:
    """Figure kinds by their abbreviation (``k`` krieger, ``pf`` pferd …), from the rules data."""
    rules = json.loads(data_dir("armageddon", "rules.json").read_text(encoding="utf-8"))
    return {str(v["abbr"]): str(k) for k, v in rules["kinds"].items()}


# ------------------------------------------------------------------------ words


class Words:
    """The names of one view's parties, figures, fields and places in the reader's language."""

    def __init__(self, view: Mapping[str, Any], names: Sequence[str], lang: str) -> None:
        self.view, self.names, self.lang = view, names, lang
        self.figures = {str(f["id"]): f for f in view["figures"]}
        self.gone = {str(f["id"]): f for f in view.get("fallen", [])}
        self.stellungen = {
            str(st["name"]): str(st.get("title") or st["name"]) for st in view.get("stellungen", [])
        }
        self.fields = {str(f["name"]): f for f in view["fields"]}
        self.colours = {int(p["seat"]): str(p["colour"]) for p in view["parties"]}
        self.falling: set[str] = set()  # gone at the end of a batch, not yet in its line

    def name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else "?"

    def party(self, seat: int) -> str:
        if seat == GM:
            return f"{GM_ICON} {phrase('gm', self.lang)}"
        icon = COLOUR_ICONS.get(self.colours.get(seat, ""), "⚔️")
        return phrase("party", self.lang, icon=icon, name=self.name(seat), party=seat)

    def allied(self, p: int, q: int) -> bool:
        return [min(p, q), max(p, q)] in [list(x) for x in self.view.get("alliances", [])]

    def alliance_option(self, p: int, q: int) -> str:
        """An ally click's label: whether it makes or breaks the alliance of ``p`` and ``q``."""
        key = "ally.break" if self.allied(p, q) else "ally.make"
        return phrase(key, self.lang, a=self.party(p), b=self.party(q))

    def alliances(self) -> str:
        """The current alliances in one line (the scenario's and the game master's)."""
        pairs = [
            f"{self.party(int(p))} + {self.party(int(q))}"
            for p, q in self.view.get("alliances", [])
        ]
        return phrase(
            "ally.current", self.lang, pairs="; ".join(pairs) or phrase("ally.none", self.lang)
        )

    def kind(self, kind: str) -> str:
        return phrase(f"kind.{kind}", self.lang) if has_phrase(f"kind.{kind}") else kind

    def figure(self, fid: str, *, at: bool = False, plain: bool = False) -> str:
        """A figure by its kind and id (``at``: with its field); one no longer on the board
        is named as fallen (``plain``: not, where the sentence says it falls)."""
        fig = self.figures.get(fid)
        kind = str(fig["kind"]) if fig else _kind_of_abbr().get(fid.rstrip("0123456789"), "")
        label = self.kind(kind) if kind else ""
        if fig is not None and at:
            where = self.field_name(str(fig["field"]), int(fig["level"]))
            return phrase("figure_at", self.lang, kind=label, id=fid, field=where)
        if fig is None and fid in self.gone and fid not in self.falling and not plain:
            return phrase("figure_fallen", self.lang, kind=label, id=fid)
        return phrase("figure", self.lang, kind=label, id=fid).strip()

    def fallen(self, fid: str) -> str:
        """A fallen figure with the place it fell on (the game master brings it back)."""
        gone = self.gone.get(fid)
        if gone is None:
            return self.figure(fid)
        where = self.field_name(str(gone["field"]), int(gone["level"]))
        label = self.kind(str(gone["kind"]))
        return phrase("figure_fallen_at", self.lang, kind=label, id=fid, field=where)

    def terrain(self, code: str) -> str:
        return phrase(f"terrain.{TERRAIN_KEYS.get(code, code)}", self.lang)

    def field_name(self, name: str, level: int = 0) -> str:
        return phrase("level", self.lang, field=name, level=level) if level else name

    def field(self, name: str) -> str:
        """A field with its terrain and its room (used/capacity in Raumeinheiten)."""
        entry = self.fields.get(name)
        if entry is None:
            return name
        room = entry["room"][0]
        terrain = self.terrain(str(entry["terrain"]))
        if room["filled"]:
            return phrase("field_full", self.lang, field=name, terrain=terrain)
        used, capacity = room["used"], room["capacity"]
        return phrase("field", self.lang, field=name, terrain=terrain, used=used, capacity=capacity)

    def place(self, place: str) -> str:
        """``f:c4:0`` (a field's level), ``c:e3:sattel`` (a carrier's place), ``h:c4``."""
        parts = place.split(":")
        if parts[0] == "c" and len(parts) == 3:
            return phrase(
                "seat_place", self.lang, place=self.slot(parts[2]), figure=self.figure(parts[1])
            )
        if parts[0] == "f" and len(parts) == 3 and parts[2].isdecimal():
            return self.field_name(parts[1], int(parts[2]))
        return parts[-1] if parts[0] == "h" else place

    def slot(self, slot: str) -> str:
        return phrase(f"slot.{slot}", self.lang) if has_phrase(f"slot.{slot}") else slot

    def direction(self, d: str) -> str:
        return phrase(f"dir.{d}", self.lang) if d in DIRECTIONS else d

    def edge(self, token: str | Sequence[str]) -> str:
        if not isinstance(token, str):  # a pair of fields
            return "–".join(str(x) for x in token)
        fld, _sep, d = token.partition("/")
        if d in DIRECTIONS:
            return phrase("edge", self.lang, field=fld, direction=self.direction(d))
        if d.isdecimal():
            return self.field_name(fld, int(d))
        if has_phrase(f"slot.{d}"):  # a siege tower's floor (a spell's target)
            return phrase("siege_floor", self.lang, field=fld, place=self.slot(d))
        return token

    def stellung(self, name: str) -> str:
        """A Verteidigungsstellung as the scenario writes its name (``Burg``, not ``burg``)."""
        return self.stellungen.get(name, name)

    def colour(self, colour: str) -> str:
        return phrase(f"colour.{colour}", self.lang) if colour in COLOURS else colour

    def spell(self, spell: str) -> str:
        return phrase(f"spell.{spell}", self.lang) if has_phrase(f"spell.{spell}") else spell

    def target(self, token: str) -> str:
        """A figure, a field (with a level or an edge) or what else a target is."""
        known = token in self.figures or token.rstrip("0123456789") in _kind_of_abbr()
        if known and token[-1:].isdigit() and token not in self.fields:
            return self.figure(token)
        if "/" in token:
            return self.edge(token)
        return token

    def action(self, text: str) -> str:
        """A party's action in words (``step k1 b1`` → ``Schritt: Krieger k1 → b1``)."""
        verb, *args = text.split(" -- ")[0].split()
        label = phrase(f"verb.{verb}", self.lang) if has_phrase(f"verb.{verb}") else verb
        if not args:
            return label

        def term(token: str) -> str:
            if verb == "face" and token in DIRECTIONS:
                return self.direction(token)
            if verb == "mount" and has_phrase(f"slot.{token}"):
                return self.slot(token)
            return " + ".join(self.target(part) for part in token.split("+"))

        rest = " → ".join(term(a) for a in args[1:])
        return f"{label}: {self.target(args[0])}" + (f" → {rest}" if rest else "")

    def scores(self) -> str:
        return ", ".join(f"{self.party(int(p['seat']))} {p['score']}" for p in self.view["parties"])


# ------------------------------------------------------------------------ narration


def _param(key: str, value: Any, w: Words) -> Any:
    """One event parameter in words: parties, figures, places, edges, dice, spells …"""
    if key in PARTY_KEYS and isinstance(value, int):
        return w.party(value)
    if key in FIGURE_KEYS and isinstance(value, str):
        return w.figure(value)
    if key in ("figures", "target") and isinstance(value, list):
        return ", ".join(w.target(str(x)) for x in value) or "–"
    words: dict[str, Any] = {
        "target": lambda: w.target(str(value)),
        "allies": lambda: ", ".join(w.party(int(x)) for x in value),
        "parties": lambda: " & ".join(w.party(int(x)) for x in value),
        "place": lambda: w.place(str(value)),
        "edge": lambda: w.edge(value),
        "rolls": lambda: ", ".join(str(x) for x in value),
        "why": lambda: phrase(f"why.{value}", w.lang) if has_phrase(f"why.{value}") else str(value),
        "spell": lambda: w.spell(str(value)),
        "facing": lambda: w.direction(str(value)),
        "stellung": lambda: w.stellung(str(value)),
        "double": lambda: phrase(f"double.{value}", w.lang),
        "colour": lambda: w.colour(str(value)),
    }
    return words[key]() if key in words else value


def event_line(kind: str, data: Mapping[str, Any], w: Words, actor: int) -> str:
    """One engine event in the reader's words (``name``: the party it concerns)."""
    params = {key: _param(key, value, w) for key, value in data.items() if key != "player"}
    params["name"] = w.party(int(data.get("player", actor)))
    if kind == "fight":  # value + roll = total on each side, then who falls
        totals, rolls = list(data["totals"]), list(data["rolls"])
        values = data.get("values") or [totals[0] - rolls[0], totals[1] - rolls[1]]
        params["attack"], params["defence"] = totals
        params["a_value"], params["d_value"] = values
        params["a_roll"], params["d_roll"] = rolls
        result = "tie" if totals[0] == totals[1] else "won" if totals[0] > totals[1] else "lost"
        params["result"] = phrase(f"fight.{result}", w.lang, attacker=params["attacker"],
                              defender=params["defender"])  # fmt: skip
    if kind in ("set_over", "gm_moved"):
        params["to"] = w.field_name(str(data["to"]), int(data.get("level") or 0))
    if kind == "cast" and data.get("spell") == "versetzen":  # the field, then where to
        params["target"] = " → ".join(w.target(str(x)) for x in data["target"])
    if kind == "undone":
        params["action"] = w.action(str(data["action"]))
    if kind == "removed":  # the sentence says that it falls
        params["figure"] = w.figure(str(data["figure"]), plain=True)
    if kind == "gm_note":
        params["action"] = str(data["action"]).split(" -- ")[0]
        if params["action"] == "gm":  # a note before any overrule
            kind = "gm_note.alone"
    key = {
        "climbed": "climbed" if data.get("level") else "climbed.ground",
        "removed": "removed" if data.get("player") else "removed.free",  # herrenlos
        "alliance": f"alliance.{'on' if data.get('allied') else 'off'}",
        "gate": f"gate.{'open' if data.get('open') else 'closed'}",
        "game_over": f"game_over.{data.get('reason')}",
        "dice": "dice.figure" if data.get("figure") else "dice",
        "stepped": "stepped.double" if data.get("double") else "stepped",
        "mounted": "mounted.double" if data.get("double") else "mounted",
        "dismounted": "dismounted.double" if data.get("double") else "dismounted",
    }.get(kind, kind)
    line = phrase(f"event.{key}", w.lang, **params)
    return line[:1].upper() + line[1:]


def narrate_events(
    items: Sequence[tuple[int, Event]],
    w: Words,
    shared: Callable[[int, Event], list[str]],
) -> list[str]:
    """The lines of a batch of events (``shared``: the table's words for resigns, draw votes,
    forfeits). A figure is named by the moment: one that falls later in the batch is not yet
    "(gefallen)" in the lines before its fall (the attack it loses, for one)."""
    lines = []
    w.falling = {str(e.data["figure"]) for _, e in items if e.type == "removed"}
    gone: dict[int, int] = {}  # a party leaving: its figures in one line, not one each
    for actor, event in items:
        if event.type == "removed" and event.data.get("why") == "left":
            owner = int(event.data.get("player") or 0)
            gone[owner] = gone.get(owner, 0) + 1
            w.falling.discard(str(event.data["figure"]))
            continue
        if has_phrase(f"event.{event.type}") or event.type in ("alliance", "gate", "game_over"):
            lines.append(event_line(event.type, event.data, w, actor))
        else:
            lines += shared(actor, event)
        if event.type == "removed":
            w.falling.discard(str(event.data["figure"]))
    w.falling = set()
    for owner, count in gone.items():
        lines.append(phrase("event.left_figures", w.lang, name=w.party(owner), count=count))
    return lines


def map_text(view: Mapping[str, Any], names: Sequence[str], lang: str, game_id: int) -> MapText:
    """The words around the map: title, the round and phase, one label per party, notes."""
    w = Words(view, names, lang)
    preview = not game_id  # a scenario shown before any game: no number, no players yet
    parties = tuple(
        phrase(
            "map.party_preview" if preview else "map.party",
            lang,
            party=p["seat"],
            name=w.name(int(p["seat"])),
            colour=w.colour(str(p["colour"])),
            score=p["score"],
        )
        for p in view["parties"]
        if not p["out"]
    )
    notes = []
    if view.get("crowds"):
        places = ", ".join(w.place(str(c["place"])) for c in view["crowds"])
        notes.append(phrase("map.crowded", lang, places=places))
    hungry = [w.stellung(str(st["name"])) for st in view.get("stellungen", []) if st["hunger"]]
    if hungry:
        notes.append(phrase("map.hunger", lang, names=", ".join(hungry)))
    if view.get("pending"):
        notes.append(phrase("map.pending", lang, target=w.target(str(view["pending"]["target"]))))
    title = phrase(
        "map.title_preview" if preview else "map.title", lang, scenario=view["scenario"], id=game_id
    )
    legend = phrase("map.legend", lang)
    terrain = tuple(w.terrain(code) for code in TERRAIN_CODES)
    terrain = tuple(name[:1].upper() + name[1:] for name in terrain)
    edges = tuple(phrase(f"map.edge.{mark}", lang) for mark in EDGE_MARKS)
    return MapText(
        title, round_line(view, lang), parties, " · ".join(notes), legend, terrain, edges
    )


def round_line(view: Mapping[str, Any], lang: str) -> str:
    phase = phrase(f"phase.{view['phase']}", lang)
    return phrase("status.round", lang, round=view["round"], rounds=view["rounds"], phase=phase)
