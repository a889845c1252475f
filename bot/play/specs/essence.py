"""Essence of the Arcane at the shared game table (``bot.play``): its ``GameSpec`` — the
board message (status, the steps told, the squares of the last turn, the prompt of a step
being clicked), the click labels (motes with their strength, arrows of an orientation, whose
mote a void would swallow), the invitation, the list and the export's positions. The words
are ``bot.narration.essence``'s, the drawing ``bot.render.essence``'s; an orientation's face
is the engine's (``engines.essence.engine.face_after``). Discord-free: plain data and texts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from bot.i18n import t
from bot.narration.essence import (
    board_text,
    narrate,
    touched,
    touched_by_action,
    variants_text,
)
from bot.play.spec import Board, BoardContext, GameSpec, Option, Steps
from bot.render.essence import Selection, render_board
from bot.workers import render_async
from engines.core import match as m
from engines.core.choices import ChoiceTree
from engines.core.record import walk
from engines.essence import ENGINE
from engines.essence.actions import Action
from engines.essence.engine import face_after

COLOURS = (0xE69F00, 0x0072B2)
ARROWS = {"n": "↑", "ne": "↗", "e": "→", "se": "↘", "s": "↓", "sw": "↙", "w": "←", "nw": "↖"}
LEVELS = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"
SEAT_ICONS = ("🟧", "🔵")
KIND_TOKENS = {
    "move": "mv",
    "split": "sp",
    "heal": "hl",
    "void": "vd",
    "destab": "ds",
    "summon": "sm",
}
TOKEN_KINDS = {v: k for k, v in KIND_TOKENS.items()}
_SQUARE = re.compile(r"^[a-g][1-7](~[nesw]{1,2})?$")


def choice_tree(actions: Sequence[Action]) -> ChoiceTree[Action]:
    """The engine's legal actions as click paths (a forged path: ``bad_choice``)."""
    return ChoiceTree(ENGINE, actions, error_key="essenzcog.error.bad_choice")


def _square_of(token: str) -> str:
    return token.split("~", 1)[0]


def _is_square(token: str) -> bool:
    return bool(_SQUARE.match(token))


def _display_order(token: str) -> tuple[int, str]:
    """Squares by file and rank (ways round the edge after them); other tokens as they come."""
    return (0, token) if _is_square(token) else (1, "")


ALL_AT_ONCE = 25  # with at most this many steps in all, the board offers every one at once


class EssenceSpec(GameSpec):
    kind = "essence"
    prefix = "essenz"
    texts = "essenzcog"
    board_choices = True
    bot_levels = LEVELS
    default_level = DEFAULT_LEVEL

    def invitation_text(self, record: Any, names: list[str], lang: str) -> str | None:
        variants = variants_text(
            record.config.get("variants", []), bool(record.config.get("quick")), lang
        )
        return t(
            "essenzcog.invite.text",
            lang,
            invited=f"<@{record.players[1]}>",
            inviter=f"<@{record.players[0]}>",
            variants=variants,
            id=record.id,
        )

    def players_line(self, ctx: BoardContext) -> str:
        parts = []
        for seat, player in enumerate(ctx.record.players):
            who = f"🤖 {ctx.names[seat]}" if player == ctx.bot_id else f"<@{player}>"
            parts.append(f"{SEAT_ICONS[seat]} **{'AB'[seat]}** {who}")
        return "  ·  ".join(parts)

    async def board(self, ctx: BoardContext) -> Board:
        lang, match, record, steps = ctx.lang, ctx.match, ctx.record, ctx.steps
        view = ENGINE.view_for(match.state, None)
        squares = touched(steps) if steps is not None else []
        if squares:  # the whole answer of the last player, not only its last step
            view = {**view, "last": squares}
            numbered = touched_by_action(steps) if steps is not None else []
            if len(numbered) > 1:  # each action of that answer numbered on the board
                view["last_steps"] = numbered
        outcome = ctx.outcome
        to_act = ctx.waiting_for
        seat = to_act[0] if to_act else None
        path, tree = ctx.path, ctx.tree
        selection = _selection(path, tree) if tree is not None and path else None
        text = board_text(view, ctx.names, lang, seat, outcome)
        png = await render_async(render_board, view, text, selection)
        lines = [self.players_line(ctx)]
        if steps is not None and steps.items:
            lines.append("")
            lines += [f"› {line}" for line in narrate(steps, ctx.names, lang)]
        lines.append("")
        mark = "" if outcome is None else ("🏆 " if outcome.winners else "🤝 ")
        lines.append(f"**{mark}{text.status}**")
        if outcome is None and text.detail:
            lines.append(text.detail)
        offer_narrated = steps is not None and any(
            event.type == "draw_offered" for _who, event in steps.items
        )
        if match.draw_offer_by is not None and outcome is None and not offer_narrated:
            lines.append(t("essenzcog.draw.offered", lang, name=ctx.names[match.draw_offer_by]))
        if ctx.thinking:
            lines.append(t("essenzcog.bot.thinking", lang))
        if tree is not None and path:
            lines.append(f"*{_prompt(path, tree, lang)}*")
        footer = text.variants
        if outcome is None:  # typing a step only helps while the game runs
            footer += f" · {t('essenzcog.footer.typing', lang)}"
        human_to_act = seat is not None and record.players[seat] != ctx.bot_id
        content, pings = "", tuple[int, ...]()
        if human_to_act and not ctx.thinking and not path:
            assert seat is not None
            content = t("essenzcog.your_turn", lang, mention=f"<@{record.players[seat]}>")
            pings = (record.players[seat],)
            if match.draw_offer_by == seat:  # the other one answers
                other = 1 - seat
                content += "\n" + t(
                    "essenzcog.draw.offered_to",
                    lang,
                    mention=f"<@{record.players[other]}>",
                    name=ctx.names[seat],
                )
                pings += (record.players[other],)
        return Board(
            title=t("essenzcog.title", lang, id=record.id),
            lines=lines,
            footer=footer,
            colour=COLOURS[seat] if seat is not None else None,
            image=png,
            filename=f"essenz-{record.id}.png",
            content=content,
            pings=pings,
        )

    def narrate(self, steps: Steps, ctx: BoardContext) -> list[str]:
        return narrate(steps, ctx.names, ctx.lang)

    def options(self, ctx: BoardContext, path: tuple[str, ...], tokens: list[str]) -> list[Option]:
        tree, lang, match = ctx.tree, ctx.lang, ctx.match
        assert tree is not None
        ordered = sorted(tokens, key=_display_order)
        if not path:
            motes = [
                Option(
                    o,
                    _mote_label(match, o, lang),
                    _mote_description(tree, o, lang),
                    select=True,
                )
                for o in ordered
                if _is_square(o)
            ]
            void = [
                Option("vd", t("essence.kind.void", lang), None, "🌀", "primary", select=False)
                for o in ordered
                if o == "vd"
            ]
            return motes + void
        style = "primary" if ordered and ordered[0] in TOKEN_KINDS else "secondary"
        # after the mote, what is clicked names the step: the choices left with a single
        # way on (a face's only orientation) need no confirming button
        return [
            Option(o, _option_label(match, tree, path, o, lang), style=style, whole=True)
            for o in ordered
        ]

    def placeholder(self, path: tuple[str, ...], lang: str) -> str:
        return t("essenzcog.select.option" if path else "essenzcog.select.mote", lang)

    def shortcuts(
        self, ctx: BoardContext, path: tuple[str, ...], steps: Sequence[tuple[str, ...]]
    ) -> list[int]:
        """Once a mote is chosen, every step it can take in one menu (two clicks a step);
        with few steps in all, every step at once (one click)."""
        if (not path and len(steps) <= ALL_AT_ONCE) or (len(path) == 1 and _is_square(path[0])):
            return list(range(len(steps)))
        return []

    def step_option(
        self, ctx: BoardContext, path: tuple[str, ...], step: tuple[str, ...]
    ) -> Option:
        """A whole step by its mote, kind and target (and a real choice of amount or
        orientation): "Bewegen: d2", "Aufteilen: b2 · 2 ↖ ↘"."""
        tree = ctx.tree
        labels = []
        for depth in range(len(path), len(step)):
            token, prefix = step[depth], step[:depth]
            choice = tree is None or len(tree.options(prefix)) > 1
            if choice or token in TOKEN_KINDS or _is_square(token):
                labels.append(self.option_at(ctx, prefix, token).label)
        labels = labels or [step[-1]]
        label = labels[0] if len(labels) == 1 else f"{labels[0]}: {' · '.join(labels[1:])}"
        return Option(step[-1], label, select=True)

    def game_label(self, game_id: int, names: list[str], lang: str) -> str:
        return t("essenzcog.game_label", lang, id=game_id, a=names[0], b=names[1])

    def list_line(self, record: Any, match: m.Match | None, names: list[str], lang: str) -> str:
        if match is None:
            state = t("essenzcog.list.invited", lang)
        else:
            seats = sorted(m.to_act(ENGINE, match))
            view = ENGINE.view_for(match.state, None)
            name = names[seats[0]] if seats else "–"
            state = t("essenzcog.list.turn", lang, name=name, round=view["round"])
        return t("essenzcog.list.line", lang, id=record.id, a=names[0], b=names[1], state=state)

    async def export_extra(self, record: Any, data: dict[str, Any], log: list[Any]) -> None:
        """Every position in notation along the way (the board is open to everyone)."""
        config = {k: v for k, v in record.config.items() if k != "ai_levels"}
        start, steps = walk(ENGINE, config, record.seed, len(record.players), log)
        data["start_position"] = ENGINE.position_text(start.state)
        for entry, step in zip(data["actions"], steps, strict=True):
            entry["position"] = ENGINE.position_text(step.match.state)
        data["position"] = ENGINE.position_text((steps[-1].match if steps else start).state)


SPEC = EssenceSpec()


def position_text(match: m.Match) -> str:
    return ENGINE.position_text(match.state)


def _strength_at(match: m.Match, square: str) -> int:
    view = ENGINE.view_for(match.state, None)
    for cell in view["cells"]:
        if cell["square"] == square:
            return int(cell["strength"])
    return 0


def _mote_label(match: m.Match, square: str, lang: str) -> str:
    return t("essenzcog.mote_label", lang, square=square, strength=_strength_at(match, square))


def _mote_description(tree: ChoiceTree[Action], square: str, lang: str) -> str:
    kinds = [TOKEN_KINDS[o] for o in tree.options((square,)) if o in TOKEN_KINDS]
    if not kinds:  # growth phase
        return t("essence.kind.grow", lang)
    return " · ".join(t(f"essence.kind.{kind}", lang) for kind in kinds)


def _option_label(
    match: m.Match, tree: ChoiceTree[Action], path: tuple[str, ...], option: str, lang: str
) -> str:
    if option in TOKEN_KINDS:
        return t(f"essence.kind.{TOKEN_KINDS[option]}", lang)
    if _is_square(option):
        square, _, via = option.partition("~")
        if path and path[-1] == KIND_TOKENS["void"]:
            return _void_target_label(match, square, lang)
        return t("essenzcog.via", lang, square=square, way=ARROWS[via]) if via else square
    if option.isdecimal():
        return t("essenzcog.amount", lang, amount=int(option))
    return _orientation_label(match, tree, (*path, option), lang)


def _void_target_label(match: m.Match, square: str, lang: str) -> str:
    """The square, and whose mote the void would swallow there."""
    view = ENGINE.view_for(match.state, None)
    for cell in view["cells"]:
        if cell["square"] == square:
            whose = "own" if cell["owner"] == view["side"] else "enemy"
            return t(f"essenzcog.void_onto.{whose}", lang, square=square, strength=cell["strength"])
    return square


def _orientation_label(
    match: m.Match, tree: ChoiceTree[Action], prefix: tuple[str, ...], lang: str
) -> str:
    """Arrows of the face an orientation choice leaves (the engine's ``face_after``)."""
    action = next(a for p, a in tree.paths.items() if p[: len(prefix)] == prefix)
    square = _oriented_square(prefix)
    face = face_after(match.state, action, square)
    if face is None:
        return prefix[-1]
    strength, directions = face
    arrows = " ".join(ARROWS[d] for d in directions)
    return t("essenzcog.orientation", lang, square=square, face=strength, arrows=arrows)


def _oriented_square(prefix: tuple[str, ...]) -> str:
    """The square whose face the last token of ``prefix`` turns."""
    token = prefix[-1]
    if len(prefix) == 2:  # growth
        return prefix[0]
    kind = TOKEN_KINDS.get(prefix[1], "")
    if token[0] == "o":
        return _square_of(prefix[2]) if kind == "move" else prefix[0]
    return _square_of(prefix[2])  # "n": the new mote of a split, "t": the healed mote


def _selection(path: tuple[str, ...], tree: ChoiceTree[Action]) -> Selection:
    source = path[0] if _is_square(path[0]) else None
    targets = [_square_of(o) for o in tree.options(path) if _is_square(o)]
    if len(path) > 2 and _is_square(path[2]):
        targets = [_square_of(path[2])]
    return Selection(source, tuple(dict.fromkeys(targets)))


def _prompt(path: tuple[str, ...], tree: ChoiceTree[Action], lang: str) -> str:
    options = tree.options(path)
    if not options:  # a complete step, shown for its confirming button
        return t("play.prompt.confirm", lang)
    first = options[0]
    last = path[-1]
    if first in TOKEN_KINDS:
        return t("essenzcog.prompt.kind", lang, square=path[0])
    if _is_square(first):
        kind = "void" if last == "vd" else TOKEN_KINDS.get(last, "move")
        return t(f"essenzcog.prompt.target.{kind}", lang, square=path[0])
    if first.isdecimal():
        return t("essenzcog.prompt.amount", lang, square=path[0])
    square = _oriented_square((*path, first))
    return t("essenzcog.prompt.orientation", lang, square=square)
