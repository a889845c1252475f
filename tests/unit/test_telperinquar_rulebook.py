"""Telperinquár against its rulebook (issue 21): the hero as a target when nothing else is in
the attack's melee reach, hidden Wesen, Rundumschlag in the attacker's own Drohbereich,
magic counter-attacks, a dying Wesen's weapon, the EW, reactions to every action, and the
end of a game when both heroes fall."""

from __future__ import annotations

from typing import Any

from engines.telperinquar.engine import ENGINE, targets
from tests.unit.test_telperinquar_engine import do, fresh, give, levels_to, main_phase, st


def legal(d: dict[str, Any], seat: int) -> list[str]:
    return [str(a) for a in ENGINE.legal_actions(st(d), seat)]


def pass_all(d: dict[str, Any]) -> dict[str, Any]:
    while d["ask"] is not None:
        d, _ = do(d, d["ask"], "pass")
    return d


def test_the_hero_is_a_target_when_nothing_else_is_in_melee_reach() -> None:
    """Four own Wolves, one enemy Wolf at place 1: the fourth Wolf reaches no Wesen, so it
    may attack the hero ("Falls außer dem Helden kein weiteres Ziel in Nahkampfreichweite
    eines Angriffes ist, kann der Held als Ziel gewählt werden")."""
    d = main_phase(fresh())
    wolves = [give(d, 0, "Wolf", "row") for _ in range(4)]
    enemy = give(d, 1, "Wolf", "row")
    assert targets(d, wolves[0], "melee", 0) == [enemy]
    assert targets(d, wolves[1], "melee", 0) == [enemy]
    assert targets(d, wolves[2], "melee", 0) == ["h1"]
    assert targets(d, wolves[3], "melee", 0) == ["h1"]
    assert f"use {wolves[3]} h1" in legal(d, 0)
    assert f"use {wolves[0]} h1" not in legal(d, 0)  # the enemy Wolf stands in its reach
    # a hero reaches every Wesen: the enemy Wolf still protects its hero against it
    assert "h1" not in targets(d, "h0", "melee", 0)
