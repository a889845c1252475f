"""Issue 10's combat items in the cog: fighters who are down are marked in the order, more
fighters able to act than rows never drop anyone, NPCs without reflex dice are not offered
"Reflex statt Abwehr", and every per-fighter button names its fighter."""

from __future__ import annotations

from typing import Any

from bot.combat import active_combat, unpack
from bot.i18n import t
from bot.sandbox.fake_discord import FakeDiscord, StoredMessage
from engines.w6 import to_act
from tests.cog.test_combat import ids_with, npc_prompt, set_up
from tests.cog.test_w6 import ALICE, GM
from tests.harness import assert_components_valid, embed_text


def _labelled(message: StoredMessage) -> list[tuple[str, str]]:
    """(custom_id, label or placeholder) of every component naming one fighter."""
    found = []
    for comp in message.walk_components():
        cid = comp.get("custom_id", "")
        parts = cid.split(":")
        if len(parts) > 4 and parts[0] == "kf" and parts[4] not in ("sl", "alle"):
            found.append((parts[4], comp.get("label") or comp.get("placeholder") or ""))
    return found


async def test_a_fighter_at_zero_lp_is_marked_down_in_the_order(
    fake: FakeDiscord, bot: Any
) -> None:
    await set_up(fake)
    status = await (
        await fake.slash("kampf setzen", {"kaempfer": "thoin", "feld": "lp", "wert": 0}, user=GM)
    ).message()
    line = next(x for x in embed_text(status).splitlines() if "**Thoin**" in x)
    assert line.startswith("✖") and t("w6cog.combat.down", "de") in line
    ork = next(x for x in embed_text(status).splitlines() if "**Ork**" in x)
    assert not ork.startswith("✖")


async def test_every_fighter_button_names_its_fighter(fake: FakeDiscord, bot: Any) -> None:
    status = await set_up(fake)
    labelled = _labelled(status)
    assert labelled
    state = unpack(await active_combat(bot.store, fake.channel().id)).state
    for fighter_id, label in labelled:
        assert state.fighter(fighter_id).name in label, label


async def test_an_npc_without_reflex_dice_is_not_offered_reflex_instead_of_defence(
    fake: FakeDiscord, bot: Any
) -> None:
    status = await set_up(fake)
    state = unpack(await active_combat(bot.store, fake.channel().id)).state
    assert state.fighter("ork").reflex == 0
    attacked = await (
        await fake.slash("kampf aktion", {"notation": "@thoin angriff ork kw=4"}, user=ALICE)
    ).message()
    prompt = await npc_prompt(fake, attacked)  # the Ork is asked for its defence
    assert ids_with(prompt, "abwehr")
    assert not [c for c in ids_with(prompt, "refabw") if c.endswith(":ork")]
    # Nor "Reflex anderer Kämpfer…" when the only fighter who could use it has no dice.
    assert status.custom_ids and ids_with(status, "rfx") == []


async def test_more_fighters_able_to_act_than_rows_are_all_offered(
    fake: FakeDiscord, bot: Any
) -> None:
    await set_up(fake)
    await (await fake.slash("kampf dazu", {"charakter": "Ork", "anzahl": 6}, user=GM)).message()
    state = unpack(await active_combat(bot.store, fake.channel().id)).state
    for fighter_id in state.order:
        await (
            await fake.slash("kampf aktion", {"notation": f"@{fighter_id} weiter"}, user=GM)
        ).message()
    status = await (await fake.slash("kampf status", user=GM)).message()
    assert_components_valid(status)
    state = unpack(await active_combat(bot.store, fake.channel().id)).state
    acting = to_act(state)
    assert len(acting) > 4
    offered = {fid for fid, _label in _labelled(status)}
    for select in status.selects:
        offered |= {o["value"] for o in select.get("options", [])}
    assert acting <= offered
    (pick,) = ids_with(status, "wer")
    menu = await (
        await fake.select(
            status, pick, [sorted(acting - {f for f, _ in _labelled(status)})[0]], user=GM
        )
    ).message()
    assert menu.flags & 64 and _labelled(menu)


async def test_each_status_carries_an_image_of_the_order(fake: FakeDiscord, bot: Any) -> None:
    """Issue 10: a status image beside the embed (order, LP bars, KW, Handlungen, conditions,
    whose turn), drawn from the public view; it grows with the fighters."""
    status = await set_up(fake)
    (image,) = status.files
    assert image.filename == "kampf.png" and image.data.startswith(b"\x89PNG")
    assert status.embeds[0]["image"]["url"] == "attachment://kampf.png"
    more = await (
        await fake.slash("kampf dazu", {"charakter": "Ork", "anzahl": 10}, user=GM)
    ).message()
    (bigger,) = more.files
    assert _height(bigger.data) > _height(image.data)


def _height(png: bytes) -> int:
    from io import BytesIO

    from PIL import Image

    return Image.open(BytesIO(png)).height
