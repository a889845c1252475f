"""A match wraps any engine's state with what every game shares: resigning, draw votes,
forfeits, teams and eliminated seats. It is itself a pure reducer, so the stored action log
replays the whole match.

Meta actions are written ``!resign``, ``!draw-offer``, ``!draw-accept``, ``!draw-decline`` (a
player's own, for their own seat) and ``!forfeit <seat>``, which only the referee issues (the
bot, after an idle timeout; replaying a stored log): no text a player types or clicks reaches it.

**Seats and sides.** ``teams`` gives each seat's team (from the config key ``teams``, a list
with one team number per seat); without it every seat is its own side. Resigning or a forfeit
eliminates that seat: when one side (or none) remains, the match ends and the remaining side
wins (allies together, their eliminated teammates included); otherwise the engine settles the
seat (``engine.eliminate``) and the others play on. An engine nobody wins against the others
(a booster draft) says ``play_on_alone = True``: it goes on while one seat remains, and ends
by its own outcome or when every seat has left.

**Draws.** ``!draw-offer`` opens a vote with the offerer's yes; every other remaining player
answers ``!draw-accept`` (yes) or ``!draw-decline`` (the offer lapses). Once every remaining
player said yes, the match is a draw: all remaining sides at once. Any engine action lets a
pending offer lapse (event ``draw_withdrawn``, so the table says so).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engines.core.contract import (
    Decision,
    Engine,
    Event,
    JsonDict,
    MatchEvent,
    Outcome,
    PlayerId,
    referee_seats,
    seat_count,
)
from engines.core.errors import BadInput, EngineError, IllegalAction

META_PREFIX = "!"
PLAYER_META_VERBS = frozenset({"resign", "draw-offer", "draw-accept", "draw-decline"})
REFEREE_META_VERBS = frozenset({"forfeit"})


@dataclass(frozen=True, slots=True)
class Match:
    engine_name: str
    players: int
    state: Any
    draw_votes: tuple[PlayerId, ...] = ()  # who said yes to the pending draw, offerer first
    ended: Outcome | None = None  # set when a meta action ended the match
    teams: tuple[int, ...] = ()  # one team per seat; () means every seat is its own side
    eliminated: tuple[PlayerId, ...] = ()  # in the order they left

    @property
    def draw_offer_by(self) -> PlayerId | None:
        return self.draw_votes[0] if self.draw_votes else None

    def team_of(self, seat: PlayerId) -> int:
        return self.teams[seat] if self.teams else seat

    @property
    def remaining(self) -> tuple[PlayerId, ...]:
        return tuple(s for s in range(self.players) if s not in self.eliminated)

    def sides(self) -> frozenset[int]:
        """The teams that still have a player in the game."""
        return frozenset(self.team_of(s) for s in self.remaining)


def teams_of(config: Mapping[str, Any], players: int) -> tuple[int, ...]:
    """The teams per seat from a config (``teams``: one int per seat). Raises BadInput."""
    raw = config.get("teams")
    if raw is None:
        return ()
    if (
        not isinstance(raw, list | tuple)
        or len(raw) != players
        or not all(isinstance(team, int) and not isinstance(team, bool) for team in raw)
    ):
        raise BadInput("error.bad_teams", players=players)
    return tuple(raw)


def start(engine: Engine[Any, Any], config: Mapping[str, Any], seed: int, players: int) -> Match:
    """Raises BadInput for a player count the engine does not take or a bad config."""
    if not engine.min_players <= players <= engine.max_players:
        raise BadInput("error.player_count", min=engine.min_players, max=engine.max_players)
    teams = teams_of(config, players)
    return Match(engine.name, players, engine.initial_state(config, seed, players), teams=teams)


def starts_with_fewer(
    engine: Engine[Any, Any], config: Mapping[str, Any], seed: int, players: int
) -> bool:
    """Whether the engine takes ``config`` with fewer than ``players`` seats (at least its
    ``min_players``; the first seats' teams kept): an invitation whose host may start before
    every seat has answered."""
    for seats in range(engine.min_players, players):
        trial = dict(config)
        if isinstance(trial.get("teams"), list):
            trial["teams"] = trial["teams"][:seats]
        try:
            start(engine, trial, seed, seats)
        except EngineError:
            continue
        return True
    return False


def outcome(engine: Engine[Any, Any], match: Match) -> Outcome | None:
    if match.ended is not None:
        return match.ended
    result = engine.outcome(match.state)
    if result is not None and match.eliminated:
        # seats that left the match first, then those the rules knocked out
        knocked_out = tuple(s for s in result.eliminated if s not in match.eliminated)
        result = replace(result, eliminated=match.eliminated + knocked_out)
    return result


def decisions(engine: Engine[Any, Any], match: Match) -> tuple[Decision, ...]:
    """The open decisions of the players still in the match (none once it is over)."""
    if outcome(engine, match) is not None:
        return ()
    return tuple(d for d in engine.decisions(match.state) if d.seat not in match.eliminated)


def to_act(engine: Engine[Any, Any], match: Match) -> frozenset[PlayerId]:
    """The seats with an open decision."""
    return frozenset(d.seat for d in decisions(engine, match))


def decision_open(engine: Engine[Any, Any], match: Match, seat: PlayerId, decision: str) -> bool:
    """Whether decision id ``decision`` is still open for ``seat``."""
    return any(d.seat == seat and d.id == decision for d in decisions(engine, match))


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

    Raises IllegalAction when the match is over, the seat is out or the action is not allowed
    (a referee's meta action from a player included), BadInput when the notation cannot be read.
    """
    if outcome(engine, match) is not None:
        raise IllegalAction("error.game_over")
    if not 0 <= player < match.players:
        raise IllegalAction("error.not_a_player")
    if text.startswith(META_PREFIX):
        words = text[len(META_PREFIX) :].split()
        if words and words[0] in REFEREE_META_VERBS and not referee:
            raise IllegalAction("error.referee_only")
        if player in match.eliminated:
            raise IllegalAction("error.eliminated")
        return _apply_meta(engine, match, words, player)
    if player in match.eliminated:
        raise IllegalAction("error.eliminated")
    return _step(engine, match, engine.parse_action(text), player)


def apply_action(
    engine: Engine[Any, Any], match: Match, action: Any, player: PlayerId
) -> tuple[Match, list[Event]]:
    """Apply one engine action (already read, e.g. clicked together) by ``player``; its log
    text is ``engine.action_text(action)``. Raises as :func:`apply`."""
    if outcome(engine, match) is not None:
        raise IllegalAction("error.game_over")
    if not 0 <= player < match.players:
        raise IllegalAction("error.not_a_player")
    if player in match.eliminated:
        raise IllegalAction("error.eliminated")
    return _step(engine, match, action, player)


def _step(
    engine: Engine[Any, Any], match: Match, action: Any, player: PlayerId
) -> tuple[Match, list[Event]]:
    state, events = engine.apply(match.state, action, player)
    seats = seat_count(engine, state, match.players)  # an open-seat engine may have grown
    if match.draw_votes:  # playing on ends a pending offer: said, not dropped silently
        offerer = match.draw_votes[0]
        events = [Event("draw_withdrawn", {"player": offerer}), *events]
    return replace(match, state=state, players=seats, draw_votes=()), events


def _apply_meta(
    engine: Engine[Any, Any], match: Match, words: list[str], player: PlayerId
) -> tuple[Match, list[Event]]:
    verb = words[0] if words else ""
    if verb == "resign" and len(words) == 1:
        return _eliminate(engine, match, player, "resign")
    if verb == "draw-offer" and len(words) == 1:
        if match.draw_votes:
            raise IllegalAction("error.draw_pending")
        return replace(match, draw_votes=(player,)), [
            Event(MatchEvent.DRAW_OFFERED, {"player": player})
        ]
    if verb in ("draw-accept", "draw-decline") and len(words) == 1:
        if not match.draw_votes or player in match.draw_votes:
            raise IllegalAction("error.no_draw_offer")
        if verb == "draw-decline":
            return replace(match, draw_votes=()), [
                Event(MatchEvent.DRAW_DECLINED, {"player": player})
            ]
        votes = (*match.draw_votes, player)
        if set(match.remaining) <= set(votes):
            remaining = frozenset(match.remaining)
            ended = Outcome(
                frozenset(),
                "draw_agreed",
                ranking=(remaining, *_out_ranks(match, remaining)),
                eliminated=match.eliminated,
            )
            return replace(match, ended=ended, draw_votes=()), [Event(MatchEvent.DRAW_AGREED, {})]
        return replace(match, draw_votes=votes), [
            Event(MatchEvent.DRAW_ACCEPTED, {"player": player})
        ]
    if verb == "forfeit" and len(words) == 2 and words[1].isdecimal():
        loser = int(words[1])
        if loser != player:  # the seat that kept the game waiting is the one that forfeits
            raise BadInput("error.bad_notation", text=" ".join(words))
        return _eliminate(engine, match, loser, "forfeit")
    raise BadInput("error.bad_notation", text=" ".join(words))


def _eliminate(
    engine: Engine[Any, Any], match: Match, seat: PlayerId, reason: str
) -> tuple[Match, list[Event]]:
    """``seat`` leaves: the match ends when one side (or none) remains (seats that referee
    are no side), else the engine settles the seat and the others play on."""
    events = [
        Event(MatchEvent.RESIGNED if reason == "resign" else MatchEvent.FORFEITED, {"player": seat})
    ]
    out = replace(match, eliminated=(*match.eliminated, seat), draw_votes=())
    referees = referee_seats(engine, match.state)
    sides = sides_left(engine, out)
    if not sides or (len(sides) == 1 and not getattr(engine, "play_on_alone", False)):
        playing = (s for s in range(match.players) if s not in referees)
        winners = frozenset(s for s in playing if match.team_of(s) in sides)
        ranking = (winners,) if winners else ()
        ended = Outcome(
            winners,
            reason,
            ranking=ranking + _out_ranks(out, winners),
            eliminated=out.eliminated,
        )
        return replace(out, ended=ended), events
    state, more = engine.eliminate(match.state, seat)
    return replace(out, state=state), events + more


def sides_left(engine: Engine[Any, Any], match: Match) -> frozenset[int]:
    """The teams that still have a playing seat in the game (a seat that referees is none)."""
    referees = referee_seats(engine, match.state)
    return frozenset(match.team_of(s) for s in match.remaining if s not in referees)


def _out_ranks(match: Match, placed: frozenset[PlayerId]) -> tuple[frozenset[PlayerId], ...]:
    """The eliminated seats not yet placed, the last one out best."""
    return tuple(frozenset({s}) for s in reversed(match.eliminated) if s not in placed)


def outcome_to_json(result: Outcome) -> JsonDict:
    return {
        "winners": sorted(result.winners),
        "reason": result.reason,
        "ranking": [sorted(place) for place in result.ranking],
        "eliminated": list(result.eliminated),
    }


def outcome_from_json(data: JsonDict) -> Outcome:
    return Outcome(
        frozenset(data["winners"]),
        str(data["reason"]),
        ranking=tuple(frozenset(place) for place in data.get("ranking", [])),
        eliminated=tuple(data.get("eliminated", [])),
    )


def to_json(engine: Engine[Any, Any], match: Match) -> JsonDict:
    return {
        "engine": match.engine_name,
        "players": match.players,
        "state": engine.state_to_json(match.state),
        "draw_votes": list(match.draw_votes),
        "ended": None if match.ended is None else outcome_to_json(match.ended),
        "teams": list(match.teams),
        "eliminated": list(match.eliminated),
    }


def from_json(engine: Engine[Any, Any], data: JsonDict) -> Match:
    """Reads this format and the one before teams and draw votes (``draw_offer_by``)."""
    ended_data = data.get("ended")
    votes = data.get("draw_votes")
    if votes is None:  # written before draw votes: at most the offerer
        offer = data.get("draw_offer_by")
        votes = [] if offer is None else [offer]
    return Match(
        engine_name=str(data["engine"]),
        players=int(data["players"]),
        state=engine.state_from_json(data["state"]),
        draw_votes=tuple(int(v) for v in votes),
        ended=None if ended_data is None else outcome_from_json(ended_data),
        teams=tuple(int(t) for t in data.get("teams", [])),
        eliminated=tuple(int(s) for s in data.get("eliminated", [])),
    )
