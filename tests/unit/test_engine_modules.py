"""The engines brought to the one house (issue 20) keep their modules small and importing each
other in one direction: no module over 800 lines, no import inside a function (which would hide
a circle), no circle; and each engine's own layering (what its top module draws on)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ENGINES = ("armageddon", "essence", "felsenfeuer", "w6", "telperinquar")


def _modules(engine: str) -> dict[str, Path]:
    package = importlib.import_module(f"engines.{engine}")
    assert package.__file__ is not None
    return {p.stem: p for p in Path(package.__file__).parent.glob("*.py")}


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _siblings(engine: str, node: ast.AST, modules: set[str]) -> set[str]:
    found: set[str] = set()
    package = f"engines.{engine}"
    if isinstance(node, ast.ImportFrom) and node.module:
        if node.module == package:
            found |= {alias.name for alias in node.names if alias.name in modules}
        elif node.module.startswith(f"{package}."):
            found.add(node.module.removeprefix(f"{package}."))
    return found & modules


def _graph(engine: str) -> dict[str, set[str]]:
    modules = _modules(engine)
    return {
        name: set().union(*(_siblings(engine, node, set(modules)) for node in _tree(path).body))
        for name, path in modules.items()
        if name != "__init__"
    }


@pytest.mark.parametrize("engine", ENGINES)
def test_no_module_is_over_800_lines(engine: str) -> None:
    sizes = {
        name: len(path.read_text(encoding="utf-8").splitlines())
        for name, path in _modules(engine).items()
    }
    assert {name: n for name, n in sizes.items() if n > 800} == {}


@pytest.mark.parametrize("engine", ENGINES)
def test_imports_are_at_module_level(engine: str) -> None:
    inner = []
    for name, path in _modules(engine).items():
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for sub in ast.walk(node):
                    if isinstance(sub, ast.Import | ast.ImportFrom):
                        inner.append(f"{name}.{node.name}")
    assert inner == []


@pytest.mark.parametrize("engine", ENGINES)
def test_the_modules_import_each_other_without_a_circle(engine: str) -> None:
    graph = _graph(engine)
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, " -> ".join((*path, name))
        if name in done:
            return
        for other in graph.get(name, set()):
            visit(other, (*path, name))
        done.add(name)

    for name in graph:
        visit(name, ())


def test_each_engine_keeps_its_layers() -> None:
    armageddon, essence, felsenfeuer, w6, telperinquar = (_graph(engine) for engine in ENGINES)
    assert armageddon["engine"] >= {
        "setup_phase", "movement", "acting", "gamemaster", "flow", "view"
    }  # fmt: skip
    assert essence["engine"] >= {"actions", "board", "rules", "resolve", "diagnose", "ai"}
    assert "engine" not in set().union(*(essence[n] for n in essence if n != "__main__"))
    assert w6["steps"] >= {"commands", "probes", "attacks", "turns"}
    assert w6["combat"] >= {"steps"}
    assert telperinquar["engine"] >= {"state", "flow", "offers", "resolve", "moves", "setup"}
    assert "engine" not in set().union(*(telperinquar[n] for n in ("state", "stats", "resolve")))
    assert felsenfeuer["engine"] >= {"setup", "turns", "resolution", "view", "ai", "model"}
    assert felsenfeuer["turns"] >= {"resolution", "actions", "codes"}
    assert felsenfeuer["resolution"] >= {"verbs"}
    assert felsenfeuer["verbs"] >= {"selectors", "mechanics", "context", "sentences"}
    below = ("model", "actions", "sentences", "spells", "work", "context", "selectors", "verbs")
    assert all("engine" not in felsenfeuer[n] and "turns" not in felsenfeuer[n] for n in below)
