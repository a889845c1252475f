"""``/essenz`` through the real bot and the fake Discord: challenge, clicking and typing steps,
refusals (wrong player, stale button, illegal move), resign, draw, the bot opponent, list /
export / position, idle reminders and forfeits, German and English."""

from __future__ import annotations

import asyncio
import copy
import json
import time
from typing import Any

from bot.games import GameService, Turn, load
from bot.i18n import t
from bot.narration.essence import touched, touched_by_action
from bot.play.spec import Steps
from bot.play.specs.essence import _option_label, choice_tree
from bot.play.table import GUILD_LANGUAGE_PREF
from bot.sandbox.fake_discord import BOT_ID, FakeDiscord, StoredMessage, stable_user_id
from engines.core import Event
from engines.core import match as m
from engines.essence import ENGINE
from tests.harness import (
    assert_components_valid,
    assert_ephemeral,
    assert_png_attachment,
    assert_public,
    embed_text,
    live_board_of,
)

ALICE, BOB, CAROL = "alice", "bob", "carol"


def ids_with(message: StoredMessage, part: str) -> list[str]:
    return [c for c in message.custom_ids if part in c]


def mote_select(message: StoredMessage) -> str:
    (select,) = [c for c in message.selects if ":p::" in c["custom_id"]][:1]
    return str(select["custom_id"])


def step_choice(message: StoredMessage, label: str) -> tuple[str, str]:
    """The select and value of the whole step labelled ``label`` (once a mote is chosen, the
    board offers every step of it in one menu)."""
    for select in message.selects:
        for option in select["options"]:
            if option["label"] == label:
                return str(select["custom_id"]), str(option["value"])
    shown = [o["label"] for s in message.selects for o in s["options"]]
    raise AssertionError(f"no step {label!r} among {shown}")


def button_for(message: StoredMessage, label: str) -> str:
    for button in message.buttons:
        if button.get("label") == label:
            return str(button["custom_id"])
    raise AssertionError(f"no button {label!r} among {[b.get('label') for b in message.buttons]}")


async def challenge(fake: FakeDiscord, locale: str = "de", **options: Any) -> StoredMessage:
    ex = await fake.slash("essenz start", {"gegner": BOB, **options}, user=ALICE, locale=locale)
    invitation = await ex.message()
    assert_public(invitation)
    return invitation


async def accepted_game(fake: FakeDiscord, **options: Any) -> StoredMessage:
    invitation = await challenge(fake, **options)
    accept = await fake.click(invitation, 1, user=BOB)
    reply = await accept.callback()
    assert reply.type == 6  # 6: acknowledged, the first board drawn after (issue 18)
    return await accept.message()


async def game_id_of(message: StoredMessage) -> int:
    return int(message.custom_ids[0].split(":")[1])


async def test_challenge_accept_click_a_step_and_type_a_step(fake: FakeDiscord, bot: Any) -> None:
    invitation = await challenge(fake)
    assert f"<@{stable_user_id(BOB)}>" in invitation.content
    assert [b["label"] for b in invitation.buttons] == [
        t("essenzcog.button.accept", "de"),
        t("essenzcog.button.decline", "de"),
    ]
    # Only the invited player may answer.
    refused = await (await fake.click(invitation, 1, user=CAROL)).callback()
    assert_ephemeral(refused)
    assert refused.content == t("error.not_invited", "de")

    accept = await fake.click(invitation, 1, user=BOB)
    assert (await accept.callback()).type == 6  # acknowledged, then the board is drawn
    board = await accept.message()
    assert_components_valid(board)
    assert_png_attachment(board)
    assert t("essenzcog.title", "de", id=await game_id_of(board)) in embed_text(board)
    assert f"<@{stable_user_id(ALICE)}>" in board.content  # Alice (A) begins

    # Bob may not pick a mote while Alice is to act.
    select = mote_select(board)
    wrong = await (await fake.select(board, select, ["d1"], user=BOB)).callback()
    assert_ephemeral(wrong)
    assert wrong.content == t("essenzcog.error.not_your_turn", "de")

    # Alice: mote d1 -> move -> d2 (a face 1 has no orientation: the step is played).
    picked = await fake.select(board, select, ["d1"], user=ALICE)
    assert (await picked.callback()).type == 7
    board = await picked.message()
    assert_components_valid(board)
    assert t("essenzcog.prompt.kind", "de", square="d1") in embed_text(board)
    # every step of the mote in one menu: the step is the second click
    menu, value = step_choice(board, f"{t('essence.kind.move', 'de')}: d2")
    before = copy.deepcopy(board)  # what a slow client still shows
    played = await fake.select(board, menu, [value], user=ALICE)
    assert (await played.callback()).type == 7
    board = await played.message()
    assert_png_attachment(board)
    text = embed_text(board)
    assert t("essence.event.moved", "de", name="Alice", source="d1", target="d2") in text
    assert t("essenzcog.status.a2", "de", name="Alice", round=1) in text

    # The button of before the step is stale now.
    stale = await (await fake.select(before, menu, [value], user=ALICE)).callback()
    assert_ephemeral(stale)
    assert stale.content == t("error.stale", "de")

    # Alice types her second action: answered privately; the living board (the last message
    # here) is edited in place, now Bob's turn, with both steps in its running log.
    typed = await fake.slash("essenz zug", {"notation": "void d5"}, user=ALICE)
    assert_ephemeral(await typed.callback())
    bob = f"<@{stable_user_id(BOB)}>"
    game_id = await game_id_of(board)
    new_board = await live_board_of(fake, bot, game_id, lambda msg: bob in msg.content)
    assert new_board.id == board.id
    assert_public(new_board)
    assert_png_attachment(new_board)
    shifted = t("essence.event.void_shifted", "de", name="Alice", source="d4", target="d5")
    assert shifted in embed_text(new_board)
    assert t("essence.event.moved", "de", name="Alice", source="d1", target="d2") in (
        embed_text(new_board)
    )
    record = await GameService(bot.store).get(game_id)
    assert await bot.store.game_actions(record.id) == [(0, "move d1 d2"), (0, "void d5")]


async def test_illegal_typed_move_is_a_friendly_ephemeral_error(
    fake: FakeDiscord, bot: Any
) -> None:
    board = await accepted_game(fake)
    reply = await (
        await fake.slash("essenz zug", {"notation": "move d1 d5"}, user=ALICE)
    ).callback()
    assert_ephemeral(reply)
    # why, then the steps Alice may take now: the first ones and how many more
    why, legal = (reply.content or "").split("\n", 1)
    assert why == t("essence.error.too_far", "de", square="d5", strength=1)
    assert legal.startswith("Möglich sind jetzt: `") and "`move d1 d2`" in legal
    assert "weitere" in legal
    unreadable = await (
        await fake.slash("essenz zug", {"notation": "fly away"}, user=ALICE)
    ).callback()
    assert_ephemeral(unreadable)
    assert (unreadable.content or "").startswith(
        t("essence.error.bad_notation", "de", text="fly away") + "\n"
    )
    out_of_turn = await (
        await fake.slash("essenz zug", {"notation": "move d7 d6"}, user=BOB, locale="en-US")
    ).callback()
    assert_ephemeral(out_of_turn)
    assert out_of_turn.content == t("essenzcog.error.not_your_turn", "en")
    stranger = await (await fake.click(board, 1, user=CAROL)).callback()
    assert_ephemeral(stranger)
    assert stranger.content == t("error.not_a_player", "de")
    assert await bot.store.game_actions(await game_id_of(board)) == []


async def test_typed_forfeits_are_refused_for_every_seat(fake: FakeDiscord, bot: Any) -> None:
    """Only the bot as referee forfeits a seat (after the idle time); typed notation never."""
    board = await accepted_game(fake)
    game_id = await game_id_of(board)
    for user, text in [(ALICE, "!forfeit 1"), (ALICE, "!forfeit 0"), (BOB, "!forfeit 0")]:
        reply = await (await fake.slash("essenz zug", {"notation": text}, user=user)).callback()
        assert_ephemeral(reply)
        assert reply.content == t("error.referee_only", "de")
    record = await GameService(bot.store).get(game_id)
    assert record.status == "active" and m.outcome(ENGINE, load(record)) is None
    assert await bot.store.game_actions(game_id) == []
    vs_bot = await (await fake.slash("essenz start", {"bot": "easy"}, user=CAROL)).message()
    bot_game = await game_id_of(vs_bot)
    forged = await fake.slash(
        "essenz zug", {"notation": "!forfeit 1", "spiel": bot_game}, user=CAROL
    )
    assert (await forged.callback()).content == t("error.referee_only", "de")
    assert (await GameService(bot.store).get(bot_game)).status == "active"


async def test_resign_by_command_ends_the_game_and_offers_a_rematch(
    fake: FakeDiscord, bot: Any
) -> None:
    board = await accepted_game(fake)
    game_id = await game_id_of(board)
    ex = await fake.slash("essenz aufgeben", user=BOB)
    assert_ephemeral(await ex.callback())
    final = await live_board_of(fake, bot, game_id, lambda msg: "🏆" in msg.text)
    assert_public(final)
    assert_png_attachment(final)
    text = embed_text(final)
    assert t("essenzcog.event.resigned", "de", name="Bob") in text
    reason = t("essenzcog.reason.resign", "de")
    assert t("essenzcog.status.won", "de", name="Alice", reason=reason) in text
    assert [b["label"] for b in final.buttons] == [t("essenzcog.button.rematch", "de")]
    record = await GameService(bot.store).get(game_id)
    assert record.status == "finished"
    # The rematch: Bob clicks, Alice is invited.
    rematch = await fake.click(final, 1, user=BOB)
    assert (await rematch.callback()).type == 7
    invitation = await rematch.followup()
    assert f"<@{stable_user_id(ALICE)}>" in (invitation.content or "")
    assert final.components == []


async def test_resign_by_button_asks_first(fake: FakeDiscord, bot: Any) -> None:
    board = await accepted_game(fake)
    ask = await fake.click(board, button_for(board, t("essenzcog.button.resign", "de")), user=ALICE)
    prompt = await ask.callback()
    assert_ephemeral(prompt)
    assert prompt.content == t("essenzcog.resign.confirm", "de")
    confirm = await fake.click(await ask.message(), 1, user=ALICE)
    assert (await confirm.callback()).type == 7
    final = await fake.wait_for_message(lambda msg: "🏆" in msg.text and bool(msg.attachments))
    assert (
        t("essenzcog.status.won", "de", name="Bob", reason=t("essenzcog.reason.resign", "de"))
        in final.text
    )
    assert final.id == board.id  # the living board, edited: only the rematch is left on it
    assert [b["label"] for b in final.buttons] == [t("essenzcog.button.rematch", "de")]


async def test_draw_offer_and_accept(fake: FakeDiscord, bot: Any) -> None:
    board = await accepted_game(fake)
    offer = await fake.click(
        board, button_for(board, t("essenzcog.button.draw_offer", "de")), user=BOB
    )
    board = await offer.message()
    assert embed_text(board).count("Bob bietet ein Remis an.") == 1  # narrated, not repeated
    own = await (
        await fake.click(
            board, button_for(board, t("essenzcog.button.draw_accept", "de")), user=BOB
        )
    ).callback()
    assert_ephemeral(own)
    assert own.content == t("error.no_draw_offer", "de")
    accept = await fake.click(
        board, button_for(board, t("essenzcog.button.draw_accept", "de")), user=ALICE
    )
    board = await accept.message()
    reason = t("essenzcog.reason.draw_agreed", "de")
    assert t("essenzcog.status.draw", "de", reason=reason) in embed_text(board)


async def test_against_the_bot_it_answers_after_the_humans_turn(
    fake: FakeDiscord, bot: Any
) -> None:
    ex = await fake.slash("essenz start", {"bot": "hard", "schnell": True}, user=ALICE)
    board = await ex.message()
    assert_png_attachment(board)
    game_id = await game_id_of(board)
    await (await fake.slash("essenz zug", {"notation": "move c1 c2"}, user=ALICE)).message()
    last = await fake.slash("essenz zug", {"notation": "split a1 b2"}, user=ALICE)
    assert_ephemeral(await last.callback())
    # The living board is edited once the bot has played its turn: Alice is to act again,
    # and its running log tells Alice's last step before the bot's.
    split = t("essence.event.split", "de", name="Alice", source="a1", target="b2")
    bot_name = f"Spielleiter ({t('essenzcog.choice.level.hard', 'de')})"
    thinking = t("essenzcog.bot.thinking", "de")

    def answered(msg: StoredMessage) -> bool:
        text = embed_text(msg)
        return split in text and thinking not in text and text.index(split) < text.rindex(bot_name)

    shown = await live_board_of(fake, bot, game_id, answered)
    assert shown.id == board.id
    assert f"<@{stable_user_id(ALICE)}>" in shown.content
    assert_png_attachment(shown)
    actions = await bot.store.game_actions(game_id)
    assert [seat for seat, _ in actions] == [0, 0, 1, 1]
    record = await GameService(bot.store).get(game_id)
    assert record.players == [stable_user_id(ALICE), BOT_ID]
    assert m.to_act(ENGINE, load(record)) == frozenset({0})


async def test_english_board_and_invitation(fake: FakeDiscord, bot: Any) -> None:
    invitation = await challenge(fake, locale="en-US", varianten="bestimmt,schleife")
    assert "challenges you" in invitation.content
    accept = await fake.click(invitation, 1, user=BOB, locale="en-GB")
    board = await accept.message()
    text = embed_text(board)
    assert t("essenzcog.title", "en", id=await game_id_of(board)) in text
    assert t("essenzcog.variants.some", "en", names="Determined, Loop") in text
    picked = await fake.select(board, mote_select(board), ["a1"], user=ALICE, locale="en-US")
    board = await picked.message()
    assert t("essenzcog.prompt.kind", "en", square="a1") in embed_text(board)
    steps = [o["label"] for s in board.selects for o in s["options"]]
    assert any(label.startswith(t("essence.kind.split", "en")) for label in steps)


async def test_list_export_position_and_autocomplete(fake: FakeDiscord, bot: Any) -> None:
    board = await accepted_game(fake)
    game_id = await game_id_of(board)
    await (await fake.slash("essenz zug", {"notation": "move a1 b2"}, user=ALICE)).message()
    listing = await (await fake.slash("essenz liste", user=CAROL)).callback()
    assert_ephemeral(listing)
    assert f"#{game_id}" in embed_text(listing)
    exported = await (await fake.slash("essenz export", user=ALICE)).callback()
    assert_ephemeral(exported)
    (attachment,) = exported.files
    data = json.loads(attachment.data)
    assert data["actions"][0]["action"] == "move a1 b2"
    start = ENGINE.initial_state({"variants": []}, 0, 2)
    assert data["start_position"] == ENGINE.position_text(start)
    assert data["position"] == data["actions"][-1]["position"]
    position = await (await fake.slash("essenz position", user=BOB, locale="en-US")).callback()
    assert data["position"] in (position.content or "")
    choices = await fake.autocomplete("essenz zug", {"notation": "split"}, user=ALICE)
    assert choices and all(c["value"].startswith("split") for c in choices)
    assert len(choices) <= 25


async def test_idle_games_get_a_reminder_then_a_forfeit(fake: FakeDiscord, bot: Any) -> None:
    board = await accepted_game(fake)
    game_id = await game_id_of(board)
    cog = bot.get_cog("Essence")
    later = time.time() + bot.settings.idle_reminder_minutes * 60 + 5
    await cog.sweep_idle(later)
    reminder = await fake.wait_for_message(lambda msg: f"#{game_id}" in msg.content)
    assert f"<@{stable_user_id(ALICE)}>" in reminder.content
    await cog.sweep_idle(later)  # reminded once only
    assert len([m for m in fake.channel_messages() if f"#{game_id}" in m.content]) == 1
    await cog.sweep_idle(time.time() + bot.settings.idle_forfeit_minutes * 60 + 5)
    final = await fake.wait_for_message(lambda msg: "🏆" in msg.text)
    assert t("essenzcog.event.forfeited", "de", name="Alice") in final.text
    assert (await GameService(bot.store).get(game_id)).status == "finished"


async def test_a_bot_turn_left_over_by_a_restart_is_resumed(fake: FakeDiscord, bot: Any) -> None:
    service = GameService(bot.store)
    record = await service.create(
        "essence",
        {"variants": [], "quick": True, "ai_levels": {"0": "easy"}},
        channel_id=fake.channel().id,
        guild_id=fake.guild.id,
        players=[BOT_ID, stable_user_id(ALICE)],
        invited=False,
    )
    await bot.get_cog("Essence").sweep_idle(time.time() + 60)
    board = await fake.wait_for_message(lambda msg: bool(msg.attachments))
    assert f"<@{stable_user_id(ALICE)}>" in board.content
    assert [s for s, _ in await bot.store.game_actions(record.id)] == [0, 0]


async def test_orientation_is_chosen_with_arrow_buttons_in_english(
    fake: FakeDiscord, bot: Any
) -> None:
    await bot.store.set_pref(fake.guild.id, GUILD_LANGUAGE_PREF, "en")  # an English game
    board = await accepted_game(fake)
    picked = await fake.select(board, mote_select(board), ["a1"], user=ALICE, locale="en-US")
    board = await picked.message()
    split = t("essence.kind.split", "en")
    labels = [o["label"] for s in board.selects for o in s["options"]]
    assert f"{split}: b2 · 2 ↗ ↙" in labels and f"{split}: b2 · 2 ↖ ↘" in labels
    assert_components_valid(board)
    menu, value = step_choice(board, f"{split}: b2 · 2 ↖ ↘")
    played = await fake.select(board, menu, [value], user=ALICE, locale="en-US")
    await played.message()
    actions = await bot.store.game_actions(await game_id_of(board))
    assert actions == [(0, "split a1 b2/1")]


async def test_english_command_names_reach_the_same_commands(fake: FakeDiscord, bot: Any) -> None:
    await accepted_game(fake)
    reply = await (
        await fake.slash("essence move", {"notation": "teleport"}, user=ALICE, locale="en-US")
    ).callback()
    assert_ephemeral(reply)
    assert (reply.content or "").startswith(
        t("essence.error.bad_notation", "en", text="teleport") + "\nYou may now: `"
    )


async def test_the_bot_declines_a_draw_and_a_rematch_lets_it_begin(
    fake: FakeDiscord, bot: Any
) -> None:
    ex = await fake.slash("essenz start", {"bot": "easy", "schnell": True}, user=ALICE)
    board = await ex.message()
    await fake.click(board, button_for(board, t("essenzcog.button.draw_offer", "de")), user=ALICE)
    bot_name = f"Spielleiter ({t('essenzcog.choice.level.easy', 'de')})"
    offered = t("essenzcog.event.draw_offered", "de", name="Alice")
    declined = t("essenzcog.event.draw_declined", "de", name=bot_name)
    game_id = await game_id_of(board)
    board = await live_board_of(fake, bot, game_id, lambda msg: declined in embed_text(msg))
    assert embed_text(board).index(offered) < embed_text(board).index(declined)
    resign = await fake.slash("essenz aufgeben", user=ALICE)
    assert_ephemeral(await resign.callback())
    final = await live_board_of(fake, bot, game_id, lambda msg: "🏆" in msg.text)
    rematch = await fake.click(final, 1, user=ALICE)
    await rematch.callback()
    new_board = (await rematch.followup()).message
    assert new_board is not None
    await fake.wait(
        lambda: f"<@{stable_user_id(ALICE)}>" in new_board.content or None, 10, "the bot's turn"
    )
    records = await bot.store.games_in_channel(fake.channel().id, kind="essence")
    newest = max(records, key=lambda r: r.id)
    assert newest.players == [BOT_ID, stable_user_id(ALICE)]
    assert [s for s, _ in await bot.store.game_actions(newest.id)] == [0, 0]
    assert f"#{newest.id}" in embed_text(new_board)


def test_the_board_marks_the_whole_answer_of_the_last_player() -> None:
    steps = Steps()
    steps.items = [
        (0, Event("moved", {"source": "d1", "target": "d2"})),
        (1, Event("void_shifted", {"source": "d4", "target": "e4"})),
        (1, Event("destabilized", {"source": "f6", "amount": 1, "hit": ["e7", "g7"]})),
        (1, Event("removed", {"square": "e7", "strength": 0})),
    ]
    assert touched(steps) == ["d4", "e4", "f6", "e7", "g7"]
    assert touched(Steps()) == []


def test_void_targets_say_whose_mote_the_void_would_swallow() -> None:
    fen = "B2'..B1..B2/......./......./...x.../..B3A2.../......./A2..A1..A2' 1 a1 - 5 -"
    match = m.Match("essence", 2, ENGINE.parse_position(fen))
    tree = choice_tree(ENGINE.legal_actions(match.state, 0))
    labels = {o: _option_label(match, tree, ("vd",), o, "de") for o in tree.options(("vd",))}
    assert labels["c3"] == t("essenzcog.void_onto.enemy", "de", square="c3", strength=3)
    assert labels["d3"] == t("essenzcog.void_onto.own", "de", square="d3", strength=2)
    assert labels["e4"] == "e4"


async def test_the_bot_is_named_in_the_readers_language_and_a_finished_board_asks_no_typing(
    fake: FakeDiscord, bot: Any
) -> None:
    await (await fake.slash("essenz start", {"bot": "easy"}, user=ALICE)).message()
    listing = await (await fake.slash("essenz liste", user=CAROL, locale="en-US")).callback()
    assert f"Spielleiter ({t('essenzcog.choice.level.easy', 'en')})" in embed_text(listing)
    assert t("essenzcog.choice.level.easy", "de") != t("essenzcog.choice.level.easy", "en")
    running = await fake.wait_for_message(lambda msg: bool(msg.embeds))
    assert t("essenzcog.footer.typing", "de") in running.embeds[0]["footer"]["text"]
    await (await fake.slash("essenz aufgeben", user=ALICE)).message()
    final = await fake.wait_for_message(lambda msg: "🏆" in msg.text and bool(msg.embeds))
    assert final.id == running.id  # the same living board
    assert t("essenzcog.footer.typing", "de") not in final.embeds[0]["footer"]["text"]


async def test_a_draw_offered_on_the_own_turn_is_for_the_other_player(
    fake: FakeDiscord, bot: Any
) -> None:
    board = await accepted_game(fake, locale="en")
    first = board
    # Alice is to act and offers by command: the living board says so (edited in place).
    offer = await fake.slash("essenz remis", {"aktion": "offer"}, user=ALICE, locale="en")
    assert_ephemeral(await offer.callback())
    offered = t("essenzcog.event.draw_offered", "en", name="Alice")
    game_id = await game_id_of(board)
    board = await live_board_of(fake, bot, game_id, lambda msg: offered in embed_text(msg))
    assert board.id == first.id
    text = embed_text(board)
    assert text.count(t("essenzcog.event.draw_offered", "en", name="Alice")) == 1
    assert t("essenzcog.draw.offered", "en", name="Alice") not in text
    labels = [b.get("label") for b in board.buttons]
    assert t("essenzcog.button.draw_accept", "en") not in labels
    assert t("essenzcog.button.draw_decline", "en") not in labels
    assert t("essenzcog.button.draw_offer", "en") not in labels
    assert f"<@{stable_user_id(BOB)}>, Alice offers you a draw." in board.content
    accept_for_bob = button_for(board, t("essenzcog.button.draw_accept_for", "en", name="Bob"))
    own = await (await fake.click(board, accept_for_bob, user=ALICE)).callback()
    assert_ephemeral(own)
    # Bob accepts by command: the game ends and the board keeps no turn prompt.
    accepted = await fake.slash("essenz remis", {"aktion": "accept"}, user=BOB, locale="en")
    assert_ephemeral(await accepted.callback())
    reason = t("essenzcog.reason.draw_agreed", "en")
    drawn = t("essenzcog.status.draw", "en", reason=reason)
    final = await live_board_of(fake, bot, game_id, lambda msg: drawn in embed_text(msg))
    assert "your turn" not in final.content and not final.content


async def test_a_menu_of_whole_steps_asks_for_a_step_not_a_mote(
    fake: FakeDiscord, bot: Any
) -> None:
    board = await accepted_game(fake)
    (first,) = [s for s in board.selects if ":p::" in s["custom_id"]][:1]
    assert first["placeholder"] == t("essenzcog.select.mote", "de")
    picked = await fake.select(board, mote_select(board), ["d1"], user=ALICE)
    board = await picked.message()
    menu, _value = step_choice(board, f"{t('essence.kind.move', 'de')}: d2")
    (steps,) = [s for s in board.selects if s["custom_id"] == menu]
    assert steps["placeholder"] == t("play.select.step", "de")


async def test_a_step_click_stays_good_when_only_a_draw_offer_came_between(
    fake: FakeDiscord, bot: Any
) -> None:
    """Stale clicks are judged per decision: Bob's offer changes the game, not Alice's step."""
    board = await accepted_game(fake)
    game_id = await game_id_of(board)
    picked = await fake.select(board, mote_select(board), ["d1"], user=ALICE)
    board = await picked.message()
    kept, second = copy.deepcopy(board), copy.deepcopy(board)  # what Alice's client shows
    menu, value = step_choice(board, f"{t('essence.kind.move', 'de')}: d2")
    await (await fake.slash("essenz remis", {"aktion": "offer"}, user=BOB)).message()
    played = await fake.select(kept, menu, [value], user=ALICE)
    assert (await played.callback()).type == 7
    assert await bot.store.game_actions(game_id) == [(1, "!draw-offer"), (0, "move d1 d2")]
    again = await (await fake.select(second, menu, [value], user=ALICE)).callback()
    assert_ephemeral(again)
    assert again.content == t("error.stale", "de")


async def test_a_typed_step_reads_the_game_row_once(
    fake: FakeDiscord, bot: Any, monkeypatch: Any
) -> None:
    """The game the command means is read once and used for the step, the board and the
    board pointer (the write returns the stored game)."""
    await accepted_game(fake)
    reads: list[str] = []
    writing = False
    for name in ("get_game", "games_in_channel", "games_idle_since", "set_game_display"):
        original = getattr(bot.store, name)

        def counted(*args: Any, _name: str = name, _original: Any = original, **kw: Any) -> Any:
            if not writing:  # the store's own read-back after a write is the write's
                reads.append(_name)
            return _original(*args, **kw)

        monkeypatch.setattr(bot.store, name, counted)
    update = bot.store.update_game

    async def write(*args: Any, **kw: Any) -> Any:
        nonlocal writing
        writing = True
        try:
            return await update(*args, **kw)
        finally:
            writing = False

    monkeypatch.setattr(bot.store, "update_game", write)
    typed = await fake.slash("essenz zug", {"notation": "move d1 d2"}, user=ALICE)
    assert_ephemeral(await typed.callback())
    moved = t("essence.event.moved", "de", name="Alice", source="d1", target="d2")
    await fake.wait_for_message(lambda msg: moved in embed_text(msg))
    await fake.wait(lambda: "set_game_display" in reads or None, 5, "the board pointer")
    # one read; the board pointer is written without reading the game again
    assert reads == ["games_in_channel", "set_game_display"]


async def test_challenging_yourself_is_refused(fake: FakeDiscord, bot: Any) -> None:
    refused = await (
        await fake.slash("essenz start", {"gegner": ALICE}, user=ALICE, locale="en-US")
    ).callback()
    assert_ephemeral(refused)
    assert refused.content == t("play.error.self_challenge", "en")
    assert await bot.store.games_in_channel(fake.channel().id, kind="essence") == []


async def test_the_board_command_shows_the_live_board_again(fake: FakeDiscord, bot: Any) -> None:
    board = await accepted_game(fake)
    game_id = await game_id_of(board)
    for _attempt in range(100):  # the accepted invitation is the live board once recorded
        if (await GameService(bot.store).get(game_id)).display.get("board") == board.id:
            break
        await asyncio.sleep(0.02)
    shown = await (await fake.slash("essenz brett", user=CAROL, locale="en-US")).message()
    assert_public(shown)
    assert_png_attachment(shown)
    # the public board speaks the game's language (its host's), not the asker's
    assert t("essenzcog.title", "de", id=await game_id_of(board)) in embed_text(shown)
    assert f"<@{stable_user_id(ALICE)}>" in shown.content  # still Alice's step, clickable
    assert mote_select(shown)
    await fake.wait(lambda: board.components == [] or None, 5, "the older board cleared")


def test_the_board_numbers_each_action_of_the_last_answer() -> None:
    steps = Steps()
    for actor, events in [
        (0, [Event("moved", {"source": "d1", "target": "d2"})]),
        (1, [Event("void_shifted", {"source": "d4", "target": "e4"})]),
        (1, [Event("destabilized", {"source": "f6", "amount": 1, "hit": ["e7"]})]),
    ]:
        steps.add(Turn(None, None, events, actor))  # type: ignore[arg-type]
    assert touched_by_action(steps) == [["d4", "e4"], ["f6", "e7"]]
    assert touched(steps) == ["d4", "e4", "f6", "e7"]


async def test_one_running_game_needs_no_number_beside_an_open_invitation(
    fake: FakeDiscord, bot: Any
) -> None:
    board = await accepted_game(fake)  # Alice against Bob; Alice is to act
    await (await fake.slash("essenz start", {"gegner": BOB}, user=CAROL)).message()
    offer = await fake.slash("essenz remis", {"aktion": "offer"}, user=BOB)
    assert_ephemeral(await offer.callback())
    offered = t("essenzcog.event.draw_offered", "de", name="Bob")
    shown = await live_board_of(fake, bot, await game_id_of(board), lambda m: offered in m.text)
    assert_public(shown)
    assert await bot.store.game_actions(await game_id_of(board)) == [(1, "!draw-offer")]


async def test_a_step_offered_whole_is_one_click_and_a_forged_one_changes_nothing(
    fake: FakeDiscord, bot: Any
) -> None:
    """After the mote, every step of it is one option (two clicks a step); with few steps
    left in all, the board offers every one at once (one click). A forged step number is
    refused."""
    board = await accepted_game(fake)
    game_id = await game_id_of(board)
    picked = await fake.select(board, mote_select(board), ["d1"], user=ALICE)
    board = await picked.message()
    menu, value = step_choice(board, f"{t('essence.kind.move', 'de')}: d2")
    assert value.startswith("=")
    for forged in ("=999", "=x", "=0.=1"):
        refused = await (
            await fake.forge_component(board, menu, component_type=3, values=[forged], user=ALICE)
        ).callback()
        assert_ephemeral(refused)
    assert await bot.store.game_actions(game_id) == []
    await (await fake.select(board, menu, [value], user=ALICE)).callback()
    assert await bot.store.game_actions(game_id) == [(0, "move d1 d2")]
    board = await live_board_of(fake, bot, game_id, lambda msg: bool(msg.selects))
    steps = [o for s in board.selects for o in s["options"]]
    record = await GameService(bot.store).get(game_id)
    legal = ENGINE.legal_actions(load(record).state, 0)
    if len(legal) <= 25:  # few: every step at once, one click
        assert len(steps) == len(legal) and all(o["value"].startswith("=") for o in steps)
    else:  # many: the motes first
        assert all(not o["value"].startswith("=") for o in steps)


async def test_the_board_picture_is_never_left_showing_an_abandoned_selection(
    fake: FakeDiscord, bot: Any
) -> None:
    """A mote chosen shows its targets on the picture; the board shown again without the
    selection (the same position) uploads the plain picture again."""
    board = await accepted_game(fake)
    game_id = await game_id_of(board)
    plain = board.attachments[0].data
    picked = await fake.select(board, mote_select(board), ["d1"], user=ALICE)
    board = await picked.message()
    assert board.attachments[0].data != plain  # the targets marked
    table = bot.get_cog("Essence").table
    record = await GameService(bot.store).get(game_id)
    await table.show(record, await table.screen(record, load(record), "de"))
    assert fake.messages[board.id].attachments[0].data == plain
