"""``/kampf`` as a player tester met it: a fighter without a weapon strikes unarmed, the GM
takes a changed sheet into a running combat, quick NPCs survive a hit under the heavy-hit
rule, and every message names participants and steps in words (errors, the defence, undo,
the log, several copies joining, the turn order, whom a ping is for, the ended combat)."""

from __future__ import annotations

from typing import Any

from bot.combat import active_combat, unpack
from bot.i18n import catalog, t
from bot.narration.combat_text import narrate
from bot.narration.w6 import COUNTED, tc
from bot.sandbox.fake_discord import FakeDiscord
from engines.core import Event, Rng
from engines.w6.state import CombatState
from tests.cog.test_combat import ids_with, npc_prompt, tracker
from tests.cog.test_w6 import ALICE, GM, import_sheet, start_campaign, thoin_json
from tests.harness import assert_ephemeral, assert_public, embed_text


async def _combat(fake: FakeDiscord, thoin: dict[str, Any], ork: str, copies: int = 1) -> Any:
    """Campaign, Thoin (alice) and ``copies`` of the NPC ``ork``, begun. Returns the status."""
    await start_campaign(fake)
    await import_sheet(fake, ALICE, thoin)
    await (await fake.slash("sl nsc", {"werte": ork}, user=GM)).callback()
    await (await fake.slash("kampf start", user=GM)).message()
    await (await fake.slash("kampf dazu", user=ALICE)).message()
    options: dict[str, Any] = {"charakter": "Ork", "anzahl": copies}
    added = await (await fake.slash("kampf dazu", options, user=GM)).message()
    (begin,) = ids_with(added, "beginnen")
    return await (await fake.click(added, begin, user=GM)).message()


async def _state(fake: FakeDiscord, bot: Any) -> Any:
    return unpack(await active_combat(bot.store, fake.channel().id)).state


async def _force(fake: FakeDiscord, dice: str) -> Any:
    return await (
        await fake.slash("kampf aktion", {"notation": f"wuerfel {dice}"}, user=GM)
    ).message()


async def test_unarmed_attack_then_the_gm_takes_the_new_weapon_into_the_combat(
    fake: FakeDiscord, bot: Any
) -> None:
    await _combat(fake, thoin_json() | {"waffen": []}, "Ork lp=20 kw=8 ab=5")
    await _force(fake, "6 5 1 1")
    attack = {"ziel": "ork", "kw": 4}
    attacked = await (await fake.slash("kampf angriff", attack, user=ALICE)).message()
    assert_public(attacked)
    (no_defence,) = ids_with(attacked, "keine")
    hit = await (await fake.click(attacked, no_defence, user=GM)).message()
    # Waffenlos 1-1: a six and a five are 2 SP, no Zusatz- or Fertigkeitsschaden.
    # The public line keeps the NPC's armour and LP to the GM (its LP in words).
    hurt = t("w6cog.lp_state.verletzt", "de")
    assert t("w6cog.ev.damage.npc", "de", fighter="Ork", sp=2, state=hurt) in hit.text

    axe = {"feld": "waffen.Axt.basis", "wert": "2-4"}
    await (await fake.slash("charakter feld", axe, user=ALICE)).callback()
    refused = await (
        await fake.slash("kampf aktualisieren", {"kaempfer": "thoin"}, user=ALICE)
    ).callback()
    assert_ephemeral(refused)
    assert refused.content == t("w6cog.error.gm_only", "de")
    refreshed = await (
        await fake.slash("kampf aktualisieren", {"kaempfer": "thoin"}, user=GM)
    ).message()
    assert t("w6cog.ev.refreshed", "de", name="Thoin", lp=30) in refreshed.text
    thoin = (await _state(fake, bot)).fighter("thoin")
    assert [w.name for w in thoin.waffen] == ["Axt"] and thoin.waffen[0].schaden == (2, 4)
    assert thoin.kw_left == 12 - 4  # the KW spent on the punch stay spent


async def test_a_quick_npc_is_not_knocked_out_by_a_plain_hit(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    rule = {"regel": "schwere_treffer", "an": True}
    await (await fake.slash("kampagne regel", rule, user=GM)).callback()
    await import_sheet(fake, ALICE, thoin_json())
    made = await (await fake.slash("sl nsc", {"werte": "Ork lp=20 kw=8 ab=5"}, user=GM)).callback()
    assert "Schwelle –" in embed_text(made)
    await (await fake.slash("kampf start", user=GM)).message()
    await (await fake.slash("kampf dazu", user=ALICE)).message()
    added = await (await fake.slash("kampf dazu", {"charakter": "Ork"}, user=GM)).message()
    await (await fake.click(added, ids_with(added, "beginnen")[0], user=GM)).message()
    await _force(fake, "6 6 1 1")
    attacked = await (
        await fake.slash("kampf angriff", {"ziel": "ork", "kw": 4}, user=ALICE)
    ).message()
    hit = await (await fake.click(attacked, ids_with(attacked, "keine")[0], user=GM)).message()
    # Axt 1-2: 6 6 = 4 + Zusatz K 4 + Fertigkeit 2 = 10 LP, far above a Schwelle of 0.
    assert (await _state(fake, bot)).fighter("ork").lp == 10  # issue 9: not in the public embed
    assert t("w6cog.ev.unconscious", "de", fighter="Ork") not in hit.text
    assert (await _state(fake, bot)).fighter("ork").conscious


async def test_messages_name_participants_and_steps(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    await import_sheet(fake, ALICE, thoin_json())
    await (await fake.slash("sl nsc", {"werte": "Ork lp=20 kw=8 ab=5"}, user=GM)).callback()
    await (await fake.slash("kampf start", user=GM)).message()
    await (await fake.slash("kampf dazu", user=ALICE)).message()
    two = await (
        await fake.slash("kampf dazu", {"charakter": "Ork", "anzahl": 2}, user=GM)
    ).message()
    for name in ("Ork", "Ork 2"):  # an NPC joins without its values told
        assert t("w6cog.ev.joined.npc", "de", name=name) in two.text
    begun = await (await fake.click(two, ids_with(two, "beginnen")[0], user=GM)).message()
    assert t("w6cog.ev.phase_started", "de", phase=1, order="Thoin, Ork, Ork 2") in begun.text

    # An error names the participant, not its id.
    foreign = await (
        await fake.slash("kampf aktion", {"notation": "@ork handlung"}, user=ALICE)
    ).callback()
    assert_ephemeral(foreign)
    assert foreign.content == t("w6.combat.not_your_fighter", "de", fighter="Ork")

    # Alice attacks: the GM is told what to do, in words.
    attacked = await (
        await fake.slash("kampf angriff", {"ziel": "ork", "kw": 4}, user=ALICE)
    ).message()
    gm = fake.user(GM).mention
    assert t("w6cog.combat.ping.abwehr", "de", mention=gm, names="Ork") in attacked.text
    prompt = await npc_prompt(fake, attacked)
    (defend,) = ids_with(prompt, "abwehr")
    answered = await tracker(fake, await fake.select(prompt, defend, ["3"], user=GM))
    assert t("w6cog.ev.defence_announced.kw", "de", fighter="Ork", kw=3) in answered.text
    assert "(kw 3)" not in answered.text

    # Two undos: the second names the attack, not the first undo.
    await (await fake.slash("kampf zurück", user=GM)).message()
    second = await (await fake.slash("kampf zurück", user=GM)).message()
    words = t("w6cog.verb.angriff", "de") + ": Thoin → Ork"
    assert t("w6cog.ev.undone", "de", action=words, undone_step=4) in second.text
    assert "zurueck" not in second.text

    ended = await (await fake.slash("kampf ende", user=GM)).message()
    assert "▶" not in embed_text(ended)
    log = await (await fake.slash("kampagne log", user=GM)).callback()
    text = embed_text(log)
    assert "Kampf: " + t("w6cog.verb.beitritt", "de") + ": Ork, Ork 2" in text
    assert "`beitritt`" not in text and "Kampf: Angriff: Thoin → Ork" in text


async def test_a_ping_speaks_the_language_its_reader_chose(fake: FakeDiscord, bot: Any) -> None:
    await _combat(fake, thoin_json() | {"ab": 1}, "Ork lp=20 kw=8 ab=5")
    await (await fake.slash("sprache", {"sprache": "en"}, user=ALICE)).callback()
    attacked = await (
        await fake.slash("kampf angriff", {"ziel": "thoin", "kw": 3, "angreifer": "ork"}, user=GM)
    ).message()
    alice = fake.user(ALICE).mention
    assert t("w6cog.ev.attack_dice_announced", "de", fighter="Ork", kw=3) in attacked.text
    assert t("w6cog.combat.ping.abwehr", "en", mention=alice, names="Thoin") in attacked.text


def test_a_count_of_one_reads_in_the_singular() -> None:
    one = {"fighter": "Thoin", "dice": "5", "successes": 1, "ok": "ok"}
    assert tc("w6cog.ev.attack_roll", "en", **one) == "🎲 **Thoin** rolls 5 → 1 success (ok)."
    assert tc("w6cog.ev.attack_roll", "de", **one) == "🎲 **Thoin** würfelt 5 → 1 Erfolg (ok)."
    two = one | {"dice": "5 6", "successes": 2}
    assert tc("w6cog.ev.attack_roll", "en", **two).endswith("→ 2 successes (ok).")
    assert tc("w6cog.option.kw", "en", n=1) == "1 combat die"
    assert tc("w6cog.option.kw", "en", n=3) == "3 combat dice"
    assert tc("w6cog.option.successes", "de", n=1) == "1 Erfolg"
    for key in COUNTED:  # every counted message has its singular in both languages
        assert {"de", "en"} <= set(catalog()[f"{key}.one"])


def test_falling_back_reads_as_an_attempt_and_a_defence_as_a_defence() -> None:
    state = CombatState(gm=1, rng=Rng(seed=1))
    roll = {"fighter": "ork2", "dice": "3 3", "successes": 0, "required": 2, "ok": False}
    back = narrate([Event("defence_roll", roll | {"how": "zurueckweichen"})], state, state, "en")
    guard = narrate([Event("defence_roll", roll | {"how": "abwehr"})], state, state, "en")
    assert back[0].startswith("↩ **ork2** tries to fall back: 3 3 → 0/2")
    assert guard[0].startswith("🛡 **ork2** rolls 3 3 → 0/2")
