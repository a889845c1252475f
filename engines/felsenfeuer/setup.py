"""A duel's start: its config read into ``Settings`` (refused with the option that is wrong; a
group's own spell file checked like an upload) and the first state."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.core.errors import BadInput
from engines.core.rng import Rng
from engines.felsenfeuer.codes import HAND_SIZE
from engines.felsenfeuer.model import COLOURS, ROLLS, Mode, Phase, Roll, Rules, Settings, State, Way
from engines.felsenfeuer.uploads import spellbook_with

_CONFIG = {"teams", "mode", "rules", "auswahl", "supply", "start", "phase_limit", "quiet_limit",
           "weltentor", "spells", "cap", "wuerfeln", "erdbeben"}  # fmt: skip


def _int(config: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = config.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadInput("felsenfeuer.error.bad_config", option=key)
    return value


def _spells(config: Mapping[str, Any]) -> str:
    """The config's own spell file (``spells``: TOML text), checked like the shipped ones."""
    text = config.get("spells", "") or ""
    if not isinstance(text, str):
        raise BadInput("felsenfeuer.error.bad_config", option="spells")
    if text:
        spellbook_with(text)
    return text


def settings_of(config: Mapping[str, Any], seed: int, players: int) -> tuple[Settings, Rng]:
    unknown = set(config) - _CONFIG
    if unknown:
        raise BadInput("felsenfeuer.error.bad_config", option=sorted(unknown)[0])
    if not 2 <= players <= 6:
        raise BadInput("error.player_count", min=2, max=6)
    rules = config.get("rules", "adept")
    mode = config.get("mode", "") or ""
    auswahl = config.get("auswahl", "sealed")
    if rules not in ("adept", "magister"):
        raise BadInput("felsenfeuer.error.bad_config", option="rules")
    if auswahl not in ("sealed", "draft"):
        raise BadInput("felsenfeuer.error.bad_config", option="auswahl")
    teams = tuple(config.get("teams") or ())
    if mode == "pentagramm" and (players != 5 or teams):
        raise BadInput("felsenfeuer.error.mode_players", mode=mode, players=5)
    if mode == "gilde":
        if players != 6 or (teams and teams != (0, 0, 0, 1, 1, 1)):
            raise BadInput("felsenfeuer.error.mode_players", mode=mode, players=6)
        teams = (0, 0, 0, 1, 1, 1)
    elif mode and mode != "pentagramm":
        raise BadInput("felsenfeuer.error.bad_config", option="mode")
    if teams and (len(teams) != players or not all(isinstance(t, int) for t in teams)):
        raise BadInput("error.bad_teams", players=players)
    per_colour = _int(config, "supply", 8 * ((players + 1) // 2), 1, 99)
    if per_colour * len(COLOURS) < HAND_SIZE * players:
        raise BadInput("felsenfeuer.error.bad_config", option="supply")
    cap = config.get("cap", "supply" in config)  # a physical supply: shares per colour
    if not isinstance(cap, bool):
        raise BadInput("felsenfeuer.error.bad_config", option="cap")
    roll = config.get("wuerfeln", "") or ""
    if roll not in ROLLS:
        raise BadInput("felsenfeuer.error.bad_config", option="wuerfeln")
    quake = config.get("erdbeben", False)
    if not isinstance(quake, bool):
        raise BadInput("felsenfeuer.error.bad_config", option="erdbeben")
    rng = Rng(seed)
    start = config.get("start", "random")
    if start == "random":
        start, rng = rng.randint(0, players - 1)
    elif not isinstance(start, int) or not 0 <= start < players:
        raise BadInput("felsenfeuer.error.bad_config", option="start")
    settings = Settings(
        players=players, rules=Rules(rules), mode=Mode(mode), teams=teams, auswahl=Way(auswahl),
        supply=(per_colour,) * len(COLOURS),
        phase_limit=_int(config, "phase_limit", 60, 1, 1000),
        quiet_limit=_int(config, "quiet_limit", 16, 1, 1000), start=start,
        weltentor=config.get("weltentor", False) is True, spells=_spells(config), cap=cap,
        roll=Roll(roll), quake=quake,
    )  # fmt: skip
    return settings, rng


def initial(config: Mapping[str, Any], seed: int, players: int) -> State:
    settings, rng = settings_of(config, seed, players)
    phase = Phase.DRAFT if settings.auswahl is Way.DRAFT else Phase.AUSWAHL
    return State(settings, phase, markers=(0,) * players, cauldrons=(-1,) * players,
                 stone=settings.start, auswahl=("",) * players, rng=rng)  # fmt: skip
