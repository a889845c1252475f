"""``/kampf`` techniques by clicking, through the real bot and the fake Discord: the
"Technik…" menu and its forms (Gezielte Attacke, Rundumschlag, Fernkampf with distance, size
and aiming, Zauber, Angriffsserie), the weapon choice of a plain attack, the reflex outside
the own turn, the campaign log written with the step; German and English. Dice are forced
with the GM's ``wuerfel`` verb."""

from __future__ import annotations

from typing import Any

import pytest

from bot.combat import active_combat, unpack
from bot.i18n import t
from bot.sandbox.fake_discord import FakeDiscord, StoredMessage
from engines.w6 import CombatState
from tests.cog.test_combat import ids_with, tracker
from tests.cog.test_w6 import ALICE, BOB, GM, import_sheet, start_campaign, thoin_json
from tests.harness import assert_components_valid, assert_ephemeral, assert_public, embed_text

UNHURT = t("w6cog.lp_state.unverletzt", "de")  # an NPC's LP in a player's target list


def lyra_json() -> dict[str, Any]:
    """Bob's fighter: sword (sweep, series), dagger, bow; 3 Handlungen, 4 Magiewürfel, AB 7."""
    return {
        "schema": "w6.sheet",
        "version": 1,
        "name": "Lyra",
        "pm": {"K": 3, "G": 4, "M": 3, "B": 4},
        "eigenschaften": {"Intuition": 3},
        "fertigkeiten": {"Klingenwaffen": 2, "Schusswaffen": 2},
        "lp": 25,
        "lp_max": 25,
        "rlp": 4,
        "kw": 12,
        "reflex": 4,
        "magie": 4,
        "ab": 7,
        "handlungen": [4, 6, 7],
        "waffen": [
            {"name": "Schwert", "fertigkeit": "Klingenwaffen", "schaden": "1-2", "zusatz": "K",
             "cap": 3, "techniken": ["rundumschlag", "angriffsserie"]},
            {"name": "Dolch", "fertigkeit": "Klingenwaffen", "schaden": "1-1", "cap": 3},
            {"name": "Bogen", "fertigkeit": "Schusswaffen", "schaden": "1-2", "cap": 3,
             "fernkampf": True, "zielen": 1},
        ],
    }  # fmt: skip


async def set_up(fake: FakeDiscord, locale: str = "de") -> StoredMessage:
    """Campaign; Thoin (alice), Lyra (bob), two Orks (with reflex dice); begun. Lyra (AB 7)
    acts first."""
    await start_campaign(fake, locale)
    await import_sheet(fake, ALICE, thoin_json())
    await import_sheet(fake, BOB, lyra_json())
    # Issue 10: only fighters with reflex dice are offered the reflex, so these Orks have some.
    orc = "Ork lp=20 kw=8 ab=5 gs=2 reflex=2"
    await (await fake.slash("sl nsc", {"werte": orc}, user=GM)).callback()
    await (await fake.slash("kampf start", user=GM, locale=locale)).message()
    await (await fake.slash("kampf dazu", user=ALICE, locale=locale)).message()
    await (await fake.slash("kampf dazu", user=BOB, locale=locale)).message()
    added = await (
        await fake.slash("kampf dazu", {"charakter": "Ork", "anzahl": 2}, user=GM, locale=locale)
    ).message()
    (begin,) = ids_with(added, "beginnen")
    status = await (await fake.click(added, begin, user=GM, locale=locale)).message()
    assert "▶ **Lyra**" in embed_text(status)
    return status


def mine(message: StoredMessage, code: str, fighter: str = "lyra") -> str:
    (found,) = [c for c in ids_with(message, code) if c.split(":")[4] == fighter]
    return found


def field(message: StoredMessage, key: str) -> str:
    (found,) = [c for c in ids_with(message, "fset") if c.split(":")[-1] == key]
    return found


def fields(message: StoredMessage) -> list[str]:
    return [c.split(":")[-1] for c in ids_with(message, "fset")]


def option_values(message: StoredMessage, custom_id: str) -> dict[str, str]:
    """label → value of a select."""
    return {o["label"]: o["value"] for o in message.component(custom_id)["options"]}


async def state_of(fake: FakeDiscord, bot: Any) -> CombatState:
    return unpack(await active_combat(bot.store, fake.channel().id)).state


async def force(fake: FakeDiscord, dice: str) -> StoredMessage:
    return await (
        await fake.slash("kampf aktion", {"notation": f"wuerfel {dice}"}, user=GM)
    ).message()


async def open_form(
    fake: FakeDiscord, status: StoredMessage, technique: str, user: str = BOB, locale: str = "de"
) -> StoredMessage:
    """Lyra's "Technik…" button, then the technique: the ephemeral form, drawn in place."""
    menu = await (
        await fake.click(status, mine(status, "tech"), user=user, locale=locale)
    ).message()
    assert_ephemeral(menu)
    (chooser,) = ids_with(menu, "tsel")
    reply = await (
        await fake.select(menu, chooser, [technique], user=user, locale=locale)
    ).callback()
    assert reply.type == 7  # the menu turns into the form
    assert_components_valid(menu)
    return menu


async def choose(
    fake: FakeDiscord, form: StoredMessage, key: str, values: list[str], locale: str = "de"
) -> None:
    reply = await (
        await fake.select(form, field(form, key), values, user=BOB, locale=locale)
    ).callback()
    assert reply.type == 7, reply
    assert_components_valid(form)


async def execute(fake: FakeDiscord, form: StoredMessage, locale: str = "de") -> StoredMessage:
    """Run the form: the private form turns into what happened, the tracker (returned) is
    edited in place (issue #19)."""
    (go,) = ids_with(form, "fdo")
    exchange = await fake.click(form, go, user=BOB, locale=locale)
    assert_ephemeral(await exchange.message())
    done = await tracker(fake, exchange)
    assert_public(done)
    return done


@pytest.mark.parametrize("locale", ["de", "en-US"])
async def test_aimed_attack_at_the_head_by_clicks(fake: FakeDiscord, bot: Any, locale: str) -> None:
    unhurt = t("w6cog.lp_state.unverletzt", locale[:2])
    lang = locale[:2]
    status = await set_up(fake, locale)
    assert_components_valid(status)
    menu = await (await fake.click(status, mine(status, "tech"), user=BOB, locale=locale)).message()
    labels = [o["label"] for o in menu.component(ids_with(menu, "tsel")[0])["options"]]
    for technique in ("gezielt", "rundum", "serie", "fern", "zielen", "zauber", "probe"):
        assert t(f"w6cog.tech.{technique}", lang) in labels
    assert t("w6cog.tech.zweihaendig", lang) not in labels  # no weapon of hers allows it
    assert t("w6cog.tech.blockade", lang) not in labels  # no shield

    form = await open_form(fake, status, "gezielt", locale=locale)
    assert t("w6cog.tech.gezielt", lang) in (form.content or "")
    assert fields(form) == ["t", "z", "w", "p"]  # two melee weapons: a weapon select
    await choose(
        fake, form, "t", [option_values(form, field(form, "t"))[f"Ork (ork, {unhurt})"]], locale
    )
    head = t("w6cog.option.zone", lang, zone=t("w6cog.zone.kopf", lang), required=5)
    await choose(fake, form, "z", [option_values(form, field(form, "z"))[head]], locale)
    assert t("w6cog.form.probe", lang, required=5) in (form.content or "")
    forced = await force(fake, "5 5 5 5 6 1 6 6 5 1")
    # Issue 9: a click is judged by its decision: the GM's forced dice do not answer Lyra's
    # turn, so her open form still applies (and asks for its Erschwernisprobe).
    still = await (await fake.click(form, ids_with(form, "fdo")[0], user=BOB)).callback()
    assert still.content == t("w6cog.form.missing.p", "de")

    form = await open_form(fake, forced, "gezielt", locale=locale)
    await choose(
        fake, form, "t", [option_values(form, field(form, "t"))[f"Ork (ork, {unhurt})"]], locale
    )
    await choose(fake, form, "z", [option_values(form, field(form, "z"))[head]], locale)
    missing = await (await fake.click(form, ids_with(form, "fdo")[0], user=BOB)).callback()
    assert_ephemeral(missing)
    assert missing.content == t("w6cog.form.missing.p", "de")
    await choose(fake, form, "p", ["6"], locale)
    probed = await execute(fake, form, locale)
    ok = t("w6cog.ev.ok", lang)
    what = t("w6cog.verb.angriff", lang)  # the step in words, not the verb
    assert t("w6cog.ev.probe.0", lang, fighter="Lyra", what=what, dice="5 5 5 5 6 1",
             successes=5, bought=0, required=5, ok=ok) in probed.text  # fmt: skip
    state = await state_of(fake, bot)
    assert state.log[-1].action == "@lyra angriff ork probe=6 waffe=Schwert zone=Kopf"
    (announce,) = ids_with(probed, "ansage")
    attacked = await (await fake.select(probed, announce, ["4"], user=BOB)).message()
    (no_defence,) = [c for c in ids_with(attacked, "keine") if c.endswith(":ork")]
    hit = await (await fake.click(attacked, no_defence, user=GM, locale=locale)).message()
    # Schwert 1-2, 6 6 5: 2+2+1 = 5 Basisschaden + Zusatz K 3 + Fertigkeit 2 = 10, ×3 on the
    # head (no armour there, the Ork's Gesamtschutz does not count).
    dying = t("w6cog.lp_state.sterbend", lang)  # the public line: no armour, no LP
    assert t("w6cog.ev.damage.npc", lang, fighter="Ork", sp=30, state=dying) in hit.text
    assert (await state_of(fake, bot)).fighter("ork").lp == -10


async def test_sweep_on_two_targets(fake: FakeDiscord, bot: Any) -> None:
    await set_up(fake)
    form = await open_form(fake, await force(fake, "5 5 1 6 6 5 1"), "rundum")
    assert fields(form) == ["t", "f", "p"]  # only the sword sweeps: no weapon select
    select = form.component(field(form, "t"))
    assert select["max_values"] == 3  # Thoin and both Orks
    orks = [o["value"] for o in select["options"] if o["label"].startswith("Ork")]
    await choose(fake, form, "t", orks)
    assert t("w6cog.form.probe", "de", required=2) in (form.content or "")  # 2 hexes: +2
    await choose(fake, form, "p", ["3"])
    probed = await execute(fake, form)
    assert (await state_of(fake, bot)).log[
        -1
    ].action == "@lyra rundum ork ork2 felder=2 probe=3 waffe=Schwert"
    (announce,) = ids_with(probed, "ansage")
    attacked = await (await fake.select(probed, announce, ["4"], user=BOB)).message()
    assert_components_valid(attacked)
    (ork,) = [c for c in ids_with(attacked, "keine") if c.endswith(":ork")]
    first = await (await fake.click(attacked, ork, user=GM)).message()
    (second,) = [c for c in ids_with(first, "keine") if c.endswith(":ork2")]
    hit = await (await fake.click(first, second, user=GM)).message()
    damaged = [line for line in hit.text.splitlines() if line.startswith("💥")]
    assert len(damaged) == 2 and "**Ork 2**" in damaged[1]


async def test_ranged_attack_with_distance_size_and_aiming(fake: FakeDiscord, bot: Any) -> None:
    status = await set_up(fake)
    aim = await open_form(fake, status, "zielen")
    assert fields(aim) == ["h"]
    aimed = await execute(fake, aim)
    assert t("w6cog.ev.aimed.one", "de", fighter="Lyra", handlungen=1) in aimed.text

    form = await open_form(fake, aimed, "fern")
    assert fields(form) == ["t", "g", "p"]  # one bow: no weapon select
    assert t("w6cog.form.aimed", "de", zielen=1) in (form.content or "")
    await choose(fake, form, "t", [option_values(form, field(form, "t"))[f"Ork (ork, {UNHURT})"]])
    await choose(fake, form, "g", [option_values(form, field(form, "g"))["klein"]])
    (distance_button,) = ids_with(form, "fdst")
    opened = await fake.click(form, distance_button, user=BOB)
    modal = await opened.modal()
    assert modal["custom_id"].split(":")[3] == "fdsv"
    bad = await fake.submit_modal(opened, {"d": "weit"})
    assert (await bad.callback()).content == t("w6cog.form.bad_number", "de", min=0, max=999)
    opened = await fake.click(form, distance_button, user=BOB)
    await (await fake.submit_modal(opened, {"d": "2"})).callback()
    # B 4, klein −5 → zone width 1; 2 Schritte: zone 2, +1 for klein, −1 aimed = 2 successes.
    assert t("w6cog.form.probe", "de", required=2) in (form.content or "")
    assert t("w6cog.btn.distance", "de", d=2) in [b["label"] for b in form.buttons]
    await choose(fake, form, "g", [option_values(form, field(form, "g"))["riesig"]])
    # riesig: width 4, zone 1, −2, −1 aimed: nothing to roll, no probe select.
    assert fields(form) == ["t", "g"]
    assert t("w6cog.form.no_probe", "de") in (form.content or "")
    form = await open_form(fake, await force(fake, "6 5 1"), "fern")
    await choose(fake, form, "t", [option_values(form, field(form, "t"))[f"Ork (ork, {UNHURT})"]])
    await choose(fake, form, "g", [option_values(form, field(form, "g"))["groß"]])
    opened = await fake.click(form, ids_with(form, "fdst")[0], user=BOB)
    await (await fake.submit_modal(opened, {"d": "8"})).callback()
    # groß: width 3, 8 Schritte zone 3, −1 groß, −1 aimed = 1.
    assert t("w6cog.form.probe", "de", required=1) in (form.content or "")
    await choose(fake, form, "p", ["1"])
    shot = await execute(fake, form)
    state = await state_of(fake, bot)
    assert state.log[-1].action == "@lyra fern ork dist=8 groesse=gross probe=1 waffe=Bogen"
    assert "ansage" in [c.split(":")[3] for c in shot.custom_ids]


async def test_spell_capped_by_magic_dice_and_logged_with_the_step(
    fake: FakeDiscord, bot: Any
) -> None:
    status = await set_up(fake)
    form = await open_form(fake, await force(fake, "5 5 6 1"), "zauber")
    assert fields(form) == ["k", "n"]
    assert t("w6cog.form.magic", "de", magie=4) in (form.content or "")
    await choose(fake, form, "k", ["6"])
    await choose(fake, form, "n", ["3"])
    cast = await execute(fake, form)
    assert t("w6cog.ev.spell", "de", fighter="Lyra", magiewuerfel=4, dice="5 5 6 1",
             successes=3, required=3, ok=t("w6cog.ev.ok", "de")) in cast.text  # fmt: skip
    assert (await state_of(fake, bot)).fighter("lyra").kw_left == 12 - 6  # the KW lapse
    campaign = await bot.store.active_campaign(fake.channel().id)
    entries = await bot.store.campaign_log(campaign.id, limit=0)
    step, check = entries[-2], entries[-1]
    assert step["kind"] == "combat" and step["data"]["action"] == "@lyra zauber erfolge=3 kw=6"
    assert check["kind"] == "check" and check["data"] == {
        "name": "Lyra", "what": "spell", "successes": 3, "required": 3,
    }  # fmt: skip
    assert step["at"] == check["at"]  # one transaction with the step
    assert status.id != cast.id


async def test_attack_series_and_weapon_choice(fake: FakeDiscord, bot: Any) -> None:
    await set_up(fake)
    form = await open_form(fake, await force(fake, "1 1 1"), "serie")
    assert fields(form) == ["t", "k"]  # only the sword allows a series: no weapon select
    await choose(fake, form, "t", [option_values(form, field(form, "t"))[f"Ork (ork, {UNHURT})"]])
    await choose(fake, form, "k", ["3"])
    attacked = await execute(fake, form)
    assert (await state_of(fake, bot)).log[
        -1
    ].action == "@lyra angriff ork kw=3 serie waffe=Schwert"
    (no_defence,) = [c for c in ids_with(attacked, "keine") if c.endswith(":ork")]
    missed = await (await fake.click(attacked, no_defence, user=GM)).message()
    assert t("w6cog.ev.attack_failed", "de", fighter="Lyra") in missed.text
    # A failed roll ends the series; the next plain attack picks its weapon.
    chooser = await (await fake.select(missed, mine(missed, "zatk"), ["ork2"], user=BOB)).message()
    (weapon,) = ids_with(chooser, "waffe")
    assert list(option_values(chooser, weapon)) == ["Schwert", "Dolch"]  # melee only
    await (await fake.select(chooser, weapon, ["1"], user=BOB)).callback()
    (kw,) = ids_with(chooser, "kwatk")
    assert kw.endswith(":ork2:1")
    await (await fake.select(chooser, kw, ["2"], user=BOB)).message()
    assert (await state_of(fake, bot)).log[-1].action == "@lyra angriff ork2 kw=2 waffe=Dolch"


async def test_series_continues_with_bonus_dice(fake: FakeDiscord, bot: Any) -> None:
    await set_up(fake)
    form = await open_form(fake, await force(fake, "5 5"), "serie")
    await choose(fake, form, "t", [option_values(form, field(form, "t"))[f"Ork (ork, {UNHURT})"]])
    await choose(fake, form, "k", ["2"])
    attacked = await execute(fake, form)
    (no_defence,) = [c for c in ids_with(attacked, "keine") if c.endswith(":ork")]
    hit = await (await fake.click(attacked, no_defence, user=GM)).message()
    assert "💥" in hit.text
    await (await fake.slash("kampf angriff", {"ziel": "ork", "kw": 2}, user=BOB)).message()
    state = await state_of(fake, bot)
    assert state.fighter("lyra").serie_zahl == 2
    assert state.pending is not None and state.pending.bonus_dice == 2  # the 2nd attack +2


async def test_reflex_outside_the_own_turn(fake: FakeDiscord, bot: Any) -> None:
    await set_up(fake)
    # Thoin (alice) is not on turn; her reflex form offers only him.
    status = await force(fake, "5 5 1 1")
    (anyone,) = ids_with(status, "rfx")
    form = await (await fake.click(status, anyone, user=ALICE)).message()
    assert_ephemeral(form)
    assert list(option_values(form, field(form, "r"))) == ["Thoin (thoin)"]
    exchange = await fake.click(form, ids_with(form, "fdo")[0], user=ALICE)
    assert t("w6cog.ev.reflex", "de", fighter="Thoin", dice="5 5 1 1", successes=2, required=2,
             ok=t("w6cog.ev.ok", "de")) in (await exchange.message()).text  # fmt: skip
    rolled = await tracker(fake, exchange)
    state = await state_of(fake, bot)
    assert state.fighter("thoin").reflex_used and state.fighter("thoin").kw_left == 0
    assert state.current == "lyra"  # still Lyra's turn
    # only the Orks could roll one now: their Reflexwürfel are the GM's, not the tracker's
    assert ids_with(rolled, "rfx") == []
    again = await (await fake.slash("kampf reflex", user=ALICE)).callback()
    assert_ephemeral(again)
    assert again.content == t("w6.combat.reflex_used", "de", fighter="Thoin")

    # During a pending attack a fighter who is not asked rolls with /kampf reflex.
    attack = await (
        await fake.slash("kampf angriff", {"ziel": "ork", "kw": 2}, user=BOB, locale="en-US")
    ).message()
    assert ids_with(attack, "npc")  # the Ork's defence (in the GM's prompt)
    await force(fake, "6 6 6 1")
    reflex = await (
        await fake.slash("kampf reflex", {"erfolge": 3}, user=BOB, locale="en-US")
    ).message()
    # the tracker speaks the combat's language (its German GM's), whoever typed the command
    assert t("w6cog.ev.reflex", "de", fighter="Lyra", dice="6 6 6 1", successes=3, required=3,
             ok=t("w6cog.ev.ok", "de")) in reflex.text  # fmt: skip
    assert (await state_of(fake, bot)).pending is not None  # the attack still waits
    # The GM's reflex form (in the GM view: the Orks' dice) switches between fighters.
    gm_view = await (await fake.click(reflex, ids_with(reflex, "slsicht")[0], user=GM)).message()
    gm_form = await (await fake.click(gm_view, ids_with(gm_view, "rfx")[0], user=GM)).message()
    names = option_values(gm_form, field(gm_form, "r"))
    assert list(names) == ["Ork 2 (ork2)"]  # Ork must answer the attack, the others rolled
    choice = [names["Ork 2 (ork2)"]]
    await (await fake.select(gm_form, field(gm_form, "r"), choice, user=GM)).callback()
    assert all(c.split(":")[4] == "ork2" for c in ids_with(gm_form, "fdo"))


async def test_check_in_combat_and_forms_only_for_the_owner(fake: FakeDiscord, bot: Any) -> None:
    status = await set_up(fake, "en-US")
    refused = await (await fake.click(status, mine(status, "tech"), user=ALICE)).callback()
    assert_ephemeral(refused)
    assert refused.content == t("w6cog.combat.not_yours", "de", name="Lyra")
    form = await open_form(fake, await force(fake, "5 5 1"), "probe", locale="en-US")
    assert t("w6cog.tech.probe", "en") in (form.content or "")
    assert fields(form) == ["k", "n", "h"]
    await choose(fake, form, "k", ["3"], "en-US")
    checked = await execute(fake, form, "en-US")
    what = t("w6cog.what.probe", "en")
    assert t("w6cog.ev.probe.0", "en", fighter="Lyra", what=what, dice="5 5 1", successes=2,
             bought=0, required=2, ok=t("w6cog.ev.ok", "en")) in checked.text  # fmt: skip
    assert "+0/" not in checked.text  # nothing bought: no "+0"
    state = await state_of(fake, bot)
    assert state.log[-1].action == "@lyra probe erfolge=2 handlungen=1 kw=3"
    assert state.fighter("lyra").handlungen_left == 2
