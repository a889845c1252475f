"""Telperinquár's words: card, class and kind names in the reader's language, the steps told
as sentences (who did what to whom, by name and owner), life and the reasons of a refusal,
and the words of its decks (``/telperinquar deck …``: names, validation reasons, the embed's
lines, the card file's mistakes) with the deck reads and writes they need (a deck service is
still to come, issue 20). Discord-free: plain data and texts in the reader's language. The
game's table plug-in is ``bot.play.specs.telperinquar``.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from bot.i18n import catalog, t
from bot.play.spec import BoardContext
from bot.render.telperinquar import deck_png, named_card_png
from bot.store import DeckRecord
from bot.workers import render_async
from engines.core import BadInput
from engines.effects import LoadError
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
from engines.telperinquar.engine import TqState, catalogue_for

MAX_DECK_NAME = 40
MAX_IMPORT_BYTES = 64 * 1024
AUTOCOMPLETE = 25
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


def phrase(key: str, lang: str, **params: Any) -> str:
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
        reasons.append(phrase("deck.import_empty", lang))
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
            title = f"{TYPE_ICONS.get(kind, '')} {phrase(f'kind.{kind}', lang)}".strip()
            fields.append((title, _cut("\n".join(groups[kind]))))
    legal, verdict = check_text(deck, lang, cat)
    fields.append((phrase("deck.verdict", lang), _cut(verdict)))
    title = phrase("deck.title", lang, name=deck.name, count=deck.size)
    return title, fields, phrase("deck.footer", lang), legal


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
        return "✅ " + phrase("deck.ready", lang, count=deck.size)
    first = problem_text(info.problems[0], lang)
    more = len(info.problems) - 1
    return "❌ " + first + (" " + phrase("deck.more", lang, count=more) if more else "")


def deck_lines(decks: Sequence[DeckRecord], lang: str, cat: Catalogue | None = None) -> list[str]:
    if not decks:
        return [phrase("deck.none", lang)]
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


def starter_named(text: str) -> str | None:
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
    where = phrase("load.line", lang, line=error.line) if error.line else ""
    item = "" if error.item == "(file)" else phrase("load.item", lang, name=error.item)
    if error.code == "step":
        what = _step_text(error.message, int(error.params.get("step", 0)), lang)
    elif error.code:
        params = {k: ", ".join(v) if isinstance(v, list) else v for k, v in error.params.items()}
        what = phrase(f"load.{error.code}", lang, **params)
    else:
        what = phrase("load.other", lang, detail=error.message)
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
            return phrase(f"load.step.{code}", lang, step=number, field=key, **found)
    return phrase("load.step.value", lang, step=number, field=key or "do")


def check_card_file(text: str, lang: str) -> tuple[list[Card], list[str]]:
    """A server card file's cards and every mistake (its line and card; a name that exists
    already)."""
    cards, errors = load_cards_text(text)
    mistakes = [load_error_text(error, lang) for error in errors]
    mistakes += [phrase("cards.clash", lang, name=name) for name in check_extra(cards)]
    if not cards and not mistakes:
        mistakes.append(phrase("cards.empty", lang))
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
        return f"{TYPE_ICONS['level']} {shown}", phrase(
            "card.level", lang, cls=class_name(cls, lang)
        )
    lines = [f"*{t(f'tqrender.type.{card.type}', lang)}*"]  # one card: "Waffe", not "Waffen"
    lines.append(phrase("card.costs", lang, play=card.play, use=card.use))
    if card.requires:
        needs = ", ".join(f"{phrase(f'attr.{a}', lang)} {v}" for a, v in card.requires.items())
        lines.append(phrase("card.requires", lang, needs=needs))
    if card.classes:
        lines.append(", ".join(class_name(c, lang) for c in card.classes))
    marks = [
        phrase(f"card.{flag}", lang) for flag in ("defensive", "inaktion") if getattr(card, flag)
    ]
    if card.charges:
        marks.append(phrase("card.charges", lang, count=card.charges))
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
        return phrase("deck.starter", lang, cls=class_name(choice, lang))
    if isinstance(choice, str) and choice.startswith("# "):
        return choice.splitlines()[0][2:]
    return "?"


# ---------------------------------------------------------------------- the game's words


@dataclass
class Names:
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
        return phrase("hero_of", self.lang, hero=hero, name=self.player(seat))

    def card(self, cid: str) -> str:
        name = self.cards.get(cid)
        return card_name(name, self.lang, self.cat) if name else phrase("hidden_card", self.lang)

    def target(self, token: str) -> str:
        if token.startswith("h") and token[1:].isdecimal():
            return self.hero(int(token[1:]))
        owner = self.owner(token)
        if owner is None:
            return self.card(token)
        return phrase("card_of", self.lang, card=self.card(token), name=self.player(owner))

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


def view_cards(view: Mapping[str, Any]) -> dict[str, str]:
    """Card id → German name of every card the view names."""
    cards: dict[str, str] = {}
    for p in view["players"]:
        for zone in ("hand", "equip", "field", "row"):
            for c in p.get(zone, []):
                if "name" in c:
                    cards[c["id"]] = c["name"]
    return cards


def names_of(view: Mapping[str, Any], ctx: BoardContext) -> Names:
    cards = view_cards(view)
    # cards that left play this step (a fallen Wesen, a spent charge) keep their names
    state: TqState = ctx.match.state
    gone = {}
    for cid, info in state.cards.items():
        if cid not in cards and not info.hidden and _public(ctx, cid):
            cards[cid] = info.name
            gone[cid] = info.owner
    return Names(view, ctx.names, ctx.lang, cards, game_catalogue(ctx.record), gone)


def _public(ctx: BoardContext, cid: str) -> bool:
    """Whether a card is out of every hand and draw pile (its name is no secret)."""
    state: TqState = ctx.match.state
    return not any(cid in p.hand or cid in p.deck for p in state.players)


def action_words(words: Sequence[str], names: Names, seat: int | None) -> str:
    """An action (``use c12345 h1``) as a button label, the card first in German
    ("Kettenhemd zurück auf die Hand nehmen", "Parade anwenden")."""
    verb, *args = words
    lang = names.lang
    if verb in ("swap", "fly") and len(args) == 2:
        where = phrase("positions", lang, a=int(args[0]) + 1, b=int(args[1]) + 1)
        return f"{phrase(f'verb.{verb}', lang)} {where}"
    if verb == "dual" and len(args) == 3:
        a, b = names.card(args[0]), names.card(args[1])
        return phrase("act.dual", lang, a=a, b=b, target=names.target(args[2]))
    if not args or f"tqcog.act.{verb}" not in catalog():
        return phrase(f"verb.{verb}", lang) if f"tqcog.verb.{verb}" in catalog() else verb
    number = names.hand_number(args[0], seat)
    card = names.card(args[0])
    card = f"{number} · {card}" if number else card
    if len(args) > 1:
        return phrase(f"act.{verb}.to", lang, card=card, target=names.target(args[1]))
    return phrase(f"act.{verb}", lang, card=card)


def action_sentence(words: Sequence[str], names: Names, seat: int) -> str:
    """A declared action told as a sentence: who attacks whom with what, who answers how."""
    verb, *args = words
    lang, name = names.lang, names.player(seat)
    if verb == "dual" and len(args) == 3:
        a, b = names.card(args[0]), names.card(args[1])
        return phrase("said.dual", lang, name=name, a=a, b=b, target=names.target(args[2]))
    if not args:
        return phrase("event.declared", lang, name=name, action=action_words(words, names, seat))
    card = names.card(args[0])
    kind = _card_kind(args[0], names)
    if verb == "use" and len(args) > 1:
        form = kind if kind in ("wesen", "weapon", "spell") else "other"
        return phrase(f"said.use.{form}", lang, name=name, card=card, target=names.target(args[1]))
    if verb == "use":
        effect = _effect(args[0], names)
        if not effect:
            return phrase("said.use.plain", lang, name=name, card=card)
        return phrase("said.use.self", lang, name=name, card=card, effect=effect)
    if verb == "react":
        return phrase("said.react", lang, name=name, card=card)
    return phrase("event.declared", lang, name=name, action=action_words(words, names, seat))


def action_object(words: Sequence[str], names: Names) -> str:
    """What an action is about, for "… wird abgewehrt" and the reaction question."""
    verb, *args = words
    if verb == "dual" and len(args) == 3:
        return f"{names.card(args[0])} + {names.card(args[1])} → {names.target(args[2])}"
    if len(args) > 1 and verb in ("use", "arm", "move"):
        return f"{names.card(args[0])} → {names.target(args[1])}"
    if verb == "play" and args:  # laying a card may be answered too
        return phrase("object.play", names.lang, card=names.card(args[0]))
    return names.card(args[0]) if args else action_words(words, names, None)


def _card_kind(cid: str, names: Names) -> str:
    name = names.cards.get(cid)
    card = names.cat.support(name) if name else None
    return card.type if card is not None else ""


def _effect(cid: str, names: Names) -> str:
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
        params["attr"] = phrase(f"attr.{params['attr']}", lang)
    if "classes" in params:
        params["classes"] = ", ".join(class_name(c, lang) for c in params["classes"])
    return phrase(f"why.{why['key']}", lang, **params)


def life_text(life: int, maximum: int, out: bool, lang: str) -> str:
    """``20/25``; a hero at 0 LP or below (RULES.md: it falls at the end of the turn unless
    healed above 0) shows 0 and the healing it needs."""
    if life > 0 or out:
        return f"{max(life, 0)}/{maximum}"
    return phrase("life_down", lang, max=maximum, need=1 - life)
