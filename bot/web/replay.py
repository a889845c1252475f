"""Replays of the table games: a stored game's action log replayed step by step
(``engines.core.record.walk``), each step drawn and narrated by the
game's own spec (``GameSpec.board``: the public board, never a secret), and an animated GIF of
the whole game for the companion and for ``/… replay`` in Discord.

A finished game shows its full record to anyone of its server; a running one only to its
players, with the actions secret to their seats hidden (``SecretActions``), and what their own
seat may see beside the board (``GameSpec.private_text`` of ``view_for`` their seat).
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from PIL import Image

from bot.games import ACTIVE, FINISHED, SERVICE_KEYS, Turn, engine_of
from bot.play.spec import BoardContext, GameSpec, Steps
from bot.store.base import GameRecord
from engines.core import Event, IllegalAction
from engines.core import match as m
from engines.core.record import walk

GIF_SECONDS = 6.0  # the whole replay, whatever its length
GIF_MAX_BYTES = 8 * 1024 * 1024
GIF_WIDTH = 480
GIF_MAX_FRAMES = 80  # more steps: evenly sampled (the first and last always shown)
FRAME_MS = (120, 900)
_MENTION = re.compile(r"<@!?(\d+)>")


@cache
def specs() -> dict[str, GameSpec]:
    """Every table game's spec by engine name (the games a replay can show)."""
    from bot.play.specs import armageddon, essence, felsenfeuer, telperinquar, telperinquar_draft

    found = (armageddon.SPEC, essence.SPEC, felsenfeuer.SPEC, telperinquar.SPEC)
    return {spec.kind: spec for spec in (*found, telperinquar_draft.SPEC)}


@dataclass
class Step:
    seat: int
    action: str | None  # None: secret to the viewer
    match: m.Match
    events: list[Event]


@dataclass
class Replay:
    """A game replayed for one viewer (``seat``: theirs in a running game, else None)."""

    record: GameRecord
    spec: GameSpec
    seat: int | None
    names: list[str]
    start: m.Match
    steps: list[Step] = field(default_factory=list)

    @property
    def count(self) -> int:
        """Positions: the start and one after each step."""
        return len(self.steps) + 1

    def match_at(self, index: int) -> m.Match:
        return self.start if index == 0 else self.steps[index - 1].match


def viewer_seat(record: GameRecord, user_id: int) -> int | None:
    """The seat a viewer may see from: their own in a running game (a finished one is shown
    to everyone alike). Raises IllegalAction for someone outside a running game."""
    if record.status == FINISHED:
        return None
    if record.status != ACTIVE or user_id not in record.players:
        raise IllegalAction("error.not_a_player")
    return record.players.index(user_id)


def replayable(record: GameRecord) -> bool:
    return record.kind in specs() and record.status in (ACTIVE, FINISHED)


def build(record: GameRecord, log: Sequence[tuple[int, str]], seat: int | None) -> Replay:
    """Replay ``log`` (CPU work: run it off the event loop)."""
    spec = specs()[record.kind]
    engine = engine_of(record)
    config = {k: v for k, v in record.config.items() if k not in SERVICE_KEYS}
    reader = None if record.status == FINISHED else () if seat is None else (seat,)
    start, walked = walk(engine, config, record.seed, len(record.players), log, reader)
    names = list(record.display.get("names") or [])
    if len(names) != len(record.players):
        names = [spec.seat_label(s) for s in range(len(record.players))]
    replay = Replay(record, spec, seat, names, start)
    replay.steps += [Step(w.seat, w.action, w.match, list(w.events)) for w in walked]
    return replay


def _context(replay: Replay, index: int, lang: str, bot_id: int) -> BoardContext:
    match = replay.match_at(index)
    steps = Steps()
    if index > 0:
        step = replay.steps[index - 1]
        steps.add(Turn(replay.record, match, step.events, step.seat))
    record = replay.record
    if index < replay.count - 1:  # the game went on from here: the board names who was to act
        record = replace(record, status=ACTIVE)
    return BoardContext(record, match, replay.names, lang, bot_id, steps=steps)


def unmention(text: str, replay: Replay) -> str:
    """``<@id>`` of a player as their name (a page pings nobody and knows no Discord names)."""

    def name(found: re.Match[str]) -> str:
        user = int(found.group(1))
        players = replay.record.players
        return replay.names[players.index(user)] if user in players else "@?"

    return _MENTION.sub(name, text)


@dataclass
class Shown:
    """One position as the page shows it."""

    lines: list[str]
    image: bytes | None
    private: str


async def show(replay: Replay, index: int, lang: str, bot_id: int = 0) -> Shown:
    """The board after step ``index`` (0: the start): its image and words, and what the
    viewer's own seat saw then."""
    ctx = _context(replay, index, lang, bot_id)
    board = await replay.spec.board(ctx)
    lines = [unmention(line, replay) for line in board.lines]
    private = ""
    if replay.seat is not None:
        engine = engine_of(replay.record)
        view = engine.view_for(ctx.match.state, replay.seat)
        private = replay.spec.private_text(view, lang)
    return Shown(lines, board.image, unmention(private, replay))


async def check_replay(record: GameRecord, user_id: int, lang: str, bot_id: int = 0) -> None:
    """Whether ``user_id`` may have ``record`` played back as a GIF, decided quickly (before a
    command defers, so a refusal stays private): raises IllegalAction for a game that has not
    begun, a running one for someone outside it, a game that draws no board."""
    if not replayable(record):
        raise IllegalAction("web.replay.not_started")
    seat = viewer_seat(record, user_id)
    start = await show(build(record, (), seat), 0, lang, bot_id)
    if start.image is None:
        raise IllegalAction("web.replay.no_board")


async def gif_for(
    store: Any, record: GameRecord, user_id: int, lang: str, bot_id: int = 0
) -> tuple[bytes, int]:
    """The replay GIF of ``record`` as ``user_id`` may see it, and its step count (``/…
    replay``, after :func:`check_replay`)."""
    seat = viewer_seat(record, user_id)
    log = await store.game_actions(record.id)
    from bot.workers import run_heavy

    replay = await run_heavy(build, record, log, seat)
    data = await gif(replay, lang, bot_id)
    if data is None:
        raise IllegalAction("web.replay.no_board")
    return data, len(replay.steps)


def sampled(count: int, limit: int = GIF_MAX_FRAMES) -> list[int]:
    """At most ``limit`` of the positions 0..count-1, evenly spread, first and last kept."""
    if count <= limit:
        return list(range(count))
    step = (count - 1) / (limit - 1)
    return sorted({round(i * step) for i in range(limit)})


async def gif(replay: Replay, lang: str, bot_id: int = 0) -> bytes | None:
    """The replay as an animated GIF of a few seconds (None: the game draws no board)."""
    images: list[bytes] = []
    for index in sampled(replay.count):
        shown = await show(replay, index, lang, bot_id)
        if shown.image is None:
            return None
        images.append(shown.image)
    from bot.workers import run_heavy

    return await run_heavy(animate, images)


def animate(pngs: Sequence[bytes], max_bytes: int = GIF_MAX_BYTES, width: int = GIF_WIDTH) -> bytes:
    """PNG frames as one looping GIF, the last frame held longer; smaller (then fewer frames)
    until it fits ``max_bytes``."""
    frames = list(pngs)
    while True:
        data = _encode(frames, width)
        if len(data) <= max_bytes or (width <= 160 and len(frames) <= 2):
            return data
        if width > 160:
            width = width * 3 // 4
        else:
            frames = frames[::2] + ([frames[-1]] if len(frames) % 2 == 0 else [])


def _encode(pngs: Sequence[bytes], width: int) -> bytes:
    scaled: list[Image.Image] = []
    size: tuple[int, int] | None = None  # every frame as large as the first
    for png in pngs:
        with Image.open(io.BytesIO(png)) as opened:
            image = opened.convert("RGB")
        if size is None:
            scale = min(1.0, width / image.width)
            size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        if image.size != size:
            image = image.resize(size, Image.Resampling.BILINEAR)
        scaled.append(image)
    # one palette for every frame, from the first, middle and last (quick, and no flicker)
    samples = [scaled[0], scaled[len(scaled) // 2], scaled[-1]]
    sheet = Image.new("RGB", (samples[0].width, samples[0].height * len(samples)))
    for i, sample in enumerate(samples):
        sheet.paste(sample, (0, i * sample.height))
    palette = sheet.quantize(colors=128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    images = [frame.quantize(palette=palette, dither=Image.Dither.NONE) for frame in scaled]
    per_frame = int(min(max(GIF_SECONDS * 1000 / len(images), FRAME_MS[0]), FRAME_MS[1]))
    durations = [per_frame] * len(images)
    durations[-1] = max(per_frame, 2000)
    out = io.BytesIO()
    first, rest = images[0], images[1:]
    first.save(
        out,
        format="GIF",
        save_all=True,
        append_images=rest,
        duration=durations,
        loop=0,
        optimize=True,
        disposal=1,
    )
    return out.getvalue()
