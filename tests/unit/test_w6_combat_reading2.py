"""W6 combat, second reading (issue #24): what the reviewer found against the rulebook."""

from __future__ import annotations

import pytest

from engines.core import IllegalAction
from engines.w6 import fighter_from_sheet, npc_from_text, technique_options, to_act
from engines.w6.sheet_io import NPC_KRAFT
from tests.unit.test_w6_combat import (
    PLAYER,
    act,
    all_of,
    combat,
    duel,
    fighter,
    only,
    run,
    weapon,
)


def test_aiming_is_used_up_by_the_shot() -> None:
    """ZIELEN lowers the next shot's probe (RULES.md): one aim, one shot."""
    bow = weapon("Bogen", (1, 1), fert=3, fernkampf=True, zielen=1)
    state = duel(waffen=(bow,), handlungen_max=3, kw_max=20, b={"handlungen_max": 0})
    state, _ = act(state, "@held zielen")
    state, events = run(
        state, "wuerfel 5 5 5 5 5 1", "@held fern ork dist=10 probe=2 kw=3", "@ork abwehr keine"
    )
    assert only(events, "probe")["required"] == 3 - 1
    assert only(events, "damage")["fertigkeit"] == 3
    assert state.fighter("held").zielen == 0
    with pytest.raises(IllegalAction) as error:  # the next shot is not aimed any more
        act(state, "@held fern ork dist=10 kw=3")
    assert error.value.params["required"] == 3


def test_aiming_lapses_with_the_phase() -> None:
    bow = weapon("Bogen", (1, 1), fert=3, fernkampf=True, zielen=1)
    state = duel(waffen=(bow,), b={"handlungen_max": 0})
    state, _ = run(state, "@held zielen", "@held fertig")
    assert state.phase == 2 and state.fighter("held").zielen == 0
    with pytest.raises(IllegalAction) as error:
        act(state, "@held fern ork dist=10 kw=3")
    assert error.value.params["required"] == 3


def test_two_weapon_fighting_needs_two_melee_weapons_of_one_skill() -> None:
    """BEIDHÄNDIGER KAMPF: «zwei nahezu identische Waffen, … derselben Waffenfertigkeit»."""
    sword = weapon("Schwert", (1, 1), fertigkeit="Klingenwaffen")
    great = weapon("Zweihänder", (2, 3), fertigkeit="Zweihandschwerter")
    bow = weapon("Bogen", (1, 1), fernkampf=True, fertigkeit="Klingenwaffen")
    state = duel(waffen=(sword, great, bow), beidhaendig=True)
    assert "beidhaendig" not in technique_options(state, "held")
    for second in ("Zweihänder", "Bogen"):
        with pytest.raises(IllegalAction) as error:
            act(state, f"@held beidhaendig ork waffe=Schwert waffe2={second} probe=3 kw=3")
        assert error.value.key == "w6.combat.not_a_pair"
    with pytest.raises(IllegalAction) as error:
        act(state, "@held beidhaendig ork probe=3 kw=3")
    assert error.value.key == "w6.combat.no_second_weapon"
    dagger = weapon("Kurzschwert", (1, 1), fertigkeit="Klingenwaffen")
    state = duel(waffen=(sword, great, dagger), beidhaendig=True)
    assert "beidhaendig" in technique_options(state, "held")
    state, events = run(
        state, "wuerfel 5 5 5 5 5 1", "@held beidhaendig ork probe=3 kw=3", "@ork abwehr keine"
    )
    assert [d["weapon"] for d in all_of(events, "damage")] == ["Schwert", "Kurzschwert"]


def test_a_feint_needs_two_weapons() -> None:
    """KAMPF ZU ZWEI HÄNDEN: one weapon feints, «die andere Waffe» strikes."""
    state = duel(waffen=(weapon("Axt", (1, 1)),), kw_max=20)
    assert "finte" not in technique_options(state, "held")
    kw_before = state.fighter("held").kw_left
    state2, _ = act(state, "wuerfel 5 5")
    with pytest.raises(IllegalAction) as error:
        act(state2, "@held finte ork probe=2 kw=3 angriff=4")
    assert error.value.key == "w6.combat.feint_needs_two"
    assert state2.fighter("held").kw_left == kw_before  # refused before the probe is rolled
    two = duel(waffen=(weapon("Degen", (1, 1)), weapon("Bogen", (1, 1), fernkampf=True)))
    assert "finte" not in technique_options(two, "held")
    with pytest.raises(IllegalAction) as error:
        act(two, "@held finte ork probe=2 kw=3 angriff=4 waffe2=Bogen")
    assert error.value.key == "w6.combat.wrong_weapon_kind"
    blades = duel(waffen=(weapon("Degen", (1, 1)), weapon("Dolch", (1, 1))))
    assert "finte" in technique_options(blades, "held")


def test_holding_before_anyone_acted_waits_for_someone_else() -> None:
    """A held Handlung «immer dann …, wenn gerade ein anderer Beteiligter gehandelt hat»."""
    state = combat(fighter("held", PLAYER, ab=8), fighter("ork", ab=4), fighter("gob", ab=2))
    state, _ = act(state, "@held weiter")
    assert to_act(state) == {"ork"}
    with pytest.raises(IllegalAction) as error:
        act(state, "@held handlung")
    assert error.value.key == "w6.combat.not_your_turn"
    state, _ = act(state, "@ork handlung")
    assert "held" in to_act(state)


def test_when_everyone_holds_the_held_handlungen_may_begin() -> None:
    state = combat(fighter("held", PLAYER, ab=8), fighter("ork", ab=4))
    state, _ = run(state, "@held weiter", "@ork weiter")
    assert to_act(state) == {"held", "ork"}
    state, _ = act(state, "@held handlung")
    assert to_act(state) == {"ork"}


def test_a_follow_up_answered_by_a_second_retreat_gives_no_second_follow_up() -> None:
    """NACHSCHLAGEN: «anstelle des Nachsetzens einen weiteren Angriff» at half the successes."""
    spear = weapon("Speer", (1, 2), zusatz=2, fert=5, reichweite=2)
    state = duel(waffen=(spear,), b={"handlungen_max": 3})
    state, _ = run(
        state, "wuerfel 5 5 6 6 6 1 5 5 5", "@held angriff ork kw=6", "@ork abwehr kw=3",
        "@ork zurueckweichen",
    )  # fmt: skip
    assert state.pending is not None and state.pending.stage == "nachschlagen"
    state, events = act(state, "@held nachschlagen")
    assert only(events, "follow_up")["successes"] == 3  # half of 5, rounded up
    state, events = run(state, "wuerfel 5 5 1", "@ork abwehr kw=3", "@ork zurueckweichen")
    assert only(events, "defence_roll")["required"] == 2  # half of 3 up, at least 2
    assert only(events, "retreated")["fighter"] == "ork"
    assert state.pending is None  # no follow-up from the follow-up


def test_a_doubled_defence_ends_the_series_even_when_a_zone_makes_it_fail() -> None:
    sword = weapon(ratio=(1, 1), techniken=("angriffsserie",))
    state = duel(waffen=(sword,), kw_max=30, b={"handlungen_max": 0, "kw_max": 20})
    # Kopf: probe 5, defence +3; attack 2 successes, defence 4 = doubled but below 2 + 3
    state, events = run(
        state, "wuerfel 5 5 5 5 5 5 5 1 1 5 5 5 5 1",
        "@held angriff ork zone=Kopf probe=5 kw=4 serie", "@ork abwehr kw=5",
    )  # fmt: skip
    roll = only(events, "defence_roll")
    assert (roll["successes"], roll["required"], roll["ok"]) == (4, 5, False)
    assert only(events, "series_ended")["reason"] == "defended_twice"
    assert state.fighter("held").serie_zahl == 0


def test_only_erschwernisproben_can_be_bought() -> None:
    state = combat(fighter("held", PLAYER, ab=8), fighter("ork"), kaufen=True)
    with pytest.raises(IllegalAction) as error:
        act(state, "@held probe kw=3 kaufen=1")
    assert error.value.key == "w6.combat.buy_only_erschwernis"
    state, events = act(state, "@held angriff ork zone=Torso kaufen=2 kw=2")
    assert only(events, "probe")["ok"] is True


def test_a_failed_two_weapon_attack_gives_back_the_defences_handlung() -> None:
    blades = (weapon("Links", (1, 1)), weapon("Rechts", (1, 1)))
    state = duel(waffen=blades, beidhaendig=True)
    state, events = run(
        state, "wuerfel 5 5 5 5 1 1", "@held beidhaendig ork probe=3 kw=2", "@ork abwehr kw=2"
    )
    assert only(events, "attack_roll")["ok"] is False
    assert only(events, "kw_returned")["kw"] == 2
    assert all_of(events, "handlung_returned") == [{"fighter": "ork"}]
    assert state.fighter("ork").handlungen_left == 2 and state.fighter("ork").kw_left == 10


def test_a_quick_npc_without_kraft_rolls_a_sensible_kraft_probe() -> None:
    """SCHADEN: «Kraft-Probe auf vier Erfolge»: a quick NPC given only ``rlp=`` rolls
    ``NPC_KRAFT`` dice (K of an average human), ``kraft=`` or ``k=`` when given."""
    goblin = fighter_from_sheet(npc_from_text("Goblin lp=10 kw=4 ab=3 rlp=4"), "gob", None)
    assert goblin.kraft == NPC_KRAFT > 0
    strong = npc_from_text("Oger lp=30 kw=8 ab=3 rlp=4 kraft=7")
    assert fighter_from_sheet(strong, "oger", None).kraft == 7
    assert fighter_from_sheet(npc_from_text("Ork lp=9 kw=4 ab=3 k=3"), "ork", None).kraft == 3
    state = combat(fighter("held", PLAYER, ab=8), goblin)
    state, events = run(
        state, "wuerfel 6 6 6 5 5 5 5", "@held angriff gob kw=3", "@gob abwehr keine"
    )
    check = only(events, "kraft_check")
    assert (len(check["dice"]), check["ok"]) == (NPC_KRAFT, True)
    assert state.fighter("gob").conscious


def test_a_fighter_who_is_down_is_not_named_in_the_phase_order() -> None:
    state = combat(fighter("held", PLAYER, ab=8), fighter("ork", ab=4), fighter("gob", ab=2))
    state, events = run(state, "zustand gob +bewusstlos", "setze ork lp=-2", "phase")
    assert only(events, "phase_started")["order"] == ["held"]


def test_a_new_armour_piece_goes_on_the_zone_its_name_names() -> None:
    from engines.core import BadInput
    from engines.w6.sheet_io import set_field, sheet_from_json

    sheet = sheet_from_json({"schema": "w6.sheet", "version": 1, "name": "Thoin"})
    helmed = set_field(sheet, "ruestung.Helm.rs", "2")
    assert [(a.name, a.zone, a.rs) for a in helmed.ruestung] == [("Helm", "Kopf", 2)]
    gloves = set_field(sheet, "ruestung.Panzerhandschuhe.rs", "1")
    assert gloves.ruestung[0].zone == "Hände"
    with pytest.raises(BadInput) as error:  # no zone in the name: asked, nothing guessed
        set_field(sheet, "ruestung.Glücksbringer.rs", "1")
    assert error.value.key == "w6.sheet.zone_needed"
    placed = set_field(sheet, "ruestung.Glücksbringer.zone", "Head")
    assert set_field(placed, "ruestung.Glücksbringer.rs", "1").ruestung[0].zone == "Kopf"


def test_english_field_and_attribute_names() -> None:
    from engines.w6.sheet_io import set_field, sheet_from_json

    sheet = sheet_from_json({"schema": "w6.sheet", "version": 1, "name": "Thoin"})
    sheet = set_field(sheet, "attributes.Dexterity", "4")
    sheet = set_field(sheet, "weapons.Axe.damage", "1-2")
    sheet = set_field(sheet, "armour.Helmet.protection", "3")
    sheet = set_field(sheet, "skills.Climbing", "2")
    assert sheet.eigenschaft("Geschick") == 4 and sheet.fertigkeit("Climbing") == 2
    assert sheet.weapon("Axe") is not None and sheet.weapon("Axe").schaden == (1, 2)
    assert [(a.name, a.zone, a.rs) for a in sheet.ruestung] == [("Helmet", "Kopf", 3)]


def test_a_follow_up_is_defended_without_the_erschwerter_angriff() -> None:
    """NACHSCHLAGEN: «erneut gegen die halben Angriffserfolge»; the damage comes «ohne den
    Fertigkeitsschaden», so the Erschwerter Angriff's bonus and harder defence go."""
    spear = weapon("Speer", (1, 2), zusatz=2, fert=5, reichweite=2)
    state = duel(waffen=(spear,), kw_max=20, b={"handlungen_max": 3})
    state, _ = run(
        state, "wuerfel 5 5 5 5 6 6 6 6 6 1 5 5 5 5 5 5",
        "@held angriff ork erschwert=2 probe=4 kw=6", "@ork abwehr kw=6", "@ork zurueckweichen",
    )  # fmt: skip
    assert state.pending is not None and state.pending.stage == "nachschlagen"
    state, events = act(state, "@held nachschlagen")
    assert only(events, "follow_up")["successes"] == 3  # half of 5, rounded up
    assert state.pending is not None and state.pending.defence_mod == 0
