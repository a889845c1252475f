"""Heavy rolls under load: a roll of hundreds of dice (and its picture) is deferred first and
made off the event loop; light rolls are answered directly. A small seeded sample of the load
bench (``bench/bench_load.py``) checks behaviour, not time: every interaction got a first
reply, the heavy ones a deferral and then their picture, none an error."""

from __future__ import annotations

from typing import Any

from bench.bench_load import HEAVY, LIGHT, mixed_load
from bot.i18n import t
from bot.sandbox.fake_discord import FakeDiscord
from cogs.dice import HEAVY_DICE
from tests.cog.test_w6 import start_campaign
from tests.harness import (
    assert_ephemeral,
    assert_png_attachment,
    assert_public,
    embed_text,
    live_board_of,
)

DEFERRED = 5  # DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE ("thinking…")
ANSWERED = 4  # CHANNEL_MESSAGE_WITH_SOURCE


async def test_a_heavy_roll_is_deferred_first_and_a_light_one_answered_directly(
    fake: FakeDiscord, bot: Any
) -> None:
    heavy = await fake.slash("roll", {"ausdruck": f"{HEAVY_DICE}W6>=5"}, user="alice")
    first = await heavy.callback()
    assert first.type == DEFERRED
    assert_public(first)
    answer = await heavy.message()
    assert_public(answer)
    assert t("roll.roll.header", "de", name="Alice", expression=f"`{HEAVY_DICE}W6>=5`") in (
        answer.content
    )
    assert_png_attachment(answer, "wuerfel.png")

    light = await (await fake.slash("roll", {"ausdruck": "8W6>=5"}, user="alice")).callback()
    assert light.type == ANSWERED  # a small picture is made at once
    assert_png_attachment(light, "wuerfel.png")

    private = await fake.slash(
        "roll", {"ausdruck": "1000d6", "privat": True}, user="bob", locale="en-US"
    )
    first = await private.callback()
    assert first.type == DEFERRED
    assert_ephemeral(first)
    answer = await private.message()
    assert_ephemeral(answer)
    assert "**Bob** rolls `1000d6`" in answer.content

    again = await fake.click(answer, 1, user="bob", locale="en-US")  # "Roll again": deferred too
    assert (await again.callback()).type == DEFERRED
    assert_ephemeral(await again.message())


async def test_a_heavy_secret_roll_still_reaches_only_the_roller_and_the_gm(
    fake: FakeDiscord, bot: Any
) -> None:
    await start_campaign(fake)
    secret = await fake.slash("roll", {"ausdruck": "500d6>=5", "geheim": True}, user="alice")
    first = await secret.callback()
    assert first.type == DEFERRED
    assert_ephemeral(first)
    result, notice = await secret.followup(0), await secret.followup(1)
    assert_ephemeral(result)
    assert "500d6>=5" in (result.content or "")
    assert_public(notice)
    assert notice.content == t("roll.secret.notice", "de", name="Alice")


async def test_bad_heavy_looking_input_is_told_at_once_without_a_defer(
    fake: FakeDiscord, bot: Any
) -> None:
    reply = await (await fake.slash("roll", {"ausdruck": "1001d6"}, user="alice")).callback()
    assert reply.type == ANSWERED
    assert_ephemeral(reply)


async def test_a_seeded_sample_of_the_load_answers_everyone(fake: FakeDiscord, bot: Any) -> None:
    result = await mixed_load(fake, heavy=8, light=8, spacing=0.01, seed=3)
    assert len(result.sent) == 16
    for item in result.sent:
        assert item.first_reply is not None, "an interaction got no first reply"
        assert item.done_ms is not None
        message = await item.exchange.message()
        assert_public(message)
        unexpected = t("error.unexpected", "de", code="")[:30]
        assert unexpected not in (message.content or "")
        if item.heavy:
            assert item.first_reply.type == DEFERRED
            assert f"`{HEAVY}`" in message.content
            assert_png_attachment(message, "wuerfel.png")
        else:
            assert item.first_reply.type == ANSWERED
            assert f"`{LIGHT}`" in message.content


async def test_commands_that_draw_first_are_acknowledged_before_they_draw(
    fake: FakeDiscord, bot: Any
) -> None:
    """Issue 18: game starts, maps, cards and deck images were drawn before the first reply,
    so under load it came after Discord's 3 s; now the first reply is the deferral."""
    draws = [
        ("essenz start", {"bot": "easy"}, False),
        ("felsenfeuer start", {"bots": 1}, False),
        ("telperinquar start", {"bot": "random"}, False),
        ("telperinquar karte", {"karte": "Streitaxt"}, False),
        ("telperinquar deck starter", {"klasse": "kaempfer"}, True),
        ("armageddon szenario", {"name": "scharmuetzel"}, True),
    ]
    for name, options, private in draws:
        exchange = await fake.slash(name, options, user="alice")
        first = await exchange.callback()
        assert first.type == DEFERRED, name
        (assert_ephemeral if private else assert_public)(first)
        answer = await exchange.message()
        assert answer.attachments, name


async def test_a_users_language_is_read_once_not_on_every_interaction(
    fake: FakeDiscord, bot: Any
) -> None:
    """Issue 18: every interaction began with a database read for the user's language, which
    under load waited behind the heavy commands' writes; it is known for a while now, and a
    language chosen with /sprache is used at once."""
    reads: list[int] = []
    real = bot.store.get_pref

    async def counted(user_id: int, key: str) -> str | None:
        reads.append(user_id)
        return await real(user_id, key)

    bot.store.get_pref = counted
    for _ in range(3):
        hilfe = await (await fake.slash("hilfe", user="alice")).callback()
        assert hilfe.embeds[0]["title"] == t("core.help.title", "de")
    assert len(reads) == 1
    await (await fake.slash("sprache", {"sprache": "en"}, user="alice")).callback()
    hilfe = await (await fake.slash("hilfe", user="alice")).callback()
    assert hilfe.embeds[0]["title"] == t("core.help.title", "en")
    assert len(reads) == 1


async def test_a_click_whose_board_is_not_drawn_in_time_is_acknowledged_first(
    fake: FakeDiscord, bot: Any, monkeypatch: Any
) -> None:
    """Issue 18: a click answered with the board it draws: when the board is not drawn by
    ``ANSWER_BY_S`` after the click (a busy bot), the click is acknowledged first (a deferred
    update) and the board edited when it is drawn, never past Discord's 3 s."""
    import bot.play.ui as ui
    from tests.cog.test_essence import accepted_game, mote_select

    board = await accepted_game(fake)
    monkeypatch.setattr(ui, "ANSWER_BY_S", 0.0)  # as if the bot were too busy to draw in time
    picked = await fake.select(board, mote_select(board), ["d1"], user="alice")
    assert (await picked.callback()).type == 6
    shown = await picked.message()
    assert t("essenzcog.prompt.kind", "de", square="d1") in embed_text(shown)


async def test_a_combat_status_not_drawn_in_time_is_acknowledged_first(
    fake: FakeDiscord, bot: Any, monkeypatch: Any
) -> None:
    """Issue 18: a combat step's status picture is drawn before the answer; when it is not
    drawn by ``ANSWER_BY_S`` after the command (a busy bot), the command is acknowledged
    first and the status follows."""
    import bot.play.ui as ui
    from tests.cog.test_w6 import GM

    await start_campaign(fake)
    await (await fake.slash("kampf start", user=GM)).message()
    monkeypatch.setattr(ui, "ANSWER_BY_S", 0.0)
    status = await fake.slash("kampf status", user=GM)
    assert (await status.callback()).type == DEFERRED
    shown = await status.message()
    assert_png_attachment(shown)


async def test_a_private_hand_not_drawn_in_time_is_acknowledged_first(
    fake: FakeDiscord, bot: Any, monkeypatch: Any
) -> None:
    """Issue 18: a seat's hand picture (Telperinquár) is drawn before its private prompt;
    when not drawn in time the click is acknowledged first, privately."""
    import bot.play.ui as ui

    started = await fake.slash("telperinquar start", {"bot": "random"}, user="alice")
    board = await started.message()
    await bot.finish_interactions()  # the bot's first move (the start seat is drawn by lot)
    board = fake.messages[board.id]
    hand = next(c for c in board.custom_ids if c.split(":")[3] in ("o", "v"))
    monkeypatch.setattr(ui, "ANSWER_BY_S", 0.0)
    shown = await fake.click(board, hand, user="alice")
    first = await shown.callback()
    assert first.type == DEFERRED
    assert_ephemeral(first)
    assert_png_attachment(await shown.message())


async def test_a_typed_step_whose_board_is_not_drawn_in_time_is_acknowledged_first(
    fake: FakeDiscord, bot: Any, monkeypatch: Any
) -> None:
    """Issue 18: a step typed with ``zug`` is answered (privately; issue 19) once its board
    is drawn; when the board is not drawn in time, the command is acknowledged first, and
    the answer and the edited living board follow."""
    import bot.play.ui as ui
    from tests.cog.test_essence import accepted_game

    await accepted_game(fake)
    monkeypatch.setattr(ui, "ANSWER_BY_S", 0.0)
    typed = await fake.slash("essenz zug", {"notation": "void d5"}, user="alice")
    acknowledged = await typed.callback()
    assert acknowledged.type == DEFERRED
    assert_ephemeral(acknowledged)  # the answer to a typed step is the typist's alone
    await typed.message()
    game_id = (await bot.store.games_in_channel(fake.channel().id))[0].id
    board = await live_board_of(fake, bot, game_id, lambda m: "d5" in embed_text(m))
    assert_public(board)
    assert_png_attachment(board)
