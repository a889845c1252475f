"""W6 cogs in-process against the fake Discord: one combat step with 10 participants (the
interaction pushed over the websocket → the real bot → the callback with narration, status
embed and buttons back at the fake), one redraw of a technique form (a choice in the
Gezielte-Attacke form: decode the custom_id, preview the Erschwernis, draw the selects), and
the sheet image render time.

Targets: combat step p99 < 100 ms; form redraw p99 < 50 ms (no store write); sheet render
p99 < 250 ms (it runs in a worker thread).
"""

from __future__ import annotations

import time
from typing import Any

from bench.common import Figure, latency_figures, time_ms
from bot.render.sheet import render_sheet
from bot.sandbox.fake_discord import FakeDiscord, StoredMessage

CYCLES = 40
FIGHTERS = 10
STEP_TARGET_P99_MS = 100.0
RENDER_TARGET_P99_MS = 250.0
RENDER_RUNS = 30
FORM_TARGET_P99_MS = 50.0
GM = "bench-gm"


def _sheet(name: str, ab: int) -> dict[str, Any]:
    return {
        "schema": "w6.sheet",
        "version": 1,
        "name": name,
        "rasse": "Mensch",
        "pm": {"K": 4, "G": 3, "M": 3, "B": 3},
        "eigenschaften": {"Geschick": 4, "Intuition": ab % 4, "Kraft": 5, "Wahrnehmung": 3},
        "fertigkeiten": {"Schwerter": 2, "Zähigkeit": 1},
        "lp": 900,
        "lp_max": 900,
        "rlp": 5,
        "kw": 12,
        "reflex": 4,
        "ab": ab,
        "handlungen": [4, 6, 9],
        "waffen": [
            {
                "name": "Schwert",
                "fertigkeit": "Schwerter",
                "schaden": "1-2",
                "zusatz": "K",
                "cap": 3,
            },
        ],
        "ruestung": [{"name": "Kettenhemd", "zone": "Torso", "rs": 6, "be": 2}],
    }


async def _setup(fake: FakeDiscord, bot: Any) -> None:
    await (await fake.slash("kampagne start", {"name": "Bench"}, user=GM)).callback()
    campaign = await bot.store.active_campaign(fake.channel().id)
    for index in range(FIGHTERS):
        owner = None if index % 2 else fake.user(f"spieler{index}").id
        data = _sheet(f"Held{index}", 3 + index)
        await bot.store.create_character(
            campaign_id=campaign.id, owner_id=owner, name=data["name"], sheet=data
        )
    await (await fake.slash("kampf start", user=GM)).callback()
    for index in range(FIGHTERS):
        await (await fake.slash("kampf dazu", {"charakter": f"Held{index}"}, user=GM)).callback()
    await (await fake.slash("kampf beginnen", user=GM)).callback()


async def _now(bot: Any, fake: FakeDiscord) -> tuple[str, list[str]]:
    from bot.combat import active_combat, unpack
    from engines.w6 import to_act

    state = unpack(await active_combat(bot.store, fake.channel().id)).state
    return state.current, sorted(to_act(state))


def _button(message: StoredMessage, code: str, fighter: str) -> str:
    return next(c for c in message.custom_ids if c.split(":")[3:5] == [code, fighter])


async def _timed(samples: list[float], push: Any) -> StoredMessage:
    start = time.perf_counter()
    ex = await push
    await ex.callback(timeout=10)
    samples.append((time.perf_counter() - start) * 1000)
    message: StoredMessage = await ex.message(timeout=10)
    return message


async def _combat_steps(fake: FakeDiscord, bot: Any) -> list[float]:
    """Per cycle: the current fighter attacks the next one (command), the defender takes it
    (button), the attacker is done for the phase (button)."""
    samples: list[float] = []
    for _ in range(CYCLES):
        current, _acting = await _now(bot, fake)
        from bot.combat import active_combat, unpack

        order = unpack(await active_combat(bot.store, fake.channel().id)).state.order
        target = order[(order.index(current) + 1) % len(order)]
        attacked = await _timed(
            samples,
            fake.slash("kampf angriff", {"angreifer": current, "ziel": target, "kw": 3}, user=GM),
        )
        if any(c.split(":")[3:5] == ["keine", target] for c in attacked.custom_ids):
            attacked = await _timed(
                samples, fake.click(attacked, _button(attacked, "keine", target), user=GM)
            )
        await _timed(samples, fake.click(attacked, _button(attacked, "fertig", current), user=GM))
    return samples


# ----------------------------------------------------------------------------- messages per click


def tally(requests: list[Any]) -> dict[str, int]:
    """What the bot sent in ``requests`` (the fake's record): new public and private
    messages (interaction answers, followups, channel posts) and images uploaded publicly
    (with a new message or an edit)."""
    counts = {"public": 0, "private": 0, "images": 0}
    for request in requests:
        body = request.json if isinstance(request.json, dict) else {}
        path, method = request.path, request.method
        new = False
        flags = 0
        if method == "POST" and path.startswith("/interactions/") and path.endswith("/callback"):
            new = body.get("type") in (4, 5)
            flags = int((body.get("data") or {}).get("flags") or 0)
        elif method == "POST" and path.startswith("/webhooks/"):
            new, flags = True, int(body.get("flags") or 0)
        elif method == "POST" and path.startswith("/channels/") and path.endswith("/messages"):
            new = True
        if method == "PATCH" and request.files:
            counts["images"] += len(request.files)
        if new:
            counts["private" if flags & 64 else "public"] += 1
            if not flags & 64:
                counts["images"] += len(request.files)
    return counts


def _side(state: Any, fighter_id: str) -> bool:
    return state.fighter(fighter_id).owner is None


async def scripted_phase(fake: FakeDiscord, bot: Any, attacks: int, gm: str = GM) -> dict[str, Any]:
    """One combat phase played by clicks on the tracker as a table would (the GM clicks for
    everyone): ``attacks`` plain attacks across the sides (the target chosen on the tracker →
    combat dice in the private prompt; the defender's answer on the tracker), then every
    fighter is done. Returns the clicks and what the bot sent (``tally``) during the phase."""
    from bot.combat import active_combat, unpack
    from engines.w6 import to_act

    async def now() -> tuple[Any, StoredMessage]:
        record = await active_combat(bot.store, fake.channel().id)
        assert record is not None
        return unpack(record).state, fake.messages[int(record.display["tracker"]["message"])]

    state, board = await now()
    phase, start, clicks, made = state.phase, len(fake.requests), 0, 0
    attack_clicks = 0
    while state.phase == phase:
        pending = state.pending
        if pending is not None:
            fid = sorted(to_act(state))[0]
            if pending.stage == "abwehr" and _side(state, fid):  # an NPC: the GM's prompt
                ask = await fake.click(board, _button(board, "npc", fid), user=gm)
                prompt = await ask.message()
                ex = await fake.select(prompt, _button(prompt, "abwehr", fid), ["2"], user=gm)
                clicks += 1
            elif pending.stage == "abwehr":
                ex = await fake.select(board, _button(board, "abwehr", fid), ["2"], user=gm)
            else:
                code = {"entscheidung": "wuerfeln", "nachschlagen": "verzichten",
                        "reihenfolge": "zuerst", "rundum": "abbruch"}[pending.stage]  # fmt: skip
                ex = await fake.click(board, _button(board, code, fid), user=gm)
            clicks += 1
        elif made < attacks and state.current:
            attacker = state.current
            target = next(
                f.id
                for f in state.fighters
                if f.able and _side(state, f.id) != _side(state, attacker)
            )
            pick = _button(board, "zatk", attacker)  # the target, on the tracker
            menu = await (await fake.select(board, pick, [target], user=gm)).message()
            kw = next(c for c in menu.custom_ids if c.split(":")[3] == "kwatk")
            ex = await fake.select(menu, kw, ["3"], user=gm)  # the dice, privately
            clicks, made, attack_clicks = clicks + 2, made + 1, attack_clicks + 2
            await ex.settle(quiet=0.02)
            state, board = await now()
            assert state.pending is not None, "the attack took more than its clicks"
            continue
        else:
            fid = state.current or sorted(to_act(state))[0]
            ex = await fake.click(board, _button(board, "fertig", fid), user=gm)
            clicks += 1
        await ex.settle(quiet=0.02)
        state, board = await now()
    per_attack = attack_clicks / made if made else 0.0
    return {"clicks": clicks, "attacks": made, "attack_clicks": per_attack,
            **tally(fake.requests[start:])}  # fmt: skip


async def _form_redraws(fake: FakeDiscord, bot: Any) -> list[float]:
    """The current fighter opens the Gezielte-Attacke form, then picks zones in turn: each
    pick is one redraw of the ephemeral form (callback type 7)."""
    status = await (await fake.slash("kampf status", user=GM)).message()
    current, _ = await _now(bot, fake)
    menu = await (await fake.click(status, _button(status, "tech", current), user=GM)).message()
    chooser = next(c for c in menu.custom_ids if c.split(":")[3] == "tsel")
    await (await fake.select(menu, chooser, ["gezielt"], user=GM)).callback()
    samples: list[float] = []
    for cycle in range(CYCLES):
        zone = next(c for c in menu.custom_ids if c.split(":")[3] == "fset" and c.endswith(":z"))
        start = time.perf_counter()
        await (await fake.select(menu, zone, [str(cycle % 5)], user=GM)).callback(timeout=10)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def _render_samples() -> list[float]:
    from bot.play.specs.w6_sheet import sheet_view
    from bot.store.base import CharacterRecord
    from engines.w6 import sheet_from_json

    data = _sheet("Thoin Donnerschild", 6)
    record = CharacterRecord(1, 1, 1, data["name"], data, 0)
    view = sheet_view(record, sheet_from_json(data), "de")
    return time_ms(lambda: render_sheet(view), RENDER_RUNS, warmup=3)


CLICKS_PER_STEP_TARGET = 2  # issue #19: at most two clicks for a common step
PHASE_FIGHTERS = 6
PHASE_ATTACKS = 4
PUBLIC_PER_CLICK_TARGET = 0.1  # issue #19: the channel is never flooded
IMAGES_PER_CLICK_TARGET = 1.0


async def _phase_figures() -> list[Figure]:
    """A scripted combat on a fresh bot: 6 fighters (2 players, 4 NPCs), one phase with 4
    attacks by clicks; new public messages, private messages and images per click."""
    from tests.harness import bot_on_fake

    async with bot_on_fake() as (fake, bot):
        await (await fake.slash("kampagne start", {"name": "Bench"}, user=GM)).callback()
        campaign = await bot.store.active_campaign(fake.channel().id)
        for index in range(PHASE_FIGHTERS):
            owner = fake.user(f"spieler{index}").id if index < 2 else None
            data = _sheet(f"Held{index}", 3 + index)
            await bot.store.create_character(
                campaign_id=campaign.id, owner_id=owner, name=data["name"], sheet=data
            )
        await (await fake.slash("kampf start", user=GM)).message()
        for index in range(PHASE_FIGHTERS):
            await (await fake.slash("kampf dazu", {"charakter": f"Held{index}"}, user=GM)).message()
        await (await fake.slash("kampf beginnen", user=GM)).message()
        counts = await scripted_phase(fake, bot, PHASE_ATTACKS)
    clicks = max(1, counts["clicks"])
    label = f"W6 phase, {PHASE_FIGHTERS} fighters, {PHASE_ATTACKS} attacks, {clicks} clicks:"
    print(
        f"{label} {counts['public']} public messages, {counts['private']} private, "
        f"{counts['images']} images ({counts['public'] / clicks:.2f} / "
        f"{counts['private'] / clicks:.2f} / {counts['images'] / clicks:.2f} per click)"
    )
    return [
        Figure("W6 combat: new public messages per click", counts["public"] / clicks, "msg",
               PUBLIC_PER_CLICK_TARGET),
        Figure("W6 combat: new private messages per click", counts["private"] / clicks, "msg"),
        Figure("W6 combat: images per click", counts["images"] / clicks, "img",
               IMAGES_PER_CLICK_TARGET),
        Figure("W6 combat: clicks per plain attack", counts["attack_clicks"], "clicks",
               CLICKS_PER_STEP_TARGET),
    ]  # fmt: skip


async def run() -> list[Figure]:
    from tests.harness import bot_on_fake

    figures: list[Figure] = await _phase_figures()
    async with bot_on_fake() as (fake, bot):
        await _setup(fake, bot)
        samples = await _combat_steps(fake, bot)
        figures += latency_figures(
            f"/kampf step, {FIGHTERS} fighters → callback", samples, STEP_TARGET_P99_MS
        )
        redraws = await _form_redraws(fake, bot)
        figures += latency_figures(
            f"/kampf technique form redraw, {FIGHTERS} fighters", redraws, FORM_TARGET_P99_MS
        )
    figures += latency_figures("sheet image render", _render_samples(), RENDER_TARGET_P99_MS)
    return figures
