"""Spells: which figures a spell may act on, the distance a wizard reaches, and his rights
over buildings (Versetzen)."""

from __future__ import annotations

from engines.armageddon.hexmap import parse_field
from engines.armageddon.rules import Index, allied, block_majority, counts, fail
from engines.armageddon.scenario import Scenario
from engines.armageddon.state import Figure, State


def spell_targets(
    idx: Index, spell: str, caster: Figure, field: str, level: int | None, floor: str = ""
) -> list[Figure]:
    """The figures of ``field`` a spell acts on: all it can act on (kleinfeldweise Wirkung);
    ``level``: only that floor of a tower (None: the whole field, every floor — Kap. 0 "auch
    stockwerkweise"); ``floor``: only that floor of a siege tower there. Raises when one of
    them is still under another spell (mehrfache Zauber) or none is there."""
    sc = idx.sc
    sp = sc.tables.spells.get(spell)
    if sp is None:
        raise fail("unknown_spell", spell=spell)
    figs = []
    for f in idx.on_field(field, level if field in sc.towers else None):
        if floor:
            holder = idx.by_id.get(f.carrier)
            if holder is None or holder.kind != "belagerungsturm" or f.slot != floor:
                continue
        k = idx.kind(f)
        if k.hover:  # a hovering wizard is never enchanted
            continue
        if k.cls not in sp.acts_on:
            continue
        if sp.foreign_only and allied(idx.state, f.owner, caster.owner):
            continue
        figs.append(f)
    if not figs:
        raise fail("spell_no_target", spell=spell, field=field)
    bound = [f for f in figs if f.enchant and f.enchant_until >= idx.state.round]
    if bound:
        raise fail("spell_twice", spell=spell, figure=bound[0].id, state=bound[0].enchant)
    return figs


def distance(sc: Scenario, a: str, b: str) -> int:
    def cube(name: str) -> tuple[int, int, int]:
        pos = parse_field(name)
        assert pos is not None
        col, row = pos
        x = col - (row - (row & 1)) // 2
        return x, row, -x - row

    ax, ay, az = cube(a)
    bx, by, bz = cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def may_set_into(state: State, idx: Index, party: int, tower: str, level: int) -> bool:
    """The wizard's rights over buildings (Versetzen onto a platform or out of a building):
    his own building when it is empty or his side has the majority in it; a foreign one when
    the owner permits, when it is free of warriors, or when no enemy warrior is in it and his
    side (or a party that permits him, with its allies) has the majority there."""
    sc = idx.sc
    owner = sc.towers[tower].owner
    inside = idx.warriors(idx.on_field(tower))
    tally = counts(idx, inside)
    holders = block_majority(state, tally)
    if owner == party:  # with equal sides nobody has the Übermacht to forbid it (Kap. 0)
        return not inside or party in holders or not holders
    if (tower, party) in state.permits:
        return True
    if not inside:
        return True
    if any(not allied(state, w.owner, party) for w in inside):
        return False
    return party in holders or any((tower, p) in state.permits for p in holders)
