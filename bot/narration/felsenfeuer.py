"""Felsenfeuer's words: the spellbook (a spell's text in the reader's language, the book's
sections, the server's own spell file read, checked and listed, spell choices), the colours'
icons and the phrase helper. Discord-free: plain data and texts in the reader's language. The
game's table plug-in is ``bot.play.specs.felsenfeuer``; the board's words are
``bot.render.felsenfeuer_text``'s.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from bot.i18n import t
from bot.render import felsenfeuer_text as words
from engines.core import BadInput
from engines.core.content import data_dir
from engines.felsenfeuer.model import COLOURS
from engines.felsenfeuer.spells import (
    MAX_EXTRA_BYTES,
    Spell,
    book_for,
    load_text,
    spellbook,
)
from engines.felsenfeuer.uploads import spellbook_with

COLOUR_ICONS = {"gruen": "🟩", "grau": "⬜", "rot": "🟥", "schwarz": "⬛", "violett": "🟪"}


def phrase(key: str, lang: str, **params: Any) -> str:
    return t(f"felsenfeuercog.{key}", lang, **params)


def colour_of(token: str) -> str | None:
    """The colour a token names (``rot``; an Auswahl count ``rot3``)."""
    for colour in COLOURS:
        if token == colour or (token.startswith(colour) and token[len(colour) :].isdigit()):
            return colour
    return None


# ------------------------------------------------------------------------ the spellbook


SPELLS_KIND = "felsenfeuer.spells"  # a server's own spell file in the content store
SERVER_MARK = "◆"  # a spell of the server's own file, in lists


def template_file() -> str:
    """The commented example file a server starts its own spellbook from."""
    return data_dir("felsenfeuer", "vorlage", "zauberbuch.toml").read_text(encoding="utf-8")


def read_spell_file(raw: bytes) -> str:
    """An uploaded spell file as text, checked exactly like the shipped spells
    (``spellbook_with``: every mistake with its line, each spell's own test). Raises BadInput
    (the first mistake's line in the reader's language) before anything is stored."""
    if len(raw) > MAX_EXTRA_BYTES:
        raise BadInput("felsenfeuercog.error.file_too_big", max=MAX_EXTRA_BYTES // 1000)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BadInput("felsenfeuercog.error.not_text") from None
    spellbook_with(text)
    return text


@lru_cache(maxsize=32)
def server_slugs(spells: str) -> frozenset[str]:
    """The slugs of the spells a server's own file adds or replaces."""
    return (
        frozenset(spell.slug for spell in load_text(spells, "upload")[0]) if spells else frozenset()
    )


def server_book_lines(spells: str, lang: str) -> list[str]:
    """One line per spell of a server's file: name, colour and pips, kind, and whether it
    takes the place of a Kompendium spell."""
    shipped = spellbook()
    lines = []
    for spell in ordered_spells(spells):
        if spell.slug not in server_slugs(spells):
            continue
        _title, line, _text = spell_text(spell, lang)
        replaced = " · " + phrase("book.replaces", lang) if spell.slug in shipped else ""
        lines.append(f"{COLOUR_ICONS.get(spell.colour, '')} **{spell.name}** · {line}{replaced}")
    return lines


def spell_text(spell: Spell, lang: str) -> tuple[str, str, str]:
    """Title, the line of colour, pips and kind, and the text of a spell in ``lang``."""
    kinds = [
        phrase(f"spell.{flag}", lang)
        for flag in ("star", "blood", "ritual")
        if getattr(spell, flag)
    ]
    if spell.keyword:
        kinds.append(spell.keyword)
    colour = words.colour_name(spell.colour, lang)
    head = phrase("spell.head", lang, colour=colour, pips=spell.pips)
    line = " · ".join([head, *kinds])
    text = spell.text_en if lang == "en" else spell.text_de
    return f"{COLOUR_ICONS.get(spell.colour, '')} {spell.name}".strip(), line, text


def find_spell(name: str, spells: str = "") -> Spell | None:
    """A spell by its slug or name (case and ß/ss do not matter), in the Kompendium with a
    server's own file (``spells``)."""
    book = book_for(spells)
    wanted = name.strip().casefold().replace("ß", "ss")
    if wanted in book:
        return book[wanted]
    for spell in book.values():
        if spell.name.casefold().replace("ß", "ss") == wanted:
            return spell
    return None


def spell_choices(
    current: str, spells: str = "", lang: str = "de", limit: int = 25
) -> list[tuple[str, str]]:
    """(label, slug) of the spells whose name holds ``current``, by colour and pips; a
    server's own spells (``spells``) marked as the server's."""
    wanted = current.strip().casefold()
    found = [s for s in ordered_spells(spells) if wanted in s.name.casefold() or wanted in s.slug]
    own = server_slugs(spells)
    mark = f" {SERVER_MARK} " + phrase("book.server", lang)
    return [
        (f"{s.name} ({words.colour_name(s.colour, lang)} {s.pips}){mark if s.slug in own else ''}",
         s.slug)
        for s in found[:limit]
    ]  # fmt: skip


def ordered_spells(spells: str = "") -> list[Spell]:
    return sorted(
        book_for(spells).values(),
        key=lambda s: (COLOURS.index(s.colour) if s.colour in COLOURS else 9, s.pips, s.name),
    )


def book_sections(lang: str, server: str = "") -> list[tuple[str, list[str]]]:
    """The spellbook by colour: (heading, one line per pips value); with a server's own file
    (``server``) its spells are in it, marked."""
    sections = []
    own = server_slugs(server)
    for colour in COLOURS:
        spells = [s for s in ordered_spells(server) if s.colour == colour]
        if not spells:
            continue
        by_pips: dict[int, list[str]] = {}
        for spell in spells:
            mark = ("★" if spell.star else "") + (SERVER_MARK if spell.slug in own else "")
            by_pips.setdefault(spell.pips, []).append(f"{spell.name}{mark}")
        lines = [f"**{pips}** · {', '.join(names)}" for pips, names in sorted(by_pips.items())]
        heading = f"{COLOUR_ICONS[colour]} {words.colour_name(colour, lang).capitalize()}"
        sections.append((heading, lines))
    return sections
