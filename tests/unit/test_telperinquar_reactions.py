"""Telperinquár's reactions on the game service: a seat asked whether it reacts and not
answering within the reaction limit passes (data/telperinquar/RULES.md, "Reactions nobody
answers"), stays in the game, and the game goes on as after a clicked pass."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from bot.games import GameService, load
from bot.store import GameRecord, SqliteStore
from engines.core import DecisionKind
from engines.core import match as m
from engines.telperinquar.engine import ENGINE

ALICE, BOB = 1, 2
LIMIT_S = 600.0
TRAPS = (  # hidden traps answer melee attacks on the hero: reactions come early
    "1 Schurke\n10 Stufenkarte Schurke\n4 Fallgrube\n4 Bärenfalle\n4 Schattenkatze\n4 Dieb\n"
    "4 Giftnadelfalle\n4 Dolch\n4 Ausweichen\n4 Hinterhalt\n"
)


@pytest.fixture
async def service(tmp_path: Path) -> Any:
    store = SqliteStore(tmp_path / "g.sqlite")
    await store.open()
    yield GameService(store)
    await store.close()


async def _until_a_reaction(service: GameService) -> GameRecord:
    """A duel of two people played by the bot's choices until one is asked to react."""
    for seed in range(20):
        record = await service.create(
            "telperinquar",
            {"mode": "duel", "decks": [TRAPS, TRAPS]},
            channel_id=9,
            guild_id=None,
            players=[ALICE, BOB],
            invited=False,
            seed=seed,
        )
        rng = random.Random(seed)
        for _ in range(300):
            match = load(record)
            decisions = m.decisions(ENGINE, match)
            if not decisions:
                break
            (decision,) = decisions
            if decision.kind == DecisionKind.REACTION:
                return record
            action = ENGINE.choose_action(match.state, decision.seat, "normal", 1.0, rng)
            user = record.players[decision.seat]
            text = ENGINE.action_text(action)
            record = (await service.act(record.id, user, text, decision=decision.id)).record
    raise AssertionError("no duel asked for a reaction")


async def test_an_unanswered_reaction_passes_and_the_game_goes_on(service: GameService) -> None:
    record = await _until_a_reaction(service)
    (asked,) = m.decisions(ENGINE, load(record))
    stack = len(load(record).state.data["stack"])
    assert await service.reactions_due(time.time() + LIMIT_S - 30, LIMIT_S) == []
    (due,) = await service.reactions_due(time.time() + LIMIT_S + 30, LIMIT_S)
    assert (due.seat, due.decision) == (asked.seat, asked.id)
    turn = await service.time_out(due.record, due.seat, due.decision)
    assert turn.actor == asked.seat and not turn.match.eliminated and turn.outcome is None
    assert [e.type for e in turn.events][:1] == ["passed"]
    log = await service.store.game_actions(record.id)
    assert log[-1] == (asked.seat, "pass")
    after = turn.match.state.data
    assert len(after["stack"]) < stack or after["ask"] != asked.seat  # resolved or asked on
    assert not m.decision_open(ENGINE, turn.match, asked.seat, asked.id)


async def test_the_pass_is_what_a_click_on_pass_would_do(service: GameService) -> None:
    record = await _until_a_reaction(service)
    (asked,) = m.decisions(ENGINE, load(record))
    clicked, _ = ENGINE.apply(load(record).state, ENGINE.parse_action("pass"), asked.seat)
    (due,) = await service.reactions_due(time.time() + LIMIT_S + 30, LIMIT_S)
    turn = await service.time_out(due.record, due.seat, due.decision)
    assert ENGINE.state_to_json(turn.match.state) == ENGINE.state_to_json(clicked)
