"""The kinds of event the Telperinquár engine reports (``Event.type``), for the narration."""

from __future__ import annotations

from enum import StrEnum


class EventType(StrEnum):
    CHAINED = "chained"  # a weapon on a Waffenkette stays
    COUNTER = "counter"  # a counter-attack's roll
    DAMAGE = "damage"
    DECLARED = "declared"  # an action laid on the stack
    DISARMED = "disarmed"
    DREW = "drew"
    EQUIPPED = "equipped"
    EW = "ew"  # an Erfolgswurf
    FLEW = "flew"
    HEALED = "healed"
    HERO_FELL = "hero_fell"
    INTERCEPTED = "intercepted"
    LAPSED = "lapsed"  # a declared action came to nothing
    LEVEL_UP = "level_up"
    NO_COUNTER = "no_counter"
    PARRIED = "parried"
    PASSED = "passed"
    PLAYED = "played"
    REVEALED = "revealed"
    ROLL = "roll"
    SPENT = "spent"  # a card's last charge is used
    SVO = "svo"
    TOOK_BACK = "took_back"
    WAITS = "waits"  # the declarer's own note: its action waits for a seat's answer
    WESEN_DIED = "wesen_died"
    WESEN_WOUNDED = "wesen_wounded"
