"""Essence of the Arcane: perft counts and the start successors against the golden files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engines.essence.board import from_fen, to_fen
from engines.essence.rules import perft, successors

GOLDEN = Path(__file__).parents[1] / "golden" / "essence"


def _cases() -> list[tuple[str, int, int]]:
    rows = []
    for line in (GOLDEN / "perft.tsv").read_text().splitlines():
        if line and not line.startswith("#"):
            fen, depth, count = line.split("\t")
            rows.append((fen, int(depth), int(count)))
    return rows


@pytest.mark.parametrize(("fen", "depth", "count"), _cases())
def test_perft_matches_the_golden_file(fen: str, depth: int, count: int) -> None:
    assert perft(from_fen(fen), depth) == count


def test_every_variant_and_the_quick_board_are_covered() -> None:
    fields = [fen.split() for fen, _depth, _count in _cases()]
    variants = {name for f in fields for name in f[5].split(",")}
    assert {"bestimmt", "schleife", "beschwoerung", "-"} <= variants
    assert any(len(f[0].split("/")) == 5 for f in fields)


def test_start_successors_match_the_golden_list() -> None:
    start = "B2'..B1..B2/......./......./...x.../......./......./A2..A1..A2' 1 a1 - 1 -"
    expected = (GOLDEN / "start_successors.txt").read_text().splitlines()
    assert sorted(to_fen(p) for p in successors(from_fen(start))) == expected
    assert len(expected) == 36


def test_the_command_line_prints_successors_and_perft() -> None:
    start = "B2'..B1..B2/......./......./...x.../......./......./A2..A1..A2' 1 a1 - 1 -"
    run = [sys.executable, "-m", "engines.essence"]
    listed = subprocess.run([*run, "successors", start], capture_output=True, text=True)
    assert listed.stdout.splitlines() == (GOLDEN / "start_successors.txt").read_text().splitlines()
    counted = subprocess.run([*run, "perft", start, "2"], capture_output=True, text=True)
    assert counted.stdout.strip() == "919"
    broken = subprocess.run([*run, "perft", "nonsense", "2"], capture_output=True, text=True)
    assert broken.returncode == 2 and "essence.error.bad_position" in broken.stderr
