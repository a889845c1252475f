"""The Essence engine's modules stay small and import each other in one direction: no
module over 800 lines, no import inside a function (which would hide a circle), no circle."""

from __future__ import annotations

import ast
from pathlib import Path

import engines.essence

_PACKAGE = Path(engines.essence.__file__).parent
_MODULES = {p.stem: p for p in _PACKAGE.glob("*.py")}


def _tree(name: str) -> ast.Module:
    return ast.parse(_MODULES[name].read_text(encoding="utf-8"))


def _siblings(node: ast.AST) -> set[str]:
    found: set[str] = set()
    if isinstance(node, ast.ImportFrom) and node.module:
        if node.module == "engines.essence":
            found |= {alias.name for alias in node.names if alias.name in _MODULES}
        elif node.module.startswith("engines.essence."):
            found.add(node.module.removeprefix("engines.essence."))
    return found & set(_MODULES)


def test_no_module_is_over_800_lines() -> None:
    sizes = {
        name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in _MODULES.items()
    }
    assert {name: n for name, n in sizes.items() if n > 800} == {}


def test_imports_are_at_module_level() -> None:
    inner = []
    for name in _MODULES:
        for node in ast.walk(_tree(name)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for sub in ast.walk(node):
                    if isinstance(sub, ast.Import | ast.ImportFrom):
                        inner.append(f"{name}.{node.name}")
    assert inner == []


def test_the_modules_import_each_other_without_a_circle() -> None:
    graph = {
        name: set().union(*(_siblings(node) for node in _tree(name).body))
        for name in _MODULES
        if name != "__init__"
    }
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
    assert graph["engine"] >= {"actions", "board", "rules", "resolve", "diagnose", "ai"}
    assert "engine" not in set().union(*(graph[name] for name in graph if name != "__main__"))
