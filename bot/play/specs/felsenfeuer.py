"""Felsenfeuer at the shared game table (``bot.play``): its ``GameSpec`` — the board drawn by
``bot.render.felsenfeuer`` in the words of ``bot.render.felsenfeuer_text``, the prompts and
click labels (glyphs in their colours, the spells a number of pips may cast), the Auswahl's
short list of splits, the typed words in German and English, the duel's setup options and
their text. The spellbook's words are ``bot.narration.felsenfeuer``'s. Discord-free.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from bot.i18n import catalog, t
from bot.narration.felsenfeuer import (
    COLOUR_ICONS,
    colour_of,
    ordered_spells,
    phrase,
    spell_text,
)
from bot.play.spec import BoardContext, GameSpec, Option, Steps, fold_umlauts
from bot.render import felsenfeuer_text as words
from bot.render.felsenfeuer import render_board
from bot.workers import render_async
from engines.core import BadInput, Outcome
from engines.core import match as m
from engines.felsenfeuer import ENGINE
from engines.felsenfeuer.engine import HAND_SIZE, auswahl_cap
from engines.felsenfeuer.model import COLOURS
from engines.felsenfeuer.spells import (
    book_for,
)

LEVELS = ENGINE.bot_levels
DEFAULT_LEVEL = "normal"
MODES = ("normal", "pentagramm", "gilde")
RULES = ("adept", "magister")
AUSWAHL = ("sealed", "draft")  # the secret Auswahl or the Würfeldraft (Teil 3)
ROLLS = ("glyphen", "runen")  # Teil 3 scenario: three hand runes rolled, as glyphs or not


# the seats' colours as the board image draws them (bot.render.felsenfeuer.SEAT_COLOURS:
# orange, sky blue, green, yellow, purple-pink, vermilion)
SEAT_ICONS = ("🟧", "🔵", "🟩", "🟨", "🟪", "🟥")
_EVENTS = frozenset(words.EVENT_TYPES)


def _spells(record: Any) -> str:
    return str(record.config.get("spells", "") or "")


class FelsenfeuerSpec(GameSpec):
    kind = "felsenfeuer"
    prefix = "felsen"
    texts = "felsenfeuercog"
    private_view = True  # the sealed Auswahl is the seat's own until all have chosen
    bot_levels = LEVELS
    default_level = DEFAULT_LEVEL

    def seat_label(self, seat: int) -> str:
        return f"{SEAT_ICONS[seat % len(SEAT_ICONS)]} {seat + 1}"

    def players_line(self, ctx: BoardContext) -> str:
        """Every seat; in a duel of teams also who plays with whom."""
        line = super().players_line(ctx)
        teams = ENGINE.view_for(ctx.match.state, None).get("teams") or []
        if len(set(teams)) < 2 or len(set(teams)) == len(teams):
            return line
        sides = [
            phrase("team_of", ctx.lang, team=team + 1,
               names=", ".join(ctx.names[s] for s, t_ in enumerate(teams) if t_ == team))
            for team in sorted(set(teams))
        ]  # fmt: skip
        return f"{line}\n{phrase('teams_line', ctx.lang, teams=' · '.join(sides))}"

    def seat_view(self, ctx: BoardContext) -> Mapping[str, Any]:
        """The deciding seat's view in its private prompt, else a spectator's."""
        return ENGINE.view_for(ctx.match.state, ctx.seat)

    async def render(self, view: Mapping[str, Any], ctx: BoardContext) -> bytes | None:
        return await render_async(render_board, view, ctx.lang, ctx.names)

    def narrate(self, steps: Steps, ctx: BoardContext) -> list[str]:
        view = ENGINE.view_for(ctx.match.state, None)
        spells = _spells(ctx.record)
        lines = []
        keep = words.told([(event.type, event.data) for _actor, event in steps.items])
        for (actor, event), tell in zip(steps.items, keep, strict=True):
            if not tell:  # a choice the next sentences say again
                continue
            if event.type in _EVENTS:
                data = dict(event.data)
                lines.append(words.narrate(event.type, data, view, ctx.lang, ctx.names, spells))
            else:  # resign, draw votes, forfeits: the shared words
                lines += super().narrate(Steps([(actor, event)]), ctx)
        return lines

    def outcome_text(self, outcome: Outcome, ctx: BoardContext) -> str:
        key = f"felsenfeuer.reason.{outcome.reason}"
        if key not in catalog():
            return super().outcome_text(outcome, ctx)
        winners = [ctx.names[s] for s in sorted(outcome.winners)]
        who = ", ".join(winners)
        reason = t(key, ctx.lang, players=who, winners=who).rstrip(".")  # in parentheses:
        reason = reason[:1].lower() + reason[1:]  # "(ein Zauber hat …)", not "(Ein Zauber …)"
        if outcome.is_draw:
            return "🤝 " + self.text("status.draw", ctx.lang, reason=reason)
        return self.won_text(winners, reason, ctx.lang)

    def private_text(self, view: Mapping[str, Any], lang: str) -> str:
        own = str(view.get("own_auswahl") or "")
        if own.startswith("auswahl:"):
            return phrase("own_auswahl", lang, counts=words._counts(own.split(":", 1)[1], lang))
        return ""

    # ---------------------------------------------------------------- clicking

    def prompt(self, ctx: BoardContext) -> str:
        view = self.seat_view(ctx)
        question = words.prompt(view, ctx.lang, ctx.names) or self.text("prompt.choose", ctx.lang)
        if view.get("stack") and view.get("decision"):  # a choice inside a spell: which
            context = words.spell_context(view, ctx.lang)
            question = f"{context} — {question}" if context else question
        path, tree = ctx.path, ctx.tree
        if not path or tree is None:
            return question
        step = _step_of(path, tree.options(path))
        if step is None:
            return question
        chosen = " · ".join(_token_label(tok, path[:i], view, ctx) for i, tok in enumerate(path))
        return f"{question} — {chosen} → {phrase(f'step.{step}', ctx.lang)}"

    def options(self, ctx: BoardContext, path: tuple[str, ...], tokens: list[str]) -> list[Option]:
        if path == ("auswahl",):  # any other split: the one custom select beside the list
            return []  # (``FelsenfeuerTable``), not colour by colour
        view = self.seat_view(ctx)
        tree = ctx.tree
        book = book_for(_spells(ctx.record))
        out = []
        for token in tokens:
            label = _token_label(token, path, view, ctx)
            named = False
            if not path and tree is not None:  # a verb with a single action: say it whole
                whole = [a for p, a in tree.paths.items() if p[:1] == (token,)]
                if len(whole) == 1:
                    text = ENGINE.action_text(whole[0])
                    label = words.action_label(text, view, ctx.lang, ctx.names, _spells(ctx.record))
                    named = True
            style = "primary" if not path and token != "ende" else "secondary"
            pips = len(path) == 2 and path[0] == "lege" and token.isdigit()
            spell = book.get(token) if path else None
            if pips:
                about: str | None = _spells_for_pips(path[1], int(token), view, ctx)
            else:  # a spell to cast: what it does
                about = _about(spell_text(spell, ctx.lang)[2]) if spell else None
            out.append(
                Option(
                    token,
                    label,
                    description=about,
                    emoji=_emoji(token),
                    style=style,
                    select=True if about else None,  # a select shows the words
                    whole=named,
                )
            )  # a select shows the spells
        return out

    def placeholder(self, path: tuple[str, ...], lang: str) -> str:
        return self.text("select.option", lang)

    def typed_words(self) -> Mapping[str, str]:
        """The colours as the game names them (German with and without umlauts, English)
        and the verbs in English: ``place green 2 m0`` is ``lege gruen 2 m0``."""
        return typed_words()

    def shortcuts(
        self, ctx: BoardContext, path: tuple[str, ...], steps: Sequence[tuple[str, ...]]
    ) -> list[int]:
        """A turn's every step whole (a glyph as one pick of rune and pips, passing one
        button); the sealed Auswahl as a short list of common splits (any other split is
        the one custom select the table adds, ``custom_auswahl``)."""
        if path == ("auswahl",):
            return common_splits(steps)
        if not path and len(steps) <= WHOLE_STEPS and all(s[0] != "auswahl" for s in steps):
            return list(range(len(steps)))
        return []

    def step_option(
        self, ctx: BoardContext, path: tuple[str, ...], step: tuple[str, ...]
    ) -> Option:
        """A whole step in the words of the game (its spells for a glyph's pips)."""
        tree = ctx.tree
        action = tree.action(step) if tree is not None else None
        if action is None:
            return super().step_option(ctx, path, step)
        view = self.seat_view(ctx)
        text = ENGINE.action_text(action)
        label = words.action_label(text, view, ctx.lang, ctx.names, _spells(ctx.record))
        if step[0] == "lege" and len(step) > 2 and step[2].isdigit():
            about = _spells_for_pips(step[1], int(step[2]), view, ctx)
            return Option(step[-1], label, about, _emoji(step[1]), select=True)
        if step[0] == "auswahl":
            return Option(step[-1], label, select=True)
        return Option(step[-1], label, emoji=_emoji(step[0]), select=False)

    def invitation_text(self, record: Any, names: list[str], lang: str) -> str | None:
        return None

    def list_line(self, record: Any, match: m.Match | None, names: list[str], lang: str) -> str:
        line = super().list_line(record, match, names, lang)
        return f"{line} · {setup_text(record.config, lang)}"


SPEC = FelsenfeuerSpec()


ENGLISH_VERBS = {
    "place": "lege", "lay": "lege", "glyph": "lege", "end": "ende", "pass": "ende",
    "essence": "essenz", "select": "auswahl", "selection": "auswahl", "choose": "wahl",
    "pick": "wahl", "take": "draft", "float": "schwebe", "blood": "blut",
    "gray": "grau", "purple": "violet",
}  # fmt: skip


@lru_cache(maxsize=1)
def typed_words() -> dict[str, str]:
    words = {}
    for colour in COLOURS:
        for lang in ("de", "en"):
            name = t(f"felsenfeuer.colour.{colour}", lang).lower()
            words[name] = words[fold_umlauts(name)] = colour
    for word, token in ENGLISH_VERBS.items():
        words[word] = words.get(token, token)
    return words


WHOLE_STEPS = 75  # a turn with at most this many steps offers each whole (three menus)


COMMON_SPLITS = 12  # the Auswahl's short list: the most even splits, then the most lopsided


def common_splits(steps: Sequence[tuple[str, ...]]) -> list[int]:
    """The Auswahl splits worth one click (indexes into ``steps``, each ``("auswahl",
    "gruen2", "grau2", …)``): the most even ones and the most lopsided ones, few enough for
    one menu; any other is clicked colour by colour."""

    def counts(step: tuple[str, ...]) -> list[int]:
        return [int("".join(c for c in token if c.isdigit()) or 0) for token in step[1:]]

    def spread(index: int) -> tuple[float, int]:
        numbers = counts(steps[index])
        mean = sum(numbers) / max(len(numbers), 1)
        return sum((n - mean) ** 2 for n in numbers), index

    ordered = sorted(range(len(steps)), key=spread)
    if len(ordered) <= 2 * COMMON_SPLITS:
        return ordered
    half = COMMON_SPLITS // 2
    return [*ordered[: COMMON_SPLITS - half], *ordered[-half:]]


# ------------------------------------------------------------------- the custom Auswahl


SLOT_MARKS = "①②③④⑤⑥⑦⑧"
MENU_SIZE = 25  # options of one select
BUNDLE = 4  # without a cap per colour: four single slots and one of four dice per colour


@dataclass(frozen=True, slots=True)
class Slot:
    """One option of the custom Auswahl: ``count`` dice of ``colour`` (a die slot, or the
    bundle of four where a colour may take more than fits one menu)."""

    value: str
    colour: str
    count: int


@dataclass(frozen=True, slots=True)
class CustomAuswahl:
    """The one select of any split: a multi-select of die slots, the count of a colour
    being how many of its dice were ticked. ``exact``: each slot one die, so exactly
    ``size`` ticks (Discord counts them); otherwise (no cap: up to 8 of a colour, more than
    one menu holds) four single slots and a bundle of four per colour, the total checked
    when it comes in."""

    slots: tuple[Slot, ...]
    size: int
    cap: int
    exact: bool

    @property
    def min_values(self) -> int:
        return self.size if self.exact else -(-self.size // BUNDLE)

    @property
    def max_values(self) -> int:
        return self.size if self.exact else min(self.size, len(self.slots))


def custom_auswahl(state: Any) -> CustomAuswahl | None:
    """The custom Auswahl's select for a duel (None where no split can be made)."""
    cap = auswahl_cap(state)
    if cap * len(COLOURS) < HAND_SIZE:
        return None
    if cap * len(COLOURS) <= MENU_SIZE:
        slots = [Slot(f"{c}.{k}", c, 1) for c in COLOURS for k in range(1, cap + 1)]
        return CustomAuswahl(tuple(slots), HAND_SIZE, cap, True)
    slots = [
        slot
        for c in COLOURS
        for slot in (
            *(Slot(f"{c}.{k}", c, 1) for k in range(1, BUNDLE + 1)),
            Slot(f"{c}.x{BUNDLE}", c, BUNDLE),
        )
    ]
    return CustomAuswahl(tuple(slots), HAND_SIZE, cap, False)


def slot_options(menu: CustomAuswahl, lang: str) -> list[Option]:
    """The select's options: "🟥 Rot ②", and where bundles are, "🟥 Rot ×4"."""
    out = []
    for slot in menu.slots:
        name = words.colour_name(slot.colour, lang).capitalize()
        if slot.count == 1:
            number = int(slot.value.rsplit(".", 1)[1])
            out.append(Option(slot.value, f"{name} {SLOT_MARKS[number - 1]}",
                              emoji=COLOUR_ICONS[slot.colour]))  # fmt: skip
        else:
            out.append(Option(slot.value, f"{name} ×{slot.count}",
                              phrase("auswahl.bundle", lang, count=slot.count),
                              emoji=COLOUR_ICONS[slot.colour]))  # fmt: skip
    return out


def auswahl_of_slots(menu: CustomAuswahl, values: Sequence[str]) -> str:
    """The Auswahl (``auswahl 2-2-2-1-1``) the ticked slots name. Raises BadInput saying why
    when they name none: an unknown or repeated slot, not exactly the Auswahl's dice, or more
    of one colour than the cap."""
    by_value = {slot.value: slot for slot in menu.slots}
    if len(set(values)) != len(values) or any(v not in by_value for v in values):
        raise BadInput("play.error.bad_choice")
    counts = dict.fromkeys(COLOURS, 0)
    for value in values:
        counts[by_value[value].colour] += by_value[value].count
    total = sum(counts.values())
    if total != menu.size:
        raise BadInput("felsenfeuercog.error.auswahl_size", size=menu.size, count=total)
    over = [c for c in COLOURS if counts[c] > menu.cap]
    if over:
        raise BadInput("felsenfeuercog.error.auswahl_cap", cap=menu.cap, count=counts[over[0]])
    return "auswahl " + "-".join(str(counts[c]) for c in COLOURS)


def _about(text: str, limit: int = 100) -> str:
    """``text`` for a select option's description (at most ``limit`` characters)."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _spells_for_pips(colour: str, pips: int, view: Mapping[str, Any], ctx: BoardContext) -> str:
    """While a glyph is laid (``lege <colour>`` → pips): the spells that glyph could cast
    when it triggers (under adept rules only the star spells), so the pips are chosen
    knowingly."""
    adept = view.get("rules", "adept") == "adept"
    found = [s.name for s in ordered_spells(_spells(ctx.record)) if s.colour == colour
             and s.pips == pips and (s.star or not adept)]  # fmt: skip
    return _about(", ".join(found)) if found else phrase("pips.no_spell", ctx.lang)


def _emoji(token: str) -> str | None:
    colour = colour_of(token)
    return COLOUR_ICONS.get(colour) if colour else None


def _token_label(
    token: str, path: Sequence[str], view: Mapping[str, Any], ctx: BoardContext
) -> str:
    lang = ctx.lang
    verb = path[0] if path else None
    if verb is None:
        return (
            phrase(f"verb.{token}", lang) if f"felsenfeuercog.verb.{token}" in catalog() else token
        )
    if verb == "auswahl":
        colour = colour_of(token)
        if colour:
            name = words.colour_name(colour, lang)
            return phrase("count", lang, count=int(token[len(colour) :]), colour=name)
    if token in COLOURS and verb == "draft":  # how many of that colour the middle still has
        name = words.colour_name(token, lang).capitalize()
        return phrase("draft_left", lang, colour=name, count=words.middle(view)[token])
    if token in COLOURS:
        return words.colour_name(token, lang).capitalize()
    if token.startswith("m") and token[1:].isdigit():
        return phrase("matrix", lang, matrix=int(token[1:]))
    return words.option_label(token, view, lang, ctx.names, _spells(ctx.record))


def _step_of(path: Sequence[str], options: Sequence[str]) -> str | None:
    """What the next click chooses: a colour, pips, a matrix, a hand, a count of one colour."""
    if not options:
        return None
    first = options[0]
    if path[0] == "auswahl":
        if len(path) == 1:
            return "auswahl"  # a common split, or the custom select
        colour = colour_of(first)
        return f"count_{colour}" if colour else None
    if path[0] == "blut" and len(path) == 1:
        return "blood"
    if first in COLOURS:
        return "colour"
    if first.startswith("m") and first[1:].isdigit():
        return "matrix"
    if first.isdigit():
        return "pips"
    if first in ("h0", "h1"):
        return "hand"
    return None


def duel_options(auswahl: str | None, start: int | None, weltentor: bool | None,
                 roll: str | None, quake: bool | None) -> dict[str, Any]:  # fmt: skip
    """The engine config of the start command's duel options (only those chosen): the
    Würfeldraft, the start player (seat 1..6), Weltentor's floating runes at the start, the
    scenario of random pips and the house event Erdbeben."""
    config: dict[str, Any] = {}
    if auswahl:
        config["auswahl"] = auswahl
    if start is not None:
        config["start"] = start - 1
    if weltentor:
        config["weltentor"] = True
    if roll:
        config["wuerfeln"] = roll
    if quake:
        config["erdbeben"] = True
    return config


def setup_text(config: Mapping[str, Any], lang: str) -> str:
    """Mode, rules, teams and the duel options of a duel in words."""
    mode = config.get("mode") or "normal"
    parts = [
        phrase(f"choice.mode.{mode}", lang),
        phrase(f"choice.rules.{config.get('rules', 'adept')}", lang),
    ]
    teams = config.get("teams")
    if teams and mode != "gilde":
        parts.append(phrase("teams", lang, teams=",".join(str(int(x) + 1) for x in teams)))
    if config.get("auswahl") == "draft":
        parts.append(phrase("choice.auswahl.draft", lang))
    if isinstance(config.get("start"), int):
        parts.append(phrase("setup.start", lang, seat=int(config["start"]) + 1))
    if config.get("weltentor"):
        parts.append(phrase("setup.weltentor", lang))
    if config.get("wuerfeln") in ROLLS:
        parts.append(phrase(f"choice.roll.{config['wuerfeln']}", lang))
    if config.get("erdbeben"):
        parts.append(phrase("setup.quake", lang))
    return " · ".join(parts)
