"""The one game model of the house: the engine protocol, decisions, events, outcomes and the
registry of engines by name.

A game is a pure reducer over a state value (boardgame.io's one reducer, OpenSpiel's explicit
node kinds, python-chess's value types). Every moment where someone must choose is a
:class:`Decision` the engine states: who decides (any seat, not only the one whose turn it is;
several at once for reactions and sealed choices), what kind of choice, and through
``legal_actions`` the options. The Discord layer turns a decision into components generically
(the action's ``action_path`` tokens, clicked one after the other), judges stale clicks per
decision (``Decision.id``), and shows private information only from that seat's ``view_for``.

Seats and sides live in the match (``engines.core.match``): a team per seat from the config
key ``teams`` (engines that score teams read the same key); resigning and idle forfeits
eliminate a seat (``eliminate`` settles it while two sides remain, else the match ends and
the remaining side wins together); a draw needs the yes of every remaining seat. Two optional
hooks: :class:`BotPlayer` (the AI; the service plays bot seats with it),
:class:`SecretActions` (logged actions only some seats may read; the export of a running game
redacts them for the others, ``engines.core.record.public_log``) and :class:`TimeoutActions`
(how a reaction left unanswered past the reaction limit is answered: the engine's pass).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeAlias, TypeVar, runtime_checkable

PlayerId = int  # a seat index 0..n-1
JsonDict = dict[str, Any]
EventName: TypeAlias = str
"""What ``Event.type`` holds: a member of the engine's ``EventType`` StrEnum (Armageddon,
Essence) or, for an engine not yet ported, a plain string. A StrEnum member is a ``str``: it
compares and hashes equal to its value, formats and dumps to JSON as its value, so narration,
i18n keys and stored logs see the plain name either way."""

S = TypeVar("S")
A = TypeVar("A")


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for the cog to narrate. ``type``: an :data:`EventName`
    (an engine's ``EventType`` member or a plain string). ``visible_to`` None means everyone."""

    type: EventName
    data: Mapping[str, Any] = field(default_factory=dict)
    visible_to: frozenset[PlayerId] | None = None

    def visible_for(self, player: PlayerId | None) -> bool:
        return self.visible_to is None or (player is not None and player in self.visible_to)


class MatchEvent(StrEnum):
    """The events of what every match shares (``engines.core.match``): leaving and draws."""

    RESIGNED = "resigned"
    FORFEITED = "forfeited"
    DRAW_OFFERED = "draw_offered"
    DRAW_DECLINED = "draw_declined"
    DRAW_ACCEPTED = "draw_accepted"
    DRAW_AGREED = "draw_agreed"


class DecisionKind(StrEnum):
    """What kind of choice a decision is (OpenSpiel's node kinds, boardgame.io's stages)."""

    TURN = "turn"  # the seat's own move; the game waits for it
    CHOICE = "choice"  # a choice inside a step (a target, which essence loses); the game waits
    REACTION = "reaction"  # may answer or pass; others may hold reactions at the same time
    SEALED = "sealed"  # a simultaneous secret choice; nobody sees it until every seat chose


@dataclass(frozen=True, slots=True)
class Decision:
    """One seat must (or may) choose now.

    ``id`` names this decision instance: it stays the same while the decision is open and
    changes once it is answered or withdrawn, so a click is stale exactly when its decision
    id is no longer open for that seat, whatever other seats did meanwhile. ``prompt`` is a
    message key (with ``params``) saying what is asked; the options are
    ``legal_actions(state, seat)``. ``waits`` says whether the game waits for it: the idle
    reminders and forfeits count only decisions that keep the game waiting.
    """

    seat: PlayerId
    id: str
    kind: DecisionKind = DecisionKind.TURN
    prompt: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)
    # False for a decision a seat *may* take at any time while others play (a game master's
    # overrule, a reflex): the game does not wait for it, so nobody is reminded or forfeited
    waits: bool = True


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended.

    ``winners`` is empty for a draw (allies win together; all remaining sides at once is a
    draw). ``ranking`` lists places best first (seats sharing a place together), when the game
    ranks; ``eliminated`` the seats knocked out, in order. ``reason`` is a message key suffix
    (``resign``, ``forfeit``, ``draw_agreed``, or the engine's own).
    """

    winners: frozenset[PlayerId]
    reason: str
    ranking: tuple[frozenset[PlayerId], ...] = ()
    eliminated: tuple[PlayerId, ...] = ()

    @property
    def is_draw(self) -> bool:
        return not self.winners


class Engine(Protocol, Generic[S, A]):
    """What every game implements. States and actions are values; nothing here mutates."""

    name: str
    version: int
    min_players: int
    max_players: int

    def initial_state(self, config: Mapping[str, Any], seed: int, players: int) -> S:
        """The start position. Raises BadInput for an unknown config option."""
        ...

    def decisions(self, state: S) -> tuple[Decision, ...]:
        """Every open decision, in the order they should be asked; empty when the game is
        over (or waits for nobody)."""
        ...

    def legal_actions(self, state: S, player: PlayerId) -> Sequence[A]:
        """Every action ``player`` may take now (empty when no decision of theirs is open)."""
        ...

    def apply(self, state: S, action: A, player: PlayerId) -> tuple[S, list[Event]]:
        """The state after ``player`` takes ``action``. Raises IllegalAction otherwise."""
        ...

    def eliminate(self, state: S, player: PlayerId) -> tuple[S, list[Event]]:
        """The state after ``player`` leaves the game (resigned or forfeited) while others play
        on: their pieces, hand and open decisions are settled as the rules say. Two-seat
        engines may raise IllegalAction (the match ends instead of calling this)."""
        ...

    def view_for(self, state: S, player: PlayerId | None) -> JsonDict:
        """Plain data that ``player`` may see (None: a spectator)."""
        ...

    def outcome(self, state: S) -> Outcome | None:
        """Winners and reason once the game is over, else None."""
        ...

    def secrets_of(self, state: S, player: PlayerId) -> set[str]:
        """Tokens only ``player`` may know (for the leak test); empty for open games."""
        ...

    def parse_action(self, text: str) -> A:
        """The action written as ``text``. Raises BadInput for unreadable notation."""
        ...

    def action_text(self, action: A) -> str:
        """The notation of ``action``; ``parse_action(action_text(a)) == a``."""
        ...

    def action_path(self, action: A) -> tuple[str, ...]:
        """The tokens that click ``action`` together, first choice first (a piece, then a
        target, ...). Distinct actions have distinct paths."""
        ...

    def state_to_json(self, state: S) -> JsonDict: ...

    def state_from_json(self, data: JsonDict) -> S:
        """Raises BadInput for data of another schema version."""
        ...


@runtime_checkable
class SecretActions(Protocol):
    """An engine some of whose logged actions are secret (a card laid face down, a sealed
    bid). Engines without this hook have public actions only."""

    def action_visible_to(
        self, state: Any, action: Any, player: PlayerId
    ) -> frozenset[PlayerId] | None:
        """Who may read ``action`` (taken by ``player`` in ``state``, the state before it) in
        the action log of a running game: None for everyone, else these seats. The export of
        a running game shows the others ``{"seat": s, "action": None, "secret": True}``."""
        ...


# An engine may also set the class attribute ``idle_sweep = False`` when its games wait for the
# whole table rather than for one player (a W6 combat): the service then never reminds or
# forfeits a seat of it (``bot.games.idle_sweep``).
# An engine nobody wins against the others (a booster draft) sets ``play_on_alone = True``: a
# seat leaving does not end the match while one seat remains (``engines.core.match``); the
# engine settles the seat that left and ends by its own outcome.


@runtime_checkable
class BotPlayer(Protocol):
    """An engine that can play a seat itself (the AI hook). The service runs it off the event
    loop and shows that the bot is thinking."""

    bot_levels: tuple[str, ...]  # the levels it knows, weakest first

    def choose_action(
        self, state: Any, player: PlayerId, level: str, budget_s: float, rng: random.Random
    ) -> Any:
        """One legal action for ``player`` at ``level``, within about ``budget_s`` seconds of
        CPU time; deterministic given ``rng``."""
        ...


@runtime_checkable
class TimeoutActions(Protocol):
    """An engine that names how a REACTION is answered when its seat does not answer in time
    (the service's reaction limit): usually its pass. Without this hook, or when it says None,
    a reaction waits like any decision (idle reminders, then a forfeit)."""

    def timeout_action(self, state: Any, decision: Decision) -> Any | None:
        """The action that answers the open REACTION ``decision`` for its seat (one of
        ``legal_actions(state, decision.seat)``), or None to keep waiting for the seat."""
        ...


def timeout_action(engine: Engine[Any, Any], state: Any, decision: Decision) -> Any | None:
    """The legal action that answers ``decision`` when its time is up: only for a REACTION of
    an engine with :class:`TimeoutActions` whose answer is legal now, else None."""
    if decision.kind != DecisionKind.REACTION or not isinstance(engine, TimeoutActions):
        return None
    action = engine.timeout_action(state, decision)
    if action is None or action not in engine.legal_actions(state, decision.seat):
        return None
    return action


@runtime_checkable
class RefereeSeats(Protocol):
    """An engine with seats that referee and play no side (Armageddon's game master): such a
    seat never wins and does not count as a side that keeps a match going, so the match ends
    when one playing side is left."""

    def referee_seats(self, state: Any) -> frozenset[PlayerId]:
        """The seats of ``state`` that play no side."""
        ...


def referee_seats(engine: Engine[Any, Any], state: Any) -> frozenset[PlayerId]:
    """The seats that play no side: the engine's own, else none."""
    return engine.referee_seats(state) if isinstance(engine, RefereeSeats) else frozenset()


@runtime_checkable
class OpenSeats(Protocol):
    """An engine whose seats open during play (a W6 combat: the game master is seat 0, a
    player's seat opens when their first fighter joins). Seats never close (one that left
    keeps its number); ``players`` given to ``initial_state`` is then only the count at the
    start."""

    def seat_count(self, state: Any) -> int:
        """How many seats the game has now (seats are ``0 .. seat_count - 1``)."""
        ...


def seat_count(engine: Engine[Any, Any], state: Any, players: int) -> int:
    """The seats of ``state``: the engine's own count for open seats, else ``players``."""
    return engine.seat_count(state) if isinstance(engine, OpenSeats) else players


def to_act(engine: Engine[Any, Any], state: Any) -> frozenset[PlayerId]:
    """The seats with an open decision."""
    return frozenset(decision.seat for decision in engine.decisions(state))


def decision_for(engine: Engine[Any, Any], state: Any, player: PlayerId) -> Decision | None:
    """``player``'s first open decision, if any."""
    return next((d for d in engine.decisions(state) if d.seat == player), None)


_REGISTRY: dict[str, Engine[Any, Any]] = {}


def register(engine: Engine[Any, Any]) -> Engine[Any, Any]:
    _REGISTRY[engine.name] = engine
    return engine


def registry() -> Mapping[str, Engine[Any, Any]]:
    return dict(_REGISTRY)
