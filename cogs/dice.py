"""Dice: ``/roll``, saved rolls (``/würfel speichern|löschen|liste``), W6 checks (``/probe``,
``/probe-komplex``, ``/probe-konkurrierend``) and the Telperinquár rolls
(``/telperinquar-wurf angriff|erfolgswurf``). The rules live in ``engines.dice``; this cog
parses, rolls, renders and replies.

Visibility (every rolling command): open by default; ``privat`` answers ephemerally; ``geheim``
needs an active campaign in the channel: the roller gets the result ephemerally, every GM and
co-GM (except the roller) a DM in their own language, and the channel a notice without the
result. Rolls and W6 checks are written to the campaign log (before the reply) when the
channel has a campaign.

Saved rolls: names are one word (a letter first, then letters, digits, ``-``/``_``, at most 32,
stored lower-case) that is not dice notation and does not read like it (``d20``, ``w6``, ``kh3``
or ``x2`` cannot be names: the name leads the comment of what it expands to). When
the ``/roll`` expression starts with a saved name (yours first, then the campaign's; for
``feuerball-2`` also the name before a ``-``), :func:`engines.dice.saved.expand_saved` replaces
it: the saved roll as it was typed, the name leading the comment (``8W6>=5 feuerball auf den
Ork``, ``(2W6+3)+2 feuerball``, ``10W6>=5 feuerball+2`` for two more dice of a success roll).

"Nochmal würfeln" button: ``roll:again:<o|p|s>:<expression>`` (open, private, secret) holds the
expression after the saved name was replaced; when that would pass Discord's 100 characters it
is ``roll:again:<mode>`` and the expression is read back from the first `code span` of the
message the button is on. Nothing is kept in memory, so the button works after a restart.
"""

from __future__ import annotations

import asyncio
import difflib
import io
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SpielleiterBot
from bot.i18n import DEFAULT_LANGUAGE, cmd, t
from bot.limits import MAX_SAVED_ROLLS
from bot.render import render_async, run_heavy
from bot.render.dice import DiceImage, DiceRow, DieView, render_dice
from bot.replies import LANGUAGE_PREF, lang_for, send
from bot.store.base import CampaignRecord, CharacterRecord
from cogs.w6 import load_sheet
from engines.core import BadInput, IllegalAction, Rng
from engines.dice.notation import DiceRoll, check_comment, check_notation, roll_notation
from engines.dice.pool import SUCCESS_MIN
from engines.dice.saved import expand_saved
from engines.dice.telperinquar import AttackRoll, ErfolgswurfResult, attack_roll, erfolgswurf
from engines.dice.w6 import (
    ContestResult,
    ContestSide,
    Difficulty,
    KomplexResult,
    Pool,
    ProbeResult,
    ProbeSpec,
    komplexe_probe,
    konkurrierende_probe,
    parse_difficulty,
    parse_komplex,
    probe,
)

log = logging.getLogger("spielleiter.dice")

Visibility = Literal["open", "private", "secret"]
MODE_LETTERS: dict[Visibility, str] = {"open": "o", "private": "p", "secret": "s"}
LETTER_MODES: dict[str, Visibility] = {v: k for k, v in MODE_LETTERS.items()}
PREFIX = "roll"
AGAIN = "again"
MAX_CUSTOM_ID = 100
MESSAGE_LIMIT = 2000
CHOICE_LIMIT = 100
AUTOCOMPLETE_LIMIT = 25
MAX_SAVED = MAX_SAVED_ROLLS
IMAGE_FROM_DICE = 7  # an image only when a throw has more dice than a glance takes in
HEAVY_DICE = 100  # from here a roll and its image are made off the event loop, after a defer
IMAGE_NAME = "wuerfel"
NAME_PATTERN = re.compile(r"[^\W\d_][\w-]{0,31}")
LEADING_WORD = re.compile(r"\s*([^\W\d_][\w-]*)(.*)", re.DOTALL)
CODE_SPAN = re.compile(r"`([^`]+)`")
NUMBER = re.compile(r"[-+]?\d{1,4}")
BACKTICK_STANDIN = "ˋ"


@dataclass(frozen=True)
class Shown:
    """What a roll shows: the text per language, an optional dice image and re-roll button."""

    text: Callable[[str], str]
    image: DiceImage | None = None
    reroll: str | None = None  # custom_id of the "Nochmal würfeln" button


@dataclass(frozen=True)
class Source:
    """Where a W6 pool comes from: ``label`` names the side (character or user), ``attribute``
    the Eigenschaft (``None`` for a plain value), ``character`` the character if one was used,
    ``skill`` a Fertigkeit of its sheet whose ``skill_value`` adds dice; ``hidden``: an NPC a
    player rolls against, shown only by its name and successes (its sheet is the GM's)."""

    label: str
    attribute: str | None
    value: int
    character: str | None = None
    skill: str | None = None
    skill_value: int = 0
    hidden: bool = False


# ---- small formatting helpers ------------------------------------------------------------


def _display(user: discord.abc.User) -> str:
    return discord.utils.escape_markdown(user.display_name.replace("`", BACKTICK_STANDIN))


def _plain(text: str) -> str:
    return discord.utils.escape_markdown(text.replace("`", BACKTICK_STANDIN))


def _code(text: str) -> str:
    return f"`{text.replace('`', BACKTICK_STANDIN)}`"


def _fit(text: str) -> str:
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"


def _signed(number: int) -> str:
    return f"+{number}" if number >= 0 else f"−{-number}"


def _number(number: int) -> str:
    """A count as printed: a typographic minus for the negative pool an Erschwernis leaves."""
    return str(number) if number >= 0 else f"−{-number}"


def _successes(lang: str, count: int) -> str:
    key = "roll.count.success" if count == 1 else "roll.count.successes"
    return t(key, lang, count=count)


def _faces(dice: Sequence[int]) -> str:
    return ", ".join(f"**{d}**" if d >= SUCCESS_MIN else str(d) for d in dice)


def _visibility(privat: bool, geheim: bool) -> Visibility:
    if geheim:
        return "secret"
    return "private" if privat else "open"


def _is_notation(text: str) -> bool:
    try:
        check_notation(text)
    except BadInput:
        return False
    return True


def _reads_as_dice(name: str) -> bool:
    """Notation itself (``w20``), or a word that could not lead a comment (``kh3``, ``x2``):
    a saved roll's name leads the comment of what it expands to."""
    try:
        check_comment(name, 1)
    except BadInput:
        return True
    return _is_notation(name)


def _scopes(user_id: int, campaign: CampaignRecord | None) -> tuple[str, str | None]:
    return f"user:{user_id}", (f"campaign:{campaign.id}" if campaign else None)


def _check_name(name: str) -> str:
    """The stored form of a saved-roll name. Raises BadInput for a name that cannot be one."""
    key = name.strip().lower()
    if not NAME_PATTERN.fullmatch(key):
        raise BadInput("roll.saved.bad_name", name=name.strip()[:40])
    if _reads_as_dice(key):
        raise BadInput("roll.saved.name_is_dice", name=key)
    return key


def _saved_name(word: str, saved: Mapping[str, str]) -> str | None:
    """The saved name ``word`` starts with: the whole word, else the part before one of its
    ``-`` (names may contain ``-``, and ``feuerball-2`` means ``feuerball`` minus 2)."""
    cuts = [len(word)] + [i for i in range(len(word) - 1, 0, -1) if word[i] == "-"]
    return next((word[:cut] for cut in cuts if word[:cut] in saved), None)


def _nearest(word: str, saved: Mapping[str, str]) -> str:
    """The saved names closest to ``word`` (spelling or start), as a readable list."""
    near = difflib.get_close_matches(word, list(saved), n=3, cutoff=0.5)
    near += [n for n in sorted(saved) if n.startswith(word[:3]) and n not in near][: 3 - len(near)]
    return ", ".join(f"`{n}`" for n in near)


def _check_unknown_name(expression: str, word: str, saved: Mapping[str, str]) -> None:
    """An expression that starts with a name-like word and is no dice notation either: a
    saved roll that is gone or mistyped. Raises BadInput naming the nearest saved names (a
    syntax error about column 1 would not help)."""
    if _is_notation(expression) or not NAME_PATTERN.fullmatch(word) or _reads_as_dice(word):
        return
    nearest = _nearest(word, saved)
    if nearest:
        raise BadInput("roll.saved.unknown", name=word[:40], nearest=nearest)
    raise BadInput("roll.saved.unknown_none", name=word[:40])


def reroll_id(visibility: Visibility, expression: str) -> str:
    """The custom_id of the re-roll button: the expression inside when it fits."""
    full = ":".join((PREFIX, AGAIN, MODE_LETTERS[visibility], expression))
    if len(full) <= MAX_CUSTOM_ID:
        return full
    return ":".join((PREFIX, AGAIN, MODE_LETTERS[visibility]))


def _expression_from(message: discord.Message | None) -> str:
    found = CODE_SPAN.search(message.content) if message is not None else None
    if found is None:
        raise BadInput("roll.again.lost")
    return found.group(1)


def _erschwernis(text: str | None) -> tuple[int, Difficulty | None]:
    """``"Schwer"``/``"sehr_schwer"`` → a named level; ``"4"``/``"-4"`` → 4 W6 removed."""
    if text is None or not text.strip():
        return 0, None
    cleaned = text.strip().replace("−", "-").replace(" ", "")
    if NUMBER.fullmatch(cleaned):
        return abs(int(cleaned)), None
    return 0, parse_difficulty(text)


def _attribute(character: CharacterRecord, attribute: str) -> tuple[str, int]:
    """The Eigenschaft ``attribute`` (any case) of a W6 sheet (``sheet["eigenschaften"]``)."""
    values = character.sheet.get("eigenschaften")
    known = values if isinstance(values, dict) else {}
    wanted = attribute.strip().casefold()
    for name, value in known.items():
        if str(name).casefold() == wanted and isinstance(value, int):
            return str(name), value
    skills = _skills(character)
    is_skill = any(name.casefold() == wanted for name in skills)
    raise BadInput(
        "roll.probe.skill_as_attribute" if is_skill else "roll.probe.unknown_attribute",
        name=attribute.strip()[:40],
        character=character.name,
        known=sorted(str(k) for k in known),  # a whole sheet: cut to a list with "und N weitere"
        skills=sorted(skills),
    )


def _skills(character: CharacterRecord) -> dict[str, int]:
    """The Fertigkeiten of a W6 sheet. Raises BadInput (a sheet that no longer validates)."""
    return dict(load_sheet(character).fertigkeiten)


def _skill(character: CharacterRecord, skill: str) -> tuple[str, int]:
    """The Fertigkeit ``skill`` (any case) of a W6 sheet. Raises BadInput
    (``roll.probe.unknown_skill``, naming the character and its Fertigkeiten)."""
    skills = _skills(character)
    wanted = skill.strip().casefold()
    for name, value in skills.items():
        if name.casefold() == wanted:
            return name, value
    raise BadInput(
        "roll.probe.unknown_skill",
        name=skill.strip()[:40],
        character=character.name,
        skills=sorted(skills),
    )


def _die_views(dice: Sequence[int]) -> tuple[DieView, ...]:
    return tuple(DieView(d, marked=d >= SUCCESS_MIN) for d in dice)


def _pool_image(rows: Sequence[tuple[str, Sequence[int]]]) -> DiceImage | None:
    image = DiceImage(tuple(DiceRow(label, _die_views(dice)) for label, dice in rows))
    return image if image.dice_count >= IMAGE_FROM_DICE else None


def roll_image(result: DiceRoll) -> DiceImage | None:
    """The dice of a /roll with many dice, every die size in its shape, the result on top:
    successes marked, dropped dice dimmed, exploded dice starred; a summary for huge pools."""
    if not result.groups:
        return None
    rows = tuple(
        DiceRow(
            group.label or group.notation,
            tuple(
                DieView(
                    d.value,
                    marked=bool(d.success),
                    dropped=not (d.kept and group.kept),
                    sides=group.sides,
                    exploded=d.exploded,
                    crit=result.mode != "successes" and d.crit,
                    fumble=result.mode != "successes" and d.fumble,
                )
                for d in group.dice
            ),
        )
        for group in result.groups
    )
    image = DiceImage(rows, caption=_roll_caption(result))
    return image if image.dice_count >= IMAGE_FROM_DICE else None


def _roll_caption(result: DiceRoll) -> str:
    """The result in symbols every reader knows: ``Σ 17``, ``✓ 7``, ``17 ≥ 15 ✓``."""
    if result.mode == "successes":
        return f"✓ {result.total}"
    if result.mode == "target":
        rule = (result.notation.success_rule or "").replace(">=", "≥").replace("<=", "≤")
        return f"{result.total} {rule} {'✓' if result.target_met else '✗'}"
    return f"Σ {result.total}"


def _image_alt(lang: str, image: DiceImage) -> str:
    faces = "; ".join(", ".join(str(d.value) for d in row.dice) for row in image.rows)
    only_w6 = all(d.sides == 6 for row in image.rows for d in row.dice)
    return t("roll.image.alt" if only_w6 else "roll.image.alt_any", lang, faces=faces)[:1000]


# ---- texts ---------------------------------------------------------------------------------


def roll_text(lang: str, who: str, expression: str, result: DiceRoll) -> str:
    lines = [t("roll.roll.header", lang, name=who, expression=_code(expression)), result.breakdown]
    if result.hidden_dice:
        lines.append(t("roll.roll.hidden", lang, count=result.hidden_dice))
    rule = result.notation.success_rule or ""
    if result.mode == "successes":
        lines.append(
            t("roll.roll.successes", lang, count=_successes(lang, result.total), rule=rule)
        )
    elif result.mode == "target":
        key = "roll.roll.target_met" if result.target_met else "roll.roll.target_missed"
        lines.append(t(key, lang, total=result.total, rule=rule))
    else:
        lines.append(t("roll.roll.total", lang, total=result.total))
    if result.crit:
        lines.append(t("roll.roll.crit", lang))
    if result.fumble:
        lines.append(t("roll.roll.fumble", lang))
    return "\n".join(lines)


def _what(lang: str, source: Source) -> str:
    if source.attribute is None:
        what = t("roll.probe.what_value", lang, value=source.value)
    else:
        what = t("roll.probe.what_attribute", lang, attribute=source.attribute, value=source.value)
    if source.skill is not None:
        skill = t(
            "roll.probe.what_attribute", lang, attribute=source.skill, value=source.skill_value
        )
        what += f" + {skill}"
    if source.character:
        what += f" ({_plain(source.character)})"
    return what


def _formula(lang: str, pool: Pool) -> str:
    parts = [str(pool.base)]
    if pool.bonus:
        parts.append(f"+ {pool.bonus}")
    if pool.penalty:
        parts.append(f"− {pool.penalty}")
    if pool.difficulty is not None:
        level = t(f"roll.difficulty.{pool.difficulty.name.lower()}", lang)
        parts.append(f"− {pool.difficulty.dice} ({level})")
    return " ".join(parts)


def _pool_line(lang: str, pool: Pool) -> str:
    formula = _formula(lang, pool)
    if formula == str(pool.dice):
        return t("roll.pool.plain", lang, dice=_number(pool.dice))
    return t("roll.pool.formula", lang, formula=formula, dice=_number(pool.dice))


def _verdict(lang: str, result: ProbeResult) -> str:
    key = "roll.probe.passed" if result.passed else "roll.probe.failed"
    return t(
        key,
        lang,
        successes=_successes(lang, result.successes),
        required=result.required,
        margin=_signed(result.margin),
    )


def probe_text(lang: str, who: str, source: Source, result: ProbeResult) -> str:
    lines = [
        t("roll.probe.header", lang, name=who, what=_what(lang, source)),
        t(
            "roll.probe.pool",
            lang,
            pool=_pool_line(lang, result.spec.pool),
            required=result.required,
        ),
    ]
    if not result.rolled:
        lines.append(t("roll.probe.no_dice", lang, dice=_number(result.dice_count)))
        return "\n".join(lines)
    lines.append(t("roll.probe.dice", lang, faces=_faces(result.dice)))
    lines.append(_verdict(lang, result))
    return "\n".join(lines)


def komplex_text(lang: str, who: str, source: Source, pool: Pool, result: KomplexResult) -> str:
    lines = [
        t("roll.komplex.header", lang, name=who, what=_what(lang, source)),
        t("roll.komplex.pool", lang, pool=_pool_line(lang, pool), parts=len(result.parts)),
    ]
    if result.available <= 0:
        lines.append(t("roll.komplex.no_dice", lang, dice=_number(result.available)))
        return "\n".join(lines)
    for index, part in enumerate(result.parts, start=1):
        head = t(
            "roll.komplex.part", lang, index=index, dice=part.dice_count, required=part.required
        )
        if not part.rolled:
            lines.append(f"{head} {t('roll.komplex.part_no_dice', lang)}")
            continue
        lines.append(f"{head} {_faces(part.dice)} → {_verdict(lang, part)}")
    if result.unused:
        lines.append(t("roll.komplex.unused", lang, dice=result.unused))
    passed = sum(1 for part in result.parts if part.passed)
    if result.passed:
        lines.append(t("roll.komplex.passed", lang))
    else:
        lines.append(t("roll.komplex.failed", lang, passed=passed, parts=len(result.parts)))
    return "\n".join(lines)


def _side_detail(lang: str, source: Source, bonus: int) -> str:
    if source.hidden:
        return t("roll.contest.hidden", lang)
    if source.attribute is None:
        detail = t("roll.contest.value", lang, value=source.value)
    else:
        detail = f"{_plain(source.attribute)} {source.value}"
    return f"{detail} + {bonus}" if bonus else detail


def contest_text(
    lang: str,
    who: str,
    sources: tuple[Source, Source],
    bonuses: tuple[int, int],
    result: ContestResult,
) -> str:
    names = [_plain(s.label) for s in sources]
    lines = [
        t(
            "roll.contest.header",
            lang,
            name=who,
            first=names[0],
            first_detail=_side_detail(lang, sources[0], bonuses[0]),
            second=names[1],
            second_detail=_side_detail(lang, sources[1], bonuses[1]),
        )
    ]
    for name, source, side in zip(names, sources, result.sides, strict=True):
        if source.hidden:
            successes = _successes(lang, side.successes)
            lines.append(t("roll.contest.side_hidden", lang, name=name, successes=successes))
        elif side.rolled:
            lines.append(
                t(
                    "roll.contest.side",
                    lang,
                    name=name,
                    dice=side.dice_count,
                    faces=_faces(side.roll.dice),
                    successes=_successes(lang, side.successes),
                )
            )
        else:
            lines.append(
                t("roll.contest.side_no_dice", lang, name=name, dice=_number(side.dice_count))
            )
    first, second = (side.successes for side in result.sides)
    if result.winner is None:
        lines.append(t("roll.contest.tie", lang, first=first, second=second))
    else:
        lines.append(
            t(
                "roll.contest.winner",
                lang,
                name=names[result.winner],
                first=first,
                second=second,
                margin=result.margin,
            )
        )
    return "\n".join(lines)


def attack_text(
    lang: str, who: str, roll: AttackRoll, armour: int | None, against_hero: bool
) -> str:
    die = f"**{roll.die}**"
    lines = [
        t("roll.tq.attack", lang, name=who, die=die, bonus=_signed(roll.bonus), value=roll.value)
    ]
    if roll.critical:
        lines.append(t("roll.tq.critical", lang))
    if roll.fumble:
        lines.append(t("roll.tq.fumble", lang))
    if armour is not None:
        target = t("roll.tq.hero" if against_hero else "roll.tq.creature", lang)
        damage = roll.damage(armour, target_is_hero=against_hero)
        lines.append(t("roll.tq.damage", lang, target=target, armour=armour, damage=damage))
    return "\n".join(lines)


def erfolgswurf_text(lang: str, who: str, result: ErfolgswurfResult) -> str:
    key = "roll.tq.ew_success" if result.success else "roll.tq.ew_failure"
    return t(
        key,
        lang,
        name=who,
        die=result.die,
        level=result.level,
        value=result.value,
        target=result.target,
        margin=_signed(result.margin),
    )


def _limited(campaign: CampaignRecord, viewer: int, opponent: bool) -> bool:
    """Whether ``viewer`` may roll only with their own characters (a player's own side)."""
    return not opponent and not campaign.is_gm(viewer)


def _may_use(
    campaign: CampaignRecord, character: CharacterRecord, viewer: int, opponent: bool
) -> bool:
    """The GMs use every character; a player their own, and as an opponent any character."""
    return not _limited(campaign, viewer, opponent) or character.owner_id == viewer


def _name_choices(values: Mapping[str, Any], current: str) -> list[app_commands.Choice[str]]:
    """``Name (value)`` choices for the names starting with ``current`` (any case)."""
    word = current.strip().casefold()
    return [
        app_commands.Choice(name=f"{name} ({value})"[:CHOICE_LIMIT], value=str(name))
        for name, value in sorted(values.items())
        if str(name).casefold().startswith(word)
    ][:AUTOCOMPLETE_LIMIT]


# ---- the cog -------------------------------------------------------------------------------


VISIBILITY_RENAMES = {"privat": cmd("roll.opt.private.name"), "geheim": cmd("roll.opt.secret.name")}
VISIBILITY_DESCRIPTIONS = {
    "privat": cmd("roll.opt.private.desc"),
    "geheim": cmd("roll.opt.secret.desc"),
}
POOL_RENAMES = {
    "eigenschaft": cmd("roll.opt.attribute.name"),
    "wert": cmd("roll.opt.value.name"),
    "bonus": cmd("roll.opt.bonus.name"),
    "charakter": cmd("roll.opt.character.name"),
    "erschwernis": cmd("roll.opt.difficulty.name"),
}
SKILL_RENAMES = {"fertigkeit": cmd("roll.opt.skill.name")}
SKILL_DESCRIPTIONS = {"fertigkeit": cmd("roll.opt.skill.desc")}
POOL_DESCRIPTIONS = {
    "eigenschaft": cmd("roll.opt.attribute.desc"),
    "wert": cmd("roll.opt.value.desc"),
    "bonus": cmd("roll.opt.bonus.desc"),
    "charakter": cmd("roll.opt.character.desc"),
    "erschwernis": cmd("roll.opt.difficulty.desc"),
}
PoolSize = app_commands.Range[int, 0, 100]
Required = app_commands.Range[int, 1, 100]
TqNumber = app_commands.Range[int, -1000, 1000]
Level = app_commands.Range[int, 1, 10]


class Dice(commands.Cog):
    saved = app_commands.Group(
        name=cmd("roll.cmd.saved.name"), description=cmd("roll.cmd.saved.desc")
    )
    telperinquar = app_commands.Group(
        name=cmd("roll.cmd.tq.name"), description=cmd("roll.cmd.tq.desc")
    )

    def __init__(self, bot: SpielleiterBot) -> None:
        self.bot = bot
        self.new_rng: Callable[[], Rng] = bot.chance.rng

    async def cog_load(self) -> None:
        self.bot.components.register(PREFIX, self.on_roll_button)

    async def cog_unload(self) -> None:
        self.bot.components.unregister(PREFIX)

    # ---- /roll ---------------------------------------------------------------------------

    @app_commands.command(name=cmd("roll.cmd.roll.name"), description=cmd("roll.cmd.roll.desc"))
    @app_commands.rename(ausdruck=cmd("roll.opt.expression.name"), **VISIBILITY_RENAMES)
    @app_commands.describe(ausdruck=cmd("roll.opt.expression.desc"), **VISIBILITY_DESCRIPTIONS)
    async def roll(
        self,
        interaction: discord.Interaction[Any],
        ausdruck: str,
        privat: bool = False,
        geheim: bool = False,
    ) -> None:
        await self.roll_expression(interaction, ausdruck, _visibility(privat, geheim))

    @roll.autocomplete("ausdruck")
    async def _roll_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.expression_choices(interaction, current)

    async def on_roll_button(self, interaction: discord.Interaction[Any], args: list[str]) -> None:
        """``roll:again:<mode>[:<expression>]``: roll the same expression again."""
        if len(args) < 2 or args[0] != AGAIN or args[1] not in LETTER_MODES:
            raise BadInput("roll.again.lost")
        expression = ":".join(args[2:]) or _expression_from(interaction.message)
        await self.roll_expression(interaction, expression, LETTER_MODES[args[1]], expand=False)

    async def roll_expression(
        self,
        interaction: discord.Interaction[Any],
        text: str,
        visibility: Visibility,
        *,
        expand: bool = True,
    ) -> None:
        lang, campaign = await self._lang_and_campaign(interaction, visibility)
        expression = " ".join(text.split())
        if expand:
            expression = await self._expand_saved(expression, interaction.user.id, campaign)
        if check_notation(expression).dice_count >= HEAVY_DICE:  # bad input is told at once
            await self._defer(interaction, visibility)
            result, _ = await run_heavy(roll_notation, expression, self.new_rng())
        else:
            result, _ = roll_notation(expression, self.new_rng())
        who = _display(interaction.user)
        shown = Shown(
            text=lambda lg: roll_text(lg, who, expression, result),
            image=roll_image(result),
            reroll=reroll_id(visibility, expression),
        )
        await self._log(
            campaign,
            interaction.user.id,
            "roll",
            {
                "expression": expression,
                "total": result.total,
                "mode": result.mode,
                "visibility": visibility,
            },
        )
        await self._deliver(interaction, lang, shown, visibility, campaign)

    async def _expand_saved(
        self, expression: str, user_id: int, campaign: CampaignRecord | None
    ) -> str:
        match = LEADING_WORD.fullmatch(expression)
        if match is None:
            return expression
        word = match.group(1).lower()
        if _is_notation(word):
            return expression
        mine, theirs = _scopes(user_id, campaign)
        saved = await self.bot.store.saved_rolls([mine] + ([theirs] if theirs else []))
        name = _saved_name(word, saved)
        if name is None:
            _check_unknown_name(expression, word, saved)
            return expression
        start = len(expression) - len(match.group(1)) - len(match.group(2))
        return expand_saved(name, saved[name], expression[start + len(name) :])

    async def expression_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The user's and the campaign's saved rolls whose name starts like ``current``."""
        typed = " ".join(current.split())
        match = LEADING_WORD.fullmatch(typed)
        word, rest = (match.group(1).lower(), match.group(2)) if match else (typed.lower(), "")
        mine, theirs = await self._saved_by_scope(interaction)
        lang = await lang_for(interaction)
        choices: list[app_commands.Choice[str]] = []
        if typed and len(typed) <= CHOICE_LIMIT and word not in mine and word not in theirs:
            choices.append(app_commands.Choice(name=typed, value=typed))
        tag = t("roll.saved.campaign_tag", lang)
        entries = [(n, e, "") for n, e in mine.items()]
        entries += [(n, e, f" ({tag})") for n, e in theirs.items() if n not in mine]
        for name, expression, suffix in sorted(entries):
            value = name + rest
            if name.startswith(word) and len(value) <= CHOICE_LIMIT:
                label = f"{name} — {expression}"
                label = label[: CHOICE_LIMIT - len(suffix)] + suffix
                choices.append(app_commands.Choice(name=label, value=value))
        return choices[:AUTOCOMPLETE_LIMIT]

    async def _saved_by_scope(
        self, interaction: discord.Interaction[Any]
    ) -> tuple[dict[str, str], dict[str, str]]:
        campaign = await self._campaign(interaction)
        mine, theirs = _scopes(interaction.user.id, campaign)
        store = self.bot.store
        return await store.saved_rolls([mine]), (
            await store.saved_rolls([theirs]) if theirs else {}
        )

    # ---- /würfel speichern | löschen | liste -------------------------------------------------

    @saved.command(name=cmd("roll.cmd.save.name"), description=cmd("roll.cmd.save.desc"))
    @app_commands.rename(
        name=cmd("roll.opt.name.name"),
        ausdruck=cmd("roll.opt.expression.name"),
        kampagne=cmd("roll.opt.campaign.name"),
    )
    @app_commands.describe(
        name=cmd("roll.opt.name.desc"),
        ausdruck=cmd("roll.opt.saved_expression.desc"),
        kampagne=cmd("roll.opt.campaign.desc"),
    )
    async def save(
        self,
        interaction: discord.Interaction[Any],
        name: app_commands.Range[str, 1, 32],
        ausdruck: str,
        kampagne: bool = False,
    ) -> None:
        lang = await lang_for(interaction)
        key = _check_name(name)
        expression = " ".join(ausdruck.split())
        check_notation(expression)
        scope = await self._writable_scope(interaction, kampagne)
        old = (await self.bot.store.saved_rolls([scope])).get(key)
        saved = await self.bot.store.save_roll(
            scope, key, expression, interaction.user.id, limit=MAX_SAVED
        )
        if not saved:  # counted inside the write, so concurrent saves cannot pass the limit
            raise BadInput("roll.saved.too_many", limit=MAX_SAVED)
        message = "roll.saved.saved_campaign" if kampagne else "roll.saved.saved"
        params: dict[str, str] = {"name": key, "expression": _code(expression)}
        if old is not None and old != expression:  # say what the name meant before
            message = "roll.saved.replaced_campaign" if kampagne else "roll.saved.replaced"
            params["old"] = _code(old)
        await send(interaction, t(message, lang, **params), ephemeral=True)

    @saved.command(name=cmd("roll.cmd.delete.name"), description=cmd("roll.cmd.delete.desc"))
    @app_commands.rename(name=cmd("roll.opt.name.name"), kampagne=cmd("roll.opt.campaign.name"))
    @app_commands.describe(
        name=cmd("roll.opt.delete_name.desc"), kampagne=cmd("roll.opt.campaign.desc")
    )
    async def delete(
        self, interaction: discord.Interaction[Any], name: str, kampagne: bool = False
    ) -> None:
        lang = await lang_for(interaction)
        key = name.strip().lower()
        scope = await self._writable_scope(interaction, kampagne)
        deleted = await self.bot.store.delete_roll(scope, key)
        if not deleted:
            nearest = _nearest(key, await self.bot.store.saved_rolls([scope]))
            if nearest:
                raise BadInput("roll.saved.not_found_near", name=_plain(key[:40]), nearest=nearest)
            raise BadInput("roll.saved.not_found", name=_plain(key[:40]))
        await send(
            interaction, t("roll.saved.deleted", lang, name=_plain(key[:40])), ephemeral=True
        )

    @delete.autocomplete("name")
    async def _delete_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        mine, theirs = await self._saved_by_scope(interaction)
        names = theirs if getattr(interaction.namespace, "kampagne", False) else mine
        word = current.strip().lower()
        return [
            app_commands.Choice(name=f"{n} — {e}"[:CHOICE_LIMIT], value=n)
            for n, e in sorted(names.items())
            if n.startswith(word)
        ][:AUTOCOMPLETE_LIMIT]

    @saved.command(name=cmd("roll.cmd.list.name"), description=cmd("roll.cmd.list.desc"))
    async def list_saved(self, interaction: discord.Interaction[Any]) -> None:
        lang = await lang_for(interaction)
        campaign = await self._campaign(interaction)
        mine, theirs = await self._saved_by_scope(interaction)
        lines = [t("roll.saved.list_mine", lang)]
        lines += [f"• **{n}** — {_code(e)}" for n, e in sorted(mine.items())] or [
            t("roll.saved.list_empty", lang)
        ]
        if campaign is not None:
            lines.append(t("roll.saved.list_campaign", lang, campaign=_plain(campaign.name)))
            lines += [f"• **{n}** — {_code(e)}" for n, e in sorted(theirs.items())] or [
                t("roll.saved.list_campaign_empty", lang)
            ]
        await send(interaction, _fit("\n".join(lines)), ephemeral=True)

    async def _writable_scope(
        self, interaction: discord.Interaction[Any], campaign_wide: bool
    ) -> str:
        """The user's scope, or the campaign's (only its GMs may write there)."""
        if not campaign_wide:
            return f"user:{interaction.user.id}"
        campaign = await self._campaign(interaction)
        if campaign is None:
            raise BadInput("roll.saved.no_campaign")
        if not campaign.is_gm(interaction.user.id):
            raise IllegalAction("roll.saved.gm_only")
        return f"campaign:{campaign.id}"

    # ---- /probe, /probe-komplex, /probe-konkurrierend ------------------------------------

    @app_commands.command(name=cmd("roll.cmd.probe.name"), description=cmd("roll.cmd.probe.desc"))
    @app_commands.rename(
        erfolge=cmd("roll.opt.required.name"),
        **POOL_RENAMES,
        **SKILL_RENAMES,
        **VISIBILITY_RENAMES,
    )
    @app_commands.describe(
        erfolge=cmd("roll.opt.required.desc"),
        **POOL_DESCRIPTIONS,
        **SKILL_DESCRIPTIONS,
        **VISIBILITY_DESCRIPTIONS,
    )
    async def probe_command(
        self,
        interaction: discord.Interaction[Any],
        eigenschaft: str | None = None,
        fertigkeit: str | None = None,
        wert: PoolSize | None = None,
        bonus: PoolSize = 0,
        erfolge: Required = 2,
        erschwernis: str | None = None,
        charakter: str | None = None,
        privat: bool = False,
        geheim: bool = False,
    ) -> None:
        lang, visibility, campaign = await self._context(interaction, privat, geheim)
        source, pool = await self._own_pool(
            interaction, campaign, charakter, eigenschaft, wert, bonus, erschwernis, fertigkeit
        )
        spec = ProbeSpec(pool, erfolge)
        result, _ = probe(spec, self.new_rng())
        who = _display(interaction.user)
        shown = Shown(
            text=lambda lg: probe_text(lg, who, source, result),
            image=_pool_image([("", result.dice)]),
        )
        await self._log(
            campaign,
            interaction.user.id,
            "probe",
            {
                "attribute": source.attribute,
                "skill": source.skill,
                "character": source.character,
                "pool": result.dice_count,
                "dice": list(result.dice),
                "successes": result.successes,
                "required": result.required,
                "passed": result.passed,
                "visibility": visibility,
            },
        )
        await self._deliver(interaction, lang, shown, visibility, campaign)

    @app_commands.command(
        name=cmd("roll.cmd.komplex.name"), description=cmd("roll.cmd.komplex.desc")
    )
    @app_commands.rename(
        aufteilung=cmd("roll.opt.split.name"),
        erfolge=cmd("roll.opt.requirements.name"),
        **POOL_RENAMES,
        **VISIBILITY_RENAMES,
    )
    @app_commands.describe(
        aufteilung=cmd("roll.opt.split.desc"),
        erfolge=cmd("roll.opt.requirements.desc"),
        **POOL_DESCRIPTIONS,
        **VISIBILITY_DESCRIPTIONS,
    )
    async def probe_komplex(
        self,
        interaction: discord.Interaction[Any],
        aufteilung: app_commands.Range[str, 1, 100],
        eigenschaft: str | None = None,
        wert: PoolSize | None = None,
        bonus: PoolSize = 0,
        erfolge: app_commands.Range[str, 1, 100] | None = None,
        erschwernis: str | None = None,
        charakter: str | None = None,
        privat: bool = False,
        geheim: bool = False,
    ) -> None:
        lang, visibility, campaign = await self._context(interaction, privat, geheim)
        source, pool = await self._own_pool(
            interaction, campaign, charakter, eigenschaft, wert, bonus, erschwernis
        )
        parts = parse_komplex(aufteilung, erfolge)
        result, _ = komplexe_probe(pool, parts, self.new_rng())
        who = _display(interaction.user)
        rows = [
            (t("roll.komplex.part_label", lang, index=i), part.dice)
            for i, part in enumerate(result.parts, start=1)
        ]
        shown = Shown(
            text=lambda lg: komplex_text(lg, who, source, pool, result),
            image=_pool_image(rows),
        )
        await self._log(
            campaign,
            interaction.user.id,
            "probe_komplex",
            {
                "attribute": source.attribute,
                "character": source.character,
                "available": result.available,
                "parts": [
                    {"dice": list(p.dice), "successes": p.successes, "required": p.required}
                    for p in result.parts
                ],
                "passed": result.passed,
                "visibility": visibility,
            },
        )
        await self._deliver(interaction, lang, shown, visibility, campaign)

    @app_commands.command(
        name=cmd("roll.cmd.contest.name"), description=cmd("roll.cmd.contest.desc")
    )
    @app_commands.rename(
        gegner=cmd("roll.opt.opponent.name"),
        gegner_charakter=cmd("roll.opt.opponent_character.name"),
        gegner_eigenschaft=cmd("roll.opt.opponent_attribute.name"),
        gegner_wert=cmd("roll.opt.opponent_value.name"),
        gegner_bonus=cmd("roll.opt.opponent_bonus.name"),
        eigenschaft=cmd("roll.opt.attribute.name"),
        wert=cmd("roll.opt.value.name"),
        bonus=cmd("roll.opt.bonus.name"),
        charakter=cmd("roll.opt.character.name"),
        **VISIBILITY_RENAMES,
    )
    @app_commands.describe(
        gegner=cmd("roll.opt.opponent.desc"),
        gegner_charakter=cmd("roll.opt.opponent_character.desc"),
        gegner_eigenschaft=cmd("roll.opt.opponent_attribute.desc"),
        gegner_wert=cmd("roll.opt.opponent_value.desc"),
        gegner_bonus=cmd("roll.opt.opponent_bonus.desc"),
        eigenschaft=cmd("roll.opt.contest_attribute.desc"),
        wert=cmd("roll.opt.value.desc"),
        bonus=cmd("roll.opt.bonus.desc"),
        charakter=cmd("roll.opt.character.desc"),
        **VISIBILITY_DESCRIPTIONS,
    )
    async def probe_contest(
        self,
        interaction: discord.Interaction[Any],
        eigenschaft: str | None = None,
        wert: PoolSize | None = None,
        bonus: PoolSize = 0,
        charakter: str | None = None,
        gegner: discord.User | None = None,
        gegner_charakter: str | None = None,
        gegner_eigenschaft: str | None = None,
        gegner_wert: PoolSize | None = None,
        gegner_bonus: PoolSize = 0,
        privat: bool = False,
        geheim: bool = False,
    ) -> None:
        lang, visibility, campaign = await self._context(interaction, privat, geheim)
        if gegner is None and gegner_charakter is None and gegner_wert is None:
            raise BadInput("roll.contest.no_opponent")
        viewer = interaction.user.id
        first = await self._source(
            campaign, interaction.user, charakter, eigenschaft, wert, fallback="", viewer=viewer
        )
        second = await self._source(
            campaign,
            gegner,
            gegner_charakter,
            gegner_eigenschaft or eigenschaft,
            gegner_wert,
            fallback=t("roll.contest.opponent", lang),
            viewer=viewer,
            opponent=True,
        )
        sides = (
            ContestSide(first.label, Pool(first.value, bonus)),
            ContestSide(second.label, Pool(second.value, gegner_bonus)),
        )
        result, _ = konkurrierende_probe(*sides, self.new_rng())
        who = _display(interaction.user)
        sources, bonuses = (first, second), (bonus, gegner_bonus)
        shown = Shown(
            text=lambda lg: contest_text(lg, who, sources, bonuses, result),
            image=_pool_image(
                [
                    (side.label, side.roll.dice)
                    for side, source in zip(result.sides, sources, strict=True)
                    if not source.hidden  # the count of an NPC's dice would tell its values
                ]
            ),
        )
        await self._log(
            campaign,
            interaction.user.id,
            "probe_konkurrierend",
            {
                "sides": [
                    {"label": s.label, "dice": list(s.roll.dice), "successes": s.successes}
                    for s in result.sides
                ],
                "winner": result.winner,
                "visibility": visibility,
            },
        )
        await self._deliver(interaction, lang, shown, visibility, campaign)

    async def _source(
        self,
        campaign: CampaignRecord | None,
        user: discord.abc.User | None,
        character_name: str | None,
        attribute: str | None,
        value: int | None,
        *,
        fallback: str,
        viewer: int,
        skill: str | None = None,
        opponent: bool = False,
    ) -> Source:
        """A pool from a plain ``value``, or from ``attribute`` (and ``skill``) of a character:
        the one named, else the active character of ``user`` in the channel's campaign.

        NPC sheets are the GM's: a player (``viewer`` not a GM) rolls only with their own
        characters, and an NPC ``opponent`` is rolled with its values but ``hidden``."""
        if skill and (value is not None or not attribute):
            raise BadInput("roll.probe.skill_needs_attribute")
        if value is not None:
            label = character_name or (user.display_name if user else fallback)
            return Source(label, attribute.strip() if attribute else None, value, character_name)
        if not attribute and opponent:  # the opponent's side is missing, not mine
            who = character_name or (_display(user) if user else fallback)
            raise BadInput("roll.contest.opponent_no_pool", name=who.strip()[:40])
        if not attribute:
            raise BadInput("roll.probe.no_pool")
        if campaign is None:
            raise BadInput("roll.probe.no_campaign")
        character = await self._character(campaign, user, character_name, viewer, opponent)
        if character.owner_id is None and not campaign.is_gm(viewer):  # an NPC opponent
            try:
                name, number = _attribute(character, attribute)
            except BadInput:  # its error would list the sheet's attributes and skills
                raise BadInput(
                    "roll.contest.npc_cannot", name=character.name, attribute=attribute.strip()[:40]
                ) from None
            return Source(character.name, name, number, character.name, hidden=True)
        name, number = _attribute(character, attribute)
        if not skill:
            return Source(character.name, name, number, character.name)
        skill_name, points = _skill(character, skill)
        return Source(character.name, name, number, character.name, skill_name, points)

    async def _character(
        self,
        campaign: CampaignRecord,
        user: discord.abc.User | None,
        character_name: str | None,
        viewer: int,
        opponent: bool = False,
    ) -> CharacterRecord:
        """The character named, else ``user``'s active one. A player may name only their own
        characters (an opponent: any); an NPC or another's character reads as no such name."""
        if character_name:
            wanted = character_name.strip().casefold()
            for character in await self.bot.store.characters(campaign.id):
                if character.name.casefold() == wanted and _may_use(
                    campaign, character, viewer, opponent
                ):
                    return character
            key = "roll.probe.not_yours" if _limited(campaign, viewer, opponent) else None
            raise BadInput(key or "roll.probe.unknown_character", name=character_name.strip()[:40])
        if user is None:
            raise BadInput("roll.contest.no_opponent")
        active = await self.bot.store.active_character(campaign.id, user.id)
        if active is None:
            raise BadInput("roll.probe.no_character", name=_display(user))
        return active

    @probe_command.autocomplete("eigenschaft")
    @probe_komplex.autocomplete("eigenschaft")
    @probe_contest.autocomplete("eigenschaft")
    async def _attribute_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        name = getattr(interaction.namespace, "charakter", None)
        return await self._attribute_choices(interaction, interaction.user, name, current, False)

    @probe_contest.autocomplete("gegner_eigenschaft")
    async def _opponent_attribute_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        namespace = interaction.namespace
        user = getattr(namespace, "gegner", None)
        name = getattr(namespace, "gegner_charakter", None)
        return await self._attribute_choices(interaction, user, name, current, True)

    async def _attribute_choices(
        self,
        interaction: discord.Interaction[Any],
        user: Any,
        character_name: str | None,
        current: str,
        opponent: bool,
    ) -> list[app_commands.Choice[str]]:
        """The Eigenschaften of the named character, else of ``user``'s active character."""
        character = await self._choice_character(interaction, user, character_name, opponent)
        values = character.sheet.get("eigenschaften") if character else None
        if not isinstance(values, dict):
            return []
        return _name_choices(values, current)

    @probe_command.autocomplete("fertigkeit")
    async def _skill_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The Fertigkeiten of the chosen character, else of the caller's active one."""
        name = getattr(interaction.namespace, "charakter", None)
        character = await self._choice_character(interaction, interaction.user, name, False)
        if character is None:
            return []
        try:
            return _name_choices(_skills(character), current)
        except BadInput:  # a stored sheet that no longer validates offers nothing
            return []

    async def _choice_character(
        self,
        interaction: discord.Interaction[Any],
        user: Any,
        character_name: str | None,
        opponent: bool,
    ) -> CharacterRecord | None:
        """The character whose values autocomplete may offer: as the commands find it, never
        an NPC's to a player (its values and names are the GM's)."""
        campaign = await self._campaign(interaction)
        if campaign is None:
            return None
        viewer = interaction.user.id
        found = None
        if character_name:
            wanted = str(character_name).strip().casefold()
            everyone = await self.bot.store.characters(campaign.id)
            found = next(
                (
                    c
                    for c in everyone
                    if c.name.casefold() == wanted and _may_use(campaign, c, viewer, opponent)
                ),
                None,
            )
        elif isinstance(user, discord.abc.User):
            found = await self.bot.store.active_character(campaign.id, user.id)
        if found is not None and found.owner_id is None and not campaign.is_gm(viewer):
            return None
        return found

    @probe_command.autocomplete("charakter")
    @probe_komplex.autocomplete("charakter")
    @probe_contest.autocomplete("charakter")
    async def _character_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The characters the caller may roll with: a player's own, every one for the GMs."""
        return await self._character_choices(interaction, current, opponent=False)

    @probe_contest.autocomplete("gegner_charakter")
    async def _opponent_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Every character as an opponent, NPCs too (names only; a choice carries no values)."""
        return await self._character_choices(interaction, current, opponent=True)

    async def _character_choices(
        self, interaction: discord.Interaction[Any], current: str, *, opponent: bool
    ) -> list[app_commands.Choice[str]]:
        campaign = await self._campaign(interaction)
        if campaign is None:
            return []
        word = current.strip().casefold()
        viewer = interaction.user.id
        return [
            app_commands.Choice(name=c.name[:CHOICE_LIMIT], value=c.name[:CHOICE_LIMIT])
            for c in sorted(await self.bot.store.characters(campaign.id), key=lambda c: c.name)
            if c.name.casefold().startswith(word) and _may_use(campaign, c, viewer, opponent)
        ][:AUTOCOMPLETE_LIMIT]

    @probe_command.autocomplete("erschwernis")
    @probe_komplex.autocomplete("erschwernis")
    async def _difficulty_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """A typed number as "−N W6", and the named levels that start like the text (all of
        them for an empty text or a number)."""
        lang = await lang_for(interaction)
        typed = current.strip().replace("−", "-").replace(" ", "")
        choices = []
        number = NUMBER.fullmatch(typed) is not None
        if number:
            count = abs(int(typed))
            label = t("roll.difficulty.dice", lang, dice=count)
            choices.append(app_commands.Choice(name=label, value=str(count)))
        word = current.strip().casefold()
        for level in Difficulty:
            name = t(f"roll.difficulty.{level.name.lower()}", lang)
            if number or name.casefold().startswith(word):
                label = t("roll.difficulty.choice", lang, name=name, dice=level.dice)
                choices.append(app_commands.Choice(name=label, value=level.name.lower()))
        return choices[:AUTOCOMPLETE_LIMIT]

    # ---- /telperinquar-wurf angriff | erfolgswurf ----------------------------------------

    @telperinquar.command(
        name=cmd("roll.cmd.tq_attack.name"), description=cmd("roll.cmd.tq_attack.desc")
    )
    @app_commands.rename(
        bonus=cmd("roll.opt.bonus.name"),
        ruestung=cmd("roll.opt.armour.name"),
        gegen=cmd("roll.opt.against.name"),
        **VISIBILITY_RENAMES,
    )
    @app_commands.describe(
        bonus=cmd("roll.opt.tq_bonus.desc"),
        ruestung=cmd("roll.opt.armour.desc"),
        gegen=cmd("roll.opt.against.desc"),
        **VISIBILITY_DESCRIPTIONS,
    )
    @app_commands.choices(
        gegen=[
            app_commands.Choice(name=cmd("roll.choice.hero"), value="held"),
            app_commands.Choice(name=cmd("roll.choice.creature"), value="wesen"),
        ]
    )
    async def tq_attack(
        self,
        interaction: discord.Interaction[Any],
        bonus: TqNumber = 0,
        ruestung: TqNumber | None = None,
        gegen: str = "held",
        privat: bool = False,
        geheim: bool = False,
    ) -> None:
        lang, visibility, campaign = await self._context(interaction, privat, geheim)
        result, _ = attack_roll(bonus, self.new_rng())
        if ruestung is not None:
            result.damage(ruestung, target_is_hero=True)  # range check before anything is sent
        who = _display(interaction.user)
        shown = Shown(text=lambda lg: attack_text(lg, who, result, ruestung, gegen != "wesen"))
        await self._deliver(interaction, lang, shown, visibility, campaign)

    @telperinquar.command(name=cmd("roll.cmd.tq_ew.name"), description=cmd("roll.cmd.tq_ew.desc"))
    @app_commands.rename(
        stufe=cmd("roll.opt.level.name"), ziel=cmd("roll.opt.target.name"), **VISIBILITY_RENAMES
    )
    @app_commands.describe(
        stufe=cmd("roll.opt.level.desc"),
        ziel=cmd("roll.opt.target.desc"),
        **VISIBILITY_DESCRIPTIONS,
    )
    async def tq_erfolgswurf(
        self,
        interaction: discord.Interaction[Any],
        stufe: Level,
        ziel: TqNumber,
        privat: bool = False,
        geheim: bool = False,
    ) -> None:
        lang, visibility, campaign = await self._context(interaction, privat, geheim)
        result, _ = erfolgswurf(stufe, ziel, self.new_rng())
        who = _display(interaction.user)
        shown = Shown(text=lambda lg: erfolgswurf_text(lg, who, result))
        await self._deliver(interaction, lang, shown, visibility, campaign)

    # ---- delivery ------------------------------------------------------------------------

    async def _context(
        self, interaction: discord.Interaction[Any], privat: bool, geheim: bool
    ) -> tuple[str, Visibility, CampaignRecord | None]:
        """Language, visibility and campaign of a roll; a secret roll needs a campaign."""
        visibility = _visibility(privat, geheim)
        lang, campaign = await self._lang_and_campaign(interaction, visibility)
        return lang, visibility, campaign

    async def _lang_and_campaign(
        self, interaction: discord.Interaction[Any], visibility: Visibility
    ) -> tuple[str, CampaignRecord | None]:
        lang = await lang_for(interaction)
        campaign = await self._campaign(interaction)
        self._check_secret(visibility, campaign)
        return lang, campaign

    async def _own_pool(
        self,
        interaction: discord.Interaction[Any],
        campaign: CampaignRecord | None,
        charakter: str | None,
        eigenschaft: str | None,
        wert: int | None,
        bonus: int,
        erschwernis: str | None,
        fertigkeit: str | None = None,
    ) -> tuple[Source, Pool]:
        """The roller's pool: Eigenschaft (sheet or value) + Fertigkeit + bonus − Erschwernis,
        the Fertigkeit's points added as dice as ``/charakter probe`` does: one Fertigkeit point
        adds one W6 (our reading of «Durch geeignete Fertigkeiten und Hilfsmittel kann die
        Anzahl der Würfel … erhöht werden», which names no amount; data/w6/RULES.md)."""
        source = await self._source(
            campaign,
            interaction.user,
            charakter,
            eigenschaft,
            wert,
            fallback="",
            viewer=interaction.user.id,
            skill=fertigkeit,
        )
        penalty, difficulty = _erschwernis(erschwernis)
        return source, Pool(source.value, bonus + source.skill_value, penalty, difficulty)

    async def _campaign(self, interaction: discord.Interaction[Any]) -> CampaignRecord | None:
        if interaction.channel_id is None:
            return None
        return await self.bot.store.active_campaign(interaction.channel_id)

    @staticmethod
    def _check_secret(visibility: Visibility, campaign: CampaignRecord | None) -> None:
        if visibility == "secret" and campaign is None:
            raise BadInput("roll.secret.no_campaign")

    async def _log(
        self, campaign: CampaignRecord | None, user_id: int, kind: str, data: dict[str, Any]
    ) -> None:
        if campaign is not None:
            await self.bot.store.add_log(campaign.id, user_id, kind, data)

    @staticmethod
    async def _defer(interaction: discord.Interaction[Any], visibility: Visibility) -> None:
        """Answer "thinking…" now, before heavy work: Discord drops an interaction that has
        no answer after 3 s. The result then replaces it (ephemeral unless it is open)."""
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=visibility != "open", thinking=True)

    @staticmethod
    def _extras(lang: str, shown: Shown, png: bytes | None) -> dict[str, Any]:
        extras: dict[str, Any] = {}
        if shown.reroll is not None:
            view = discord.ui.View(timeout=None)
            view.add_item(
                discord.ui.Button(
                    label=t("roll.again.label", lang),
                    emoji="🎲",
                    style=discord.ButtonStyle.secondary,
                    custom_id=shown.reroll,
                )
            )
            view.stop()  # answered by the component router; not kept in discord.py's store
            extras["view"] = view
        if png is not None and shown.image is not None:
            extras["file"] = discord.File(
                io.BytesIO(png),
                filename=f"{IMAGE_NAME}.png",
                description=_image_alt(lang, shown.image),
            )
        return extras

    async def _deliver(
        self,
        interaction: discord.Interaction[Any],
        lang: str,
        shown: Shown,
        visibility: Visibility,
        campaign: CampaignRecord | None,
    ) -> None:
        png = None
        if shown.image is not None and shown.image.dice_count >= HEAVY_DICE:
            await self._defer(interaction, visibility)
            png = await run_heavy(render_dice, shown.image)
        elif shown.image is not None:
            png = await render_async(render_dice, shown.image)
        text = _fit(shown.text(lang))
        extras = self._extras(lang, shown, png)
        quiet = discord.AllowedMentions.none()
        if visibility != "secret" or campaign is None:
            ephemeral = visibility == "private"
            await send(interaction, text, ephemeral=ephemeral, allowed_mentions=quiet, **extras)
            return
        await send(interaction, text, ephemeral=True, allowed_mentions=quiet, **extras)
        reached = await self._tell_gms(interaction, campaign, shown, png)
        notice = t("roll.secret.notice", lang, name=_display(interaction.user))
        await interaction.followup.send(notice, allowed_mentions=quiet)
        if not reached:
            await interaction.followup.send(t("roll.secret.dm_failed", lang), ephemeral=True)

    async def _tell_gms(
        self,
        interaction: discord.Interaction[Any],
        campaign: CampaignRecord,
        shown: Shown,
        png: bytes | None,
    ) -> bool:
        """DM the result to every GM of the campaign except the roller; False if one failed."""
        roller = interaction.user.id
        gms = [g for g in dict.fromkeys([campaign.gm_id, *campaign.co_gm_ids]) if g != roller]
        results = await asyncio.gather(
            *(self._dm(gm, interaction, campaign, shown, png) for gm in gms)
        )
        return all(results)

    async def _dm(
        self,
        user_id: int,
        interaction: discord.Interaction[Any],
        campaign: CampaignRecord,
        shown: Shown,
        png: bytes | None,
    ) -> bool:
        lang = await self.bot.store.get_pref(user_id, LANGUAGE_PREF) or DEFAULT_LANGUAGE
        header = t(
            "roll.secret.dm_header",
            lang,
            name=_display(interaction.user),
            channel=f"<#{interaction.channel_id}>",
            campaign=_plain(campaign.name),
        )
        extras: dict[str, Any] = {}
        if png is not None and shown.image is not None:
            extras["file"] = discord.File(
                io.BytesIO(png),
                filename=f"{IMAGE_NAME}.png",
                description=_image_alt(lang, shown.image),
            )
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(
                _fit(f"{header}\n{shown.text(lang)}"),
                allowed_mentions=discord.AllowedMentions.none(),
                **extras,
            )
        except discord.HTTPException:
            log.info("could not DM secret roll to GM %s of campaign %s", user_id, campaign.id)
            return False
        return True


async def setup(bot: SpielleiterBot) -> None:
    await bot.add_cog(Dice(bot))
