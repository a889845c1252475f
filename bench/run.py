"""Run every benchmark (``python -m bench.run``) and print each figure beside its target.

Each ``bench/bench_*.py`` module exposes ``run() -> list[Figure]`` (or an async ``run``).
Pass module names to run only some: ``python -m bench.run dice essence``.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import pkgutil
import sys
from pathlib import Path

from bench.common import Figure


def _modules(selected: list[str]) -> list[str]:
    names = sorted(
        m.name.removeprefix("bench_")
        for m in pkgutil.iter_modules([str(Path(__file__).parent)])
        if m.name.startswith("bench_")
    )
    return [n for n in names if not selected or n in selected]


def main(argv: list[str] | None = None) -> int:
    selected = list(sys.argv[1:] if argv is None else argv)
    missed = 0
    for name in _modules(selected):
        module = importlib.import_module(f"bench.bench_{name}")
        print(f"== {name}")
        result = module.run()
        figures: list[Figure] = asyncio.run(result) if inspect.isawaitable(result) else result
        for figure in figures:
            print(figure.line(), flush=True)
            missed += figure.meets_target is False
    print(f"{missed} figure(s) missed their target")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
