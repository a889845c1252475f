"""Essence of the Arcane computer players: legal, deterministic, and hard takes what it can."""

from __future__ import annotations

import subprocess
import sys
from subprocess import PIPE

import pytest

from engines.core import BadInput, IllegalAction
from engines.essence import ENGINE
from engines.essence.ai import LEVELS, choose_step, evaluate
from engines.essence.board import from_fen, to_fen
from engines.essence.rules import successors

START = "B2'..B1..B2/......./......./...x.../......./......./A2..A1..A2' 1 a1 - 1 -"
MIDGAME = "B1.B1.B3/..B1../.x..A2/.A1A2'A2'./.A2A3A1. 2 a1 - 24 - 2"


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("fen", [START, MIDGAME])
def test_every_level_plays_a_legal_step_and_repeats_itself(level: str, fen: str) -> None:
    state = from_fen(fen)
    action = choose_step(state, level, 42)
    assert action in ENGINE.legal_actions(state, state.side)
    assert choose_step(state, level, 42) == action


def test_hard_finishes_the_game_when_it_can() -> None:
    # B's last mote b7 can be destabilized away after walking next to it
    fen = ".B2...../......./A3....../...x.../......./......./......A1 1 a1 - 7 -"
    state = from_fen(fen)
    for _step in range(2):
        if state.phase == "end":
            break
        state, _events = ENGINE.apply(state, choose_step(state, "hard", 1), 0)
    assert to_fen(state).split()[1:3] == ["1", "end"]


def test_hard_takes_a_mote_beside_the_void() -> None:
    fen = "B2'..B1..B2/......./......./...x.../..B3..../......./A2..A1..A2' 1 a1 - 5 -"
    state = from_fen(fen)
    state, _events = ENGINE.apply(state, choose_step(state, "hard", 3), 0)
    state, _events = ENGINE.apply(state, choose_step(state, "hard", 4), 0)
    assert "B3" not in to_fen(state).split()[0]


def test_evaluation_sees_a_win_and_is_symmetric() -> None:
    won = from_fen("......./......./..x..../......./......./.A3...../.....A1. 1 end - 11 -")
    assert evaluate(won, 0) > 0 > evaluate(won, 1)
    state = from_fen(START)
    assert evaluate(state, 0) == -evaluate(state, 1)


def test_unknown_level_and_finished_game_are_refused() -> None:
    with pytest.raises(BadInput):
        choose_step(from_fen(START), "grandmaster", 0)
    finished = from_fen("......./......./..x..../......./......./.A3...../.....A1. 1 end - 11 -")
    with pytest.raises(IllegalAction):
        choose_step(finished, "easy", 0)


def test_the_engine_protocol_answers_each_line_with_the_position_after_its_step() -> None:
    run = [sys.executable, "-m", "engines.essence", "engine", "--level", "normal", "--seed", "5"]
    finished = "......./......./..x..../......./......./.A3...../.....A1. 1 end - 11 -"
    with subprocess.Popen(run, stdin=PIPE, stdout=PIPE, stderr=PIPE, text=True) as engine:
        assert engine.stdin is not None and engine.stdout is not None

        def ask(line: str) -> str:
            assert engine.stdin is not None and engine.stdout is not None
            engine.stdin.write(line + "\n")
            engine.stdin.flush()  # the engine answers before it has seen the end of input
            return engine.stdout.readline().rstrip("\n")

        first = ask(START)
        assert first in {to_fen(p) for p in successors(from_fen(START))}
        assert ask("nonsense") == "error essence.error.bad_position reason=fields"
        assert ask(finished) == "error essence.error.game_over"
        second = ask(first)  # the driver sends the answer back for the rest of the turn
        assert second in {to_fen(p) for p in successors(from_fen(first))}
        engine.stdin.write("\n")  # a blank line gets no answer; end of input ends the engine
        engine.stdin.close()
        assert engine.stdout.read() == ""
        assert engine.wait() == 0
    again = subprocess.run(run, input=f"{START}\n", capture_output=True, text=True)
    assert again.stdout == first + "\n"  # the same seed and position, the same answer
    refused = subprocess.run([*run[:4], "--level", "grandmaster"], capture_output=True, text=True)
    assert refused.returncode == 2 and "grandmaster" in refused.stderr
