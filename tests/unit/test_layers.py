"""The one-way flow of ARCHITECTURE.md, held by the imports: nothing under ``bot/`` or
``engines/`` imports a cog (the cogs build on the application, never the other way; the bot
loads its cogs by name as extensions), the engines import neither the application nor
Discord, a database driver or Pillow, the renderers draw views (no narration, no store, no
table plug-in) and the narration brought to the house (issue 20) is words only: no Discord,
no store, no table plug-in."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOT_FOR_ENGINES = ("bot", "cogs", "discord", "aiosqlite", "asyncpg", "PIL")


def imports(folder: str) -> Iterator[tuple[str, int, str]]:
    """(file, line, module) of every absolute import in the package ``folder`` (or the one
    module ``folder``, a path ending in ``.py``)."""
    paths = [ROOT / folder] if folder.endswith(".py") else sorted((ROOT / folder).rglob("*.py"))
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                yield str(path.relative_to(ROOT)), node.lineno, name


def _under(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(f"{p}.") for p in packages)


def test_the_package_walk_sees_the_imports() -> None:
    found = {module for _path, _line, module in imports("bot")}
    assert {"discord", "bot.i18n", "engines.core"} <= found


def test_nothing_in_bot_or_engines_imports_a_cog() -> None:
    wrong = [
        f"{path}:{line} imports {module}"
        for folder in ("bot", "engines")
        for path, line, module in imports(folder)
        if _under(module, ("cogs",))
    ]
    assert not wrong, "\n".join(wrong)


def test_the_engines_stay_pure() -> None:
    wrong = [
        f"{path}:{line} imports {module}"
        for path, line, module in imports("engines")
        if _under(module, NOT_FOR_ENGINES)
    ]
    assert not wrong, "\n".join(wrong)


def test_the_renderers_import_neither_narration_nor_the_store() -> None:
    wrong = [
        f"{path}:{line} imports {module}"
        for path, line, module in imports("bot/render")
        if _under(module, ("bot.narration", "bot.store", "bot.play.specs"))
    ]
    assert not wrong, "\n".join(wrong)


# The narration modules brought to the house so far (Felsenfeuer, Telperinquár: to come) and
# what they never import: words only; the dice's texts escape Discord's markdown (discord.utils).
WORDS_ONLY = ("discord", "bot.store", "bot.play.specs", "bot.games")
PURE_NARRATION = {
    "armageddon": WORDS_ONLY,
    "essence": WORDS_ONLY,
    "w6": WORDS_ONLY,
    "combat_text": WORDS_ONLY,
    "combat_tracker": WORDS_ONLY,
    "dice": ("bot.store", "bot.play.specs", "bot.games"),
}


def test_the_narration_is_words_only() -> None:
    wrong = [
        f"{path}:{line} imports {module}"
        for name, forbidden in PURE_NARRATION.items()
        for path, line, module in imports(f"bot/narration/{name}.py")
        if _under(module, forbidden)
    ]
    assert not wrong, "\n".join(wrong)
