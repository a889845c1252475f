"""The game service's core: the values a step gives, a game loaded from its record, the one
click path (a click's action applied on the match loaded for it) and a typed step, the steps
stored revision-guarded, and the bot's seats. The lobby (``bot.game_lobby``) and the sweeps
over idle seats and late reactions (``bot.game_sweeps``) build on it; ``bot.games`` puts the
service together (see its docstring for the life cycle).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.store import GameRecord, LogRow, StaleRevision, Store
from bot.store.base import GameStatus
from bot.workers import run_apart
from engines.core import Engine, Event, IllegalAction, Outcome, registry
from engines.core import match as m
from engines.core.contract import BotPlayer
from engines.core.record import last_events

INVITED, ACTIVE, FINISHED, DECLINED = (
    GameStatus.INVITED,
    GameStatus.ACTIVE,
    GameStatus.FINISHED,
    GameStatus.DECLINED,
)
BOT_BUDGET_S = 2.0  # CPU seconds a bot may think per decision
RETRIES = 8  # re-reads after a concurrent write before a click is given up as stale
REACTION_KEY = "reaction_minutes"  # a game's own reaction limit (the service's config key)
SERVICE_KEYS = frozenset({"ai_levels", REACTION_KEY})  # config keys the engine never sees


@dataclass(frozen=True)
class StepWrites:
    """What a cog writes together with a step, in the step's transaction: campaign-log rows
    made from the new match and its events (``log``), its presentation data (``display``) and,
    for an engine whose seats open while it runs, the user ids of the seats after the step
    (``players``)."""

    log: Callable[[m.Match, list[Event]], Sequence[LogRow]] | None = None
    display: dict[str, Any] | None = None
    players: Callable[[m.Match], list[int]] | None = None


@dataclass(frozen=True)
class Turn:
    """The result of one accepted action: the stored record, the match and what happened."""

    record: GameRecord
    match: m.Match
    events: list[Event]
    actor: int

    @property
    def outcome(self) -> Outcome | None:
        return m.outcome(engine_of(self.record), self.match)


# End-of-game work (``ServiceCore.on_finished``): called with the step that finished the game.
FinishedHook = Callable[[Turn], Awaitable[None]]


@dataclass(frozen=True)
class Seated:
    """A running game loaded once for one click or typed step: the stored record, its match
    and the seat the user acts as (see :meth:`GameService.seated`)."""

    record: GameRecord
    match: m.Match
    seat: int


def _play_key(name: str) -> str:
    return f"play.{name}"


def engine_of(record: GameRecord) -> Engine[Any, Any]:
    return registry()[record.kind]


def load(record: GameRecord) -> m.Match:
    return m.from_json(engine_of(record), record.snapshot)


def bot_seats(record: GameRecord) -> dict[int, str]:
    """Seat → level of the seats the bot plays."""
    return {int(seat): str(level) for seat, level in record.config.get("ai_levels", {}).items()}


def bot_seats_of(config: Mapping[str, Any]) -> set[int]:
    return {int(seat) for seat in config.get("ai_levels", {})}


def engine_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a game's config the engine sees (``ai_levels`` and ``reaction_minutes``
    are the service's)."""
    return {k: v for k, v in config.items() if k not in SERVICE_KEYS}


# A game's seed decides hands, deck orders, future dice and the bot's moves: 128 bits from the
# system's secure source, so no player can search the seeds offline from what they see.
SEED_BITS = 128


class ServiceCore:
    """The store, a game read, the click path, typed steps, stored steps and bot seats."""

    def __init__(self, store: Store, entropy: Callable[[int], int] = secrets.randbits) -> None:
        """``entropy(bits)`` seeds new games (the bot's :class:`bot.chance.Chance` in play)."""
        self.store = store
        self.entropy = entropy
        self._finished: list[tuple[str | None, FinishedHook]] = []

    def on_finished(self, hook: FinishedHook, *, kind: str | None = None) -> None:
        """Register end-of-game work: ``hook(turn)`` runs once for every game (of ``kind``;
        None: every kind) that a stored step finishes — a move, a resignation, a forfeit for
        idleness, a draw agreed, a reaction timed out, a bot's move — after the step's write,
        in the order registered. Exactly once: only the write that moves the game from
        running to finished runs it (the revision guard lets one writer through). An error in
        a hook reaches the step's caller (the step is stored)."""
        self._finished.append((kind, hook))

    @staticmethod
    def match_of(record: GameRecord) -> m.Match:
        """The match ``record`` stores, read from its snapshot: the table asks for it to draw a
        board outside a click (a click's turn carries the match it loaded once)."""
        return load(record)

    async def get(self, game_id: int) -> GameRecord:
        """Raises IllegalAction when there is no such game."""
        record = await self.store.get_game(game_id)
        if record is None:
            raise IllegalAction("error.no_such_game", id=game_id)
        return record

    # ------------------------------------------------------------------ playing

    def seated(
        self,
        record: GameRecord,
        user_id: int,
        decision: str | None = None,
        *,
        keys: Callable[[str], str] = _play_key,
    ) -> Seated:
        """``record`` loaded once, with the seat ``user_id`` acts as now: the game must be
        running and the user one to act; with ``decision`` (the id a click was made for) that
        decision must be open for the user's seat. ``keys`` names a game's own message keys
        (``keys("error.not_your_turn")``). Raises IllegalAction (not running, not a player,
        not their turn, another seat's decision), StaleRevision (the decision is answered)."""
        if record.status != ACTIVE:
            raise IllegalAction("error.game_not_running")
        engine = engine_of(record)
        match = load(record)
        if self.seat_for(record, user_id, match=match) not in m.to_act(engine, match):
            raise IllegalAction(keys("error.not_your_turn"))
        seat = self.seat_for(record, user_id, decision, match=match)
        if decision is not None and not m.decision_open(engine, match, seat, decision):
            if any(d.id == decision for d in m.decisions(engine, match)):
                raise IllegalAction(keys("error.not_yours"))
            raise StaleRevision()  # made for a decision that is answered
        return Seated(record, match, seat)

    async def click(
        self,
        game: GameRecord | Seated,
        user_id: int,
        decision: str,
        action: Any,
        *,
        keys: Callable[[str], str] = _play_key,
        writes: StepWrites | None = None,
    ) -> Turn:
        """One click's action (the engine's own, clicked together) for decision ``decision``
        of ``user_id``'s seat: the game is loaded once (``game`` already :meth:`seated` for this
        click, or the record read for it) and the action applied on that match; its notation
        is logged. A concurrent write re-reads the game and applies while the decision is still
        open for the seat, else StaleRevision. Raises as :meth:`seated` and the engine."""
        at = game if isinstance(game, Seated) else self.seated(game, user_id, decision, keys=keys)
        engine = engine_of(at.record)
        for _attempt in range(RETRIES):
            match, events = m.apply_action(engine, at.match, action, at.seat)
            try:
                return await self._store_step(
                    at.record, match, events, at.seat, engine.action_text(action), writes
                )
            except StaleRevision:
                record = await self.get(at.record.id)
                if record.status != ACTIVE:
                    raise IllegalAction("error.game_not_running") from None
                loaded = load(record)
                if not m.decision_open(engine, loaded, at.seat, decision):
                    raise
                at = Seated(record, loaded, at.seat)
        raise StaleRevision()

    def check_steps(self, at: Seated, texts: Sequence[str]) -> None:
        """Check several steps typed at once on the game as it stands: each of ``texts`` in
        order for ``at``'s seat, on copies (nothing stored). Raises as the engine for the first
        one refused."""
        engine = engine_of(at.record)
        match = at.match
        for text in texts:
            match, _events = m.apply(engine, match, text, at.seat)

    async def last_step(self, record: GameRecord) -> tuple[int, list[Event]] | None:
        """The seat and events of the game's last logged step, its log replayed off the event
        loop (None before the first step). Raises the engine's error for a log it no longer
        replays."""
        actions = await self.store.game_actions(record.id)
        if not actions:
            return None
        engine = engine_of(record)
        events = await run_apart(
            last_events,
            engine,
            engine_config(record.config),
            record.seed,
            len(record.players),
            actions,
        )
        return actions[-1][0], events

    async def act(
        self,
        game_id: int,
        user_id: int,
        text: str,
        revision: int | None = None,
        *,
        decision: str | None = None,
        record: GameRecord | None = None,
        seat: int | None = None,
        decision_seat: int | None = None,
        writes: StepWrites | None = None,
        match: m.Match | None = None,
    ) -> Turn:
        """Apply ``text`` (engine notation or a meta action) for ``user_id``'s seat.

        ``seat``: the seat the cog decided the user acts as (a game whose seat holds several
        people, such as a combat's GM and co-GMs); ``decision_seat``: the seat whose decision
        ``decision`` is (default: the acting seat; a GM who answers for a player's fighter);
        ``writes``: what the cog writes with the step (see :class:`StepWrites`).

        ``decision`` is the id of the decision the clicked button was made for: the click
        applies while that decision is open for the user's seat (re-read and retried after a
        concurrent write) and is refused as stale (StaleRevision) once it is answered.
        ``revision`` (without a decision) is the stored revision the button was made for; a
        newer game refuses the click. Raises IllegalAction for a non-player or an illegal
        move, BadInput for unreadable notation. Nothing is stored unless the move is legal.
        ``record`` is the game as the caller just read it (saves reading it again; a stale
        one is re-read after the refused write), ``match`` its match as the caller loaded it
        (the game is then not loaded again).
        """
        for attempt in range(RETRIES):
            if attempt or record is None or record.id != game_id:
                record, match = await self.get(game_id), None
            if decision is None and revision is not None and revision != record.revision:
                raise StaleRevision()
            if record.status != ACTIVE:
                raise IllegalAction("error.game_not_running")
            if match is None:
                match = load(record)
            acting = self.seat_for(record, user_id, decision, match=match) if seat is None else seat
            judged = acting if decision_seat is None else decision_seat
            if decision is not None and not m.decision_open(
                engine_of(record), match, judged, decision
            ):
                raise StaleRevision()
            typed_for = None  # a typed step (no button's decision or revision) and not a meta one
            if decision is None and revision is None and not text.startswith(m.META_PREFIX):
                typed_for = _open_decision(engine_of(record), match, judged)
            try:  # never as the referee
                return await self.apply_for_seat(record, acting, text, writes=writes, match=match)
            except StaleRevision:
                # a typed step was meant for the game as the user saw it: it stands while the
                # decision it answers is still open (another seat answered its part of a
                # simultaneous choice meanwhile, as the bot's Auswahl), like a click; a resign
                # or a draw answer holds whatever happened meanwhile
                if typed_for is not None:
                    decision = typed_for
                elif decision is None and not text.startswith(m.META_PREFIX):
                    raise
        raise StaleRevision()

    @staticmethod
    def seat_for(
        record: GameRecord,
        user_id: int,
        decision: str | None = None,
        *,
        match: m.Match | None = None,
    ) -> int:
        """The seat of ``user_id``; with several seats of the same user (self-play) the one
        with ``decision`` open, else one with any open decision (``match``: the game as
        loaded already)."""
        seats = [i for i, p in enumerate(record.players) if p == user_id]
        if not seats:
            raise IllegalAction("error.not_a_player")
        if len(seats) > 1 and record.status == ACTIVE:
            open_ = m.decisions(engine_of(record), match or load(record))
            deciding = [s for s in seats if any(d.seat == s for d in open_)]
            if decision is not None:
                deciding = [s for s in deciding if any(d.id == decision for d in open_)]
            seats = deciding or seats
        return seats[0]

    async def apply_for_seat(
        self,
        record: GameRecord,
        seat: int,
        text: str,
        *,
        referee: bool = False,
        writes: StepWrites | None = None,
        match: m.Match | None = None,
    ) -> Turn:
        """Apply ``text`` for ``seat``; ``referee`` only for the bot's own meta actions;
        ``writes`` as in :meth:`act`; ``match``: ``record`` as loaded already. Raises
        StaleRevision when ``record`` is no longer the stored game."""
        engine = engine_of(record)
        loaded = load(record) if match is None else match
        after, events = m.apply(engine, loaded, text, seat, referee=referee)
        return await self._store_step(record, after, events, seat, text, writes)

    async def _store_step(
        self,
        record: GameRecord,
        match: m.Match,
        events: list[Event],
        seat: int,
        text: str,
        writes: StepWrites | None,
    ) -> Turn:
        """Store ``match`` after the step ``text`` of ``seat`` on ``record`` (revision-guarded:
        StaleRevision when ``record`` is no longer the stored game)."""
        engine = engine_of(record)
        finished = m.outcome(engine, match) is not None
        writes = writes or StepWrites()
        stored = await self.store.update_game(
            record.id,
            expected_revision=record.revision,
            snapshot=m.to_json(engine, match),
            actions=[(seat, text)],
            status=FINISHED if finished else None,
            players=None if writes.players is None else writes.players(match),
            display=writes.display,
            log=() if writes.log is None else writes.log(match, events),
        )
        turn = Turn(stored, match, events, seat)
        if finished and record.status != FINISHED:
            for kind, hook in self._finished:
                if kind is None or kind == record.kind:
                    await hook(turn)
        return turn

    # ------------------------------------------------------------------ bot seats

    def bot_due(self, record: GameRecord, match: m.Match | None = None) -> bool:
        """Whether a bot seat has something to do now (a decision, or a draw vote to answer);
        ``match``: ``record`` as loaded already."""
        if record.status != ACTIVE:
            return False
        return _bot_task(record, load(record) if match is None else match) is not None

    async def play_bots(self, record: GameRecord) -> tuple[GameRecord, list[Turn]]:
        """Play every decision of a bot seat open now or opened by its own answers: the
        engine's ``choose_action`` (off the event loop), with a generator seeded from the
        game's seed and revision; a pending draw offer the bot declines. Stops when no bot
        seat is due; a concurrent write makes it re-read and go on from the stored game."""
        turns: list[Turn] = []
        while record.status == ACTIVE:
            match = load(record)
            task = _bot_task(record, match)
            if task is None:
                break
            seat, text = task
            if text is None:
                engine = engine_of(record)
                assert isinstance(engine, BotPlayer)
                level = bot_seats(record)[seat]
                rng = random.Random(record.seed + record.revision)
                # in a worker process: a bot thinking takes no time from the event loop
                action = await run_apart(
                    engine.choose_action, match.state, seat, level, BOT_BUDGET_S, rng
                )
                text = engine_of(record).action_text(action)
            try:
                turn = await self.apply_for_seat(record, seat, text)
            except StaleRevision:  # a player (or a second loop) was quicker: go on from there
                record = await self.get(record.id)
                continue
            turns.append(turn)
            record = turn.record
        return record, turns


def _open_decision(engine: Engine[Any, Any], match: m.Match, seat: int) -> str | None:
    """The id of ``seat``'s open decision in ``match`` (None: it has none)."""
    return next((d.id for d in m.decisions(engine, match) if d.seat == seat), None)


def _bot_task(record: GameRecord, match: m.Match) -> tuple[int, str | None] | None:
    """The next thing a bot seat does: (seat, None) to choose an action for its open
    decision, (seat, "!draw-decline") to answer a draw offer; None when no bot is due."""
    engine = engine_of(record)
    bots = bot_seats(record)
    if not bots or m.outcome(engine, match) is not None:
        return None
    if match.draw_votes:
        for seat in sorted(bots):
            if seat in match.remaining and seat not in match.draw_votes:
                return seat, "!draw-decline"
    if not isinstance(engine, BotPlayer):
        return None
    for decision in m.decisions(engine, match):
        if decision.seat in bots:
            return decision.seat, None
    return None
