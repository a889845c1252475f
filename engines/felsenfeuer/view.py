"""What a seat may see: plain data for the board renderer and the narrator (the words of the
model's vocabularies as plain strings: a view travels to the render processes).

Shape (every die id is an index into ``dice``)::

    phase auswahl|draft|essence|action|spell|end, rules, mode, players, teams, start,
    stone (seat), stone_on_marker (spell phase), initiative (seat), passes, laid,
    spell_rune (die id or None), duellplatz (matrix or None),
    seats [{seat, team, out, role vorsteher|sekundant|None, essence_points,
            essences [{id, colour, pips}], marker (matrix), hands [[colours], [colours]],
            bag [colours], cauldron (matrix or None), picked [colours], auswahl_done}],
    matrices [{index, start, glyphs [ids], runes [ids], floating [ids], markers [seats],
               cauldrons [seats]}],
    dice [{id, owner, colour, zone, matrix, pips (as it counts now), base_pips,
           counts_as_colours, hand, glyph, frozen, shrine_of, temple, spruchrune}],
    stack [{kind spell|blood|offer|phase|end|next, caster, blood, spell, name, step,
            text_de, text_en (the sentence about to run), die (offers)}] (bottom first),
    decision None | {seat, prompt (message key), params, options [tokens],
                     spells [spell summaries] for a cast choice},
    phases, phase_limit, quiet, quiet_limit, winners [seats], result (reason), supply,
    spheres [summaries of the spheres in force], weltentor,
    own_auswahl (only the reader's own sealed choice, while secret)
"""

from __future__ import annotations

from typing import Any

from engines.core.contract import JsonDict
from engines.felsenfeuer.model import Die, State
from engines.felsenfeuer.spells import book_for, spheres
from engines.felsenfeuer.work import Work

VORSTEHER = (1, 4)


def _die(w: Work, d: Die) -> dict[str, Any]:
    return {"id": d.id, "owner": d.owner, "colour": d.colour, "zone": str(d.zone),
            "matrix": d.matrix if d.zone in ("matrix", "essence", "float") else None,
            "pips": w.pips_of(d) if d.zone in ("matrix", "essence", "float") else None,
            "base_pips": d.pips if d.zone in ("matrix", "essence", "float") else None,
            "counts_as_colours": sorted(w.colours_of(d)), "hand": d.hand if d.zone == "hand"
            else None, "glyph": d.glyph, "frozen": d.frozen, "shrine_of": d.shrine_of
            if d.shrine_of >= 0 else None, "temple": bool(w.temple_members(d.id)),
            "spruchrune": d.id == w.spell_rune}  # fmt: skip


def view(state: State, player: int | None) -> JsonDict:
    w = Work(state)
    s = state.settings
    book = book_for(s.spells)
    seats = []
    for seat in range(s.players):
        own = [d for d in state.dice if d.owner == seat]
        role = None
        if s.mode == "gilde":
            role = "vorsteher" if seat in VORSTEHER else "sekundant"
        seats.append({
            "seat": seat, "team": w.team(seat), "out": seat in state.out, "role": role,
            "essence_points": w.essence_points(seat),
            "essences": [{"id": d.id, "colour": d.colour, "pips": d.pips}
                         for d in own if d.zone == "essence"],
            "marker": state.markers[seat] if state.markers else 0,
            "hands": [[d.colour for d in own if d.zone == "hand" and d.hand == h] for h in (0, 1)],
            "bag": [d.colour for d in own if d.zone == "bag"],
            "cauldron": state.cauldrons[seat] if state.cauldrons and
            state.cauldrons[seat] >= 0 else None,
            "picked": [d.colour for d in own if d.zone == "picked"],
            "auswahl_done": bool(state.auswahl[seat]) if state.auswahl else False,
        })  # fmt: skip
    matrices = []
    for m in range(state.matrices):
        on = [d for d in state.dice if d.matrix == m and d.zone in ("matrix", "essence", "float")]
        matrices.append({
            "index": m, "start": m == 0,
            "glyphs": [d.id for d in on if d.zone == "matrix" and d.glyph],
            "runes": [d.id for d in on if d.zone == "matrix" and not d.glyph],
            "floating": [d.id for d in on if d.zone == "float"],
            "markers": [x for x in range(s.players)
                        if state.markers[x] == m and x not in state.out],
            "cauldrons": [x for x in range(s.players)
                          if state.cauldrons[x] == m and x not in state.out],
        })  # fmt: skip
    stack = []
    for e in state.stack:
        item: dict[str, Any] = {"kind": str(e.kind), "caster": e.caster, "blood": e.blood}
        if e.kind in ("spell", "blood"):
            spell = book[e.spell]
            item.update(spell=spell.slug, name=spell.name, step=e.step)
            if e.kind == "spell" and e.step < len(spell.steps):
                item.update(text_de=spell.steps[e.step].text_de,
                            text_en=spell.steps[e.step].text_en)  # fmt: skip
        if e.kind == "offer":
            item["die"] = e.die
        stack.append(item)
    pending = None
    if state.pending is not None:
        p = state.pending
        pending = {"seat": p.seat, "prompt": p.prompt, "params": dict(p.params),
                   "options": list(p.options)}  # fmt: skip
        if p.prompt == "felsenfeuer.ask.cast":  # what the caster may choose from, to read
            pending["spells"] = [book[o].summary() for o in p.options if o in book]
    out: JsonDict = {
        "phase": str(state.phase), "rules": str(s.rules), "mode": str(s.mode),
        "players": s.players,
        "teams": list(s.teams), "start": s.start, "stone": state.stone,
        "stone_on_marker": state.phase == "spell",
        "initiative": state.stone if state.phase in ("spell", "action") else None,
        "passes": state.passes, "laid": state.laid,
        "spell_rune": state.spell_rune if state.spell_rune >= 0 else None,
        "duellplatz": w.duellplatz() if w.duellplatz() >= 0 else None,
        "seats": seats, "matrices": matrices,
        "dice": [_die(w, d) for d in state.dice], "stack": stack, "decision": pending,
        "phases": state.phases, "phase_limit": s.phase_limit, "quiet": state.quiet,
        "quiet_limit": s.quiet_limit, "winners": list(state.winners),
        "result": str(state.result) or None, "supply": list(s.supply),
        "spheres": [spheres()[slug].summary() for slug in w.active_spheres()],
        "weltentor": s.weltentor, "quake": s.quake,
    }  # fmt: skip
    if player is not None and state.phase == "auswahl" and state.auswahl[player]:
        out["own_auswahl"] = f"auswahl:{state.auswahl[player]}"
    return out
