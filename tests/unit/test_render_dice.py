"""Dice images: every die size in its own shape, the result on top, exploded dice starred, and a
compact summary of bars per face for very large pools."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.narration.dice import roll_image
from bot.render.dice import SUMMARY_FROM, DiceImage, DiceRow, DieView, _face_counts, render_dice
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
    picture = png(image)
    assert picture.width < 400 and picture.height < 400  # was a 602×5846 strip


def test_percentile_pools_are_summarised_in_bands_of_ten() -> None:
    dice = tuple(DieView(v, sides=100) for v in range(1, 101))
    faces = _face_counts(dice)
    assert [f.label for f in faces][:2] == ["1–10", "11–20"]
    assert [f.count for f in faces] == [10] * 10
    assert len(dice) > SUMMARY_FROM
