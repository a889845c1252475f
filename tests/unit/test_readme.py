"""README.md shows what a newcomer needs: the two commands and every slash command."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_readme_lists_every_command_and_subcommand() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    schema = json.loads((ROOT / "tests" / "golden" / "commands.json").read_text(encoding="utf-8"))
    missing = []
    for command in schema:
        names = [command["name"]] + [
            f"{command['name']} {o['name']}" for o in command["options"] if o["type"] in (1, 2)
        ]
        missing += [name for name in names if f"`/{name}`" not in readme]
    assert not missing, f"README's command table lacks: {missing}"


def test_readme_test_command_is_the_one_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install -e '.[dev]' && python -m pytest" in readme
    assert "python -m pip install --quiet -e '.[dev]'" in ci
    assert ci.rstrip().endswith("python -m pytest")
