"""The seats' order before the duel and the Auswahl: the dice of an Auswahl and their cap per
colour, whose pick it is in the Würfeldraft and the choice of essences, whose roll it is in
the Teil 3 scenario, the Vorsteher of a Gilden-Duell."""

from __future__ import annotations

from engines.felsenfeuer.model import COLOURS, State

HAND_SIZE = 8  # dice in an Auswahl
VORSTEHER = {0: 1, 1: 4}  # Gilden-Duell: the Vorsteher of each team (seats 0-2 and 3-5)
ROLLED = 3  # hand runes each seat rolls in the Teil 3 scenario


def auswahl_cap(state: State) -> int:
    """The most dice of one colour an Auswahl may take: all of them, or with the setting
    ``cap`` a seat's share of the colour's supply."""
    s = state.settings
    return min(HAND_SIZE, s.supply[0] // s.players) if s.cap else HAND_SIZE


def auswahl_codes(state: State) -> list[str]:
    """Every Auswahl written ``2-2-4-0-0`` (``auswahl_counts``)."""
    return ["-".join(str(n) for n in counts) for counts in auswahl_counts(state)]


def auswahl_counts(state: State) -> list[tuple[int, ...]]:
    """Every Auswahl (dice per colour, 8 in all). "Keine Obergrenze" per colour (Teil 2); with
    the setting ``cap`` (a group with a physical supply) within a seat's share of it."""
    cap = auswahl_cap(state)
    codes: list[tuple[int, ...]] = []

    def walk(prefix: list[int], left: int) -> None:
        if len(prefix) == len(COLOURS) - 1:
            if left <= cap:
                codes.append((*prefix, left))
            return
        for count in range(min(cap, left), -1, -1):
            walk([*prefix, count], left - count)

    walk([], HAND_SIZE)
    return codes


def essence_order(state: State) -> list[int]:
    n = state.settings.players
    return [(state.settings.start + i) % n for i in range(n)]


def current_setup_seat(state: State) -> int:
    """Whose pick it is: in the order from the start player, the first seat still in the duel
    with the fewest dice drafted (draft) or essences chosen (essence)."""
    zone = "essence" if state.phase == "essence" else None
    counts = {s: 0 for s in essence_order(state) if s not in state.out}
    for d in state.dice:
        if d.owner in counts and (zone is None or d.zone == zone):
            counts[d.owner] += 1
    low = min(counts.values())
    return next(s for s, c in counts.items() if c == low)


def roll_seat(state: State) -> int:
    """Whose roll it is (scenario ``wuerfeln``): in the order from the start player, the first
    seat still in the duel with the fewest runes rolled that has yet to roll; -1 when all
    rolled three (or have no hand rune left)."""
    rolled = {s: 0 for s in essence_order(state) if s not in state.out}
    hand = dict.fromkeys(rolled, 0)
    for d in state.dice:
        if d.owner in rolled:
            rolled[d.owner] += d.zone == "matrix"
            hand[d.owner] += d.zone == "hand"
    open_ = {s: n for s, n in rolled.items() if n < ROLLED and hand[s]}
    if not open_:
        return -1
    low = min(open_.values())
    return next(s for s, n in open_.items() if n == low)
