"""Felsenfeuer's spec for the shared game table (``bot.play``): the board image
(``bot.render.felsenfeuer``), the narration, prompts and option labels
(``bot.render.felsenfeuer_text``), the words of each click step (glyph colour → pips →
matrix; the sealed Auswahl colour by colour), the reader's secret Auswahl, and the spellbook
texts of ``/felsenfeuer zauber`` and ``/felsenfeuer buch``.
Discord-free: plain data and texts in the reader's language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import catalog, t
from bot.play.spec import BoardContext, GameSpec, Option, Steps
from bot.render import felsenfeuer_text as words
from bot.render import render_async
from bot.render.felsenfeuer import render_board
from engines.core import Outcome
from engines.core import match as m
from engines.felsenfeuer import ENGINE
from engines.felsenfeuer.model import COLOURS
from engines.felsenfeuer.spells import Spell, spellbook

LEVELS = ENGINE.bot_levels
DEFAULT_LEVEL = "normal"
MODES = ("normal", "pentagramm", "gilde")
RULES = ("adept", "magister")
COLOUR_ICONS = {"gruen": "🟩", "grau": "⬜", "rot": "🟥", "schwarz": "⬛", "violett": "🟪"}
_EVENTS = frozenset(words.EVENT_TYPES)


def _k(key: str, lang: str, **params: Any) -> str:
    return t(f"felsenfeuercog.{key}", lang, **params)


def _spells(record: Any) -> str:
    return str(record.config.get("spells", "") or "")


class FelsenfeuerSpec(GameSpec):
    kind = "felsenfeuer"
    prefix = "felsen"
    texts = "felsenfeuercog"
    private_view = True  # the sealed Auswahl is the seat's own until all have chosen
    bot_levels = LEVELS
    default_level = DEFAULT_LEVEL

    def seat_view(self, ctx: BoardContext) -> Mapping[str, Any]:
        """The deciding seat's view in its private prompt, else a spectator's."""
        return ENGINE.view_for(ctx.match.state, ctx.seat)

    async def render(self, view: Mapping[str, Any], ctx: BoardContext) -> bytes | None:
        return await render_async(render_board, view, ctx.lang, ctx.names)

    def narrate(self, steps: Steps, ctx: BoardContext) -> list[str]:
        view = ENGINE.view_for(ctx.match.state, None)
        spells = _spells(ctx.record)
        lines = []
        for actor, event in steps.items:
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
        who = ", ".join(ctx.names[s] for s in sorted(outcome.winners))
        reason = t(key, ctx.lang, players=who, winners=who)
        if outcome.is_draw:
            return "🤝 " + self.text("status.draw", ctx.lang, reason=reason)
        return "🏆 " + self.text("status.won", ctx.lang, names=who, reason=reason)

    def private_text(self, view: Mapping[str, Any], lang: str) -> str:
        own = str(view.get("own_auswahl") or "")
        if own.startswith("auswahl:"):
            return _k("own_auswahl", lang, counts=words._counts(own.split(":", 1)[1], lang))
        return ""

    # ---------------------------------------------------------------- clicking

    def prompt(self, ctx: BoardContext) -> str:
        view = self.seat_view(ctx)
        question = words.prompt(view, ctx.lang, ctx.names) or self.text("prompt.choose", ctx.lang)
        path, tree = ctx.path, ctx.tree
        if not path or tree is None:
            return question
        step = _step_of(path, tree.options(path))
        if step is None:
            return question
        chosen = " · ".join(_token_label(tok, path[:i], view, ctx) for i, tok in enumerate(path))
        return f"{question} — {chosen} → {_k(f'step.{step}', ctx.lang)}"

    def options(self, ctx: BoardContext, path: tuple[str, ...], tokens: list[str]) -> list[Option]:
        view = self.seat_view(ctx)
        tree = ctx.tree
        out = []
        for token in tokens:
            label = _token_label(token, path, view, ctx)
            if not path and tree is not None:  # a verb with a single action: say it whole
                whole = [a for p, a in tree.paths.items() if p[:1] == (token,)]
                if len(whole) == 1:
                    text = ENGINE.action_text(whole[0])
                    label = words.action_label(text, view, ctx.lang, ctx.names, _spells(ctx.record))
            style = "primary" if not path and token != "ende" else "secondary"
            out.append(Option(token, label, emoji=_emoji(token), style=style))
        return out

    def placeholder(self, path: tuple[str, ...], lang: str) -> str:
        return self.text("select.option", lang)

    def invitation_text(self, record: Any, names: list[str], lang: str) -> str | None:
        return None

    def list_line(self, record: Any, match: m.Match | None, names: list[str], lang: str) -> str:
        line = super().list_line(record, match, names, lang)
        return f"{line} · {setup_text(record.config, lang)}"


SPEC = FelsenfeuerSpec()


def _emoji(token: str) -> str | None:
    colour = _colour_of(token)
    return COLOUR_ICONS.get(colour) if colour else None


def _colour_of(token: str) -> str | None:
    """The colour a token names (``rot``; an Auswahl count ``rot3``)."""
    for colour in COLOURS:
        if token == colour or (token.startswith(colour) and token[len(colour) :].isdigit()):
            return colour
    return None


def _token_label(
    token: str, path: Sequence[str], view: Mapping[str, Any], ctx: BoardContext
) -> str:
    lang = ctx.lang
    verb = path[0] if path else None
    if verb is None:
        return _k(f"verb.{token}", lang) if f"felsenfeuercog.verb.{token}" in catalog() else token
    if verb == "auswahl":
        colour = _colour_of(token)
        if colour:
            name = words.colour_name(colour, lang)
            return _k("count", lang, count=int(token[len(colour) :]), colour=name)
    if token in COLOURS:
        return words.colour_name(token, lang).capitalize()
    if token.startswith("m") and token[1:].isdigit():
        return _k("matrix", lang, matrix=int(token[1:]))
    return words.option_label(token, view, lang, ctx.names, _spells(ctx.record))


def _step_of(path: Sequence[str], options: Sequence[str]) -> str | None:
    """What the next click chooses: a colour, pips, a matrix, a hand, a count of one colour."""
    if not options:
        return None
    first = options[0]
    if path[0] == "auswahl":
        colour = _colour_of(first)
        return f"count_{colour}" if colour else None
    if first in COLOURS:
        return "colour"
    if first.startswith("m") and first[1:].isdigit():
        return "matrix"
    if first.isdigit():
        return "pips"
    if first in ("h0", "h1"):
        return "hand"
    return None


def setup_text(config: Mapping[str, Any], lang: str) -> str:
    """Mode, rules and teams of a duel in words."""
    mode = config.get("mode") or "normal"
    parts = [
        _k(f"choice.mode.{mode}", lang),
        _k(f"choice.rules.{config.get('rules', 'adept')}", lang),
    ]
    teams = config.get("teams")
    if teams and mode != "gilde":
        parts.append(_k("teams", lang, teams=",".join(str(x) for x in teams)))
    return " · ".join(parts)


# ------------------------------------------------------------------------ the spellbook


def spell_text(spell: Spell, lang: str) -> tuple[str, str, str]:
    """Title, the line of colour, pips and kind, and the text of a spell in ``lang``."""
    kinds = [
        _k(f"spell.{flag}", lang) for flag in ("star", "blood", "ritual") if getattr(spell, flag)
    ]
    if spell.keyword:
        kinds.append(spell.keyword)
    colour = words.colour_name(spell.colour, lang)
    head = _k("spell.head", lang, colour=colour, pips=spell.pips)
    line = " · ".join([head, *kinds])
    text = spell.text_en if lang == "en" else spell.text_de
    return f"{COLOUR_ICONS.get(spell.colour, '')} {spell.name}".strip(), line, text


def find_spell(name: str) -> Spell | None:
    """A spell by its slug or name (case and ß/ss do not matter)."""
    book = spellbook()
    wanted = name.strip().casefold().replace("ß", "ss")
    if wanted in book:
        return book[wanted]
    for spell in book.values():
        if spell.name.casefold().replace("ß", "ss") == wanted:
            return spell
    return None


def spell_choices(current: str, limit: int = 25) -> list[tuple[str, str]]:
    """(label, slug) of the spells whose name holds ``current``, by colour and pips."""
    wanted = current.strip().casefold()
    found = [s for s in _ordered() if wanted in s.name.casefold() or wanted in s.slug]
    return [(f"{s.name} ({s.colour} {s.pips})", s.slug) for s in found[:limit]]


def _ordered() -> list[Spell]:
    return sorted(
        spellbook().values(),
        key=lambda s: (COLOURS.index(s.colour) if s.colour in COLOURS else 9, s.pips, s.name),
    )


def book_sections(lang: str) -> list[tuple[str, list[str]]]:
    """The spellbook by colour: (heading, one line per pips value)."""
    sections = []
    for colour in COLOURS:
        spells = [s for s in _ordered() if s.colour == colour]
        if not spells:
            continue
        by_pips: dict[int, list[str]] = {}
        for spell in spells:
            mark = "★" if spell.star else ""
            by_pips.setdefault(spell.pips, []).append(f"{spell.name}{mark}")
        lines = [f"**{pips}** · {', '.join(names)}" for pips, names in sorted(by_pips.items())]
        heading = f"{COLOUR_ICONS[colour]} {words.colour_name(colour, lang).capitalize()}"
        sections.append((heading, lines))
    return sections
