"""The shared click layout (``bot.play.table.GameTable.choice_rows``) never drops an option:
more than fit in Discord's five rows of 25-option menus go onto pages, every page within
Discord's limits, every option on exactly one page."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot.chance import Chance
from bot.play.spec import GameSpec
from bot.play.table import GameTable
from bot.play.ui import decode_path, encode_path, make_view, parse_path
from bot.store import GameRecord
from engines.core import BadInput
from engines.core import match as m
from engines.core.choices import ChoiceTree
from engines.core.contract import Decision
from tests.harness import assert_components_valid


class ManyWays:
    """An engine stub whose one decision has ``count`` one-token actions."""

    name = "many-ways"
    min_players = 2

    def __init__(self, count: int) -> None:
        self.count = count

    def legal_actions(self, state: Any, player: int) -> list[str]:
        return [f"w{i:03}" for i in range(self.count)]

    def action_path(self, action: str) -> tuple[str, ...]:
        return (action,)


def rows_for(count: int, page: int) -> list[dict[str, Any]]:
    stub = ManyWays(count)

    class Spec(GameSpec):
        kind, prefix = stub.name, "many"

        @property
        def engine(self) -> Any:
            return stub

    table = GameTable(
        SimpleNamespace(user=SimpleNamespace(id=1), store=None, chance=Chance()), Spec()
    )
    record = GameRecord(1, stub.name, 1, {}, 0, None, 5, [2, 3], "active", {}, 4, None, 0, 0)
    tree: ChoiceTree[Any] = ChoiceTree(stub, stub.legal_actions(None, 0))  # type: ignore[arg-type]
    decision = Decision(0, "d" * 20)
    rows = table.choice_rows(
        record, m.Match(stub.name, 2, None), 0, decision, "de", (), tree, page, meta=False
    )
    return make_view(rows).to_components()


def options_of(components: list[dict[str, Any]]) -> list[str]:
    return [
        o["value"] for row in components for c in row["components"] for o in c.get("options", [])
    ]


def pages_of(components: list[dict[str, Any]]) -> list[str]:
    return [
        c["custom_id"] for row in components for c in row["components"] if ":pg:" in c["custom_id"]
    ]


def test_many_options_go_onto_pages_and_none_is_dropped() -> None:
    first, second = rows_for(130, 0), rows_for(130, 1)
    for components in (first, second):
        assert_components_valid(components)
    shown = options_of(first) + options_of(second)
    assert sorted(shown) == [f"w{i:03}" for i in range(130)]  # each exactly once
    assert len(options_of(first)) == 100  # four menus of 25 and the page button's row
    assert pages_of(first) == ["many:1:" + "d" * 20 + ":pg::1"]
    assert pages_of(second) == ["many:1:" + "d" * 20 + ":pg::0"]  # round to the first again


def test_a_few_options_are_buttons_and_need_no_pages() -> None:
    components = rows_for(7, 0)
    assert_components_valid(components)
    assert not pages_of(components)
    labels = [c["label"] for row in components for c in row["components"]]
    assert labels == [f"w{i:03}" for i in range(7)]


class LongNames:
    """An engine stub whose actions are two long tokens with ``:`` and ``.`` in them."""

    name = "long-names"
    min_players = 2

    def legal_actions(self, state: Any, player: int) -> list[tuple[str, str]]:
        who = [f"fighter:{n}.of.the.{'very-long-' * 5}clan" for n in ("Thoin", "Mara")]
        return [(w, f"target:{t}#{'x' * 40}") for w in who for t in range(3)]

    def action_path(self, action: tuple[str, str]) -> tuple[str, ...]:
        return action


def test_long_or_odd_tokens_are_written_by_number_and_read_back() -> None:
    stub = LongNames()
    actions = stub.legal_actions(None, 0)
    tree: ChoiceTree[Any] = ChoiceTree(stub, actions)  # type: ignore[arg-type]
    for action in actions:
        path = stub.action_path(action)
        written = encode_path(tree, path)
        assert len(f"long:123456:{'d' * 20}:p:{written}:3") <= 100
        assert not set(written) & {":"}
        assert decode_path(tree, parse_path(written), "error.bad_choice") == path
    assert encode_path(tree, ()) == ""
    plain = ChoiceTree(ManyWays(3), ManyWays(3).legal_actions(None, 0))  # type: ignore[arg-type]
    assert encode_path(plain, ("w001",)) == "w001"  # short plain tokens stay readable
    with pytest.raises(BadInput):
        decode_path(tree, ("#9",), "error.bad_choice")
