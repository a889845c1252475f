"""Seat names on the shared game table: names several seats share are told apart."""

from __future__ import annotations

from bot.play.table import distinct_names


def test_names_several_seats_share_get_the_seat_number() -> None:
    bots = "Spielleiter (normal)"
    names = ["Alice", bots, "Alice", bots, "Bob"]
    assert distinct_names(names) == ["Alice 1", f"{bots} 2", "Alice 3", f"{bots} 4", "Bob"]
    assert distinct_names(["Alice", "Bob"]) == ["Alice", "Bob"]
    numbered = distinct_names(names)
    assert distinct_names(numbered) == numbered  # stored names stay as they are
