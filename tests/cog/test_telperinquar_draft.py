"""``/telperinquar-draft`` through the fake Discord: two people and a bot seat draft to the
end by clicking each pick privately (German and English), the picks stay secret on every
public message, and each person's deck is saved (never over a deck of the same name); a
forged or old pick is refused and changes nothing."""

from __future__ import annotations

import asyncio
import copy
import re
from typing import Any

import pytest

from bot.games import GameService, load
from bot.i18n import t
from bot.sandbox.fake_discord import BOT_ID, FakeDiscord, StoredMessage, stable_user_id
from engines.core import match as m
from engines.telperinquar import draft
from engines.telperinquar.decks import parse_list, validate
from engines.telperinquar.draft import DRAFT_ENGINE
from tests.harness import (
    assert_components_valid,
    assert_ephemeral,
    assert_public,
    embed_text,
    live_board_of,
)

ALICE, BOB, DAVE = "alice", "bob", "dave"


@pytest.fixture(autouse=True)
def small_boosters(monkeypatch: pytest.MonkeyPatch) -> None:
    """Boosters of four cards: the whole draft in 12 picks per seat."""
    monkeypatch.setattr(draft, "BOOSTER", 4)


def game_of(message: StoredMessage) -> int:
    found = re.search(r"#(\d+)", embed_text(message) or message.content)
    return int(found.group(1)) if found else int(message.custom_ids[0].split(":")[1])


def button_for(message: StoredMessage, label: str) -> str:
    for button in message.buttons:
        if button.get("label") == label:
            return str(button["custom_id"])
    raise AssertionError(f"no button {label!r} among {[b.get('label') for b in message.buttons]}")


async def open_pick(
    fake: FakeDiscord, client: Any, game_id: int, seat: int
) -> tuple[StoredMessage, str] | None:
    """The live board once ``seat`` has an open pick on it (None: the draft is over)."""
    for _attempt in range(400):
        record = await client.store.get_game(game_id)
        if record.status != "active":
            return None
        mine = [d for d in m.decisions(DRAFT_ENGINE, load(record)) if d.seat == seat]
        board = record.display.get("board")
        message = fake.messages.get(board) if board is not None else None
        if mine and message is not None:
            wanted = f"tqd:{game_id}:{mine[0].id}:o"
            if wanted in message.custom_ids:
                return message, wanted
        await asyncio.sleep(0.02)
    raise AssertionError("no board offered the seat's pick")


async def prompt_for(
    fake: FakeDiscord, client: Any, game_id: int, seat: int, user: str, locale: str
) -> StoredMessage | None:
    found = await open_pick(fake, client, game_id, seat)
    if found is None:
        return None
    board, opener = found
    opened = await fake.click(board, opener, user=user, locale=locale)
    assert_ephemeral(await opened.callback())
    prompt = await opened.message()
    assert_ephemeral(prompt)
    assert_components_valid(prompt)
    return prompt


async def pick_first(fake: FakeDiscord, prompt: StoredMessage, user: str, locale: str) -> str:
    (select,) = [s for s in prompt.selects if ":p:" in s["custom_id"]]
    option = select["options"][0]
    answer = await fake.select(
        prompt, select["custom_id"], [option["value"]], user=user, locale=locale
    )
    reply = await answer.callback()
    assert reply.type == 7, reply.content
    done = await answer.message()
    assert not done.components
    assert done.content.startswith(t("play.done", "en" if locale == "en-US" else "de"))
    return str(option["label"])


async def closing_board(fake: FakeDiscord, bot: Any, game_id: int) -> str:
    """The live board's text once the closing board is posted (waits for it, at most ~10 s)."""
    text = ""
    for _ in range(200):
        record = await GameService(bot.store).get(game_id)
        board = fake.messages.get(record.display.get("board"))
        text = embed_text(board) if board is not None else ""
        if "/telperinquar start" in text:
            break
        await asyncio.sleep(0.05)
    return text


async def test_two_people_and_a_bot_draft_to_their_saved_decks(fake: FakeDiscord, bot: Any) -> None:
    options = {"spieler2": BOB, "bots": 1, "bot": "normal"}
    invitation = await (await fake.slash("telperinquar-draft start", options, user=ALICE)).message()
    assert_public(invitation)
    accepted = await fake.click(invitation, button_for(invitation, "Annehmen"), user=BOB)
    assert (
        await accepted.callback()
    ).type == 6  # 6: acknowledged, the first board drawn after (issue 18)
    game_id = game_of(invitation)
    record = await GameService(bot.store).get(game_id)
    assert record.status == "active"
    assert record.players == [stable_user_id(ALICE), stable_user_id(BOB), BOT_ID]
    # Bob already has a deck of the name the draft would take: it is never overwritten
    mine = await bot.store.create_deck(stable_user_id(BOB), f"Draft {game_id}", [("Wolf", 2)])
    people = ((0, ALICE, "de"), (1, BOB, "en-US"))
    labels: dict[str, list[str]] = {ALICE: [], BOB: []}
    for _step in range(30):
        prompts = []
        for seat, user, locale in people:
            prompt = await prompt_for(fake, bot, game_id, seat, user, locale)
            if prompt is None:
                break
            prompts.append((prompt, user, locale))
        if not prompts:
            break
        for prompt, user, locale in prompts:
            if locale == "de":
                assert "dein Booster" in prompt.content and "Nimm eine Karte" in prompt.content
            else:
                assert "your booster" in prompt.content and "Take one card" in prompt.content
            labels[user].append(await pick_first(fake, prompt, user, locale))
    record = await GameService(bot.store).get(game_id)
    assert record.status != "active"
    assert len(labels[ALICE]) == len(labels[BOB]) == 12
    assert all(re.search(r"\(\d+/\d+\)$", label) for label in labels[ALICE] + labels[BOB])
    # Each seat's picks stayed its own: no public message named what a person took.
    public = [msg for msg in fake.channel_messages() if not msg.ephemeral]
    assert not any("Du nimmst" in msg.text or "You take" in msg.text for msg in public)
    # The decks are saved when the draft's end is shown (not while a board is drawn): Alice's
    # under the draft's name, Bob's beside his own deck
    await closing_board(fake, bot, game_id)
    alice = await bot.store.get_deck(stable_user_id(ALICE), f"Draft {game_id}")
    bob = await bot.store.get_deck(stable_user_id(BOB), f"Draft {game_id} (2)")
    assert alice is not None and bob is not None
    for deck in (alice, bob):
        assert deck.size == 40
        info = validate(parse_list("".join(f"{n} {name}\n" for name, n in deck.cards)))
        assert info.legal and info.classes == ("draft",)
    kept = await bot.store.get_deck(stable_user_id(BOB), f"Draft {game_id}")
    assert kept is not None and kept.cards == mine.cards
    assert await bot.store.get_deck(BOT_ID, f"Draft {game_id}") is None
    # The closing board shows the lists and how to play the matches (it is posted after the
    # last pick's answer; a board of an earlier pick that arrives later never replaces it)
    text = await closing_board(fake, bot, game_id)
    assert f"Draft {game_id}" in text and "/telperinquar start" in text
    # in the game's language (its host's), not in Bob's though his was the last pick; few
    # picks: more level cards fill up to 40
    assert "1 Draft-Held" in text and "27 Stufenkarte Draft-Held" in text
    # showing the end again saves nothing twice
    again = await fake.slash("telperinquar-draft brett", {"spiel": game_id}, user=ALICE)
    assert_public(await again.message())
    names = [d.name for d in await bot.store.decks(stable_user_id(ALICE))]
    assert names.count(f"Draft {game_id}") == 1 and f"Draft {game_id} (2)" not in names
    # drawing a board of the finished draft writes nothing (its end saved the decks)
    assert await bot.store.delete_deck(stable_user_id(ALICE), f"Draft {game_id}")
    table = bot.get_cog("TelperinquarDraft").table
    record = await GameService(bot.store).get(game_id)
    drawn = await table.screen(record, load(record), "de")
    closing = drawn.embed.description or ""  # it reads what is saved: Bob's deck only
    assert f"„Draft {game_id} (2)“" in closing and f"„Draft {game_id}“" not in closing
    assert await bot.store.get_deck(stable_user_id(ALICE), f"Draft {game_id}") is None


async def test_a_forged_or_old_pick_is_refused_and_changes_nothing(
    fake: FakeDiscord, bot: Any
) -> None:
    started = await (await fake.slash("telperinquar-draft start", {}, user=ALICE)).message()
    game_id = game_of(started)
    prompt = await prompt_for(fake, bot, game_id, 0, ALICE, "de")
    assert prompt is not None
    old = copy.deepcopy(prompt)
    await pick_first(fake, prompt, ALICE, "de")
    await prompt_for(fake, bot, game_id, 0, ALICE, "de")  # the next pick is open
    before = await GameService(bot.store).get(game_id)
    logged = await bot.store.game_actions(game_id)
    (select,) = [s for s in old.selects if ":p:" in s["custom_id"]]
    stale = await fake.select(old, select["custom_id"], [select["options"][1]["value"]], user=ALICE)
    assert_ephemeral(await stale.callback())
    record = await GameService(bot.store).get(game_id)
    decision = next(d for d in m.decisions(DRAFT_ENGINE, load(record)) if d.seat == 0)
    forged_ids = [
        f"tqd:{game_id}:{decision.id}:p:k000000",  # a card in no booster
        f"tqd:{game_id}:{decision.id.rsplit('.', 1)[0]}.1:o",  # the bot's pick
        f"tqd:{game_id}:{decision.id}:p:#99",
        f"tqd:{game_id}:zz:o",
    ]
    for forged, user in [*((f, ALICE) for f in forged_ids), (forged_ids[0][:-10] + "o", DAVE)]:
        message = copy.deepcopy(old)
        message.components[0]["components"][0] = {"type": 2, "style": 2, "label": "x",
                                                  "custom_id": forged}  # fmt: skip
        reply = await (await fake.click(message, forged, user=user)).callback()
        assert_ephemeral(reply)
        assert reply.content and "tqd:" not in reply.content, forged
    after = await GameService(bot.store).get(game_id)
    assert after.revision == before.revision
    assert await bot.store.game_actions(game_id) == logged


async def test_english_texts_and_the_seat_count(fake: FakeDiscord, bot: Any) -> None:
    started = await (
        await fake.slash("telperinquar-draft start", {}, user=ALICE, locale="en-US")
    ).message()
    assert "Telperinquár draft #" in embed_text(started)
    assert "Round 1/3 · pick 1 · the boosters pass to the left" in embed_text(started)
    game_id = game_of(started)
    prompt = await prompt_for(fake, bot, game_id, 0, ALICE, "en-US")
    assert prompt is not None
    (select,) = prompt.selects
    assert select["placeholder"] == "Choose a card …"
    assert all(o.get("description") for o in select["options"])
    too_many = await (
        await fake.slash(
            "telperinquar-draft start", {"spieler2": BOB, "bots": 7}, user=ALICE, locale="en-US"
        )
    ).callback()
    assert_ephemeral(too_many)
    assert too_many.content == t("tqdraft.error.seats", "en", count=9)


async def test_eight_people_each_get_their_pick_button(fake: FakeDiscord, bot: Any) -> None:
    guests = [f"guest{n}" for n in range(2, 9)]
    options = {f"spieler{n}": guest for n, guest in zip(range(2, 9), guests, strict=True)}
    invitation = await (await fake.slash("telperinquar-draft start", options, user=ALICE)).message()
    assert_components_valid(invitation)
    game_id = game_of(invitation)
    for guest in guests:
        message = fake.messages[invitation.id]
        accepted = await fake.click(message, button_for(message, "Annehmen"), user=guest)
        assert (await accepted.callback()).type == (6 if guest == guests[-1] else 7)  # 6: starts
    record = await GameService(bot.store).get(game_id)
    assert record.status == "active" and len(record.players) == 8
    board = await accepted.message()
    assert_components_valid(board)
    openers = [c for c in board.custom_ids if c.endswith(":o")]
    assert len(openers) == 8
    # the sixth guest opens its own pick from its own button
    opened = await fake.click(board, openers[6], user=guests[5])
    assert_ephemeral(await opened.callback())
    assert (await opened.message()).selects


async def test_when_one_of_two_leaves_the_other_drafts_on_to_a_deck(
    fake: FakeDiscord, bot: Any
) -> None:
    """Nobody wins a draft: when Bob resigns, the bot picks for his seat and Alice drafts on
    to the end and gets her deck (Bob none); when the last person leaves, the draft ends."""
    invitation = await (
        await fake.slash("telperinquar-draft start", {"spieler2": BOB}, user=ALICE)
    ).message()
    accepted = await fake.click(invitation, button_for(invitation, "Annehmen"), user=BOB)
    assert (
        await accepted.callback()
    ).type == 6  # 6: acknowledged, the first board drawn after (issue 18)
    game_id = game_of(invitation)
    prompt = await prompt_for(fake, bot, game_id, 0, ALICE, "de")
    assert prompt is not None
    await pick_first(fake, prompt, ALICE, "de")
    resigned = await fake.slash("telperinquar-draft aufgeben", {"spiel": game_id}, user=BOB)
    assert_ephemeral(await resigned.callback())
    said = t("tqdraft.event.left", "de", name="Bob")
    left = await live_board_of(fake, bot, game_id, lambda msg: said in embed_text(msg))
    assert_public(left)
    record = await GameService(bot.store).get(game_id)
    assert record.status == "active" and load(record).eliminated == (1,)
    picks = 1
    while (prompt := await prompt_for(fake, bot, game_id, 0, ALICE, "de")) is not None:
        await pick_first(fake, prompt, ALICE, "de")
        picks += 1
    assert picks == 12  # three rounds of four-card boosters, the bot picking beside her
    record = await GameService(bot.store).get(game_id)
    result = m.outcome(DRAFT_ENGINE, load(record))
    assert record.status == "finished" and result is not None and result.reason == "drafted"
    over = t("tqdraft.board.over", "de")
    final = await fake.wait_for_message(lambda msg: over in (embed_text(msg) or ""))
    assert f"<@{stable_user_id(ALICE)}>" in embed_text(final)  # her saved deck
    assert f"<@{stable_user_id(BOB)}>" not in embed_text(final).split(over, 1)[1]
    deck = await bot.store.get_deck(stable_user_id(ALICE), f"Draft {game_id}")
    assert deck is not None and deck.size == 40
    assert await bot.store.get_deck(stable_user_id(BOB), f"Draft {game_id}") is None


async def test_the_draft_ends_when_the_last_person_leaves(fake: FakeDiscord, bot: Any) -> None:
    invitation = await (
        await fake.slash("telperinquar-draft start", {"spieler2": BOB}, user=ALICE)
    ).message()
    await (await fake.click(invitation, button_for(invitation, "Annehmen"), user=BOB)).callback()
    game_id = game_of(invitation)
    await (await fake.slash("telperinquar-draft aufgeben", {"spiel": game_id}, user=BOB)).message()
    await (
        await fake.slash("telperinquar-draft aufgeben", {"spiel": game_id}, user=ALICE)
    ).callback()
    abandoned = t("tqdraft.board.abandoned", "de")
    last = await live_board_of(fake, bot, game_id, lambda msg: abandoned in embed_text(msg))
    record = await GameService(bot.store).get(game_id)
    assert record.status == "finished"
    assert "🏆" not in embed_text(last) and "🤝" not in embed_text(last)
    assert await bot.store.decks(stable_user_id(ALICE)) == []
