"""``/felsenfeuer`` through the fake Discord: a duel against the bot clicked step by step
(the sealed Auswahl as a common split or one custom select, glyphs by colour, pips and matrix,
every choice of the spell phase), an invitation of three seats with a bot seat, the Kompendium
in German and English, and forged clicks that change nothing."""

from __future__ import annotations

import asyncio
import copy
import random
import re
from typing import Any

import pytest

from bot.games import GameService, load
from bot.i18n import t
from bot.sandbox.fake_discord import BOT_ID, FakeDiscord, StoredMessage, stable_user_id
from engines.core import BadInput
from engines.core import match as m
from engines.core.content import data_dir
from engines.felsenfeuer import ENGINE, FelsenfeuerEngine
from engines.felsenfeuer.spells import spellbook
from tests.harness import (
    assert_components_valid,
    assert_ephemeral,
    assert_png_attachment,
    assert_public,
    embed_text,
    ever_shown,
)
from tests.table_player import settled

ALICE, BOB, CAROL, DAVE = "alice", "bob", "carol", "dave"


def game_of(message: StoredMessage) -> int:
    """The duel's number from its title ("Felsenfeuer #3") or its components."""
    found = re.search(r"Felsenfeuer #(\d+)", embed_text(message))
    return int(found.group(1)) if found else int(message.custom_ids[0].split(":")[1])


def button_for(message: StoredMessage, label: str) -> str:
    for button in message.buttons:
        if button.get("label") == label:
            return str(button["custom_id"])
    raise AssertionError(f"no button {label!r} among {[b.get('label') for b in message.buttons]}")


async def open_decision(
    fake: FakeDiscord, client: Any, game_id: int, seat: int
) -> tuple[StoredMessage, str] | None:
    """The live board once ``seat`` has an open decision on it (None: the duel is over)."""
    for _attempt in range(400):
        record = await client.store.get_game(game_id)
        if record.status != "active":
            return None
        match = load(record)
        mine = [d for d in m.decisions(ENGINE, match) if d.seat == seat]
        board = record.display.get("board")
        message = fake.messages.get(board) if board is not None else None
        if mine and message is not None:
            wanted = f"felsen:{game_id}:{mine[0].id}:o"
            if wanted in message.custom_ids:
                return message, wanted
        await asyncio.sleep(0.025)
    raise AssertionError("no board offered the seat's decision")


DESCRIBED: list[tuple[str, str]] = []  # (label, description) of every select option clicked past


async def click_through(
    fake: FakeDiscord, prompt: StoredMessage, user: str, rng: random.Random, locale: str = "de"
) -> list[str]:
    """Click a seeded choice on the private prompt until the decision is taken; the labels
    of the prompts on the way."""
    seen = []
    for _step in range(12):
        assert_ephemeral(prompt)
        assert_components_valid(prompt)
        seen.append(prompt.content)
        back = t("play.button.back", locale[:2])
        choices = [b for b in prompt.buttons if ":p:" in b["custom_id"] and b.get("label") != back]
        selects = [s for s in prompt.selects if ":p:" in s["custom_id"]]
        DESCRIBED.extend((o["label"], o["description"]) for s in selects for o in s["options"]
                         if o.get("description"))  # fmt: skip
        if selects and (not choices or rng.random() < 0.5):
            select = rng.choice(selects)
            value = rng.choice(select["options"])["value"]
            answer = await fake.select(
                prompt, select["custom_id"], [value], user=user, locale=locale
            )
        else:
            assert choices, (prompt.content, seen)
            answer = await fake.click(
                prompt, rng.choice(choices)["custom_id"], user=user, locale=locale
            )
        reply = await answer.callback()
        assert reply.type == 7, reply.content
        prompt = await answer.message()
        if not prompt.components:
            assert prompt.content.startswith(t("play.done", locale[:2]).split("{")[0][:4])
            return seen
    raise AssertionError(f"the decision never finished: {seen}")


async def test_a_duel_against_the_bot_is_clicked_step_by_step(fake: FakeDiscord, bot: Any) -> None:
    started = await fake.slash("felsenfeuer start", {"bot": "random"}, user=ALICE)
    board = await started.message()
    assert_public(board)
    assert_png_attachment(board)
    assert_components_valid(board)
    game_id = game_of(board)
    record = await GameService(bot.store).get(game_id)
    assert record.players == [stable_user_id(ALICE), BOT_ID]
    assert record.config["ai_levels"] == {"1": "random"}
    rng = random.Random(12)
    prompts: list[str] = []
    for _decision in range(14):
        found = await open_decision(fake, bot, game_id, 0)
        if found is None:
            break
        board, opener = found
        assert_png_attachment(board)
        opened = await fake.click(board, opener, user=ALICE)
        reply = await opened.callback()
        assert_ephemeral(reply)
        prompts += await click_through(fake, await opened.message(), ALICE, rng)
    actions = await bot.store.game_actions(game_id)
    alices = [text for seat, text in actions if seat == 0]
    assert alices[0].startswith("auswahl ")  # the sealed choice, one of the common splits
    assert any(text.startswith("essenz ") for text in alices)
    assert any(text.startswith(("lege ", "ende")) for text in alices)
    assert any(seat == 1 for seat, _ in actions)  # the bot answered
    assert any("eine übliche Aufteilung oder im Menü darunter deine eigene" in p for p in prompts)
    # Sentences name each seat whole (only the image cuts a long name to fit).
    bot_name = "Spielleiter (zufällig)"
    said = t("felsenfeuer.event.auswahl_chosen", "de", player=bot_name)
    assert ever_shown(fake, said)
    # The Auswahl stayed secret on every public message while it was open.
    public = [msg for msg in fake.channel_messages() if not msg.ephemeral]
    assert not any("Deine geheime Auswahl" in msg.text for msg in public)


async def test_three_seats_with_a_bot_seat_start_when_the_guest_accepts(
    fake: FakeDiscord, bot: Any
) -> None:
    options = {"spieler2": BOB, "bots": 1, "bot": "normal", "regeln": "magister"}
    invitation = await (await fake.slash("felsenfeuer start", options, user=ALICE)).message()
    assert_public(invitation)
    assert_components_valid(invitation)
    assert f"<@{stable_user_id(BOB)}>" in invitation.content
    stranger = await (await fake.click(invitation, 1, user=DAVE)).callback()
    assert_ephemeral(stranger)
    accepted = await fake.click(invitation, button_for(invitation, "Annehmen"), user=BOB)
    assert (
        await accepted.callback()
    ).type == 6  # 6: acknowledged, the first board drawn after (issue 18)
    board = await accepted.message()
    assert_png_attachment(board)
    record = await GameService(bot.store).get(game_of(invitation))
    assert record.status == "active"
    assert record.players == [stable_user_id(ALICE), stable_user_id(BOB), BOT_ID]
    assert record.config["rules"] == "magister"
    assert record.config["ai_levels"] == {"2": "normal"}
    # Both people choose their Auswahl in either order; each opens only their own.
    found = await open_decision(fake, bot, record.id, 1)
    assert found is not None
    board, bobs = found
    wrong = await (await fake.click(board, bobs, user=ALICE)).callback()
    assert_ephemeral(wrong)
    opened = await fake.click(board, bobs, user=BOB, locale="en-US")
    await opened.callback()
    prompt = await opened.message()
    assert "a common split, or your own in the menu below" in prompt.content
    await click_through(fake, prompt, BOB, random.Random(3))
    private = await fake.click(
        board, button_for(board, t("felsenfeuercog.button.private", "de")), user=BOB
    )
    shown = await private.callback()
    assert_ephemeral(shown)
    assert (shown.content or "").startswith("Deine geheime Auswahl")


async def test_start_refuses_a_mode_for_the_wrong_number_of_seats(
    fake: FakeDiscord, bot: Any
) -> None:
    reply = await (await fake.slash("felsenfeuer start", {"modus": "gilde"}, user=ALICE)).callback()
    assert_ephemeral(reply)
    assert reply.content == t("felsenfeuer.error.mode_players", "de", mode="gilde", players=6)
    bad = await (await fake.slash("felsenfeuer start", {"teams": "a,b"}, user=ALICE)).callback()
    assert_ephemeral(bad)
    assert bad.content == t("felsenfeuercog.error.bad_teams", "de")
    assert await bot.store.game_actions(1) == []


async def test_a_config_the_engine_refuses_is_the_first_error_named(
    fake: FakeDiscord, bot: Any
) -> None:
    """The game service checks the config before the table asks anything else (the
    challenge against oneself, the deferral): the engine's own words, ephemeral, nothing
    stored."""
    options: dict[str, Any] = {"spieler2": ALICE, "modus": "pentagramm"}
    reply = await (await fake.slash("felsenfeuer start", options, user=ALICE)).callback()
    assert_ephemeral(reply)
    assert reply.content == t("felsenfeuer.error.mode_players", "de", mode="pentagramm", players=5)
    games = bot.cogs["Felsenfeuer"].games
    with pytest.raises(BadInput) as refused:
        games.check_config("felsenfeuer", {"rules": "adept", "mode": "gilde"}, 2)
    assert refused.value.key == "felsenfeuer.error.mode_players"
    assert await bot.store.game_actions(1) == []


async def test_a_spell_in_german_and_english(fake: FakeDiscord, bot: Any) -> None:
    spell = next(s for s in spellbook().values() if s.colour == "rot")
    shown = await (
        await fake.slash("felsenfeuer zauber", {"name": spell.slug}, user=ALICE)
    ).message()
    assert spell.name in embed_text(shown)
    assert spell.text_de.split()[0] in embed_text(shown)
    assert "rot" in embed_text(shown)
    english = await (
        await fake.slash("felsenfeuer zauber", {"name": spell.name}, user=BOB, locale="en-US")
    ).message()
    assert spell.text_en.split()[0] in embed_text(english)
    assert "red" in embed_text(english)
    unknown = await (
        await fake.slash("felsenfeuer zauber", {"name": "Quark"}, user=ALICE)
    ).callback()
    assert_ephemeral(unknown)
    assert unknown.content == t("felsenfeuercog.error.no_spell", "de", name="Quark")
    choices = await fake.autocomplete("felsenfeuer zauber", {"name": spell.name[:4]}, user=ALICE)
    assert spell.slug in [c["value"] for c in choices]
    vortex = await (
        await fake.slash("felsenfeuer zauber", {"name": "Vortex"}, user=BOB, locale="en-US")
    ).message()
    assert "grey, 1 pip*" in embed_text(vortex)  # one pip, not "1 pips"


async def test_the_book_lists_every_spell_by_colour_in_both_languages(
    fake: FakeDiscord, bot: Any
) -> None:
    german = await (await fake.slash("felsenfeuer buch", {}, user=ALICE)).message()
    text = embed_text(german)
    assert all(spell.name in text for spell in spellbook().values())
    assert "Grün" in text and "Violett" in text
    english = await (await fake.slash("felsenfeuer buch", {}, user=ALICE, locale="en-US")).message()
    assert "Green" in embed_text(english) and f"{len(spellbook())} spells" in embed_text(english)


async def test_forged_clicks_get_a_friendly_answer_and_change_nothing(
    fake: FakeDiscord, bot: Any
) -> None:
    started = await (await fake.slash("felsenfeuer start", {}, user=ALICE)).message()
    game_id = game_of(started)
    found = await open_decision(fake, bot, game_id, 0)  # once the bot chose its Auswahl
    assert found is not None
    board, _opener = found
    before = await GameService(bot.store).get(game_id)
    logged = await bot.store.game_actions(game_id)
    forged_ids = [
        f"felsen:{game_id}:auswahl0:p:#99",
        f"felsen:{game_id}:auswahl0:p:auswahl.gruen9",
        f"felsen:{game_id}:auswahl1:o",  # the bot's decision
        f"felsen:{game_id}:zz:o",
        f"felsen:{game_id}:0:r",
        "felsen:x:0:p",
    ]
    for forged in forged_ids:
        message = copy.deepcopy(board)
        message.components[0]["components"][0]["custom_id"] = forged
        reply = await (await fake.click(message, forged, user=ALICE)).callback()
        assert_ephemeral(reply)
        assert reply.content and "felsen:" not in reply.content, forged
    after = await GameService(bot.store).get(game_id)
    assert after.revision == before.revision
    assert await bot.store.game_actions(game_id) == logged


async def test_a_decision_with_a_single_way_still_offers_it(
    fake: FakeDiscord, bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat whose decision has one legal action (the stone holder with an empty hand can
    only end the turn) got a prompt with nothing to click: the path ran on to the action."""
    started = await (await fake.slash("felsenfeuer start", {}, user=ALICE)).message()
    game_id = game_of(started)
    found = await open_decision(fake, bot, game_id, 0)
    assert found is not None
    board, opener = found
    real = FelsenfeuerEngine.legal_actions
    only = real(ENGINE, load(await GameService(bot.store).get(game_id)).state, 0)[0]

    def single(self: Any, state: Any, seat: int) -> list[Any]:
        return list(real(self, state, seat))[:1]

    monkeypatch.setattr(FelsenfeuerEngine, "legal_actions", single)
    opened = await fake.click(board, opener, user=ALICE)
    await opened.callback()
    prompt = await opened.message()
    choices = [b for b in prompt.buttons if ":p:" in b["custom_id"]]
    assert len(choices) == 1, prompt.buttons
    choice = choices[0]
    assert choice["label"].startswith("Auswahl: ")  # the whole action, to confirm
    taken = await fake.click(prompt, choice["custom_id"], user=ALICE)
    assert (await taken.callback()).type == 7
    actions = await bot.store.game_actions(game_id)
    assert (0, ENGINE.action_text(only)) in actions


# ------------------------------------------------------------- a server's own spellbook

TEMPLATE = (data_dir("felsenfeuer", "vorlage", "zauberbuch.toml")).read_text(encoding="utf-8")


async def upload(fake: FakeDiscord, body: bytes, user: str = ALICE, locale: str = "de") -> Any:
    options = {"datei": ("zauberbuch.toml", body)}
    exchange = await fake.slash(
        "felsenfeuer zauberbuch hochladen", options, user=user, locale=locale
    )
    await exchange.callback()
    return await exchange.message()


async def stored_spells(bot: Any) -> str | None:
    record = await bot.store.get_content(fake_guild_id(bot), "felsenfeuer.spells")
    return None if record is None else record.text


def fake_guild_id(bot: Any) -> int:
    return int(bot.guilds[0].id)


async def test_a_server_uploads_its_spellbook_and_its_duels_play_with_it(
    fake: FakeDiscord, bot: Any
) -> None:
    none = await (await fake.slash("felsenfeuer zauberbuch zeigen", {}, user=BOB)).callback()
    assert_ephemeral(none)
    assert none.content == t("felsenfeuercog.server.none", "de")
    template = await (await fake.slash("felsenfeuer zauberbuch vorlage", {}, user=BOB)).message()
    assert_ephemeral(template)
    assert template.attachments[0].data.decode("utf-8") == TEMPLATE
    done = await upload(fake, template.attachments[0].data)
    assert_ephemeral(done)
    assert done.content.startswith(t("felsenfeuercog.server.stored", "de", count=3))
    assert "Glutfunke" in done.content and "Quellgebet" in done.content
    assert await stored_spells(bot) == TEMPLATE
    # Everyone reads the server's spells, marked as the server's, in their language.
    shown = await (await fake.slash("felsenfeuer zauberbuch zeigen", {}, user=BOB)).message()
    assert "Glutfunke" in embed_text(shown) and f"<@{stable_user_id(ALICE)}>" in embed_text(shown)
    choices = await fake.autocomplete("felsenfeuer zauber", {"name": "lutfunk"}, user=BOB)
    assert [c["value"] for c in choices] == ["glutfunke"]
    assert choices[0]["name"] == "Glutfunke (rot 2) ◆ dieser Server"
    english = await fake.autocomplete(
        "felsenfeuer zauber", {"name": "lutfunk"}, user=BOB, locale="en-US"
    )
    assert english[0]["name"] == "Glutfunke (red 2) ◆ this server"
    spell = await (
        await fake.slash("felsenfeuer zauber", {"name": "glutfunke"}, user=BOB)
    ).message()
    assert "Greife einen beliebigen Gegner an." in embed_text(spell)
    assert t("felsenfeuercog.spell.server", "de") in embed_text(spell)
    book = await (await fake.slash("felsenfeuer buch", {}, user=BOB)).message()
    assert "Glutfunke★◆" in embed_text(book) and "Quellgebet◆" in embed_text(book)
    assert f"{len(spellbook()) + 3} Zauber" in embed_text(book)
    # A duel started here plays with the server's file; the glyph's pips say what it casts.
    started = await (await fake.slash("felsenfeuer start", {}, user=ALICE)).message()
    record = await GameService(bot.store).get(game_of(started))
    assert record.config["spells"] == TEMPLATE
    # Deleting it: new duels play with the Kompendium alone, the spell is gone from the book.
    gone = await (await fake.slash("felsenfeuer zauberbuch loeschen", {}, user=ALICE)).callback()
    assert_ephemeral(gone)
    assert gone.content == t("felsenfeuercog.server.deleted", "de")
    assert await stored_spells(bot) is None
    later = await (await fake.slash("felsenfeuer start", {}, user=BOB)).message()
    assert "spells" not in (await GameService(bot.store).get(game_of(later))).config
    assert (await GameService(bot.store).get(record.id)).config["spells"] == TEMPLATE  # kept
    missing = await (
        await fake.slash("felsenfeuer zauber", {"name": "glutfunke"}, user=BOB)
    ).callback()
    assert missing.content == t("felsenfeuercog.error.no_spell", "de", name="glutfunke")
    blank = await (await fake.slash("felsenfeuer zauberbuch vorlage", {}, user=BOB)).message()
    assert blank.attachments[0].data.decode("utf-8") == TEMPLATE
    assert blank.content == t("felsenfeuercog.server.template", "de")


async def test_a_bad_spell_file_names_its_line_in_the_readers_language_and_changes_nothing(
    fake: FakeDiscord, bot: Any
) -> None:
    await upload(fake, TEMPLATE.encode())
    typo = TEMPLATE.replace('do = "attack"', 'do = "atack"').encode()
    line = next(n for n, text in enumerate(typo.decode().splitlines(), 1) if "atack" in text)
    german = await upload(fake, typo)
    assert_ephemeral(german)
    assert f"in Zeile {line}: Glutfunke: step 1: unknown verb 'atack'" in german.content
    english = await upload(fake, typo, locale="en-US")
    assert f"in line {line}: Glutfunke" in english.content
    failing = TEMPLATE.replace('"essence.0" = 12', '"essence.0" = 2').encode()
    wrong = await upload(fake, failing)
    assert "Quellgebet: essence.0 is 12, expected 2" in wrong.content
    binary = await upload(fake, b"\xff\xfe\x00garbage")
    assert binary.content == t("felsenfeuercog.error.not_text", "de")
    empty = await upload(fake, b"# nichts\n")
    assert "no [[spell]]" in empty.content
    huge = await upload(fake, TEMPLATE.encode() + b"#" * 130_000)
    assert huge.content == t("felsenfeuercog.error.file_too_big", "de", max=128)
    assert await stored_spells(bot) == TEMPLATE  # every refusal left the good file in place


async def test_only_server_managers_or_the_owner_change_the_spellbook(
    fake: FakeDiscord, bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.sandbox.fake_discord.model as fake_module

    real = fake_module._member_payload

    def without_rights(user: Any, **kwargs: Any) -> dict[str, Any]:
        member = real(user, **kwargs)
        if user.name in (BOB, "owner"):
            member["permissions"] = str(1 << 11)  # send messages, no Manage Server
        return member

    monkeypatch.setattr(fake_module, "_member_payload", without_rights)
    refused = await upload(fake, TEMPLATE.encode(), user=BOB)
    assert_ephemeral(refused)
    assert refused.content == t("felsenfeuercog.error.not_manager", "de")
    wiped = await (await fake.slash("felsenfeuer zauberbuch loeschen", {}, user=BOB)).callback()
    assert wiped.content == t("felsenfeuercog.error.not_manager", "de")
    assert await stored_spells(bot) is None
    owner = await upload(fake, TEMPLATE.encode(), user="owner")
    assert owner.content.startswith(t("felsenfeuercog.server.stored", "de", count=3))
    dm = fake.dm_channel(ALICE)
    private = await (
        await fake.slash("felsenfeuer zauberbuch loeschen", {}, user=ALICE, channel=dm.id)
    ).callback()
    assert private.content == t("felsenfeuercog.error.server_only", "de")
    assert await stored_spells(bot) == TEMPLATE


# ------------------------------------------------------------- more seats, teams and modes


async def play_alice(
    fake: FakeDiscord, bot: Any, game_id: int, decisions: int, seed: int, locale: str = "de"
) -> list[str]:
    """Alice opens and clicks ``decisions`` of her decisions (a seeded random player) while
    the bots answer theirs; the prompts she read."""
    rng = random.Random(seed)
    prompts: list[str] = []
    for _decision in range(decisions):
        found = await open_decision(fake, bot, game_id, 0)
        if found is None:
            break
        board, opener = found
        assert_png_attachment(board)
        assert_components_valid(board)
        opened = await fake.click(board, opener, user=ALICE, locale=locale)
        assert_ephemeral(await opened.callback())
        prompts += await click_through(fake, await opened.message(), ALICE, rng, locale)
    return prompts


async def test_a_team_duel_of_four_is_clicked_through_its_spell_phases(
    fake: FakeDiscord, bot: Any
) -> None:
    DESCRIBED.clear()
    options = {"bots": 3, "teams": "0,1,0,1", "bot": "normal"}
    board = await (await fake.slash("felsenfeuer start", options, user=ALICE)).message()
    game_id = game_of(board)
    record = await GameService(bot.store).get(game_id)
    assert record.config["teams"] == [0, 1, 0, 1]
    assert record.players == [stable_user_id(ALICE)] + [BOT_ID] * 3
    prompts = await play_alice(fake, bot, game_id, 20, seed=4)
    actions = await bot.store.game_actions(game_id)
    assert {seat for seat, _ in actions} == {0, 1, 2, 3}  # every seat answered its decisions
    assert any(text.startswith("lege ") for seat, text in actions if seat == 0)
    said = "\n".join(message.text for message in fake.channel_messages())
    # The three bots are told apart by their seat, everywhere they are named.
    assert "Spielleiter (normal) 2" in said and "Spielleiter (normal) 4" in said
    assert "🟨 4" in said  # seat 4's icon is the yellow of its band in the image
    bots = "Spielleiter (normal)"
    sides = f"Teams: 1 = Alice, {bots} 3 · 2 = {bots} 2, {bots} 4"
    assert sides in said  # who plays with whom, on the board
    assert ever_shown(fake, "Zauberphase, Initiative bei")  # a round of passes was played
    assert prompts
    # A glyph is laid with one pick of rune and pips; each option says which spells that
    # glyph casts (adept rules: the star spells).
    pips = [(label, about) for label, about in DESCRIBED if label.startswith("Glyphe ")]
    assert pips
    stars = {s.name for s in spellbook().values() if s.star}
    none = t("felsenfeuercog.pips.no_spell", "de")
    for _label, about in pips:
        assert about == none or set(about.rstrip("…").split(", ")) <= stars, about
    match = load(await GameService(bot.store).get(game_id))
    assert match.state.settings.teams == (0, 1, 0, 1)


async def test_a_pentagramm_of_five_is_clicked_in_english(fake: FakeDiscord, bot: Any) -> None:
    options = {"bots": 4, "modus": "pentagramm", "regeln": "magister"}
    board = await (
        await fake.slash("felsenfeuer start", options, user=ALICE, locale="en-US")
    ).message()
    game_id = game_of(board)
    record = await GameService(bot.store).get(game_id)
    assert record.config["mode"] == "pentagramm" and len(record.players) == 5
    prompts = await play_alice(fake, bot, game_id, 9, seed=8, locale="en-US")
    assert any("a common split, or your own in the menu below" in p for p in prompts)
    assert not any("Wähle" in p or "welche" in p for p in prompts)
    actions = await bot.store.game_actions(game_id)
    assert {seat for seat, _ in actions} == {0, 1, 2, 3, 4}
    assert [seat for seat, text in actions if text.startswith("essenz ")].count(0) >= 2


async def test_the_drafting_player_sees_the_dice_left_in_the_middle(
    fake: FakeDiscord, bot: Any
) -> None:
    """Play-test: in the Würfeldraft the prompt only asked for a colour. The drafting player's
    private prompt says what is still in the middle, and each colour's button how many."""
    options = {"bot": "random", "auswahl": "draft", "startspieler": 2}
    started = await (await fake.slash("felsenfeuer start", options, user=ALICE)).message()
    found = await open_decision(fake, bot, game_of(started), 0)  # the bot drafted first
    assert found is not None
    board, wanted = found
    answer = await fake.click(board, wanted, user=ALICE)
    await answer.callback()
    prompt = await answer.message()
    taken = next(d.colour for d in load(await bot.store.get_game(game_of(started))).state.dice)
    assert "In der Mitte: " in prompt.content and "(39 Würfel)." in prompt.content
    labels = [str(b.get("label")) for b in prompt.buttons]
    for colour in ("Grün", "Grau", "Rot", "Schwarz", "Violett"):
        left = 7 if colour.lower().replace("ü", "ue") == taken else 8
        assert f"{colour} (noch {left})" in labels, labels


async def test_the_duel_options_of_teil_3_are_options_of_start(fake: FakeDiscord, bot: Any) -> None:
    """The Würfeldraft, the start player, Weltentor's floating runes, the scenario of random
    runes and the house event Erdbeben: chosen at the start, kept in the duel's config, said in
    the duel list; a start seat the duel does not have is refused and starts nothing."""
    options = {"bot": "random", "auswahl": "draft", "startspieler": 2, "weltentor": True,
               "zufallsrunen": "glyphen", "erdbeben": True}  # fmt: skip
    started = await (await fake.slash("felsenfeuer start", options, user=ALICE)).message()
    assert await open_decision(fake, bot, game_of(started), 0) is not None  # the bot drafted
    record = await GameService(bot.store).get(game_of(started))
    for key, value in {"auswahl": "draft", "start": 1, "weltentor": True,
                       "wuerfeln": "glyphen", "erdbeben": True}.items():  # fmt: skip
        assert record.config[key] == value, key
    match = load(record)
    assert match.state.phase == "draft" and match.state.settings.quake
    assert [d.colour for d in match.state.dice if d.owner == 1]  # the bot, seat 2, began
    assert m.decisions(ENGINE, match)[0].seat == 0
    listed = await (await fake.slash("felsenfeuer liste", {}, user=ALICE)).message()
    for key in ("choice.auswahl.draft", "setup.weltentor", "choice.roll.glyphen", "setup.quake"):
        assert t(f"felsenfeuercog.{key}", "de") in embed_text(listed) + listed.content, key
    before = await bot.store.game_actions(record.id)
    refused = await (
        await fake.slash("felsenfeuer start", {"startspieler": 3}, user=BOB)
    ).callback()
    assert_ephemeral(refused)
    assert refused.content == t("felsenfeuercog.error.start", "de", seat=3, count=2)
    assert await bot.store.game_actions(record.id) == before


async def test_typed_steps_take_the_words_the_player_sees(fake: FakeDiscord, bot: Any) -> None:
    """English verbs and colour names, German ones with or without umlauts: the notation;
    a step the game refuses says why and what may be played now."""
    # Alice begins (without startspieler the start seat is drawn by lot, and the bot's turn
    # first would refuse her typed Auswahl)
    options = {"bot": "random", "startspieler": 1}
    board = await (await fake.slash("felsenfeuer start", options, user=ALICE)).message()
    game_id = game_of(board)
    # the bot makes its sealed Auswahl at the same time: a typed step read before the bot's
    # write and written after it is stale, so Alice types once the bot is done
    await settled(fake, bot, game_id)
    typed = await fake.slash("felsenfeuer zug", {"notation": "Selection 2-2-2-1-1"}, user=ALICE)
    assert_ephemeral(await typed.callback())
    assert (0, "auswahl 2-2-2-1-1") in await bot.store.game_actions(game_id)
    found = await open_decision(fake, bot, game_id, 0)
    assert found is not None
    record = await GameService(bot.store).get(game_id)
    legal = ENGINE.legal_actions(load(record).state, 0)
    greens = [a for a in legal if a.verb == "essenz" and a.args == ("gruen",)]
    refused = await (
        await fake.slash("felsenfeuer zug", {"notation": "essence orange"}, user=ALICE)
    ).callback()
    assert_ephemeral(refused)
    assert "Möglich sind jetzt: `essenz " in (refused.content or "")
    if greens:  # green is among Alice's essences: typed as she reads it, with its umlaut
        chosen = await fake.slash("felsenfeuer zug", {"notation": "essenz Grün"}, user=ALICE)
        assert_ephemeral(await chosen.callback())
        assert (0, "essenz gruen") in await bot.store.game_actions(game_id)


async def test_any_auswahl_is_one_custom_select_and_a_wrong_one_says_why(
    fake: FakeDiscord, bot: Any
) -> None:
    """Beside the common splits one multi-select names any split: a colour counts the dice
    ticked of it (without a cap up to 8 of a colour: four single dice and a bundle of four
    per colour, 25 options). Ticks that are not 8 dice are refused privately, in the
    clicker's language, and change nothing; then the right ticks are the Auswahl."""
    options = {"bot": "random", "startspieler": 1}  # the start seat is drawn by lot
    board = await (await fake.slash("felsenfeuer start", options, user=ALICE)).message()
    game_id = game_of(board)
    found = await open_decision(fake, bot, game_id, 0)
    assert found is not None
    board, opener = found
    opened = await fake.click(board, opener, user=ALICE)
    await opened.callback()
    prompt = await opened.message()
    assert_components_valid(prompt)
    custom = [s for s in prompt.selects if s["custom_id"].endswith(":a")]
    assert len(custom) == 1
    menu = custom[0]
    assert len(menu["options"]) == 25
    assert (menu["min_values"], menu["max_values"]) == (2, 8)
    labels = [o["label"] for o in menu["options"]]
    assert labels[:5] == ["Grün ①", "Grün ②", "Grün ③", "Grün ④", "Grün ×4"]
    commons = [s for s in prompt.selects if ":p:" in s["custom_id"]]
    assert len(commons) == 1 and all(o["value"].startswith("=") for o in commons[0]["options"])
    before = await bot.store.game_actions(game_id)
    for ticks, locale, said in (
        (["Grün ①", "Rot ×4"], "de", "genau 8 Würfel; angekreuzt hast du 5"),
        (["Grün ①", "Rot ×4", "Rot ①", "Rot ②", "Grau ①", "Grau ②"], "en-US", "you ticked 9"),
    ):
        refused = await (
            await fake.select(prompt, menu["custom_id"], ticks, user=ALICE, locale=locale)
        ).callback()
        assert_ephemeral(refused)
        assert said in (refused.content or ""), refused.content
    assert await bot.store.game_actions(game_id) == before
    # 3 grün, 0 grau, 5 rot (four and one), 0 schwarz, 0 violett: no common split
    ticks = ["Grün ①", "Grün ②", "Grün ③", "Rot ×4", "Rot ①"]
    taken = await fake.select(prompt, menu["custom_id"], ticks, user=ALICE)
    assert (await taken.callback()).type == 7
    assert (0, "auswahl 3-0-5-0-0") in await bot.store.game_actions(game_id)


def test_the_custom_auswahl_respects_the_cap_of_a_physical_supply() -> None:
    """With the setting ``cap`` (each seat its share of a colour) every slot is one die and
    exactly 8 are ticked; more of a colour than the share is refused with the reason."""
    from bot.play.specs.felsenfeuer import auswahl_of_slots, custom_auswahl
    from engines.core import BadInput

    state = ENGINE.initial_state({"cap": True, "start": 0}, 1, 2)
    menu = custom_auswahl(state)
    assert menu is not None and menu.exact and menu.cap == 4
    assert (menu.min_values, menu.max_values, len(menu.slots)) == (8, 8, 20)
    code = auswahl_of_slots(menu, ["gruen.1", "gruen.2", "rot.1", "rot.2", "rot.3", "rot.4",
                                   "violett.3", "schwarz.1"])  # fmt: skip
    assert code == "auswahl 2-0-4-1-1"
    assert code in {ENGINE.action_text(a) for a in ENGINE.legal_actions(state, 0)}
    open_ = custom_auswahl(ENGINE.initial_state({"start": 0}, 1, 2))
    assert open_ is not None and not open_.exact
    with pytest.raises(BadInput) as refused:  # 6 red without the cap is fine, with it not
        auswahl_of_slots(menu, ["rot.1", "rot.2", "rot.3", "rot.4", "rot.4", "gruen.1"])
    assert refused.value.key == "play.error.bad_choice"  # a slot twice: a forged pick
    six = ["rot.x4", "rot.1", "rot.2", "gruen.1", "grau.1"]
    assert auswahl_of_slots(open_, six) == "auswahl 1-1-6-0-0"
    forged = menu.__class__(open_.slots, menu.size, menu.cap, False)
    with pytest.raises(BadInput) as refused:
        auswahl_of_slots(forged, six)
    assert refused.value.key == "felsenfeuercog.error.auswahl_cap"


def test_the_words_of_both_languages_read_as_notation() -> None:
    from bot.play.specs.felsenfeuer import SPEC

    assert SPEC.read_typed("place green 2 m0") == "lege gruen 2 m0"
    assert SPEC.read_typed("Lege Grün 2 m0") == SPEC.read_typed("lege gruen 2 m0")
    assert SPEC.read_typed("essence purple") == "essenz violett"
    assert SPEC.read_typed("end") == "ende"
    assert SPEC.read_typed("!resign") == "!resign"
