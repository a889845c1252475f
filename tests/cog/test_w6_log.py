"""The campaign log as players read it (``/kampagne log``): every kind of entry in words, rolls
kept to those allowed to see them; co-GM changes that make no sense refused; ``/charakter probe``
in the layout of ``/probe``."""

from __future__ import annotations

from typing import Any

from bot.i18n import t
from bot.narration.w6 import readable
from bot.sandbox.fake_discord import FakeDiscord
from bot.services.campaigns import may_see
from tests.cog.test_w6 import ALICE, BOB, GM, import_sheet, start_campaign, thoin_json
from tests.harness import assert_ephemeral, embed_text


async def log_text(fake: FakeDiscord, user: str, locale: str = "de") -> str:
    reply = await (await fake.slash("kampagne log", user=user, locale=locale)).callback()
    assert_ephemeral(reply)
    return embed_text(reply)


async def test_rolls_and_checks_read_as_words_not_keys(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    await (await fake.slash("roll", {"ausdruck": "8W6>=5"}, user=ALICE)).message()
    await (await fake.slash("probe", {"wert": 5}, user=ALICE)).message()
    komplex = {"aufteilung": "3/2", "wert": 8}
    await (await fake.slash("probe-komplex", komplex, user=ALICE)).message()
    contest = {"wert": 5, "gegner_wert": 4}
    await (await fake.slash("probe-konkurrierend", contest, user=ALICE)).message()
    await (await fake.slash("kampagne regel", {"regel": "kaufen", "an": True}, user=GM)).callback()
    for lang, locale in (("de", "de"), ("en", "en-US")):
        text = await log_text(fake, ALICE, locale)
        assert "w6cog.log" not in text
        assert "`8W6>=5`" in text
        assert t("w6cog.log.with_dice", lang, dice=5) in text
        assert t("w6cog.log.with_dice", lang, dice=8) in text
        assert t("w6cog.rule.kaufen", lang) in text and "kaufen=True" not in text
    german = await log_text(fake, ALICE)
    assert "Konkurrierende Probe Alice gegen Gegner" in german


async def test_private_and_secret_rolls_stay_out_of_other_players_logs(
    fake: FakeDiscord, bot: Any
) -> None:
    await start_campaign(fake)
    await (await fake.slash("roll", {"ausdruck": "1W6+100", "privat": True}, user=ALICE)).callback()
    secret = {"ausdruck": "1W6+200", "geheim": True}
    await (await fake.slash("roll", secret, user=BOB)).callback()
    alice, bob, gm = [await log_text(fake, user) for user in (ALICE, BOB, GM)]
    assert "1W6+100" in alice and "1W6+100" not in bob and "1W6+100" not in gm
    assert "1W6+200" in bob and "1W6+200" in gm and "1W6+200" not in alice


def test_visibility_rules_of_single_entries() -> None:
    def entry(kind: str, actor: int, visibility: str | None = None) -> dict[str, Any]:
        data = {"visibility": visibility} if visibility else {}
        return {"kind": kind, "actor_id": actor, "at": 0, "data": data}

    assert may_see(entry("roll", 1, "open"), 2, gm=False)
    assert not may_see(entry("roll", 1, "private"), 2, gm=True)
    assert may_see(entry("roll", 1, "private"), 1, gm=False)
    assert may_see(entry("probe", 1, "secret"), 2, gm=True)
    assert not may_see(entry("probe", 1, "secret"), 2, gm=False)
    assert not may_see(entry("secret_check", 1), 1, gm=False)


def test_repeated_and_target_rolls_show_their_sets_and_margin_in_the_log() -> None:
    def shown(data: dict[str, Any]) -> str:
        entry = {"kind": "roll", "actor_id": 1, "at": 0, "data": data}
        return str(readable(entry, "de")["data"]["result"])

    base = {"expression": "6#4W6kh3", "visibility": "open"}
    assert shown({**base, "total": 20, "mode": "sum", "sets": [7, 13]}) == "7, 13 (Σ 20)"
    assert shown({**base, "total": 17, "mode": "target", "margin": 2}) == "17 (+2)"
    assert shown({**base, "total": 12, "mode": "target", "margin": -3}) == "12 (−3)"
    assert shown({**base, "total": 5, "mode": "sum"}) == "5"  # entries from before


def test_imported_entries_keep_their_first_time_and_combat_checks_are_named() -> None:
    imported = {"kind": "check", "actor_id": 1, "at": 999.0}
    imported["data"] = {"name": "Ork", "what": "kraft_check", "imported_at": 5.0}
    shown = readable(imported, "de")
    assert shown["at"] == 5.0
    assert shown["data"]["what"] == t("w6cog.log.what.kraft_check", "de")
    assert imported["data"]["what"] == "kraft_check"  # the stored entry is not changed


async def test_co_gm_refuses_the_gm_and_removing_a_stranger(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    itself = await (await fake.slash("kampagne co-sl", {"nutzer": GM}, user=GM)).callback()
    assert_ephemeral(itself)
    assert itself.content == t("w6cog.error.already_gm", "de", user=fake.user(GM).mention)
    stranger = {"nutzer": BOB, "entfernen": True}
    nobody = await (await fake.slash("kampagne co-sl", stranger, user=GM)).callback()
    assert nobody.content == t("w6cog.error.not_cogm", "de", user=fake.user(BOB).mention)
    added = await (await fake.slash("kampagne co-sl", {"nutzer": BOB}, user=GM)).callback()
    assert added.content == t("w6cog.campaign.cogm_added", "de", user=fake.user(BOB).mention)
    text = await log_text(fake, GM)
    assert "Co-Spielleitung" in text and "w6cog" not in text


async def test_sheet_check_takes_any_case_and_reads_like_probe(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    await import_sheet(fake, ALICE, thoin_json())
    options = {"eigenschaft": "geschick", "fertigkeit": "spaltwaffen"}
    reply = await (await fake.slash("charakter probe", options, user=ALICE)).message()
    first, pool = reply.content.splitlines()[:2]
    assert first == "🎲 **Thoin** – Probe: **Geschick 3** + **Spaltwaffen 2**"
    assert pool.startswith("Pool: 3 + 2 = **5 W6**")
    secret = {"charakter": "Thoin", "eigenschaft": "KRAFT"}
    hidden = await (await fake.slash("sl geheimprobe", secret, user=GM)).callback()
    assert_ephemeral(hidden)
    assert hidden.content.startswith("🎲 **Thoin** – Probe: **Kraft 5**")
