"""Every engine, registered in one line, passes the generic random-simulation kit."""

from __future__ import annotations

import pytest

import engines.all  # noqa: F401  (registers every engine)
from tests.kit import KitCase, check_case

CASES: list[KitCase] = [
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_random_games_keep_the_contract(case: KitCase) -> None:
    check_case(case)
