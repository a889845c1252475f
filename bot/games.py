"""Games in a channel, for every engine: invite, accept, act, bot seats, idle seats, export.

The cog of a game calls this; it keeps the one-way flow: the engine decides (through the
match wrapper, which adds resign / draw votes / forfeit / teams), the store writes
revision-guarded, and the cog renders and replies.

**Seats.** ``record.players`` holds one user id per seat. Bot seats are the seats named in
the config's ``ai_levels`` (seat → level; their user id is the bot's own); the service plays
them (:meth:`GameService.play_bots`) for every engine that implements ``BotPlayer``, off the
event loop, deterministic from the game's seed and revision.

**Invitations.** An invited game keeps a lobby in its snapshot until it starts: every seat is
the ``host``'s, ``invited``, ``accepted``, ``declined`` or a ``bot``. Each invited person
accepts (with their own setup choice where the game has one: the engine's config receives
``seat_choices``, one per seat) or declines; a declined or open seat can be re-invited or
filled by the bot; the game starts by itself once every seat is ready, or when the host starts
it with at least ``min_players`` ready seats (the others are dropped).

**Stale clicks** are judged per decision: a click made for decision id D of seat S applies
while D is still open for S, whatever other seats did meanwhile; two clicks on one decision
apply once (the revision-guarded write fails for the second, which re-reads and finds D gone).

**Idle seats.** :meth:`GameService.idle_due` lists every person whose open decision keeps a
game waiting (also several at once in a reaction window): reminders, then forfeits, which
eliminate that seat (the game goes on while two sides remain).

**Reactions not answered in time.** :meth:`GameService.reactions_due` lists the REACTION
decisions of people left unanswered past the reaction limit (the game's config
``reaction_minutes``, else the bot's setting; 0: none) whose engine names a timeout action
(``engines.core.contract.TimeoutActions``, its pass); :meth:`GameService.time_out` answers one
with it, logged as that seat's own action. The seat stays in the game.

**Export.** A running game exports what the requester may know: their view and the public
action log (no seed; actions secret to other seats redacted); a finished one the full record.
"""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from bot.store import GameRecord, LogRow, StaleRevision, Store
from engines.core import BadInput, Engine, Event, IllegalAction, Outcome, registry
from engines.core import match as m
from engines.core.contract import (
    BotPlayer,
    Decision,
    DecisionKind,
    TimeoutActions,
    timeout_action,
)
from engines.core.record import last_events, public_log

INVITED, ACTIVE, FINISHED, DECLINED = "invited", "active", "finished", "declined"
REMIND, FORFEIT, TIMED_OUT = "remind", "forfeit", "timed_out"
HOST, PENDING, ACCEPTED, REFUSED, BOT = "host", "invited", "accepted", "declined", "bot"
READY = frozenset({HOST, ACCEPTED, BOT})
BOT_BUDGET_S = 2.0  # CPU seconds a bot may think per decision
RETRIES = 8  # re-reads after a concurrent write before a click is given up as stale
REACTION_KEY = "reaction_minutes"  # a game's own reaction limit (the service's config key)
REACTION_FLOOR_S = 60  # the shortest reaction limit (a minute: the sweep's own pace)
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


@dataclass(frozen=True)
class Seated:
    """A running game loaded once for one click or typed step: the stored record, its match
    and the seat the user acts as (see :meth:`GameService.seated`)."""

    record: GameRecord
    match: m.Match
    seat: int


def _play_key(name: str) -> str:
    return f"play.{name}"


class IdleGame(NamedTuple):
    """A running game that waits too long for the person on ``seat`` (open ``decision``):
    ``due`` is :data:`REMIND`, :data:`FORFEIT` or :data:`TIMED_OUT` (a reaction to pass)."""

    record: GameRecord
    due: str
    seat: int
    decision: str | None = None


@dataclass(frozen=True)
class Lobby:
    """The seats of an invited game: their state (host, invited, accepted, declined, bot)
    and each seat's setup choice."""

    seats: tuple[str, ...]
    choices: tuple[Any, ...]

    @property
    def ready(self) -> tuple[int, ...]:
        return tuple(i for i, state in enumerate(self.seats) if state in READY)

    def dump(self) -> dict[str, Any]:
        return {"seats": list(self.seats), "choices": list(self.choices)}


def engine_of(record: GameRecord) -> Engine[Any, Any]:
    return registry()[record.kind]


def load(record: GameRecord) -> m.Match:
    return m.from_json(engine_of(record), record.snapshot)


def lobby_of(record: GameRecord) -> Lobby:
    """The lobby of an invited game (a game stored before lobbies: the host and one guest)."""
    data = record.snapshot.get("lobby")
    if data is None:
        seats = [HOST] + [PENDING] * (len(record.players) - 1)
        return Lobby(tuple(seats), (None,) * len(record.players))
    return Lobby(tuple(data["seats"]), tuple(data["choices"]))


def bot_seats(record: GameRecord) -> dict[int, str]:
    """Seat → level of the seats the bot plays."""
    return {int(seat): str(level) for seat, level in record.config.get("ai_levels", {}).items()}


# A game's seed decides hands, deck orders, future dice and the bot's moves: 128 bits from the
# system's secure source, so no player can search the seeds offline from what they see.
SEED_BITS = 128


class GameService:
    def __init__(self, store: Store, entropy: Callable[[int], int] = secrets.randbits) -> None:
        """``entropy(bits)`` seeds new games (the bot's :class:`bot.chance.Chance` in play)."""
        self.store = store
        self.entropy = entropy

    # ------------------------------------------------------------------ creating, inviting

    async def create(
        self,
        kind: str,
        config: dict[str, Any],
        *,
        channel_id: int,
        guild_id: int | None,
        players: list[int],
        invited: bool,
        seed: int | None = None,
        one_per_channel: bool = False,
        display: dict[str, Any] | None = None,
    ) -> GameRecord:
        """A new game with one user id per seat (seat 0 is the host). ``invited`` games wait
        until every seat that is neither the host's, the host's own second seat nor a bot
        seat (``ai_levels``) has accepted; otherwise the game starts at once.

        ``one_per_channel``: refused (AlreadyExists) while the channel has an invited or
        active game of ``kind``; ``display``: the cog's presentation data.

        Raises BadInput for a config the engine does not accept.
        """
        engine = registry()[kind]
        seed = self.entropy(SEED_BITS) if seed is None else seed
        match = m.start(engine, _engine_config(config), seed, len(players))
        snapshot = m.to_json(engine, match)
        status = ACTIVE
        if invited:
            bots = bot_seats_of(config)
            seats = tuple(
                BOT if i in bots else HOST if i == 0 or p == players[0] else PENDING
                for i, p in enumerate(players)
            )
            if any(s == PENDING for s in seats):
                status = INVITED
                chosen = tuple(config.get("seat_choices") or (None,) * len(players))
                snapshot["lobby"] = Lobby(seats, chosen).dump()  # the host's choice kept
        return await self.store.create_game(
            kind=kind,
            engine_version=engine.version,
            config=config,
            seed=seed,
            guild_id=guild_id,
            channel_id=channel_id,
            players=players,
            status=status,
            snapshot=snapshot,
            one_per_channel=one_per_channel,
            display=display,
        )

    async def get(self, game_id: int) -> GameRecord:
        """Raises IllegalAction when there is no such game."""
        record = await self.store.get_game(game_id)
        if record is None:
            raise IllegalAction("error.no_such_game", id=game_id)
        return record

    async def accept(self, game_id: int, user_id: int, choice: Any = None) -> GameRecord:
        """``user_id`` takes their invited seat, with their setup ``choice`` (None: none).
        The game starts once every seat is ready. Raises IllegalAction for someone not
        invited, StaleRevision when their seat was answered already or the invitation is
        over, BadInput for a choice the engine refuses."""

        def change(record: GameRecord, lobby: Lobby) -> tuple[GameRecord, Lobby]:
            seat = _invited_seat(record, lobby, user_id)
            choices = _set(lobby.choices, seat, choice)
            if choice is not None:  # refused now, not when the last seat accepts
                config = {**_engine_config(record.config), "seat_choices": list(choices)}
                m.start(engine_of(record), config, record.seed, len(record.players))
            return record, Lobby(_set(lobby.seats, seat, ACCEPTED), choices)

        return await self._change_lobby(game_id, change)

    async def decline(self, game_id: int, user_id: int, *, close: bool = False) -> GameRecord:
        """``user_id`` declines their invited seat; the host may re-invite or fill it.
        ``close`` ends the invitation with this answer (a two-seat challenge). Raises as
        :meth:`accept`."""

        def change(record: GameRecord, lobby: Lobby) -> tuple[GameRecord, Lobby]:
            seat = _invited_seat(record, lobby, user_id)
            return record, Lobby(_set(lobby.seats, seat, REFUSED), lobby.choices)

        record = await self._change_lobby(game_id, change, start=False)
        if close:
            record = await self.store.update_game(
                record.id,
                expected_revision=record.revision,
                snapshot=record.snapshot,
                status=DECLINED,
            )
        return record

    async def reinvite(self, game_id: int, host_id: int, seat: int, user_id: int) -> GameRecord:
        """The host invites ``user_id`` to a seat that is open or was declined. Raises
        IllegalAction for anyone but the host or a seat that is taken."""

        def change(record: GameRecord, lobby: Lobby) -> tuple[GameRecord, Lobby]:
            _require_open_seat(record, lobby, host_id, seat)
            players = _set(tuple(record.players), seat, user_id)
            return _with(record, players=list(players)), Lobby(
                _set(lobby.seats, seat, PENDING), _set(lobby.choices, seat, None)
            )

        return await self._change_lobby(game_id, change, start=False)

    async def fill_with_bot(
        self, game_id: int, host_id: int, seat: int, bot_id: int, level: str
    ) -> GameRecord:
        """The host lets the bot (user ``bot_id``) play an open or declined seat at
        ``level``. Raises IllegalAction as :meth:`reinvite`, BadInput for a game without a
        bot player or a level it does not know."""
        engine = registry()[(await self.get(game_id)).kind]
        if not isinstance(engine, BotPlayer) or level not in engine.bot_levels:
            raise BadInput("error.no_bot_level", level=level)

        def change(record: GameRecord, lobby: Lobby) -> tuple[GameRecord, Lobby]:
            _require_open_seat(record, lobby, host_id, seat)
            config = dict(record.config)
            config["ai_levels"] = {**config.get("ai_levels", {}), str(seat): level}
            players = list(_set(tuple(record.players), seat, bot_id))
            return _with(record, players=players, config=config), Lobby(
                _set(lobby.seats, seat, BOT), _set(lobby.choices, seat, None)
            )

        return await self._change_lobby(game_id, change)

    async def start_now(self, game_id: int, host_id: int) -> GameRecord:
        """The host starts with the seats ready now (at least ``min_players``); open and
        declined seats are dropped. Raises IllegalAction for anyone but the host or too few."""
        for _attempt in range(RETRIES):
            record = await self.get(game_id)
            if record.status != INVITED:
                raise StaleRevision()
            if record.players[0] != host_id:
                raise IllegalAction("error.not_host")
            lobby = lobby_of(record)
            engine = engine_of(record)
            if len(lobby.ready) < engine.min_players:
                raise IllegalAction("error.not_enough_players", min=engine.min_players)
            try:
                return await self._start(_drop_unready(record, lobby))
            except StaleRevision:
                continue
        raise StaleRevision()

    async def _change_lobby(
        self,
        game_id: int,
        change: Callable[[GameRecord, Lobby], tuple[GameRecord, Lobby]],
        *,
        start: bool = True,
    ) -> GameRecord:
        """Apply ``change(record, lobby) -> (record, lobby)`` revision-guarded (re-read and
        retried after a concurrent answer); start the game when every seat is ready."""
        for _attempt in range(RETRIES):
            record = await self.get(game_id)
            if record.status != INVITED:
                raise StaleRevision()
            changed, lobby = change(record, lobby_of(record))
            if start and all(state in READY for state in lobby.seats):
                try:
                    return await self._start(_with(changed, lobby=lobby))
                except StaleRevision:
                    continue
            snapshot = {**record.snapshot, "lobby": lobby.dump()}
            try:
                return await self.store.update_game(
                    game_id,
                    expected_revision=record.revision,
                    snapshot=snapshot,
                    players=changed.players,
                    config=changed.config,
                )
            except StaleRevision:
                continue
        raise StaleRevision()

    async def _start(self, record: GameRecord) -> GameRecord:
        """Start an invited game whose lobby is in ``record`` (every seat ready), with the
        seats' setup choices. Raises BadInput for a choice the engine refuses."""
        lobby = lobby_of(record)
        engine = engine_of(record)
        config = dict(record.config)
        if any(choice is not None for choice in lobby.choices):
            config["seat_choices"] = list(lobby.choices)
        match = m.start(engine, _engine_config(config), record.seed, len(record.players))
        return await self.store.update_game(
            record.id,
            expected_revision=record.revision,
            snapshot=m.to_json(engine, match),
            status=ACTIVE,
            players=record.players,
            config=config,
        )

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
        events = await asyncio.to_thread(
            last_events,
            engine,
            _engine_config(record.config),
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
            try:  # never as the referee
                return await self.apply_for_seat(record, acting, text, writes=writes, match=match)
            except StaleRevision:
                # a typed step was meant for the game as the user saw it; a resign or a draw
                # answer holds whatever happened meanwhile (the bot's move written first)
                if decision is None and not text.startswith(m.META_PREFIX):
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
        return Turn(stored, match, events, seat)

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
                action = await asyncio.to_thread(
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

    # ------------------------------------------------------------------ idle seats

    async def claim(self, record: GameRecord, revision: int) -> GameRecord:
        """Use ``record`` (as of ``revision``) up for a one-time follow-up such as a rematch:
        its revision moves on, so only the first of several clicks on one button (also at the
        same moment) gets the new record; the others raise StaleRevision."""
        if record.revision != revision:
            raise StaleRevision()
        return await self.store.update_game(
            record.id, expected_revision=revision, snapshot=record.snapshot
        )

    async def undo_last(
        self,
        record: GameRecord,
        *,
        display: dict[str, Any] | None = None,
        log: Sequence[LogRow] = (),
    ) -> GameRecord:
        """The game without its last action, for every engine: the stored log without it,
        replayed from the same config and seed (so the same dice come again), stored with the
        last action row deleted (with ``display`` and campaign-log rows ``log`` in the same
        transaction). Who may undo is the cog's rule. Raises IllegalAction
        ("error.nothing_to_undo") for a game without actions, StaleRevision when the game
        moved on since ``record`` was read."""
        engine = engine_of(record)
        actions = await self.store.game_actions(record.id)
        if not actions:
            raise IllegalAction("error.nothing_to_undo")
        match = m.start(engine, _engine_config(record.config), record.seed, len(record.players))
        for seat, text in actions[:-1]:
            match, _events = m.apply(engine, match, text, seat, referee=True)
        finished = m.outcome(engine, match) is not None
        return await self.store.drop_last_game_action(
            record.id,
            expected_revision=record.revision,
            snapshot=m.to_json(engine, match),
            status=FINISHED if finished else ACTIVE,
            display=display,
            log=log,
        )

    async def idle_due(
        self,
        now: float,
        reminder_s: float,
        forfeit_s: float,
        *,
        kind: str | None = None,
        bots: Collection[int] = (),
    ) -> list[IdleGame]:
        """Every person (not a bot seat, not a user in ``bots``) whose open decision keeps a
        running game (of ``kind``, or all) waiting: forfeits for the games idle ``forfeit_s``
        seconds, then reminders for the games idle ``reminder_s`` seconds and not reminded
        since their last move. A game due for forfeits is not listed for reminders as well.
        Games whose engine says ``idle_sweep = False`` (they wait for the whole table, such as
        a W6 combat) are never listed."""
        due: list[IdleGame] = []
        for record in await self.store.games_idle_since(now - forfeit_s):
            due += [IdleGame(record, FORFEIT, d.seat, d.id) for d in _waiting(record, kind, bots)]
        forfeited = {idle.record.id for idle in due}
        for record in await self.store.games_idle_since(now - reminder_s, unreminded_only=True):
            if record.id not in forfeited:
                waiting = _waiting(record, kind, bots)
                due += [IdleGame(record, REMIND, d.seat, d.id) for d in waiting]
        return due

    async def forfeit(self, record: GameRecord, seat: int, decision: str | None = None) -> Turn:
        """``seat`` leaves the game for keeping it waiting. With ``decision`` (the open
        decision it was idle on) a game that moved on meanwhile is re-read and the forfeit
        still applies while that decision is open (another idle seat of the same game was
        forfeited first); otherwise, or once it is answered, raises StaleRevision."""
        for _attempt in range(RETRIES):
            try:
                return await self.apply_for_seat(record, seat, f"!forfeit {seat}", referee=True)
            except StaleRevision:
                if decision is None:
                    raise
                record = await self.get(record.id)
                if record.status != ACTIVE or not m.decision_open(
                    engine_of(record), load(record), seat, decision
                ):
                    raise
        raise StaleRevision()

    async def reactions_due(
        self,
        now: float,
        limit_s: float,
        *,
        kind: str | None = None,
        bots: Collection[int] = (),
    ) -> list[IdleGame]:
        """Every person's open REACTION decision (as :meth:`idle_due` counts them) in a game
        with no move for longer than its reaction limit (its config ``reaction_minutes``, else
        ``limit_s``; 0 or less: none), whose engine answers it when the time is up."""
        due: list[IdleGame] = []
        for record in await self.store.games_idle_since(now - REACTION_FLOOR_S):
            limit = reaction_limit_s(record, limit_s)
            if kind is not None and record.kind != kind:
                continue
            if limit <= 0 or record.updated_at >= now - limit:
                continue
            if not isinstance(engine_of(record), TimeoutActions):
                continue
            state = load(record).state
            due += [
                IdleGame(record, TIMED_OUT, d.seat, d.id)
                for d in _waiting(record, kind, bots)
                if d.kind == DecisionKind.REACTION
                and timeout_action(engine_of(record), state, d) is not None
            ]
        return due

    async def time_out(self, record: GameRecord, seat: int, decision: str) -> Turn:
        """Answer ``seat``'s reaction ``decision`` with the engine's timeout action (its pass),
        as that seat's own action. A game that moved on meanwhile is re-read; raises
        StaleRevision once the decision is no longer open (answered in the meantime)."""
        for _attempt in range(RETRIES):
            engine = engine_of(record)
            match = load(record)
            open_ = [d for d in m.decisions(engine, match) if d.seat == seat and d.id == decision]
            action = timeout_action(engine, match.state, open_[0]) if open_ else None
            if record.status != ACTIVE or action is None:
                raise StaleRevision()
            try:
                return await self.apply_for_seat(record, seat, engine.action_text(action))
            except StaleRevision:
                record = await self.get(record.id)
        raise StaleRevision()

    async def mark_reminded(self, record: GameRecord) -> None:
        """The reminders for ``record`` were sent; no other until the next move."""
        await self.store.mark_reminded(record.id)

    async def running_in_channel(
        self, channel_id: int, kind: str | None = None
    ) -> list[GameRecord]:
        return await self.store.games_in_channel(channel_id, kind=kind, statuses=(INVITED, ACTIVE))

    # ------------------------------------------------------------------ export

    async def export(self, record: GameRecord, user_id: int | None = None) -> dict[str, Any]:
        """The game record as ``user_id`` (None: a spectator) may read it.

        A finished game: config, seed, players, every action and the outcome (replayable).
        A running or invited one: no seed; the requester's seats, their view of the game and
        the action log with the actions secret to other seats redacted
        (``{"seat": s, "action": None, "secret": True}``); config without the seats' setup
        choices."""
        log = await self.store.game_actions(record.id)
        engine = engine_of(record)
        data: dict[str, Any] = {
            "game": record.kind,
            "engine_version": record.engine_version,
            "id": record.id,
            "players": record.players,
            "status": record.status,
        }
        if record.status in (FINISHED, DECLINED):
            match = load(record)
            result = m.outcome(engine, match)
            data.update(
                config=record.config,
                seed=record.seed,
                actions=[{"seat": seat, "action": text} for seat, text in log],
            )
            if result is not None:
                data["outcome"] = m.outcome_to_json(result)
            return data
        seats = [i for i, p in enumerate(record.players) if p == user_id]
        config = {k: v for k, v in record.config.items() if k != "seat_choices"}
        entries, match = public_log(
            engine, _engine_config(record.config), record.seed, len(record.players), log, seats
        )
        data.update(
            config=config,
            seats=seats,
            view=engine.view_for(match.state, seats[0] if seats else None),
            actions=entries,
        )
        return data


def bot_seats_of(config: Mapping[str, Any]) -> set[int]:
    return {int(seat) for seat in config.get("ai_levels", {})}


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


def _waiting(record: GameRecord, kind: str | None, bots: Collection[int]) -> list[Decision]:
    """The open decisions of people (not bot seats) that keep ``record`` waiting."""
    if kind is not None and record.kind != kind:
        return []
    if record.status != ACTIVE or not idle_sweep(engine_of(record)):
        return []
    robots = bot_seats(record)
    seen: set[int] = set()
    waiting = []
    for decision in m.decisions(engine_of(record), load(record)):
        person = decision.seat not in robots and record.players[decision.seat] not in bots
        if person and decision.waits and decision.seat not in seen:
            seen.add(decision.seat)
            waiting.append(decision)
    return waiting


def idle_sweep(engine: Engine[Any, Any]) -> bool:
    """Whether idle reminders and forfeits apply to the engine's games (an engine that waits
    for the whole table rather than one player says ``idle_sweep = False``)."""
    return bool(getattr(engine, "idle_sweep", True))


def reaction_limit_s(record: GameRecord, default_s: float) -> float:
    """Seconds a reaction of ``record`` may stay unanswered: the game's own
    ``reaction_minutes``, else ``default_s``; 0 or less: no limit, else at least a minute."""
    own = record.config.get(REACTION_KEY)
    limit = default_s  # no number of minutes (or none given): the setting
    if isinstance(own, int | float) and not isinstance(own, bool):
        limit = float(own) * 60
    return max(limit, REACTION_FLOOR_S) if limit > 0 else 0.0


def _engine_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a game's config the engine sees (``ai_levels`` and ``reaction_minutes``
    are the service's)."""
    return {k: v for k, v in config.items() if k not in SERVICE_KEYS}


def _invited_seat(record: GameRecord, lobby: Lobby, user_id: int) -> int:
    """The seat ``user_id`` is invited to and has not answered yet."""
    seats = [i for i, p in enumerate(record.players) if p == user_id]
    if not any(lobby.seats[i] in (PENDING, ACCEPTED, REFUSED) for i in seats):
        raise IllegalAction("error.not_invited")
    pending = [i for i in seats if lobby.seats[i] == PENDING]
    if not pending:
        raise StaleRevision()  # answered already (a second click on the invitation)
    return pending[0]


def _require_open_seat(record: GameRecord, lobby: Lobby, host_id: int, seat: int) -> None:
    if record.players[0] != host_id:
        raise IllegalAction("error.not_host")
    if not 0 <= seat < len(lobby.seats) or lobby.seats[seat] not in (PENDING, REFUSED):
        raise IllegalAction("error.seat_taken", seat=seat + 1)


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _with(
    record: GameRecord,
    *,
    players: list[int] | None = None,
    config: dict[str, Any] | None = None,
    lobby: Lobby | None = None,
) -> GameRecord:
    """``record`` with other seats, config or lobby (not stored)."""
    snapshot = record.snapshot if lobby is None else {**record.snapshot, "lobby": lobby.dump()}
    return replace(
        record,
        players=record.players if players is None else players,
        config=record.config if config is None else config,
        snapshot=snapshot,
    )


def _drop_unready(record: GameRecord, lobby: Lobby) -> GameRecord:
    """Only the ready seats, renumbered: players, teams, bot levels and choices follow."""
    keep = lobby.ready
    config = dict(record.config)
    if "teams" in config:
        config["teams"] = [config["teams"][i] for i in keep]
    if "ai_levels" in config:
        levels = {int(s): v for s, v in config["ai_levels"].items()}
        config["ai_levels"] = {
            str(new): levels[old] for new, old in enumerate(keep) if old in levels
        }
    players = [record.players[i] for i in keep]
    trimmed = Lobby(tuple(lobby.seats[i] for i in keep), tuple(lobby.choices[i] for i in keep))
    return _with(record, players=players, config=config, lobby=trimmed)


__all__: Sequence[str] = (
    "ACTIVE",
    "DECLINED",
    "FINISHED",
    "FORFEIT",
    "INVITED",
    "REMIND",
    "TIMED_OUT",
    "GameService",
    "IdleGame",
    "Lobby",
    "Seated",
    "StepWrites",
    "Turn",
    "bot_seats",
    "engine_of",
    "load",
    "lobby_of",
)
