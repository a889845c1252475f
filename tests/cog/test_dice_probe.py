"""``/probe``, ``/probe-komplex``, ``/probe-konkurrierend`` and ``/telperinquar-wurf`` through
the real bot and the fake Discord: pools from values and from W6 character sheets, every die
shown, pools at 0 or below, the dice image, ties, secrecy, the campaign log."""

from __future__ import annotations

from typing import Any

from bot.i18n import t
from bot.sandbox.fake_discord import FakeDiscord, stable_user_id
from bot.store.base import CampaignRecord
from engines.core import BadInput, Rng
from engines.dice.pool import roll_pool
from engines.dice.telperinquar import attack_roll, erfolgswurf
from engines.dice.w6 import parse_komplex
from engines.w6.sheet_io import sheet_from_json, sheet_to_json
from tests.cog.test_dice import GM, SEED, fix_dice, start_campaign
from tests.harness import assert_ephemeral, assert_png_attachment, assert_public

ALICE, BOB = "alice", "bob"


def sheet(name: str, skills: dict[str, int] | None = None, **eigenschaften: int) -> dict[str, Any]:
    raw = {"schema": "w6.sheet", "version": 1, "name": name, "eigenschaften": eigenschaften}
    if skills:
        raw["fertigkeiten"] = skills
    return sheet_to_json(sheet_from_json(raw))


async def give_character(
    bot: Any, campaign: CampaignRecord, user: str | None, name: str, **values: int
) -> None:
    owner = stable_user_id(user) if user else None
    record = await bot.store.create_character(
        campaign_id=campaign.id, owner_id=owner, name=name, sheet=sheet(name, **values)
    )
    if owner is not None:
        await bot.store.set_active_character(campaign.id, owner, record.id)


def faces(dice: tuple[int, ...] | list[int]) -> str:
    return ", ".join(f"**{d}**" if d >= 5 else str(d) for d in dice)


def successes(count: int, lang: str = "de") -> str:
    return t("roll.count.success" if count == 1 else "roll.count.successes", lang, count=count)


async def test_probe_with_value_bonus_and_difficulty(fake: FakeDiscord, bot: Any) -> None:
    fix_dice(bot)
    pool, _ = roll_pool(8, Rng(SEED))  # 9 + 2 − 3 (Normal)
    ex = await fake.slash("probe", {"wert": 9, "bonus": 2, "erschwernis": "normal"})
    message = await ex.message()
    assert_public(message)
    passed = pool.successes >= 2
    verdict = "✅ **Gelungen**" if passed else "❌ **Misslungen**"
    margin = pool.successes - 2
    assert message.content.splitlines() == [
        "🎲 **Alice** – Probe: Wert **9**",
        "Pool: 9 + 2 − 3 (Normal) = **8 W6** · gefordert: 2",
        f"Wurf: {faces(pool.dice)}",
        f"{verdict} – {successes(pool.successes)} bei 2 gefordert "
        f"({'+' if margin >= 0 else '−'}{abs(margin)})",
    ]
    assert_png_attachment(message, "wuerfel.png")  # 8 dice: more than a glance takes in


async def test_probe_small_pool_has_no_image_and_english(fake: FakeDiscord, bot: Any) -> None:
    fix_dice(bot)
    pool, _ = roll_pool(4, Rng(SEED))
    message = await (
        await fake.slash("probe", {"wert": 5, "erschwernis": "1", "erfolge": 1}, locale="en")
    ).message()
    lines = message.content.splitlines()
    assert lines[:3] == [
        "🎲 **Alice** – Check: value **5**",
        "Pool: 5 − 1 = **4 d6** · required: 1",
        f"Dice: {faces(pool.dice)}",
    ]
    assert not message.attachments


async def test_probe_pool_at_zero_or_below_fails_without_rolling(
    fake: FakeDiscord, bot: Any
) -> None:
    for lang, word in (("de", "Schwer"), ("en", "Hard")):
        message = await (
            await fake.slash("probe", {"wert": 2, "erschwernis": "schwer"}, locale=lang)
        ).message()
        lines = message.content.splitlines()
        assert word in lines[1] and "−7" in lines[1]
        assert lines[2] == t("roll.probe.no_dice", lang, dice="−7")
        assert len(lines) == 3  # no dice line: nothing was rolled
        assert not message.attachments


async def test_fifteen_die_probe_shows_every_die_and_a_png(fake: FakeDiscord, bot: Any) -> None:
    fix_dice(bot, 11)
    pool, _ = roll_pool(15, Rng(11))
    message = await (await fake.slash("probe", {"wert": 12, "bonus": 3, "erfolge": 4})).message()
    dice_line = message.content.splitlines()[2]
    assert dice_line == f"Wurf: {faces(pool.dice)}"
    assert len(dice_line.removeprefix("Wurf: ").split(", ")) == 15
    image = assert_png_attachment(message, "wuerfel.png")
    assert image.height >= 2 * 48  # two lines of dice
    attachment = message.attachments[0]
    assert attachment.description == "W6-Würfel: " + ", ".join(map(str, pool.dice))


async def test_probe_needs_a_pool_and_says_so(fake: FakeDiscord, bot: Any) -> None:
    nothing = await (await fake.slash("probe", {})).callback()
    assert_ephemeral(nothing)
    assert nothing.content == t("roll.probe.no_pool", "de")
    no_campaign = await (
        await fake.slash("probe", {"eigenschaft": "Kraft"}, locale="en")
    ).callback()
    assert_ephemeral(no_campaign)
    assert no_campaign.content == t("roll.probe.no_campaign", "en")
    unknown = await (await fake.slash("probe", {"wert": 3, "erschwernis": "brutal"})).callback()
    assert_ephemeral(unknown)
    assert unknown.content == t("dice.w6.unknown_difficulty", "de", text="brutal")


async def test_probe_from_the_active_character_with_autocomplete(
    fake: FakeDiscord, bot: Any
) -> None:
    campaign = await start_campaign(fake, bot)
    no_character = await (await fake.slash("probe", {"eigenschaft": "Kraft"})).callback()
    assert no_character.content == t("roll.probe.no_character", "de", name="Alice")
    await give_character(bot, campaign, ALICE, "Thoin", Kraft=5, Geschick=3, Intuition=2)
    choices = await fake.autocomplete("probe", {"eigenschaft": "k"})
    assert choices == [{"name": "Kraft (5)", "value": "Kraft"}]
    assert len(await fake.autocomplete("probe", {"eigenschaft": ""})) == 3

    fix_dice(bot)
    pool, _ = roll_pool(7, Rng(SEED))
    message = await (await fake.slash("probe", {"eigenschaft": "kraft", "bonus": 2})).message()
    lines = message.content.splitlines()
    assert lines[0] == "🎲 **Alice** – Probe: **Kraft 5** (Thoin)"
    assert lines[1] == "Pool: 5 + 2 = **7 W6** · gefordert: 2"
    assert lines[2] == f"Wurf: {faces(pool.dice)}"

    wrong = await (await fake.slash("probe", {"eigenschaft": "Magie"})).callback()
    assert_ephemeral(wrong)
    assert wrong.content == t(
        "roll.probe.unknown_attribute", "de", name="Magie", character="Thoin",
        known="Geschick, Intuition, Kraft", skills="–",
    )  # fmt: skip
    log = [e for e in await bot.store.campaign_log(campaign.id) if e["kind"] == "probe"]
    assert len(log) == 1
    assert log[0]["data"]["dice"] == list(pool.dice)
    assert log[0]["data"]["attribute"] == "Kraft"


async def test_secret_probe_goes_to_the_gm(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake, bot)
    ex = await fake.slash("probe", {"wert": 3, "geheim": True})
    own = await ex.callback()
    assert_ephemeral(own)
    assert own.content.startswith("🎲 **Alice** – Probe: Wert **3**")
    notice = await ex.followup(0)
    assert_public(notice)
    assert "Wert" not in notice.content
    dm = await fake.wait_for_message(channel=fake.dm_channel(GM))
    assert "Probe: Wert **3**" in dm.content


async def test_komplexe_probe_splits_the_pool(fake: FakeDiscord, bot: Any) -> None:
    fix_dice(bot)
    first, rng = roll_pool(3, Rng(SEED))
    second, _ = roll_pool(4, rng)
    message = await (
        await fake.slash("probe-komplex", {"wert": 10, "aufteilung": "3/4", "erfolge": "1,2"})
    ).message()
    lines = message.content.splitlines()
    assert lines[0] == "🎲 **Alice** – Komplexe Probe: Wert **10**"
    assert lines[1] == "Pool: **10 W6**, aufgeteilt auf 2 Würfe"
    assert lines[2].startswith(f"**Teil 1** (3 W6, 1 gefordert): {faces(first.dice)} → ")
    assert lines[3].startswith(f"**Teil 2** (4 W6, 2 gefordert): {faces(second.dice)} → ")
    assert lines[4] == "Nicht eingesetzt: 3 W6"
    passed = first.successes >= 1 and second.successes >= 2
    assert lines[5].startswith("✅" if passed else "❌")
    assert_png_attachment(message)  # 7 dice in two rows


async def test_komplexe_probe_errors_and_empty_pool(fake: FakeDiscord, bot: Any) -> None:
    too_many = await (
        await fake.slash("probe-komplex", {"wert": 5, "aufteilung": "3/3"})
    ).callback()
    assert_ephemeral(too_many)
    assert too_many.content == t("dice.w6.komplex_split", "de", used=6, available=5)
    try:
        parse_komplex("4", None)
    except BadInput as error:
        expected = t(error.key, "en", **error.params)
    one = await (
        await fake.slash("probe-komplex", {"wert": 5, "aufteilung": "4"}, locale="en")
    ).callback()
    assert one.content == expected
    empty = await (
        await fake.slash(
            "probe-komplex", {"wert": 5, "aufteilung": "2/2", "erschwernis": "Anspruchsvoll"}
        )
    ).message()
    assert empty.content.splitlines()[-1] == t("roll.komplex.no_dice", "de", dice="−1")


async def test_komplexe_probe_split_by_comma_or_space_and_a_hint_for_nonsense(
    fake: FakeDiscord, bot: Any
) -> None:
    for split, successes in (("2,3", "1 2"), ("2 3", "1/2"), ("2/3", "1,2")):
        message = await (
            await fake.slash(
                "probe-komplex", {"wert": 6, "aufteilung": split, "erfolge": successes}
            )
        ).message()
        lines = message.content.splitlines()
        assert lines[1] == "Pool: **6 W6**, aufgeteilt auf 2 Würfe"
        assert lines[2].startswith("**Teil 1** (2 W6, 1 gefordert):")
        assert lines[3].startswith("**Teil 2** (3 W6, 2 gefordert):")
    for lang in ("de", "en"):
        nonsense = await (
            await fake.slash("probe-komplex", {"wert": 6, "aufteilung": "quatsch"}, locale=lang)
        ).callback()
        assert_ephemeral(nonsense)
        assert nonsense.content == t("dice.w6.komplex_split_syntax", lang, text="quatsch")
        bad_successes = await (
            await fake.slash(
                "probe-komplex",
                {"wert": 6, "aufteilung": "3,3", "erfolge": "zwei"},
                locale=lang,
            )
        ).callback()
        assert_ephemeral(bad_successes)
        assert bad_successes.content == t("dice.w6.komplex_requirements_syntax", lang, text="zwei")
    assert "3,2,2" in t("dice.w6.komplex_split_syntax", "de", text="x")


async def test_konkurrierende_probe_tie_is_a_tie(fake: FakeDiscord, bot: Any) -> None:
    message = await (
        await fake.slash("probe-konkurrierend", {"wert": 0, "gegner_wert": 0})
    ).message()
    assert message.content.splitlines() == [
        "🎲 **Alice** – Konkurrierende Probe: **Alice** (Wert 0) gegen **Gegner** (Wert 0)",
        "**Alice**: 0 W6 – kein Wurf, 0 Erfolge",
        "**Gegner**: 0 W6 – kein Wurf, 0 Erfolge",
        "🤝 **Gleichstand** – 0 zu 0 Erfolgen.",
    ]
    english = await (
        await fake.slash("probe-konkurrierend", {"wert": 0, "gegner_wert": 0}, locale="en")
    ).message()
    assert english.content.splitlines()[-1] == "🤝 **Tie** – 0 to 0 successes."


async def test_konkurrierende_probe_between_two_characters(fake: FakeDiscord, bot: Any) -> None:
    campaign = await start_campaign(fake, bot)
    await give_character(bot, campaign, ALICE, "Thoin", Geschick=6)
    await give_character(bot, campaign, BOB, "Mira", Wahrnehmung=4)
    await give_character(bot, campaign, None, "Wache", Wahrnehmung=3)
    assert await fake.autocomplete(
        "probe-konkurrierend", {"gegner": BOB, "gegner_eigenschaft": "w"}
    ) == [{"name": "Wahrnehmung (4)", "value": "Wahrnehmung"}]
    assert await fake.autocomplete("probe-konkurrierend", {"gegner_charakter": "wa"}) == [
        {"name": "Wache", "value": "Wache"}
    ]
    fix_dice(bot)
    mine, rng = roll_pool(6, Rng(SEED))
    theirs, _ = roll_pool(4, rng)
    options = {"eigenschaft": "Geschick", "gegner": BOB, "gegner_eigenschaft": "Wahrnehmung"}
    message = await (await fake.slash("probe-konkurrierend", options)).message()
    lines = message.content.splitlines()
    assert lines[0] == (
        "🎲 **Alice** – Konkurrierende Probe: **Thoin** (Geschick 6) gegen **Mira** (Wahrnehmung 4)"
    )
    assert lines[1] == f"**Thoin**: 6 W6 → {faces(mine.dice)} → {successes(mine.successes)}"
    assert lines[2] == f"**Mira**: 4 W6 → {faces(theirs.dice)} → {successes(theirs.successes)}"
    if mine.successes == theirs.successes:
        assert lines[3].startswith("🤝")
    else:
        winner = "Thoin" if mine.successes > theirs.successes else "Mira"
        assert lines[3].startswith(f"🏆 **{winner}** gewinnt")
    npc = await (
        await fake.slash(
            "probe-konkurrierend",
            {"wert": 2, "gegner_charakter": "wache", "eigenschaft": "Wahrnehmung"},
        )
    ).message()
    assert "gegen **Wache** (verdeckt)" in npc.content  # an NPC's values are the GM's
    nobody = await (await fake.slash("probe-konkurrierend", {"wert": 2})).callback()
    assert_ephemeral(nobody)
    assert nobody.content == t("roll.contest.no_opponent", "de")


def seed_for(check: Any) -> int:
    return next(seed for seed in range(1000) if check(seed))


async def test_telperinquar_attack_marks_critical_and_fumble(fake: FakeDiscord, bot: Any) -> None:
    critical = seed_for(lambda s: attack_roll(3, Rng(s))[0].critical)
    fix_dice(bot, critical)
    message = await (
        await fake.slash("telperinquar-wurf angriff", {"bonus": 3, "ruestung": 2})
    ).message()
    assert message.content.splitlines() == [
        "🎲 **Alice** – Grundangriffswurf: W10 **10** +3 = **13**",
        "💥 **Kritischer Treffer** (eine 10)!",
        "Schaden gegen einen Helden mit Rüstung/Resistenz 2: **13**",
    ]
    fumble = seed_for(lambda s: attack_roll(0, Rng(s))[0].fumble)
    fix_dice(bot, fumble)
    english = await (
        await fake.slash("telperinquar-roll attack", {"armour": 0, "against": "wesen"}, locale="en")
    ).message()
    assert english.content.splitlines() == [
        "🎲 **Alice** – Basic attack roll: d10 **1** +0 = **1**",
        "💀 **Fumble** (a 1) – the attack does no damage.",
        "Damage against a creature with armour/resistance 0: **0**",
    ]


async def test_telperinquar_erfolgswurf(fake: FakeDiscord, bot: Any) -> None:
    fix_dice(bot)
    result, _ = erfolgswurf(3, 12, Rng(SEED))
    message = await (
        await fake.slash("telperinquar-wurf erfolgswurf", {"stufe": 3, "ziel": 12})
    ).message()
    word = "✅ **Erfolg**" if result.success else "❌ **Misserfolg**"
    assert message.content.startswith(
        f"🎲 **Alice** – Erfolgswurf: W20 **{result.die}** + Stufe 3 = **{result.value}** "
        f"gegen 12 → {word}"
    )


async def test_difficulty_autocomplete_offers_levels_and_numbers(
    fake: FakeDiscord, bot: Any
) -> None:
    everything = await fake.autocomplete("probe", {"erschwernis": ""})
    assert [c["value"] for c in everything] == [
        "normal", "anspruchsvoll", "schwer", "sehr_schwer", "fast_unmoeglich",
    ]  # fmt: skip
    assert everything[0]["name"] == "Normal (−3 W6)"
    assert await fake.autocomplete("probe", {"erschwernis": "very"}, locale="en") == [
        {"name": "Very hard (−12 d6)", "value": "sehr_schwer"}
    ]
    number = await fake.autocomplete("probe", {"erschwernis": "4"})
    assert number[0] == {"name": "−4 W6", "value": "4"}
    assert len(number) == 6


async def test_secret_reroll_stays_secret(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake, bot)
    first = await fake.slash("roll", {"ausdruck": "1W6", "geheim": True})
    await first.followup(0)
    own = await first.message()
    click = await fake.click(own, "roll:again:s:1W6")
    assert_ephemeral(await click.callback())
    notice = await click.followup(0)
    assert_public(notice)
    assert "geheim" in notice.content
    dms = await fake.wait(lambda: fake.dm_messages(GM)[1:] or None, 5, "a second DM")
    assert dms[0].content.startswith("🔒 Geheimer Wurf von **Alice**")


async def test_probe_rolls_a_skill_of_the_sheet(fake: FakeDiscord, bot: Any) -> None:
    campaign = await start_campaign(fake, bot)
    record = await bot.store.create_character(
        campaign_id=campaign.id,
        owner_id=stable_user_id(ALICE),
        name="Thoin",
        sheet=sheet("Thoin", {"Schwertkampf": 3, "Schleichen": 1}, Geschick=4),
    )
    await bot.store.set_active_character(campaign.id, stable_user_id(ALICE), record.id)
    choices = await fake.autocomplete("probe", {"fertigkeit": "schw"}, locale="en")
    assert choices == [{"name": "Schwertkampf (3)", "value": "Schwertkampf"}]

    # A skill given as the attribute: the answer names Thoin, his attributes and the option.
    wrong = await (
        await fake.slash("probe", {"eigenschaft": "Schwertkampf"}, locale="en")
    ).callback()
    assert_ephemeral(wrong)
    assert wrong.content == (
        "“Schwertkampf” is a skill of **Thoin**: give it as `skill`, together with an "
        "`attribute` (Geschick)."
    )
    unknown = await (await fake.slash("probe", {"eigenschaft": "Magie"}, locale="en")).callback()
    assert unknown.content == (
        "**Thoin** has no attribute “Magie”. Attributes: Geschick. "
        "Skills: Schleichen, Schwertkampf."
    )
    no_skill = await (
        await fake.slash("probe", {"eigenschaft": "Geschick", "fertigkeit": "Reiten"})
    ).callback()
    assert no_skill.content == t(
        "roll.probe.unknown_skill", "de", name="Reiten", character="Thoin",
        skills="Schleichen, Schwertkampf",
    )  # fmt: skip
    alone = await (await fake.slash("probe", {"fertigkeit": "Schwertkampf"})).callback()
    assert alone.content == t("roll.probe.skill_needs_attribute", "de")

    fix_dice(bot)
    pool, _ = roll_pool(8, Rng(SEED))  # Geschick 4 + Schwertkampf 3 + bonus 1
    message = await (
        await fake.slash(
            "probe", {"eigenschaft": "geschick", "fertigkeit": "schwertkampf", "bonus": 1}
        )
    ).message()
    assert_public(message)
    lines = message.content.splitlines()
    assert lines[0] == "🎲 **Alice** – Probe: **Geschick 4** + **Schwertkampf 3** (Thoin)"
    assert lines[1] == "Pool: 4 + 4 = **8 W6** · gefordert: 2"
    assert lines[2] == f"Wurf: {faces(pool.dice)}"
    log = [e for e in await bot.store.campaign_log(campaign.id) if e["kind"] == "probe"]
    assert log[-1]["data"]["skill"] == "Schwertkampf"


async def test_konkurrierende_probe_names_the_missing_opponent_side(
    fake: FakeDiscord, bot: Any
) -> None:
    """A value for me and a player as opponent, but nothing for the opponent to roll with:
    the message asks for the opponent's value or attribute (issue 10), not for mine."""
    for locale, lang in (("de", "de"), ("en-US", "en")):
        reply = await (
            await fake.slash("probe-konkurrierend", {"wert": 6, "gegner": BOB}, locale=locale)
        ).callback()
        assert_ephemeral(reply)
        assert reply.content == t("roll.contest.opponent_no_pool", lang, name="Bob")
