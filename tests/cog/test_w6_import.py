"""Campaign and character imports through the real bot: a bad file changes nothing (checked
completely, written in one transaction), what would crash or poison the campaign is refused
with a clear message, big files are deferred, and one broken stored log entry never breaks
``/kampagne log``."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from bot.i18n import t
from bot.limits import (
    DEFER_IMPORT_BYTES,
    MAX_CHARACTERS_PER_CAMPAIGN,
    MAX_CHARACTERS_PER_PLAYER,
)
from bot.sandbox.fake_discord import GUILD_ID, FakeDiscord, stable_user_id
from tests.cog.test_w6 import GM, import_sheet, start_campaign, thoin_json
from tests.harness import assert_ephemeral, assert_public, embed_text


def export(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "schema": "spielleiter.w6.kampagne",
        "version": 1,
        "name": "Die Mine",
        "gm_id": 1,
        "co_gm_ids": [],
        "settings": {},
        "characters": [
            {"owner_id": 11, "sheet": thoin_json()},
            {"owner_id": 12, "sheet": {**thoin_json(), "name": "Balin"}},
        ],
        "npcs": [],
        "log": [
            {
                "at": 1_700_000_000,
                "actor_id": 11,
                "kind": "sheet",
                "data": {"event": "created", "name": "Thoin"},
            }
        ],
    }
    data.update(changes)
    return data


async def run_import(fake: FakeDiscord, body: bytes, locale: str = "de") -> Any:
    exchange = await fake.slash(
        "kampagne import", {"datei": ("kampagne.json", body)}, user=GM, locale=locale
    )
    return exchange


async def assert_nothing_written(fake: FakeDiscord, bot: Any) -> None:
    assert await bot.store.active_campaign(fake.channel().id) is None
    assert await bot.store.campaigns(GUILD_ID) == []


def second_character(**sheet: Any) -> list[dict[str, Any]]:
    return [
        {"owner_id": 11, "sheet": thoin_json()},
        {"owner_id": 12, "sheet": {**thoin_json(), "name": "Balin", **sheet}},
    ]


@pytest.mark.parametrize(
    ("changes", "key", "params"),
    [
        # the second character's owner does not fit a 64-bit column: today the first
        # character is already written when the second fails
        (
            {
                "characters": [
                    {"owner_id": 11, "sheet": thoin_json()},
                    {"owner_id": 2**63, "sheet": thoin_json()},
                ]
            },
            "json.number_too_big",
            {},
        ),
        (
            {
                "characters": [
                    {"owner_id": 11, "sheet": thoin_json()},
                    {"owner_id": 0, "sheet": thoin_json()},
                ]
            },
            "w6cog.import.bad_field",
            {"field": "characters[1].owner_id"},
        ),
        (
            {"characters": second_character(name="Ba\u2028lin")},
            "w6.sheet.bad_chars",
            {"field": "characters[1].name"},
        ),
        (
            {"characters": second_character(lp=31)},
            "w6.sheet.lp_above_max",
            {"field": "characters[1].lp", "value": 31, "max": 30},
        ),
        ({"name": "Die\nMine"}, "w6cog.import.bad_field", {"field": "name"}),
        (
            {"log": [{"at": 1e20, "kind": "sheet", "data": {}}]},
            "w6cog.import.bad_field",
            {"field": "log[0].at"},
        ),
        (
            {"log": [{"at": 1, "kind": "sheet", "actor_id": 2**63 - 1}, {"at": 1, "kind": "x y"}]},
            "w6cog.import.bad_field",
            {"field": "log[1].kind"},
        ),
        (
            {"log": [{"at": 1, "kind": "roll", "data": {"lang": "xx"}}]},
            "w6cog.import.reserved_key",
            {"field": "log[0].data.lang"},
        ),
        (
            {"log": [{"at": 1, "kind": "roll", "data": {"imported_at": 1e20}}]},
            "w6cog.import.bad_field",
            {"field": "log[0].data.imported_at"},
        ),
        (
            {
                "characters": [
                    {"owner_id": 11, "sheet": {**thoin_json(), "name": f"T{i}"}}
                    for i in range(MAX_CHARACTERS_PER_PLAYER + 1)
                ]
            },
            "w6cog.import.too_many_for_player",
            {"user": "<@11>", "max": MAX_CHARACTERS_PER_PLAYER},
        ),
        (
            {"npcs": [{"sheet": thoin_json()}] * (MAX_CHARACTERS_PER_CAMPAIGN + 1)},
            "w6cog.import.too_many",
            {"field": "npcs", "max": MAX_CHARACTERS_PER_CAMPAIGN},
        ),
    ],
)
async def test_a_bad_campaign_file_changes_nothing(
    fake: FakeDiscord, bot: Any, changes: dict[str, Any], key: str, params: dict[str, Any]
) -> None:
    body = json.dumps(export(**changes)).encode()
    reply = await (await run_import(fake, body)).callback()
    assert_ephemeral(reply)
    assert reply.content == t(key, "de", **params)
    await assert_nothing_written(fake, bot)


@pytest.mark.parametrize(
    ("body", "key", "params"),
    [
        (b"[" * 100_000, "json.too_deep", {"max": 32}),
        (
            json.dumps(export()).replace("1700000000", "NaN").encode(),
            "json.not_finite",
            {"value": "NaN"},
        ),
        (
            json.dumps(export()).replace("1700000000", "Infinity").encode(),
            "json.not_finite",
            {"value": "Infinity"},
        ),
        (
            json.dumps(export()).replace('"Thoin"', '"Tho\\udc00in"', 1).encode(),
            "json.bad_text",
            {},
        ),
    ],
)
async def test_files_that_crashed_the_parser_are_refused(
    fake: FakeDiscord, bot: Any, body: bytes, key: str, params: dict[str, Any]
) -> None:
    reply = await (await run_import(fake, body, locale="en-US")).callback()
    assert_ephemeral(reply)
    assert reply.content == t(key, "en", **params)
    await assert_nothing_written(fake, bot)


async def test_a_large_import_is_deferred_privately_and_announced(
    fake: FakeDiscord, bot: Any
) -> None:
    entries = [
        {
            "at": 1_700_000_000 + i,
            "actor_id": 11,
            "kind": "roll",
            "data": {"expression": "3W6", "total": i % 18},
        }
        for i in range(2_000)
    ]
    body = json.dumps(export(log=entries)).encode()
    assert len(body) > DEFER_IMPORT_BYTES
    exchange = await run_import(fake, body)
    deferred = await exchange.callback()
    assert deferred.data == {"flags": 64}  # an ephemeral "thinking" answer
    done = await exchange.followup(0)
    assert done.content == t("w6cog.campaign.import_done", "de", entries=2_000)
    announced = await exchange.followup(1)
    assert_public(announced)
    assert announced.content == t("w6cog.campaign.imported", "de", name="Die Mine", count=2)
    campaign = await bot.store.active_campaign(fake.channel().id)
    assert len(await bot.store.campaign_log(campaign.id, limit=0)) == 2_001


async def test_a_large_bad_import_answers_privately(fake: FakeDiscord, bot: Any) -> None:
    entries = [{"at": 1, "kind": "roll", "data": {"pad": "x" * 100}} for _ in range(2_000)]
    entries.append({"at": -5, "kind": "roll"})
    exchange = await run_import(fake, json.dumps(export(log=entries)).encode())
    await exchange.callback()
    refused = await exchange.followup(0)
    assert_ephemeral(refused)
    assert refused.content == t("w6cog.import.bad_field", "de", field="log[2000].at")
    await assert_nothing_written(fake, bot)


async def test_one_broken_stored_log_entry_does_not_break_the_log(
    fake: FakeDiscord, bot: Any
) -> None:
    await start_campaign(fake)
    campaign = await bot.store.active_campaign(fake.channel().id)
    # entries as an older import stored them: an impossible time, a key ``t`` takes itself
    await bot.store.add_log(campaign.id, None, "roll", {"imported_at": 1e20, "total": 3})
    await bot.store.add_log(
        campaign.id, None, "sheet", {"event": "created", "name": "X", "lang": 1}
    )
    await bot.store.add_log(campaign.id, None, "sheet", {"event": "created", "name": "Thoin"})
    reply = await (await fake.slash("kampagne log", user=GM)).callback()
    assert_ephemeral(reply)
    text = embed_text(reply)
    assert text.count(t("w6cog.campaign.log_unreadable", "de")) == 2
    assert "Thoin" in text and "Die Mine" in text


async def test_character_import_refuses_deep_nesting_and_respects_the_player_limit(
    fake: FakeDiscord, bot: Any
) -> None:
    await start_campaign(fake)
    options = {"datei": ("thoin.json", b"[" * 100_000)}
    reply = await (await fake.slash("charakter import", options, user="alice")).callback()
    assert reply.content == t("json.too_deep", "de", max=32)
    for i in range(MAX_CHARACTERS_PER_PLAYER):
        ok = await import_sheet(fake, "alice", {**thoin_json(), "name": f"Thoin {i}"})
        assert ok.content == t("w6cog.sheet.imported", "de", name=f"Thoin {i}")
    refused = await import_sheet(fake, "alice", thoin_json())
    assert_ephemeral(refused)
    assert refused.content == t(
        "w6cog.error.too_many_characters", "de", max=MAX_CHARACTERS_PER_PLAYER
    )
    campaign = await bot.store.active_campaign(fake.channel().id)
    mine = [
        c for c in await bot.store.characters(campaign.id) if c.owner_id == stable_user_id("alice")
    ]
    assert len(mine) == MAX_CHARACTERS_PER_PLAYER


async def test_the_player_limit_holds_when_creates_arrive_together(
    fake: FakeDiscord, bot: Any
) -> None:
    """The limit is counted in the store's write: four sheets at once one below it create one
    character, the other three hear the usual refusal."""
    await start_campaign(fake)
    for i in range(MAX_CHARACTERS_PER_PLAYER - 1):
        await import_sheet(fake, "alice", {**thoin_json(), "name": f"Thoin {i}"})
    replies = await asyncio.gather(
        *(import_sheet(fake, "alice", {**thoin_json(), "name": f"Neu {i}"}) for i in range(4))
    )
    refused = t("w6cog.error.too_many_characters", "de", max=MAX_CHARACTERS_PER_PLAYER)
    assert sorted(reply.content == refused for reply in replies) == [False, True, True, True]
    for reply in replies:
        if reply.content == refused:
            assert_ephemeral(reply)
    campaign = await bot.store.active_campaign(fake.channel().id)
    mine = [
        c for c in await bot.store.characters(campaign.id) if c.owner_id == stable_user_id("alice")
    ]
    assert len(mine) == MAX_CHARACTERS_PER_PLAYER


async def test_an_imported_campaign_exports_and_imports_again_keeping_first_times(
    fake: FakeDiscord, bot: Any
) -> None:
    first = export(
        log=[{"at": 1_600_000_000, "kind": "sheet", "data": {"event": "created", "name": "Thoin"}}]
    )
    await (await run_import(fake, json.dumps(first).encode())).callback()
    exported = await (await fake.slash("kampagne export", user=GM)).callback()
    (file,) = exported.files
    other = fake.channel("spieltisch")
    again = await (
        await fake.slash(
            "kampagne import", {"datei": ("k.json", file.data)}, user=GM, channel=other
        )
    ).callback()
    assert again.content == t("w6cog.campaign.imported", "de", name="Die Mine", count=2)
    copy = await bot.store.active_campaign(other.id)
    entries = await bot.store.campaign_log(copy.id, limit=0)
    assert entries[0]["data"]["imported_at"] == 1_600_000_000


async def test_a_stored_name_with_a_line_break_still_loads_and_can_be_renamed(
    fake: FakeDiscord, bot: Any
) -> None:
    # an older import let control characters into a stored sheet; the sheet stays usable
    await start_campaign(fake)
    campaign = await bot.store.active_campaign(fake.channel().id)
    sheet = {**thoin_json(), "name": "Tho\nin", "notizen": "Zeile 1\nZeile 2\x07"}
    record = await bot.store.create_character(
        campaign_id=campaign.id, owner_id=stable_user_id("alice"), name="Tho\nin", sheet=sheet
    )
    await bot.store.set_active_character(campaign.id, stable_user_id("alice"), record.id)
    shown = await (await fake.slash("charakter zeigen", user="alice")).message()
    assert "Tho in" in embed_text(shown)
    renamed = await (
        await fake.slash("charakter feld", {"feld": "name", "wert": "Thoin"}, user="alice")
    ).callback()
    assert_ephemeral(renamed)
    stored = await bot.store.get_character(record.id)
    assert (stored.name, stored.sheet["notizen"]) == ("Thoin", "Zeile 1\nZeile 2 ")


async def test_a_campaign_file_with_one_name_twice_is_refused(fake: FakeDiscord, bot: Any) -> None:
    """Names are unique per campaign (issue 10): a file whose player character and NPC share a
    name, in any case, is refused with both places named and writes nothing."""
    npcs = [{"sheet": {**thoin_json(), "name": "THOIN"}}]
    for locale, lang in (("de", "de"), ("en-US", "en")):
        body = json.dumps(export(npcs=npcs)).encode()
        reply = await (await run_import(fake, body, locale)).callback()
        assert_ephemeral(reply)
        assert reply.content == t(
            "w6cog.import.duplicate_name", lang, name="THOIN", first="characters[0]",
            second="npcs[0]",
        )  # fmt: skip
    await assert_nothing_written(fake, bot)
