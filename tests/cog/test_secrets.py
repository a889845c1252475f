"""What the bot must not give away: debug logs without secret rolls, sheets or the token."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.cli import configure_logging
from bot.i18n import t
from bot.sandbox.fake_discord import FakeDiscord, stable_user_id
from bot.store.base import CampaignRecord
from engines.core import Rng
from engines.dice.pool import roll_pool
from tests.cog.test_combat import ids_with
from tests.cog.test_dice import GM, SEED, fix_dice, start_campaign
from tests.cog.test_dice_probe import faces, give_character, sheet, successes
from tests.cog.test_essence import BOB, challenge
from tests.cog.test_w6 import import_sheet, thoin_json
from tests.cog.test_w6 import start_campaign as start_w6_campaign
from tests.harness import (
    assert_ephemeral,
    assert_public,
    embed_text,
    running_bot,
    settings_for,
)

ALICE = "alice"
TOKEN = "tok-SEKRET-4711"  # a stand-in bot token the log must never show


@pytest.fixture
def debug_log() -> Iterator[io.StringIO]:
    """``configure_logging`` at DEBUG (as SPIELLEITER_LOG_LEVEL=DEBUG does), its handler
    writing into the returned buffer; the logging setup of the test run restored afterwards."""
    root = logging.getLogger()
    saved_handlers, saved_level = root.handlers[:], root.level
    named = {name: logging.getLogger(name).level for name in ("discord", "aiosqlite")}
    configure_logging(settings_for_logging())
    buffer = io.StringIO()
    handler = root.handlers[0]
    assert isinstance(handler, logging.StreamHandler)
    handler.setStream(buffer)
    try:
        yield buffer
    finally:
        root.handlers[:] = saved_handlers
        root.setLevel(saved_level)
        for name, level in named.items():
            logging.getLogger(name).setLevel(level)


def settings_for_logging() -> Any:
    from bot.settings import Settings

    return Settings(token=TOKEN, log_level="DEBUG")


async def test_debug_log_keeps_secret_rolls_sheets_and_token_out(
    fake: FakeDiscord, tmp_path: Path, debug_log: io.StringIO
) -> None:
    settings = settings_for(fake, tmp_path / "t.sqlite", token=TOKEN, log_level="DEBUG")
    async with running_bot(fake, settings) as bot:
        await fake.wait_for_sync()
        campaign = await start_campaign(fake, bot)
        dragon = sheet("Drache", Feuerodem=9)
        await bot.store.create_character(
            campaign_id=campaign.id, owner_id=None, name="Drache", sheet=dragon
        )
        ex = await fake.slash(
            "roll", {"ausdruck": "3W6 Falltür-im-Thronsaal", "geheim": True}, user=ALICE
        )
        assert_ephemeral(await ex.callback())
        await fake.wait_for_message(channel=fake.dm_channel(GM))
    logging.getLogger("spielleiter").debug("debug lines reach the log")
    logged = debug_log.getvalue()
    assert "debug lines reach the log" in logged
    assert "Falltür-im-Thronsaal" not in logged
    assert "Feuerodem" not in logged and json.dumps(dragon)[:40] not in logged
    assert TOKEN not in logged


# ---- mentions: user text pings nobody, the bot's calls ping exactly whom they call ---------


async def test_character_names_that_read_as_mentions_ping_nobody_in_probe(
    fake: FakeDiscord, bot: Any
) -> None:
    campaign = await start_campaign(fake, bot)
    alice = stable_user_id(ALICE)
    for name in ("@everyone", "<@123>"):
        await bot.store.create_character(
            campaign_id=campaign.id, owner_id=alice, name=name, sheet=sheet(name, Kraft=3)
        )
        options = {"charakter": name, "eigenschaft": "Kraft"}
        message = await (await fake.slash("probe", options, user=ALICE)).message()
        assert_public(message)
        assert name in message.content
        assert message.pings == set()


async def test_campaign_name_that_reads_as_mentions_pings_nobody(
    fake: FakeDiscord, bot: Any
) -> None:
    name = "@everyone <@123> @here"
    started = await (await fake.slash("kampagne start", {"name": name}, user=GM)).message()
    assert_public(started)
    assert name in started.content
    assert started.pings == set()
    # Handing the lead over calls the new GM, and only them.
    handed = await (await fake.slash("kampagne übergeben", {"nutzer": ALICE}, user=GM)).message()
    assert handed.pings == {str(stable_user_id(ALICE))}


async def test_combat_narration_pings_only_the_one_who_must_answer(
    fake: FakeDiscord, bot: Any
) -> None:
    await start_w6_campaign(fake)
    await import_sheet(fake, ALICE, {**thoin_json(), "name": "@everyone"})
    npc = "<@123> lp=20 kw=8 ab=5 gs=2"
    await (await fake.slash("sl nsc", {"werte": npc}, user=GM)).callback()
    started = await (await fake.slash("kampf start", user=GM)).message()
    assert started.pings == set()
    await (await fake.slash("kampf dazu", user=ALICE)).message()
    added = await (await fake.slash("kampf dazu", {"charakter": "<@123>"}, user=GM)).message()
    (begin,) = ids_with(added, "beginnen")
    status = await (await fake.click(added, begin, user=GM)).message()
    (attack,) = ids_with(status, "zatk")
    target = status.component(attack)["options"][0]["value"]
    chooser = await (await fake.select(status, attack, [target], user=ALICE)).message()
    (kw_menu,) = ids_with(chooser, "kwatk")
    exchange = await fake.select(chooser, kw_menu, ["4"], user=ALICE)
    await exchange.settle()
    attacked = next(m for m in fake.channel_messages() if m.id == status.id)  # edited in place
    assert_public(attacked)
    assert "@everyone" in attacked.content  # the narration names the attacker
    # the GM answers for the NPC: the tracker says so; an edit pings nobody, and the GM, who
    # runs the table, gets no ping message of their own (issue #19)
    assert attacked.pings == set()
    later = [m for m in fake.channel_messages() if m.id > status.id and not m.flags & 64]
    assert all(m.pings <= {str(stable_user_id(ALICE))} for m in later)


async def test_essence_calls_the_invited_and_the_player_to_move(
    fake: FakeDiscord, bot: Any
) -> None:
    invitation = await challenge(fake)
    assert invitation.pings == {str(stable_user_id(BOB))}
    accept = await fake.click(invitation, 1, user=BOB)
    board = await accept.message()
    assert f"<@{stable_user_id(ALICE)}>" in board.content
    assert board.pings == {str(stable_user_id(ALICE))}  # Alice (A) begins


# ---- NPC sheets are the GM's -------------------------------------------------------------

BOB_PLAYER = "bob"


async def npc_campaign(fake: FakeDiscord, bot: Any) -> CampaignRecord:
    """The GM's campaign: Thoin (alice, Kraft 5), Mira (bob, Kraft 4), the NPC Drache
    (Feuerodem 9, Kraft 7, skill Fliegen 3)."""
    campaign = await start_campaign(fake, bot)
    await give_character(bot, campaign, ALICE, "Thoin", Kraft=5)
    await give_character(bot, campaign, BOB_PLAYER, "Mira", Kraft=4)
    await bot.store.create_character(
        campaign_id=campaign.id,
        owner_id=None,
        name="Drache",
        sheet=sheet("Drache", {"Fliegen": 3}, Feuerodem=9, Kraft=7),
    )
    return campaign


def leaks(text: str) -> bool:
    return any(word in text for word in ("Feuerodem", "Fliegen", "9", "7"))


async def test_a_player_cannot_roll_with_an_npc_nor_learn_it_exists(
    fake: FakeDiscord, bot: Any
) -> None:
    await npc_campaign(fake, bot)
    asks = [
        ("probe", {"charakter": "Drache", "eigenschaft": "Feuerodem"}),
        ("probe", {"charakter": "drache", "eigenschaft": "Magie"}),  # once listed its sheet
        ("probe", {"charakter": "Drache", "eigenschaft": "Kraft", "fertigkeit": "Reiten"}),
        ("probe-komplex", {"charakter": "Drache", "eigenschaft": "Kraft", "aufteilung": "1 1"}),
        ("probe-konkurrierend", {"charakter": "Drache", "eigenschaft": "Kraft", "gegner_wert": 3}),
    ]
    for command, options in asks:
        reply = await (await fake.slash(command, options, user=ALICE)).callback()
        assert_ephemeral(reply)
        name = options["charakter"]
        assert reply.content == t("roll.probe.not_yours", "de", name=name), command
    # The same answer as for a name nobody has, and for another player's character.
    for name in ("Niemand", "Mira"):
        options = {"charakter": name, "eigenschaft": "Kraft"}
        reply = await (await fake.slash("probe", options, user=ALICE, locale="en")).callback()
        assert reply.content == t("roll.probe.not_yours", "en", name=name)
    assert not [m for m in fake.channel_messages() if not m.ephemeral and "Drache" in m.text]
    # The GM rolls the NPC as before, in the open if they like.
    fix_dice(bot)
    options = {"charakter": "Drache", "eigenschaft": "Feuerodem"}
    rolled = await (await fake.slash("probe", options, user=GM)).message()
    assert_public(rolled)
    assert rolled.content.splitlines()[0] == "🎲 **Gm** – Probe: **Feuerodem 9** (Drache)"


async def test_autocomplete_offers_a_player_no_npc_values_or_names_of_its_sheet(
    fake: FakeDiscord, bot: Any
) -> None:
    await npc_campaign(fake, bot)

    def names(choices: list[dict[str, Any]]) -> list[str]:
        return [c["name"] for c in choices]

    # A player rolls with their own characters only.
    own = await fake.autocomplete("probe", {"charakter": ""}, user=ALICE)
    assert names(own) == ["Thoin"]
    for command in ("probe", "probe-konkurrierend"):
        offered = await fake.autocomplete(
            command, {"charakter": "Drache", "eigenschaft": ""}, user=ALICE
        )
        assert offered == [], command
    skills = await fake.autocomplete(
        "probe", {"charakter": "Drache", "eigenschaft": "Kraft", "fertigkeit": ""}, user=ALICE
    )
    assert skills == []
    # As an opponent an NPC is offered by its name, and nothing of its sheet.
    opponents = await fake.autocomplete("probe-konkurrierend", {"gegner_charakter": ""}, user=ALICE)
    assert names(opponents) == ["Drache", "Mira", "Thoin"]
    assert not any(leaks(c["name"] + c["value"]) for c in opponents)
    their = await fake.autocomplete(
        "probe-konkurrierend", {"gegner_charakter": "Drache", "gegner_eigenschaft": ""}, user=ALICE
    )
    assert their == []
    # /charakter and /sl: no NPC among a player's choices, no NPC attributes.
    shown = await fake.autocomplete("charakter zeigen", {"charakter": ""}, user=ALICE)
    assert "Drache" not in str(shown)
    npc_id = next(
        c["value"]
        for c in await fake.autocomplete("charakter zeigen", {"charakter": "dra"}, user=GM)
    )
    secret = {"charakter": npc_id, "eigenschaft": ""}
    assert await fake.autocomplete("sl geheimprobe", secret, user=ALICE) == []
    paths = {"charakter": npc_id, "feld": "eigenschaften"}
    assert not leaks(str(await fake.autocomplete("charakter feld", paths, user=ALICE)))
    assert "Feuerodem" in str(await fake.autocomplete("charakter feld", paths, user=GM))
    # The GMs get everything, as before.
    assert names(await fake.autocomplete("probe", {"charakter": ""}, user=GM)) == [
        "Drache", "Mira", "Thoin",
    ]  # fmt: skip
    gm_values = await fake.autocomplete(
        "probe", {"charakter": "Drache", "eigenschaft": "f"}, user=GM
    )
    assert gm_values == [{"name": "Feuerodem (9)", "value": "Feuerodem"}]
    assert "Feuerodem (9)" in names(await fake.autocomplete("sl geheimprobe", secret, user=GM))


async def test_an_opposed_check_against_an_npc_shows_only_its_name_and_successes(
    fake: FakeDiscord, bot: Any
) -> None:
    await npc_campaign(fake, bot)
    fix_dice(bot)
    mine, rng = roll_pool(5, Rng(SEED))
    theirs, _ = roll_pool(9, rng)  # Drache's Feuerodem 9, rolled by the bot
    options = {
        "eigenschaft": "Kraft",
        "gegner_charakter": "Drache",
        "gegner_eigenschaft": "Feuerodem",
    }
    message = await (await fake.slash("probe-konkurrierend", options, user=ALICE)).message()
    assert_public(message)
    lines = message.content.splitlines()
    assert lines[0] == (
        "🎲 **Alice** – Konkurrierende Probe: **Thoin** (Kraft 5) gegen **Drache** (verdeckt)"
    )
    assert lines[1] == f"**Thoin**: 5 W6 → {faces(mine.dice)} → {successes(mine.successes)}"
    assert lines[2] == f"**Drache**: verdeckt gewürfelt → {successes(theirs.successes)}"
    assert "Feuerodem" not in message.content
    assert not message.attachments  # a dice image would count the NPC's dice
    english = await (
        await fake.slash("probe-konkurrierend", options, user=ALICE, locale="en")
    ).message()
    assert "against **Drache** (hidden)" in english.content
    assert "**Drache**: rolled hidden → " in english.content
    # An attribute it lacks: said without listing what it has.
    options["gegner_eigenschaft"] = "Magie"
    refused = await (await fake.slash("probe-konkurrierend", options, user=ALICE)).callback()
    assert_ephemeral(refused)
    assert refused.content == t("roll.contest.npc_cannot", "de", name="Drache", attribute="Magie")
    assert not leaks(refused.content)
    # The GM's opposed check shows the NPC's values as before.
    options = {"wert": 2, "gegner_charakter": "Drache", "gegner_eigenschaft": "Feuerodem"}
    gm = await (await fake.slash("probe-konkurrierend", options, user=GM)).message()
    assert "gegen **Drache** (Feuerodem 9)" in gm.content


async def test_campaign_info_counts_the_npcs_and_names_none(fake: FakeDiscord, bot: Any) -> None:
    campaign = await npc_campaign(fake, bot)
    info = await (await fake.slash("kampagne info", user=GM)).callback()
    assert_public(info)
    text = embed_text(info)
    assert "Thoin" in text and "Mira" in text
    assert "Drache" not in text
    assert "1 NSC der Spielleitung" in text
    await bot.store.create_character(
        campaign_id=campaign.id, owner_id=None, name="Ork", sheet=sheet("Ork", Kraft=3)
    )
    english = await (await fake.slash("kampagne info", user=ALICE, locale="en")).callback()
    assert "2 NPCs of the GM" in embed_text(english)
    assert "Ork" not in embed_text(english)


async def test_for_a_player_an_npc_and_a_missing_name_read_the_same(
    fake: FakeDiscord, bot: Any
) -> None:
    """Issue 18: ``/charakter zeigen|export|aktiv|löschen|feld`` and ``/kampf dazu`` said
    "NSCs führt nur die Spielleitung" for an NPC and "gibt es nicht" for a missing name, so a
    player could learn by name that an NPC exists."""
    await npc_campaign(fake, bot)
    await (await fake.slash("kampf start", user=GM)).message()
    asks: list[tuple[str, dict[str, Any]]] = [
        ("charakter zeigen", {}),
        ("charakter export", {}),
        ("charakter aktiv", {}),
        ("charakter löschen", {}),
        ("charakter feld", {"feld": "lp", "wert": "3"}),
        ("kampf dazu", {}),
    ]
    for command, options in asks:
        said = []
        for name in ("Drache", "drache", "Niemand"):
            reply = await (
                await fake.slash(command, {**options, "charakter": name}, user=ALICE)
            ).callback()
            assert_ephemeral(reply)
            said.append(reply.content)
        missing = [t("w6cog.error.no_character", "de", name=n) for n in ("Drache", "drache")]
        assert said == [*missing, t("w6cog.error.no_character", "de", name="Niemand")], command
    campaign = await bot.store.active_campaign(fake.channel().id)
    assert sorted(c.name for c in await bot.store.characters(campaign.id)) == [
        "Drache",
        "Mira",
        "Thoin",
    ]


async def test_an_npcs_remaining_lp_reaches_no_player(fake: FakeDiscord, bot: Any) -> None:
    """Issue 18: the public damage line and the player-readable campaign log said "jetzt 3" and
    "jetzt 3/8" for an NPC whose board shows only "verletzt"."""
    await start_w6_campaign(fake)
    await import_sheet(fake, ALICE, thoin_json())
    await (await fake.slash("sl nsc", {"werte": "Ork lp=20 kw=8 ab=5 gs=2"}, user=GM)).callback()
    # the GM's own tool: the values to the GM only, the log without them
    hurt = await (
        await fake.slash("sl schaden", {"charakter": "Ork", "punkte": 4}, user=GM)
    ).callback()
    assert_ephemeral(hurt)
    assert "16/20" in hurt.content
    # (a fight's damage line and log entry: test_combat's attack, defence and damage)
    record = await bot.store.active_campaign(fake.channel().id)
    public = "\n".join(m.text for m in fake.channel_messages() if not m.ephemeral)
    assert "16" not in public
    log = await (await fake.slash("kampagne log", user=ALICE)).callback()
    entries = await bot.store.campaign_log(record.id)
    assert any(e["kind"] == "damage" and e["data"].get("name") == "Ork" for e in entries)
    for line in ((log.content or "") + embed_text(log)).splitlines():
        if "Ork" in line:
            assert "jetzt" not in line and "/20" not in line, line
