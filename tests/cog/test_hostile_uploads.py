"""Uploads a hostile user shapes to break the reader (issue 18): TOML nested past any need,
integers of thousands of digits (Python's ``int()`` stops at 4,300 and ``tomllib`` recurses on
each nesting) in card and spell files, deck lists (file and ``liste`` option) and scenario
fields. Each gets the file-and-line message, never the generic error, and stores nothing."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import t
from bot.sandbox.fake_discord import Exchange, FakeDiscord
from tests.harness import assert_ephemeral, embed_text

HUGE = "9" * 5000
DEEP = "[" * 3000 + "]" * 3000
TQ_HEAD = '[[card]]\nname = "Glasdolch"\nname_en = "Glass Dagger"\ntype = "weapon"\n'


async def told(ex: Exchange) -> str:
    replies = await ex.settle()
    said = [r for r in replies if r.content or r.embeds]
    assert said, "no answer"
    assert_ephemeral(said[-1])
    text = (said[-1].content or "") + embed_text(said[-1])
    assert t("error.unexpected", "de", code="X").split("(")[0][:20] not in text
    return text


@pytest.mark.parametrize("value", [DEEP, HUGE, "{a=" * 3000 + "1" + "}" * 3000])
async def test_a_card_file_that_breaks_the_toml_reader_names_its_line(
    fake: FakeDiscord, bot: Any, value: str
) -> None:
    body = (TQ_HEAD + f"play = {value}\n").encode()
    text = await told(
        await fake.slash("telperinquar karten hochladen", {"datei": ("k.toml", body)})
    )
    assert t("tqcog.load.line", "de", line=5).strip() in text
    assert await bot.store.get_content(fake.channel().guild_id, "telperinquar.cards") is None


@pytest.mark.parametrize("value", [DEEP, HUGE])
async def test_a_spell_file_that_breaks_the_toml_reader_names_its_line(
    fake: FakeDiscord, bot: Any, value: str
) -> None:
    body = f'[[spell]]\nname = "Kaputt"\npips = {value}\n'.encode()
    ex = await fake.slash("felsenfeuer zauberbuch hochladen", {"datei": ("z.toml", body)})
    assert "Zeile 3" in await told(ex)


async def test_deck_lists_with_a_count_of_thousands_of_digits_name_the_line(
    fake: FakeDiscord, bot: Any
) -> None:
    listed = f"1 Kurzbogen;{HUGE} Kurzbogen"
    text = await told(await fake.slash("telperinquar deck import", {"name": "D", "liste": listed}))
    assert (
        "2" in text
        and t("tq.deck.bad_count", "de", line=2, count=HUGE[:6] + "…", max=3)[:10] in text
    )
    body = f"1 Kurzbogen\n\n{HUGE}x Kurzbogen\n".encode()
    ex = await fake.slash("telperinquar deck import", {"name": "D", "datei": ("d.txt", body)})
    assert "3" in await told(ex)


@pytest.mark.parametrize(
    "line",
    [
        f"runden: {HUGE}",
        f"parteien: {HUGE}",
        f"figur: {HUGE} krieger a1",
        f"figur: 1 krieger a{HUGE}",
    ],
)
async def test_a_scenario_field_of_thousands_of_digits_names_its_line(
    fake: FakeDiscord, bot: Any, line: str
) -> None:
    good = "name: Kaputt\nparteien: 2\nkarte:\nT T\n T T\nende\nfigur: 2 krieger b2\n"
    options = {
        "datei": ("s.txt", (good + line + "\n").encode()),
        "partei1": "alice",
        "partei2": "bob",
    }
    text = await told(await fake.slash("armageddon start", options, user="greta"))
    assert "s.txt" in text and "Zeile" in text
