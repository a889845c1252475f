"""W6 combat, second reading (issue #24): what the reviewer found against the rulebook."""

from __future__ import annotations

import pytest

from engines.core import IllegalAction
from engines.w6 import status_view
from tests.unit.test_w6_combat import (
    PLAYER,
    act,
    all_of,
    combat,
    duel,
    fighter,
    only,
    run,
    weapon,
)


def test_aiming_is_used_up_by_the_shot() -> None:
    """ZIELEN lowers the next shot's probe (RULES.md): one aim, one shot."""
    bow = weapon("Bogen", (1, 1), fert=3, fernkampf=True, zielen=1)
    state = duel(waffen=(bow,), handlungen_max=3, kw_max=20, b={"handlungen_max": 0})
    state, _ = act(state, "@held zielen")
    state, events = run(
        state, "wuerfel 5 5 5 5 5 1", "@held fern ork dist=10 probe=2 kw=3", "@ork abwehr keine"
    )
    assert only(events, "probe")["required"] == 3 - 1
    assert only(events, "damage")["fertigkeit"] == 3
    assert state.fighter("held").zielen == 0
    with pytest.raises(IllegalAction) as error:  # the next shot is not aimed any more
        act(state, "@held fern ork dist=10 kw=3")
    assert error.value.params["required"] == 3


def test_aiming_lapses_with_the_phase() -> None:
    bow = weapon("Bogen", (1, 1), fert=3, fernkampf=True, zielen=1)
    state = duel(waffen=(bow,), b={"handlungen_max": 0})
    state, _ = run(state, "@held zielen", "@held fertig")
    assert state.phase == 2 and state.fighter("held").zielen == 0
    with pytest.raises(IllegalAction) as error:
        act(state, "@held fern ork dist=10 kw=3")
    assert error.value.params["required"] == 3
