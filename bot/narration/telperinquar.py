"""Telperinquár's spec for the shared game table (``bot.play``) and the words of its decks.

The table gets: the field as an image (``bot.render.telperinquar``) and as short lines, the
narration of every engine event, the prompts and click labels (hand cards numbered as on the
hand image, targets by name and owner), the seat's hand privately (an image and a numbered
list), and each person's own decks as their choice when they accept an invitation.
The deck texts (``/telperinquar deck …``): names in the reader's language, validation
reasons, the embed's lines. Discord-free: plain data and texts in the reader's language.
"""

from __future__ import annotations

import asyncio
import difflib
import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from bot.i18n import catalog, t
from bot.play.spec import BoardContext, GameSpec, Option, Steps
from bot.render import render_async
from bot.render.telperinquar import deck_png, field_png, hand_png, named_card_png
from bot.store import DeckRecord
from engines.core import BadInput, Outcome
from engines.effects import LoadError
from engines.telperinquar import ENGINE
from engines.telperinquar.cards import (
    CLASSES,
    DRAFT,
    Card,
    Catalogue,
    catalogue,
    check_extra,
    hero_of,
    heroes,
    level_card_name,
    load_cards_text,
)
from engines.telperinquar.decks import (
    DeckList,
    Problem,
    export_list,
    parse_list,
    starter,
    unknown_card,
    validate,
)
from engines.telperinquar.draft import sealed_deck
from engines.telperinquar.engine import catalogue_for

LEVELS = ENGINE.bot_levels
DEFAULT_LEVEL = "normal"
MAX_DECK_NAME = 40
MAX_IMPORT_BYTES = 64 * 1024
AUTOCOMPLETE = 25
HAND_CACHE = 64  # hand images kept (the same hand is shown in every prompt of a turn)
CARDS_KIND = "telperinquar.cards"  # a server's own card file (server content)
GOOD, BAD = 0x2E9E5B, 0xC2410C
STARTER = "*"  # a starter deck's value in the deck choice of /telperinquar start
PHASE_VERBS = ("go", "next", "end", "pass")
TYPE_ICONS = {
    "weapon": "⚔️",
    "armour": "🛡️",
    "shield": "🛡️",
    "gear": "🎒",
    "artifact": "💎",
    "wesen": "🐺",
    "talent": "✨",
    "spell": "🔮",
    "trap": "🪤",
    "hero": "👤",
    "level": "📈",
}


def _k(key: str, lang: str, **params: Any) -> str:
    return t(f"tqcog.{key}", lang, **params)


# ---------------------------------------------------------------------- card names


def card_name(name: str, lang: str, cat: Catalogue | None = None) -> str:
    """A card's name (stored German) in the reader's language."""
    if lang == "de":
        return name
    cat = cat or catalogue()
    card = cat.support(name)
    if card is not None:
        return card.name_en
    known = cat.resolve(name)
    if known is None:
        return name
    kind, key, _ = known
    return hero_of(key).name_en if kind == "hero" else level_card_name(key, "en")


def card_kind(name: str, cat: Catalogue | None = None) -> str:
    """``hero``, ``level`` or the support card's type (``?``: unknown)."""
    cat = cat or catalogue()
    card = cat.support(name)
    if card is not None:
        return card.type
    known = cat.resolve(name)
    return known[0] if known else "?"


def class_name(cls: str, lang: str) -> str:
    hero = hero_of(cls)
    return hero.name if lang == "de" else hero.name_en


def card_choices(
    current: str, lang: str, cat: Catalogue | None = None, only: Sequence[str] | None = None
) -> list[tuple[str, str]]:
    """(label in the reader's language, German name) of the cards whose name in either
    language contains what was typed: heroes, level cards, support cards (``only``: just
    these, e.g. a deck's cards); nothing contains it (a typo): the closest names."""
    cat = cat or catalogue()
    typed = current.strip().casefold()
    names = [h.name for h in heroes().values()] + [level_card_name(c) for c in CLASSES]
    names += list(cat.cards)
    if only is not None:
        names = list(only)

    def label(name: str) -> tuple[str, str]:
        icon = TYPE_ICONS.get(card_kind(name, cat), "")
        return (f"{icon} {card_name(name, lang, cat)}".strip(), name)

    out = [
        label(name)
        for name in names
        if typed in name.casefold() or typed in card_name(name, lang, cat).casefold()
    ]
    if not out and typed:
        shown = {card_name(n, lang, cat).casefold(): n for n in names}
        shown |= {n.casefold(): n for n in names}
        close = difflib.get_close_matches(typed, list(shown), n=AUTOCOMPLETE, cutoff=0.5)
        out = [label(name) for name in dict.fromkeys(shown[c] for c in close)]
        return out[:AUTOCOMPLETE]
    out.sort(key=lambda item: (not item[1].casefold().startswith(typed), item[0].casefold()))
    return out[:AUTOCOMPLETE]


# ---------------------------------------------------------------------- decks


def problem_text(item: Problem, lang: str) -> str:
    return t(item.key, lang, **item.kwargs)


def deck_name(text: str) -> str:
    """A deck name as typed, checked (1 to MAX_DECK_NAME characters, one line)."""
    name = " ".join(text.split())
    if not 1 <= len(name) <= MAX_DECK_NAME:
        raise BadInput("tq.deck.bad_name", max=MAX_DECK_NAME)
    return name


def resolve_card(name: str, cat: Catalogue | None = None) -> str:
    """The German name of a card named in either language. Raises BadInput with the
    nearest names for an unknown one."""
    cat = cat or catalogue()
    known = cat.resolve(name)
    if known is None:
        unknown = unknown_card(name, cat)
        raise BadInput(unknown.key, **unknown.kwargs)
    return known[2]


def inline_list(text: str) -> str:
    """A list typed in one line: entries split by ``;``, ``,`` (no card name has either) or
    a typed ``\\n``."""
    return re.sub(r"[;,]|\\n", "\n", text)


def read_list(text: str, lang: str, cat: Catalogue | None = None) -> tuple[DeckList, list[str]]:
    """An imported list and every reason it cannot be taken (unreadable lines, unknown
    cards with the nearest names, an empty list), in the reader's language."""
    deck = parse_list(text, cat)
    reasons = [problem_text(p, lang) for p in deck.problems]
    if not deck.entries and not reasons:
        reasons.append(_k("deck.import_empty", lang))
    return deck, reasons


def deck_text(deck: DeckRecord, cat: Catalogue | None = None) -> str:
    """The plain list (``<count> <card name>``), hero and level cards first."""
    return export_list(dict(deck.cards), cat or catalogue())


def deck_summary(
    deck: DeckRecord, lang: str, cat: Catalogue | None = None
) -> tuple[str, list[tuple[str, str]], str, bool]:
    """(title, fields (name, value), footer, legal) of a deck's embed: the cards grouped by
    kind with counts, then whether it is legal and every reason it is not."""
    cat = cat or catalogue()
    groups: dict[str, list[str]] = {}
    for name, count in deck.cards:
        kind = card_kind(name, cat)
        groups.setdefault(kind, []).append(f"{count}× {card_name(name, lang, cat)}")
    fields = []
    for kind in ("hero", "level", *sorted(k for k in groups if k not in ("hero", "level"))):
        if kind in groups:
            title = f"{TYPE_ICONS.get(kind, '')} {_k(f'kind.{kind}', lang)}".strip()
            fields.append((title, _cut("\n".join(groups[kind]))))
    legal, verdict = check_text(deck, lang, cat)
    fields.append((_k("deck.verdict", lang), _cut(verdict)))
    title = _k("deck.title", lang, name=deck.name, count=deck.size)
    return title, fields, _k("deck.footer", lang), legal


def check_text(deck: DeckRecord, lang: str, cat: Catalogue | None = None) -> tuple[bool, str]:
    """Whether the deck is legal, and the verdict: its classes, or every reason."""
    info = validate(dict(deck.cards), cat or catalogue())
    if info.legal:
        classes = ", ".join(class_name(c, lang) for c in info.classes)
        return True, "✅ " + t("tq.deck.legal", lang, classes=classes)
    return False, "\n".join(f"❌ {problem_text(p, lang)}" for p in info.problems)


def verdict_line(deck: DeckRecord, lang: str, cat: Catalogue | None = None) -> str:
    """One line: legal, or the first reason and how many more."""
    info = validate(dict(deck.cards), cat or catalogue())
    if info.legal:
        return "✅ " + _k("deck.ready", lang, count=deck.size)
    first = problem_text(info.problems[0], lang)
    more = len(info.problems) - 1
    return "❌ " + first + (" " + _k("deck.more", lang, count=more) if more else "")


def deck_lines(decks: Sequence[DeckRecord], lang: str, cat: Catalogue | None = None) -> list[str]:
    if not decks:
        return [_k("deck.none", lang)]
    cat = cat or catalogue()
    lines = []
    for deck in decks:
        legal = validate(dict(deck.cards), cat).legal
        lines.append(f"{'✅' if legal else '❌'} **{deck.name}** · {deck.size}")
    return lines


def deck_choices(
    decks: Sequence[DeckRecord], current: str, lang: str | None = None
) -> list[tuple[str, str]]:
    """(label, value) of the user's decks whose name contains what was typed; with
    ``lang`` the starter decks too (value ``*<class>``)."""
    typed = current.strip().casefold()
    out = [(f"{d.name} ({d.size})", d.name) for d in decks if typed in d.name.casefold()]
    if lang is not None:
        for cls in CLASSES:
            label = choice_label(cls, lang)
            if typed in label.casefold():
                out.append((label, STARTER + cls))
    return out[:AUTOCOMPLETE]


def file_name(name: str) -> str:
    """A deck's export file name (letters, digits, dashes)."""
    stem = "".join(ch if ch.isalnum() else "-" for ch in name).strip("-") or "deck"
    return f"{stem[:40]}.txt"


def decoded(data: bytes) -> str:
    """An uploaded text file (UTF-8, with or without BOM; else Latin-1)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _cut(text: str, limit: int = 1024) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _starter_named(text: str) -> str | None:
    """The class whose starter deck (or class) is named ``text`` in either language."""
    folded = text.strip().casefold()
    for cls in CLASSES:
        names = {cls, class_name(cls, "de"), class_name(cls, "en")}
        names |= {choice_label(cls, lang) for lang in ("de", "en")}
        if folded in {name.casefold() for name in names}:
            return cls
    return None


@lru_cache(maxsize=32)
def file_catalogue(text: str) -> Catalogue:
    """The built-in cards plus a card file's (read once per text: a page or a game start
    of the same server asks again and again)."""
    cards, errors = load_cards_text(text)
    if errors:  # stored files are checked first: this is a file of an older card format
        return catalogue()
    clashes = set(check_extra(cards))
    return catalogue([c for c in cards if c.name not in clashes])


_STEP_PATTERNS = (
    (r"unknown verb '([^']+)' \(did you mean '([^']+)'\?\)", "verb_near", ("verb", "near")),
    (r"unknown verb '([^']+)'", "verb", ("verb",)),
    (r"verb '([^']+)' has no parameter '([^']+)'", "param_unknown", ("verb", "param")),
    (r"verb '([^']+)' needs '([^']+)'", "param_missing", ("verb", "param")),
    (r"missing 'do'", "no_verb", ()),
    (r"needs text_de and text_en", "step_texts", ()),
    (r"'?([^']*)'? is not one of \[(.*)\]", "step_choice", ("value", "choices")),
)


def load_error_text(error: LoadError, lang: str) -> str:
    """One card-file mistake in the reader's language: its line, its card, what is wrong."""
    where = _k("load.line", lang, line=error.line) if error.line else ""
    item = "" if error.item == "(file)" else _k("load.item", lang, name=error.item)
    if error.code == "step":
        what = _step_text(error.message, int(error.params.get("step", 0)), lang)
    elif error.code:
        params = {k: ", ".join(v) if isinstance(v, list) else v for k, v in error.params.items()}
        what = _k(f"load.{error.code}", lang, **params)
    else:
        what = _k("load.other", lang, detail=error.message)
    return f"{where}{item}{what}"


def _step_text(message: str, number: int, lang: str) -> str:
    detail = message.split(": ", 1)[-1]
    path = message.split(": ", 1)[0]
    key = path.split(".", 1)[1] if "." in path else ""
    for pattern, code, names in _STEP_PATTERNS:
        match = re.search(pattern, detail)
        if match:
            found = dict(zip(names, match.groups(), strict=True))
            if code == "step_choice":
                found["choices"] = ", ".join(
                    f"`{c.strip().strip(chr(39))}`" for c in found["choices"].split(",")
                )
            return _k(f"load.step.{code}", lang, step=number, field=key, **found)
    return _k("load.step.value", lang, step=number, field=key or "do")


def check_card_file(text: str, lang: str) -> tuple[list[Card], list[str]]:
    """A server card file's cards and every mistake (its line and card; a name that exists
    already)."""
    cards, errors = load_cards_text(text)
    mistakes = [load_error_text(error, lang) for error in errors]
    mistakes += [_k("cards.clash", lang, name=name) for name in check_extra(cards)]
    if not cards and not mistakes:
        mistakes.append(_k("cards.empty", lang))
    return cards, mistakes


def card_text(name: str, lang: str, cat: Catalogue) -> tuple[str, str]:
    """(title, text) of one card in the reader's language."""
    card = cat.support(name)
    shown = card_name(name, lang, cat)
    if card is None:
        known = cat.resolve(name)
        kind, cls = (known[0], known[1]) if known else ("?", "")
        if kind == "hero":
            hero = hero_of(cls)
            return f"{TYPE_ICONS['hero']} {shown}", hero.text_de if lang == "de" else hero.text_en
        return f"{TYPE_ICONS['level']} {shown}", _k("card.level", lang, cls=class_name(cls, lang))
    lines = [f"*{t(f'tqrender.type.{card.type}', lang)}*"]  # one card: "Waffe", not "Waffen"
    lines.append(_k("card.costs", lang, play=card.play, use=card.use))
    if card.requires:
        needs = ", ".join(f"{_k(f'attr.{a}', lang)} {v}" for a, v in card.requires.items())
        lines.append(_k("card.requires", lang, needs=needs))
    if card.classes:
        lines.append(", ".join(class_name(c, lang) for c in card.classes))
    marks = [_k(f"card.{flag}", lang) for flag in ("defensive", "inaktion") if getattr(card, flag)]
    if card.charges:
        marks.append(_k("card.charges", lang, count=card.charges))
    if marks:
        lines.append(" · ".join(marks))
    lines += ["", card.text_de if lang == "de" else card.text_en]
    return f"{TYPE_ICONS.get(card.type, '')} {shown}".strip(), "\n".join(lines)


@dataclass
class Seats:
    """The seats of a new game: people with their decks, bots with a starter deck each."""

    bot_id: int
    level: str
    players: list[int] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    decks: list[str | None] = field(default_factory=list)
    levels: dict[str, str] = field(default_factory=dict)

    def add(self, user: int, name: str, deck: str | None) -> None:
        self.players.append(user)
        self.names.append(name)
        self.decks.append(deck)

    def add_bot(self, label: str) -> None:
        """A bot seat with a starter deck of a class nobody plays yet; against a drafted deck
        a draft deck of its own (three boosters, built as a drafter's: a draft deck meets only
        draft decks)."""
        taken = {_class_of(d) for d in self.decks if d is not None}
        self.levels[str(len(self.players))] = self.level
        if DRAFT in taken:
            deck = sealed_deck(self.seed + len(self.players), self.cards)
            self.add(self.bot_id, label, deck)
            return
        spare = [c for c in CLASSES if c not in taken] or list(CLASSES)
        self.add(self.bot_id, label, spare[0])

    cards: str = ""  # the server's own card file, if it has one
    svo: bool = False  # the tournament rule (Sudden Victory Overtime)
    round_limit: int = 0  # a draw after this many rounds (0: none)
    seed: int = 0  # the boosters of a bot's draft deck

    def config(self) -> dict[str, Any]:
        config: dict[str, Any] = {"seat_choices": list(self.decks)}
        if self.cards:
            config["cards"] = self.cards
        if self.svo:
            config["svo"] = True
        if self.round_limit:
            config["round_limit"] = self.round_limit
        if self.levels:
            config["ai_levels"] = self.levels
        return config


def _class_of(deck: str) -> str:
    if deck in CLASSES:
        return deck
    info = validate(parse_list(deck))
    return info.classes[0] if info.classes else ""


async def deck_image(deck: DeckRecord, lang: str, cat: Catalogue | None = None) -> bytes:
    """The deck as an image: cost curve, card types, attribute needs, the list."""
    return await render_async(deck_png, dict(deck.cards), lang, title=deck.name, catalogue=cat)


async def card_image(name: str, lang: str, cat: Catalogue | None = None) -> bytes:
    return await render_async(named_card_png, name, lang, catalogue=cat)


def deck_is_legal(deck: DeckRecord, cat: Catalogue | None = None) -> bool:
    return validate(dict(deck.cards), cat or catalogue()).legal


def starter_cards(cls: str) -> tuple[tuple[str, int], ...]:
    return starter(cls).entries


def deck_choice(deck: DeckRecord, cat: Catalogue | None = None) -> str:
    """What a seat plays with: the deck's list as it is now, named in its first line (a
    comment), so a later change of the deck does not change a running game."""
    return f"# {deck.name}\n{deck_text(deck, cat)}"


def game_catalogue(record: Any) -> Catalogue:
    """The cards of a game: the built-in ones and the server's own card file it started with."""
    return catalogue_for(str(record.config.get("cards") or ""))


def choice_label(choice: Any, lang: str) -> str:
    """A seat's deck by name: a chosen deck's first line, or a class's starter deck."""
    if isinstance(choice, str) and choice in CLASSES:
        return _k("deck.starter", lang, cls=class_name(choice, lang))
    if isinstance(choice, str) and choice.startswith("# "):
        return choice.splitlines()[0][2:]
    return "?"


# ---------------------------------------------------------------------- the game


@dataclass
class _Names:
    """Who and what the ids of a view name, in the reader's language."""

    view: Mapping[str, Any]
    names: list[str]
    lang: str
    cards: Mapping[str, str]  # card id → German name (cards in play and the reader's hand)
    cat: Catalogue  # the game's cards (the built-in ones and the server's own)
    gone: Mapping[str, int] = field(default_factory=dict)  # cards that left play → owner

    def player(self, seat: Any) -> str:
        index = int(seat)
        return self.names[index] if 0 <= index < len(self.names) else "?"

    def hero(self, seat: int) -> str:
        classes = self.view["players"][seat]["classes"]
        hero = "/".join(class_name(c, self.lang) for c in classes)
        return _k("hero_of", self.lang, hero=hero, name=self.player(seat))

    def card(self, cid: str) -> str:
        name = self.cards.get(cid)
        return card_name(name, self.lang, self.cat) if name else _k("hidden_card", self.lang)

    def target(self, token: str) -> str:
        if token.startswith("h") and token[1:].isdecimal():
            return self.hero(int(token[1:]))
        owner = self.owner(token)
        if owner is None:
            return self.card(token)
        return _k("card_of", self.lang, card=self.card(token), name=self.player(owner))

    def owner(self, cid: str) -> int | None:
        for seat, p in enumerate(self.view["players"]):
            for zone in ("equip", "field", "row", "hand"):
                if any(c["id"] == cid for c in p.get(zone, [])):
                    return seat
        return self.gone.get(cid)

    def hand_number(self, cid: str, seat: int | None) -> int | None:
        if seat is None:
            return None
        hand = self.view["players"][seat].get("hand", [])
        return next((i + 1 for i, c in enumerate(hand) if c["id"] == cid), None)


def _view_cards(view: Mapping[str, Any]) -> dict[str, str]:
    """Card id → German name of every card the view names."""
    cards: dict[str, str] = {}
    for p in view["players"]:
        for zone in ("hand", "equip", "field", "row"):
            for c in p.get(zone, []):
                if "name" in c:
                    cards[c["id"]] = c["name"]
    return cards


def _names_of(view: Mapping[str, Any], ctx: BoardContext) -> _Names:
    cards = _view_cards(view)
    # cards that left play this step (a fallen Wesen, a spent charge) keep their names
    state = ctx.match.state.data["cards"]
    gone = {}
    for cid, info in state.items():
        if cid not in cards and not info.get("hidden") and _public(ctx, cid):
            cards[cid] = info["name"]
            gone[cid] = int(info["owner"])
    return _Names(view, ctx.names, ctx.lang, cards, game_catalogue(ctx.record), gone)


def _public(ctx: BoardContext, cid: str) -> bool:
    """Whether a card is out of every hand and draw pile (its name is no secret)."""
    players = ctx.match.state.data["players"]
    return not any(cid in p["hand"] or cid in p["deck"] for p in players)


def action_words(words: Sequence[str], names: _Names, seat: int | None) -> str:
    """An action (``use c12345 h1``) as a button label, the card first in German
    ("Kettenhemd zurück auf die Hand nehmen", "Parade anwenden")."""
    verb, *args = words
    lang = names.lang
    if verb in ("swap", "fly") and len(args) == 2:
        where = _k("positions", lang, a=int(args[0]) + 1, b=int(args[1]) + 1)
        return f"{_k(f'verb.{verb}', lang)} {where}"
    if verb == "dual" and len(args) == 3:
        a, b = names.card(args[0]), names.card(args[1])
        return _k("act.dual", lang, a=a, b=b, target=names.target(args[2]))
    if not args or f"tqcog.act.{verb}" not in catalog():
        return _k(f"verb.{verb}", lang) if f"tqcog.verb.{verb}" in catalog() else verb
    number = names.hand_number(args[0], seat)
    card = names.card(args[0])
    card = f"{number} · {card}" if number else card
    if len(args) > 1:
        return _k(f"act.{verb}.to", lang, card=card, target=names.target(args[1]))
    return _k(f"act.{verb}", lang, card=card)


def action_sentence(words: Sequence[str], names: _Names, seat: int) -> str:
    """A declared action told as a sentence: who attacks whom with what, who answers how."""
    verb, *args = words
    lang, name = names.lang, names.player(seat)
    if verb == "dual" and len(args) == 3:
        a, b = names.card(args[0]), names.card(args[1])
        return _k("said.dual", lang, name=name, a=a, b=b, target=names.target(args[2]))
    if not args:
        return _k("event.declared", lang, name=name, action=action_words(words, names, seat))
    card = names.card(args[0])
    kind = _card_kind(args[0], names)
    if verb == "use" and len(args) > 1:
        form = kind if kind in ("wesen", "weapon", "spell") else "other"
        return _k(f"said.use.{form}", lang, name=name, card=card, target=names.target(args[1]))
    if verb == "use":
        effect = _effect(args[0], names)
        if not effect:
            return _k("said.use.plain", lang, name=name, card=card)
        return _k("said.use.self", lang, name=name, card=card, effect=effect)
    if verb == "react":
        return _k("said.react", lang, name=name, card=card)
    return _k("event.declared", lang, name=name, action=action_words(words, names, seat))


def action_object(words: Sequence[str], names: _Names) -> str:
    """What an action is about, for "… wird abgewehrt" and the reaction question."""
    verb, *args = words
    if verb == "dual" and len(args) == 3:
        return f"{names.card(args[0])} + {names.card(args[1])} → {names.target(args[2])}"
    if len(args) > 1 and verb in ("use", "arm", "move"):
        return f"{names.card(args[0])} → {names.target(args[1])}"
    if verb == "play" and args:  # laying a card may be answered too
        return _k("object.play", names.lang, card=names.card(args[0]))
    return names.card(args[0]) if args else action_words(words, names, None)


def _card_kind(cid: str, names: _Names) -> str:
    name = names.cards.get(cid)
    card = names.cat.support(name) if name else None
    return card.type if card is not None else ""


def _effect(cid: str, names: _Names) -> str:
    """What the card does, as its steps say it (impersonal: "Nächster Angriff +2."; the card
    text addresses its owner, "deines Helden", and the log speaks of the players in the third
    person), shortened at a word."""
    name = names.cards.get(cid)
    card = names.cat.support(name) if name else None
    if card is None:
        return ""
    key = "text_de" if names.lang == "de" else "text_en"
    said = " ".join(str(s.get(key, "")) for s in card.steps if s.get(key))
    return shorten(said, 120)


def shorten(text: str, limit: int) -> str:
    """``text`` cut at a word with "…" when longer than ``limit``."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:.–-")
    return cut + "…"


def why_text(why: Mapping[str, Any], lang: str) -> str:
    """Why a hand card cannot be played now, short ("braucht Kraft 3 (du: 2)")."""
    params = {k: v for k, v in why.items() if k != "key"}
    if "attr" in params:
        params["attr"] = _k(f"attr.{params['attr']}", lang)
    if "classes" in params:
        params["classes"] = ", ".join(class_name(c, lang) for c in params["classes"])
    return _k(f"why.{why['key']}", lang, **params)


def life_text(life: int, maximum: int, out: bool, lang: str) -> str:
    """``20/25``; a hero at 0 LP or below (RULES.md: it falls at the end of the turn unless
    healed above 0) shows 0 and the healing it needs."""
    if life > 0 or out:
        return f"{max(life, 0)}/{maximum}"
    return _k("life_down", lang, max=maximum, need=1 - life)


TEAM_ICONS = ("🟧", "🔵")
DRAWS = (
    "both_fell",
    "round_limit",
    "turn_limit",
)  # the engine's reasons of a draw  # bot/render/telperinquar.py TEAM_COLOURS


class TelperinquarSpec(GameSpec):
    kind = "telperinquar"
    prefix = "tq"
    texts = "tqcog"
    private_view = True  # the hand
    personal_setup = True  # each seat plays one of its own decks
    continue_prompt = True  # a turn is many steps: the hand stays open between them
    picture_per_turn = True  # the field's lines tell each step; the picture when it passes
    bot_levels = LEVELS
    default_level = DEFAULT_LEVEL

    def seat_label(self, seat: int) -> str:
        """The side's colour of the images (orange, blue: 2 vs 2 plays seats 1+3 against
        2+4), not one colour per seat."""
        return f"{TEAM_ICONS[seat % 2]} {seat + 1}"

    # ---------------------------------------------------------------- setup

    async def setup_choices_for(
        self, store: Any, record: Any, user_id: int, lang: str
    ) -> list[tuple[str, str]]:
        """The person's decks that are legal with the game's cards, then the starter decks."""
        cat = game_catalogue(record)
        own = [
            (f"d{deck.id}", f"{deck.name} ({deck.size})")
            for deck in await store.decks(user_id)
            if deck_is_legal(deck, cat)
        ]
        starters = [(cls, choice_label(cls, lang)) for cls in CLASSES]
        return own[: AUTOCOMPLETE - len(starters)] + starters  # one select holds 25

    async def setup_value(self, store: Any, record: Any, user_id: int, value: str) -> Any:
        if value in CLASSES:
            return value
        for deck in await store.decks(user_id):
            if f"d{deck.id}" == value:
                return deck_choice(deck, game_catalogue(record))
        raise BadInput("tqcog.error.bad_choice")

    def choice_label(self, choice: Any, lang: str) -> str:
        return choice_label(choice, lang)

    # ---------------------------------------------------------------- the board

    async def render(self, view: Mapping[str, Any], ctx: BoardContext) -> bytes | None:
        cat = game_catalogue(ctx.record)
        return await render_async(field_png, view, ctx.lang, names=list(ctx.names), catalogue=cat)

    async def private_image(self, view: Mapping[str, Any], ctx: BoardContext) -> bytes | None:
        """The seat's hand, numbered as its play buttons."""
        if ctx.seat is None or not view["players"][ctx.seat].get("hand"):
            return None
        return await self._hand(view, ctx.seat, ctx)

    def _hand(self, view: Mapping[str, Any], seat: int, ctx: BoardContext) -> asyncio.Task[bytes]:
        """The hand image being drawn or drawn already: a turn's prompts show the same hand
        again and again (the card faces themselves are kept by the renderer)."""
        own = ctx.record.config.get("cards", "")
        key = json.dumps([view["players"][seat], seat, ctx.lang, own], sort_keys=True)
        task = _HANDS.get(key)
        stale = task is not None and task.get_loop() is not asyncio.get_running_loop()
        if task is None or stale or (task.done() and task.exception() is not None):
            cat = game_catalogue(ctx.record)
            task = asyncio.ensure_future(
                render_async(hand_png, view, seat, ctx.lang, catalogue=cat)
            )
            task.add_done_callback(_retrieved)  # a failed warm-up is raised where awaited
            _HANDS[key] = task
            while len(_HANDS) > HAND_CACHE:
                _HANDS.pop(next(iter(_HANDS)))
        return task

    async def board(self, ctx: BoardContext) -> Any:
        board = await super().board(ctx)
        view = ENGINE.view_for(ctx.match.state, None)
        board.footer = self.field_footer(view, ctx)
        board.lines[1:1] = self.field_lines(view, ctx)
        return board

    def field_lines(self, view: Mapping[str, Any], ctx: BoardContext) -> list[str]:
        """Each hero in one line, and the Wesen rows, for a reader without the image."""
        names = _names_of(view, ctx)
        lines = []
        if len(view["players"]) > 2:  # 2 vs 2: who plays with whom
            sides = [
                " + ".join(
                    f"{self.seat_label(s).split()[0]} {names.player(s)}"
                    for s, p in enumerate(view["players"])
                    if p["team"] == team
                )
                for team in (0, 1)
            ]
            lines.append(_k("teams", ctx.lang, a=sides[0], b=sides[1]))
        for seat, p in enumerate(view["players"]):
            levels = "/".join(str(v) for v in p["levels"].values())
            status = _k(
                "seat_line",
                ctx.lang,
                icon=self.seat_label(seat).split()[0],
                hero=names.hero(seat),
                level=levels,
                life=life_text(int(p["life"]), int(p["max_life"]), bool(p["out"]), ctx.lang),
                actions=p["actions"],
                hand=p["hand_count"],
                deck=p["deck_count"],
            )
            lines.append(("✖ " if p["out"] else "") + status)
            row = [self._row_card(c, names) for c in p["row"]]
            gear = [names.card(c["id"]) for c in p["equip"] + p["field"]]
            if row:
                lines.append("  " + _k("row", ctx.lang, cards=" · ".join(row)))
            if gear:
                lines.append("  " + _k("gear", ctx.lang, cards=", ".join(gear)))
        return lines

    def _row_card(self, card: Mapping[str, Any], names: _Names) -> str:
        if card.get("hidden") and "name" not in card:
            return "🂠"
        text = names.card(card["id"])
        if card.get("wounded"):
            text += " 🩸"
        if card.get("inaktion"):
            text += " ⏸"
        return text

    def field_footer(self, view: Mapping[str, Any], ctx: BoardContext) -> str:
        phase = _k(f"phase.{view['phase']}", ctx.lang)
        limit = int(view.get("round_limit") or 0)
        text = _k(
            "footer",
            ctx.lang,
            # at the end by the limit the state already counts the next round: not "2/1"
            round=f"{min(int(view['round']), limit)}/{limit}" if limit else view["round"],
            phase=phase,
        )
        if view.get("svo_rule"):  # the tournament rule chosen at the start
            text = _k("footer_svo", ctx.lang, footer=text)
        return text

    def narrate(self, steps: Steps, ctx: BoardContext) -> list[str]:
        view = ENGINE.view_for(ctx.match.state, None)
        names = _names_of(view, ctx)
        lines: list[str] = []
        for actor, event in _roll_first(steps.items):
            key = f"tqcog.event.{event.type}"
            if key not in catalog():  # resign, draw votes, forfeits: the shared words
                lines += super().narrate(Steps([(actor, event)]), ctx)
                continue
            lines.append(self._event(event.type, dict(event.data), actor, names))
        hurt = {
            int(str(e.data["target"])[1:])
            for _, e in steps.items
            if e.type in ("damage", "counter") and str(e.data.get("target", "")).startswith("h")
        }
        for seat in sorted(hurt):
            p = view["players"][seat]
            if int(p["life"]) <= 0 and not p["out"]:
                lines.append(
                    _k("event.hero_down", ctx.lang, hero=names.hero(seat), need=1 - int(p["life"]))
                )
        return _squeeze(lines)

    def _event(self, kind: str, data: dict[str, Any], actor: int, names: _Names) -> str:
        lang = names.lang
        params: dict[str, Any] = {"name": names.player(data.get("player", actor))}
        if "card" in data:
            shown = data.get("name") if kind == "played" else data["card"]
            params["card"] = card_name(str(shown), lang) if shown else ""
        if kind == "played" and "name" not in data:
            kind = "played_hidden"
        if "target" in data or "bearer" in data:
            params["target"] = names.target(str(data.get("target", data.get("bearer"))))
        if kind == "flew":
            params["a"], params["b"] = (int(x) + 1 for x in data["places"])
        if kind == "declared":
            words = str(data["action"]).split()
            return action_sentence(words, names, int(data.get("player", actor)))
        if "action" in data:
            params["action"] = action_object(str(data["action"]).split(), names)
        if kind == "level_up":
            params["cls"] = class_name(str(data["class"]), lang)
        if kind == "roll" and data.get("for") == "heal":
            kind = "roll_heal"
        for key in ("die", "bonus", "amount", "level", "damage"):
            if key in data:
                params[key] = data[key]
        if "bonus" in params:
            params["bonus"] = f"{int(params['bonus']):+d}"
        if kind in ("damage", "healed") and data.get("amount") == 0:
            kind += "_none"
        if kind in ("wesen_died", "wesen_wounded"):  # named as everywhere: "Wolf (Alice)"
            params["card"] = _k("card_of", lang, card=params["card"], name=params["name"])
        if kind in ("wesen_died", "wesen_wounded") and data.get("why"):
            kind += f".{data['why']}"
        if kind == "ew":  # W20 + level against the value: higher succeeds
            params["total"] = int(data["die"]) + int(data["level"])
            params["value"] = data["value"]
            kind += "" if data.get("success") else "_failed"
        if kind == "no_counter":
            kind += f".{data.get('why', 'ranged')}"
        if kind in ("roll", "counter") and int(data["die"]) == 1:
            kind += "_fumble"
        if kind in ("roll", "counter"):
            die = int(data["die"])
            params["total"] = die + int(data["bonus"]) if die != 1 else 0
            params["mark"] = " 💥" if die == 10 else " 💨" if die == 1 else ""
        return _k(f"event.{kind}", lang, **params)

    def status(self, ctx: BoardContext) -> str:
        """Who is asked: a reaction names the one seat that may answer now."""
        state = ctx.match.state.data
        if ctx.outcome is None and state["ask"] is not None and ctx.waiting_for:
            return _k("status.react", ctx.lang, name=ctx.names[int(state["ask"])])
        return super().status(ctx)

    def outcome_text(self, outcome: Outcome, ctx: BoardContext) -> str:
        if outcome.reason not in ("hero_fell", *DRAWS):
            return super().outcome_text(outcome, ctx)
        if outcome.is_draw:  # said as what happened: both heroes fell, or a limit
            limit = ctx.match.state.data.get(outcome.reason, 0)
            return "🤝 " + _k(f"reason.{outcome.reason}", ctx.lang, limit=limit)
        who = ", ".join(ctx.names[s] for s in sorted(outcome.winners))
        return "🏆 " + _k("reason.hero_fell", ctx.lang, names=who)

    def private_text(self, view: Mapping[str, Any], lang: str) -> str:
        me = next((p for p in view["players"] if "hand" in p), None)
        if me is None:
            return ""
        hand = [f"**{i}** {card_name(c['name'], lang)}" for i, c in enumerate(me["hand"], 1)]
        text = _k("hand", lang, cards=" · ".join(hand) or "–", actions=me["actions"])
        blocked = [
            f"{card_name(c['name'], lang)}: {why_text(c['why'], lang)}"
            for c in me["hand"]
            if c.get("why")
        ]
        if blocked:
            text += "\n" + _k("blocked", lang, cards=" · ".join(blocked))
        return text

    # ---------------------------------------------------------------- clicking

    def prompt(self, ctx: BoardContext) -> str:
        view = ENGINE.view_for(ctx.match.state, ctx.seat)
        names = _names_of(view, ctx)
        if view["ask"] is not None and view["stack"]:
            top = view["stack"][-1].split()
            question = _k("prompt.react", ctx.lang, action=action_object(top, names))
        else:
            question = _k(f"prompt.{view['phase']}", ctx.lang)
        if ctx.path:
            question += " — " + action_words(ctx.path, names, ctx.seat)
        return question

    def options(self, ctx: BoardContext, path: tuple[str, ...], tokens: list[str]) -> list[Option]:
        view = ENGINE.view_for(ctx.match.state, ctx.seat)
        names = _names_of(view, ctx)
        tree = ctx.tree
        out = []
        for token in tokens:
            if not path:
                whole = [a for p, a in tree.paths.items() if p[:1] == (token,)] if tree else []
                named = len(whole) == 1
                if named:
                    label = action_words(whole[0].words, names, ctx.seat)
                else:
                    label = _k(f"verb.{token}", ctx.lang) if token.isalpha() else token
                style = "secondary" if token in PHASE_VERBS else "primary"
                emoji = _VERB_ICONS.get(token)
                out.append(Option(token, label, style=style, emoji=emoji, whole=named))
                continue
            out.append(Option(token, self._token_label(token, path, names, ctx.seat)))
        return out

    def _token_label(
        self, token: str, path: tuple[str, ...], names: _Names, seat: int | None
    ) -> str:
        verb = path[0]
        if verb in ("swap", "fly"):
            return _k("position", names.lang, n=int(token) + 1) if token.isdecimal() else token
        last = len(path) == (3 if verb == "dual" else 2)
        if last and verb in ("use", "dual", "arm", "move"):
            return names.target(token)
        number = names.hand_number(token, seat)
        card = names.card(token)
        return f"{number} · {card}" if number else card

    def shortcuts(
        self, ctx: BoardContext, path: tuple[str, ...], steps: Sequence[tuple[str, ...]]
    ) -> list[int]:
        """The usual steps as direct choices, one click each: every step when they are few,
        else the phase's own (go on, end the phase, pass) and the plays and attacks, the first
        of them; the rest stays behind the verbs (more)."""
        if path:
            return []
        if len(steps) <= DIRECT_STEPS:
            return list(range(len(steps)))
        usual = [i for i, step in enumerate(steps) if step[0] in PHASE_VERBS]
        usual += [i for i, step in enumerate(steps) if step[0] in USUAL_VERBS]
        return usual[:DIRECT_STEPS]

    def step_option(
        self, ctx: BoardContext, path: tuple[str, ...], step: tuple[str, ...]
    ) -> Option:
        """A whole step in words ("Tempelwächter ausspielen", "Angreifen: …")."""
        view = ENGINE.view_for(ctx.match.state, ctx.seat)
        names = _names_of(view, ctx)
        verb = step[0]
        style = "secondary" if verb in PHASE_VERBS else "primary"
        label = action_words(step, names, ctx.seat)
        return Option(step[-1], label, emoji=_VERB_ICONS.get(verb), style=style)

    def placeholder(self, path: tuple[str, ...], lang: str) -> str:
        if path and path[0] in ("use", "dual", "arm", "move") and len(path) >= 2:
            return _k("select.target", lang)
        return _k("select.card", lang)

    def action_choices(
        self, record: Any, match: Any, seat: int, names: list[str], lang: str, typed: str
    ) -> list[tuple[str, str]]:
        """(words, notation) of the seat's legal actions whose words or notation contain
        what was typed (``/telperinquar zug``)."""
        view = ENGINE.view_for(match.state, seat)
        ctx_names = _Names(view, names, lang, _view_cards(view), game_catalogue(record))
        typed = " ".join(typed.casefold().split())
        out = []
        for action in ENGINE.legal_actions(match.state, seat):
            text = ENGINE.action_text(action)
            label = f"{action_words(action.words, ctx_names, seat)} · {text}"
            if typed in label.casefold():
                out.append((label, text))
        return out[:AUTOCOMPLETE]

    def list_line(self, record: Any, match: Any, names: list[str], lang: str) -> str:
        line = super().list_line(record, match, names, lang)
        mode = "2v2" if len(record.players) == 4 else "duel"
        return f"{line} · {_k(f'mode.{mode}', lang)}"


DIRECT_STEPS = 20  # at most this many steps offered whole at once
USUAL_VERBS = ("play", "use", "dual", "react", "take", "level")  # played whole, one click


_VERB_ICONS = {
    "go": "▶",
    "next": "⏭",
    "end": "⏹",
    "pass": "🤚",
    "level": "📈",
    "play": "🃏",
    "hide": "🂠",
    "use": "⚔️",
    "dual": "⚔️",
    "take": "↩",
    "react": "🛡️",
    "reveal": "👁",
    "intercept": "🛡️",
    "swap": "🔁",
    "fly": "🔁",
    "arm": "🛡️",
    "move": "🔀",
}


def _retrieved(task: asyncio.Task[bytes]) -> None:
    if not task.cancelled():
        task.exception()


def _roll_first(items: list[tuple[int, Any]]) -> list[tuple[int, Any]]:
    """The events in reading order: a healing roll before the healing it decided (the
    engine reports the healing first)."""
    out = list(items)
    for i in range(len(out) - 1):
        first, second = out[i][1], out[i + 1][1]
        if first.type == "healed" and second.type == "roll" and second.data.get("for") == "heal":
            out[i], out[i + 1] = out[i + 1], out[i]
    return out


def _squeeze(lines: list[str]) -> list[str]:
    """Runs of the same line (a hero drawing several cards) said once with a count."""
    out: list[str] = []
    counts: Counter[int] = Counter()
    for line in lines:
        if out and out[-1] == line:
            counts[len(out) - 1] += 1
            continue
        out.append(line)
    return [f"{line} ×{counts[i] + 1}" if counts[i] else line for i, line in enumerate(out)]


_HANDS: dict[str, asyncio.Task[bytes]] = {}  # the seat's own view and language → its hand
SPEC = TelperinquarSpec()
