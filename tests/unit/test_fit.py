"""``bot.fit``: shortening text, lists, message parameters and embeds to Discord's limits, with
the note in the user's language. Every result is checked with the fake's own validator."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot import fit
from bot.i18n import t
from bot.sandbox import fake_limits


@pytest.mark.parametrize("lang", ["de", "en"])
def test_shorten_keeps_short_text_and_notes_the_cut(lang: str) -> None:
    assert fit.shorten("kurz", 10, lang) == "kurz"
    text = "wort " * 1000
    short = fit.shorten(text, 2000, lang)
    assert len(short) <= 2000
    assert short.endswith(t("core.fit.shortened", lang))
    assert short.startswith("wort wort") and "wort wor " not in short  # cut between words


def test_shorten_german_and_english_notes() -> None:
    assert fit.shorten("x" * 50, 20, "de").endswith(" … (gekürzt)")
    assert fit.shorten("x" * 50, 20, "en").endswith(" … (shortened)")


def test_cut_marks_echoed_input() -> None:
    assert fit.cut("abc") == "abc"
    assert fit.cut("x" * 4000) == "x" * 99 + "…"
    assert len(fit.cut("y" * 500, 40)) == 40


@pytest.mark.parametrize(("lang", "word"), [("de", "und"), ("en", "and")])
def test_join_limited_names_how_many_more(lang: str, word: str) -> None:
    items = [f"Name{i:02d}" for i in range(50)]
    assert fit.join_limited(items[:3], 100, lang) == "Name00, Name01, Name02"
    joined = fit.join_limited(items, 100, lang)
    assert len(joined) <= 100
    shown = joined.count("Name")
    assert joined == ", ".join(items[:shown]) + " " + t("core.fit.more", lang, n=50 - shown)
    assert f" {word} {50 - shown} " in joined


def test_join_limited_says_one_more_in_the_singular() -> None:
    items = ["Aaaaaaaaaa", "Bbbbbbbbbb", "Cccccccccc"]  # 34 characters together
    assert fit.join_limited(items, 33, "de") == "Aaaaaaaaaa, Bbbbbbbbbb und noch 1"
    assert fit.join_limited(items, 33, "en") == "Aaaaaaaaaa, Bbbbbbbbbb and 1 more"
    assert fit.join_limited([*items, "Dddddddddd"], 40, "de").endswith(" und 2 weitere")


def test_join_limited_on_lines_puts_the_note_on_its_own_line() -> None:
    joined = fit.join_limited([f"Zeile {i}" for i in range(300)], 1024, "de", sep="\n")
    assert len(joined) <= 1024
    assert joined.splitlines()[-1].startswith("und ") and joined.endswith(" weitere")


def test_join_limited_with_one_huge_item_shortens_it() -> None:
    joined = fit.join_limited(["x" * 5000, "y"], 1024, "de")
    assert len(joined) <= 1024 and joined.endswith("(gekürzt)")


def test_fit_params_cuts_strings_and_lists_only() -> None:
    params = fit.fit_params(
        {"value": "v" * 4000, "skills": [f"S{i}" for i in range(500)], "n": 3, "none": []}, "en"
    )
    assert params["value"] == "v" * 99 + "…"
    assert len(params["skills"]) <= fit.LIST_PARAM and params["skills"].endswith(" more")
    assert params["n"] == 3
    assert params["none"] == "–"


def _problems(embed: discord.Embed) -> fake_limits.Problems:
    return fake_limits.check_message({"embeds": [embed.to_dict()]}, flags=0)


def test_fit_embed_cuts_each_part_and_the_total() -> None:
    embed = discord.Embed(title="T" * 300, description="d " * 3000)
    for i in range(30):
        embed.add_field(name=f"Feld {i}" * 50, value="w " * 800)
    embed.set_footer(text="f" * 3000)
    embed.set_author(name="a" * 300)
    assert _problems(embed)
    fit.fit_embed(embed, "de")
    assert _problems(embed) == []
    assert len(embed.fields) == 25
    assert embed.fields[-1].value == t("core.fit.more_fields", "de", n=6)
    assert fake_limits.embed_size(embed.to_dict()) <= 6000
    assert not fit.embeds_too_long([embed])


def test_fit_embed_leaves_a_fitting_embed_alone() -> None:
    embed = discord.Embed(title="Thoin", description="Zwerg")
    embed.add_field(name="PM", value="K 4, G 3")
    before = embed.to_dict()
    assert not fit.embeds_too_long([embed])
    assert fit.fit_embed(embed, "en").to_dict() == before


def test_fit_embed_fills_empty_field_values() -> None:
    embed = discord.Embed(title="x")
    embed.add_field(name="Notizen", value="")
    assert fit.embeds_too_long([embed])
    fit.fit_embed(embed, "de")
    assert _problems(embed) == []


def test_fit_embed_shortens_field_names_when_they_alone_are_too_many() -> None:
    embed = discord.Embed()
    for i in range(25):
        embed.add_field(name=f"{i:02d}" + "n" * 254, value="v")
    assert fake_limits.embed_size(embed.to_dict()) > 6000
    fit.fit_embed(embed, "en")
    assert _problems(embed) == []


def test_fit_embeds_keeps_the_total_of_several_embeds() -> None:
    embeds = [discord.Embed(title=f"E{i}", description="w " * 2000) for i in range(3)]
    body = {"embeds": [e.to_dict() for e in embeds]}
    assert fake_limits.check_message(body, flags=0)
    fit.fit_embeds(embeds, "de")
    assert fake_limits.check_message({"embeds": [e.to_dict() for e in embeds]}, flags=0) == []
    assert all(e.description and e.description.endswith("(gekürzt)") for e in embeds)


class _Store:
    async def get_pref(self, user_id: int, key: str) -> None:
        return None


# What ``fit_reply`` reads of an interaction: the user's language (preference, else locale).
INTERACTION: Any = SimpleNamespace(
    client=SimpleNamespace(store=_Store()), user=SimpleNamespace(id=1), locale="en-US"
)


async def test_every_reply_through_send_is_fitted() -> None:
    from bot.replies import fit_reply

    embed = discord.Embed(title="x", description="d " * 2500)
    embed.add_field(name="f", value="v " * 900)
    content, kwargs = await fit_reply(INTERACTION, "w " * 1500, {"embed": embed})
    assert content is not None and len(content) <= fit.CONTENT
    assert content.endswith("(shortened)")
    body = {"content": content, "embeds": [kwargs["embed"].to_dict()]}
    assert fake_limits.check_message(body, flags=0) == []
    same, _ = await fit_reply(INTERACTION, "kurz", {})
    assert same == "kurz"
