"""Dice images: every die size in its own shape, the result on top, exploded dice starred, and a
compact summary of bars per face for very large pools."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.narration.dice import roll_image
from bot.render.dice import (
    SUMMARY_FROM,
    DiceImage,
    DiceRow,
    DieView,
    _face_counts,
    _stats,
    render_dice,
)
from engines.core import Rng
from engines.dice.notation import roll_notation

SIZES = (4, 6, 8, 10, 12, 20, 100)


def png(image: DiceImage) -> Image.Image:
    return Image.open(io.BytesIO(render_dice(image))).convert("RGB")


def one_die(sides: int, **flags: bool) -> Image.Image:
    return png(DiceImage((DiceRow("", (DieView(3, sides=sides, **flags),)),)))


def test_every_die_size_has_its_own_shape() -> None:
    images = {sides: one_die(sides).tobytes() for sides in SIZES}
    assert len(set(images.values())) == len(SIZES)


def test_exploded_crit_and_fumble_dice_are_drawn_differently() -> None:
    plain = one_die(20).tobytes()
    for flag in ("exploded", "crit", "fumble", "marked", "dropped"):
        assert one_die(20, **{flag: True}).tobytes() != plain, flag


@pytest.mark.parametrize(
    ("text", "caption"),
    [("8W6+4", "Σ "), ("10W6>=5", "✓ "), ("4W20+4W6+2>=40", " ≥ 40 ")],
)
def test_the_result_is_written_on_the_image(text: str, caption: str) -> None:
    result, _ = roll_notation(text, Rng(4))
    image = roll_image(result)
    assert image is not None and caption in image.caption
    assert str(result.total) in image.caption
    with_caption = png(image)
    without = png(DiceImage(image.rows))
    assert with_caption.height > without.height


def test_roll_views_keep_size_explosions_and_count_crits_only_for_sums() -> None:
    result, _ = roll_notation("12d8!+2d20", Rng(9))
    image = roll_image(result)
    assert image is not None
    eights, twenties = image.rows
    assert {d.sides for d in eights.dice} == {8} and {d.sides for d in twenties.dice} == {20}
    assert [d.exploded for d in eights.dice] == [d.value == 8 for d in eights.dice]
    assert any(d.crit or d.fumble for row in image.rows for d in row.dice)
    successes, _ = roll_notation("20d6>=5", Rng(9))
    counted = roll_image(successes)
    assert counted is not None
    assert not any(d.crit or d.fumble for d in counted.rows[0].dice)


def test_a_huge_pool_is_a_compact_summary_of_every_die() -> None:
    result, _ = roll_notation("1000d6>=5", Rng(2))
    image = roll_image(result)
    assert image is not None and image.summarized
    faces = _face_counts(image.rows[0].dice)
    assert [f.label for f in faces] == ["1", "2", "3", "4", "5", "6"]
    assert sum(f.count for f in faces) == 1000
    assert sum(f.marked for f in faces) == result.successes
    values = [d.value for d in image.rows[0].dice]
    assert _stats(image.rows[0].dice) == f"n = 1000 · min {min(values)} · max {max(values)}"
    picture = png(image)
    assert picture.width < 400 and picture.height < 400  # was a 602×5846 strip


def test_percentile_pools_are_summarised_in_bands_of_ten() -> None:
    dice = tuple(DieView(v, sides=100) for v in range(1, 101))
    faces = _face_counts(dice)
    assert [f.label for f in faces][:2] == ["1–10", "11–20"]
    assert [f.count for f in faces] == [10] * 10
    assert len(dice) > SUMMARY_FROM


def test_a_thousand_d1000_are_ten_bands_with_count_sum_lowest_and_highest() -> None:
    result, _ = roll_notation("1000d1000", Rng(3))
    image = roll_image(result)
    assert image is not None and image.summarized
    row = image.rows[0]
    faces = _face_counts(row.dice)
    assert [f.label for f in faces][:2] == ["1–100", "101–200"] and len(faces) == 10
    assert faces[-1].label == "901–1000" and sum(f.count for f in faces) == 1000
    values = [d.value for d in row.dice]
    assert _stats(row.dice) == (
        f"n = 1000 · Σ {result.total} · min {min(values)} · max {max(values)}"
    )
    picture = png(image)
    assert picture.width <= 800 and picture.height <= 400  # was 6832×244


def test_percentile_and_fudge_summaries_have_a_bar_per_face() -> None:
    result, _ = roll_notation("200d%", Rng(3))
    image = roll_image(result)
    assert image is not None
    faces = _face_counts(image.rows[0].dice)
    assert [f.label for f in faces] == [str(n) for n in range(0, 100, 10)]
    assert sum(f.count for f in faces) == 200
    fudge, _ = roll_notation("100dF", Rng(3))
    image = roll_image(fudge)
    assert image is not None
    faces = _face_counts(image.rows[0].dice)
    assert [f.label for f in faces] == ["−", "0", "+"] and sum(f.count for f in faces) == 100
    assert faces[2].count - faces[0].count == fudge.total


def test_fudge_faces_and_failures_are_drawn_as_such() -> None:
    def fudge(value: int) -> bytes:
        return png(DiceImage((DiceRow("", (DieView(value, sides=3, fudge=True),)),))).tobytes()

    assert len({fudge(-1), fudge(0), fudge(1)}) == 3
    assert one_die(10, failed=True).tobytes() != one_die(10).tobytes()
    assert one_die(10, failed=True).tobytes() != one_die(10, marked=True).tobytes()


def test_a_huge_repeated_roll_is_one_summary_not_a_row_of_bars_per_set() -> None:
    result, _ = roll_notation("20#4d6kh3", Rng(3))
    image = roll_image(result)
    assert image is not None and image.summarized
    (row,) = image.rows
    assert row.label == "20 × 4d6kh3" and len(row.dice) == 80
    assert png(image).height < 400


def test_each_set_of_a_repeated_roll_shows_its_result_on_the_image() -> None:
    """6#4d6kh3 rolls six ability scores: the image names each set's result beside its dice
    (it showed only the sum of all six, 'Σ 75')."""
    result, _ = roll_notation("6#4d6kh3", Rng(7))
    image = roll_image(result)
    assert image is not None and len(image.rows) == 6
    for index, (row, one) in enumerate(zip(image.rows, result.sets, strict=True), start=1):
        assert row.label == f"#{index} · 4d6kh3 · Σ {one.total}"


def test_a_row_label_wider_than_its_dice_is_not_cut_off() -> None:
    """10#1d20+5 vs 15: one d20 per row under '#10 · 1d20 · 13 ≥ 15 ✗ −2' — the picture is
    as wide as its widest label and caption (it was as wide as one die, the label cut)."""
    from bot.render.base import font
    from bot.render.dice import MARGIN

    result, _ = roll_notation("10#1d20+5 vs 15", Rng(7))
    image = roll_image(result)
    assert image is not None
    widest = max(font(16, "bold").getlength(row.label) for row in image.rows)
    assert png(image).width >= 2 * MARGIN + widest
