"""Telperinquár against its rulebook (issue 21): the hero as a target when nothing else is in
the attack's melee reach, hidden Wesen, Rundumschlag in the attacker's own Drohbereich,
magic counter-attacks, a dying Wesen's weapon, the EW, reactions to every action, and the
end of a game when both heroes fall."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.narration.telperinquar import SPEC
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


def _ctx(d: dict[str, Any], lang: str) -> Any:
    return SimpleNamespace(lang=lang, names=["Alice", "Bob"], match=SimpleNamespace(state=st(d)))


def test_both_heroes_falling_in_one_turn_is_a_draw_said_as_such() -> None:
    d = main_phase(fresh())
    d["players"][0]["life"] = -3
    d["players"][1]["life"] = 0
    d, events = do(d, 0, "next")
    outcome = ENGINE.outcome(st(d))
    assert outcome is not None and outcome.is_draw and outcome.reason == "both_fell"
    assert [e.data["player"] for e in events if e.type == "hero_fell"] == [0, 1]
    de = SPEC.outcome_text(outcome, _ctx(d, "de"))
    assert "im selben Zug gefallen" in de and "Rundengrenze" not in de
    assert "fell in the same turn" in SPEC.outcome_text(outcome, _ctx(d, "en"))


def test_the_round_limit_ends_the_game_after_its_last_round() -> None:
    d = fresh(round_limit=2)
    state = st(d)
    while ENGINE.outcome(state) is None:
        (decision,) = ENGINE.decisions(state)
        legal = [str(a) for a in ENGINE.legal_actions(state, decision.seat)]
        word = next(w for w in ("go", "pass", "next", "end") if w in legal)
        state, _ = ENGINE.apply(state, ENGINE.parse_action(word), decision.seat)
    d = ENGINE.state_to_json(state)
    assert d["turns"] == 4  # two rounds of two turns
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.is_draw and outcome.reason == "round_limit"
    assert "Rundengrenze von 2 Runden" in SPEC.outcome_text(outcome, _ctx(d, "de"))
    assert "limit of 2 rounds" in SPEC.outcome_text(outcome, _ctx(d, "en"))


def test_rundumschlag_hits_everything_in_the_attackers_own_drohbereich() -> None:
    """An Oger at place 3 reaches places 2-4: attacking the Wolf at place 2 it hits the
    Wolves at places 2 and 3 (its own Drohbereich), not the target's neighbour at place 1
    nor the Wolf at place 5; the Falke at place 4 flies (hit only when attacked directly);
    only the target strikes back."""
    d = main_phase(fresh())
    levels_to(d, 0, 6)
    give(d, 0, "Wolf", "row")
    give(d, 0, "Wolf", "row")
    ogre = give(d, 0, "Oger", "row")
    a, b, c, e = (give(d, 1, "Wolf", "row") for _ in range(4))
    bat = give(d, 1, "Falke", "row")
    d["players"][1]["row"] = [a, b, c, bat, e]
    d["forced"] = [3, 2]  # 3 + 4 = 7 against every Wolf (life 8); the counter: 2 + 1
    d, events = do(d, 0, f"use {ogre} {b}")
    d = pass_all(d)
    hit = [e_.data["target"] for e_ in events if e_.type == "damage"]
    assert hit[:2] == [b, c] and a not in hit and bat not in hit and e not in hit
    assert d["cards"][b]["dmg"] == 7 and d["cards"][c]["dmg"] == 7
    assert "dmg" not in d["cards"][a]
    assert sum(1 for e_ in events if e_.type == "counter") == 1
