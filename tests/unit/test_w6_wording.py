"""W6 wording a play-tester met: Handlungen counted in the right number ("1 action",
"2 actions"), never "Handlung(en)" or "action(s)"; a called shot that is not "aimed"."""

from __future__ import annotations

from bot.i18n import catalog, t
from bot.narration.w6 import tc


def test_no_w6_text_writes_a_plural_in_brackets() -> None:
    for key, texts in catalog().items():
        if key.startswith(("w6.", "w6cog.")):
            assert "(en)" not in texts["de"] and "(s)" not in texts.get("en", ""), key


def test_handlungen_are_counted_in_both_numbers() -> None:
    assert tc("w6cog.option.handlungen", "en", n=1) == "1 action"
    assert tc("w6cog.option.handlungen", "de", n=2) == "2 Handlungen"
    assert t("w6cog.form.aimed", "en", zielen=1) == "Aimed so far: 1 action."
    assert t("w6cog.form.aimed", "de", zielen=0) == "Bisher gezielt: 0 Handlungen."
    held = tc("w6cog.ev.turn_passed", "de", fighter="Thoin", held=1)
    assert held == "**Thoin** hält 1 Handlung zurück."
    assert tc("w6cog.ev.handlung", "en", fighter="Thoin", handlungen=2) == (
        "**Thoin** uses 2 actions."
    )
    short = t("w6.combat.no_handlung", "en", fighter="Thoin", have=1, need=2)
    assert short == "Thoin has 1 action left, needs 2."


def test_the_called_shot_is_not_confused_with_aiming_in_english() -> None:
    """«Gezielte Attacke» (a body zone) and «Zielen» (aiming a shot) stand side by side in
    the technique menu: in English only Zielen speaks of aiming."""
    assert t("w6cog.tech.zielen", "en") == "Aim"
    for key in ("w6cog.tech.gezielt", "w6cog.opt.zone.desc"):
        assert "aim" not in t(key, "en").lower(), key


def test_web_describes_all_the_companion_offers() -> None:
    """/web's description named only sheets and the campaign log; the companion also builds
    Telperinquár decks, shows the Felsenfeuer spellbook and replays games."""
    for lang, words in (("de", ("Decks", "Zauberbuch")), ("en", ("decks", "spellbook"))):
        text = t("web.cmd.desc", lang)
        assert len(text) <= 100 and all(word in text for word in words)


def test_an_english_user_is_shown_english_field_names_that_work() -> None:
    """A wrong /character field path: the English answer gives English examples (it gave
    the German ones), and each example sets a field."""
    from engines.w6.sheet_io import set_field, sheet_from_json

    text = t("w6.sheet.bad_path", "en", field="atributes.Dexterity")
    examples = text.split("Examples: ", 1)[1].split(" (", 1)[0].split(", ")
    assert examples[:4] == [
        "attributes.Dexterity", "skills.Swordplay", "weapons.Axe.damage",
        "armour.Helmet.protection",
    ]  # fmt: skip
    sheet = sheet_from_json({"schema": "w6.sheet", "version": 1, "name": "Thoin"})
    for path, value in zip(examples, ("3", "2", "1-2", "2", "8"), strict=True):
        sheet = set_field(sheet, path, value)
    assert sheet.eigenschaften == (("Geschick", 3),) and sheet.ruestung[0].zone == "Kopf"


def test_a_check_takes_the_english_attribute_names_the_sheet_field_takes() -> None:
    """/character field attributes.Dexterity stores Geschick; /character check
    attribute:Dexterity said 'The attribute “Dexterity” is not on the sheet'."""
    from bot.sheets import roll_check
    from engines.core import Rng
    from engines.w6.sheet_io import set_field, sheet_from_json

    sheet = sheet_from_json({"schema": "w6.sheet", "version": 1, "name": "Lyra"})
    sheet = set_field(sheet, "attributes.Dexterity", "4")
    for typed in ("Dexterity", "dexterity", "Geschick"):
        trait, _skill, result = roll_check(sheet, typed, None, 2, 0, None, Rng(1))
        assert trait == "Geschick" and result.dice_count == 4


def test_probe_takes_the_english_attribute_names_too() -> None:
    """/check attribute:Dexterity with a character: 'Lyra has no attribute “Dexterity”'."""
    from bot.services.dice import sheet_attribute
    from bot.store.base import CharacterRecord

    sheet = {"schema": "w6.sheet", "version": 1, "name": "Lyra", "eigenschaften": {"Geschick": 4}}
    lyra = CharacterRecord(id=1, campaign_id=1, owner_id=1, name="Lyra", sheet=sheet, revision=1)
    assert sheet_attribute(lyra, "Dexterity") == ("Geschick", 4)
    assert sheet_attribute(lyra, "geschick") == ("Geschick", 4)
