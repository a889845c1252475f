"""Telperinquár's booster draft: boosters with a rarity spread, secret simultaneous picks,
passing left and right, the picks at the end, a seat that leaves, the deck built from the
picks and the game played with it by the draft rules."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from engines.core import BadInput, IllegalAction
from engines.core import match as m
from engines.core.contract import DecisionKind
from engines.telperinquar.cards import catalogue
from engines.telperinquar.decks import parse_list, validate
from engines.telperinquar.draft import (
    DRAFT_ENGINE,
    DraftState,
    Pick,
    bot_pick,
    build_draft_deck,
    picks_of,
    spread,
)
from engines.telperinquar.engine import ENGINE

E = DRAFT_ENGINE


def first_pick(state: DraftState, seat: int) -> Pick:
    return E.legal_actions(state, seat)[0]


def test_a_booster_has_the_rarity_spread() -> None:
    assert spread(10) == {"rare": 1, "uncommon": 3, "common": 6}
    state = E.initial_state({}, 7, 3)
    cards = catalogue().cards
    for pack in state.data["packs"]:
        rarities = Counter(cards[state.data["cards"][c]].rarity for c in pack)
        assert rarities == Counter({"common": 6, "uncommon": 3, "rare": 1})


def test_every_seat_picks_at_once_and_secretly() -> None:
    state = E.initial_state({}, 1, 3)
    decisions = E.decisions(state)
    assert [d.seat for d in decisions] == [0, 1, 2]
    assert all(d.kind is DecisionKind.SEALED for d in decisions)
    pick = first_pick(state, 0)
    name = state.data["cards"][pick.card]
    state, events = E.apply(state, pick, 0)
    assert [d.seat for d in E.decisions(state)] == [1, 2]  # seat 0's decision closed
    assert all(e.visible_to == frozenset({0}) for e in events if e.type == "picked")
    for viewer in (None, 1, 2):
        shown = json.dumps(E.view_for(state, viewer), ensure_ascii=False)
        assert pick.card not in shown
        assert E.view_for(state, viewer)["seats"][0] == {
            "picks": 1,
            "picked": True,
            "booster": 9,
            "out": False,
        }
    assert E.view_for(state, 0)["picks"] == [name]
    assert E.action_visible_to(state, pick, 0) == frozenset({0})


def test_boosters_pass_left_then_right() -> None:
    state = E.initial_state({}, 2, 3)
    packs = [list(p) for p in state.data["packs"]]
    for seat in range(3):
        state, _ = E.apply(state, first_pick(state, seat), seat)
    # round 1 passes to the left: seat s now holds what seat s-1 held
    for seat in range(3):
        assert state.data["packs"][seat] == packs[(seat - 1) % 3][1:]
    while state.data["round"] == 0:
        for seat in range(3):
            state, _ = E.apply(state, first_pick(state, seat), seat)
    packs = [list(p) for p in state.data["packs"]]
    for seat in range(3):
        state, _ = E.apply(state, first_pick(state, seat), seat)
    for seat in range(3):  # round 2 passes to the right
        assert state.data["packs"][seat] == packs[(seat + 1) % 3][1:]


def test_a_pick_from_another_booster_or_an_old_one_is_refused() -> None:
    state = E.initial_state({}, 3, 2)
    other = state.data["packs"][1][0]
    before = E.state_to_json(state)
    with pytest.raises(IllegalAction):
        E.apply(state, Pick(other), 0)
    pick = first_pick(state, 0)
    state, _ = E.apply(state, pick, 0)
    with pytest.raises(IllegalAction):  # a second click on the same decision
        E.apply(state, first_pick(E.state_from_json(before), 0), 0)
    assert E.state_to_json(E.state_from_json(before)) == before


def draft_to_end(seats: int, seed: int, config: dict[str, int] | None = None) -> DraftState:
    rng = random.Random(seed)
    state = E.initial_state(config or {}, seed, seats)
    while E.outcome(state) is None:
        for decision in E.decisions(state):
            action = E.choose_action(state, decision.seat, "normal", 1, rng)
            state, _ = E.apply(state, action, decision.seat)
    return state


def test_after_three_rounds_every_seat_has_its_picks() -> None:
    state = draft_to_end(4, 5)
    result = E.outcome(state)
    assert result is not None and not result.winners and result.reason == "drafted"
    assert all(len(picks_of(state, s)) == 30 for s in range(4))
    assert not E.decisions(state)
    assert E.state_from_json(json.loads(json.dumps(E.state_to_json(state)))) == state


def test_a_seat_that_leaves_is_picked_for() -> None:
    state = E.initial_state({"booster": 5}, 4, 3)
    state, _ = E.apply(state, first_pick(state, 0), 0)
    state, _ = E.apply(state, first_pick(state, 1), 1)
    state, _ = E.eliminate(state, 2)
    assert len(picks_of(state, 2)) == 1  # the heuristic picked and the boosters passed
    assert {d.seat for d in E.decisions(state)} == {0, 1}
    while E.outcome(state) is None:
        for decision in E.decisions(state):
            state, _ = E.apply(state, first_pick(state, decision.seat), decision.seat)
    assert [len(picks_of(state, s)) for s in range(3)] == [15, 15, 15]


def test_one_of_two_leaving_does_not_end_the_draft_for_the_other() -> None:
    """The match wrapper ends a game when one side is left; a draft says ``play_on_alone``
    (nobody wins it): the last seat drafts on, and only everyone leaving ends it."""
    match = m.start(E, {"booster": 4}, 6, 2)
    match, events = m.apply(E, match, "!resign", 1)
    assert match.ended is None and [e.type for e in events] == ["resigned", "left"]
    assert {d.seat for d in m.decisions(E, match)} == {0}
    while m.outcome(E, match) is None:
        match, _ = m.apply(E, match, str(first_pick(match.state, 0)), 0)
    result = m.outcome(E, match)
    assert result is not None and result.reason == "drafted" and result.eliminated == (1,)
    assert len(picks_of(match.state, 0)) == len(picks_of(match.state, 1)) == 12
    both = m.apply(E, m.apply(E, m.start(E, {}, 6, 2), "!resign", 1)[0], "!forfeit 0", 0,
                   referee=True)[0]  # fmt: skip
    ended = m.outcome(E, both)
    assert ended is not None and not ended.winners and ended.reason == "forfeit"


def test_the_bot_builds_a_legal_40_card_draft_deck_that_plays() -> None:
    state = draft_to_end(2, 9)
    decks = [build_draft_deck(picks_of(state, s)) for s in range(2)]
    for text in decks:
        info = validate(parse_list(text))
        assert info.legal and info.classes == ("draft",)
        assert sum(n for _, n in parse_list(text).entries) == 40
        assert "10 Stufenkarte Draft-Held" in text
    game = ENGINE.initial_state({"decks": decks, "turn_limit": 300}, 9, 2)
    rng = random.Random(9)
    while ENGINE.outcome(game) is None:
        (decision,) = ENGINE.decisions(game)
        action = ENGINE.choose_action(game, decision.seat, "normal", 1.0, rng)
        game, _ = ENGINE.apply(game, action, decision.seat)
    assert ENGINE.outcome(game) is not None


def test_few_picks_are_filled_up_with_level_cards() -> None:
    text = build_draft_deck(["Wolf", "Dolch", "Heiltrank"])
    assert "36 Stufenkarte Draft-Held" in text
    assert validate(parse_list(text)).legal


def test_the_heuristic_takes_what_the_deck_lacks() -> None:
    state = E.initial_state({}, 11, 2)
    names = [c["name"] for c in E.view_for(state, 0)["pack"]]
    cards = catalogue().cards
    weapons = [n for n in cards if cards[n].type == "weapon"][:6]
    choice = names[bot_pick(names, weapons, catalogue())]
    assert cards[choice].type != "weapon" or all(cards[n].type == "weapon" for n in names)


def test_a_groups_own_cards_join_the_pool() -> None:
    own = """
[[card]]
name = "Glücksmünze"
name_en = "Lucky Coin"
type = "artifact"
rarity = "rare"
play = 1
use = 0
text_de = "Unsere eigene Münze."
text_en = "Our own coin."
[[card.step]]
text_de = "Aura +1."
text_en = "Aura +1."
do = "bonus"
stat = "aura"
amount = 1
"""
    seen = set()
    for seed in range(200):  # one rare among 20 per booster: it turns up
        state = E.initial_state({"cards": own, "booster": 10}, seed, 2)
        seen |= set(state.data["cards"].values())
    assert "Glücksmünze" in seen
    with pytest.raises(BadInput):
        E.initial_state({"cards": own.replace('"artifact"', '"relic"')}, 1, 2)


def test_selfplay_drafts_and_plays_the_matches(capsys: pytest.CaptureFixture[str]) -> None:
    from engines.telperinquar.__main__ import main

    assert main(["selfplay", "--mode", "draft", "--games", "2", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "4 seats drafted their decks" in out and "summary: 2 games, 0 errors" in out


def test_the_card_list_names_the_draft_hero_and_level_card() -> None:
    from engines.telperinquar.cards import card_json

    cards = {c["name"]: c for c in card_json(catalogue())}
    assert cards["Draft-Held"]["unarmed"] == -5 and cards["Draft-Held"]["classes"] == ["draft"]
    rows = cards["Stufenkarte Draft-Held"]["levels"]
    assert [r["life_max"] for r in rows][-1] == 74 and rows[0]["kraft"] == 3


def test_validate_reads_a_drafted_deck(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from engines.telperinquar.__main__ import main

    deck = tmp_path / "draft.txt"
    deck.write_text(build_draft_deck(picks_of(draft_to_end(2, 3), 0)), encoding="utf-8")
    assert main(["validate", str(deck), "--lang", "en"]) == 0
    assert "ready to play (Draft-Held)" in capsys.readouterr().out


def test_pick_texts_are_cut_at_a_word_and_the_booster_is_shown_whole() -> None:
    import asyncio
    from types import SimpleNamespace

    from bot.play.specs.telperinquar_draft import DraftSpec, card_line, deck_text

    spec = DraftSpec()
    long_cards = [c for c in catalogue().cards.values() if len(card_line(c, "de")) > 100]
    assert long_cards
    view = {"over": False, "pack": [{"id": "p1", "name": long_cards[0].name}]}
    view |= {"round": 1, "rounds": 3, "pick": 1, "picks": []}
    text = spec.private_text(view, "de")
    cut = text.splitlines()[1].split("** ", 1)[1]
    full = card_line(long_cards[0], "de")
    assert cut.endswith("…") and full.startswith(cut[:-1])
    assert full[len(cut) - 1] in " ,.;:"  # cut at a word, not inside one
    image = asyncio.run(spec.private_image(view, SimpleNamespace(lang="de")))  # type: ignore[arg-type]
    assert image is not None and image.startswith(b"\x89PNG")
    entries = [("Draft-Held", 1), ("Dolch", 2), ("Zweihänder", 1), ("Kettenhemd", 1)]
    english = deck_text(entries, "en").splitlines()
    assert english[0].endswith("Draft Hero") or english[0].startswith("1 ")
    names = [line.split(" ", 1)[1] for line in english[1:]]
    assert names == sorted(names, key=str.casefold)  # Chain Mail, Dagger, Greatsword
