"""The shared game table (``bot.play``) for a game that declares only its spec: the N-seat
party engine (``tests/party.py``) through a test-only cog (``tests/party_cog.py``, added by
the fixture below). Invitations for three seats, private prompts for reaction windows, a
resign that lets the others play on, exports and hands that never leak."""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

import bot.app
from bot.games import GameService, load
from bot.i18n import t
from bot.sandbox.fake_discord import BOT_ID, FakeDiscord, StoredMessage, stable_user_id
from engines.core import match as m
from tests.harness import (
    assert_components_valid,
    assert_ephemeral,
    assert_png_attachment,
    assert_public,
    live_board_of,
    running_bot,
)
from tests.party import PARTY
from tests.party_cog import SPEC

ALICE, BOB, CAROL, DAVE = "alice", "bob", "carol", "dave"


@pytest.fixture
async def party_bot(
    fake: FakeDiscord, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Any]:
    """The real bot with the party test cog added to its cogs."""
    monkeypatch.setattr(bot.app, "COGS", (*bot.app.COGS, "tests.party_cog"))
    async with running_bot(fake, settings) as client:
        await fake.wait_for_sync()
        yield client


def button_for(message: StoredMessage, label: str) -> str:
    for button in message.buttons:
        if button.get("label") == label:
            return str(button["custom_id"])
    raise AssertionError(f"no button {label!r} among {[b.get('label') for b in message.buttons]}")


def game_of(message: StoredMessage) -> int:
    return int(message.custom_ids[0].split(":")[1])


async def invite(fake: FakeDiscord, *, bot_seat: bool = False) -> StoredMessage:
    options: dict[str, Any] = {"zweiter": BOB, "dritter": CAROL}
    if bot_seat:
        options["bot"] = True
    invitation = await (await fake.slash("party start", options, user=ALICE)).message()
    assert_public(invitation)
    assert_components_valid(invitation)
    return invitation


async def accept(fake: FakeDiscord, invitation: StoredMessage, user: str, colour: str) -> Any:
    (select,) = [s for s in invitation.selects if s["custom_id"].endswith(":inv:c")]
    return await fake.select(invitation, select["custom_id"], [colour], user=user)


async def three_humans(fake: FakeDiscord) -> StoredMessage:
    """A started game of Alice, Bob and Carol: the board Alice is to act on."""
    invitation = await invite(fake)
    await (await accept(fake, invitation, BOB, "blue")).callback()
    started = await accept(fake, invitation, CAROL, "gold")
    assert (
        await started.callback()
    ).type == 6  # 6: acknowledged, the first board drawn after (issue 18)
    return await started.message()


def hands_of(record: Any) -> list[list[str]]:
    return [list(hand) for hand in load(record).state.hands]


async def live_board(fake: FakeDiscord, bot: Any, game_id: int, decision: str) -> StoredMessage:
    """The game's live board once it offers ``decision`` (an engine decision id)."""
    for _attempt in range(200):
        record = await bot.store.get_game(game_id)
        board = record.display.get("board") if record is not None else None
        message = fake.messages.get(board) if board is not None else None
        if message is not None and f"party:{game_id}:{decision}:o" in message.custom_ids:
            return message
        await asyncio.sleep(0.025)
    raise AssertionError("no new board was posted")


async def decide(fake: FakeDiscord, board: StoredMessage, user: str, name: str) -> StoredMessage:
    """``user`` opens their decision privately; returns the ephemeral prompt."""
    opened = await fake.click(board, button_for(board, f"{name}: entscheiden"), user=user)
    reply = await opened.callback()
    assert_ephemeral(reply)
    prompt = await opened.message()
    assert_components_valid(prompt)
    return prompt


async def test_three_seats_one_decline_and_a_bot_fill(fake: FakeDiscord, party_bot: Any) -> None:
    invitation = await invite(fake)
    game_id = game_of(invitation)
    assert f"<@{stable_user_id(BOB)}>" in invitation.content
    assert f"<@{stable_user_id(CAROL)}>" in invitation.content
    # Bob accepts with his colour; the invitation says so and still waits for Carol.
    answered = await accept(fake, invitation, BOB, "blue")
    assert (await answered.callback()).type == 7
    assert t("play.seat.accepted", "de") in invitation.content
    assert "(Blau)" in invitation.content
    # A stranger cannot answer; Carol declines: her seat is open for a bot or someone else.
    stranger = await (await fake.click(invitation, 1, user=DAVE)).callback()
    assert_ephemeral(stranger)
    assert stranger.content == t("error.not_invited", "de")
    declined = await fake.click(invitation, button_for(invitation, "Ablehnen"), user=CAROL)
    assert (await declined.callback()).type == 7
    assert t("play.seat.declined", "de") in invitation.content
    fill = button_for(invitation, t("play.button.fill_bot", "de", seat=SPEC.seat_label(2)))
    assert any(s["custom_id"].endswith(":inv:u:2") for s in invitation.selects)  # re-invite
    # Only the host fills a seat.
    not_host = await (await fake.click(invitation, fill, user=BOB)).callback()
    assert_ephemeral(not_host)
    assert not_host.content == t("error.not_host", "de")
    filled = await fake.click(invitation, fill, user=ALICE)
    assert (await filled.callback()).type == 6  # acknowledged, then the board is drawn
    board = await filled.message()  # every seat ready: the invitation became the board
    assert_png_attachment(board)
    assert_components_valid(board)
    record = await GameService(party_bot.store).get(game_id)
    assert record.status == "active"
    assert record.players == [stable_user_id(ALICE), stable_user_id(BOB), BOT_ID]
    assert record.config["ai_levels"] == {"2": "random"}
    assert record.config["seat_choices"] == [None, "blue", None]
    assert f"<@{stable_user_id(ALICE)}>" in board.content  # Alice begins


async def test_a_declined_seat_can_be_reinvited(fake: FakeDiscord, party_bot: Any) -> None:
    invitation = await invite(fake)
    await (await fake.click(invitation, button_for(invitation, "Ablehnen"), user=CAROL)).callback()
    (again,) = [s for s in invitation.selects if s["custom_id"].endswith(":inv:u:2")]
    await (await fake.select(invitation, again["custom_id"], [DAVE], user=ALICE)).callback()
    assert f"<@{stable_user_id(DAVE)}>" in invitation.content
    await (await accept(fake, invitation, DAVE, "green")).callback()
    await (await accept(fake, invitation, BOB, "red")).callback()
    record = await GameService(party_bot.store).get(game_of(invitation))
    assert record.status == "active"
    assert record.players[2] == stable_user_id(DAVE)


async def test_a_reaction_window_is_answered_in_either_order(
    fake: FakeDiscord, party_bot: Any
) -> None:
    board = await three_humans(fake)
    game_id = game_of(board)
    service = GameService(party_bot.store)
    hands = hands_of(await service.get(game_id))
    # Bob may not open Alice's turn.
    wrong = await (
        await fake.click(board, button_for(board, "Alice: entscheiden"), user=BOB)
    ).callback()
    assert_ephemeral(wrong)
    # Alice plays a card through her private prompt (it shows her hand only).
    prompt = await decide(fake, board, ALICE, "Alice")
    assert all(card in prompt.content for card in hands[0])
    assert not any(card in prompt.content for card in hands[1] + hands[2])
    played = await fake.click(prompt, button_for(prompt, hands[0][0]), user=ALICE)
    assert (await played.callback()).type == 7
    board = await fake.wait_for_message(
        lambda msg: not msg.ephemeral and "Bob: entscheiden" in str(msg.buttons)
    )
    # Both open their decision before either answers; Carol answers first, then Bob.
    bobs = await decide(fake, board, BOB, "Bob")
    carols = await decide(fake, board, CAROL, "Carol")
    limit = party_bot.settings.reaction_minutes
    assert t("play.timeout_note", "de", minutes=limit) in carols.content  # a reaction
    assert "⏱" not in prompt.content  # Alice's turn has no such limit
    kept = copy.deepcopy(carols)  # what Carol's client still shows after answering
    passed = await fake.click(carols, button_for(carols, "Passen"), user=CAROL)
    assert (await passed.callback()).type == 7
    laid = await fake.click(bobs, button_for(bobs, "Verdeckt ablegen"), user=BOB)
    assert (await laid.callback()).type == 7  # still good: Carol answered her own decision
    bobs = await laid.message()
    card = hands[1][1]
    done = await fake.click(bobs, button_for(bobs, card), user=BOB)
    reply = await done.callback()
    assert reply.type == 7
    assert f"{card} verdeckt" in (reply.content or "")  # told to Bob only
    actions = await party_bot.store.game_actions(game_id)
    assert actions == [(0, f"play {hands[0][0]}"), (2, "pass"), (1, f"add {card}")]
    # A second click on an answered decision applies nothing.
    again = await (await fake.click(kept, button_for(kept, "Passen"), user=CAROL)).callback()
    assert_ephemeral(again)  # Carol has no open decision now
    assert await party_bot.store.game_actions(game_id) == actions
    # The other order in the next window: Bob's turn, Alice answers before Carol.
    board = await live_board(fake, party_bot, game_id, "t2")  # Bob's turn
    bobs = await decide(fake, board, BOB, "Bob")
    await (await fake.click(bobs, button_for(bobs, hands[1][0]), user=BOB)).callback()
    board = await live_board(fake, party_bot, game_id, "r2.2")  # Alice and Carol react
    carols = await decide(fake, board, CAROL, "Carol")
    alices = await decide(fake, board, ALICE, "Alice")
    await (await fake.click(alices, button_for(alices, "Passen"), user=ALICE)).callback()
    await (await fake.click(carols, button_for(carols, "Passen"), user=CAROL)).callback()
    actions = await party_bot.store.game_actions(game_id)
    assert actions[3:] == [(1, f"play {hands[1][0]}"), (0, "pass"), (2, "pass")]
    # No public message ever showed a card of a hand that was not played face up.
    secret = {card, hands[0][1], hands[0][2], *hands[2]}
    public = [msg for msg in fake.channel_messages() if not msg.ephemeral]
    assert not any(c in msg.text for msg in public for c in secret)


async def test_a_click_that_acts_loads_the_game_once(
    fake: FakeDiscord, party_bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = await three_humans(fake)
    game_id = game_of(board)
    hands = hands_of(await GameService(party_bot.store).get(game_id))
    prompt = await decide(fake, board, ALICE, "Alice")
    loads = 0
    real = m.from_json

    def counting(engine: Any, data: Any) -> m.Match:
        nonlocal loads
        loads += 1
        return real(engine, data)

    monkeypatch.setattr(m, "from_json", counting)
    played = await fake.click(prompt, button_for(prompt, hands[0][0]), user=ALICE)
    assert (await played.callback()).type == 7
    await fake.wait_for_message(
        lambda msg: not msg.ephemeral and "Bob: entscheiden" in str(msg.buttons)
    )
    assert loads == 1  # the click, its step and the new board from one load
    assert await party_bot.store.game_actions(game_id) == [(0, f"play {hands[0][0]}")]


async def test_a_resign_in_three_seats_lets_the_others_go_on(
    fake: FakeDiscord, party_bot: Any
) -> None:
    board = await three_humans(fake)
    game_id = game_of(board)
    resigned = await fake.slash("party aufgeben", user=CAROL)
    assert_ephemeral(await resigned.callback())  # typed: answered privately, the board edited
    said = t("play.event.resigned", "de", name="Carol")
    final = await live_board_of(fake, party_bot, game_id, lambda msg: said in msg.text)
    assert_public(final)
    assert final.id == board.id  # the same living board
    record = await GameService(party_bot.store).get(game_id)
    match = load(record)
    assert record.status == "active" and m.outcome(PARTY, match) is None
    assert match.eliminated == (2,)
    # Alice and Bob play on; Carol is asked nothing any more.
    hands = hands_of(record)
    await (await fake.slash("party zug", {"notation": f"play {hands[0][0]}"}, user=ALICE)).message()
    record = await GameService(party_bot.store).get(game_id)
    assert m.to_act(PARTY, load(record)) == frozenset({1})
    late = await (await fake.slash("party zug", {"notation": "pass"}, user=CAROL)).callback()
    assert_ephemeral(late)


async def test_export_of_a_running_game_shows_nothing_hidden(
    fake: FakeDiscord, party_bot: Any
) -> None:
    board = await three_humans(fake)
    game_id = game_of(board)
    service = GameService(party_bot.store)
    hands = hands_of(await service.get(game_id))
    await (await fake.slash("party zug", {"notation": f"play {hands[0][0]}"}, user=ALICE)).message()
    await (await fake.slash("party zug", {"notation": f"add {hands[1][0]}"}, user=BOB)).message()
    exported = await (await fake.slash("party export", user=CAROL)).callback()
    assert_ephemeral(exported)
    (attachment,) = exported.files
    text = attachment.data.decode()
    data = json.loads(text)
    assert "seed" not in data
    assert data["actions"][1] == {"seat": 1, "action": None, "secret": True}
    for card in hands[0][1:] + hands[1]:
        assert card not in text  # Alice's and Bob's hidden cards, Bob's face-down card
    assert data["view"]["hand"] == hands[2]  # Carol's own hand is hers to read


async def test_a_hand_is_shown_only_to_its_owner_and_ephemerally(
    fake: FakeDiscord, party_bot: Any
) -> None:
    board = await three_humans(fake)
    hands = hands_of(await GameService(party_bot.store).get(game_of(board)))
    mine = button_for(board, t("play.button.private", "de"))
    shown = await (await fake.click(board, mine, user=BOB, locale="en-US")).callback()
    assert_ephemeral(shown)
    assert all(card in (shown.content or "") for card in hands[1])
    assert not any(card in (shown.content or "") for card in hands[0] + hands[2])
    assert (shown.content or "").startswith("Your hand")
    stranger = await (await fake.click(board, mine, user=DAVE)).callback()
    assert_ephemeral(stranger)
    assert stranger.content == t("error.not_a_player", "de")
    public = [msg for msg in fake.channel_messages() if not msg.ephemeral]
    assert not any(c in msg.text for msg in public for hand in hands for c in hand)


async def test_bot_seats_answer_reactions_and_take_turns(fake: FakeDiscord, party_bot: Any) -> None:
    """The bot plays its seat in a game of three (its reactions, its own turn) through the
    engine's bot hook; the humans keep getting their prompts."""
    invitation = await invite(fake, bot_seat=True)
    await (await accept(fake, invitation, BOB, "red")).callback()
    await (await accept(fake, invitation, CAROL, "green")).callback()
    record = await GameService(party_bot.store).get(game_of(invitation))
    assert record.status == "active" and len(record.players) == 4
    hands = hands_of(record)
    played = await fake.slash("party zug", {"notation": f"play {hands[0][0]}"}, user=ALICE)
    assert_ephemeral(await played.callback())
    thinking = t("play.bot.thinking", "de")
    for _attempt in range(250):  # the bot answered the window (its pass is logged)
        if any(seat == 3 for seat, _ in await party_bot.store.game_actions(record.id)):
            break
        await asyncio.sleep(0.02)
    await live_board_of(fake, party_bot, record.id, lambda msg: thinking not in msg.text)
    edits = [r for r in fake.requests if r.method == "PATCH" and "/messages/" in r.path]
    # the board said the bot is at it before it showed the bot's answer
    assert any(thinking in json.dumps(r.json, ensure_ascii=False) for r in edits)
    for user in (BOB, CAROL):
        await (await fake.slash("party zug", {"notation": "pass"}, user=user)).message()
    record = await GameService(party_bot.store).get(record.id)
    seats = [seat for seat, _ in await party_bot.store.game_actions(record.id)]
    assert 3 in seats  # the bot answered the window
    assert m.to_act(PARTY, load(record)) == frozenset({1})  # Bob's turn now


async def test_every_waiting_seat_is_reminded_then_forfeits(
    fake: FakeDiscord, party_bot: Any
) -> None:
    """With the reaction limit off, a reaction window waits for two people: both are
    reminded, then both forfeit, and Alice (the last side) wins; the finished board offers
    one rematch."""
    party_bot.settings = dataclasses.replace(party_bot.settings, reaction_minutes=0)
    board = await three_humans(fake)
    game_id = game_of(board)
    hands = hands_of(await GameService(party_bot.store).get(game_id))
    await (await fake.slash("party zug", {"notation": f"play {hands[0][0]}"}, user=ALICE)).message()
    table = party_bot.get_cog("PartyTest").table
    settings = party_bot.settings
    await table.sweep_idle(time.time() + settings.idle_reminder_minutes * 60 + 5)
    reminders = [msg for msg in fake.channel_messages() if f"#{game_id}" in msg.content]
    assert {u for msg in reminders for u in msg.pings} == {
        str(stable_user_id(BOB)),
        str(stable_user_id(CAROL)),
    }
    await table.sweep_idle(time.time() + settings.idle_forfeit_minutes * 60 + 5)
    final = await fake.wait_for_message(lambda msg: "🏆" in msg.text)
    told = "\n".join(msg.text for msg in fake.channel_messages())  # one board per forfeit
    assert t("play.event.forfeited", "de", name="Bob") in told
    assert t("play.event.forfeited", "de", name="Carol") in told
    record = await GameService(party_bot.store).get(game_id)
    assert record.status == "finished"
    assert [b["label"] for b in final.buttons] == [t("play.button.rematch", "de")]
    # The rematch: Bob hosts and invites the others; a second click gets no second game.
    kept = copy.deepcopy(final)
    rematch = await fake.click(final, 1, user=BOB)
    invitation = (await rematch.followup()).message
    assert invitation is not None and f"<@{stable_user_id(ALICE)}>" in invitation.content
    again = await (await fake.click(kept, 1, user=CAROL)).callback()
    assert_ephemeral(again)
    assert again.content == t("play.rematch.taken", "de")
    games = await party_bot.store.games_in_channel(fake.channel().id, kind=PARTY.name)
    assert len(games) == 2
    assert max(games, key=lambda r: r.id).players[0] == stable_user_id(BOB)


async def test_a_reaction_not_answered_in_time_is_passed_and_said(
    fake: FakeDiscord, party_bot: Any
) -> None:
    """After the reaction limit the sweep passes for Bob and for Carol: the living board's
    log says so for each; nobody is reminded or forfeited and Bob moves next."""
    board = await three_humans(fake)
    game_id = game_of(board)
    hands = hands_of(await GameService(party_bot.store).get(game_id))
    await (await fake.slash("party zug", {"notation": f"play {hands[0][0]}"}, user=ALICE)).message()
    table = party_bot.get_cog("PartyTest").table
    limit = party_bot.settings.reaction_minutes * 60
    await table.sweep_idle(time.time() + limit - 30)
    record = await GameService(party_bot.store).get(game_id)
    assert m.to_act(PARTY, load(record)) == frozenset({1, 2})  # not yet
    await table.sweep_idle(time.time() + limit + 30)
    told = "\n".join(msg.text for msg in fake.channel_messages())
    for name in ("Bob", "Carol"):
        assert t("play.timed_out", "de", name=name) in told
        assert t("play.event.forfeited", "de", name=name) not in told
    assert not [msg for msg in fake.channel_messages() if f"#{game_id}" in msg.content]
    record = await GameService(party_bot.store).get(game_id)
    assert record.status == "active" and not load(record).eliminated
    assert m.to_act(PARTY, load(record)) == frozenset({1})  # Bob's turn
    actions = await party_bot.store.game_actions(game_id)
    assert sorted(actions[1:]) == [(1, "pass"), (2, "pass")]


async def test_the_host_starts_with_the_seats_that_accepted(
    fake: FakeDiscord, party_bot: Any
) -> None:
    invitation = await invite(fake)
    start = button_for(invitation, t("play.button.start_now", "de"))
    early = await (await fake.click(invitation, start, user=ALICE)).callback()
    assert_ephemeral(early)  # only the host's seat is ready: too few
    assert early.content == t("error.not_enough_players", "de", min=2)
    await (await accept(fake, invitation, CAROL, "green")).callback()
    start = button_for(invitation, t("play.button.start_now", "de"))  # the updated message
    not_host = await (await fake.click(invitation, start, user=CAROL)).callback()
    assert not_host.content == t("error.not_host", "de")
    started = await fake.click(invitation, start, user=ALICE)
    assert (await started.callback()).type == 6  # acknowledged, then the board is drawn
    board = await started.message()
    assert_png_attachment(board)
    record = await GameService(party_bot.store).get(game_of(invitation))
    assert record.players == [stable_user_id(ALICE), stable_user_id(CAROL)]  # Bob dropped
    assert record.config["seat_choices"] == [None, "green"]
    assert "Carol: entscheiden" not in str(board.buttons)
    assert record.display["names"] == ["Alice", "Carol"]


async def test_an_early_start_the_game_refuses_says_which_seats_are_missing(
    fake: FakeDiscord, party_bot: Any
) -> None:
    """A table for exactly four (a bot on the fourth seat) offers no "start now" (the spec
    asks the engine); a start clicked anyway (an older invitation's button) with Bob still
    invited and Carol declined is refused in the table's words (the game's reason, the open
    seats), ephemerally and in the clicker's language; the invitation stays as it was."""
    options = {"zweiter": BOB, "dritter": CAROL, "bot": True, "alle": True}
    invitation = await (await fake.slash("party start", options, user=ALICE)).message()
    game_id = game_of(invitation)
    labels = [b.get("label") for b in invitation.buttons]
    assert t("play.button.start_now", "de") not in labels
    await (await fake.click(invitation, button_for(invitation, "Ablehnen"), user=CAROL)).callback()
    assert t("play.button.start_now", "de") not in [b.get("label") for b in invitation.buttons]
    before = await party_bot.store.get_game(game_id)
    start = button_for(invitation, "Ablehnen").rsplit(":", 1)[0] + ":s"
    invitation = copy.deepcopy(invitation)
    (row,) = [r for r in invitation.components if "inv:0" in str(r)]
    row["components"][0]["custom_id"] = start
    for locale, lang in (("de", "de"), ("en-US", "en")):
        refused = await (await fake.click(invitation, start, user=ALICE, locale=locale)).callback()
        assert_ephemeral(refused)
        missing = ", ".join(
            f"{SPEC.seat_label(seat)} {name} ({t(f'play.seat.{state}', lang)})"
            for seat, name, state in ((1, "Bob", "invited"), (2, "Carol", "declined"))
        )
        reason = t("error.player_count", lang, min=4, max=4)
        wanted = t("play.error.seats_missing", lang, id=game_id, reason=reason, missing=missing)
        assert refused.content == wanted
    assert await party_bot.store.get_game(game_id) == before  # nothing changed
    await (await accept(fake, invitation, BOB, "blue")).callback()
    assert (await party_bot.store.get_game(game_id)).status == "invited"  # Carol's seat is open


async def test_forged_clicks_get_a_friendly_answer_and_change_nothing(
    fake: FakeDiscord, party_bot: Any
) -> None:
    board = await three_humans(fake)
    game_id = game_of(board)
    before = await GameService(party_bot.store).get(game_id)
    forged_ids = [
        f"party:{game_id}:t1:p:#99",  # an option number that is not there
        f"party:{game_id}:t1:pg::x",  # a page that is no number
        f"party:{game_id}:t1:p:play.k00000",  # a card Alice does not hold
        f"party:{game_id}:zz:o",  # a decision that never was
        f"party:{game_id}:0:inv:b:9",  # the invitation is over
        f"party:{game_id}:0:r",  # no rematch while it runs
        f"party:{game_id}:0:m:resign!",  # a meta click for an old revision
        f"party:{game_id}:0:q",  # no such click
        "party:x:0:p",
    ]
    for forged in forged_ids:
        message = copy.deepcopy(board)
        message.components[0]["components"][0]["custom_id"] = forged
        reply = await (await fake.click(message, forged, user=ALICE)).callback()
        assert_ephemeral(reply)
        assert reply.content and "party" not in reply.content, forged
    after = await GameService(party_bot.store).get(game_id)
    assert after.revision == before.revision
    assert await party_bot.store.game_actions(game_id) == []


async def test_personal_setup_offers_each_person_their_own_choices(
    fake: FakeDiscord, party_bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``personal_setup`` accepting asks privately among that person's own choices (a
    Telperinquár deck, here a colour per person); another person's choice is refused."""
    from tests.party_cog import SPEC, word

    own = {stable_user_id(BOB): ["blue"], stable_user_id(CAROL): ["green", "red"]}

    async def choices_for(store: Any, record: Any, user: int, lang: str) -> list[tuple[str, str]]:
        return [(colour, colour.upper()) for colour in own.get(user, [])]

    monkeypatch.setattr(SPEC, "personal_setup", True)
    monkeypatch.setattr(SPEC, "setup_choices_for", choices_for)
    invitation = await invite(fake)
    assert not invitation.selects  # nobody's choices on the public invitation
    accept = next(c for c in invitation.custom_ids if c.endswith(":inv:1"))
    chooser = await (await fake.click(invitation, accept, user=BOB)).message()
    assert_ephemeral(chooser)
    assert [o["value"] for o in chooser.selects[0]["options"]] == ["blue"]
    select = chooser.selects[0]["custom_id"]
    chooser.selects[0]["options"].append({"label": "forged", "value": "red"})
    forged = await (await fake.select(chooser, select, ["red"], user=BOB)).callback()
    assert_ephemeral(forged)  # Carol's colour is not Bob's to pick
    game_id = game_of(invitation)
    assert lobby_of_record(await party_bot.store.get_game(game_id)).choices[1] is None
    done = await (await fake.select(chooser, select, ["blue"], user=BOB)).callback()
    assert done.type == 7 and word("blue", "de") in (done.content or "")
    lobby = lobby_of_record(await party_bot.store.get_game(game_id))
    assert lobby.choices[1] == "blue" and lobby.seats[1] == "accepted"
    assert word("blue", "de") in fake.messages[invitation.id].content  # the invitation names it


def lobby_of_record(record: Any) -> Any:
    from bot.games import lobby_of

    return lobby_of(record)


async def test_a_board_of_an_older_step_that_arrives_later_never_replaces_the_newer(
    fake: FakeDiscord, party_bot: Any
) -> None:
    """Two seats answer at once and their boards reach Discord in the other order: the board
    of the newer step stays the live one, the late older board is taken down, and the board
    before both loses its buttons; an edit of the living board for an older step than it
    shows is dropped."""
    board = await three_humans(fake)
    game_id = game_of(board)
    service = GameService(party_bot.store)
    hands = hands_of(await service.get(game_id))
    await (await fake.slash("party zug", {"notation": f"play {hands[0][0]}"}, user=ALICE)).message()
    table = party_bot.get_cog("PartyTest").table
    older = await service.get(game_id)
    before = older.display["board"]
    newer = dataclasses.replace(older, revision=older.revision + 1)
    channel = party_bot.get_partial_messageable(fake.channel().id)
    newer_board = await channel.send("newer")
    late_board = await channel.send("older, late")
    screen = await table.screen(older, load(older), "de")
    await table.remember_board(newer, newer_board.id, screen)
    await table.remember_board(older, late_board.id, screen)
    record = await service.get(game_id)
    assert record.display["board"] == newer_board.id
    assert record.display["board_revision"] == newer.revision
    assert fake.messages[late_board.id].deleted
    assert not fake.messages[newer_board.id].deleted
    assert not fake.messages[before].components  # the board before both: no buttons left
    # the same board remembered again (an edit of the live board) is kept
    await table.remember_board(older, newer_board.id, screen)
    record = await service.get(game_id)
    assert (record.display["board"], record.display["board_revision"]) == (
        newer_board.id,
        newer.revision,
    )
    # an edit for the older step, arriving late, leaves the living board as it is
    screen.embed.title = "older, late"
    await table.show(older, screen)
    assert fake.messages[newer_board.id].content == "newer"
    assert record.display["board"] == (await service.get(game_id)).display["board"]


async def test_seats_asked_to_react_are_told_they_may_react_not_that_it_is_their_turn(
    fake: FakeDiscord, party_bot: Any
) -> None:
    """Alice's turn pings her with "du bist dran"; after her play Bob and Carol may answer,
    and the board tells them so ("ihr könnt reagieren"), not that it is their turn."""
    board = await three_humans(fake)
    alice = f"<@{stable_user_id(ALICE)}>"
    assert board.content == t("play.waiting_for.one", "de", mentions=alice)
    game_id = game_of(board)
    hands = hands_of(await GameService(party_bot.store).get(game_id))
    played = await fake.slash("party zug", {"notation": f"play {hands[0][0]}"}, user=ALICE)
    assert_ephemeral(await played.callback())
    others = f"<@{stable_user_id(BOB)}>, <@{stable_user_id(CAROL)}>"
    react = t("play.waiting_for.reaction", "de", mentions=others)
    after = await live_board_of(fake, party_bot, game_id, lambda msg: msg.content == react)
    assert "reagieren" in after.content and "dran" not in after.content


async def test_a_click_that_completes_an_action_by_skipping_choices_asks_first(
    fake: FakeDiscord, party_bot: Any
) -> None:
    """Nothing acts that the clicker has not seen: with one card each, Alice's single action
    is offered as one button naming it whole; Bob's "lay face down" (one card to lay) does
    not lay it at once but shows the whole action to confirm (and a way back). Only the
    path clicked to its last token acts."""
    options = {"zweiter": BOB, "dritter": CAROL, "karten": 1}
    invitation = await (await fake.slash("party start", options, user=ALICE)).message()
    await (await accept(fake, invitation, BOB, "blue")).callback()
    board = await (await accept(fake, invitation, CAROL, "gold")).message()
    game_id = game_of(board)
    hands = hands_of(await GameService(party_bot.store).get(game_id))
    prompt = await decide(fake, board, ALICE, "Alice")
    assert [b["label"] for b in prompt.buttons] == [f"Offen ausspielen: {hands[0][0]}"]
    await (await fake.click(prompt, 1, user=ALICE)).callback()
    assert await party_bot.store.game_actions(game_id) == [(0, f"play {hands[0][0]}")]
    board = await live_board(fake, party_bot, game_id, "r1.1")
    bobs = await decide(fake, board, BOB, "Bob")
    shown = await fake.click(bobs, button_for(bobs, "Verdeckt ablegen"), user=BOB)
    assert (await shown.callback()).type == 7
    assert len(await party_bot.store.game_actions(game_id)) == 1  # nothing laid yet
    bobs = await shown.message()
    whole = f"Verdeckt ablegen: {hands[1][0]}"
    assert [b["label"] for b in bobs.buttons] == [whole, t("play.button.back", "de")]
    assert t("play.prompt.confirm", "de") in bobs.content
    laid = await fake.click(bobs, button_for(bobs, whole), user=BOB)
    assert (await laid.callback()).type == 7
    actions = await party_bot.store.game_actions(game_id)
    assert actions[-1] == (1, f"add {hands[1][0]}")


async def test_allies_who_win_together_get_the_plural_verb(
    fake: FakeDiscord, party_bot: Any
) -> None:
    """Alice and Bob play together; Carol resigns: both win, "gewinnen" / "win"."""
    options = {"zweiter": BOB, "dritter": CAROL, "verbuendet": True}
    invitation = await (await fake.slash("party start", options, user=ALICE)).message()
    await (await accept(fake, invitation, BOB, "blue")).callback()
    await (await accept(fake, invitation, CAROL, "gold")).callback()
    await (await fake.slash("party aufgeben", user=CAROL)).callback()
    reason = t("play.reason.resign", "de")
    won = t("play.status.won_together", "de", names="Alice, Bob", reason=reason)
    await live_board_of(fake, party_bot, game_of(invitation), lambda m: won in m.text)
    assert "gewinnen" in won
    assert t("play.status.won_together", "en", names="A, B", reason="r") == "A, B win (r)."
    assert t("play.status.won", "de", names="A", reason="r") == "A gewinnt (r)."


async def test_a_draw_offer_is_said_once_on_the_board(fake: FakeDiscord, party_bot: Any) -> None:
    board = await three_humans(fake)
    offered = await fake.click(board, button_for(board, "Remis anbieten"), user=BOB)
    assert (await offered.callback()).type == 7
    board = await offered.message()
    assert board.text.count(t("play.draw.offered", "de", name="Bob")) == 1
    # a board shown later (no new narration) still says it
    again = await (await fake.slash("party brett", user=CAROL)).message()
    assert again.text.count(t("play.draw.offered", "de", name="Bob")) == 1


async def test_playing_on_withdraws_a_draw_offer_and_the_board_says_so(
    fake: FakeDiscord, party_bot: Any
) -> None:
    """Issue 21: an offer that lapses because play goes on is said, not dropped silently."""
    board = await three_humans(fake)
    game_id = game_of(board)
    hands = hands_of(await GameService(party_bot.store).get(game_id))
    offered = await fake.click(board, button_for(board, "Remis anbieten"), user=BOB)
    board = await offered.message()
    prompt = await decide(fake, board, ALICE, "Alice")
    played = await fake.click(prompt, button_for(prompt, hands[0][0]), user=ALICE)
    assert (await played.callback()).type == 7
    withdrawn = t("play.event.draw_withdrawn", "de", name="Bob")
    shown = await fake.wait_for_message(lambda msg: withdrawn in msg.text)
    assert not shown.ephemeral
    assert "Remis annehmen" not in str(shown.buttons)


async def test_a_referee_seat_is_offered_no_draw_or_resign_and_is_never_forfeited(
    fake: FakeDiscord, party_bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat with no side (``GameSpec.neutral_seats``, a game master): while it decides the
    board offers neither a draw nor to resign; its typed resign and a draw offer are refused
    and change nothing; kept waiting, it is reminded but not forfeited (the game waits)."""
    spec = party_bot.get_cog("PartyTest").table.spec  # the loaded cog's (a module of its own)
    monkeypatch.setattr(spec, "neutral_seats", frozenset({0}))
    party_bot.settings = dataclasses.replace(party_bot.settings, reaction_minutes=0)
    board = await three_humans(fake)
    game_id = game_of(board)
    labels = [b["label"] for b in board.buttons]
    assert "Remis anbieten" not in labels and t("play.button.resign", "de") not in labels
    refused = await (await fake.slash("party aufgeben", user=ALICE)).callback()
    assert_ephemeral(refused)
    assert refused.content == t("play.error.referee_stays", "de")
    forged = copy.deepcopy(board)
    offer = f"party:{(await party_bot.store.get_game(game_id)).revision}"
    offer = f"party:{game_id}:{offer.split(':')[1]}:m:draw-offer"
    forged.components[0]["components"][0]["custom_id"] = offer
    again = await (await fake.click(forged, offer, user=ALICE)).callback()
    assert_ephemeral(again)
    assert again.content == t("play.error.referee_stays", "de")
    assert await party_bot.store.game_actions(game_id) == []
    # Bob (a player) may resign: his board offers it
    table = party_bot.get_cog("PartyTest").table
    settings = party_bot.settings
    await table.sweep_idle(time.time() + settings.idle_forfeit_minutes * 60 + 5)
    record = await GameService(party_bot.store).get(game_id)
    assert record.status == "active" and not load(record).eliminated  # Alice waited for
    hands = hands_of(record)
    await (await fake.slash("party zug", {"notation": f"play {hands[0][0]}"}, user=ALICE)).message()
    board = await live_board(fake, party_bot, game_id, "r1.1")
    labels = [b["label"] for b in board.buttons]
    assert "Remis anbieten" in labels and t("play.button.resign", "de") in labels


async def test_a_rematch_clicked_by_a_guest_counts_them_as_accepted(
    fake: FakeDiscord, party_bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game that keeps its seats in a rematch (as Armageddon's game master hosts again):
    Bob, who had resigned, clicks the rematch; Alice hosts it, Bob's seat counts as accepted
    (he need not accept his own rematch), Carol is invited."""
    spec = party_bot.get_cog("PartyTest").table.spec
    monkeypatch.setattr(spec, "rematch_order", lambda clicker, seats: list(range(seats)))
    game_id = game_of(await three_humans(fake))
    await (await fake.slash("party aufgeben", user=BOB)).message()
    await (await fake.slash("party aufgeben", user=CAROL)).callback()
    over = t("play.button.rematch", "de")
    final = await live_board_of(fake, party_bot, game_id, lambda m: over in str(m.buttons))
    rematch = await fake.click(final, button_for(final, t("play.button.rematch", "de")), user=BOB)
    invitation = (await rematch.followup()).message
    assert invitation is not None
    games = await party_bot.store.games_in_channel(fake.channel().id, kind=PARTY.name)
    new = max(games, key=lambda r: r.id)
    assert new.id != game_id and new.players[0] == stable_user_id(ALICE)
    assert lobby_of_record(new).seats == ("host", "accepted", "invited")
    assert f"<@{stable_user_id(BOB)}> · {t('play.seat.accepted', 'de')}" in invitation.content


async def test_a_declined_seat_is_numbered_alike_in_the_list_and_its_buttons(
    fake: FakeDiscord, party_bot: Any
) -> None:
    invitation = await invite(fake)
    await (await fake.click(invitation, button_for(invitation, "Ablehnen"), user=CAROL)).callback()
    label = SPEC.seat_label(2)
    assert f"{label} <@{stable_user_id(CAROL)}>" in invitation.content
    (again,) = [s for s in invitation.selects if s["custom_id"].endswith(":inv:u:2")]
    assert again["placeholder"] == t("play.invite.reinvite", "de", seat=label)
    button_for(invitation, t("play.button.fill_bot", "de", seat=label))


async def test_the_board_command_says_the_last_step_again(
    fake: FakeDiscord, party_bot: Any
) -> None:
    board = await three_humans(fake)
    hands = hands_of(await GameService(party_bot.store).get(game_of(board)))
    await (await fake.slash("party zug", {"notation": f"play {hands[0][0]}"}, user=ALICE)).message()
    again = await (await fake.slash("party brett", user=BOB)).message()
    assert_public(again)
    assert f"Alice spielt {hands[0][0]} offen aus." in again.text
    assert_components_valid(again)


async def test_seating_puts_the_host_first_then_guests_and_bot_seats(party_bot: Any) -> None:
    """The bot named as a guest sits at the level; another bot is refused; without any
    guest one bot seat is added, with guests none unless asked."""
    from types import SimpleNamespace

    from engines.core import BadInput

    table = party_bot.get_cog("PartyTest").table
    me = table.bot_id()

    def user(uid: int, name: str, bot: bool = False) -> Any:
        return SimpleNamespace(id=uid, display_name=name, bot=bot)

    host = SimpleNamespace(user=user(1, "Alice"))
    alone = table.seating(host, [], bots=None, level="normal", lang="de")
    assert alone.players == [1, me] and alone.levels == {"1": "normal"} and not alone.invited
    bob, ours = user(2, "Bob"), user(me, "Spielleiter", bot=True)
    mixed = table.seating(host, [bob, None, ours], bots=1, level="hard", lang="en")
    assert mixed.players == [1, 2, me, me] and mixed.invited
    assert mixed.levels == {"2": "hard", "3": "hard"} and mixed.names[:2] == ["Alice", "Bob"]
    assert mixed.config() == {"ai_levels": {"2": "hard", "3": "hard"}}
    assert table.seating(host, [bob], bots=None, level="normal", lang="de").players == [1, 2]
    with pytest.raises(BadInput):
        table.seating(host, [user(99, "Fremder Bot", bot=True)], bots=0, level="normal", lang="de")
