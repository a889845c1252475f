"""The kinds of event the Essence engine reports (``Event.type``), for the narration."""

from __future__ import annotations

from enum import StrEnum


class EventType(StrEnum):
    GROWN = "grown"
    MOVED = "moved"
    SPLIT = "split"
    HEALED = "healed"
    VOID_SHIFTED = "void_shifted"
    DESTABILIZED = "destabilized"
    SUMMONED = "summoned"
    DESTROYED = "destroyed"  # a mote on the square the void shifts to
    REMOVED = "removed"  # a mote brought to strength 0 or less
    TURN_STARTED = "turn_started"
    GAME_WON = "game_won"
    GAME_DRAWN = "game_drawn"


# The members as module names: the rules name one on every step they play, and a member looked
# up on its enum class costs several times a module attribute (``ev.MOVED``).
(
    GROWN,
    MOVED,
    SPLIT,
    HEALED,
    VOID_SHIFTED,
    DESTABILIZED,
    SUMMONED,
    DESTROYED,
    REMOVED,
    TURN_STARTED,
    GAME_WON,
    GAME_DRAWN,
) = EventType
