"""``/telperinquar`` through the fake Discord: a user's decks from creation to deletion (import
with an unknown card, export and import again), a duel against the bot clicked turn by turn
until a reaction is offered and answered, a 2 vs 2 invitation where each seat picks its own
deck, refusals (an old button, another player's decision, a forged target), the hand only ever
shown to its owner, and the English texts."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest

from bot.games import load
from bot.i18n import t
from bot.play.ui import whole_steps
from bot.sandbox.fake_discord import BOT_ID, FakeDiscord, StoredMessage, stable_user_id
from engines.core import match as m
from engines.core.choices import ChoiceTree
from engines.telperinquar import ENGINE
from engines.telperinquar.decks import parse_list, starter_text
from tests.harness import (
    assert_components_valid,
    assert_ephemeral,
    assert_png_attachment,
    assert_public,
    embed_text,
    live_board_of,
)

ALICE, BOB, CAROL = "alice", "bob", "carol"
# A Fighter who keeps Heiltränke (defensive: usable in the others' turns) to answer with.
REACTOR = """# Heiltrank-Kämpfer
1 Kämpfer
10 Stufenkarte Kämpfer
4 Heiltrank
4 Langschwert
4 Kurzschwert
4 Dolch
4 Kettenhemd
4 Holzschild
4 Söldner
1 Wolf
"""


def cog(bot: Any) -> Any:
    return bot.cogs["Telperinquar"]


def fixed_seed(bot: Any, seed: int) -> None:
    """Games of this test start from ``seed`` (the bot's own moves follow from it)."""
    cog(bot).games.entropy = lambda bits: seed


async def slash(fake: FakeDiscord, name: str, options: dict[str, Any], **kw: Any) -> Any:
    """The answer to a command (after its deferral, for one that draws an image first)."""
    exchange = await fake.slash(f"telperinquar {name}", options, **kw)
    first = await exchange.callback()
    return await exchange.followup() if first.type == 5 else first


def game_of(message: StoredMessage) -> int:
    """The game's number from its title ("Telperinquár #3") or its components."""
    found = re.search(r"Telperinquár #(\d+)", embed_text(message))
    return int(found.group(1)) if found else int(message.custom_ids[0].split(":")[1])


async def live_board(fake: FakeDiscord, bot: Any, game_id: int) -> StoredMessage:
    record = await bot.store.get_game(game_id)
    return fake.messages[record.display["board"]]


async def open_decision(
    fake: FakeDiscord, bot: Any, game_id: int, seat: int
) -> tuple[StoredMessage, str, Any] | None:
    """The live board once ``seat`` has an open decision on it (None: the game is over)."""
    for _attempt in range(400):
        record = await bot.store.get_game(game_id)
        if record.status != "active":
            return None
        match = load(record)
        mine = [d for d in m.decisions(ENGINE, match) if d.seat == seat]
        board = record.display.get("board")
        message = fake.messages.get(board) if board is not None else None
        if mine and message is not None:
            wanted = f"tq:{game_id}:{mine[0].id}:o"
            if wanted in message.custom_ids:
                return message, wanted, mine[0]
        await asyncio.sleep(0.025)
    raise AssertionError("no board offered the seat's decision")


def path_of(custom_id: str) -> tuple[str, ...]:
    return tuple(custom_id.split(":p:", 1)[1].split(":")[0].split("."))


def whole_path(tree: ChoiceTree[Any], path: tuple[str, ...]) -> tuple[str, ...]:
    """A click path with its last ``=<n>`` (a step offered whole) written out."""
    if path and path[-1].startswith("="):
        return whole_steps(tree, path[:-1])[int(path[-1][1:])]
    return path


def pick(
    prompt: StoredMessage, wanted: list[str], tree: ChoiceTree[Any] | None = None
) -> tuple[str, str | None]:
    """The first wanted click on a private prompt: a step offered whole that holds a wanted
    token (a verb with a wanted card, if any card is wanted), a button whose path ends in a
    wanted token, or a select option; (custom_id, select value or None)."""
    buttons = {
        path_of(b["custom_id"])[-1]: b["custom_id"]
        for b in prompt.buttons
        if ":p:" in b["custom_id"]
    }
    if tree is not None:
        wholes = {
            cid: whole_path(tree, path_of(cid)) for token, cid in buttons.items() if "=" in token
        }
        cards = [w for w in wanted if w.startswith("c") and w[1:].isdecimal()]
        for token in wanted:
            for cid, path in wholes.items():
                if token in path and (token in cards or not cards or set(cards) & set(path)):
                    return cid, None
    for token in wanted:
        if token in buttons:
            return buttons[token], None
        for select in prompt.selects:
            for option in select["options"]:
                if option["value"] == token or token in option["label"]:
                    return select["custom_id"], option["value"]
    deeper = [cid for token, cid in buttons.items() if token and len(path_of(cid)) > 1]
    if deeper:  # a verb chosen: its first card (a level card, a target)
        return deeper[0], None
    raise AssertionError(f"none of {wanted} on {prompt.content!r}: {list(buttons)}")


def policy(prompt: StoredMessage, seat_view: dict[str, Any]) -> list[str]:
    """Alice's plan: level up, keep a Heiltrank in play with actions to spare, answer with it."""
    me = seat_view["players"][0]
    if seat_view["ask"] == 0:
        return ["react", "pass"]
    if seat_view["phase"] == "entry":
        return ["level", "go"]
    if seat_view["phase"] == "position":
        return ["end"]
    potions = [c["id"] for c in me["hand"] if c["name"] == "Heiltrank"]
    in_play = any(c["name"] == "Heiltrank" for c in me["equip"])
    if potions and not in_play and me["actions"] >= 2:
        return ["play", *potions, "next"]
    return ["next"]


async def decide(
    fake: FakeDiscord, bot: Any, game_id: int, prompt: StoredMessage, user: str
) -> list[str]:
    """Click Alice's plan through the private prompt; it goes on with her next decision
    (the hand image kept open) until the turn passes. The tokens clicked."""
    clicked: list[str] = []
    for _step in range(40):
        assert_ephemeral(prompt)
        assert_components_valid(prompt)
        if not prompt.components:
            assert prompt.content.startswith(t("play.done", "de"))
            return clicked
        record = await bot.store.get_game(game_id)
        view = ENGINE.view_for(load(record).state, 0)
        tree = ChoiceTree(ENGINE, ENGINE.legal_actions(load(record).state, 0))
        cid, value = pick(prompt, policy(prompt, view), tree)
        clicked.append(value or whole_path(tree, path_of(cid))[0])
        if value is None:
            answer = await fake.click(prompt, cid, user=user)
        else:
            answer = await fake.select(prompt, cid, [value], user=user)
        reply = await answer.callback()
        assert reply.type == 7, reply.content
        prompt = await answer.message()
    raise AssertionError(f"the turn never passed: {clicked}")


# ---------------------------------------------------------------------- decks


async def test_a_deck_from_starter_to_deletion(fake: FakeDiscord, bot: Any) -> None:
    made = await slash(fake, "deck starter", {"klasse": "zauberer", "neuer_name": "Feuer"})
    assert_ephemeral(made)
    assert made.files and made.files[0].filename == "deck.png"
    text = embed_text(made)
    assert "Feuer" in text and "✅" in text and "Feuerpfeil" in text
    renamed = await slash(fake, "deck umbenennen", {"name": "Feuer", "neuer_name": "Glut"})
    assert "Glut" in renamed.content
    copied = await slash(fake, "deck kopieren", {"name": "Glut", "neuer_name": "Asche"})
    assert "Asche" in copied.content
    # cards by autocomplete: English names offered to an English reader, German stored
    found = await fake.autocomplete(
        "telperinquar deck hinzu", {"name": "Asche", "karte": "long"}, locale="en"
    )
    assert any(c["name"].endswith("Long Sword") and c["value"] == "Langschwert" for c in found)
    decks = await fake.autocomplete("telperinquar deck zeigen", {"name": "As"})
    assert [c["value"] for c in decks] == ["Asche"]
    added = await slash(fake, "deck hinzu", {"name": "Asche", "karte": "Langschwert", "anzahl": 2})
    assert "2×" in added.content
    added = await slash(fake, "deck hinzu", {"name": "Asche", "karte": "Long Sword", "anzahl": 3})
    assert "5×" in added.content and "❌" in added.content  # five copies: not legal
    removed = await slash(fake, "deck entfernen", {"name": "Asche", "karte": "Langschwert"})
    assert "4×" in removed.content
    checked = await slash(fake, "deck pruefen", {"name": "Asche"})
    assert "✅" in embed_text(checked)
    missing = await slash(fake, "deck entfernen", {"name": "Asche", "karte": "Wolf"})
    assert_ephemeral(missing)
    assert t("tq.deck.not_in_deck", "de", name="Wolf") in missing.content
    listed = await slash(fake, "deck liste", {})
    assert "Asche" in embed_text(listed) and "Glut" in embed_text(listed)
    gone = await slash(fake, "deck loeschen", {"name": "Glut"})
    assert "Glut" in gone.content
    assert await bot.store.get_deck(stable_user_id(ALICE), "Glut") is None
    nothing = await slash(fake, "deck zeigen", {"name": "Glut"})
    assert t("tq.deck.not_found", "de", name="Glut") in nothing.content


async def test_import_refuses_unknown_cards_and_export_round_trips(
    fake: FakeDiscord, bot: Any
) -> None:
    text = starter_text("schurke").replace("Kurzbogen", "Kurzbogn")
    refused = await slash(
        fake, "deck import", {"name": "Dieb", "datei": ("dieb.txt", text.encode())}
    )
    assert_ephemeral(refused)
    said = embed_text(refused)
    assert "Kurzbogn" in said and "Kurzbogen" in said  # the nearest name is offered
    assert await bot.store.get_deck(stable_user_id(ALICE), "Dieb") is None  # nothing stored
    taken = await slash(
        fake, "deck import", {"name": "Dieb", "liste": starter_text("schurke").replace("\n", ";")}
    )
    assert "✅" in embed_text(taken)
    exported = await slash(fake, "deck export", {"name": "Dieb"})
    assert_ephemeral(exported)
    body = exported.files[0].data.decode()
    assert body.splitlines()[0] == "1 Schurke"
    # the exported file read back through the form gives the same deck
    opened = await fake.slash("telperinquar deck import", {"name": "Kopie"})
    submitted = await fake.submit_modal(opened, {"name": "Kopie", "list": body})
    await submitted.callback()
    first = await bot.store.get_deck(stable_user_id(ALICE), "Dieb")
    second = await bot.store.get_deck(stable_user_id(ALICE), "Kopie")
    assert (
        dict(first.cards) == dict(second.cards) == dict(parse_list(starter_text("schurke")).entries)
    )


# ---------------------------------------------------------------------- a duel


async def test_a_duel_against_the_bot_offers_and_takes_a_reaction(
    fake: FakeDiscord, bot: Any
) -> None:
    fixed_seed(bot, 1)
    await slash(fake, "deck import", {"name": "Tränke", "liste": REACTOR.replace("\n", ";")})
    started = await fake.slash("telperinquar start", {"deck": "Tränke", "bot": "normal"})
    board = await started.message()
    assert_public(board)
    assert_components_valid(board)
    game_id = game_of(board)
    record = await bot.store.get_game(game_id)
    assert record.players == [stable_user_id(ALICE), BOT_ID]
    assert record.config["seat_choices"][0].startswith("# Tränke")
    reacted = False
    kinds = []
    for _decision in range(80):
        found = await open_decision(fake, bot, game_id, 0)
        if found is None:
            break
        board, opener, decision = found
        kinds.append(decision.kind.name)
        assert_png_attachment(board)  # the field after every step
        opened = await fake.click(board, opener, user=ALICE)
        first = await opened.callback()
        assert_ephemeral(first)
        assert first.files and first.files[0].filename.endswith("-hand.png")
        clicked = await decide(fake, bot, game_id, await opened.message(), ALICE)
        if "react" in clicked:
            reacted = True
            break

    assert reacted, kinds
    alices = [text for seat, text in await bot.store.game_actions(game_id) if seat == 0]
    assert kinds.count("TURN") >= 2 and len(alices) >= 4  # turns clicked through first
    # the answer stands in the public narration once the stack resolved
    actions = await bot.store.game_actions(game_id)
    assert any(seat == 0 and text.startswith("react ") for seat, text in actions)
    assert any(seat == 1 and text.startswith("use ") for seat, text in actions)
    names = [c for c in ("Heiltrank",) if any(c in msg.text for msg in fake.channel_messages())]
    assert names == ["Heiltrank"]
    # the hand is shown only privately, never on a public message
    hand_word = t("tqcog.hand", "de", cards="", actions=0).split(":")[0]
    assert not any(hand_word in msg.text for msg in fake.channel_messages() if not msg.ephemeral)


async def test_refusals_change_nothing(fake: FakeDiscord, bot: Any) -> None:
    fixed_seed(bot, 3)
    started = await fake.slash("telperinquar start", {"deck": "*kaempfer", "bot": "random"})
    board = await started.message()
    game_id = game_of(board)
    found = await open_decision(fake, bot, game_id, 0)
    assert found is not None
    board, opener, _decision = found
    # someone else opening Alice's decision is refused
    other = await (await fake.click(board, opener, user=BOB)).callback()
    assert_ephemeral(other)
    before = (await bot.store.get_game(game_id)).revision
    opened = await fake.click(board, opener, user=ALICE)
    prompt = await opened.message()
    record = await bot.store.get_game(game_id)
    tree = ChoiceTree(ENGINE, ENGINE.legal_actions(load(record).state, 0))
    go = next(
        b["custom_id"]
        for b in prompt.buttons
        if whole_path(tree, path_of(b["custom_id"])) == ("go",)
    )
    await (await fake.click(prompt, go, user=ALICE)).callback()
    # the same button again (a client still showing the old prompt): refused, applied once
    old = {"type": 1, "components": [{"type": 2, "style": 1, "label": "go", "custom_id": go}]}
    prompt = fake.messages[prompt.id]
    prompt.components.append(old)
    stale = await (await fake.click(prompt, go, user=ALICE)).callback()
    assert_ephemeral(stale)
    assert (await bot.store.get_game(game_id)).revision == before + 1
    # a forged target in a select of the main phase: refused in words
    found = await open_decision(fake, bot, game_id, 0)
    assert found is not None
    board, opener, decision = found
    record = await bot.store.get_game(game_id)
    forged = f"tq:{game_id}:{decision.id}:p:use.c99999"
    opened = await fake.click(board, opener, user=ALICE)
    prompt = await opened.message()
    prompt.components.append(
        {
            "type": 1,
            "components": [
                {"type": 3, "custom_id": forged, "options": [{"label": "x", "value": "h9"}]}
            ],
        }
    )
    refused = await (await fake.select(prompt, forged, ["h9"], user=ALICE)).callback()
    assert_ephemeral(refused)
    assert t("tqcog.error.bad_choice", "de") in (refused.content or "")
    assert (await bot.store.get_game(game_id)).revision == record.revision
    typed = await (await fake.slash("telperinquar zug", {"notation": "use c1 h1"})).callback()
    assert_ephemeral(typed)
    assert (await bot.store.get_game(game_id)).revision == record.revision
    # the autocomplete of zug names the legal steps in words
    steps = await fake.autocomplete("telperinquar zug", {"notation": ""})
    assert any(c["value"] == "next" for c in steps)


# ---------------------------------------------------------------------- 2 vs 2


async def test_two_against_two_each_seat_picks_its_deck(fake: FakeDiscord, bot: Any) -> None:
    fixed_seed(bot, 6)
    await slash(fake, "deck starter", {"klasse": "zauberer", "neuer_name": "Bobs Magie"}, user=BOB)
    options = {"deck": "*geistlicher", "gegner": BOB, "partner": CAROL}
    invitation = await (await fake.slash("telperinquar start", options, user=ALICE)).message()
    assert_public(invitation)
    assert_components_valid(invitation)
    game_id = game_of(invitation)
    accept = next(b["custom_id"] for b in invitation.buttons if b["custom_id"].endswith(":inv:1"))
    stranger = await (await fake.click(invitation, accept, user="dave")).callback()
    assert_ephemeral(stranger)  # not invited: refused, nothing offered
    assert not stranger.components
    # Bob accepts: his own decks (and the starters) are offered to him only
    asked = await (await fake.click(invitation, accept, user=BOB)).callback()
    assert_ephemeral(asked)
    chooser = await (await fake.click(invitation, accept, user=BOB)).message()
    values = [o["label"] for o in chooser.selects[0]["options"]]
    assert values[0].startswith("Bobs Magie")
    picked = await fake.select(
        chooser,
        chooser.selects[0]["custom_id"],
        [chooser.selects[0]["options"][0]["value"]],
        user=BOB,
    )
    done = await picked.callback()
    assert done.type == 7 and "Bobs Magie" in (done.content or "")
    record = await bot.store.get_game(game_id)
    assert record.status == "invited"
    assert "Bobs Magie" in fake.messages[invitation.id].text
    # Carol takes a starter deck; then the game begins with every seat's deck
    invitation = fake.messages[invitation.id]
    accept = next(b["custom_id"] for b in invitation.buttons if b["custom_id"].endswith(":inv:1"))
    chooser = await (await fake.click(invitation, accept, user=CAROL)).message()
    rogue = next(o["value"] for o in chooser.selects[0]["options"] if o["value"] == "schurke")
    await (
        await fake.select(chooser, chooser.selects[0]["custom_id"], [rogue], user=CAROL)
    ).callback()
    for _attempt in range(200):
        record = await bot.store.get_game(game_id)
        if record.status == "active" and record.display.get("board"):
            break
        await asyncio.sleep(0.025)
    chosen = record.config["seat_choices"]
    invited = fake.messages[invitation.id]  # every seat ready, with its deck; no buttons
    assert "eingeladen" not in invited.text and "invited" not in invited.text
    assert "Bobs Magie" in invited.text and not invited.buttons
    assert chosen[0] == "geistlicher" and chosen[1].startswith("# Bobs Magie")
    assert chosen[2] == "schurke" and chosen[3] in ("kaempfer", "zauberer", "schurke")
    classes = [p["classes"] for p in load(record).state.data["players"]]
    assert classes[:3] == [["geistlicher"], ["zauberer"], ["schurke"]]
    # Bob cannot open a decision of Alice's; his export never holds another hand
    board = await live_board(fake, bot, game_id)
    assert_public(board)
    match = load(record)
    decision = m.decisions(ENGINE, match)[0]
    if record.players[decision.seat] != stable_user_id(BOB):
        opener = f"tq:{game_id}:{decision.id}:o"
        if opener in board.custom_ids:
            refused = await (await fake.click(board, opener, user=BOB)).callback()
            assert_ephemeral(refused)
    exported = await (await fake.slash("telperinquar export", {}, user=BOB)).callback()
    data = json.loads(exported.files[0].data)
    others = set()
    now = load(await bot.store.get_game(game_id))  # the bots may have played meanwhile
    for seat, player in enumerate(now.state.data["players"]):
        if seat != 1:
            others |= set(player["hand"]) | set(player["deck"])
    assert not any(cid in exported.files[0].data.decode() for cid in others)
    assert "hand" in data["view"]["players"][1] and "hand" not in data["view"]["players"][0]


# ---------------------------------------------------------------------- English


async def test_english_readers_get_english_texts(fake: FakeDiscord, bot: Any) -> None:
    fixed_seed(bot, 4)
    made = await slash(fake, "deck starter", {"klasse": "kaempfer"}, locale="en")
    text = embed_text(made)
    assert "Starter deck Fighter" in text and "Greatsword" in text and "Weapons" in text
    card = await slash(fake, "karte", {"karte": "Parry"}, locale="en")
    assert "armour +3" in embed_text(card)
    started = await fake.slash("telperinquar start", {"deck": "Starter deck Rogue"}, locale="en")
    board = await started.message()
    assert "Round 1" in board.text and "life" in board.text
    record = await bot.store.get_game(game_of(board))
    assert record.config["seat_choices"][0] == "schurke"  # a starter deck typed by its name
    game_id = game_of(board)
    found = await open_decision(fake, bot, game_id, 0)
    assert found is not None
    board, opener, _decision = found
    mine = next(c for c in board.custom_ids if c.endswith(":v"))
    cards = await (await fake.click(board, mine, user=ALICE, locale="en")).callback()
    assert_ephemeral(cards)
    assert "Your hand" in (cards.content or "") and cards.files[0].filename.endswith("hand.png")
    nosy = await (await fake.click(board, mine, user=BOB, locale="en")).callback()
    assert_ephemeral(nosy)
    assert not nosy.files and "Your hand" not in (nosy.content or "")
    prompt = await (await fake.click(board, opener, user=ALICE, locale="en")).message()
    assert "Your hand" in prompt.content
    labels = [b.get("label") for b in prompt.buttons]
    english = ("Go on", "End the phase", "Play", "Level up", "End the turn", "Use", "Lay")
    assert labels and all(str(label).startswith(english) for label in labels), labels


RARE = ("hide", "take", "swap", "fly", "arm", "move")
PHASE = ("go", "next", "end", "pass")


def offered_verbs(prompt: StoredMessage, tree: ChoiceTree[Any]) -> list[str]:
    """The verb of every step choice on a prompt (a step offered whole: its own verb)."""
    paths = [path_of(b["custom_id"]) for b in prompt.buttons if ":p:" in b["custom_id"]]
    for select in prompt.selects:
        root = tuple(token for token in path_of(select["custom_id"]) if token)
        paths += [(*root, option["value"]) for option in select["options"]]
    return [whole_path(tree, path)[0] for path in paths]


@pytest.mark.parametrize(("locale", "lang"), [("de", "de"), ("en-US", "en")])
async def test_the_usual_steps_come_at_once_and_the_rare_ones_after_more(
    fake: FakeDiscord, bot: Any, locale: str, lang: str
) -> None:
    """A prompt offers the usual steps (playing a card, attacking, going on, ending the
    phase) at once, one click each, and the rare ones (back to the hand, laying face down,
    swapping) behind one "Mehr"/"More" button, one click each there too."""
    fixed_seed(bot, 1)
    options = {"deck": "*kaempfer", "bot": "random"}
    game_id = game_of(
        await (await fake.slash("telperinquar start", options, locale=locale)).message()
    )
    more, back = t("play.button.more_steps", lang), t("play.button.back", lang)
    for _decision in range(30):
        found = await open_decision(fake, bot, game_id, 0)
        assert found is not None, "the game ended before a rare step was offered"
        board, opener, _ = found
        prompt = await (await fake.click(board, opener, user=ALICE, locale=locale)).message()
        record = await bot.store.get_game(game_id)
        tree = ChoiceTree(ENGINE, ENGINE.legal_actions(load(record).state, 0))
        verbs = {action.words[0] for action in tree.paths.values()}
        labels = [b.get("label") for b in prompt.buttons]
        if not verbs & set(RARE) or verbs <= set(RARE):
            assert more not in labels  # nothing to put behind it
            steps = {
                whole_path(tree, path_of(b["custom_id"]))[0]: b["custom_id"]
                for b in prompt.buttons
                if ":p:" in b["custom_id"]
            }
            on = steps.get("play") or next(steps[verb] for verb in PHASE if verb in steps)
            await (await fake.click(prompt, on, user=ALICE, locale=locale)).callback()
            continue
        usual = offered_verbs(prompt, tree)
        assert usual and not set(usual) & set(RARE) and set(PHASE) & set(usual)
        (button,) = [b for b in prompt.buttons if b.get("label") == more]
        opened = await fake.click(prompt, button["custom_id"], user=ALICE, locale=locale)
        assert (await opened.callback()).type == 7  # the prompt itself, edited in place
        rest = await opened.message()
        assert rest.id == prompt.id and back in [b.get("label") for b in rest.buttons]
        rare = offered_verbs(rest, tree)
        assert rare and set(rare) <= set(RARE)
        assert len(rare) + len(usual) == len(tree.paths)  # every step whole, none dropped
        before = len(await bot.store.game_actions(game_id))
        first = next(b["custom_id"] for b in rest.buttons if ":p:" in b["custom_id"])
        await (await fake.click(rest, first, user=ALICE, locale=locale)).callback()
        actions = await bot.store.game_actions(game_id)
        assert len(actions) == before + 1 and actions[-1][1].split()[0] in RARE
        return
    raise AssertionError("no decision offered a rare step")


@pytest.mark.parametrize("locale", ["de", "en"])
async def test_bad_deck_names_and_files_are_explained(
    fake: FakeDiscord, bot: Any, locale: str
) -> None:
    long = "x" * 60
    refused = await (
        await fake.slash("telperinquar deck neu", {"name": long}, locale=locale)
    ).callback()
    assert_ephemeral(refused)
    assert t("tq.deck.bad_name", locale, max=40) in (refused.content or "")
    bad = await (
        await fake.slash(
            "telperinquar karten hochladen",
            {"datei": ("karten.toml", b"[[card]]\nname = 1\n")},
            locale=locale,
        )
    ).callback()
    assert_ephemeral(bad)
    guild = fake.channel().guild_id
    assert guild is not None
    assert await bot.store.get_content(guild, "telperinquar.cards") is None


OWN_CARD = """[[card]]
name = "Glasdolch"
name_en = "Glass Dagger"
type = "weapon"
rarity = "common"
classes = []
play = 1
use = 1
requires = {reflexe = 2}
size = "k"
bonus = 2
attack = "melee"
text_de = "Waffe (k), Beil +2."
text_en = "Weapon (k), melee +2."
[[card.step]]
text_de = "Angriff mit dieser Waffe."
text_en = "Attack with this weapon."
do = "strike"
kind = "physical"
range = "melee"
bonus = 2
"""


async def test_a_servers_own_cards_are_checked_and_played(fake: FakeDiscord, bot: Any) -> None:
    guild = fake.channel().guild_id
    assert guild is not None
    upload = {"datei": ("karten.toml", OWN_CARD.encode())}
    stored = await (await fake.slash("telperinquar karten hochladen", upload)).callback()
    assert_ephemeral(stored)
    assert (await bot.store.get_content(guild, "telperinquar.cards")) is not None
    # a bad file changes nothing: the good one stays
    broken = {
        "datei": ("karten.toml", OWN_CARD.replace('type = "weapon"', 'type = "kanone"').encode())
    }
    refused = await (await fake.slash("telperinquar karten hochladen", broken)).callback()
    assert_ephemeral(refused)
    assert "Glasdolch" in embed_text(refused)
    assert (await bot.store.get_content(guild, "telperinquar.cards")).text == OWN_CARD
    shown = await (await fake.slash("telperinquar karten zeigen", {})).callback()
    assert "Glasdolch" in embed_text(shown)
    found = await fake.autocomplete(
        "telperinquar deck hinzu", {"name": "x", "karte": "glass"}, locale="en"
    )
    assert [c["value"] for c in found] == ["Glasdolch"]
    # a deck with the server's card is legal here and plays with it
    await slash(fake, "deck starter", {"klasse": "schurke", "neuer_name": "Glas"})
    # removing: only the deck's cards are offered, a typo is forgiven
    typo = await fake.autocomplete(
        "telperinquar deck entfernen", {"name": "Glas", "karte": "Kurzbogn"}
    )
    assert [c["value"] for c in typo][:1] == ["Kurzbogen"]
    every = await fake.autocomplete("telperinquar deck entfernen", {"name": "Glas", "karte": ""})
    deck = await bot.store.get_deck(stable_user_id(ALICE), "Glas")
    assert {c["value"] for c in every} <= {name for name, _ in deck.cards}
    assert "Langschwert" not in {c["value"] for c in every}
    await slash(fake, "deck entfernen", {"name": "Glas", "karte": "Kurzbogen", "anzahl": 2})
    added = await slash(fake, "deck hinzu", {"name": "Glas", "karte": "Glasdolch", "anzahl": 2})
    assert "✅" in added.content, added.content
    board = await (await fake.slash("telperinquar start", {"deck": "Glas"})).message()
    record = await bot.store.get_game(game_of(board))
    assert record.config["cards"] == OWN_CARD
    names = {c["name"] for c in load(record).state.data["cards"].values()}
    assert "Glasdolch" in names
    asked = await (await fake.slash("telperinquar karten loeschen", {})).message()
    assert_ephemeral(asked)  # asked first: nothing is gone yet
    assert (await bot.store.get_content(guild, "telperinquar.cards")) is not None
    yes, no = (b["custom_id"] for b in asked.buttons)
    other = await (await fake.click(asked, yes, user="dave")).callback()
    assert_ephemeral(other)  # only the asker answers
    assert (await bot.store.get_content(guild, "telperinquar.cards")) is not None
    kept = await (await fake.click(asked, no)).callback()
    assert kept.type == 7 and (await bot.store.get_content(guild, "telperinquar.cards"))
    asked = await (await fake.slash("telperinquar karten loeschen", {})).message()
    gone = await (await fake.click(asked, asked.buttons[0]["custom_id"])).callback()
    assert gone.type == 7
    assert await bot.store.get_content(guild, "telperinquar.cards") is None


async def test_a_rematch_against_the_bot_keeps_each_seats_deck(fake: FakeDiscord, bot: Any) -> None:
    fixed_seed(bot, 3)
    await slash(fake, "deck starter", {"klasse": "geistlicher", "neuer_name": "Licht"})
    board = await (await fake.slash("telperinquar start", {"deck": "Licht"})).message()
    game_id = game_of(board)
    await open_decision(fake, bot, game_id, 0)  # the bot began: its turn is over
    await (await fake.slash("telperinquar aufgeben", {})).callback()
    final = await live_board_of(fake, bot, game_id, lambda msg: "🏆" in msg.text)
    record = await bot.store.get_game(game_id)
    assert record.status == "finished"
    rematch = next(c for c in final.custom_ids if c.endswith(":r"))
    clicked = await fake.click(final, rematch, user=ALICE)
    again = (await clicked.followup(0)).message
    assert again is not None
    new_id = game_of(again)
    assert new_id != game_id
    new = await bot.store.get_game(new_id)
    assert new.players == [BOT_ID, stable_user_id(ALICE)]  # the other side begins
    assert new.config["seat_choices"] == record.config["seat_choices"][::-1]
    assert load(new).state.data["players"][1]["classes"] == ["geistlicher"]


async def test_the_board_of_an_open_invitation_is_the_invitation(
    fake: FakeDiscord, bot: Any
) -> None:
    invitation = await (await fake.slash("telperinquar start", {"gegner": BOB})).message()
    shown = await (await fake.slash("telperinquar brett", {})).message()
    assert shown.id != invitation.id
    assert [c.split(":")[-1] for c in shown.custom_ids] == [
        c.split(":")[-1] for c in invitation.custom_ids
    ]
    assert not shown.attachments  # no field before every seat has its deck


@pytest.mark.parametrize(("players", "seed"), [(2, 5), (2, 8), (4, 3)])
def test_every_event_of_bot_games_is_narrated_in_both_languages(players: int, seed: int) -> None:
    """Bot games to the end: every event the engine reports reads as a sentence in German
    and English (no message key, no placeholder left), also on the public board."""
    import random
    from types import SimpleNamespace

    from bot.play.spec import BoardContext, Steps
    from bot.play.specs.telperinquar import SPEC

    match = m.start(ENGINE, {}, seed, players)
    record = SimpleNamespace(config={}, players=list(range(players)), status="active", id=1)
    names = [f"P{s}" for s in range(players)]
    kinds: set[str] = set()
    for step in range(600):
        open_ = m.decisions(ENGINE, match)
        if not open_:
            break
        seat = open_[0].seat
        action = ENGINE.choose_action(match.state, seat, "normal", 1.0, random.Random(step))
        match, events = m.apply(ENGINE, match, ENGINE.action_text(action), seat)
        kinds |= {event.type for event in events}
        for lang in ("de", "en"):
            ctx = BoardContext(record, match, names, lang, -1)
            for line in SPEC.narrate(Steps([(seat, e) for e in events]), ctx):
                assert "event." not in line and "tqcog." not in line and "{" not in line, line
    assert {"played", "declared", "roll", "damage"} <= kinds


async def test_only_server_managers_or_the_owner_change_the_card_file(
    fake: FakeDiscord, bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rule of every server content file (``bot.server_content``): Manage Server or the
    owner; in a direct message there is no server file."""
    import bot.sandbox.fake_discord.model as fake_module

    real = fake_module._member_payload

    def without_rights(user: Any, **kwargs: Any) -> dict[str, Any]:
        member = real(user, **kwargs)
        if user.name in (BOB, "owner"):
            member["permissions"] = str(1 << 11)  # send messages, no Manage Server
        return member

    monkeypatch.setattr(fake_module, "_member_payload", without_rights)
    guild = fake.channel().guild_id
    assert guild is not None
    upload = {"datei": ("karten.toml", OWN_CARD.encode())}
    refused = await (await fake.slash("telperinquar karten hochladen", upload, user=BOB)).callback()
    assert_ephemeral(refused)
    assert refused.content == t("tqcog.error.not_manager", "de")
    assert await bot.store.get_content(guild, "telperinquar.cards") is None
    owner = await (
        await fake.slash("telperinquar karten hochladen", upload, user="owner")
    ).callback()
    assert_ephemeral(owner)
    assert await bot.store.get_content(guild, "telperinquar.cards") is not None
    dm = fake.dm_channel(ALICE)
    private = await (
        await fake.slash("telperinquar karten hochladen", upload, user=ALICE, channel=dm.id)
    ).callback()
    assert private.content == t("tqcog.error.server_only", "de")
