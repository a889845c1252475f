"""Armageddon at the shared game table (``bot.play``): its ``GameSpec`` — the map image
(``bot.render.armageddon``) with the reader's words, the round, phase and whose turn it is,
the labels of every click (figures with their field, fields with their room used and
capacity, parties in their colours) — and the typing helpers of ``/armageddon``: a scenario
from a shipped name or an uploaded file, whole paths of one figure (completed by the engine's
``path_next``) and zoomed regions of the map. The words and the events told are
``bot.narration.armageddon``'s.

Discord-free: plain data (the engine's views, events and legal actions) and texts in the
reader's language. Seat 0 is the game master; seat ``p`` plays party ``p``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.i18n import t
from bot.narration.armageddon import (
    COLOUR_ICONS,
    DOMAIN,
    GM,
    GM_ICON,
    Words,
    has_phrase,
    map_text,
    narrate_events,
    phrase,
    round_line,
)
from bot.play.spec import Board, BoardContext, GameSpec, Option, Steps
from bot.render.armageddon import render_map
from bot.workers import render_async
from engines.armageddon import ENGINE
from engines.armageddon.actions import GERMAN
from engines.armageddon.engine import path_next, preview
from engines.armageddon.hexmap import field_name
from engines.armageddon.scenario import load, parse, scenario_names
from engines.core import BadInput, EngineError, Outcome
from engines.core import match as m

MAX_UPLOAD = 64_000  # bytes of a scenario file (the largest map, 40×40, is far below)
ZOOM_RADIUS = 3
PARTY_ARGS = {  # the places of a party number in a click path: verb -> argument positions
    "place": (1,),
    "colour": (1,),
    "ally": (1, 2),
    "give": (2,),
    "lend": (2,),
    "permit": (2,),
}
WHOLE_STEPS = 75  # a figure's step as one pick of figure and field up to this many (3 menus)
DIRECT_VERBS = ("end", "done", "attack", "start", "colour")  # offered whole beside the verbs
DIRECT_MAX = 25
_HEX = {
    "rot": 0xD62728,
    "blau": 0x0072B2,
    "gruen": 0x009E73,
    "gelb": 0xF0E442,
    "lila": 0xCC79A7,
    "orange": 0xFF9F1C,
    "weiss": 0xF5F5F5,
    "schwarz": 0x303030,
}


# ------------------------------------------------------------------------ the spec


class ArmageddonSpec(GameSpec):
    kind = "armageddon"
    prefix = "armag"
    texts = DOMAIN
    continue_prompt = True  # a turn is many steps: the private prompt goes on after each
    neutral_seats = frozenset({GM})  # the game master referees: no draw offer, no resign
    _last_view: tuple[Any, Mapping[str, Any]] | None = None

    def seat_label(self, seat: int) -> str:
        return GM_ICON if seat == GM else f"⚔️ {seat}"

    def rematch_order(self, clicker: int, seats: int) -> list[int]:
        """A rematch keeps every seat: the game master leads again (and hosts), the parties
        keep theirs, whoever clicked."""
        return list(range(seats))

    def public_view(self, state: Any) -> Mapping[str, Any]:
        """The spectator's view of ``state``, built once per state (a board asks often)."""
        cached = self._last_view
        if cached is not None and cached[0] is state:
            return cached[1]
        view = ENGINE.view_for(state, None)
        self._last_view = (state, view)
        return view

    def words(self, ctx: BoardContext) -> Words:
        return Words(self.public_view(ctx.match.state), ctx.names, ctx.lang)

    async def board(self, ctx: BoardContext) -> Board:
        board = await super().board(ctx)
        board.footer = phrase("footer", ctx.lang) if ctx.outcome is None else ""
        colour = self.words(ctx).colours.get(ctx.match.state.active, "")
        board.colour = _HEX.get(colour)
        return board

    async def render(self, view: Mapping[str, Any], ctx: BoardContext) -> bytes | None:
        text = map_text(view, ctx.names, ctx.lang, ctx.record.id)
        return await render_async(render_map, view, text)

    def players_line(self, ctx: BoardContext) -> str:
        w = self.words(ctx)
        parts = []
        for seat, player in enumerate(ctx.record.players):
            gone = " ✖" if seat in ctx.match.eliminated else ""
            icon = GM_ICON if seat == GM else COLOUR_ICONS.get(w.colours.get(seat, ""), "⚔️")
            parts.append(f"{icon} {seat or ''} <@{player}>{gone}".replace("  ", " "))
        return "  ·  ".join(parts)

    def status(self, ctx: BoardContext) -> str:
        outcome = ctx.outcome
        if outcome is not None:
            return self.outcome_text(outcome, ctx)
        view = self.public_view(ctx.match.state)
        w = Words(view, ctx.names, ctx.lang)
        waiting = [d for d in m.decisions(ENGINE, ctx.match) if d.waits]
        head = round_line(view, ctx.lang)
        if not waiting:
            return head
        who = ", ".join(w.party(d.seat) for d in waiting)
        lines = [f"{head} · {phrase('status.to_act', ctx.lang, names=who)}"]
        lines.append(decision_text(waiting[0].prompt, waiting[0].params, w))
        if view["phase"] != "setup" and GM not in ctx.match.eliminated:
            lines.append(phrase("status.gm_open", ctx.lang))
        return "\n".join(lines)

    def outcome_text(self, outcome: Outcome, ctx: BoardContext) -> str:
        w = self.words(ctx)
        if not has_phrase(f"reason.{outcome.reason}"):  # draw agreed, resign, forfeit: shared words
            return super().outcome_text(outcome, ctx)
        reason = phrase(f"reason.{outcome.reason}", ctx.lang, scores=w.scores())
        if outcome.is_draw:
            return "🤝 " + self.text("status.draw", ctx.lang, reason=reason)
        names = [w.party(s) for s in sorted(outcome.winners) if s != GM]
        return self.won_text(names, reason, ctx.lang)

    def narrate(self, steps: Steps, ctx: BoardContext) -> list[str]:
        shared = super().narrate
        return narrate_events(
            steps.items, self.words(ctx), lambda actor, event: shared(Steps([(actor, event)]), ctx)
        )

    # ---------------------------------------------------------------- clicking

    def prompt(self, ctx: BoardContext) -> str:
        w = self.words(ctx)
        mine = [d for d in m.decisions(ENGINE, ctx.match) if d.seat == ctx.seat]
        question = decision_text(mine[0].prompt, mine[0].params, w) if mine else ""
        lines = [question]
        if ctx.seat == GM and ctx.match.state.phase != "setup":
            lines.append(phrase("gm_hint", ctx.lang))
        path, tree = ctx.path, ctx.tree
        if path and tree is not None:
            chosen = " · ".join(option_label(tok, path[:i], w) for i, tok in enumerate(path))
            step = step_of(path, tree.options(path), w)
            lines.append(f"{chosen} → {phrase(f'step.{step}', ctx.lang)}")
        return "\n".join(line for line in lines if line)

    def options(self, ctx: BoardContext, path: tuple[str, ...], tokens: list[str]) -> list[Option]:
        w = self.words(ctx)
        out = []
        if tokens and _role(tokens[0], path, w) == "spell":  # alphabetical by what is shown
            tokens = sorted(tokens, key=lambda tok: option_label(tok, path, w).casefold())
        for token in tokens:
            label = option_label(token, path, w)
            if token == "ally" and not path and ctx.tree is not None:
                label = _only_alliance(ctx.tree, w) or label
            emoji = _option_emoji(token, path, w)
            style = (
                "primary" if not path and token not in ("end", "done", "refuse") else "secondary"
            )
            out.append(Option(token, label, emoji=emoji, style=style))
        return out

    def placeholder(self, path: tuple[str, ...], lang: str) -> str:
        return self.text("select.option", lang)

    def shortcuts(
        self, ctx: BoardContext, path: tuple[str, ...], steps: Sequence[tuple[str, ...]]
    ) -> list[int]:
        """A step is one pick of figure and field (once "step" is chosen; in the set-up a
        figure's kind and field once its party is); ending the phase, the attacks, a party's
        colour and the start are direct choices beside the verbs."""
        if path[:1] in (("step",), ("place",)) and len(steps) <= WHOLE_STEPS:
            return list(range(len(steps)))  # a figure and its field (set up: kind and field)
        if not path:
            direct = [i for i, step in enumerate(steps) if step[0] in DIRECT_VERBS]
            return direct if len(direct) <= DIRECT_MAX else []
        return []

    def step_option(
        self, ctx: BoardContext, path: tuple[str, ...], step: tuple[str, ...]
    ) -> Option:
        option = super().step_option(ctx, path, step)
        if step[0] in ("end", "done", "start"):
            return replace(option, style="secondary", select=False)
        return replace(option, select=True)

    # ---------------------------------------------------------------- listing and records

    def list_line(self, record: Any, match: m.Match | None, names: list[str], lang: str) -> str:
        line = super().list_line(record, match, names, lang)
        if match is None:
            return line
        view = self.public_view(match.state)
        return (
            f"{line} · {phrase('list.extra', lang, scenario=view['scenario'], round=view['round'])}"
        )

    async def export_extra(self, record: Any, data: dict[str, Any], log: list[Any]) -> None:
        """The game master's notes beside the log (they are also in the logged actions)."""
        notes = []
        last = ""  # a note typed afterwards (`gm note`) belongs to the last overrule
        for seat, text in log:
            action, sep, note = str(text).partition(" -- ")
            if seat != GM:
                continue
            if action == "gm note":
                action = last or action
            else:
                last = action
            if sep:
                notes.append({"action": action, "note": note})
        data["gm_notes"] = notes


SPEC = ArmageddonSpec()


# ------------------------------------------------------------------------ click labels


def decision_text(prompt: str, params: Mapping[str, Any], w: Words) -> str:
    """The engine's question of a decision, its parameters in words."""
    words: dict[str, Any] = dict(params)
    if "place" in words:
        words["place"] = w.place(str(words["place"]))
    if "claimer" in words:
        words["claimer"] = w.party(int(words["claimer"]))
    if "target" in words:
        words["target"] = w.target(str(words["target"]))
    if prompt == "armageddon.prompt.setup":
        return phrase("status.setup", w.lang) + "\n" + w.alliances()
    return t(prompt, w.lang, **words)


def _role(token: str, path: Sequence[str], w: Words) -> str:
    """What ``token`` names after ``path``: verb, gm, party, colour, kind, spell, direction,
    slot, figure, field, edge or other."""
    if not path:
        return "verb"
    verb, depth = path[0], len(path)
    if verb == "gm" and depth == 1:
        return "gm"
    if verb == "gm" and path[1] == "add" and depth in (2, 3):
        return "party" if depth == 2 else "kind"
    if verb == "gm" and path[1] == "restore" and depth == 2:
        return "fallen"
    if depth in PARTY_ARGS.get(verb, ()) or (
        verb == "gm" and path[1:2] == ("owner",) and depth == 3
    ):
        return "party"
    if verb == "colour" and depth == 2:
        return "colour"
    if verb == "place" and depth == 2:
        return "kind"
    if verb == "cast" and depth == 2:
        return "spell"
    if verb == "face" and depth == 2:
        return "direction"
    if verb == "mount" and depth == 3:
        return "slot"
    if verb == "siege" and depth == 1:
        return "stellung"
    if token in w.figures:
        return "figure"
    if token in w.fields:
        return "field"
    if "/" in token:
        return "edge"
    return "other"


def option_label(token: str, path: Sequence[str], w: Words) -> str:
    """The label of one click option."""
    role = _role(token, path, w)
    lang = w.lang
    if role == "verb":
        return phrase(f"verb.{token}", lang) if has_phrase(f"verb.{token}") else token
    if role == "gm":
        return phrase(f"gm.{token}", lang) if has_phrase(f"gm.{token}") else token
    if role == "party" and token.isdecimal() and path[:1] == ("ally",) and len(path) == 2:
        return w.alliance_option(int(path[1]), int(token))
    if role == "party" and token.isdecimal():
        return w.party(int(token))
    labels = {
        "colour": w.colour,
        "kind": w.kind,
        "spell": w.spell,
        "direction": w.direction,
        "slot": w.slot,
        "edge": w.edge,
        "field": w.field,
        "stellung": w.stellung,
    }
    if role == "figure":
        return w.figure(token, at=True)
    if role == "fallen":
        return w.fallen(token)
    if role in labels:
        label = str(labels[role](token))
        return label[:1].upper() + label[1:] if role == "spell" else label
    return token


def _only_alliance(tree: Any, w: Words) -> str:
    """The label of the one alliance click left (the table takes a single choice at once,
    so the button must say what it does), else ''."""
    firsts = tree.options(("ally",))
    seconds = tree.options(("ally", firsts[0])) if len(firsts) == 1 else []
    return w.alliance_option(int(firsts[0]), int(seconds[0])) if len(seconds) == 1 else ""


def _option_emoji(token: str, path: Sequence[str], w: Words) -> str | None:
    role = _role(token, path, w)
    if role == "party" and token.isdecimal():
        return COLOUR_ICONS.get(w.colours.get(int(token), ""))
    if role == "colour":
        return COLOUR_ICONS.get(token)
    if role == "figure":
        owner = int(w.figures[token]["owner"])
        return COLOUR_ICONS.get(w.colours.get(owner, ""))
    return None


def step_of(path: Sequence[str], options: Sequence[str], w: Words) -> str:
    """What the next click chooses (a key of ``step.*``)."""
    if not options:
        return "other"
    role = _role(options[0], path, w)
    if role in ("field", "edge") and path[:1] == ("cast",):
        return "target"  # a spell's target, not where to go
    return role if has_phrase(f"step.{role}") else "other"


# ------------------------------------------------------------------------ typing


def scenario_config(name: str | None, upload: tuple[str, bytes] | None) -> dict[str, Any]:
    """The engine config of a shipped scenario (``name``) or an uploaded file (name, bytes),
    validated: BadInput with the file and line of a mistake, in the reader's language."""
    if name and upload:
        raise BadInput(f"{DOMAIN}.error.two_sources")
    if upload is None:
        load(name or "scharmuetzel")  # an unknown name: BadInput naming the shipped ones
        return {"scenario": name or "scharmuetzel"}
    file, raw = upload
    file = file[:60] or "szenario.txt"
    if len(raw) > MAX_UPLOAD:
        raise BadInput(f"{DOMAIN}.error.too_big", max=MAX_UPLOAD // 1000)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BadInput(f"{DOMAIN}.error.not_text", file=file) from None
    parse(text, file)
    return {"scenario_text": text, "file": file}


def scenario_of(config: Mapping[str, Any]) -> tuple[str, int]:
    """The name and number of parties of a config's scenario (already validated)."""
    if "scenario_text" in config:
        sc = parse(str(config["scenario_text"]), str(config.get("file", "szenario")))
    else:
        sc = parse(*load(str(config["scenario"])))
    return sc.name, sc.parties


def scenario_choices(current: str) -> list[tuple[str, str]]:
    """(label, name) of the shipped scenarios matching what was typed."""
    typed = current.strip().casefold()
    out = []
    for name in scenario_names():
        sc = parse(*load(name))
        label = f"{sc.name} ({sc.parties}, {sc.cols}×{sc.rows})"
        if typed in label.casefold() or typed in name:
            out.append((label, name))
    return out


def scenario_summary(name: str, lang: str) -> tuple[str, str, Mapping[str, Any]]:
    """A shipped scenario: its head line, its text and its starting view (for a preview)."""
    text, file = load(name)
    sc = parse(text, file)
    head = phrase(
        "scenario.head",
        lang,
        name=sc.name,
        parties=sc.parties,
        rounds=sc.rounds,
        cols=sc.cols,
        rows=sc.rows,
    )
    return head, text, preview({"scenario": name})


def path_steps(path: str) -> list[str]:
    """``k3 c4 d4`` → ``step k3 c4``, ``step k3 d4`` (one figure over several fields)."""
    words = path.lower().replace(",", " ").replace("→", " ").split()
    if words[:1] in (["step"], ["schritt"]):
        words = words[1:]
    if len(words) < 2:
        raise BadInput(f"{DOMAIN}.error.bad_path")
    figure = words[0]
    return [f"step {figure} {field}" for field in words[1:]]


def path_completions(match: m.Match, seat: int, typed: str, limit: int = 25) -> list[str]:
    """Paths the seat may type now: the figures' legal steps, and after a path so far its
    legal next fields (the engine walks the path on a copy)."""
    words = typed.lower().replace(",", " ").split()
    done = words if typed.endswith(" ") else words[:-1]
    part = "" if typed.endswith(" ") or not words else words[-1]
    figure = done[0] if done else ""
    try:
        texts = path_steps(" ".join(done)) if len(done) >= 2 else []
        steps = path_next(match.state, seat, [ENGINE.parse_action(text) for text in texts], figure)
    except EngineError:  # an impossible path so far: nothing to offer
        return []
    out = []
    for step in steps:
        nxt = step.to if figure else f"{step.figure} {step.to}"
        if nxt.startswith(part) or (not figure and part and part in nxt):
            out.append(" ".join([*done, nxt]))
    return out[:limit]


def zoom_region(
    view: Mapping[str, Any], region: str | None, centre: str | None, radius: int | None
) -> tuple[str, str] | None:
    """The two corner fields of a zoom (None: the whole map). Raises BadInput for fields not
    on the map."""
    fields = {str(f["name"]): (int(f["col"]), int(f["row"])) for f in view["fields"]}
    if region:
        corners = region.lower().replace(",", " ").replace("-", " ").split()
        if len(corners) != 2 or not all(c in fields for c in corners):
            raise BadInput(f"{DOMAIN}.error.bad_region", region=region[:40])
        return corners[0], corners[1]
    if centre:
        name = centre.strip().lower()
        if name not in fields:
            raise BadInput(f"{DOMAIN}.error.bad_region", region=centre[:40])
        col, row = fields[name]
        r = ZOOM_RADIUS if radius is None else radius
        cols, rows = int(view["size"][0]), int(view["size"][1])
        a = field_name(max(0, col - r), max(0, row - r))
        b = field_name(min(cols - 1, col + r), min(rows - 1, row + r))
        return a, b
    return None


def overrule_text(action: str, note: str) -> str:
    """The game master's overrule in notation: ``gm <what> … -- <note>``."""
    words = action.split(" -- ")[0].lower().split()
    if words[:1] and GERMAN.get(words[0], words[0]) == "gm":  # `sl`, `spielleitung`: German
        words = words[1:]
    words = ["gm", *words]
    if len(words) < 2:  # `gm undo` is the shortest
        raise BadInput(f"{DOMAIN}.error.gm_action")
    clean = " ".join(note.split())
    if not clean:
        raise BadInput(f"{DOMAIN}.error.no_note")
    return f"{' '.join(words)} -- {clean}"


def note_text(note: str) -> str:
    """A note to the game master's last overrule, in notation: ``gm note -- <note>``."""
    clean = " ".join(note.split())
    if not clean:
        raise BadInput(f"{DOMAIN}.error.no_note")
    return f"gm note -- {clean}"


async def map_image(
    view: Mapping[str, Any],
    names: Sequence[str],
    lang: str,
    game_id: int,
    region: tuple[str, str] | None = None,
) -> bytes:
    """The map of a game, whole or zoomed into ``region`` (rendered off the event loop)."""
    text = map_text(view, names, lang, game_id)
    if region is not None:
        zoom = phrase("map.zoom", lang, a=region[0], b=region[1])
        text = replace(text, title=f"{text.title} · {zoom}")
    return await render_async(render_map, view, text, region)
