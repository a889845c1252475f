"""Counts in messages: a key's singular variant ``<key>.one`` writes the count out, and the
translator picks it exactly when that count is 1, in German and English."""

from __future__ import annotations

from bot.i18n import catalog, t


def test_one_square_is_singular_and_more_are_plural() -> None:
    assert t("essence.error.too_far", "de", square="d5", strength=1).endswith("höchstens 1 Feld.")
    assert t("essence.error.too_far", "en", square="d5", strength=1).endswith("at most 1 square.")
    assert t("essence.error.too_far", "de", square="d5", strength=3).endswith("höchstens 3 Felder.")
    assert t("essence.error.too_far", "en", square="d5", strength=2).endswith("at most 2 squares.")


def test_steps_and_hours_by_count() -> None:
    assert "mit 1 Schritt " in t("essenzcog.export.done", "de", id=4, count=1)
    assert "mit 2 Schritten " in t("essenzcog.export.done", "de", id=4, count=2)
    assert "in about 1 hour " in t("essenzcog.reminder", "en", mention="@a", id=4, hours=1)
    assert "in etwa 5 Stunden " in t("essenzcog.reminder", "de", mention="@a", id=4, hours=5)


def test_a_singular_variant_that_keeps_its_count_is_left_to_its_caller() -> None:
    """W6's ``.one`` variants keep the placeholder (chosen by ``bot.narration.w6``): the
    translator alone never switches them."""
    assert "w6cog.ev.attack_roll.one" in catalog()
    params = {"fighter": "A", "dice": "1", "successes": 1, "ok": "4+"}
    plain = catalog()["w6cog.ev.attack_roll"]["de"].format(**params)
    assert t("w6cog.ev.attack_roll", "de", **params) == plain
