"""A match wraps any engine's state with what every game shares: resigning, draw offers and
forfeits. It is itself a pure reducer, so the stored action log replays the whole match.

Meta actions are written ``!resign``, ``!draw-offer``, ``!draw-accept``, ``!draw-decline`` (a
player's own, for their own seat) and ``!forfeit <seat>``, which only the referee issues (the
bot, after an idle timeout; replaying a stored log): no text a player types or clicks reaches it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from engines.core.contract import Engine, Event, JsonDict, Outcome, PlayerId
from engines.core.errors import BadInput, IllegalAction

META_PREFIX = "!"
PLAYER_META_VERBS = frozenset({"resign", "draw-offer", "draw-accept", "draw-decline"})
REFEREE_META_VERBS = frozenset({"forfeit"})


@dataclass(frozen=True, slots=True)
class Match:
    engine_name: str
    players: int
    state: Any
    draw_offer_by: PlayerId | None = None
    ended: Outcome | None = None


def start(engine: Engine[Any, Any], config: dict[str, Any], seed: int, players: int) -> Match:
    if not engine.min_players <= players <= engine.max_players:
        raise BadInput("error.player_count", min=engine.min_players, max=engine.max_players)
    return Match(engine.name, players, engine.initial_state(config, seed, players))


def outcome(engine: Engine[Any, Any], match: Match) -> Outcome | None:
    return match.ended or engine.outcome(match.state)


def to_act(engine: Engine[Any, Any], match: Match) -> frozenset[PlayerId]:
    return frozenset() if outcome(engine, match) else engine.to_act(match.state)


def apply(
    engine: Engine[Any, Any],
    match: Match,
    text: str,
    player: PlayerId,
    *,
    referee: bool = False,
) -> tuple[Match, list[Event]]:
    """Apply one logged action (engine notation or a meta action) by ``player``.

    ``referee`` is True only for actions the bot itself issues as the referee (an idle
    forfeit) or replays from a stored log; a player's input never sets it, so a player can
    only resign or answer draws for their own seat.

    Raises IllegalAction when the match is over or the action is not allowed (a referee's
    meta action from a player included), BadInput when the notation cannot be read.
    """
    if outcome(engine, match) is not None:
        raise IllegalAction("error.game_over")
    if not 0 <= player < match.players:
        raise IllegalAction("error.not_a_player")
    if text.startswith(META_PREFIX):
        words = text[len(META_PREFIX) :].split()
        if words and words[0] in REFEREE_META_VERBS and not referee:
            raise IllegalAction("error.referee_only")
        return _apply_meta(match, words, player)
    action = engine.parse_action(text)
    state, events = engine.apply(match.state, action, player)
    return replace(match, state=state, draw_offer_by=None), events


def _apply_meta(match: Match, words: list[str], player: PlayerId) -> tuple[Match, list[Event]]:
    verb = words[0] if words else ""
    others = frozenset(range(match.players)) - {player}
    if verb == "resign":
        ended = Outcome(others if match.players == 2 else frozenset(), "resign")
        return replace(match, ended=ended), [Event("resigned", {"player": player})]
    if verb == "draw-offer":
        if match.draw_offer_by is not None:
            raise IllegalAction("error.draw_pending")
        return replace(match, draw_offer_by=player), [Event("draw_offered", {"player": player})]
    if verb in ("draw-accept", "draw-decline"):
        if match.draw_offer_by is None or match.draw_offer_by == player:
            raise IllegalAction("error.no_draw_offer")
        if verb == "draw-decline":
            return replace(match, draw_offer_by=None), [Event("draw_declined", {"player": player})]
        ended = Outcome(frozenset(), "draw_agreed")
        return replace(match, ended=ended, draw_offer_by=None), [Event("draw_agreed", {})]
    if verb == "forfeit" and len(words) == 2 and words[1].isdigit():
        loser = int(words[1])
        if loser != player:  # the seat that kept the game waiting is the one that forfeits
            raise BadInput("error.bad_notation", text=" ".join(words))
        ended = Outcome(frozenset(range(match.players)) - {loser}, "forfeit")
        return replace(match, ended=ended), [Event("forfeited", {"player": loser})]
    raise BadInput("error.bad_notation", text=" ".join(words))


def to_json(engine: Engine[Any, Any], match: Match) -> JsonDict:
    ended = None
    if match.ended is not None:
        ended = {"winners": sorted(match.ended.winners), "reason": match.ended.reason}
    return {
        "engine": match.engine_name,
        "players": match.players,
        "state": engine.state_to_json(match.state),
        "draw_offer_by": match.draw_offer_by,
        "ended": ended,
    }


def from_json(engine: Engine[Any, Any], data: JsonDict) -> Match:
    ended_data = data.get("ended")
    ended = None
    if ended_data is not None:
        ended = Outcome(frozenset(ended_data["winners"]), str(ended_data["reason"]))
    return Match(
        engine_name=str(data["engine"]),
        players=int(data["players"]),
        state=engine.state_from_json(data["state"]),
        draw_offer_by=data.get("draw_offer_by"),
        ended=ended,
    )
