"""``/armageddon`` through the fake Discord: a game master sets up a shipped scenario by
clicking (a colour, a figure from the reserve, the start), two invited players play rounds by
clicking fields (their capacity shown) and by typing steps and whole paths, the game master
overrules with a note that reaches the narration and the export, and a bad scenario upload,
an old button, a player out of turn and an English reader are each answered properly."""

from __future__ import annotations

import asyncio
import copy
import json
import re
from typing import Any

import pytest

from bot.games import GameService, load
from bot.i18n import t
from bot.sandbox.fake_discord import FakeDiscord, StoredMessage, stable_user_id
from engines.armageddon import ENGINE
from engines.core import match as m
from tests.harness import (
    assert_components_valid,
    assert_ephemeral,
    assert_png_attachment,
    assert_public,
    embed_text,
    live_board_of,
)

GRETA, ALICE, BOB, DAVE = "greta", "alice", "bob", "dave"
EN = "en-US"


def game_of(message: StoredMessage) -> int:
    found = re.search(r"Armageddon #(\d+)", embed_text(message) + message.content)
    return int(found.group(1)) if found else int(message.custom_ids[0].split(":")[1])


def button_for(message: StoredMessage, label: str) -> str:
    for button in message.buttons:
        if label in str(button.get("label")):
            return str(button["custom_id"])
    raise AssertionError(f"no button {label!r} among {[b.get('label') for b in message.buttons]}")


async def started_game(fake: FakeDiscord, bot: Any) -> tuple[int, StoredMessage]:
    """Greta leads the skirmish; Alice (party 1) and Bob (party 2, English) accept."""
    options = {"szenario": "scharmuetzel", "partei1": ALICE, "partei2": BOB}
    invitation = await (await fake.slash("armageddon start", options, user=GRETA)).message()
    assert_public(invitation)
    assert_components_valid(invitation)
    assert f"<@{stable_user_id(ALICE)}>" in invitation.content
    for user, locale in ((ALICE, "de"), (BOB, EN)):
        accept = t("play.button.accept", "de")
        cid = button_for(invitation, accept)
        answer = await fake.click(invitation, cid, user=user, locale=locale)
        assert (await answer.callback()).type == (7 if user == ALICE else 6)  # 6: it starts
        invitation = await answer.message()
    board = invitation
    game_id = game_of(board)
    record = await GameService(bot.store).get(game_id)
    assert record.status == "active"
    assert record.players == [stable_user_id(u) for u in (GRETA, ALICE, BOB)]
    return game_id, board


async def live_board(fake: FakeDiscord, bot: Any, game_id: int) -> StoredMessage:
    """The game's live board once it shows the stored revision (a step from a private prompt
    posts the new board just after the prompt's answer)."""
    record = await bot.store.get_game(game_id)
    ids = {d.id for d in m.decisions(ENGINE, load(record))}

    async def current() -> StoredMessage | None:
        now = await bot.store.get_game(game_id)
        board = fake.messages.get(now.display.get("board"))
        if board is None or board.loading:
            return None
        opens = {cid.split(":")[2] for cid in board.custom_ids if cid.endswith(":o")}
        return board if opens == ids or record.status != "active" else None

    for _attempt in range(200):
        found = await current()
        if found is not None:
            return found
        await asyncio.sleep(0.02)
    raise AssertionError("the live board never showed the game as it stands")


async def open_prompt(
    fake: FakeDiscord, bot: Any, game_id: int, user: str, locale: str = "de"
) -> StoredMessage:
    """The user's private prompt, opened from the live board."""
    record = await bot.store.get_game(game_id)
    seat = record.players.index(stable_user_id(user))
    decision = next(d for d in m.decisions(ENGINE, load(record)) if d.seat == seat)
    board = await live_board(fake, bot, game_id)
    opener = f"armag:{game_id}:{decision.id}:o"
    assert opener in board.custom_ids, board.custom_ids
    opened = await fake.click(board, opener, user=user, locale=locale)
    assert_ephemeral(await opened.callback())
    prompt = await opened.message()
    assert_components_valid(prompt)
    return prompt


def choice(prompt: StoredMessage, label: str) -> tuple[str, str | None]:
    """The custom id (and select value) of the option labelled ``label`` (its start)."""
    for button in prompt.buttons:
        if str(button.get("label", "")).startswith(label):
            return str(button["custom_id"]), None
    for select in prompt.selects:
        for option in select["options"]:
            if str(option["label"]).startswith(label):
                return str(select["custom_id"]), str(option["value"])
    shown = [b.get("label") for b in prompt.buttons]
    shown += [o["label"] for s in prompt.selects for o in s["options"]]
    raise AssertionError(f"no option {label!r} among {shown}")


async def click(
    fake: FakeDiscord, prompt: StoredMessage, label: str, user: str, locale: str = "de"
) -> StoredMessage:
    cid, value = choice(prompt, label)
    if value is None:
        answer = await fake.click(prompt, cid, user=user, locale=locale)
    else:
        answer = await fake.select(prompt, cid, [value], user=user, locale=locale)
    reply = await answer.callback()
    assert reply.type == 7, reply.content
    return await answer.message()


async def test_a_game_master_sets_up_and_two_players_play_by_clicking_and_typing(
    fake: FakeDiscord, bot: Any
) -> None:
    game_id, board = await started_game(fake, bot)
    assert_png_attachment(board)
    # the board speaks the game's language (Greta's, its host), though Bob (English) accepted
    assert "Runde 1/6 · Aufbau" in embed_text(board)
    # The game master clicks the set-up: a party's colour in one click, a warrior from the
    # reserve (party, then kind and field in one pick), the start.
    prompt = await open_prompt(fake, bot, game_id, GRETA)
    labels = [o["label"] for s in prompt.selects for o in s["options"]]
    labels += [str(b.get("label")) for b in prompt.buttons]
    colour = next(x for x in labels if "(Partei 1)" in x and x.endswith("gelb"))
    prompt = await click(fake, prompt, colour, GRETA)
    assert prompt.content.startswith(t("play.done", "de"))  # and the set-up prompt goes on
    prompt = await click(fake, prompt, "Figur setzen", GRETA)
    prompt = await click(fake, prompt, "🟨 Alice", GRETA)
    placed = [o["label"] for s in prompt.selects for o in s["options"]]
    assert "Krieger" in prompt.content  # the only kind in the reserve: chosen at once
    assert "REH" in str(placed)
    prompt = await click(fake, prompt, next(x for x in placed if "c1 ·" in x), GRETA)
    prompt = await click(fake, prompt, "Spiel beginnen", GRETA)
    assert "Figur entfernen" in str(prompt.buttons)  # set up: Greta may overrule from now on
    actions = [text for _seat, text in await bot.store.game_actions(game_id)]
    assert actions[-3:] == ["colour 1 gelb", actions[-2], "start"]
    assert re.fullmatch(r"place 1 krieger c1", actions[-2])
    board = await live_board(fake, bot, game_id)
    assert_png_attachment(board)
    text = embed_text(board)
    assert "Runde 1/6 · Bewegungsphase" in text and "Alice" in text
    assert f"<@{stable_user_id(GRETA)}>" not in board.content  # the overrule is never awaited
    # Alice clicks a step: figure and field in one pick, each field with its room shown.
    prompt = await open_prompt(fake, bot, game_id, ALICE)
    prompt = await click(fake, prompt, "Schritt", ALICE)
    steps = [o["label"] for s in prompt.selects for o in s["options"]]
    fields = [label for label in steps if label.startswith("Krieger k1 (a2): ")]
    assert fields and all(re.search(r"\d/\d REH", label) for label in fields), steps
    old = copy.deepcopy(prompt)
    prompt = await click(fake, prompt, "Krieger k1 (a2): b2", ALICE)
    assert prompt.content.startswith(t("play.done", "de"))
    assert "step k1 b2" in [text for _s, text in await bot.store.game_actions(game_id)]
    board = await live_board(fake, bot, game_id)
    assert "k1 a2 → b2" in embed_text(board)
    # A click on the old prompt's button is refused and changes nothing.
    record = await bot.store.get_game(game_id)
    cid, value = choice(old, "Krieger k1 (a2): b1")
    stale = await (await fake.select(old, cid, [value or ""], user=ALICE)).callback()
    assert_ephemeral(stale)
    assert stale.content == t("error.stale", "de")
    assert (await bot.store.get_game(game_id)).revision == record.revision
    # Bob may neither type nor click while it is Alice's turn.
    out = await (await fake.slash("armageddon zug", {"notation": "end"}, user=BOB)).callback()
    assert_ephemeral(out)
    assert out.content == t("play.error.not_your_turn", "de")
    decision = next(d for d in m.decisions(ENGINE, load(record)) if d.seat == 1)
    wrong = await (
        await fake.click(board, f"armag:{game_id}:{decision.id}:o", user=BOB, locale=EN)
    ).callback()
    assert_ephemeral(wrong)
    assert wrong.content == t("play.error.not_your_turn", "en")
    assert (await bot.store.get_game(game_id)).revision == record.revision
    # Alice types a whole path, offered by the autocomplete, and ends her movement.
    paths = await fake.autocomplete("armageddon weg", {"pfad": "k2 "}, user=ALICE)
    assert paths and all(p["value"].startswith("k2 ") for p in paths)
    further = {"pfad": paths[0]["value"] + " "}
    longer = await fake.autocomplete("armageddon weg", further, user=ALICE)
    path = (longer or paths)[0]["value"]
    walked = await fake.slash("armageddon weg", {"pfad": path}, user=ALICE)
    assert_ephemeral(await walked.callback())
    moved = await live_board(fake, bot, game_id)
    assert_png_attachment(moved)
    fields = path.split()[1:]
    logged = [text for _s, text in await bot.store.game_actions(game_id)]
    assert logged[-len(fields) :] == [f"step k2 {f}" for f in fields]
    wrong_path = await (
        await fake.slash("armageddon weg", {"pfad": "k2 h6 h5"}, user=ALICE)
    ).callback()
    assert_ephemeral(wrong_path)
    assert (await bot.store.game_actions(game_id))[-1][1] == logged[-1]  # nothing applied
    await (await fake.slash("armageddon zug", {"notation": "end"}, user=ALICE)).callback()
    assert "Bob" in embed_text(await live_board(fake, bot, game_id))
    # Bob plays in English: his prompt, and the board after his step.
    prompt = await open_prompt(fake, bot, game_id, BOB, EN)
    assert "movement phase" in prompt.content
    prompt = await click(fake, prompt, "Step", BOB, EN)
    steps = [o["label"] for s in prompt.selects for o in s["options"]]
    target = next(label for label in steps if label.startswith("Warrior k12") and "room" in label)
    prompt = await click(fake, prompt, target, BOB, EN)
    board = await live_board(fake, bot, game_id)
    assert "Runde 1/6 · Bewegungsphase" in embed_text(board)  # the game's language still
    assert "k12" in embed_text(board)
    prompt = await click(fake, prompt, "End movement", BOB, EN)
    assert not prompt.components
    # The action phase: both end their actions, round 2 begins.
    for user in (ALICE, BOB):
        await (await fake.slash("armageddon zug", {"notation": "done"}, user=user)).message()
    record = await bot.store.get_game(game_id)
    state = load(record).state
    assert (state.round, state.phase, state.active) == (2, "move", state.active)
    board = await live_board(fake, bot, game_id)
    assert "Runde 2/6 · Bewegungsphase" in embed_text(board)
    # Round 2 typed through: each party in the order of the round, then round 3.
    for _turn in range(4):
        state = load(await bot.store.get_game(game_id)).state
        user = (ALICE, BOB)[state.active - 1]
        step = "end" if state.phase == "move" else "done"
        await (await fake.slash("armageddon zug", {"notation": step}, user=user)).message()
    state = load(await bot.store.get_game(game_id)).state
    assert (state.round, state.phase) == (3, "move")


async def test_the_game_master_overrules_with_a_note_in_the_narration_and_export(
    fake: FakeDiscord, bot: Any
) -> None:
    game_id, _board = await started_game(fake, bot)
    await (await fake.slash("armageddon zug", {"notation": "start"}, user=GRETA)).message()
    typed = {"aktion": "remove k1"}
    offered = await fake.autocomplete("armageddon ueberstimmen", typed, user=GRETA)
    assert "gm remove k1" in [c["value"] for c in offered]
    refused = await (
        await fake.slash(
            "armageddon ueberstimmen", {"aktion": "gm remove k1", "notiz": "x"}, user=ALICE
        )
    ).callback()
    assert_ephemeral(refused)
    assert refused.content == t("armageddoncog.error.gm_only", "de")
    note = "vom Pfeil getroffen"
    overruled = await fake.slash(
        "armageddon ueberstimmen", {"aktion": "gm remove k1", "notiz": note}, user=GRETA
    )
    assert_ephemeral(await overruled.callback())
    shown = await live_board_of(fake, bot, game_id, lambda msg: note in embed_text(msg))
    text = embed_text(shown)
    assert note in text and "📝" in text
    assert "k1" in text
    assert all(f.id != "k1" for f in load(await bot.store.get_game(game_id)).state.figures)
    exported = await (await fake.slash("armageddon export", {}, user=GRETA)).callback()
    assert_ephemeral(exported)
    (attachment,) = exported.files
    data = json.loads(attachment.data)
    assert {"action": "gm remove k1", "note": note} in data["gm_notes"]
    assert any(note in str(entry) for entry in data["actions"])


async def test_a_bad_scenario_upload_is_refused_with_its_line_and_creates_nothing(
    fake: FakeDiscord, bot: Any
) -> None:
    bad = "name: Kaputt\nparteien: 2\nkarte:\nT T\n T X\nende\n"
    options = {"datei": ("kaputt.txt", bad.encode()), "partei1": ALICE, "partei2": BOB}
    reply = await (await fake.slash("armageddon start", options, user=GRETA)).callback()
    assert_ephemeral(reply)
    assert "kaputt.txt" in reply.content and "Zeile 5" in reply.content
    english = await (
        await fake.slash("armageddon start", options, user=GRETA, locale=EN)
    ).callback()
    assert "line 5" in english.content
    binary = {"datei": ("bild.txt", b"\xff\xfe\x00"), "partei1": ALICE, "partei2": BOB}
    unreadable = await (await fake.slash("armageddon start", binary, user=GRETA)).callback()
    assert_ephemeral(unreadable)
    assert unreadable.content == t("armageddoncog.error.not_text", "de", file="bild.txt")
    assert await bot.store.games_in_channel(fake.channel().id, kind="armageddon") == []
    # A good file starts a game with its own text.
    good = bad.replace(" T X", " T T") + "figur: 1 krieger a1\nfigur: 2 krieger b2\n"
    options["datei"] = ("meins.txt", good.encode())
    invitation = await (await fake.slash("armageddon start", options, user=GRETA)).message()
    record = await GameService(bot.store).get(game_of(invitation))
    assert record.config["file"] == "meins.txt" and "Kaputt" in record.config["scenario_text"]
    alone = {"szenario": "scharmuetzel", "partei1": ALICE}
    one = await (await fake.slash("armageddon start", alone, user=GRETA)).callback()
    assert_ephemeral(one)
    assert "2" in one.content and "Scharmützel" in one.content
    for party2, key in ((ALICE, "self_challenge"), (GRETA, "self_challenge")):
        twice = {"szenario": "scharmuetzel", "partei1": ALICE, "partei2": party2}
        refused = await (await fake.slash("armageddon start", twice, user=GRETA)).callback()
        assert refused.content == t(f"armageddoncog.error.{key}", "de")
    bot_seat = {"szenario": "scharmuetzel", "partei1": ALICE, "partei2": fake.bot_user}
    refused = await (await fake.slash("armageddon start", bot_seat, user=GRETA)).callback()
    assert refused.content == t("armageddoncog.error.opponent_is_bot", "de")
    assert len(await bot.store.games_in_channel(fake.channel().id, kind="armageddon")) == 1


async def test_starting_early_without_a_party_says_which_seats_are_missing(
    fake: FakeDiscord, bot: Any
) -> None:
    """Every party of the scenario must play: the invitation offers no "Jetzt starten", and
    a start clicked anyway (an older invitation) with one of three parties still invited
    names the scenario's seats and who is missing, not the engine's words alone."""
    options = {"szenario": "flussuebergang", "partei1": ALICE, "partei2": BOB, "partei3": DAVE}
    invitation = await (await fake.slash("armageddon start", options, user=GRETA)).message()
    game_id = game_of(invitation)
    for user in (ALICE, DAVE):
        accepted = await fake.click(invitation, button_for(invitation, "Annehmen"), user=user)
        await accepted.callback()
        invitation = await accepted.message()
    labels = [b.get("label") for b in invitation.buttons]
    assert t("play.button.start_now", "de") not in labels
    decline = button_for(invitation, "Ablehnen")
    start = decline.rsplit(":", 1)[0] + ":s"  # what an older invitation's button sent
    invitation = copy.deepcopy(invitation)
    (row,) = [r for r in invitation.components if "inv:0" in str(r)]
    row["components"][0]["custom_id"] = start
    for locale, lang in (("de", "de"), (EN, "en")):
        refused = await (await fake.click(invitation, start, user=GRETA, locale=locale)).callback()
        assert_ephemeral(refused)
        reason = t("armageddon.error.seats", lang, parties=3, seats=4)
        missing = f"⚔️ 2 Bob ({t('play.seat.invited', lang)})"
        wanted = t("play.error.seats_missing", lang, id=game_id, reason=reason, missing=missing)
        assert refused.content == wanted
    assert (await bot.store.get_game(game_id)).status == "invited"


async def test_the_map_zooms_and_a_scenario_is_shown_with_its_file(
    fake: FakeDiscord, bot: Any
) -> None:
    game_id, _board = await started_game(fake, bot)
    zoomed = await (
        await fake.slash("armageddon karte", {"zentrum": "d4", "radius": 2}, user=BOB, locale=EN)
    ).message()
    assert_ephemeral(zoomed)
    image = assert_png_attachment(zoomed)
    whole = assert_png_attachment(await live_board(fake, bot, game_id))
    assert image.size != whole.size
    bad = await (await fake.slash("armageddon karte", {"bereich": "z9 a1"}, user=BOB)).callback()
    assert_ephemeral(bad)
    assert "z9 a1" in bad.content
    choices = await fake.autocomplete("armageddon szenario", {"name": "bel"}, user=ALICE)
    assert [c["value"] for c in choices] == ["belagerung"]
    shown = await (
        await fake.slash("armageddon szenario", {"name": "belagerung"}, user=ALICE, locale=EN)
    ).message()
    assert "2 parties" in embed_text(shown)
    assert {a.filename for a in shown.attachments} == {"belagerung.png", "belagerung.txt"}


MELEE = """name: Nahkampf
parteien: 2
runden: 3
karte:
T  T  T  T
 T  T  T  T
T  T  T  T
ende
handelszentrum: c3 besitzer 2
figur: 1 krieger b2
figur: 1 krieger c3
figur: 1 zauberer a1
figur: 2 krieger c2
figur: 2 pferd d3
"""


async def test_in_the_action_phase_a_player_declares_attacks_and_casts_by_clicking(
    fake: FakeDiscord, bot: Any
) -> None:
    options = {"datei": ("nahkampf.txt", MELEE.encode()), "partei1": ALICE, "partei2": BOB}
    invitation = await (await fake.slash("armageddon start", options, user=GRETA)).message()
    for user in (ALICE, BOB):
        answer = await fake.click(invitation, button_for(invitation, "Annehmen"), user=user)
        invitation = await answer.message()
    game_id = game_of(invitation)
    for user, step in ((GRETA, "start"), (ALICE, "end"), (BOB, "end")):
        await (await fake.slash("armageddon zug", {"notation": step}, user=user)).message()
    board = await live_board(fake, bot, game_id)
    assert "Handlungsphase" in embed_text(board) and "Alice" in embed_text(board)
    prompt = await open_prompt(fake, bot, game_id, ALICE)
    # the only claim (the trade centre) is named whole before it is made
    prompt = await click(fake, prompt, "Inbesitznahme", ALICE)
    assert not (await bot.store.game_actions(game_id))[-1][1].startswith("claim")
    prompt = await click(fake, prompt, "Inbesitznahme: c3", ALICE)
    assert "Handelszentrum c3" in embed_text(await live_board(fake, bot, game_id))
    prompt = await click(fake, prompt, "Angreifen: Krieger k1 (b2) · ", ALICE)  # one pick
    text = embed_text(await live_board(fake, bot, game_id))
    assert "Angriff: Krieger k1" in text and "+ Wurf" in text
    prompt = await click(fake, prompt, "Zaubern", ALICE)
    prompt = await click(fake, prompt, "Stärken", ALICE)
    prompt = await click(fake, prompt, "c3", ALICE)
    assert "zaubert Stärken auf c3" in embed_text(await live_board(fake, bot, game_id))
    logged = [text for _seat, text in await bot.store.game_actions(game_id)]
    assert logged[-3:] == ["claim c3", "attack k1 k4", "cast z3 staerken c3"]
    prompt = await click(fake, prompt, "Handlungen beenden", ALICE)
    assert not prompt.components  # Bob's turn now


async def test_the_last_round_ends_the_game_on_points_and_a_rematch_keeps_the_seats(
    fake: FakeDiscord, bot: Any
) -> None:
    options = {
        "datei": ("nahkampf.txt", MELEE.encode()),
        "partei1": ALICE,
        "partei2": BOB,
        "runden": 1,
    }
    invitation = await (await fake.slash("armageddon start", options, user=GRETA)).message()
    for user in (ALICE, BOB):
        answer = await fake.click(invitation, button_for(invitation, "Annehmen"), user=user)
        invitation = await answer.message()
    game_id = game_of(invitation)
    steps = ((GRETA, "start"), (ALICE, "end"), (BOB, "end"), (ALICE, "claim c3"))
    for user, step in (*steps, (ALICE, "done"), (BOB, "done")):
        await (await fake.slash("armageddon zug", {"notation": step}, user=user)).callback()
    over = "Die letzte Runde ist gespielt."
    last = await live_board_of(fake, bot, game_id, lambda msg: over in embed_text(msg))
    text = embed_text(last)
    assert "Die letzte Runde ist gespielt." in text
    assert "🏆" in text and "Alice" in text and "nach Punkten" in text
    assert (await bot.store.get_game(game_id)).status == "finished"
    rematch = await fake.click(last, button_for(last, t("play.button.rematch", "de")), user=ALICE)
    await rematch.callback()
    again = await rematch.followup()
    assert f"🎩 <@{stable_user_id(GRETA)}>" in (again.content or "")
    new = await bot.store.get_game(game_id + 1)
    assert new.players == [stable_user_id(u) for u in (GRETA, ALICE, BOB)]
    assert new.config["rounds"] == 1 and "Nahkampf" in new.config["scenario_text"]


async def test_a_path_the_game_master_interrupts_keeps_its_first_step_and_says_why(
    fake: FakeDiscord, bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, _board = await started_game(fake, bot)
    await (await fake.slash("armageddon zug", {"notation": "start"}, user=GRETA)).message()
    table = bot.get_cog("Armageddon").table
    real = table.games.act
    texts: list[str] = []

    async def act(game: int, user: int, text: str, *args: Any, **kwargs: Any) -> Any:
        texts.append(text)
        if len(texts) == 2:  # between the two steps the game master removes the figure
            await real(game, stable_user_id(GRETA), "gm remove k1 -- vom Pfeil getroffen")
        return await real(game, user, text, *args, **kwargs)

    monkeypatch.setattr(table.games, "act", act)
    answer = await fake.slash("armageddon weg", {"pfad": "k1 b2 b1"}, user=ALICE)
    assert_ephemeral(await answer.callback())
    board = await live_board_of(fake, bot, game_id, lambda msg: "k1 a2 → b2" in embed_text(msg))
    assert_public(board)
    stopped = await answer.followup()
    assert_ephemeral(stopped)
    assert stopped.content == t("armageddon.error.no_figure", "de", figure="k1")
    logged = [text for _seat, text in await bot.store.game_actions(game_id)]
    assert logged[-2:] == ["step k1 b2", "gm remove k1 -- vom Pfeil getroffen"]


async def test_the_game_master_referees_and_cannot_resign_or_offer_a_draw(
    fake: FakeDiscord, bot: Any
) -> None:
    """The game master plays no party: resigning or offering a draw is refused (the game
    would otherwise start or end without its referee) and nothing changes."""
    game_id, _board = await started_game(fake, bot)
    before = await GameService(bot.store).get(game_id)
    answer = await (
        await fake.slash("armageddon aufgeben", {"spiel": game_id}, user=GRETA)
    ).callback()
    assert_ephemeral(answer)
    assert answer.content == t("play.error.referee_stays", "de")
    after = await GameService(bot.store).get(game_id)
    assert (after.revision, after.status) == (before.revision, "active")


async def test_a_clicked_overrule_gets_a_note_and_the_game_master_takes_a_step_back(
    fake: FakeDiscord, bot: Any
) -> None:
    game_id, _board = await started_game(fake, bot)
    await (await fake.slash("armageddon zug", {"notation": "start"}, user=GRETA)).message()
    # the overrule as a click sends it without a note: the same action through the table
    await (await fake.slash("armageddon zug", {"notation": "gm remove k1"}, user=GRETA)).message()
    refused = await (await fake.slash("armageddon notiz", {"text": "x"}, user=ALICE)).callback()
    assert_ephemeral(refused)
    assert refused.content == t("armageddoncog.error.gm_only", "de")
    noted = await fake.slash("armageddon notiz", {"text": "vom Pfeil getroffen"}, user=GRETA)
    assert_ephemeral(await noted.callback())  # typed: answered privately, the board tells it
    line = "📝 Spielleitung überstimmt (gm remove k1): vom Pfeil getroffen"
    await live_board_of(fake, bot, game_id, lambda board: line in embed_text(board))
    state = load(await bot.store.get_game(game_id)).state
    before = state.figures
    step = next(a for a in ENGINE.legal_actions(state, 1) if a.verb == "step")
    await (
        await fake.slash("armageddon zug", {"notation": ENGINE.action_text(step)}, user=ALICE)
    ).message()
    assert load(await bot.store.get_game(game_id)).state.figures != before
    undone = await fake.slash(
        "armageddon ueberstimmen", {"aktion": "gm undo", "notiz": "falsch"}, user=GRETA
    )
    assert_ephemeral(await undone.callback())
    await live_board_of(fake, bot, game_id, lambda board: "↩️" in embed_text(board))
    assert load(await bot.store.get_game(game_id)).state.figures == before
    exported = await (await fake.slash("armageddon export", {}, user=GRETA)).callback()
    data = json.loads(exported.files[0].data)
    assert {"action": "gm remove k1", "note": "vom Pfeil getroffen"} in data["gm_notes"]
