"""Armageddon's command line and movement counts against golden files
(``tests/golden/armageddon``): the legal movement steps of the party to act and the number of
two-action movement sequences; self-play keeps the capacity invariant."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engines.armageddon.__main__ import main, movement_steps, perft, started
from engines.armageddon.scenario import scenario_names
from tests.armageddon_maps import random_scenario

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "armageddon"
KLEIN = str(GOLDEN / "klein.txt")
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", [*scenario_names(), KLEIN])
def test_the_movement_steps_match_the_golden_file(name: str) -> None:
    stem = Path(name).stem
    golden = (GOLDEN / f"{stem}.moves.txt").read_text(encoding="utf-8").split("\n")
    assert movement_steps(started(name)) == [line for line in golden if line]


def test_two_movement_actions_match_the_golden_count() -> None:
    expected = int((GOLDEN / "klein.perft2.txt").read_text(encoding="utf-8"))
    assert perft(started(KLEIN), 2) == expected


def test_moves_prints_the_steps(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", KLEIN]) == 0
    assert capsys.readouterr().out.split("\n")[0] == "dismount k4"


def test_selfplay_keeps_the_room_on_random_maps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for seed in range(2):
        path = tmp_path / f"zufall{seed}.txt"
        path.write_text(random_scenario(seed, 2 + seed), encoding="utf-8")
        assert main(["selfplay", str(path), "--games", "1", "--seed", str(seed)]) == 0
    assert "winners" in capsys.readouterr().out


def test_bad_command_lines_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves"]) == 2
    assert main(["moves", "gibtsnicht"]) == 2
    assert main(["selfplay", KLEIN, "--games", "x"]) == 2
    assert "armageddon.error.unknown_scenario" in capsys.readouterr().err


def test_help_exits_0_and_says_the_commands() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engines.armageddon", "--help"],
        capture_output=True, text=True, check=False, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0
    assert "moves SCENARIO" in done.stdout and "selfplay" in done.stdout
    assert done.stderr == ""


def test_piping_moves_into_a_reader_that_stops_is_quiet() -> None:
    """``moves … | head -1``: the reader is gone before the output is written (its end of the
    pipe is closed here already, so the test does not depend on timing)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "engines.armageddon", "moves", KLEIN],
            stdout=write_end, stderr=subprocess.PIPE, text=True, check=False, cwd=ROOT,
        )  # fmt: skip
    finally:
        os.close(write_end)
    assert done.stderr == ""
    assert done.returncode == 0
