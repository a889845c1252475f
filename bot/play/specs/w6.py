"""The messages of ``/kampf``: the status (embed, image and the buttons of whoever must act
now), the private menus (one fighter's buttons, techniques, targets, attack dice) and the
distance modal. The words live in ``bot.narration.combat_text``; who may click and which
decision a button answers in ``bot.combat``.

Buttons use ``kf:<game>:<token>:<code>:<fighter>[:<target>]`` (the token: see
``bot.combat``); views are made for sending (``bot.play.ui.make_view``), every click is
routed by its ``custom_id``.
"""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.combat import (
    Loaded,
    acting,
    attack_targets,
    decision_token,
    fighter_label,
    fighter_token,
    reflex_ready,
)
from bot.components import custom_id
from bot.games import engine_of, load
from bot.i18n import t
from bot.narration.combat_text import image_text, status_text
from bot.narration.w6 import EMBED_COLOUR, tc
from bot.play.ui import MAX_ROWS, button, make_view
from bot.render.combat import render_combat
from bot.store.base import GameRecord
from bot.workers import render_async
from engines.core import BadInput
from engines.core import match as m
from engines.w6 import CombatState, technique_options, verbs_for
from engines.w6.combat import kw_defence_allowed
from engines.w6.state import Fighter

PREFIX = "kf"
MAX_SELECT = 25
IMAGE_NAME = "kampf.png"
STAGE_ROWS = {
    "abwehr": 2, "entscheidung": 1, "ansage": 1, "rundum": 2, "nachschlagen": 1, "reihenfolge": 1,
}  # fmt: skip

Rows = list[list[discord.ui.Item[Any]]]


def status_embed(view: dict[str, Any], lang: str) -> discord.Embed:
    """The status of a combat as ``view`` (a ``view_for``) shows it."""
    title, description, footer = status_text(view, lang)
    embed = discord.Embed(title=title, description=description)
    embed.colour = EMBED_COLOUR
    embed.set_footer(text=footer)
    return embed


def gm_embed(loaded: Loaded, lang: str) -> discord.Embed:
    """The status with the NPCs' values, for the GM."""
    return status_embed(engine_of(loaded.record).view_for(loaded.state, 0), lang)


def gm_view(loaded: Loaded, lang: str) -> dict[str, Any]:
    """The GM view (``send`` arguments): the status with the NPCs' values and, while an NPC
    may roll its Reflex, the reflex button, which the public tracker keeps for players'
    fighters (an NPC's Reflexwürfel are the GM's)."""
    state, match = loaded.state, load(loaded.record)
    ready = [
        f
        for f in state.fighters
        if f.owner is None and f.reflex > 0 and "reflex" in verbs_for(state, f.id)
    ]
    rows: Rows = []
    token = decision_token(match, 0, None, "r") or (
        fighter_token(match, ready[0].id) if ready else ""
    )
    if ready and token:
        rfx = custom_id(PREFIX, loaded.record.id, token, "rfx", "alle")
        rows.append([button(t("w6cog.btn.reflex_any", lang), rfx)])
    return {"embed": gm_embed(loaded, lang), "view": make_view(rows)}


async def status_image(record: GameRecord, lang: str) -> discord.File:
    """The status image (``bot.render.combat``) of ``view_for(None)``, drawn off the loop."""
    view = engine_of(record).view_for(load(record).state, None)
    png = await render_async(render_combat, view, image_text(view, lang))
    return discord.File(io.BytesIO(png), filename=IMAGE_NAME)


async def tracker_parts(
    record: GameRecord, lang: str
) -> tuple[discord.Embed, bytes, discord.ui.View]:
    """The tracker's status: the public embed (its image ``attachment://kampf.png``), the
    image's PNG and the components of whoever must act now."""
    view = engine_of(record).view_for(load(record).state, None)
    embed = status_embed(view, lang)
    embed.set_image(url=f"attachment://{IMAGE_NAME}")
    png = await render_async(render_combat, view, image_text(view, lang))
    return embed, png, status_components(record, lang)


def image_file(png: bytes) -> discord.File:
    return discord.File(io.BytesIO(png), filename=IMAGE_NAME)


async def public_status(record: GameRecord, lang: str) -> dict[str, Any]:
    """The ``send`` arguments of the status everyone sees (``view_for(None)``: no NPC
    values): the embed with its image, the components."""
    embed = status_embed(engine_of(record).view_for(load(record).state, None), lang)
    embed.set_image(url=f"attachment://{IMAGE_NAME}")
    return {
        "embed": embed,
        "file": await status_image(record, lang),
        "view": status_components(record, lang),
    }


def _kw_select(cid: str, kw_left: int, placeholder: str, lang: str) -> discord.ui.Select[Any]:
    options = [
        discord.SelectOption(label=tc("w6cog.combat.kw_option", lang, kw=n), value=str(n))
        for n in range(min(kw_left, MAX_SELECT - 1) + 1)
    ]
    return discord.ui.Select(custom_id=cid, placeholder=placeholder[:150], options=options)


def _select(cid: str, placeholder: str, options: list[discord.SelectOption]) -> Any:
    return discord.ui.Select(custom_id=cid, placeholder=placeholder[:150], options=options)


NPC_PROMPT_STAGES = ("abwehr", "ansage", "rundum")  # answers whose select counts KW left


def fighter_rows(
    state: CombatState, fighter_id: str, cid: Any, lang: str, *, private: bool = False
) -> Rows:
    """The buttons and selects of one fighter who must or may act now; every button names
    the fighter. On the public tracker (not ``private``) an NPC's answer that would show its
    KW left (a select of 0 … KW) or its Reflexwürfel is one button that opens the GM's
    private prompt with them (``npc``); "keine Abwehr" stays on the tracker."""
    fighter = state.fighter(fighter_id)
    name, pending = fighter.name, state.pending
    if not private and fighter.owner is None and pending and pending.stage in NPC_PROMPT_STAGES:
        ask = button(t(f"w6cog.btn.npc.{pending.stage}", lang, name=name),
                     cid("npc", fighter_id), "primary")  # fmt: skip
        if pending.stage == "abwehr":
            return [[ask, button(t("w6cog.btn.no_defence", lang, name=name),
                                 cid("keine", fighter_id))]]  # fmt: skip
        return [[ask]]

    def named(key: str) -> str:
        return f"{name}: {t(key, lang)}"

    def kw(code: str, key: str) -> discord.ui.Select[Any]:
        return _kw_select(cid(code, fighter_id), fighter.kw_left, t(key, lang, name=name), lang)

    def on(code: str, label: str, style: str = "secondary") -> discord.ui.Item[Any]:
        return button(label, cid(code, fighter_id), style)

    reflex_dice = fighter.reflex > 0 and not fighter.reflex_used
    if pending is None:
        # the plain attack's target is chosen right here (the dice follow privately): two
        # clicks; a player's view of an NPC target names its LP in words
        targets = attack_targets(state, fighter_id)
        gm = private and fighter.owner is None
        options = [
            discord.SelectOption(label=fighter_label(f, lang, gm=gm)[:100], value=f.id)
            for f in targets[:MAX_SELECT]
        ]
        attack = t("w6cog.btn.attack", lang, name=name)
        rows: Rows = [[_select(cid("zatk", fighter_id), attack, options)]] if options else []
        row = [] if options else [on("atk", attack, "danger")]
        if technique_options(state, fighter_id):
            row.append(on("tech", named("w6cog.btn.technique"), "primary"))
        if state.current == fighter_id:  # only the fighter whose turn it is holds (weiter)
            row.append(on("weiter", named("w6cog.btn.hold")))
        row.append(on("fertig", named("w6cog.btn.done")))
        if reflex_dice and (private or fighter.owner is not None):
            # an NPC's Reflexwürfel are the GM's: its reflex is in the GM view, not public
            row.append(on("reflex", named("w6cog.btn.reflex")))
        return [*rows, row]
    if pending.stage == "abwehr":
        answers = [on("keine", t("w6cog.btn.no_defence", lang, name=name))]
        if reflex_dice:
            answers.append(on("refabw", named("w6cog.btn.reflex_defence")))
        if not kw_defence_allowed(state, fighter):  # a ranged attack only the Reflex answers
            return [answers]
        if fighter.kw_left <= 0 and not (fighter.schild and fighter.schild.kw_bonus):
            return [answers]  # "0 KW" would roll nothing: no select (a shield's dice would)
        return [[kw("abwehr", "w6cog.btn.defend")], answers]
    if pending.stage == "entscheidung":
        return [[on("wuerfeln", t("w6cog.btn.roll", lang, name=name), "primary"),
                 on("zurueckweichen", named("w6cog.btn.retreat"))]]  # fmt: skip
    if pending.stage == "ansage":
        return [[kw("ansage", "w6cog.btn.announce")]]
    if pending.stage == "rundum":
        return [
            [kw("rundum_weiter", "w6cog.btn.sweep_on")],
            [on("abbruch", named("w6cog.btn.abort"))],
        ]
    if pending.stage == "nachschlagen":
        return [[on("nachschlagen", t("w6cog.btn.follow", lang, name=name), "danger"),
                 on("verzichten", named("w6cog.btn.skip"))]]  # fmt: skip
    if pending.stage == "reihenfolge":  # the tie of the AB: the higher Intuition chooses
        return [[on("zuerst", named("w6cog.btn.first"), "primary"),
                 on("danach", named("w6cog.btn.after"))]]  # fmt: skip
    return []


def _fighter_cid(record: GameRecord, match: m.Match) -> Any:
    def cid(code: str, fighter_id: str, *args: object) -> str:
        return custom_id(PREFIX, record.id, fighter_token(match, fighter_id), code, fighter_id,
                         *args)  # fmt: skip

    return cid


def status_components(record: GameRecord, lang: str) -> discord.ui.View:
    """Buttons and selects for whoever must act now (fighters that do not fit in the rows are
    offered in a select of their own, never dropped), and the GM's row."""
    match = load(record)
    state = match.state
    if state.ended:
        return make_view([])
    cid = _fighter_cid(record, match)
    pending = state.pending
    need = STAGE_ROWS.get(pending.stage, 1) if pending else 2  # a turn: targets, buttons
    now = acting(state)
    room = MAX_ROWS - 1  # the last row is the GM's
    shown = now if len(now) * need <= room else now[: (room - 1) // need]
    rows: Rows = []
    for fighter_id in shown:
        rows += fighter_rows(state, fighter_id, cid, lang)
    rest = now[len(shown) :]
    if rest:
        options = [
            discord.SelectOption(label=state.fighter(i).name[:100], value=i)
            for i in rest[:MAX_SELECT]
        ]
        token = decision_token(match, 0, rest[0])
        wer = custom_id(PREFIX, record.id, token, "wer", "alle")
        rows.append([_select(wer, t("w6cog.btn.pick_fighter", lang), options)])
    return make_view([*rows[: MAX_ROWS - 1], gm_row(record, match, lang)])


def gm_row(record: GameRecord, match: m.Match, lang: str) -> list[discord.ui.Item[Any]]:
    """The GM's buttons: begin or next phase, reflexes of anyone, undo, end, GM view."""
    state = match.state
    gm = decision_token(match, 0, None, "g")

    def gm_cid(code: str, token: str = gm) -> str:
        return custom_id(PREFIX, record.id, token, code, "sl")

    row: list[discord.ui.Item[Any]] = []
    if state.phase < 1:
        row.append(button(t("w6cog.btn.begin", lang), gm_cid("beginnen"), "success"))
    elif state.pending is None:
        row.append(button(t("w6cog.btn.next_phase", lang), gm_cid("phase")))
    reflex = decision_token(match, 0, None, "r")
    if reflex and any(f.reflex > 0 and f.owner is not None for f in reflex_ready(state)):
        rfx = custom_id(PREFIX, record.id, reflex, "rfx", "alle")
        row.append(button(t("w6cog.btn.reflex_any", lang), rfx))
    if state.log:
        row.append(button(t("w6cog.btn.undo", lang), gm_cid("zurueck", f"u{record.revision}")))
    row.append(button(t("w6cog.btn.end", lang), gm_cid("ende")))
    sicht = custom_id(PREFIX, record.id, "-", "slsicht", "sl")
    row.append(button(t("w6cog.btn.gm_view", lang), sicht))
    return row


# ----------------------------------------------------------------------------- private menus


def fighter_menu(loaded: Loaded, fighter_id: str, lang: str) -> dict[str, Any]:
    """The buttons of one fighter chosen from the status message's select (more fighters may
    act than fit in its rows), as ``send`` arguments."""
    match = load(loaded.record)
    cid = _fighter_cid(loaded.record, match)
    rows = fighter_rows(loaded.state, fighter_id, cid, lang, private=True)
    name = loaded.state.fighter(fighter_id).name
    return {"content": t("w6cog.combat.more_fighters", lang, name=name), "view": make_view(rows)}


def technique_menu(loaded: Loaded, fighter_id: str, lang: str) -> dict[str, Any]:
    """The techniques a fighter may use now, with their descriptions."""
    state = loaded.state
    options = [
        discord.SelectOption(
            label=t(f"w6cog.tech.{name}", lang)[:100],
            value=name,
            description=t(f"w6cog.tech.{name}.desc", lang)[:100],
        )
        for name in technique_options(state, fighter_id)
    ]
    cid = custom_id(PREFIX, loaded.record.id, loaded.token, "tsel", fighter_id)
    select = _select(cid, t("w6cog.btn.technique", lang), options)
    name = state.fighter(fighter_id).name
    text = t("w6cog.form.choose_technique", lang, name=name)
    return {"content": text, "view": make_view([[select]])}


def target_menu(
    loaded: Loaded, fighter_id: str, targets: list[Fighter], lang: str
) -> dict[str, Any]:
    """Whom a plain attack goes at (a player's fighter sees an NPC's LP in words; an NPC's
    attack is the GM's)."""
    attacker = loaded.state.fighter(fighter_id)
    options = [
        discord.SelectOption(
            label=fighter_label(f, lang, gm=attacker.owner is None)[:100], value=f.id
        )
        for f in targets[:MAX_SELECT]
    ]
    cid = custom_id(PREFIX, loaded.record.id, loaded.token, "ziel", fighter_id)
    select = _select(cid, t("w6cog.btn.target", lang), options)
    name = loaded.state.fighter(fighter_id).name
    text = t("w6cog.combat.choose_target", lang, name=name)
    return {"content": text, "view": make_view([[select]])}


def kw_menu(
    loaded: Loaded,
    fighter_id: str,
    target_id: str,
    weapons: list[int],
    weapon: int | None,
    lang: str,
) -> dict[str, Any]:
    """The attack's dice, and its weapon when the fighter has several melee weapons
    (``weapons``: their positions; ``weapon``: the one chosen)."""
    state = loaded.state
    fighter, target = state.fighter(fighter_id), state.fighter(target_id)

    def cid(code: str, *extra: object) -> str:
        record = loaded.record
        return custom_id(PREFIX, record.id, loaded.token, code, fighter_id, target_id, *extra)

    if weapon is not None and weapon not in weapons:
        raise BadInput("w6cog.combat.bad_choice")
    rows: Rows = []
    if len(weapons) > 1:
        chosen = weapons[0] if weapon is None else weapon
        options = [
            discord.SelectOption(
                label=fighter.waffen[i].name[:100], value=str(i), default=i == chosen
            )
            for i in weapons[:MAX_SELECT]
        ]
        rows.append([_select(cid("waffe"), t("w6cog.field.w", lang), options)])
    extra = () if weapon is None else (weapon,)
    label = t("w6cog.btn.attack_kw", lang)
    rows.append([_kw_select(cid("kwatk", *extra), fighter.kw_left, label, lang)])
    text = t("w6cog.combat.choose_kw", lang, name=fighter.name, target=target.name,
             kw=fighter.kw_left)  # fmt: skip
    return {"content": text, "view": make_view(rows)}


def distance_modal(loaded: Loaded, fighter_id: str, technique: str, encoded: str,
                   default: str | None, lang: str) -> discord.ui.Modal:  # fmt: skip
    """The distance of a ranged attack, asked in a modal (answered as ``fdsv``)."""
    record = loaded.record
    modal = discord.ui.Modal(
        title=t("w6cog.modal.distance_title", lang)[:45],
        custom_id=custom_id(PREFIX, record.id, loaded.token, "fdsv", fighter_id, technique,
                            encoded),
    )  # fmt: skip
    modal.add_item(
        discord.ui.TextInput(
            label=t("w6cog.modal.distance", lang)[:45],
            custom_id="d",
            max_length=3,
            default=default,
            placeholder="8",
        )
    )
    modal.stop()  # answered by the component router, not kept in discord.py's view store
    return modal
