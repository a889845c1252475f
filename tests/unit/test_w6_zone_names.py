"""An armour piece's zone from its name (GEZIELTE ATTACKE): the zone words are found inside
German compounds (Lederhelm, Lederarmschienen) but not inside other English words — a
play-tester's 'Lucky charm' went on the arms ('ch-arm'), a 'Legendary cloak' on the legs."""

from __future__ import annotations

import pytest

from engines.w6.sheet_io import zone_from_name


@pytest.mark.parametrize(
    ("name", "zone"),
    [
        ("Lederhelm", "Kopf"),
        ("Iron helmet", "Kopf"),
        ("Armschienen", "Arme"),
        ("Lederarmschienen", "Arme"),
        ("Arm guards", "Arme"),
        ("Leather bracers", "Arme"),
        ("Panzerhandschuhe", "Hände"),
        ("Gauntlets", "Hände"),
        ("Hand wraps", "Hände"),
        ("Beinschienen", "Beine"),
        ("Steel greaves", "Beine"),
        ("Leg guards", "Beine"),
        ("Leggings", "Beine"),
        ("Kettenhemd", "Torso"),
        ("Chainmail", "Torso"),
        ("Breastplate", "Torso"),
    ],
)
def test_a_zone_word_names_the_zone(name: str, zone: str) -> None:
    assert zone_from_name(name) == zone


@pytest.mark.parametrize("name", ["Lucky charm", "Legendary cloak", "Warm cloak", "Glücksbringer"])
def test_a_zone_word_inside_another_english_word_names_none(name: str) -> None:
    assert zone_from_name(name) is None
