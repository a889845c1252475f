"""No import circles in ``engines/`` and ``bot/`` (issue 20): the import graph of every
module, with the imports inside functions and under ``TYPE_CHECKING`` too (an import moved
into a function hides a circle from Python but not from a reader), must have no circle.
``from package import module`` is an edge to that module; any other name taken from a
package is an edge to its ``__init__``."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def sources(folder: str) -> dict[str, tuple[str, bool]]:
    """Module name → (source, is a package ``__init__``) of every module under ``folder``."""
    return {
        _module_name(path): (path.read_text(encoding="utf-8"), path.name == "__init__.py")
        for path in sorted((ROOT / folder).rglob("*.py"))
    }


def import_graph(modules: Mapping[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """Module → the modules among ``modules`` it imports, anywhere in its source."""
    graph: dict[str, set[str]] = {}
    for name, (source, is_package) in modules.items():
        package = name if is_package else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: from the package, one level up per extra dot
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                subs = {f"{base}.{alias.name}" for alias in node.names} & set(modules)
                found |= subs or {base}
        graph[name] = {other for other in found if other in modules and other != name}
    return graph


def circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The circles of ``graph``: its strongly connected components of more than one module
    (Tarjan's algorithm, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_walk_finds_a_circle_hidden_in_a_function() -> None:
    modules = {
        "pkg": ("from pkg.engine import ENGINE\n", True),
        "pkg.engine": ("def choose():\n    from pkg.ai import pick\n    return pick\n", False),
        "pkg.ai": ("from pkg import engine\n", False),
        "pkg.rules": ("from . import ai\n", False),
    }
    graph = import_graph(modules)
    assert graph == {
        "pkg": {"pkg.engine"},
        "pkg.engine": {"pkg.ai"},
        "pkg.ai": {"pkg.engine"},
        "pkg.rules": {"pkg.ai"},
    }
    assert circles(graph) == [["pkg.ai", "pkg.engine"]]


def test_the_walk_sees_every_engine() -> None:
    graph = import_graph(sources("engines"))
    assert {"engines.core.match", "engines.essence.engine", "engines.all"} <= set(graph)
    assert "engines.essence.ai" in graph["engines.essence.engine"]


@cache
def engine_circles() -> list[list[str]]:
    return circles(import_graph(sources("engines")))


PACKAGES = sorted(
    path.name for path in (ROOT / "engines").iterdir() if (path / "__init__.py").is_file()
)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_circle_in_an_engine(package: str) -> None:
    prefix = f"engines.{package}"
    found = [
        circle
        for circle in engine_circles()
        if any(m == prefix or m.startswith(f"{prefix}.") for m in circle)
    ]
    assert found == []


def test_no_import_circle_in_the_application() -> None:
    assert circles(import_graph(sources("bot"))) == []
