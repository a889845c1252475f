"""Game records for a reader: the action log replayed, with the actions secret to other seats
redacted (the export of a running game), or in full (after the end). Pure: the service reads
the log from the store and calls this.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engines.core import match as m
from engines.core.contract import Engine, Event, JsonDict, PlayerId, SecretActions


def replay(
    engine: Engine[Any, Any],
    config: Mapping[str, Any],
    seed: int,
    players: int,
    log: Sequence[tuple[PlayerId, str]],
) -> m.Match:
    """The match after every logged action (a stored log was checked when it was written)."""
    match = m.start(engine, config, seed, players)
    for seat, text in log:
        match, _events = m.apply(engine, match, text, seat, referee=True)
    return match


def last_events(
    engine: Engine[Any, Any],
    config: Mapping[str, Any],
    seed: int,
    players: int,
    log: Sequence[tuple[PlayerId, str]],
) -> list[Event]:
    """The events of the last logged action (none for an empty log), the log replayed."""
    if not log:
        return []
    match = replay(engine, config, seed, players, log[:-1])
    seat, text = log[-1]
    return m.apply(engine, match, text, seat, referee=True)[1]


@dataclass(frozen=True, slots=True)
class Walked:
    """One logged step of a game walked through: its seat, its notation as the reader may
    read it (None: secret to the reader), the match after it and its events."""

    seat: PlayerId
    action: str | None
    match: m.Match
    events: list[Event]


def walk(
    engine: Engine[Any, Any],
    config: Mapping[str, Any],
    seed: int,
    players: int,
    log: Sequence[tuple[PlayerId, str]],
    reader: Collection[PlayerId] | None = None,
) -> tuple[m.Match, list[Walked]]:
    """The start of the game and every logged step after it, as the seats in ``reader`` may
    read it (None: everything, a finished game; empty: a spectator). An action the engine
    marks as secret (``SecretActions.action_visible_to``) to seats other than the reader's
    has no notation; meta actions are public."""
    start = match = m.start(engine, config, seed, players)
    readers = None if reader is None else frozenset(reader)
    steps: list[Walked] = []
    for seat, text in log:
        visible = True
        meta = text.startswith(m.META_PREFIX)
        if readers is not None and isinstance(engine, SecretActions) and not meta:
            seen = engine.action_visible_to(match.state, engine.parse_action(text), seat)
            visible = seen is None or bool(seen & readers)
        match, events = m.apply(engine, match, text, seat, referee=True)
        steps.append(Walked(seat, text if visible else None, match, events))
    return start, steps


def public_log(
    engine: Engine[Any, Any],
    config: Mapping[str, Any],
    seed: int,
    players: int,
    log: Sequence[tuple[PlayerId, str]],
    reader: Collection[PlayerId],
) -> tuple[list[JsonDict], m.Match]:
    """The log as the seats in ``reader`` (empty: a spectator) may read it, and the match at
    its end. An action the engine marks as secret (``SecretActions.action_visible_to``) to
    seats other than the reader's is ``{"seat": s, "action": None, "secret": True}``; meta
    actions are public."""
    start, steps = walk(engine, config, seed, players, log, reader)
    entries: list[JsonDict] = [
        {"seat": step.seat, "action": step.action}
        if step.action is not None
        else {"seat": step.seat, "action": None, "secret": True}
        for step in steps
    ]
    return entries, steps[-1].match if steps else start
