"""A card's own test (``[card.test]`` in its data), run with forced dice.

The scene: seat 0, a level-10 hero of the card's first class (``hero`` overrides; free cards:
a Kämpfer) with 10 LP and 30 actions, in its Hauptphase of round 2; seat 1, a level-1 hero
(``enemy``, default Kämpfer) with 20 LP and no Wesen. The card is played from the hand (a trap
face down) and then, by ``action``:

- ``use`` (default): used against ``target`` (``h1``: the enemy hero, ``h0``: the own hero, or
  none); every question asked of the other seat is passed;
- ``react``: the enemy attacks our hero with ``attack`` (a card it holds: ``Dolch``,
  ``Kurzbogen`` or ``Feuerpfeil``) and we answer with the card;
- ``reveal``: the enemy attacks our hero in melee with a Dolch and the trap springs;
- ``lay``: the enemy lays ``attack`` (default ``Wolf``) in its Hauptphase and we answer the
  laying with the card;
- ``none``: only played.

``enemy_equip`` (a list of card names) puts weapons and other equipment on the enemy hero
first (for cards that take weapons).

``dice`` are the W10/W6/W20 results in the order they are rolled. ``expect`` maps
``h0.life``, ``h1.life``, ``h0.actions``, ``card.zone``, ``card.charges``, ``card.inaktion``,
``h1.weapons`` (the weapons the enemy hero wears), ``h1.hand``,
or a delta from before the card was played (``h0.armour+``, ``h0.resistance+``, ``h0.bonus+``,
``h0.<attribute>+``, ``h0.hand+``) to its value.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.core.contract import JsonDict
from engines.telperinquar.cards import Card
from engines.telperinquar.engine import ENGINE
from engines.telperinquar.state import Zone, zone_of
from engines.telperinquar.stats import armour, attribute, catalogue_for, mods, resistance


def _scene(card: Card, test: Mapping[str, Any]) -> JsonDict:
    hero = str(test.get("hero") or (card.classes[0] if card.classes else "kaempfer"))
    enemy = str(test.get("enemy", "kaempfer"))
    state = ENGINE.initial_state({"decks": [hero, enemy]}, 1, 2)
    d = ENGINE.state_to_json(state)
    d["cur"] = d["order"].index(0)
    d["round"], d["phase"], d["combat"], d["stack"], d["ask"] = 2, "main", "none", [], None
    for p in d["players"]:
        p["actions"] = 30
    for cls in d["players"][0]["levels"]:
        d["players"][0]["levels"][cls] = 10
    d["players"][0]["life"] = 10
    d["players"][1]["life"] = 20  # the scene's figures, whatever a level 1 hero starts with
    d["forced"] = [int(x) for x in test.get("dice", [])]
    return d


def _put(d: JsonDict, seat: int, name: str, zone: str) -> str:
    cid = f"s{len(d['cards'])}"
    d["cards"][cid] = {"name": name, "owner": seat}
    d["players"][seat][zone].append(cid)
    return cid


def _act(d: JsonDict, seat: int, text: str) -> JsonDict:
    state, _ = ENGINE.apply(ENGINE.state_from_json(d), ENGINE.parse_action(text), seat)
    return ENGINE.state_to_json(state)


def _pass_all(d: JsonDict, seat: int) -> JsonDict:
    while d["ask"] is not None and d["ask"] != seat:
        d = _act(d, d["ask"], "pass")
    return d


def _kind(d: JsonDict, cid: str) -> str:
    return catalogue_for(d.get("extra", "")).cards[d["cards"][cid]["name"]].type


def _measure(d: JsonDict, cid: str) -> dict[str, Any]:
    state = ENGINE.state_from_json(d)
    info = d["cards"].get(cid, {})
    owner = d["players"][0]
    where = zone_of(
        state.players[0], cid, (Zone.HAND, Zone.EQUIP, Zone.FIELD, Zone.ROW, Zone.DISCARD)
    )
    zone = "" if where is None else str(where)
    out: dict[str, Any] = {
        "h0.life": owner["life"],
        "h1.life": d["players"][1]["life"],
        "h0.actions": owner["actions"],
        "h0.armour": armour(state, 0),
        "h0.resistance": resistance(state, 0),
        "h0.bonus": mods(state, 0, "bonus"),
        "h0.hand": len(owner["hand"]),
        "card.zone": zone,
        "card.charges": info.get("charges", 0),
        "card.inaktion": bool(info.get("inaktion", False)),
        "h1.weapons": sum(1 for c in d["players"][1]["equip"] if _kind(d, c) == "weapon"),
        "h1.hand": len(d["players"][1]["hand"]),
    }
    for attr in ("kraft", "reflexe", "geist", "aura"):
        out[f"h0.{attr}"] = attribute(state, 0, attr)
    return out


def run(card: Card) -> list[str]:
    """The card's test; each expectation that does not hold, as a sentence (empty: passed).
    A card without a test reports that."""
    test = card.get("test")
    if not isinstance(test, Mapping):
        return [f"{card.name}: no [card.test]"]
    d = _scene(card, test)
    for name in test.get("enemy_equip", []):
        _put(d, 1, str(name), "equip")
    cid = _put(d, 0, card.name, "hand")
    before = _measure(d, cid)
    d = _act(d, 0, f"{'hide' if card.type == 'trap' else 'play'} {cid}")
    action = str(test.get("action", "use"))
    if action == "use":
        target = str(test.get("target", ""))
        d = _pass_all(_act(d, 0, f"use {cid} {target}".strip()), 0)
    elif action in ("react", "reveal"):
        attack = str(test.get("attack", "Dolch"))
        zone = "field" if attack == "Feuerpfeil" else "equip"
        weapon = _put(d, 1, attack, zone)
        d["cur"] = d["order"].index(1)
        d = _act(d, 1, f"use {weapon} h0")
        if d["ask"] != 0:
            return [f"{card.name}: not asked to answer the attack"]
        d = _pass_all(_act(d, 0, f"{'react' if action == 'react' else 'reveal'} {cid}"), 0)
    elif action == "lay":
        laid = _put(d, 1, str(test.get("attack", "Wolf")), "hand")
        d["cur"] = d["order"].index(1)
        d = _act(d, 1, f"play {laid}")
        if d["ask"] != 0:
            return [f"{card.name}: not asked to answer the laying"]
        d = _pass_all(_act(d, 0, f"react {cid}"), 0)
    after = _measure(d, cid)
    wrong = []
    for key, want in dict(test.get("expect", {})).items():
        got = after[key[:-1]] - before[key[:-1]] if key.endswith("+") else after[key]
        if got != want:
            wrong.append(f"{card.name}: {key} is {got!r}, expected {want!r}")
    return wrong
