"""Making replies fit what Discord accepts (it answers 400 Bad Request to anything longer).

One place for the limits the bot's replies must keep (message content 2,000 characters; embed
title 256, description 4,096, 25 fields, field name 256 and value 1,024, footer 2,048, author
256, 6,000 in all) and for shortening what is too long in the user's language:

- :func:`shorten`: text cut at a line or word boundary with a "… (gekürzt)" note;
- :func:`join_limited`: a list joined until the limit, then "und N weitere" / "and N more";
- :func:`fit_params`: message parameters made short (echoed user input to :data:`PARAM`
  characters, lists as a shortened list), used by the one error path;
- :func:`fit_embed`: an embed cut to every embed limit, the longest parts first.

:func:`bot.replies.send` applies :func:`shorten` and :func:`fit_embed` to every reply, so
nothing sent through it can be refused for its length.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import t

CONTENT = 2000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
EMBED_TOTAL = 6000
PARAM = 100  # an echoed piece of user input in a message
LIST_PARAM = 600  # a list (names, skills) in a message
ELLIPSIS = "…"


def shorten(text: str, limit: int, lang: str) -> str:
    """``text`` if it fits in ``limit`` characters, else cut at a line or word boundary and
    ended with the localized "… (gekürzt)" note (the whole result fits ``limit``)."""
    if len(text) <= limit:
        return text
    note = t("core.fit.shortened", lang)
    return _cut(text, limit - len(note)) + note


def cut(text: str, limit: int = PARAM) -> str:
    """A piece of echoed input: ``text`` cut to ``limit`` characters, ending with "…"."""
    if len(text) <= limit:
        return text
    return _cut(text, limit - len(ELLIPSIS)) + ELLIPSIS


def _cut(text: str, room: int) -> str:
    """The longest start of ``text`` within ``room`` characters, ended at a line break or a
    space when one is near (within the last fifth), trailing separators dropped."""
    room = max(room, 0)
    head = text[:room]
    for sep in ("\n", " "):
        at = head.rfind(sep)
        if at >= room * 4 // 5:
            head = head[:at]
            break
    return head.rstrip(" \n,;·")


def join_limited(items: Iterable[object], limit: int, lang: str, sep: str = ", ") -> str:
    """``items`` joined with ``sep``; when they do not fit ``limit`` characters, as many as fit
    followed by "und N weitere" / "and N more" (the whole result fits ``limit``)."""
    parts = [str(i) for i in items]
    whole = sep.join(parts)
    if len(whole) <= limit:
        return whole
    joiner = sep if "\n" in sep else " "
    shown: list[str] = []
    used = -len(sep)  # the characters of sep.join(shown)
    for part in parts:
        rest = len(parts) - len(shown) - 1
        note = joiner + more(rest, lang)
        if used + len(sep) + len(part) + len(note) > limit:
            break
        shown.append(part)
        used += len(sep) + len(part)
    if not shown:
        return shorten(whole, limit, lang)
    return sep.join(shown) + joiner + more(len(parts) - len(shown), lang)


def more(n: int, lang: str) -> str:
    """The note "und N weitere" / "and N more", with its own wording for one ("und noch 1")."""
    return t("core.fit.more.one" if n == 1 else "core.fit.more", lang, n=n)


@dataclass(frozen=True)
class Whole:
    """A message parameter that is a whole sentence of the bot's own, already fitted (a
    refusal's reason in the reader's language): :func:`fit_params` leaves it as it is."""

    text: str

    def __format__(self, spec: str) -> str:
        return self.text


def fit_params(params: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """Message parameters that cannot blow up a message: strings cut to :data:`PARAM`
    characters (they often echo user input), lists, tuples and sets joined as a shortened
    list (:data:`LIST_PARAM`); other values unchanged."""
    out: dict[str, Any] = {}
    for name, value in params.items():
        if isinstance(value, str):
            out[name] = cut(value, PARAM)
        elif isinstance(value, list | tuple | set | frozenset):
            items = sorted(value, key=str) if isinstance(value, set | frozenset) else value
            out[name] = join_limited(items, LIST_PARAM, lang) or "–"
        else:
            out[name] = value
    return out


def fit_embeds(embeds: list[discord.Embed], lang: str) -> None:
    """Several embeds of one message fitted (in place) so that together they keep 6,000."""
    sizes = [_size(e, _fields(e)) for e in embeds]
    total = sum(sizes)
    for embed, size in zip(embeds, sizes, strict=True):
        share = EMBED_TOTAL if total <= EMBED_TOTAL else EMBED_TOTAL * size // total
        fit_embed(embed, lang, budget=share)


def _fields(embed: discord.Embed) -> list[tuple[str, str, bool]]:
    return [(f.name or "", f.value or "", bool(f.inline)) for f in embed.fields]


def fit_embed(embed: discord.Embed, lang: str, budget: int = EMBED_TOTAL) -> discord.Embed:
    """``embed`` changed in place to keep every embed limit: each text cut to its own limit
    with the "… (gekürzt)" note, at most 25 fields (a last field says how many were left out),
    and, while the whole is over ``budget`` (6,000) characters, the longest text shortened."""
    if embed.title and len(embed.title) > EMBED_TITLE:
        embed.title = shorten(embed.title, EMBED_TITLE, lang)
    if embed.description and len(embed.description) > EMBED_DESCRIPTION:
        embed.description = shorten(embed.description, EMBED_DESCRIPTION, lang)
    if embed.footer.text and len(embed.footer.text) > FOOTER:
        embed.set_footer(
            text=shorten(embed.footer.text, FOOTER, lang), icon_url=embed.footer.icon_url
        )
    if embed.author.name and len(embed.author.name) > AUTHOR:
        embed.set_author(
            name=shorten(embed.author.name, AUTHOR, lang),
            url=embed.author.url,
            icon_url=embed.author.icon_url,
        )
    fields = _fields(embed)
    if len(fields) > EMBED_FIELDS:
        left_out = len(fields) - (EMBED_FIELDS - 1)
        fields = fields[: EMBED_FIELDS - 1]
        fields.append((ELLIPSIS, t("core.fit.more_fields", lang, n=left_out), False))
    fields = [
        (shorten(name, FIELD_NAME, lang) or "–", shorten(value, FIELD_VALUE, lang) or "–", inline)
        for name, value, inline in fields
    ]
    note = len(t("core.fit.shortened", lang))
    while (over := _size(embed, fields) - budget) > 0:
        # Shorten the longest text (description, a field value or name) by what is too much.
        texts = [(len(embed.description or ""), -1, 1)]
        texts += [(len(value), i, 1) for i, (_, value, _) in enumerate(fields)]
        texts += [(len(name), i, 0) for i, (name, _, _) in enumerate(fields)]
        length, index, part = max(texts)
        if index < 0:
            old = embed.description or ""
            embed.description = shorten(old, max(length - over, note), lang)
            changed = len(embed.description) < length
        else:
            entry = list(fields[index])
            entry[part] = shorten(str(entry[part]), max(length - over, note), lang)
            changed = len(str(entry[part])) < length
            fields[index] = (str(entry[0]), str(entry[1]), bool(entry[2]))
        if not changed:
            break
    embed.clear_fields()
    for name, value, inline in fields:
        embed.add_field(name=name, value=value, inline=inline)
    return embed


def _size(embed: discord.Embed, fields: list[tuple[str, str, bool]]) -> int:
    size = len(embed.title or "") + len(embed.description or "")
    size += len(embed.footer.text or "") + len(embed.author.name or "")
    return size + sum(len(n) + len(v) for n, v, _ in fields)


def embeds_too_long(embeds: Iterable[discord.Embed]) -> bool:
    """Whether any limit of these embeds (alone or together) is broken."""
    embeds = list(embeds)
    total = 0
    for e in embeds:
        fields = _fields(e)
        total += _size(e, fields)
        if (
            len(e.title or "") > EMBED_TITLE
            or len(e.description or "") > EMBED_DESCRIPTION
            or len(e.footer.text or "") > FOOTER
            or len(e.author.name or "") > AUTHOR
            or len(fields) > EMBED_FIELDS
            or any(
                len(n) > FIELD_NAME or len(v) > FIELD_VALUE or not n or not v for n, v, _ in fields
            )
        ):
            return True
    return total > EMBED_TOTAL
