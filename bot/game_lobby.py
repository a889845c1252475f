"""The lobby of an invited game: its seats (host, invited, accepted, declined, bot) and each
seat's setup choice; creating a game, accepting, declining, re-inviting, filling a seat with
the bot and starting (by itself once every seat is ready, or by the host with the seats ready
now). Part of the game service (``bot.games``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from bot.game_core import (
    ACTIVE,
    DECLINED,
    INVITED,
    RETRIES,
    SEED_BITS,
    ServiceCore,
    bot_seats_of,
    engine_config,
    engine_of,
)
from bot.store import GameRecord, StaleRevision
from bot.workers import run_apart
from engines.core import BadInput, IllegalAction, registry
from engines.core import match as m
from engines.core.contract import BotPlayer

HOST, PENDING, ACCEPTED, REFUSED, BOT = "host", "invited", "accepted", "declined", "bot"
READY = frozenset({HOST, ACCEPTED, BOT})


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


def lobby_of(record: GameRecord) -> Lobby:
    """The lobby of an invited game (a game stored before lobbies: the host and one guest)."""
    data = record.snapshot.get("lobby")
    if data is None:
        seats = [HOST] + [PENDING] * (len(record.players) - 1)
        return Lobby(tuple(seats), (None,) * len(record.players))
    return Lobby(tuple(data["seats"]), tuple(data["choices"]))


def first_snapshot(kind: str, config: dict[str, Any], seed: int, players: int) -> dict[str, Any]:
    """The stored snapshot of a new game: its engine's first state. Worked out in a worker
    process (``bot.workers.run_apart``; a Telperinquár start deals and shuffles two decks).
    Raises the engine's BadInput for a config it does not accept."""
    import engines.all  # noqa: F401  (a worker process registers every engine)

    engine = registry()[kind]
    return m.to_json(engine, m.start(engine, config, seed, players))


class Lobbies(ServiceCore):
    """Creating a game and its invitation, up to its start."""

    # ------------------------------------------------------------------ creating, inviting

    @staticmethod
    def check_config(kind: str, config: dict[str, Any], players: int) -> None:
        """Raises the engine's own BadInput for a config it does not accept with ``players``
        seats — the same error ``create`` would refuse it with — before anything is asked of
        Discord or the store (the engine's first state from a fixed seed, thrown away)."""
        registry()[kind].initial_state(engine_config(config), 0, players)

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
        snapshot = await run_apart(first_snapshot, kind, engine_config(config), seed, len(players))
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

    async def accept(self, game_id: int, user_id: int, choice: Any = None) -> GameRecord:
        """``user_id`` takes their invited seat, with their setup ``choice`` (None: none).
        The game starts once every seat is ready. Raises IllegalAction for someone not
        invited, StaleRevision when their seat was answered already or the invitation is
        over, BadInput for a choice the engine refuses."""

        def change(record: GameRecord, lobby: Lobby) -> tuple[GameRecord, Lobby]:
            seat = _invited_seat(record, lobby, user_id)
            choices = _set(lobby.choices, seat, choice)
            if choice is not None:  # refused now, not when the last seat accepts
                config = {**engine_config(record.config), "seat_choices": list(choices)}
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
        config = dict(record.config)
        if any(choice is not None for choice in lobby.choices):
            config["seat_choices"] = list(lobby.choices)
        snapshot = await run_apart(
            first_snapshot, record.kind, engine_config(config), record.seed, len(record.players)
        )
        return await self.store.update_game(
            record.id,
            expected_revision=record.revision,
            snapshot=snapshot,
            status=ACTIVE,
            players=record.players,
            config=config,
        )


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
