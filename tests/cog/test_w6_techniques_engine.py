"""The engine helpers behind the clickable techniques of ``/kampf`` (pure, no Discord):
what is offered, what an Erschwernisprobe will need, the reflex at any time, and the
campaign-log entries of a step."""

from __future__ import annotations

import pytest

from bot.combat import copy_name
from bot.narration.combat_text import log_entries
from engines.core import BadInput, IllegalAction
from engines.w6 import make, probe_required, technique_options, usable_weapons, verbs_for
from engines.w6.state import ShieldStats
from tests.unit.test_w6_combat import GM, PLAYER, act, combat, duel, fighter, run, weapon

SWORD = weapon("Schwert", techniken=("rundumschlag", "angriffsserie"))
BOW = weapon("Bogen", fernkampf=True)


def test_options_follow_weapons_shield_magic_and_the_turn() -> None:
    state = duel(waffen=(SWORD, BOW), magie=3)
    offered = technique_options(state, "held")
    for name in ("gezielt", "erschwert", "rundum", "serie", "fern", "zielen", "zauber", "probe"):
        assert name in offered
    for name in ("zweihaendig", "blockade", "beidhaendig", "aufsitzen", "durchbrechen"):
        assert name not in offered
    assert technique_options(state, "ork") == ()  # not on turn: nothing beyond the reflex
    shielded = duel(
        schild=ShieldStats("Schild", 1, 2), waffen=(weapon(techniken=("zweihaendig",)),)
    )
    assert "blockade" in technique_options(shielded, "held")
    assert "zweihaendig" not in technique_options(shielded, "held")  # no free hand


def test_a_disarmed_fighter_is_offered_no_weapon_technique() -> None:
    state, _ = act(duel(waffen=(SWORD,)), "zustand held +waffe_verloren")
    assert usable_weapons(state.fighter("held")) == ()
    offered = technique_options(state, "held")
    assert "gezielt" not in offered and "rundum" not in offered and "probe" in offered


def test_probe_required_sums_like_apply() -> None:
    state = combat(
        fighter("held", PLAYER, ab=8, waffen=(SWORD, BOW)), fighter("ork"), fighter("ork2")
    )
    head = make("angriff", "held", ("ork",), zone="Kopf", erschwert=1)
    assert probe_required(state, head) == 5 + 2
    sweep = make("rundum", "held", ("ork", "ork2"), felder=3)
    assert probe_required(state, sweep) == 2 * 2
    # B 6, mittel −2: zone width 4; 9 Schritte: zone 3.
    shot = make("fern", "held", ("ork",), waffe="Bogen", dist=9, groesse="mittel")
    assert probe_required(state, shot) == 3
    assert probe_required(state, make("zauber", "held", kw=3)) == 0
    with pytest.raises(IllegalAction) as refused:
        probe_required(state, make("angriff", "held", ("ork",), zweihaendig=True))
    assert refused.value.key == "w6.combat.technique_not_allowed"
    with pytest.raises(BadInput):
        probe_required(state, make("angriff", "held", ("ork",), zone="Schwanz"))


def test_reflex_any_time_but_not_instead_of_an_answer() -> None:
    state = combat(fighter("held", PLAYER, ab=8), fighter("ork"), fighter("zeuge", ab=1))
    state, _ = act(state, "@held angriff ork kw=3")
    assert state.pending is not None and verbs_for(state, "zeuge") == ("reflex",)
    state, events = run(state, "wuerfel 5 5 1 1", "@zeuge reflex")
    assert [e.type for e in events] == ["dice_forced", "reflex"]
    assert state.pending is not None and state.fighter("zeuge").reflex_used
    state, _ = act(state, "@held reflex")  # the attacker waits for the answer: may roll too
    with pytest.raises(IllegalAction) as asked:
        act(state, "@ork reflex")  # asked to defend: answers with «abwehr reflex» instead
    assert asked.value.key == "w6.combat.pending"


def test_log_entries_of_a_step_without_io() -> None:
    state = combat(fighter("held", PLAYER, ab=8, magie=2), fighter("ork"))
    state, _ = act(state, "wuerfel 5 6")
    action = make("zauber", "held", kw=2, erfolge=1)
    after, events = act(state, action.text(), actor=PLAYER)
    entries = log_entries(PLAYER, action, events, after)
    assert entries == [
        (
            PLAYER,
            "combat",
            {
                "action": "@held zauber erfolge=1 kw=2",
                "events": ["spell"],
                "verb": "zauber",
                "who": "Held",
                "targets": [],
            },
        ),
        (PLAYER, "check", {"name": "Held", "what": "spell", "successes": 2, "required": 1}),
    ]
    assert GM not in [actor for actor, _, _ in entries]


def test_copies_of_an_npc_are_numbered() -> None:
    assert [copy_name("Ork", i) for i in ("ork", "ork2", "ork12")] == ["Ork", "Ork 2", "Ork 12"]
    assert copy_name("Thoin Eisenfaust", "thoin") == "Thoin Eisenfaust"


def test_the_feint_form_asks_for_the_attack_dice_now_not_later() -> None:
    from bot.i18n import t
    from cogs.combat_forms import Form, _form_text

    dagger = weapon("Dolch")  # a Finte needs a second weapon (KAMPF ZU ZWEI HÄNDEN)
    state = combat(fighter("held", PLAYER, ab=8, waffen=(SWORD, dagger)), fighter("ork"))
    feint = Form("finte", "held", (("t", "1"),))  # the ork: fighters by position
    text = _form_text(state, state.fighter("held"), feint, "en")
    required = probe_required(state, make("finte", "held", ("ork",), probe=1, kw=1, angriff=1))
    assert required > 0
    assert t("w6cog.form.probe_attack_now", "en", required=required) in text
    assert t("w6cog.form.probe", "en", required=required) not in text
