"""What a game declares to get the whole Discord life cycle (``bot.play.table``) for free.

A game's spec is Discord-free: it names its engine and its ``custom_id`` prefix, and turns
plain data (the engine's views and events, the click path so far) into texts in the reader's
language and a board image. The table builds every message, component and reply from that.

The defaults here serve any N-seat engine: the players line, narration of each event as
``<texts>.event.<type>`` (only events everyone may see on a public message), a status line
naming whose decision the game waits for, the outcome with its ranking, and every click
option labelled by its token. A game overrides what it words better.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Any

from bot.games import ACTIVE, SERVICE_KEYS, Turn
from bot.i18n import catalog, t
from engines.core import Event, Outcome, registry
from engines.core import match as m
from engines.core.choices import ChoiceTree
from engines.core.contract import DecisionKind, Engine

SEAT_ICONS = ("🟧", "🔵", "🟩", "🟪", "🟨", "🟥")
UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})


def fold_umlauts(word: str) -> str:
    """``grün`` → ``gruen``: a word as typed without umlauts."""
    return word.translate(UMLAUTS)


@dataclass
class Steps:
    """Events of the steps just played, with who played them."""

    items: list[tuple[int, Event]] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)  # where each action's events begin

    def add(self, turn: Turn) -> None:
        self.starts.append(len(self.items))
        self.items += [(turn.actor, event) for event in turn.events]

    def actions(self) -> list[list[tuple[int, Event]]]:
        """The events grouped by the action that caused them (all one group when the
        actions are not known)."""
        bounds = [b for b in self.starts if 0 < b < len(self.items)]
        edges = [0, *bounds, len(self.items)]
        return [self.items[a:b] for a, b in pairwise(edges) if a < b]

    def visible(self, seat: int | None) -> Steps:
        """Only the events ``seat`` may read (None: everyone, a public message)."""
        return Steps([(who, e) for who, e in self.items if e.visible_for(seat)])


@dataclass(frozen=True)
class Option:
    """One clickable choice: its token, label and how it is shown (``select``: True puts it
    in a select menu, False on a button, None lets the count decide)."""

    token: str
    label: str
    description: str | None = None
    emoji: str | None = None
    style: str = "secondary"  # a discord.ButtonStyle name
    select: bool | None = None
    whole: bool = False  # the label names the whole action this token completes (a verb with
    # a single way on): clicking it acts at once, without a button that confirms the action


@dataclass
class Board:
    """Everything one board message says, as plain data (the table makes the embed)."""

    title: str
    lines: list[str]
    footer: str = ""
    colour: int | None = None  # 0xRRGGBB; None: neutral
    image: bytes | None = None
    filename: str = "board.png"
    content: str = ""
    pings: tuple[int, ...] = ()


@dataclass
class BoardContext:
    """What a board message is built from."""

    record: Any  # bot.store.GameRecord
    match: m.Match
    names: list[str]
    lang: str
    bot_id: int
    steps: Steps | None = None
    path: tuple[str, ...] = ()
    tree: ChoiceTree[Any] | None = None
    thinking: bool = False
    seat: int | None = None  # the seat deciding (its private prompt and click choices)

    @property
    def outcome(self) -> Outcome | None:
        return m.outcome(_engine(self.record.kind), self.match)

    @property
    def waiting_for(self) -> list[int]:
        """The seats with an open decision the game waits for (none once the game is over;
        a decision a seat may take at any time, ``Decision.waits`` False, is not waited for)."""
        if self.record.status != ACTIVE:
            return []
        engine = _engine(self.record.kind)
        return sorted({d.seat for d in m.decisions(engine, self.match) if d.waits})

    @property
    def reacting_only(self) -> bool:
        """Every decision the game waits for is a reaction (an answer, not a turn)."""
        if self.record.status != ACTIVE:
            return False
        waited = [d for d in m.decisions(_engine(self.record.kind), self.match) if d.waits]
        return bool(waited) and all(d.kind == DecisionKind.REACTION for d in waited)


def _engine(kind: str) -> Engine[Any, Any]:
    return registry()[kind]


class GameSpec:
    """The declaration of one game for the Discord layer. Override what the game words
    better; ``texts`` is the message key domain of its own texts (``<texts>.title`` …);
    a key missing there is taken from the shared ``play.*`` texts."""

    kind: str = ""  # the engine's name
    prefix: str = ""  # the custom_id prefix of its components
    texts: str = "play"
    board_choices: bool = False  # an open game clicks a single turn on the public board
    private_view: bool = False  # players have something only they may see (a hand)
    personal_setup: bool = False  # each person picks among their own setup choices (decks)
    continue_prompt: bool = False  # a private prompt goes on while its seat has a decision
    # The public picture is drawn anew when the turn passes, not on each step of a seat that
    # goes on (its board's text and running log tell every step): a turn of many steps.
    picture_per_turn: bool = False
    # Seats with no side in the outcome (a game master on seat 0): a referee is offered no
    # draw offer or resign, its resign and draw offer are refused and it is never forfeited
    # (the game waits for it) — see ARCHITECTURE.md, "the referee".
    neutral_seats: frozenset[int] = frozenset()
    bot_levels: Sequence[str] = ()
    default_level: str = ""

    @property
    def engine(self) -> Engine[Any, Any]:
        return _engine(self.kind)

    # ---------------------------------------------------------------- texts

    def key(self, name: str) -> str:
        own = f"{self.texts}.{name}"
        return own if own in catalog() else f"play.{name}"

    def text(self, key: str, lang: str, /, **params: Any) -> str:
        return t(self.key(key), lang, **params)

    def bot_name(self, bot_name: str, level: str, lang: str) -> str:
        """The bot on a seat, with its level (in words where the game has them)."""
        key = self.key(f"choice.level.{level}")
        return f"{bot_name} ({t(key, lang) if key in catalog() else level})"

    def seat_label(self, seat: int) -> str:
        return f"{SEAT_ICONS[seat % len(SEAT_ICONS)]} {seat + 1}"

    # ---------------------------------------------------------------- setup

    def setup_choices(self, lang: str) -> list[tuple[str, str]]:
        """The setup choice each invited person makes when accepting (value, label); empty:
        none, a plain accept button."""
        return []

    async def setup_choices_for(
        self, store: Any, record: Any, user_id: int, lang: str
    ) -> list[tuple[str, str]]:
        """The setup choices of one person for the game ``record`` (``personal_setup``: e.g.
        their own decks), offered to them privately when they accept; by default everyone's."""
        return self.setup_choices(lang)

    async def setup_value(self, store: Any, record: Any, user_id: int, value: str) -> Any:
        """What the engine receives for the ``value`` a person picked (by default the value
        itself; a personal choice can be resolved to its content, e.g. a deck's list)."""
        return value

    def choice_label(self, choice: Any, lang: str) -> str:
        """How a seat's setup choice is named on the invitation."""
        return dict(self.setup_choices(lang)).get(str(choice), str(choice))

    def rematch_order(self, clicker: int, seats: int) -> list[int]:
        """The old seats in the order of a rematch's seats among people: the clicker hosts
        (seat 0), the others follow in their order."""
        return [clicker] + [s for s in range(seats) if s != clicker]

    def starts_early(self, record: Any) -> bool:
        """Whether the host of the invitation ``record`` may start before every seat has
        answered (the invitation's "start now"): by default whether the engine takes the
        game's config with fewer seats. A game that needs every seat (a scenario's parties,
        a table for exactly that many) offers no early start."""
        engine = self.engine
        config = {
            k: v
            for k, v in record.config.items()
            if k not in SERVICE_KEYS and k != "seat_choices"  # the choices of seats yet to say
        }
        return m.starts_with_fewer(engine, config, record.seed, len(record.players))

    def invitation_text(self, record: Any, names: list[str], lang: str) -> str | None:
        """The invitation's own wording (None: the shared one listing every seat)."""
        return None

    # ---------------------------------------------------------------- the board

    async def board(self, ctx: BoardContext) -> Board:
        """The public board message (never anything secret: views for a spectator)."""
        lines = [self.players_line(ctx)]
        if ctx.steps is not None and ctx.steps.items:
            lines.append("")
            lines += [f"› {line}" for line in self.narrate(ctx.steps.visible(None), ctx)]
        lines.append("")
        lines.append(f"**{self.status(ctx)}**")
        offered_now = ctx.steps is not None and any(
            event.type == "draw_offered" for _who, event in ctx.steps.items
        )  # narrated just above: said once
        if ctx.match.draw_votes and ctx.outcome is None and not offered_now:
            offerer = ctx.names[ctx.match.draw_votes[0]]
            lines.append(self.text("draw.offered", ctx.lang, name=offerer))
        if ctx.thinking:
            lines.append(self.text("bot.thinking", ctx.lang))
        view = self.public_view(ctx.match.state)
        humans = [s for s in ctx.waiting_for if ctx.record.players[s] != ctx.bot_id]
        content, pings = "", ()
        if humans and not ctx.thinking:
            mentions = ", ".join(f"<@{ctx.record.players[s]}>" for s in humans)
            waiting = "waiting_for.reaction" if ctx.reacting_only else "waiting_for"
            if len(humans) == 1:
                waiting += ".one"
            content = self.text(waiting, ctx.lang, mentions=mentions)
            pings = tuple(ctx.record.players[s] for s in humans)
        image = await self.render(view, ctx)
        return Board(
            title=self.text("title", ctx.lang, id=ctx.record.id),
            lines=lines,
            image=image,
            filename=f"{self.prefix}-{ctx.record.id}.png",
            content=content,
            pings=pings,
        )

    def public_view(self, state: Any) -> Mapping[str, Any]:
        """A spectator's view of ``state`` (a game whose board asks for it often may keep it)."""
        return self.engine.view_for(state, None)

    async def render(self, view: Mapping[str, Any], ctx: BoardContext) -> bytes | None:
        """The board image from a view (None: no image)."""
        return None

    def players_line(self, ctx: BoardContext) -> str:
        parts = []
        for seat, player in enumerate(ctx.record.players):
            who = f"🤖 {ctx.names[seat]}" if player == ctx.bot_id else f"<@{player}>"
            gone = " ✖" if seat in ctx.match.eliminated else ""
            parts.append(f"{self.seat_label(seat)} {who}{gone}")
        return "  ·  ".join(parts)

    def status(self, ctx: BoardContext) -> str:
        outcome = ctx.outcome
        if outcome is not None:
            return self.outcome_text(outcome, ctx)
        waiting = ctx.waiting_for
        if not waiting:
            return self.text("status.waiting", ctx.lang)
        names = ", ".join(ctx.names[s] for s in waiting)
        return self.text("status.to_act", ctx.lang, names=names)

    def outcome_text(self, outcome: Outcome, ctx: BoardContext) -> str:
        reason = self.text(f"reason.{outcome.reason}", ctx.lang)
        if outcome.is_draw:
            return "🤝 " + self.text("status.draw", ctx.lang, reason=reason)
        names = [ctx.names[s] for s in sorted(outcome.winners)]
        return self.won_text(names, reason, ctx.lang)

    def won_text(self, names: Sequence[str], reason: str, lang: str) -> str:
        """ "🏆 <names> win(s) (<reason>)": the verb plural for several winners (allies)."""
        key = "status.won" if len(names) == 1 else "status.won_together"
        return "🏆 " + self.text(key, lang, names=", ".join(names), reason=reason)

    def narrate(self, steps: Steps, ctx: BoardContext) -> list[str]:
        lines = []
        for actor, event in steps.items:
            data = dict(event.data)
            player = int(data.get("player", actor))
            name = ctx.names[player] if 0 <= player < len(ctx.names) else "?"
            lines.append(self.text(f"event.{event.type}", ctx.lang, **{**data, "name": name}))
        return lines

    def private_text(self, view: Mapping[str, Any], lang: str) -> str:
        """What only the seat of ``view`` may see (its hand), for an ephemeral message."""
        return ""

    async def private_image(self, view: Mapping[str, Any], ctx: BoardContext) -> bytes | None:
        """An image of what only the seat of ``view`` may see (its hand), attached to its
        ephemeral prompt and private view (None: text only)."""
        return None

    # ---------------------------------------------------------------- clicking

    def options(self, ctx: BoardContext, path: tuple[str, ...], tokens: list[str]) -> list[Option]:
        """The options after ``path``, labelled and in display order."""
        return [Option(token, token) for token in tokens]

    def placeholder(self, path: tuple[str, ...], lang: str) -> str:
        return self.text("select.option", lang)

    def typed_words(self) -> Mapping[str, str]:
        """Words a player may type for the tokens of the notation (the names the game shows
        in either language, lower case, umlauts also written out): word → token. By
        default none (the notation only)."""
        return {}

    def read_typed(self, text: str) -> str:
        """A typed step in the notation: each word the game knows by its shown name (in
        either language, with or without umlauts) replaced by its token."""
        words = self.typed_words()
        if not words or text.startswith("!"):
            return text
        out = []
        for word in text.split():
            low = word.lower()
            out.append(words.get(low) or words.get(fold_umlauts(low)) or low)
        return " ".join(out)

    def shortcuts(
        self, ctx: BoardContext, path: tuple[str, ...], steps: Sequence[tuple[str, ...]]
    ) -> list[int]:
        """The complete steps after ``path`` (``steps``: their whole click paths, in the
        tree's order) that the prompt offers whole, each taken with one click: their indexes
        in ``steps``. When they are every step, the choices one by one are not offered beside
        them. By default none (the choices one by one)."""
        return []

    def more(
        self, ctx: BoardContext, path: tuple[str, ...], options: list[Option]
    ) -> tuple[list[Option], list[Option]]:
        """The ``options`` after ``path`` (whole steps included) split into the usual ones,
        shown at once, and the rest, shown after one "mehr"/"more" click. By default all at
        once."""
        return options, []

    def step_option(
        self, ctx: BoardContext, path: tuple[str, ...], step: tuple[str, ...]
    ) -> Option:
        """A complete step (its whole click path ``step``) offered whole after ``path``: by
        default the labels of its choices after ``path`` (of those with one way on only the
        ones that say more than their token), "first: second · third"."""
        tree = ctx.tree
        labels = []
        for depth in range(len(path), len(step)):
            label = self.option_at(ctx, step[:depth], step[depth]).label
            if tree is None or len(tree.options(step[:depth])) > 1 or label != step[depth]:
                labels.append(label)
        labels = labels or [step[-1]]
        label = labels[0] if len(labels) == 1 else f"{labels[0]}: {' · '.join(labels[1:])}"
        return Option(step[-1], label)

    def action_option(self, ctx: BoardContext, path: tuple[str, ...]) -> Option:
        """The button that confirms the complete click path ``path``, shown when a click
        completed it by skipping the choices that had one way on (nothing acts that the
        clicker has not seen): the whole action in words, by default the labels of its
        choices ("Angreifen: Lanze la5 → Lanze la16"; a label that names the whole action,
        ``Option.whole``, alone)."""
        chosen = [self.option_at(ctx, path[:depth], token) for depth, token in enumerate(path)]
        first = chosen[0]
        label = first.label
        if len(chosen) > 1 and not first.whole:
            label = f"{first.label}: {' → '.join(o.label for o in chosen[1:])}"
        return Option(path[-1], label, emoji=first.emoji or "✔️", style="success", select=False)

    def option_at(self, ctx: BoardContext, prefix: tuple[str, ...], token: str) -> Option:
        """The option ``token`` after ``prefix`` as :meth:`options` labels it."""
        here = replace(ctx, path=prefix)
        found = [o for o in self.options(here, prefix, [token]) if o.token == token]
        return found[0] if found else Option(token, token)

    def prompt(self, ctx: BoardContext) -> str:
        """What the click path so far asks for (for the ephemeral prompt)."""
        if ctx.path and ctx.tree is not None and ctx.tree.action(ctx.path) is not None:
            return self.text("prompt.confirm", ctx.lang)  # only its confirming button is left
        return self.text("prompt.choose", ctx.lang)

    # ---------------------------------------------------------------- listing

    def game_label(self, game_id: int, names: list[str], lang: str) -> str:
        return self.text("game_label", lang, id=game_id, names=" – ".join(names))

    def list_line(self, record: Any, match: m.Match | None, names: list[str], lang: str) -> str:
        """One running game in ``/… liste`` (``match`` None: still an invitation)."""
        if match is None:
            state = self.text("list.invited", lang)
        else:
            engine = self.engine
            waiting = sorted({d.seat for d in m.decisions(engine, match) if d.waits})
            state = self.text(
                "list.waiting", lang, names=", ".join(names[s] for s in waiting) or "–"
            )
        return self.text("list.line", lang, id=record.id, names=" – ".join(names), state=state)

    # ---------------------------------------------------------------- records

    async def export_extra(self, record: Any, data: dict[str, Any], log: list[Any]) -> None:
        """Add the game's own entries to an export (``data`` as the reader may read it)."""
