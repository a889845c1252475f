"""W6 character sheets: derived values, strict JSON import/export, path edits, NPC blocks."""

from __future__ import annotations

import json

import pytest

from bot.sheets import sheet_from_modal
from engines.core import BadInput
from engines.w6 import (
    derive,
    edit_sheet,
    npc_from_text,
    npc_sheet,
    sheet_from_json,
    sheet_from_text,
    sheet_to_json,
    sheet_to_text,
)


def thoin_data() -> dict[str, object]:
    return {
        "schema": "w6.sheet",
        "version": 1,
        "name": "Thoin Donnerschild",
        "rasse": "Zwerg",
        "pm": {"K": 6, "G": 4, "M": 5, "B": 5, "S": 2},
        "eigenschaften": {"Geschick": 6, "Wahrnehmung": 5, "Intuition": 3, "Kraft": 7},
        "fertigkeiten": {"Spaltwaffen": 4, "Schildkampf": 1, "Zähigkeit": 1},
        "erfahrung": 120,
        "faktor": 2,
        "lp": 30,
        "lp_max": 30,
        "rlp": 8,
        "kw": 12,
        "reflex": 6,
        "magie": 2,
        "ab": 7,
        "handlungen": [6, 9, 12, 16],
        "waffen": [
            {
                "name": "Streitaxt",
                "fertigkeit": "Spaltwaffen",
                "schaden": "2-3",
                "zusatz": "K+1",
                "cap": 3,
                "reichweite": 1,
                "techniken": ["angriffsserie", "zweihaendig"],
                "fernkampf": False,
                "zielen": 1,
                "block": 0,
                "stabilitaet": "3/10",
            }
        ],
        "ruestung": [
            {"name": "Helm", "zone": "Kopf", "rs": 2, "be": 0},
            {"name": "Kettenhemd", "zone": "Torso", "rs": 4, "be": 2},
            {"name": "Beinschienen", "zone": "Beine", "rs": 1, "be": 1},
        ],
        "schild": {
            "name": "Rundschild",
            "kw_bonus": 2,
            "be": 2,
            "block": 3,
            "rs": 2,
            "stabilitaet": None,
        },
        "reittier": {"name": "Pony", "be": 3},
        "be_temp": 0,
        "be_fertigkeiten": ["Zähigkeit"],
        "schwelle_mod": 1,
        "fix": {},
        "notizen": "Hasst Orks.",
    }


def test_derived_values_follow_the_rulebook() -> None:
    d = derive(sheet_from_json(thoin_data()))
    assert d.gesamtschutz == (2 + 4 + 1 + 2) // 3  # Summe aller Rüstungswerte : 3, Schild inkl.
    assert dict(d.zonen_rs) == {"Beine": 1, "Kopf": 2, "Torso": 4}
    # armour BE 3 - Zähigkeit 1 = 2; shield BE 2 - Schildkampf 1 = 1 -> KW 12 - 3
    assert d.behinderung_kw == 3 and d.kw_effektiv == 9
    # the shield's BE counts fully against the Reflexwürfel: 6 - 2 - 2
    assert d.reflex_effektiv == 2
    assert d.kw_beritten == 6  # the Pony's BE 3 off the KW
    assert d.handlungen == 2  # M + B = 10 reaches the thresholds 6 and 9
    assert d.schwelle == (6 + 4) * (2 + 1)
    assert d.kraft == 7
    axe = d.waffen[0]
    assert axe.basisschaden == (2, 3)
    assert axe.zusatzschaden == 7  # K 6 + 1
    assert axe.fertigkeitsschaden == 3 * 2  # skill 4 counted up to the cap 3, times Faktor 2


def test_zusatzschaden_needs_a_point_in_the_weapon_skill() -> None:
    data = thoin_data()
    data["fertigkeiten"] = {"Schildkampf": 1}
    d = derive(sheet_from_json(data))
    assert d.waffen[0].zusatzschaden == 0 and d.waffen[0].fertigkeitsschaden == 0


def test_json_round_trip_is_exact() -> None:
    data = thoin_data()
    sheet = sheet_from_json(data)
    assert sheet_to_json(sheet) == data
    assert sheet_from_text(sheet_to_text(sheet)) == sheet


@pytest.mark.parametrize(
    ("path", "value", "key", "field"),
    [
        (("lp",), "viel", "w6.sheet.not_integer", "lp"),
        (("kw",), -1, "w6.sheet.out_of_range", "kw"),
        (("eigenschaften", "Geschick"), 2.5, "w6.sheet.not_integer", "eigenschaften.Geschick"),
        (("waffen", 0, "schaden"), "2:3", "w6.sheet.bad_ratio", "waffen.Streitaxt.schaden"),
        (("waffen", 0, "zusatz"), "X+1", "w6.sheet.unknown_trait", "waffen.Streitaxt.zusatz"),
        (
            ("waffen", 0, "techniken"),
            ["fliegen"],
            "w6.sheet.bad_technique",
            "waffen.Streitaxt.techniken",
        ),
        (("ruestung", 0, "zone"), "Schwanz", "w6.sheet.bad_zone", "ruestung.Helm.zone"),
        (("version",), 2, "w6.sheet.bad_version", "version"),
        (("lp",), 31, "w6.sheet.lp_above_max", "lp"),
        (("handlungen",), [9, 6], "w6.sheet.bad_thresholds", "handlungen"),
        (("schild", "stabilitaet"), "0/3", "w6.sheet.bad_stability", "schild.stabilitaet"),
    ],
)
def test_invalid_values_name_their_field(
    path: tuple[object, ...], value: object, key: str, field: str
) -> None:
    data = json.loads(json.dumps(thoin_data()))
    target = data
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value
    with pytest.raises(BadInput) as error:
        sheet_from_json(data)
    assert error.value.key == key
    assert error.value.params["field"] == field


def test_unknown_and_missing_fields_are_refused() -> None:
    data = thoin_data()
    data["lebenspunkte"] = 3
    with pytest.raises(BadInput) as error:
        sheet_from_json(data)
    assert (error.value.key, error.value.params["field"]) == (
        "w6.sheet.unknown_field",
        "lebenspunkte",
    )
    data = thoin_data()
    del data["pm"]["K"]  # type: ignore[attr-defined]
    with pytest.raises(BadInput) as error:
        sheet_from_json(data)
    assert error.value.params["field"] == "pm.K"
    with pytest.raises(BadInput) as error:
        sheet_from_text("{kaputt")
    assert error.value.key == "json.not_json"


def test_edit_single_fields_by_path() -> None:
    sheet = sheet_from_json(thoin_data())
    sheet = edit_sheet(sheet, "eigenschaften.Geschick=4")
    sheet = edit_sheet(sheet, "lp=12")
    sheet = edit_sheet(sheet, "waffen.Streitaxt.schaden=1-2")
    sheet = edit_sheet(sheet, "waffen.Dolch.fertigkeit=Stichwaffen")
    sheet = edit_sheet(sheet, "ruestung.Helm=-")
    sheet = edit_sheet(sheet, "reittier=-")
    sheet = edit_sheet(sheet, "handlungen=5,8,11")
    assert sheet.eigenschaft("Geschick") == 4 and sheet.lp == 12
    assert sheet.waffen[0].schaden == (1, 2)
    assert [w.name for w in sheet.waffen] == ["Streitaxt", "Dolch"]
    assert [a.name for a in sheet.ruestung] == ["Kettenhemd", "Beinschienen"]
    assert sheet.reittier is None and sheet.handlungen == (5, 8, 11)
    assert derive(sheet).handlungen == 2


@pytest.mark.parametrize(
    ("edit", "key", "field"),
    [
        ("lp=zwölf", "w6.sheet.not_integer", "lp"),
        ("lp=99", "w6.sheet.lp_above_max", "lp"),
        ("eigenschaften=3", "w6.sheet.bad_path", "eigenschaften"),
        ("unsinn.x=1", "w6.sheet.bad_path", "unsinn.x"),
        ("waffen.Streitaxt.schaden=zwei", "w6.sheet.bad_ratio", "waffen.Streitaxt.schaden"),
        ("fertigkeiten.Fliegen=-", "w6.sheet.no_such_entry", "fertigkeiten.Fliegen"),
    ],
)
def test_bad_edits_name_their_field(edit: str, key: str, field: str) -> None:
    with pytest.raises(BadInput) as error:
        edit_sheet(sheet_from_json(thoin_data()), edit)
    assert error.value.key == key and error.value.params["field"] == field
    with pytest.raises(BadInput) as error:
        edit_sheet(sheet_from_json(thoin_data()), "lp 3")
    assert error.value.key == "w6.sheet.bad_edit"


def test_npc_stat_block() -> None:
    ork = npc_from_text("Ork Häuptling lp=20 kw=8 ab=5 gs=2 waffe=Säbel schaden=1-2 zusatz=3")
    assert ork == npc_sheet("Ork Häuptling", 20, 8, 5, 2, "Säbel", "1-2", 3)
    d = derive(ork)
    assert (d.gesamtschutz, d.handlungen, d.kw_effektiv) == (2, 2, 8)
    assert d.waffen[0].zusatzschaden == 3
    assert sheet_from_json(sheet_to_json(ork)) == ork
    with pytest.raises(BadInput) as error:
        npc_from_text("Ork lp=20 kw=8")
    assert error.value.key == "w6.sheet.bad_npc"


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ([1, 2], "w6.sheet.not_a_sheet"),
        ("Thoin", "w6.sheet.not_a_sheet"),
        ({"schema": "x"}, "w6.sheet.bad_schema"),
        ({"name": "Thoin", "version": 1}, "w6.sheet.bad_schema"),
        ({"schema": "x", "fremd": 1}, "w6.sheet.bad_schema"),
    ],
)
def test_a_file_that_is_no_sheet_is_called_so_before_any_field(data: object, key: str) -> None:
    with pytest.raises(BadInput) as error:
        sheet_from_json(data)
    assert error.value.key == key and error.value.params["schema"] == "w6.sheet"
    with pytest.raises(BadInput) as missing:
        sheet_from_json({"schema": "w6.sheet", "name": "Thoin"})
    assert missing.value.key == "w6.sheet.missing_field"
    assert missing.value.params["field"] == "version"


def test_an_unknown_field_of_an_entry_names_the_path_as_typed_and_lists_the_fields() -> None:
    sheet = sheet_from_json(thoin_data())
    for value in ("3", "2-4"):
        with pytest.raises(BadInput) as error:
            edit_sheet(sheet, f"waffen.Streitaxt.gewicht={value}")
        assert error.value.key == "w6.sheet.unknown_field"
        assert error.value.params["field"] == "waffen.Streitaxt.gewicht"
        assert "schaden" in error.value.params["allowed"].split(", ")
    with pytest.raises(BadInput) as error:
        edit_sheet(sheet, "schild.farbe=rot")
    assert error.value.params["field"] == "schild.farbe"
    assert error.value.params["allowed"] == "name, kw_bonus, be, block, rs, stabilitaet"
    data = thoin_data()
    data["waffen"][0]["basis"] = "2-4"  # type: ignore[index]
    with pytest.raises(BadInput) as error:
        sheet_from_json(data)
    assert error.value.params["field"] == "waffen.Streitaxt.basis"


def test_basis_is_the_basisschaden_ratio() -> None:
    sheet = edit_sheet(sheet_from_json(thoin_data()), "waffen.Streitaxt.basis=2-4")
    assert sheet.waffen[0].schaden == (2, 4)
    sheet = edit_sheet(sheet, "waffen.Faust.basisschaden=1-1")
    assert sheet.weapon("Faust") is not None
    with pytest.raises(BadInput) as error:
        edit_sheet(sheet, "waffen.Streitaxt.basis=3")
    assert error.value.key == "w6.sheet.bad_ratio"
    assert error.value.params["field"] == "waffen.Streitaxt.basis"


def test_npc_heavy_hit_values() -> None:
    plain = npc_from_text("Ork lp=20 kw=8 ab=5")
    assert (plain.pm_value("K"), plain.pm_value("G"), derive(plain).schwelle) == (0, 0, 0)
    strong = npc_from_text("Ork lp=20 kw=8 ab=5 k=4 g=3")
    assert derive(strong).schwelle == 7 and strong.pm_value("K") == 4
    fixed = npc_from_text("Ork lp=20 kw=8 ab=5 schwelle=9")
    assert derive(fixed).schwelle == 9
    assert sheet_from_json(sheet_to_json(fixed)) == fixed
    with pytest.raises(BadInput) as error:
        npc_from_text("Ork lp=20 kw=8 ab=5 k=viel")
    assert error.value.key == "w6.sheet.not_integer"


def test_a_sheet_without_thresholds_has_one_handlung() -> None:
    plain = sheet_from_modal({"name": "Alrik", "pm": "3 2 4 3", "handlungen": ""})
    assert plain.handlungen == () and derive(plain).handlungen == 1
    counted = sheet_from_modal({"name": "Alrik", "pm": "3 2 4 3", "handlungen": "8 12 16"})
    assert counted.handlungen == (8, 12, 16) and derive(counted).handlungen == 0


@pytest.mark.parametrize("text", ["4 6 8 10 12", "4, 6, 8, 10, 12", "4,6 8, 10,12"])
def test_the_modal_takes_thresholds_with_spaces_or_commas(text: str) -> None:
    sheet = sheet_from_modal({"name": "Alrik", "pm": "3 2 4 3", "handlungen": text})
    assert sheet.handlungen == (4, 6, 8, 10, 12) and derive(sheet).handlungen == 2


@pytest.mark.parametrize("text", ["8 6", "4 6 8 10 12 14", "acht"])
def test_bad_modal_thresholds_name_the_form_field(text: str) -> None:
    with pytest.raises(BadInput) as caught:
        sheet_from_modal({"name": "Alrik", "pm": "3 2 4 3", "handlungen": text})
    assert caught.value.key == "w6cog.sheet.bad_thresholds"
    assert caught.value.params == {"value": text}
