"""Telperinquár at the shared game table (``bot.play``): its ``GameSpec`` — the field as an
image (``bot.render.telperinquar``) and as short lines, the narration of every engine event,
the prompts and click labels (hand cards numbered as on the hand image, targets by name and
owner), the seat's hand privately (an image and a numbered list), and each person's own
decks as their choice when they accept an invitation. The words are
``bot.narration.telperinquar``'s. Discord-free: plain data and texts in the reader's language.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import catalog
from bot.narration.telperinquar import (
    AUTOCOMPLETE,
    PHASE_VERBS,
    Names,
    action_object,
    action_sentence,
    action_words,
    card_name,
    choice_label,
    class_name,
    deck_choice,
    deck_is_legal,
    game_catalogue,
    life_text,
    names_of,
    phrase,
    view_cards,
    why_text,
)
from bot.play.spec import BoardContext, GameSpec, Option, Steps
from bot.play.ui import WHOLE, whole_steps
from bot.render.telperinquar import field_png, hand_png
from bot.workers import render_async
from engines.core import BadInput, Outcome
from engines.telperinquar import ENGINE
from engines.telperinquar.cards import CLASSES
from engines.telperinquar.engine import TqState

LEVELS = ENGINE.bot_levels
DEFAULT_LEVEL = "normal"
HAND_CACHE = 64  # hand images kept (the same hand is shown in every prompt of a turn)
TEAM_ICONS = ("🟧", "🔵")
DRAWS = (
    "both_fell",
    "round_limit",
    "turn_limit",
)  # the engine's reasons of a draw  # bot/render/telperinquar/common.py TEAM_COLOURS


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
        names = names_of(view, ctx)
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
            lines.append(phrase("teams", ctx.lang, a=sides[0], b=sides[1]))
        for seat, p in enumerate(view["players"]):
            levels = "/".join(str(v) for v in p["levels"].values())
            status = phrase(
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
                lines.append("  " + phrase("row", ctx.lang, cards=" · ".join(row)))
            if gear:
                lines.append("  " + phrase("gear", ctx.lang, cards=", ".join(gear)))
        return lines

    def _row_card(self, card: Mapping[str, Any], names: Names) -> str:
        if card.get("hidden") and "name" not in card:
            return "🂠"
        text = names.card(card["id"])
        if card.get("wounded"):
            text += " 🩸"
        if card.get("inaktion"):
            text += " ⏸"
        return text

    def field_footer(self, view: Mapping[str, Any], ctx: BoardContext) -> str:
        phase = phrase(f"phase.{view['phase']}", ctx.lang)
        limit = int(view.get("round_limit") or 0)
        text = phrase(
            "footer",
            ctx.lang,
            # at the end by the limit the state already counts the next round: not "2/1"
            round=f"{min(int(view['round']), limit)}/{limit}" if limit else view["round"],
            phase=phase,
        )
        if view.get("svo_rule"):  # the tournament rule chosen at the start
            text = phrase("footer_svo", ctx.lang, footer=text)
        return text

    def narrate(self, steps: Steps, ctx: BoardContext) -> list[str]:
        view = ENGINE.view_for(ctx.match.state, None)
        names = names_of(view, ctx)
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
                    phrase(
                        "event.hero_down", ctx.lang, hero=names.hero(seat), need=1 - int(p["life"])
                    )
                )
        return _squeeze(lines)

    def _event(self, kind: str, data: dict[str, Any], actor: int, names: Names) -> str:
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
            params["card"] = phrase("card_of", lang, card=params["card"], name=params["name"])
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
        return phrase(f"event.{kind}", lang, **params)

    def status(self, ctx: BoardContext) -> str:
        """Who is asked: a reaction names the one seat that may answer now."""
        state: TqState = ctx.match.state
        if ctx.outcome is None and state.ask is not None and ctx.waiting_for:
            return phrase("status.react", ctx.lang, name=ctx.names[state.ask])
        return super().status(ctx)

    def outcome_text(self, outcome: Outcome, ctx: BoardContext) -> str:
        if outcome.reason not in ("hero_fell", *DRAWS):
            return super().outcome_text(outcome, ctx)
        if outcome.is_draw:  # said as what happened: both heroes fell, or a limit
            state: TqState = ctx.match.state
            limit = {"turn_limit": state.turn_limit, "round_limit": state.round_limit}.get(
                outcome.reason, 0
            )
            return "🤝 " + phrase(f"reason.{outcome.reason}", ctx.lang, limit=limit)
        who = ", ".join(ctx.names[s] for s in sorted(outcome.winners))
        return "🏆 " + phrase("reason.hero_fell", ctx.lang, names=who)

    def private_text(self, view: Mapping[str, Any], lang: str) -> str:
        me = next((p for p in view["players"] if "hand" in p), None)
        if me is None:
            return ""
        hand = [f"**{i}** {card_name(c['name'], lang)}" for i, c in enumerate(me["hand"], 1)]
        text = phrase("hand", lang, cards=" · ".join(hand) or "–", actions=me["actions"])
        blocked = [
            f"{card_name(c['name'], lang)}: {why_text(c['why'], lang)}"
            for c in me["hand"]
            if c.get("why")
        ]
        if blocked:
            text += "\n" + phrase("blocked", lang, cards=" · ".join(blocked))
        return text

    # ---------------------------------------------------------------- clicking

    def prompt(self, ctx: BoardContext) -> str:
        view = ENGINE.view_for(ctx.match.state, ctx.seat)
        names = names_of(view, ctx)
        if view["ask"] is not None and view["stack"]:
            top = view["stack"][-1].split()
            question = phrase("prompt.react", ctx.lang, action=action_object(top, names))
        else:
            question = phrase(f"prompt.{view['phase']}", ctx.lang)
        if ctx.path:
            question += " — " + action_words(ctx.path, names, ctx.seat)
        return question

    def options(self, ctx: BoardContext, path: tuple[str, ...], tokens: list[str]) -> list[Option]:
        view = ENGINE.view_for(ctx.match.state, ctx.seat)
        names = names_of(view, ctx)
        tree = ctx.tree
        out = []
        for token in tokens:
            if not path:
                whole = [a for p, a in tree.paths.items() if p[:1] == (token,)] if tree else []
                named = len(whole) == 1
                if named:
                    label = action_words(whole[0].words, names, ctx.seat)
                else:
                    label = phrase(f"verb.{token}", ctx.lang) if token.isalpha() else token
                style = "secondary" if token in PHASE_VERBS else "primary"
                emoji = _VERB_ICONS.get(token)
                out.append(Option(token, label, style=style, emoji=emoji, whole=named))
                continue
            out.append(Option(token, self._token_label(token, path, names, ctx.seat)))
        return out

    def _token_label(
        self, token: str, path: tuple[str, ...], names: Names, seat: int | None
    ) -> str:
        verb = path[0]
        if verb in ("swap", "fly"):
            return phrase("position", names.lang, n=int(token) + 1) if token.isdecimal() else token
        last = len(path) == (3 if verb == "dual" else 2)
        if last and verb in ("use", "dual", "arm", "move"):
            return names.target(token)
        number = names.hand_number(token, seat)
        card = names.card(token)
        return f"{number} · {card}" if number else card

    def shortcuts(
        self, ctx: BoardContext, path: tuple[str, ...], steps: Sequence[tuple[str, ...]]
    ) -> list[int]:
        """The steps as direct choices, one click each: every step when they are few, else
        the phase's own (go on, end the phase, pass) and the usual ones (plays, attacks,
        reactions), the first of them; the rest stays behind their verbs."""
        if path:
            return []
        if len(steps) <= DIRECT_STEPS:
            return list(range(len(steps)))
        usual = [i for i, step in enumerate(steps) if step[0] in PHASE_VERBS]
        usual += [i for i, step in enumerate(steps) if step[0] in USUAL_VERBS]
        return usual[:DIRECT_STEPS]

    def more(
        self, ctx: BoardContext, path: tuple[str, ...], options: list[Option]
    ) -> tuple[list[Option], list[Option]]:
        """At the first choice: the usual steps (plays, attacks, reactions, going on or ending
        the phase) at once, the rare ones (laying face down, back to the hand, swapping,
        equipping) behind "mehr" — each still one click there when offered whole."""
        if path or ctx.tree is None:
            return options, []
        steps = whole_steps(ctx.tree, path)

        def rare(option: Option) -> bool:
            token = option.token
            whole = token.startswith(WHOLE) and token[1:].isdecimal()
            verb = steps[int(token[1:])][0] if whole and int(token[1:]) < len(steps) else token
            return verb in RARE_VERBS

        usual = [o for o in options if not rare(o)]
        rest = [o for o in options if rare(o)]
        return (usual, rest) if usual and rest else (options, [])

    def step_option(
        self, ctx: BoardContext, path: tuple[str, ...], step: tuple[str, ...]
    ) -> Option:
        """A whole step in words ("Tempelwächter ausspielen", "Angreifen: …"); going on or
        ending the phase always a button of its own, however many steps there are."""
        view = ENGINE.view_for(ctx.match.state, ctx.seat)
        names = names_of(view, ctx)
        verb = step[0]
        phase = verb in PHASE_VERBS
        label = action_words(step, names, ctx.seat)
        style = "secondary" if phase else "primary"
        return Option(
            step[-1],
            label,
            emoji=_VERB_ICONS.get(verb),
            style=style,
            select=False if phase else None,
        )

    def placeholder(self, path: tuple[str, ...], lang: str) -> str:
        if path and path[0] in ("use", "dual", "arm", "move") and len(path) >= 2:
            return phrase("select.target", lang)
        return phrase("select.card", lang)

    def action_choices(
        self, record: Any, match: Any, seat: int, names: list[str], lang: str, typed: str
    ) -> list[tuple[str, str]]:
        """(words, notation) of the seat's legal actions whose words or notation contain
        what was typed (``/telperinquar zug``)."""
        view = ENGINE.view_for(match.state, seat)
        ctx_names = Names(view, names, lang, view_cards(view), game_catalogue(record))
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
        return f"{line} · {phrase(f'mode.{mode}', lang)}"


DIRECT_STEPS = 20  # at most this many steps offered whole at once


# the usual steps, offered whole at once; the rare ones (RARE_VERBS) behind "mehr"
USUAL_VERBS = ("play", "use", "dual", "react", "reveal", "intercept", "level")


RARE_VERBS = ("hide", "take", "swap", "fly", "arm", "move")


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
