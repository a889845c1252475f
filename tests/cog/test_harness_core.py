"""``/hilfe`` and ``/sprache`` through the real bot (``create_bot``) and the fake Discord."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.i18n import t
from bot.sandbox.fake_discord import BotFailed, FakeDiscord
from cogs.core import CHEAT_SHEETS, _localized
from engines.core import Rng
from engines.dice.notation import roll_notation
from engines.w6.actions import SPECS, parse_action
from tests.harness import assert_ephemeral, embed_text


async def test_bot_connects_and_syncs_translated_commands(fake: FakeDiscord, bot: Any) -> None:
    synced = {c["name"]: c for c in fake.commands[None]}
    assert {"hilfe", "sprache"} <= set(synced)
    assert synced["hilfe"]["name_localizations"]["en-US"] == "help"
    assert fake.unhandled == []


async def test_hilfe_in_german(fake: FakeDiscord, bot: Any) -> None:
    ex = await fake.slash("hilfe", locale="de")
    reply = await ex.callback()
    assert reply.type == 4
    assert_ephemeral(reply)
    embed = reply.embeds[0]
    assert embed["title"] == t("core.help.title", "de")
    assert embed["description"] == t("core.help.intro", "de")
    names = [f["name"] for f in embed["fields"]]
    assert names[0] == t("core.help.area.dice", "de")  # grouped by area
    assert "`/hilfe`" in embed_text(reply) and "`/sprache`" in embed_text(reply)
    assert t("core.cmd.help.desc", "de") in embed_text(reply)


async def test_hilfe_in_english(fake: FakeDiscord, bot: Any) -> None:
    reply = await (await fake.slash("hilfe", locale="en-GB")).callback()
    assert reply.embeds[0]["title"] == t("core.help.title", "en")
    assert reply.embeds[0]["description"] == t("core.help.intro", "en")


async def test_hilfe_in_english_describes_commands_in_english(fake: FakeDiscord, bot: Any) -> None:
    reply = await (await fake.slash("hilfe", locale="en-GB")).callback()
    assert t("core.cmd.help.desc", "en") in embed_text(reply)


async def test_hilfe_lists_every_command_by_area_in_the_readers_language(
    fake: FakeDiscord, bot: Any
) -> None:
    """Issue 21: the first page names every command once, grouped by area (alphabetically
    within one), in the reader's language; a select opens each area with all subcommands."""
    for locale, lang in (("de", "de"), ("en-GB", "en")):
        reply = await (await fake.slash("hilfe", locale=locale)).callback()
        text = embed_text(reply)
        for command in fake.commands[None]:
            name = command["name_localizations"][locale] if lang == "en" else command["name"]
            assert text.count(f"`/{name}`") == 1, name
        for field in reply.embeds[0]["fields"]:
            shown = [line.split("`")[1] for line in field["value"].splitlines()]
            assert shown == sorted(shown), field["name"]
        assert len(text) < 6000
    english = embed_text(reply)
    assert "`/help`" in english and "`/language`" in english


async def test_the_german_help_lists_every_combat_subcommand(fake: FakeDiscord, bot: Any) -> None:
    """Issue 21: German /hilfe cut /kampf off after ``status``; the area page shows all."""
    reply = await (await fake.slash("hilfe", locale="de")).message()
    (select,) = reply.custom_ids
    page = await (await fake.select(reply, select, ["combat"], locale="de")).callback()
    text = embed_text(page)
    kampf = next(c for c in fake.commands[None] if c["name"] == "kampf")
    for sub in kampf["options"]:
        assert f"`{sub['name']}`" in text, sub["name"]
    assert sum(len(f["name"]) + len(f["value"]) for f in page.embeds[0]["fields"]) < 6000
    assert all(len(f["value"]) <= 1024 for f in page.embeds[0]["fields"])


async def test_english_command_name_resolves_to_the_same_command(
    fake: FakeDiscord, bot: Any
) -> None:
    ex = await fake.slash("help", locale="en")
    assert ex.payload["data"]["name"] == "hilfe"
    assert (await ex.callback()).embeds[0]["title"] == t("core.help.title", "en")


async def test_sprache_sets_the_preference_that_overrides_the_client(
    fake: FakeDiscord, bot: Any
) -> None:
    chosen = await (await fake.slash("sprache", {"sprache": "en"}, locale="de")).callback()
    assert chosen.content == t("core.language.set.en", "en")
    assert_ephemeral(chosen)
    # The German client of the same user now gets English ...
    help_de = await (await fake.slash("hilfe", user="alice", locale="de")).callback()
    assert help_de.embeds[0]["title"] == t("core.help.title", "en")
    # ... and another user is not affected.
    other = await (await fake.slash("hilfe", user="bob", locale="de")).callback()
    assert other.embeds[0]["title"] == t("core.help.title", "de")


async def test_sprache_auto_follows_the_client_again(fake: FakeDiscord, bot: Any) -> None:
    await (await fake.slash("sprache", {"sprache": "en"})).callback()
    # A choice can be given by its (localized) display name as in the Discord client.
    back = await (
        await fake.slash("sprache", {"language": "Like my Discord"}, locale="de")
    ).callback()
    assert back.content == t("core.language.set.auto", "de")
    help_de = await (await fake.slash("hilfe", locale="de")).callback()
    assert help_de.embeds[0]["title"] == t("core.help.title", "de")


async def test_an_unexpected_error_gives_a_code_to_the_user_and_the_log(
    fake: FakeDiscord, bot: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:

    def broken(*_args: Any) -> str:
        raise RuntimeError("kaputt")

    monkeypatch.setattr(bot.cogs["Core"], "_grouped", broken)
    ex = await fake.slash("hilfe", locale="en-US")
    with pytest.raises(BotFailed):
        await ex.callback(timeout=3)
    fake.errors.clear()  # this test wanted the error
    await ex.settle()
    reply = ex.replies[-1]
    assert_ephemeral(reply)
    logged = [r for r in caplog.records if r.name == "spielleiter.errors"]
    code = logged[-1].args[0]  # type: ignore[index]
    assert reply.content == t("error.unexpected", "en", code=code)
    assert logged[-1].exc_info is not None and "kaputt" in str(logged[-1].exc_info[1])


async def test_hilfe_topics_are_cheat_sheets_in_both_languages(fake: FakeDiscord, bot: Any) -> None:
    for locale, lang in (("de", "de"), ("en-GB", "en")):
        for topic, sections in CHEAT_SHEETS.items():
            options = {"thema": topic}
            reply = await (await fake.slash("hilfe", options, locale=locale)).callback()
            assert_ephemeral(reply)
            (embed,) = reply.embeds
            assert embed["title"] == t(f"core.help.{topic}.title", lang)
            assert [f["name"] for f in embed["fields"]] == [
                t(f"core.help.{topic}.{section}.name", lang) for section in sections
            ]


def _spans(topic: str, lang: str) -> list[str]:
    texts = [t(f"core.help.{topic}.intro", lang)]
    texts += [t(f"core.help.{topic}.{s}.value", lang) for s in CHEAT_SHEETS[topic]]
    return [span for text in texts for span in re.findall(r"`([^`]+)`", text)]


def _command_paths(bot: Any, lang: str) -> set[str]:
    paths: set[str] = set()
    for command in bot.tree.get_commands():
        name = _localized(command, "name", lang)
        paths.add(f"/{name}")
        for sub in getattr(command, "commands", []):
            paths.add(f"/{name} {_localized(sub, 'name', lang)}")
    return paths


@pytest.mark.parametrize("lang", ["de", "en"])
async def test_every_example_in_the_cheat_sheets_works(bot: Any, lang: str) -> None:
    """Each dice example rolls; each combat example is valid notation or a real command."""
    commands = _command_paths(bot, lang)
    for span in _spans("dice", lang):
        if span.startswith("/"):
            assert " ".join(span.split()[:2]) in commands or span.split()[0] in commands, span
        else:
            roll_notation(span, Rng(1))
    option_keys = {key for spec in SPECS.values() for key, _kind in spec.opts}
    for span in _spans("combat", lang):
        words = span.split()
        if span.startswith("/"):
            assert " ".join(words[:2]) in commands, span
        elif span.startswith("@") or words[0] in SPECS:
            fighter = "" if span.startswith("@") or not SPECS[words[0]].fighter else "@thoin "
            parse_action(fighter + span)
        else:
            assert all(w.split("=")[0] in option_keys for w in words), span
