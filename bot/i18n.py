"""The one translator: message catalogs in ``data/i18n/<domain>.json`` and discord.py's
``Translator`` for command names, descriptions, options and choices.

A catalog entry is ``"key": {"de": "…{param}…", "en": "…{param}…"}``. German is the default;
a user's ``/sprache`` preference wins over the Discord client locale.

**Counts.** A key may have a singular variant ``<key>.one`` that writes the count out
("höchstens 1 Feld", "at most 1 square") instead of its placeholder: :func:`t` uses it when
every placeholder the variant leaves out is 1.
"""

from __future__ import annotations

import json
import logging
import string
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any, TypeVar

import discord
from discord import app_commands

from engines.core.content import data_dir

LANGUAGES = ("de", "en")
DEFAULT_LANGUAGE = "de"
CATALOG_DIR = data_dir("i18n")
log = logging.getLogger(__name__)
T = TypeVar("T")


@lru_cache(maxsize=1)
def catalog() -> Mapping[str, Mapping[str, str]]:
    """Every message of every domain. Raises ValueError for a duplicate key across files."""
    merged: dict[str, Mapping[str, str]] = {}
    for path in sorted(CATALOG_DIR.glob("*.json")):
        entries = json.loads(path.read_text(encoding="utf-8"))
        for key, texts in entries.items():
            if key in merged:
                raise ValueError(f"message key {key!r} is defined twice (again in {path.name})")
            merged[key] = texts
    return merged


def language_of(locale: discord.Locale | str | None) -> str:
    """``de`` or ``en`` for a Discord locale: English locales get English, all others German."""
    value = locale.value if isinstance(locale, discord.Locale) else (locale or "")
    return "en" if value.lower().startswith("en") else DEFAULT_LANGUAGE


def t(key: str, lang: str, **params: Any) -> str:
    """The message ``key`` in ``lang`` with ``params`` filled in.

    A missing key shows the key itself (and logs it) rather than failing the reply.
    """
    singular = _singular_counts(key)
    if singular and all(params.get(name) == 1 for name in singular):
        key = f"{key}.one"
    texts = catalog().get(key)
    if texts is None:
        log.error("missing message key %s", key)
        return key
    text = texts.get(lang) or texts[DEFAULT_LANGUAGE]
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        log.exception("message %s does not fit its parameters %s", key, sorted(params))
        return text


@lru_cache(maxsize=4096)
def _singular_counts(key: str) -> frozenset[str]:
    """The placeholders of ``key`` that its singular variant ``<key>.one`` writes out (empty:
    no such variant, or one that keeps every placeholder)."""
    entries = catalog()
    one = entries.get(f"{key}.one")
    texts = entries.get(key)
    if one is None or texts is None:
        return frozenset()
    return frozenset(_placeholders(texts[DEFAULT_LANGUAGE]) - _placeholders(one[DEFAULT_LANGUAGE]))


def _placeholders(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}


def cmd(key: str) -> app_commands.locale_str:
    """A command/option/choice string: German text as the default, English by translation."""
    return app_commands.locale_str(t(key, DEFAULT_LANGUAGE), key=key)


def options(prefix: str, **params: str | tuple[str, str]) -> Callable[[T], T]:
    """Name and describe a command's options from the catalog, each written once.

    ``@options("roll.opt", ausdruck="expression")`` is ``@app_commands.rename(ausdruck=
    cmd("roll.opt.expression.name"))`` plus ``@app_commands.describe(ausdruck=
    cmd("roll.opt.expression.desc"))``; a pair ``("expression", "saved_expression")`` takes the
    name and the description from two entries (one name, a description that says more). A key
    missing from the catalog raises ``KeyError`` when the cog is imported.
    """
    names: dict[str, str | app_commands.locale_str] = {}
    descriptions: dict[str, str | app_commands.locale_str] = {}
    for param, stem in params.items():
        name_stem, desc_stem = (stem, stem) if isinstance(stem, str) else stem
        name_key, desc_key = f"{prefix}.{name_stem}.name", f"{prefix}.{desc_stem}.desc"
        for key in (name_key, desc_key):
            if key not in catalog():
                raise KeyError(f"option {param}: no catalog entry {key}")
        names[param] = cmd(name_key)
        descriptions[param] = cmd(desc_key)

    def decorator(func: T) -> T:
        described: T = app_commands.describe(**descriptions)(func)
        return app_commands.rename(**names)(described)

    return decorator


class CatalogTranslator(app_commands.Translator):
    """Gives Discord the English names and descriptions of the ``cmd(...)`` strings."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        if key is None or key not in catalog():
            return None
        lang = language_of(locale)
        if lang == DEFAULT_LANGUAGE and locale is not discord.Locale.german:
            return None
        return catalog()[key].get(lang)
