"""``/kampf`` at the table after the second reading of the W6 combat chapter (issue #24):
seeded dice, what the buttons offer."""

from __future__ import annotations

from typing import Any

from bot.chance import Chance
from bot.combat import active_combat, unpack
from bot.games import SEED_BITS
from bot.sandbox.fake_discord import FakeDiscord
from engines.w6 import to_act
from engines.w6.state import ShieldStats
from tests.cog.test_w6 import GM, start_campaign


async def test_a_seeded_bot_seeds_the_combat_dice(fake: FakeDiscord, bot: Any) -> None:
    """``spielleiter play --seed N`` reproduces the combat dice: the combat's seed comes from
    the bot's seeded randomness."""
    bot.chance = Chance(41)
    await start_campaign(fake)
    await (await fake.slash("kampf start", user=GM)).message()
    record = await active_combat(bot.store, fake.channel().id)
    assert record is not None and record.seed == Chance(41).bits(SEED_BITS)


def _codes(state: Any, fighter_id: str) -> list[str]:
    from bot.play.specs.w6 import fighter_rows

    def cid(code: str, fighter: str, *extra: object) -> str:
        return f"kf:1:t:{code}:{fighter}"

    rows = fighter_rows(state, fighter_id, cid, "de", private=True)  # an NPC's too
    return [str(item.custom_id).split(":")[3] for row in rows for item in row]  # type: ignore[attr-defined]


def test_only_the_fighter_whose_turn_it_is_is_offered_holding() -> None:
    from tests.unit.test_w6_combat import PLAYER, combat, fighter, run

    state = combat(fighter("held", PLAYER, ab=8), fighter("ork", ab=4))
    assert "weiter" in _codes(state, "held")
    state, _ = run(state, "@held handlung", "@held weiter", "@ork handlung")
    assert state.current == "ork" and "held" in to_act(state)
    assert "weiter" not in _codes(state, "held")  # a held Handlung: act or be done
    assert "weiter" in _codes(state, "ork")


def test_no_kw_defence_is_offered_against_a_shot_only_the_reflex_answers() -> None:
    from tests.unit.test_w6_combat import duel, run, weapon

    bow = weapon("Bogen", (1, 1), fernkampf=True)
    state = duel(waffen=(bow,))
    state, _ = run(state, "wuerfel 5", "@held fern ork dist=1 probe=1 kw=2")
    codes = _codes(state, "ork")
    assert "abwehr" not in codes and {"keine", "refabw"} <= set(codes)
    shielded = duel(waffen=(bow,), b={"schild": ShieldStats("Schild", 1, 2)})
    shielded, _ = run(shielded, "wuerfel 5", "@held fern ork dist=1 probe=1 kw=2")
    assert "abwehr" in _codes(shielded, "ork")


def _told(state: Any, texts: tuple[str, ...], lang: str) -> str:
    from bot.narration.combat_text import narrate
    from tests.unit.test_w6_combat import act

    lines = []
    for text in texts:
        after, events = act(state, text)
        lines += narrate(events, state, after, lang)
        state = after
    return "\n".join(lines)


def test_the_narration_says_what_a_zone_hit_means() -> None:
    from tests.unit.test_w6_combat import duel

    state = duel(b={"handlungen_max": 0})
    steps = ("wuerfel 6 6 6 5 5 5", "@held angriff ork zone=Beine probe=3 kw=3",
             "@ork abwehr keine")  # fmt: skip
    assert "−3 KW, ab jetzt in jeder Phase" in _told(state, steps, "de")
    english = _told(state, steps, "en")
    assert "hit in the Legs: −3 combat dice" in english and "Beine" not in english
    hands = ("wuerfel 6 6 6 6 5 5 5", "@held angriff ork zone=Hände probe=4 kw=3",
             "@ork abwehr keine")  # fmt: skip
    assert "Die Waffe ist verloren" in _told(state, hands, "de")


def test_the_narration_names_the_shield_bonus_and_the_following_up() -> None:
    from tests.unit.test_w6_combat import duel

    state = duel(b={"schild": ShieldStats("Rundschild", 2, 3)})
    steps = ("wuerfel 5 5 5 5 1 1 5 5 5 5", "@held angriff ork kw=4", "@ork abwehr kw=2",
             "@ork zurueckweichen")  # fmt: skip
    german = _told(state, steps, "de")
    assert "Darin 2 W6 Schildbonus (Rundschild)." in german
    assert "**Held** darf sofort nachsetzen" in german
    assert "2 shield bonus combat dice (Rundschild)" in _told(state, steps, "en")


def test_english_combat_texts_use_one_word_for_the_dice_pool() -> None:
    """The KW pool is "combat dice" (or "combat die") in every English W6 text, never "KW"
    or a bare "dice" where the German says KW."""
    import re

    from bot.i18n import catalog

    for key, texts in catalog().items():
        if not key.startswith(("w6cog.", "w6.")) or "en" not in texts:
            continue
        english, german = texts["en"], texts.get("de", "")
        assert not re.search(r"\bKW\b", english), key
        if re.search(r"\bKW\b|Kampfwürfel", german):
            assert re.search(r"combat di(c)?e", english, re.I), key


# ----------------------------------------------------------------- issue 21, W6 section


async def _tie_combat(fake: FakeDiscord) -> Any:
    """Thoin (alice, AB 6, Intuition 2) and an Ork of AB 6: Thoin chooses the order."""
    from tests.cog.test_combat import ids_with
    from tests.cog.test_w6 import ALICE, import_sheet, thoin_json

    await start_campaign(fake)
    await import_sheet(fake, ALICE, thoin_json())
    await (await fake.slash("sl nsc", {"werte": "Ork lp=20 kw=8 ab=6"}, user=GM)).callback()
    await (await fake.slash("kampf start", user=GM)).message()
    await (await fake.slash("kampf dazu", user=ALICE)).message()
    added = await (await fake.slash("kampf dazu", {"charakter": "Ork"}, user=GM)).message()
    (begin,) = ids_with(added, "beginnen")
    return await (await fake.click(added, begin, user=GM)).message()


async def test_an_ab_tie_is_chosen_with_buttons(fake: FakeDiscord, bot: Any) -> None:
    from bot.i18n import t
    from tests.cog.test_combat import ids_with
    from tests.cog.test_w6 import ALICE

    status = await _tie_combat(fake)
    (first,) = ids_with(status, "zuerst")
    (after,) = ids_with(status, "danach")
    assert first.endswith(":thoin") and after.endswith(":thoin")
    labels = [c.get("label", "") for c in status.walk_components()]
    assert "Thoin: " + t("w6cog.btn.after", "de") in labels
    await (await fake.click(status, after, user=ALICE)).message()
    record = await active_combat(bot.store, fake.channel().id)
    state = unpack(record).state
    assert state.pending is None and state.order == ("ork", "thoin")


async def test_kampf_aktion_takes_a_mention_and_the_shown_name(fake: FakeDiscord, bot: Any) -> None:
    from bot.sandbox.fake_discord import stable_user_id
    from tests.cog.test_w6 import ALICE

    await _tie_combat(fake)
    alice = stable_user_id(ALICE)
    await (
        await fake.slash("kampf aktion", {"notation": f"<@{alice}> zuerst"}, user=ALICE)
    ).message()
    state = unpack(await active_combat(bot.store, fake.channel().id)).state
    assert state.pending is None and state.current == "thoin"
    await (
        await fake.slash("kampf aktion", {"notation": "@THOIN angriff ORK kw=3"}, user=ALICE)
    ).message()
    state = unpack(await active_combat(bot.store, fake.channel().id)).state
    assert state.pending is not None and state.pending.attacker == "thoin"
    assert [d.target for d in state.pending.targets] == ["ork"]
    await (
        await fake.slash("kampf setzen", {"kaempfer": "Ork", "feld": "lp", "wert": 7}, user=GM)
    ).message()
    assert unpack(await active_combat(bot.store, fake.channel().id)).state.fighter("ork").lp == 7


async def test_damage_below_the_rlp_outside_combat_offers_the_kraft_probe(
    fake: FakeDiscord, bot: Any
) -> None:
    from bot.i18n import t
    from tests.cog.test_w6 import ALICE, import_sheet, thoin_json

    await start_campaign(fake)
    await import_sheet(fake, ALICE, thoin_json())
    light = await (
        await fake.slash("sl schaden", {"charakter": "Thoin", "punkte": 5}, user=GM)
    ).message()
    assert not light.custom_ids  # LP 25, not below the RLP 5
    hit = await (
        await fake.slash("sl schaden", {"charakter": "Thoin", "punkte": 22}, user=GM)
    ).message()
    assert t("w6cog.gm.kraft_check", "de", name="Thoin") in hit.content
    (roll,) = hit.custom_ids
    refused = await (await fake.click(hit, roll, user=ALICE)).callback()
    assert refused.flags & 64
    bot.chance = Chance(3)
    rolled = await (await fake.click(hit, roll, user=GM)).message()
    assert "Kraft-Probe von **Thoin**: 5 W6" in rolled.content  # Kraft 5 on the sheet
    assert not rolled.custom_ids  # rolled once


async def test_a_campaign_import_keeps_each_players_active_character(
    fake: FakeDiscord, bot: Any
) -> None:
    from bot.sandbox.fake_discord import stable_user_id
    from tests.cog.test_w6 import ALICE, import_sheet, thoin_json

    await start_campaign(fake)
    await import_sheet(fake, ALICE, thoin_json())
    await import_sheet(fake, ALICE, {**thoin_json(), "name": "Alrik"})
    await (await fake.slash("charakter aktiv", {"charakter": "Alrik"}, user=ALICE)).callback()
    campaign = await bot.store.active_campaign(fake.channel().id)
    mine = await bot.store.active_character(campaign.id, stable_user_id(ALICE))
    assert mine is not None and mine.name == "Alrik"
    exported = await (await fake.slash("kampagne export", user=GM)).callback()
    (file,) = exported.files
    other = fake.channel("spieltisch")
    await (
        await fake.slash(
            "kampagne import", {"datei": ("k.json", file.data)}, user=GM, channel=other
        )
    ).callback()
    copy = await bot.store.active_campaign(other.id)
    active = await bot.store.active_character(copy.id, stable_user_id(ALICE))
    assert active is not None and active.name == "Alrik"


def test_wording_of_issue_21() -> None:
    from bot.i18n import t
    from bot.narration.w6 import tc
    from engines.w6.state import Fighter

    assert tc("w6cog.ev.combat_started", "de", fighters=1) == ("⚔ Der Kampf beginnt mit 1 Kämpfer.")
    assert "bleiben -5" not in t("roll.probe.no_dice", "de", dice="−5")
    assert "es bleiben" not in t("roll.komplex.no_dice", "de", dice="−5")
    assert "sich selbst angegriffen" not in t("w6.combat.bad_targets", "de")
    for lang in ("de", "en"):
        assert "SHEET.md" not in t("w6cog.sheet.template", lang)
        for key in ("w6.sheet.bad_schema", "w6.sheet.not_a_sheet"):  # the template's command
            assert t("w6cog.cmd.char.template.name", lang) in t(key, lang, schema="w6.sheet")
    weak = Fighter(
        id="weak", name="Schwach", owner=None, ab=1, intuition=0, handlungen_max=1, kw_max=4,
        reflex=0, magie=0, lp=10, lp_max=10, rlp=8, gesamtschutz=0, zonen=(), waffen=(), kraft=0,
    )  # fmt: skip
    from tests.unit.test_w6_combat import PLAYER, combat, fighter

    state = combat(fighter("held", PLAYER, ab=8), weak)
    told = _told(state, ("wuerfel 6 6 6", "@held angriff weak kw=3", "@weak abwehr keine"), "de")
    assert "legt eine Kraft-Probe ab: –" not in told
    assert "hat keine Kraft-Würfel" in told


# ----------------------------------------------------------------- issue 19: the living tracker


async def test_a_phase_with_six_fighters_and_four_attacks_posts_a_few_messages(
    fake: FakeDiscord, bot: Any
) -> None:
    """Issue 19: one phase of 6 fighters (2 players, 4 NPCs) and 4 attacks, played by clicks,
    edits the tracker in place: at most a few new public messages (pings for players; the
    phase's summary line takes the place of its last ping, edited, so the phase leaves one
    line), never an image per step; the private prompts are one per attack."""
    from bench.bench_w6 import _sheet, scripted_phase

    await (await fake.slash("kampagne start", {"name": "Mine"}, user=GM)).callback()
    campaign = await bot.store.active_campaign(fake.channel().id)
    for index in range(6):
        owner = fake.user(f"spieler{index}").id if index < 2 else None
        data = _sheet(f"Held{index}", 3 + index)
        await bot.store.create_character(
            campaign_id=campaign.id, owner_id=owner, name=data["name"], sheet=data
        )
    await (await fake.slash("kampf start", user=GM)).message()
    for index in range(6):
        await (await fake.slash("kampf dazu", {"charakter": f"Held{index}"}, user=GM)).message()
    await (await fake.slash("kampf beginnen", user=GM)).message()
    before = [m.id for m in fake.channel_messages() if not m.flags & 64]
    counts = await scripted_phase(fake, bot, attacks=4, gm=GM)
    assert counts["attacks"] == 4 and counts["clicks"] >= 4 * 2 + 6
    assert counts["attack_clicks"] <= 2  # issue 19: a plain attack is two clicks
    assert counts["public"] <= 4, counts  # a summary line and a ping or two, not 20 posts
    assert counts["images"] <= counts["clicks"] // 2, counts  # a new image only on a change
    assert counts["private"] == 4, counts  # one private prompt per attack, edited in place
    public = [m for m in fake.channel_messages() if not m.flags & 64]
    summary = [m for m in public if m.content.startswith("📜 Phase 1")]
    assert len(summary) == 1 and "Angriffe: 4" in summary[0].content
    assert summary[0].edited_at is not None and "<@" not in summary[0].content  # the ping, served
    live = [m for m in public if m.custom_ids]
    assert len(live) == 1  # only the tracker keeps live buttons
    assert len([m for m in public if m.id not in before]) <= 3  # pings replace each other


async def test_a_deleted_tracker_is_posted_again_by_the_next_step(
    fake: FakeDiscord, bot: Any
) -> None:
    from tests.cog.test_combat import ids_with, set_up, tracker
    from tests.cog.test_w6 import ALICE

    status = await set_up(fake)
    attack = ids_with(status, "zatk")[0]
    chooser = await (await fake.select(status, attack, ["ork"], user=ALICE)).message()
    status.deleted = True  # someone deleted the tracker
    (dice,) = ids_with(chooser, "kwatk")
    exchange = await fake.select(chooser, dice, ["4"], user=ALICE)
    again = await tracker(fake, exchange)
    assert again.id != status.id and ids_with(again, "npc")  # the Ork's defence
    record = await active_combat(bot.store, fake.channel().id)
    assert record.display["tracker"]["message"] == again.id


async def test_a_phase_that_pinged_nobody_ends_with_a_new_summary_line(
    fake: FakeDiscord, bot: Any
) -> None:
    """Issue 19: a phase's summary takes the place of its served ping; a phase in which nobody
    was pinged (no attack: both are done) still leaves its one line, as a new message."""
    from tests.cog.test_combat import ids_with, set_up, tracker
    from tests.cog.test_w6 import ALICE

    status = await set_up(fake)
    (done,) = [c for c in ids_with(status, "fertig") if c.endswith(":thoin")]
    status = await tracker(fake, await fake.click(status, done, user=ALICE))
    (done,) = [c for c in ids_with(status, "fertig") if c.endswith(":ork")]
    await tracker(fake, await fake.click(status, done, user=GM))
    public = [m for m in fake.channel_messages() if not m.flags & 64]
    (summary,) = [m for m in public if m.content.startswith("📜 Phase 1")]
    assert summary.edited_at is None and "Angriffe: 0" in summary.content
