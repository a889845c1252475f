"""``/roll``, its re-roll button, privat/geheim and saved rolls through the real bot and the
fake Discord, in German and English. Dice are made predictable by giving the cog a fixed
``Rng`` and comparing with the engine's own result for the same ``Rng``."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bot.i18n import t
from bot.limits import MAX_SAVED_ROLLS
from bot.narration.dice import roll_image
from bot.sandbox.fake_discord import FakeDiscord, stable_user_id
from bot.store.base import CampaignRecord
from engines.core import BadInput, Rng
from engines.dice.notation import roll_notation
from tests.harness import (
    assert_components_valid,
    assert_ephemeral,
    assert_png_attachment,
    assert_public,
    button_labels,
    custom_id_rows,
    running_bot,
)

GM, ALICE, BOB = "gm", "alice", "bob"
SEED = 7
LONG = "2W6+3 Angriff auf den großen grünen Oger, der am Eingang der alten Mine wartet und knurrt"


def fix_dice(bot: Any, seed: int = SEED) -> None:
    bot.get_cog("Dice").new_rng = lambda: Rng(seed)


async def start_campaign(fake: FakeDiscord, bot: Any, *co_gms: str) -> CampaignRecord:
    fake.user(GM)
    campaign = await bot.store.create_campaign(
        guild_id=fake.guild.id,
        channel_id=fake.channel().id,
        name="Die Mine",
        gm_id=stable_user_id(GM),
        settings={},
    )
    if co_gms:
        ids = [stable_user_id(name) for name in co_gms]
        campaign = await bot.store.update_campaign(campaign.id, co_gm_ids=ids)
    return campaign


def engine_error(text: str, lang: str) -> str:
    try:
        roll_notation(text, Rng(1))
    except BadInput as error:
        return t(error.key, lang, **error.params)
    raise AssertionError(f"{text!r} rolled without an error")


# ---- /roll ---------------------------------------------------------------------------------


async def test_roll_german_shows_breakdown_and_reroll_button(fake: FakeDiscord, bot: Any) -> None:
    fix_dice(bot)
    expected, _ = roll_notation("4W6kh3+2 Angriff", Rng(SEED))
    message = await (await fake.slash("roll", {"ausdruck": "4W6kh3+2 Angriff"})).message()
    assert_public(message)
    assert message.content == "\n".join(
        [
            "🎲 **Alice** würfelt `4W6kh3+2 Angriff`",
            expected.breakdown,
            f"**Ergebnis: {expected.total}**",
        ]
    )
    assert "~~" in expected.breakdown  # the dropped die is shown struck through
    assert custom_id_rows(message) == [["roll:again:o:4W6kh3+2 Angriff"]]
    assert button_labels(message) == ["Nochmal würfeln"]
    assert_components_valid(message)
    assert not message.attachments


async def test_roll_english(fake: FakeDiscord, bot: Any) -> None:
    fix_dice(bot)
    expected, _ = roll_notation("3d6+2", Rng(SEED))
    message = await (await fake.slash("roll", {"ausdruck": "3d6+2"}, locale="en")).message()
    assert message.content.splitlines() == [
        "🎲 **Alice** rolls `3d6+2`",
        expected.breakdown,
        f"**Result: {expected.total}**",
    ]
    assert button_labels(message) == ["Roll again"]


async def test_a_target_roll_says_success_or_failure_with_the_total(
    fake: FakeDiscord, bot: Any
) -> None:
    for seed, locale in [(1, "de"), (2, "de"), (3, "en-US"), (4, "en-US")]:
        fix_dice(bot, seed)
        expected, _ = roll_notation("1W20+5>=15 Schloss knacken", Rng(seed))
        options = {"ausdruck": "1W20+5>=15 Schloss knacken"}
        message = await (await fake.slash("roll", options, locale=locale)).message()
        lines = message.content.splitlines()
        lang = "de" if locale == "de" else "en"
        key = "roll.roll.target_met" if expected.target_met else "roll.roll.target_missed"
        assert lines[1] == expected.breakdown
        margin = expected.total - 15
        signed = f"+{margin}" if margin >= 0 else f"−{-margin}"
        assert lines[2] == t(key, lang, total=expected.total, rule=">= 15", margin=signed)
        assert str(expected.total) in lines[2] and expected.total > 1
        assert lines[2].endswith(f", {signed})")


async def test_advantage_and_exploding_shorthands_are_shown_as_typed(
    fake: FakeDiscord, bot: Any
) -> None:
    fix_dice(bot)
    message = await (await fake.slash("roll", {"ausdruck": "1W20+3 vorteil"})).message()
    expected, _ = roll_notation("1W20+3 vorteil", Rng(SEED))
    assert message.content.splitlines()[:2] == [
        "🎲 **Alice** würfelt `1W20+3 vorteil`",
        expected.breakdown,
    ]
    assert "2W20kh1" in expected.breakdown
    assert custom_id_rows(message) == [["roll:again:o:1W20+3 vorteil"]]
    again = await (await fake.click(message, 1)).message()
    assert again.content.startswith("🎲 **Alice** würfelt `1W20+3 vorteil`")
    bang = await (await fake.slash("roll", {"ausdruck": "3d6!"}, locale="en-US")).message()
    assert bang.content.startswith("🎲 **Alice** rolls `3d6!`")
    refused = await (await fake.slash("roll", {"ausdruck": "2W6 vorteil"})).callback()
    assert_ephemeral(refused)
    assert refused.content == engine_error("2W6 vorteil", "de")


async def test_success_counting_shows_successes_and_a_dice_image(
    fake: FakeDiscord, bot: Any
) -> None:
    fix_dice(bot)
    expected, _ = roll_notation("8W6>=5", Rng(SEED))
    message = await (await fake.slash("roll", {"ausdruck": "8W6>=5"})).message()
    lines = message.content.splitlines()
    assert lines[1] == expected.breakdown
    count = expected.successes
    word = t("roll.count.success" if count == 1 else "roll.count.successes", "de", count=count)
    assert lines[2] == f"**{word}** (Würfel >= 5)"
    assert "Ergebnis" not in message.content
    image = assert_png_attachment(message, "wuerfel.png")
    assert image.width > 100


async def test_a_repeated_roll_shows_every_set_and_one_image_row_each(
    fake: FakeDiscord, bot: Any
) -> None:
    for typed, locale, word in [("6#4d6kh3", "en", "Results"), ("6x4W6kh3", "de", "Ergebnisse")]:
        fix_dice(bot, 3)
        expected, _ = roll_notation(typed, Rng(3))
        message = await (await fake.slash("roll", {"ausdruck": typed}, locale=locale)).message()
        lines = message.content.splitlines()
        assert lines[1:7] == expected.breakdown.splitlines()
        totals = ", ".join(str(one.total) for one in expected.sets)
        assert lines[7].startswith(f"**{word}: {totals}**")
        assert lines[7].endswith(f" {expected.total})")
        assert custom_id_rows(message) == [[f"roll:again:o:{typed}"]]
        image = roll_image(expected)
        assert image is not None and [row.label for row in image.rows][:2] == [
            f"#1 · {expected.sets[0].groups[0].notation} · Σ {expected.sets[0].total}",
            f"#2 · {expected.sets[1].groups[0].notation} · Σ {expected.sets[1].total}",
        ]
        assert_png_attachment(message, "wuerfel.png")
    refused = await (await fake.slash("roll", {"ausdruck": "6#1000d6"})).callback()
    assert_ephemeral(refused)
    assert refused.content == engine_error("6#1000d6", "de")
    too_often = await (await fake.slash("roll", {"ausdruck": "50x1d6"}, locale="en")).callback()
    assert too_often.content == engine_error("50x1d6", "en")
    assert "20" in too_often.content


async def test_versus_says_hit_or_miss_with_the_margin(fake: FakeDiscord, bot: Any) -> None:
    seen = set()
    for seed, locale in [(1, "de"), (2, "en"), (3, "de"), (4, "en"), (5, "de"), (6, "en")]:
        fix_dice(bot, seed)
        typed = "1W20+5 vs 15 Angriff auf den Ork"
        expected, _ = roll_notation(typed, Rng(seed))
        message = await (await fake.slash("roll", {"ausdruck": typed}, locale=locale)).message()
        lines = message.content.splitlines()
        lang = "de" if locale == "de" else "en"
        key = "roll.roll.hit" if expected.target_met else "roll.roll.miss"
        margin = expected.total - 15
        signed = f"+{margin}" if margin >= 0 else f"−{-margin}"
        assert lines[1] == expected.breakdown
        assert lines[2] == t(key, lang, total=expected.total, target="15", margin=signed)
        seen.add((lang, lines[2].split(":")[0]))
    assert {"**Treffer", "**Daneben", "**Hit", "**Miss"} & {word for _, word in seen}
    sets = await (await fake.slash("roll", {"ausdruck": "4#1W20+5 vs 12"})).message()
    expected, _ = roll_notation("4#1W20+5 vs 12", Rng(6))
    hits = sum(1 for one in expected.sets if one.target_met)
    assert sets.content.splitlines()[-1] == f"**{hits} von 4 treffen** (gegen 12)"
    twice = await (await fake.slash("roll", {"ausdruck": "1W20>=5 vs 15"})).callback()
    assert_ephemeral(twice)
    assert twice.content == engine_error("1W20>=5 vs 15", "de")


async def test_dice_maiden_success_and_failure_counts(fake: FakeDiscord, bot: Any) -> None:
    fix_dice(bot, 3)
    expected, _ = roll_notation("12d10 t7 f1", Rng(3))
    assert expected.failures
    message = await (await fake.slash("roll", {"ausdruck": "12d10 t7 f1"}, locale="en")).message()
    lines = message.content.splitlines()
    assert lines[1] == expected.breakdown and "__1__" in lines[1]
    count = t("roll.count.successes", "en", count=expected.total)
    assert lines[2] == (
        f"**{count}** ({expected.successes} dice >= 7, minus {expected.failures} dice <= 1)"
    )
    image = roll_image(expected)
    assert image is not None
    assert [d.failed for d in image.rows[0].dice] == [d.value == 1 for d in image.rows[0].dice]
    assert image.caption == f"✓ {expected.successes} − ✗ {expected.failures} = {expected.total}"
    assert_png_attachment(message, "wuerfel.png")
    refused = await (await fake.slash("roll", {"ausdruck": "2W6+1 t7"})).callback()
    assert_ephemeral(refused)
    assert refused.content == t("dice.count_needs_one_group", "de")


async def test_fudge_dice_are_shown_as_minus_blank_plus(fake: FakeDiscord, bot: Any) -> None:
    fix_dice(bot, 2)
    expected, _ = roll_notation("4dF+1", Rng(2))
    message = await (await fake.slash("roll", {"ausdruck": "4dF+1"})).message()
    lines = message.content.splitlines()
    assert lines[1] == expected.breakdown and lines[1].startswith("4dF (")
    assert set(lines[1][5:12].replace(", ", "")) <= {"−", "0", "+"}
    assert lines[2] == f"**Ergebnis: {expected.total}**"
    fix_dice(bot, 2)
    many = await (await fake.slash("roll", {"ausdruck": "3#4dF"}, locale="en")).message()
    expected, _ = roll_notation("3#4dF", Rng(2))
    image = roll_image(expected)
    assert image is not None and all(d.fudge for row in image.rows for d in row.dice)
    assert_png_attachment(many, "wuerfel.png")
    refused = await (await fake.slash("roll", {"ausdruck": "4dFkh2"}, locale="en")).callback()
    assert refused.content == t("dice.fudge_operations", "en", operation="kh2")


async def test_a_thousand_big_dice_are_a_readable_summary(fake: FakeDiscord, bot: Any) -> None:
    fix_dice(bot)
    message = await (await fake.slash("roll", {"ausdruck": "1000d1000"})).message()
    image = assert_png_attachment(message, "wuerfel.png")
    assert image.width <= 800 and image.height <= 400  # was a 6,832 px wide strip
    expected, _ = roll_notation("1000d1000", Rng(SEED))
    shown = roll_image(expected)
    assert shown is not None and shown.summarized
    assert f"**Ergebnis: {expected.total}**" in message.content


async def test_a_saved_target_roll_takes_a_modifier_before_its_comparison(
    fake: FakeDiscord, bot: Any
) -> None:
    await (
        await fake.slash("würfel speichern", {"name": "angriff", "ausdruck": "1W20+5 vs 15"})
    ).callback()
    fix_dice(bot)
    expected, _ = roll_notation("(1W20+5) +2 vs 15 angriff", Rng(SEED))
    message = await (await fake.slash("roll", {"ausdruck": "angriff +2"})).message()
    lines = message.content.splitlines()
    assert lines[0] == "🎲 **Alice** würfelt `(1W20+5) +2 vs 15 angriff`"
    assert expected.total == expected.groups[0].subtotal + 7
    key = "roll.roll.hit" if expected.target_met else "roll.roll.miss"
    margin = expected.total - 15
    signed = f"+{margin}" if margin >= 0 else f"−{-margin}"
    assert lines[2] == t(key, "de", total=expected.total, target="15", margin=signed)


async def test_reroll_button_rolls_the_same_expression_for_the_clicker(
    fake: FakeDiscord, bot: Any
) -> None:
    first = await (await fake.slash("roll", {"ausdruck": "2W6+1 Fallgrube"})).message()
    click = await fake.click(first, "roll:again:o:2W6+1 Fallgrube", user=BOB, locale="en")
    reply = await click.callback()
    assert reply.type == 4  # a new message; the first roll stays as it was
    assert_public(reply)
    again = await click.message()
    assert again.id != first.id
    assert again.content.startswith("🎲 **Bob** rolls `2W6+1 Fallgrube`")
    assert custom_id_rows(again) == [["roll:again:o:2W6+1 Fallgrube"]]


async def test_reroll_works_after_the_bot_restarts(fake: FakeDiscord, settings: Any) -> None:
    async with running_bot(fake, settings):
        await fake.wait_for_sync()
        first = await (await fake.slash("roll", {"ausdruck": "1W20+4"})).message()
    async with running_bot(fake, settings):
        click = await fake.click(first, 1)
        again = await click.message()
    assert again.content.startswith("🎲 **Alice** würfelt `1W20+4`")


async def test_long_expression_is_read_back_from_the_message(fake: FakeDiscord, bot: Any) -> None:
    first = await (await fake.slash("roll", {"ausdruck": LONG})).message()
    assert custom_id_rows(first) == [["roll:again:o"]]
    again = await (await fake.click(first, "roll:again:o", user=BOB)).message()
    assert again.content.startswith(f"🎲 **Bob** würfelt `{LONG}`")


async def test_private_roll_is_ephemeral_and_so_is_its_reroll(fake: FakeDiscord, bot: Any) -> None:
    ex = await fake.slash("roll", {"ausdruck": "1W6", "privat": True})
    reply = await ex.callback()
    assert_ephemeral(reply)
    assert reply.flags == 64
    assert reply.content.startswith("🎲 **Alice** würfelt `1W6`")
    message = await ex.message()
    assert custom_id_rows(message) == [["roll:again:p:1W6"]]
    again = await (await fake.click(message, 1)).callback()
    assert_ephemeral(again)


# ---- geheim --------------------------------------------------------------------------------


async def test_secret_without_campaign_is_refused(fake: FakeDiscord, bot: Any) -> None:
    for lang in ("de", "en"):
        ex = await fake.slash("roll", {"ausdruck": "1W20", "geheim": True}, locale=lang)
        replies = await ex.settle()
        assert len(replies) == 1
        assert_ephemeral(replies[0])
        assert replies[0].content == t("roll.secret.no_campaign", lang)


async def test_secret_roll_goes_to_roller_and_gm_channel_sees_only_a_notice(
    fake: FakeDiscord, bot: Any
) -> None:
    await start_campaign(fake, bot)
    await bot.store.set_pref(stable_user_id(GM), "language", "en")
    fix_dice(bot)
    expected, _ = roll_notation("1W20+5", Rng(SEED))
    ex = await fake.slash("roll", {"ausdruck": "1W20+5", "geheim": True})
    own = await ex.callback()
    assert_ephemeral(own)
    assert expected.breakdown in own.content
    assert custom_id_rows(own.components) == [["roll:again:s:1W20+5"]]
    notice = await ex.followup(0)
    assert_public(notice)
    assert notice.content == "🔒 **Alice** hat geheim für die Spielleitung gewürfelt."
    assert expected.breakdown not in notice.content and "`" not in notice.content
    dm = await fake.wait_for_message(channel=fake.dm_channel(GM))
    assert dm.content.startswith("🔒 Secret roll by **Alice**")
    assert expected.breakdown in dm.content
    assert f"**Result: {expected.total}**" in dm.content  # the GM reads it in English
    public = [m for m in fake.channel_messages() if not m.ephemeral]
    assert all(expected.breakdown not in m.content for m in public)


async def test_secret_roll_by_the_gm_goes_to_the_co_gm_only(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake, bot, "cogm")
    ex = await fake.slash("roll", {"ausdruck": "2W6", "geheim": True}, user=GM)
    await ex.followup(0)
    await fake.wait_for_message(channel=fake.dm_channel("cogm"))
    assert fake.dm_messages(GM) == []


# ---- errors --------------------------------------------------------------------------------


async def test_errors_are_ephemeral_and_friendly_in_both_languages(
    fake: FakeDiscord, bot: Any
) -> None:
    bad = ["3W6+", "1001W6", "x" * 250, "1W6/0"]
    for lang in ("de", "en"):
        for text in bad:
            ex = await fake.slash("roll", {"ausdruck": text}, locale=lang)
            replies = await ex.settle()
            assert len(replies) == 1, replies
            assert_ephemeral(replies[0])
            assert replies[0].content == engine_error(text, lang)
            assert "Traceback" not in replies[0].content
    assert fake.channel_messages() == [m for m in fake.channel_messages() if m.ephemeral]


async def test_unknown_text_is_no_comment_but_a_friendly_syntax_error(
    fake: FakeDiscord, bot: Any
) -> None:
    for lang in ("de", "en"):
        for text in ("3X6", "2W6Angriff", "4W6 kh3"):
            reply = await (await fake.slash("roll", {"ausdruck": text}, locale=lang)).callback()
            assert_ephemeral(reply)
            assert reply.content == engine_error(text, lang)
    reply = await (await fake.slash("roll", {"ausdruck": "3X6"})).callback()
    assert reply.content == (
        "Das verstehe ich nicht: an Stelle 2 steht „X6“. Würfel schreibt man mit W oder d "
        "(`3W6`); ein Kommentar kommt mit einem Leerzeichen hinter den Wurf und beginnt mit "
        "einem Wort. Beispiele: `3W6+2`, `4W6kh3`, `8W6>=5`, `2W6+3 Angriff auf den Ork`."
    )
    saved = await (
        await fake.slash("würfel speichern", {"name": "wurf", "ausdruck": "3X6"})
    ).callback()
    assert_ephemeral(saved)
    assert saved.content == engine_error("3X6", "de")
    assert await bot.store.saved_rolls([f"user:{stable_user_id(ALICE)}"]) == {}
    labelled = await (await fake.slash("roll", {"ausdruck": "2W6+3 Angriff auf den Ork"})).message()
    assert_public(labelled)
    assert labelled.content.startswith("🎲 **Alice** würfelt `2W6+3 Angriff auf den Ork`")
    assert [m for m in fake.channel_messages() if not m.ephemeral] == [labelled]


async def test_zero_dice_are_refused(fake: FakeDiscord, bot: Any) -> None:
    for lang in ("de", "en"):
        reply = await (await fake.slash("roll", {"ausdruck": "0W6"}, locale=lang)).callback()
        assert_ephemeral(reply)
        assert reply.content == t("dice.zero_dice", lang)
    assert fake.channel_messages() == [m for m in fake.channel_messages() if m.ephemeral]


async def test_the_users_w_is_shown_in_the_breakdown_and_the_image(
    fake: FakeDiscord, bot: Any
) -> None:
    fix_dice(bot)
    expected, _ = roll_notation("8W6>=5", Rng(SEED))
    message = await (await fake.slash("roll", {"ausdruck": "8W6>=5"})).message()
    breakdown = message.content.splitlines()[1]
    assert breakdown == expected.breakdown
    assert breakdown.startswith("8W6 (") and "8d6" not in message.content
    image = roll_image(expected)
    assert image is not None and [row.label for row in image.rows] == ["8W6"]
    english, _ = roll_notation("8d6>=5", Rng(SEED))
    image = roll_image(english)
    assert image is not None and [row.label for row in image.rows] == ["8d6"]


async def test_plus_n_after_a_saved_success_roll_adds_dice(fake: FakeDiscord, bot: Any) -> None:
    await (
        await fake.slash("würfel speichern", {"name": "feuerball", "ausdruck": "8W6>=5"})
    ).callback()
    fix_dice(bot)
    expected, _ = roll_notation("10W6>=5 feuerball+2 auf den Ork", Rng(SEED))
    plus = await (await fake.slash("roll", {"ausdruck": "feuerball+2 auf den Ork"})).message()
    lines = plus.content.splitlines()
    assert lines[0] == "🎲 **Alice** würfelt `10W6>=5 feuerball+2 auf den Ork`"
    assert lines[1] == expected.breakdown and lines[1].startswith("10W6 (")
    assert custom_id_rows(plus) == [["roll:again:o:10W6>=5 feuerball+2 auf den Ork"]]
    comment = await (await fake.slash("roll", {"ausdruck": "feuerball auf den Ork"})).message()
    assert comment.content.startswith("🎲 **Alice** würfelt `8W6>=5 feuerball auf den Ork`")
    fewer = await (await fake.slash("roll", {"ausdruck": "feuerball-2"})).message()
    assert fewer.content.startswith("🎲 **Alice** würfelt `6W6>=5 feuerball-2`")
    for lang in ("de", "en"):
        times = await (
            await fake.slash("roll", {"ausdruck": "feuerball*2"}, locale=lang)
        ).callback()
        assert_ephemeral(times)
        assert times.content == t(
            "dice.saved_success_modifier", lang, name="feuerball", expression="8W6>=5"
        )
    gone = await (await fake.slash("roll", {"ausdruck": "feuerball-8"})).callback()
    assert gone.content == t("dice.zero_dice", "de")


async def test_unknown_reroll_button_is_answered_kindly(fake: FakeDiscord, bot: Any) -> None:
    message = await (await fake.slash("roll", {"ausdruck": "1W6"})).message()
    message.components[0]["components"][0]["custom_id"] = "roll:again:x"
    reply = await (await fake.click(message, 1)).callback()
    assert_ephemeral(reply)
    assert reply.content == t("roll.again.lost", "de")


# ---- saved rolls ---------------------------------------------------------------------------


async def test_saved_roll_create_use_autocomplete_list_delete(fake: FakeDiscord, bot: Any) -> None:
    saved = await (
        await fake.slash("würfel speichern", {"name": "Feuerball", "ausdruck": "8W6"})
    ).callback()
    assert_ephemeral(saved)
    assert saved.content.startswith("Gespeichert: **feuerball** = `8W6`")

    used = await (await fake.slash("roll", {"ausdruck": "feuerball"})).message()
    assert used.content.startswith("🎲 **Alice** würfelt `8W6 feuerball`")
    plus = await (await fake.slash("roll", {"ausdruck": "feuerball+2"})).message()
    assert plus.content.startswith("🎲 **Alice** würfelt `(8W6)+2 feuerball`")
    assert custom_id_rows(plus) == [["roll:again:o:(8W6)+2 feuerball"]]
    comment = await (await fake.slash("roll", {"ausdruck": "feuerball auf den Ork"})).message()
    assert comment.content.startswith("🎲 **Alice** würfelt `8W6 feuerball auf den Ork`")

    choices = await fake.autocomplete("roll", {"ausdruck": "feu"})
    assert {"name": "feu", "value": "feu"} in choices
    assert {"name": "feuerball — 8W6", "value": "feuerball"} in choices
    choices = await fake.autocomplete("roll", {"ausdruck": "feuerball+2"})
    assert {"name": "feuerball — 8W6", "value": "feuerball+2"} in choices
    assert await fake.autocomplete("roll", {"ausdruck": "feu"}, user=BOB) == [
        {"name": "feu", "value": "feu"}
    ]

    listing = await (await fake.slash("würfel liste", locale="en")).callback()
    assert_ephemeral(listing)
    assert "• **feuerball** — `8W6`" in listing.content

    assert await fake.autocomplete("würfel löschen", {"name": "f"}) == [
        {"name": "feuerball — 8W6", "value": "feuerball"}
    ]
    deleted = await (await fake.slash("würfel löschen", {"name": "feuerball"})).callback()
    assert_ephemeral(deleted)
    assert deleted.content == "Gelöscht: **feuerball**."
    gone = await (await fake.slash("roll", {"ausdruck": "feuerball"})).callback()
    assert_ephemeral(gone)
    assert gone.content == t("roll.saved.unknown_none", "de", name="feuerball")
    again = await (await fake.slash("würfel löschen", {"name": "feuerball"})).callback()
    assert again.content == t("roll.saved.not_found", "de", name="feuerball")


async def test_saving_over_a_name_says_what_it_replaced(fake: FakeDiscord, bot: Any) -> None:
    await (await fake.slash("würfel speichern", {"name": "blitz", "ausdruck": "6W6>=5"})).callback()
    replaced = await (
        await fake.slash("würfel speichern", {"name": "Blitz", "ausdruck": "8W6>=5"}, locale="en")
    ).callback()
    assert_ephemeral(replaced)
    assert replaced.content == t(
        "roll.saved.replaced", "en", name="blitz", old="`6W6>=5`", expression="`8W6>=5`"
    )
    same = await (
        await fake.slash("würfel speichern", {"name": "blitz", "ausdruck": "8W6>=5"})
    ).callback()
    assert same.content.startswith("Gespeichert: **blitz**")


async def test_a_mistyped_or_deleted_saved_name_names_the_nearest_ones(
    fake: FakeDiscord, bot: Any
) -> None:
    for name, expression in [("feuerball", "8W6"), ("feuerwand", "4W6"), ("heilung", "2W6")]:
        await (
            await fake.slash("würfel speichern", {"name": name, "ausdruck": expression})
        ).callback()
    typo = await (await fake.slash("roll", {"ausdruck": "feuerbal+2"})).callback()
    assert_ephemeral(typo)
    assert typo.content == t(
        "roll.saved.unknown", "de", name="feuerbal", nearest="`feuerball`, `feuerwand`"
    )
    english = await (await fake.slash("roll", {"ausdruck": "heilen"}, locale="en")).callback()
    assert english.content == t("roll.saved.unknown", "en", name="heilen", nearest="`heilung`")
    delete = await (await fake.slash("würfel löschen", {"name": "heilen"})).callback()
    assert delete.content == t(
        "roll.saved.not_found_near", "de", name="heilen", nearest="`heilung`"
    )
    still = await (await fake.slash("roll", {"ausdruck": "3X6"})).callback()
    assert still.content == engine_error("3X6", "de")  # notation-like text: the syntax help


async def test_saved_roll_names_that_cannot_be_names(fake: FakeDiscord, bot: Any) -> None:
    dice = await (
        await fake.slash("würfel speichern", {"name": "W20", "ausdruck": "1W20"})
    ).callback()
    assert_ephemeral(dice)
    assert dice.content == t("roll.saved.name_is_dice", "de", name="w20")
    for looks_like_dice in ("kh3", "X2"):  # would lead the comment of its expansion
        refused = await (
            await fake.slash("würfel speichern", {"name": looks_like_dice, "ausdruck": "1W6"})
        ).callback()
        assert refused.content == t("roll.saved.name_is_dice", "de", name=looks_like_dice.lower())
    spaced = await (
        await fake.slash("würfel speichern", {"name": "zwei worte", "ausdruck": "1W6"}, locale="en")
    ).callback()
    assert spaced.content == t("roll.saved.bad_name", "en", name="zwei worte")
    bad = await (
        await fake.slash("würfel speichern", {"name": "ok", "ausdruck": "1W6+"})
    ).callback()
    assert_ephemeral(bad)
    assert bad.content == engine_error("1W6+", "de")
    assert await bot.store.saved_rolls([f"user:{stable_user_id(ALICE)}"]) == {}


async def test_campaign_rolls_only_the_gm_saves_everyone_uses(fake: FakeDiscord, bot: Any) -> None:
    options = {"name": "falle", "ausdruck": "2W6+2", "kampagne": True}
    no_campaign = await (await fake.slash("würfel speichern", options, user=GM)).callback()
    assert no_campaign.content == t("roll.saved.no_campaign", "de")
    campaign = await start_campaign(fake, bot)
    refused = await (await fake.slash("würfel speichern", options, user=ALICE)).callback()
    assert_ephemeral(refused)
    assert refused.content == t("roll.saved.gm_only", "de")
    assert await bot.store.saved_rolls([f"campaign:{campaign.id}"]) == {}

    ok = await (await fake.slash("würfel speichern", options, user=GM)).callback()
    assert ok.content.startswith("Für die Kampagne gespeichert: **falle**")
    choices = await fake.autocomplete("roll", {"ausdruck": "fa"}, user=BOB, locale="en")
    assert {"name": "falle — 2W6+2 (campaign)", "value": "falle"} in choices
    used = await (await fake.slash("roll", {"ausdruck": "falle"}, user=BOB)).message()
    assert used.content.startswith("🎲 **Bob** würfelt `2W6+2 falle`")
    listing = await (await fake.slash("würfel liste", user=BOB)).callback()
    assert "Würfe der Kampagne „Die Mine“" in listing.content
    assert "• **falle** — `2W6+2`" in listing.content

    not_gm = await (
        await fake.slash("würfel löschen", {"name": "falle", "kampagne": True}, user=BOB)
    ).callback()
    assert not_gm.content == t("roll.saved.gm_only", "de")
    assert await bot.store.saved_rolls([f"campaign:{campaign.id}"]) == {"falle": "2W6+2"}


async def test_roll_commands_are_translated(fake: FakeDiscord, bot: Any) -> None:
    roll = fake.command("roll")
    names = {o["name"]: o["name_localizations"]["en-US"] for o in roll["options"]}
    assert names == {"ausdruck": "expression", "privat": "private", "geheim": "secret"}
    assert roll["options"][0]["autocomplete"] is True
    dice = fake.command("würfel")
    assert dice["name_localizations"]["en-US"] == "dice"
    subs = {o["name"]: o["name_localizations"]["en-US"] for o in dice["options"]}
    assert subs == {"speichern": "save", "löschen": "delete", "liste": "list"}
    english = await (
        await fake.slash("dice save", {"name": "axe", "expression": "1d8+2"})
    ).callback()
    assert_ephemeral(english)
    assert english.content.startswith("Gespeichert: **axe**")  # an option name, not a language


async def test_campaign_log_gets_rolls(fake: FakeDiscord, bot: Any, tmp_path: Path) -> None:
    campaign = await start_campaign(fake, bot)
    await (await fake.slash("roll", {"ausdruck": "1W6", "privat": True})).callback()
    entries = await bot.store.campaign_log(campaign.id)
    rolls = [e for e in entries if e.get("kind") == "roll"]
    assert len(rolls) == 1, entries


async def test_saved_roll_limit_holds_when_saves_arrive_together(
    fake: FakeDiscord, bot: Any
) -> None:
    scope = f"user:{stable_user_id(ALICE)}"
    for i in range(MAX_SAVED_ROLLS - 1):
        await bot.store.save_roll(scope, f"wurf{i}", "1W6", stable_user_id(ALICE))
    exchanges = await asyncio.gather(
        *(fake.slash("würfel speichern", {"name": f"neu{i}", "ausdruck": "2W6"}) for i in range(4))
    )
    replies = await asyncio.gather(*(exchange.callback() for exchange in exchanges))
    refused = t("roll.saved.too_many", "de", limit=MAX_SAVED_ROLLS)
    assert sorted(reply.content == refused for reply in replies) == [False, True, True, True]
    assert len(await bot.store.saved_rolls([scope])) == MAX_SAVED_ROLLS
