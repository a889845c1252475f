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

from collections.abc import Sequence
from typing import Any

from bot.game_core import (
    ACTIVE,
    DECLINED,
    FINISHED,
    INVITED,
    SEED_BITS,
    SERVICE_KEYS,
    FinishedHook,
    Seated,
    StepWrites,
    Turn,
    bot_seats,
    engine_config,
    engine_of,
    load,
)
from bot.game_lobby import (
    ACCEPTED,
    BOT,
    HOST,
    PENDING,
    READY,
    REFUSED,
    Lobbies,
    Lobby,
    lobby_of,
)
from bot.game_sweeps import (
    FORFEIT,
    REMIND,
    TIMED_OUT,
    IdleGame,
    Sweeps,
    idle_sweep,
    reaction_limit_s,
)
from bot.store import GameRecord, LogRow, StaleRevision
from engines.core import IllegalAction
from engines.core import match as m
from engines.core.record import public_log, replay


class GameService(Lobbies, Sweeps):
    """The life cycle of every game: the lobby (``bot.game_lobby``), the click path, typed
    steps and bot seats (``bot.game_core``), the sweeps (``bot.game_sweeps``), and here undo,
    a one-time claim, the games of a channel and the export."""

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
        config = engine_config(record.config)
        match = replay(engine, config, record.seed, len(record.players), actions[:-1])
        finished = m.outcome(engine, match) is not None
        return await self.store.drop_last_game_action(
            record.id,
            expected_revision=record.revision,
            snapshot=m.to_json(engine, match),
            status=FINISHED if finished else ACTIVE,
            display=display,
            log=log,
        )

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
            engine, engine_config(record.config), record.seed, len(record.players), log, seats
        )
        data.update(
            config=config,
            seats=seats,
            view=engine.view_for(match.state, seats[0] if seats else None),
            actions=entries,
        )
        return data


__all__: Sequence[str] = (
    "ACCEPTED",
    "ACTIVE",
    "BOT",
    "DECLINED",
    "FINISHED",
    "FORFEIT",
    "HOST",
    "INVITED",
    "PENDING",
    "READY",
    "REFUSED",
    "REMIND",
    "SEED_BITS",
    "SERVICE_KEYS",
    "TIMED_OUT",
    "FinishedHook",
    "GameRecord",
    "GameService",
    "IdleGame",
    "Lobby",
    "Seated",
    "StepWrites",
    "Turn",
    "bot_seats",
    "engine_of",
    "idle_sweep",
    "load",
    "lobby_of",
    "reaction_limit_s",
)
