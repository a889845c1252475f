"""Game records for a reader: the action log replayed, with the actions secret to other seats
redacted (the export of a running game), or in full (after the end). Pure: the service reads
the log from the store and calls this.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
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
    readers = frozenset(reader)
    match = m.start(engine, config, seed, players)
    entries: list[JsonDict] = []
    for seat, text in log:
        visible = True
        if isinstance(engine, SecretActions) and not text.startswith(m.META_PREFIX):
            seen = engine.action_visible_to(match.state, engine.parse_action(text), seat)
            visible = seen is None or bool(seen & readers)
        entries.append(
            {"seat": seat, "action": text}
            if visible
            else {"seat": seat, "action": None, "secret": True}
        )
        match, _events = m.apply(engine, match, text, seat, referee=True)
    return entries, match
