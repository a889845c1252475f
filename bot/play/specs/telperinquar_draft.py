"""The Telperinquár booster draft's spec for the shared game table (``bot.play``): the board
(each seat's number of picks and whether it has picked this time, never which card), the
reader's booster and picks in a private prompt, the pick select with each card's name, costs
and text in the reader's language, the narration, and the closing message with every
person's saved deck as the plain text list (the draft's few words of its own are here; the
card words are ``bot.narration.telperinquar``'s). Discord-free: plain data and texts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import t
from bot.narration.telperinquar import shorten
from bot.play.spec import Board, BoardContext, GameSpec, Option, Steps
from bot.render.telperinquar import pack_png
from bot.workers import render_async
from engines.core import Outcome
from engines.telperinquar.cards import Card, catalogue, hero_of, level_card_name
from engines.telperinquar.draft import DRAFT_ENGINE

LEVELS = DRAFT_ENGINE.bot_levels
DEFAULT_LEVEL = "normal"
_OWN_EVENTS = frozenset({"picked", "passed", "new_round", "draft_over", "left"})
LINE = 90  # characters of a card's text in the private booster list


def _k(key: str, lang: str, **params: Any) -> str:
    return t(f"tqdraft.{key}", lang, **params)


def card_of(name: str) -> Card | None:
    return catalogue().cards.get(name)


def card_name(name: str, lang: str) -> str:
    """A card's name in the reader's language (hero and level card names as written)."""
    card = card_of(name)
    if card is None:
        resolved = catalogue().resolve(name)
        if resolved is not None and lang == "en":
            return _english_name(resolved)
        return name
    return card.name_en if lang == "en" else card.name


def _english_name(resolved: tuple[str, str, str]) -> str:
    kind, key, german = resolved
    if kind == "hero":
        return hero_of(key).name_en
    if kind == "level":
        return level_card_name(key, "en")
    return german


def card_label(card: Card, lang: str) -> str:
    """``Name (play/use)``: a pick option's label."""
    name = card.name_en if lang == "en" else card.name
    return f"{name} ({card.play}/{card.use})"


def card_line(card: Card, lang: str) -> str:
    """Type (unless the text starts with it), requirements and text of a card in one line
    (the costs are in its label)."""
    kind = _k(f"type.{card.type}", lang)
    needs = ", ".join(f"{_k(f'attr.{a}', lang)} {v}" for a, v in card.requires.items())
    text = card.text_en if lang == "en" else card.text_de
    parts = [] if text.startswith(kind) else [kind]
    return " · ".join([*parts, *([needs] if needs else []), text])


def deck_text(entries: Sequence[tuple[str, int]], lang: str) -> str:
    """A deck as the plain text list (``<count> <card name>`` per line): hero, level cards,
    then the cards by their name in the reader's language (both languages import)."""
    cat = catalogue()

    def order(entry: tuple[str, int]) -> tuple[int, str]:
        kind = (cat.resolve(entry[0]) or ("card", "", ""))[0]
        return ({"hero": 0, "level": 1}.get(kind, 2), card_name(entry[0], lang).casefold())

    return "\n".join(
        f"{count} {card_name(name, lang)}" for name, count in sorted(entries, key=order)
    )


class DraftSpec(GameSpec):
    kind = "telperinquar-draft"
    prefix = "tqd"
    texts = "tqdraft"
    private_view = True  # the booster and the picks are the seat's own
    bot_levels = LEVELS
    default_level = DEFAULT_LEVEL

    async def board(self, ctx: BoardContext) -> Board:
        """The shared board without the empty narration of secret picks (a blank line once)."""
        board = await super().board(ctx)
        board.lines = [
            line for i, line in enumerate(board.lines) if line or (i and board.lines[i - 1])
        ]
        return board

    def players_line(self, ctx: BoardContext) -> str:
        view = DRAFT_ENGINE.view_for(ctx.match.state, None)
        parts = []
        for seat, player in enumerate(ctx.record.players):
            who = f"🤖 {ctx.names[seat]}" if player == ctx.bot_id else f"<@{player}>"
            info = view["seats"][seat]
            mark = " ✖" if seat in ctx.match.eliminated else (" ✔" if info["picked"] else "")
            count = _k("board.picks", ctx.lang, count=info["picks"])
            parts.append(f"{self.seat_label(seat)} {who} · {count}{mark}")
        return "\n".join(parts)

    def status(self, ctx: BoardContext) -> str:
        outcome = ctx.outcome
        if outcome is not None:
            return self.outcome_text(outcome, ctx)
        view = DRAFT_ENGINE.view_for(ctx.match.state, None)
        where = _k(
            f"board.round.{view['direction']}",
            ctx.lang,
            round=view["round"],
            rounds=view["rounds"],
            pick=view["pick"],
        )
        return f"{where}\n{super().status(ctx)}"

    def outcome_text(self, outcome: Outcome, ctx: BoardContext) -> str:
        if outcome.reason == "drafted":
            return "🃏 " + _k("board.over", ctx.lang)
        if outcome.reason in ("resign", "forfeit"):  # the draft goes on while one seat remains
            return "🃏 " + _k("board.abandoned", ctx.lang)
        return super().outcome_text(outcome, ctx)

    def narrate(self, steps: Steps, ctx: BoardContext) -> list[str]:
        lines = []
        for actor, event in steps.items:
            if event.type not in _OWN_EVENTS:
                lines += super().narrate(Steps([(actor, event)]), ctx)
                continue
            data = dict(event.data)
            player = int(data.get("player", actor))
            name = ctx.names[player] if 0 <= player < len(ctx.names) else "?"
            if "card" in data:
                data["card"] = card_name(str(data["card"]), ctx.lang)
            lines.append(_k(f"event.{event.type}", ctx.lang, **{**data, "name": name}))
        return lines

    def private_text(self, view: Mapping[str, Any], lang: str) -> str:
        if view.get("over") or "pack" not in view:
            return ""
        lines = [
            _k(
                "private.head",
                lang,
                round=view["round"],
                rounds=view["rounds"],
                pick=view["pick"],
                count=len(view["pack"]),
            )
        ]
        for entry in view["pack"]:
            card = card_of(entry["name"])
            if card is not None:
                line = card_line(card, lang)
                line = shorten(line, LINE)  # the whole card: the booster image
                lines.append(f"• **{card_label(card, lang)}** {line}")
        picks = [card_name(n, lang) for n in view.get("picks", [])]
        if picks:
            lines.append(_k("private.picks", lang, count=len(picks), cards=", ".join(picks)))
        return "\n".join(lines)

    async def private_image(self, view: Mapping[str, Any], ctx: BoardContext) -> bytes | None:
        """The booster's cards whole (the list and the select cut long texts)."""
        if view.get("over") or not view.get("pack"):
            return None
        names = [str(entry["name"]) for entry in view["pack"]]
        return await render_async(pack_png, names, ctx.lang)

    def prompt(self, ctx: BoardContext) -> str:
        return _k("prompt.choose_card", ctx.lang)

    def options(self, ctx: BoardContext, path: tuple[str, ...], tokens: list[str]) -> list[Option]:
        view = DRAFT_ENGINE.view_for(ctx.match.state, ctx.seat)
        names = {c["id"]: c["name"] for c in view.get("pack", [])}
        out = []
        for token in tokens:
            card = card_of(names.get(token, ""))
            if card is None:
                out.append(Option(token, names.get(token, token), select=True))
                continue
            out.append(
                Option(
                    token,
                    card_label(card, ctx.lang),
                    description=shorten(card_line(card, ctx.lang), 100),
                    select=True,
                )
            )
        return out

    def placeholder(self, path: tuple[str, ...], lang: str) -> str:
        return _k("select.pick", lang)

    def closing_lines(self, saved: Sequence[Any], lang: str) -> list[str]:
        """The end of the draft: each person's saved deck with its list, and how to play."""
        lines: list[str] = []
        for deck in saved:
            lines.append("")
            count = sum(n for _, n in deck.entries)
            lines.append(
                _k("closing.saved", lang, mention=f"<@{deck.user}>", deck=deck.name, count=count)
            )
            lines.append(f"```\n{deck_text(deck.entries, lang)}\n```")
        if saved:
            lines.append(_k("closing.play", lang))
        return lines


SPEC = DraftSpec()
