"""The dice cog's Discord-free half, beside its renderer: the texts of ``/roll``, the W6 checks
(``/probe``, ``/probe-komplex``, ``/probe-konkurrierend``) and the Telperinquár rolls in the
reader's language, the dice images (:mod:`bot.render.dice`), what each roll shows and writes to
the campaign log (:class:`Shown`), the names of saved rolls and their expansion, a W6 pool's
difficulty, and the autocomplete choices as (label, value) pairs. No Discord objects and no
store: the cog parses, calls these (and ``bot.services.dice`` for the character a pool comes
from) and replies (Discord's markdown is escaped here for echoed names).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from discord.utils import escape_markdown

from bot.i18n import t
from bot.render.dice import DiceImage, DiceRow, DieView
from engines.core import BadInput
from engines.dice.notation import DiceGroup, DiceRoll, check_comment, check_notation
from engines.dice.pool import SUCCESS_MIN
from engines.dice.saved import expand_saved
from engines.dice.telperinquar import AttackRoll, ErfolgswurfResult
from engines.dice.w6 import (
    ContestResult,
    Difficulty,
    KomplexResult,
    Pool,
    ProbeResult,
    parse_difficulty,
)

Visibility = Literal["open", "private", "secret"]
MESSAGE_LIMIT = 2000
CHOICE_LIMIT = 100  # an autocomplete choice's name and value
IMAGE_FROM_DICE = 7  # an image only when a throw has more dice than a glance takes in
BACKTICK_STANDIN = "ˋ"


@dataclass(frozen=True)
class Shown:
    """What a roll shows: the text per language, an optional dice image and re-roll button,
    and what it writes to the campaign log (kind and data; ``None``: nothing)."""

    text: Callable[[str], str]
    image: DiceImage | None = None
    reroll: str | None = None  # custom_id of the "Nochmal würfeln" button
    log: tuple[str, dict[str, Any]] | None = None


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


def plain(text: str) -> str:
    return escape_markdown(text.replace("`", BACKTICK_STANDIN))


def code(text: str) -> str:
    return f"`{text.replace('`', BACKTICK_STANDIN)}`"


def fit_message(text: str) -> str:
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


def _die_views(dice: Sequence[int]) -> tuple[DieView, ...]:
    return tuple(DieView(d, marked=d >= SUCCESS_MIN) for d in dice)


def pool_image(rows: Sequence[tuple[str, Sequence[int]]]) -> DiceImage | None:
    image = DiceImage(tuple(DiceRow(label, _die_views(dice)) for label, dice in rows))
    return image if image.dice_count >= IMAGE_FROM_DICE else None


def _group_dice(result: DiceRoll, group: DiceGroup) -> tuple[DieView, ...]:
    return tuple(
        DieView(
            d.value,
            marked=bool(d.success),
            dropped=not (d.kept and group.kept),
            sides=group.sides,
            exploded=d.exploded,
            crit=result.mode != "successes" and d.crit,
            fumble=result.mode != "successes" and d.fumble,
            failed=bool(d.failure),
            fudge=group.fudge,
            percentile=group.percentile,
        )
        for d in group.dice
    )


def roll_image(result: DiceRoll) -> DiceImage | None:
    """The dice of a /roll with many dice, every die size in its shape, the result on top:
    successes marked, failures and dropped dice told apart, exploded dice starred, Fudge dice
    as −/blank/+; a repeated roll one row per set with its result (``#2 · 4d6kh3 · Σ 13``);
    a summary for huge
    pools (the sets of a huge repeated roll together)."""
    if not result.groups:
        return None
    if result.sets:  # each set's result beside its last dice (6#4d6kh3: six scores)
        rows = tuple(
            DiceRow(
                f"#{index} · {group.label or group.notation}"
                + (f" · {_roll_caption(one)}" if group is one.groups[-1] else ""),
                _group_dice(one, group),
            )
            for index, one in enumerate(result.sets, start=1)
            for group in one.groups
        )
    else:
        rows = tuple(
            DiceRow(group.label or group.notation, _group_dice(result, group))
            for group in result.groups
        )
    image = DiceImage(rows, caption=_roll_caption(result))
    if image.summarized and result.sets and len({row.dice[0].sides for row in rows}) == 1:
        together = DiceRow(
            f"{len(result.sets)} × {result.sets[0].groups[0].notation}",
            tuple(die for row in rows for die in row.dice),
        )
        image = DiceImage((together,), caption=image.caption)
    return image if image.dice_count >= IMAGE_FROM_DICE else None


def _roll_caption(result: DiceRoll) -> str:
    """The result in symbols every reader knows: ``Σ 17``, ``✓ 7``, ``17 ≥ 15 ✓ +2``,
    ``✓ 3/6`` (sets that met their target)."""
    if result.mode == "successes":
        if result.failures is not None:
            return f"✓ {result.successes} − ✗ {result.failures} = {result.total}"
        return f"✓ {result.total}"
    if result.mode == "target" and result.sets:
        return f"✓ {result.total}/{len(result.sets)}"
    if result.mode == "target":
        rule = (result.notation.success_rule or "").replace(">=", "≥").replace("<=", "≤")
        margin = _signed(result.margin or 0)
        return f"{result.total} {rule} {'✓' if result.target_met else '✗'} {margin}"
    return f"Σ {result.total}"


def image_alt(lang: str, image: DiceImage) -> str:
    faces = "; ".join(", ".join(str(d.value) for d in row.dice) for row in image.rows)
    only_w6 = all(d.sides == 6 for row in image.rows for d in row.dice)
    return t("roll.image.alt" if only_w6 else "roll.image.alt_any", lang, faces=faces)[:1000]


def roll_text(lang: str, who: str, expression: str, result: DiceRoll) -> str:
    lines = [t("roll.roll.header", lang, name=who, expression=code(expression)), result.breakdown]
    if result.hidden_dice:
        lines.append(t("roll.roll.hidden", lang, count=result.hidden_dice))
    lines.append(_sets_verdict(lang, result) if result.sets else _verdict_of_roll(lang, result))
    if result.crit:
        lines.append(t("roll.roll.crit", lang))
    if result.fumble:
        lines.append(t("roll.roll.fumble", lang))
    return "\n".join(lines)


def _verdict_of_roll(lang: str, result: DiceRoll) -> str:
    """The result line of one roll: the total, the successes (minus failures), or whether the
    target was met (a hit or a miss for ``vs``) and by how much."""
    rule = result.notation.success_rule or ""
    if result.mode == "successes":
        count = _successes(lang, result.total)
        if result.failures is None:
            return t("roll.roll.successes", lang, count=count, rule=rule)
        return t(
            "roll.roll.successes_failures",
            lang,
            count=count,
            hits=result.successes or 0,
            rule=rule,
            failures=result.failures,
            failure_rule=result.notation.failure_rule or "",
        )
    if result.mode == "target":
        margin = _signed(result.margin or 0)
        if result.notation.versus:
            key = "roll.roll.hit" if result.target_met else "roll.roll.miss"
            target = rule.split()[-1]
            return t(key, lang, total=result.total, target=target, margin=margin)
        key = "roll.roll.target_met" if result.target_met else "roll.roll.target_missed"
        return t(key, lang, total=result.total, rule=rule, margin=margin)
    return t("roll.roll.total", lang, total=result.total)


def _sets_verdict(lang: str, result: DiceRoll) -> str:
    """The result line of a repeated roll: every set's total and their sum, the successes of
    all sets, or how many sets met the target (hits for ``vs``)."""
    rule, sets = result.notation.success_rule or "", len(result.sets)
    if result.mode == "successes":
        count = _successes(lang, result.total)
        return t("roll.roll.sets_successes", lang, count=count, sets=sets, rule=rule)
    if result.mode == "target":
        if result.notation.versus:
            target = rule.split()[-1]
            return t("roll.roll.sets_hits", lang, met=result.total, sets=sets, target=target)
        return t("roll.roll.sets_met", lang, met=result.total, sets=sets, rule=rule)
    totals = ", ".join(str(one.total) for one in result.sets)
    return t("roll.roll.sets_total", lang, totals=totals, total=result.total)


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
        what += f" ({plain(source.character)})"
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
        detail = f"{plain(source.attribute)} {source.value}"
    return f"{detail} + {bonus}" if bonus else detail


def contest_text(
    lang: str,
    who: str,
    sources: tuple[Source, Source],
    bonuses: tuple[int, int],
    result: ContestResult,
) -> str:
    names = [plain(s.label) for s in sources]
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


# ---- what each roll shows (and logs) ---------------------------------------------------------


def roll_shown(
    who: str,
    expression: str,
    result: DiceRoll,
    visibility: str,
    reroll: str,
    image: DiceImage | None = None,
) -> Shown:
    """What a /roll shows; ``image``: its picture when it was drawn already (a heavy roll)."""
    return Shown(
        text=lambda lg: roll_text(lg, who, expression, result),
        image=image or roll_image(result),
        reroll=reroll,
        log=(
            "roll",
            {
                "expression": expression,
                "total": result.total,
                "mode": result.mode,
                "visibility": visibility,
                **_roll_log_details(result),
            },
        ),
    )


def _roll_log_details(result: DiceRoll) -> dict[str, Any]:
    """What a roll adds to its log entry beyond the total: the margin of a target, the
    failures of a Dice Maiden count, every set's total of a repeated roll."""
    details: dict[str, Any] = {}
    if result.margin is not None:
        details["margin"] = result.margin
    if result.failures is not None:
        details["successes"], details["failures"] = result.successes, result.failures
    if result.sets:
        details["sets"] = [one.total for one in result.sets]
    return details


def probe_shown(who: str, source: Source, result: ProbeResult, visibility: str) -> Shown:
    return Shown(
        text=lambda lg: probe_text(lg, who, source, result),
        image=pool_image([("", result.dice)]),
        log=(
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
        ),
    )


def komplex_shown(
    lang: str, who: str, source: Source, pool: Pool, result: KomplexResult, visibility: str
) -> Shown:
    """``lang``: the roller's, for the labels of the parts in the image."""
    rows = [
        (t("roll.komplex.part_label", lang, index=i), part.dice)
        for i, part in enumerate(result.parts, start=1)
    ]
    return Shown(
        text=lambda lg: komplex_text(lg, who, source, pool, result),
        image=pool_image(rows),
        log=(
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
        ),
    )


def contest_shown(
    who: str,
    sources: tuple[Source, Source],
    bonuses: tuple[int, int],
    result: ContestResult,
    visibility: str,
) -> Shown:
    return Shown(
        text=lambda lg: contest_text(lg, who, sources, bonuses, result),
        image=pool_image(
            [
                (side.label, side.roll.dice)
                for side, source in zip(result.sides, sources, strict=True)
                if not source.hidden  # the count of an NPC's dice would tell its values
            ]
        ),
        log=(
            "probe_konkurrierend",
            {
                "sides": [
                    {"label": s.label, "dice": list(s.roll.dice), "successes": s.successes}
                    for s in result.sides
                ],
                "winner": result.winner,
                "visibility": visibility,
            },
        ),
    )


def saved_list_text(
    lang: str, mine: Mapping[str, str], theirs: Mapping[str, str], campaign: str | None
) -> str:
    """``/würfel liste``: the user's saved rolls, and the campaign's (``campaign``: its name)."""
    lines = [t("roll.saved.list_mine", lang)]
    lines += [f"• **{n}** — {code(e)}" for n, e in sorted(mine.items())] or [
        t("roll.saved.list_empty", lang)
    ]
    if campaign is not None:
        lines.append(t("roll.saved.list_campaign", lang, campaign=plain(campaign)))
        lines += [f"• **{n}** — {code(e)}" for n, e in sorted(theirs.items())] or [
            t("roll.saved.list_campaign_empty", lang)
        ]
    return fit_message("\n".join(lines))


NAME_PATTERN = re.compile(r"[^\W\d_][\w-]{0,31}")
LEADING_WORD = re.compile(r"\s*([^\W\d_][\w-]*)(.*)", re.DOTALL)


# ---- the names of saved rolls (/würfel speichern, a name leading /roll) ---------------------
# Names are one word (a letter first, then letters, digits, ``-``/``_``, at most 32, stored
# lower-case) that is not dice notation and does not read like it (``d20``, ``w6``, ``kh3`` or
# ``x2`` cannot be names: the name leads the comment of what it expands to). An expression
# starting with a saved name (for ``feuerball-2`` also the name before a ``-``) is expanded by
# engines.dice.saved.expand_saved: ``8W6>=5 feuerball auf den Ork``, ``(2W6+3)+2 feuerball``,
# ``10W6>=5 feuerball+2`` for two more dice of a success roll.


def is_notation(text: str) -> bool:
    try:
        check_notation(text)
    except BadInput:
        return False
    return True


def reads_as_dice(name: str) -> bool:
    """Notation itself (``w20``), or a word that could not lead a comment (``kh3``, ``x2``):
    a saved roll's name leads the comment of what it expands to."""
    try:
        check_comment(name, 1)
    except BadInput:
        return True
    return is_notation(name)


def check_name(name: str) -> str:
    """The stored form of a saved-roll name. Raises BadInput for a name that cannot be one."""
    key = name.strip().lower()
    if not NAME_PATTERN.fullmatch(key):
        raise BadInput("roll.saved.bad_name", name=name.strip()[:40])
    if reads_as_dice(key):
        raise BadInput("roll.saved.name_is_dice", name=key)
    return key


def saved_name(word: str, saved: Mapping[str, str]) -> str | None:
    """The saved name ``word`` starts with: the whole word, else the part before one of its
    ``-`` (names may contain ``-``, and ``feuerball-2`` means ``feuerball`` minus 2)."""
    cuts = [len(word)] + [i for i in range(len(word) - 1, 0, -1) if word[i] == "-"]
    return next((word[:cut] for cut in cuts if word[:cut] in saved), None)


def nearest_names(word: str, saved: Mapping[str, str]) -> str:
    """The saved names closest to ``word`` (spelling or start), as a readable list."""
    near = difflib.get_close_matches(word, list(saved), n=3, cutoff=0.5)
    near += [n for n in sorted(saved) if n.startswith(word[:3]) and n not in near][: 3 - len(near)]
    return ", ".join(f"`{n}`" for n in near)


def check_unknown_name(expression: str, word: str, saved: Mapping[str, str]) -> None:
    """An expression that starts with a name-like word and is no dice notation either: a
    saved roll that is gone or mistyped. Raises BadInput naming the nearest saved names (a
    syntax error about column 1 would not help)."""
    if is_notation(expression) or not NAME_PATTERN.fullmatch(word) or reads_as_dice(word):
        return
    nearest = nearest_names(word, saved)
    if nearest:
        raise BadInput("roll.saved.unknown", name=word[:40], nearest=nearest)
    raise BadInput("roll.saved.unknown_none", name=word[:40])


# ---- a W6 pool's difficulty ----------------------------------------------------------------


NUMBER = re.compile(r"[-+]?\d{1,4}")


def difficulty_of(text: str | None) -> tuple[int, Difficulty | None]:
    """``"Schwer"``/``"sehr_schwer"`` → a named level; ``"4"``/``"-4"`` → 4 W6 removed."""
    if text is None or not text.strip():
        return 0, None
    cleaned = text.strip().replace("−", "-").replace(" ", "")
    if NUMBER.fullmatch(cleaned):
        return abs(int(cleaned)), None
    return 0, parse_difficulty(text)


def leading_name(expression: str) -> str | None:
    """The word an expression starts with if it may be a saved roll's name (not notation)."""
    match = LEADING_WORD.fullmatch(expression)
    if match is None:
        return None
    word = match.group(1).lower()
    return None if is_notation(word) else word


def with_saved(expression: str, saved: Mapping[str, str]) -> str:
    """The expression with the saved roll it starts with replaced (``saved``: the user's and
    the campaign's rolls); unchanged when it names none. Raises BadInput for a name-like word
    that is neither a saved roll nor notation (naming the nearest saved names)."""
    match = LEADING_WORD.fullmatch(expression)
    word = leading_name(expression)
    if match is None or word is None:
        return expression
    name = saved_name(word, saved)
    if name is None:
        check_unknown_name(expression, word, saved)
        return expression
    start = len(expression) - len(match.group(1)) - len(match.group(2))
    return expand_saved(name, saved[name], expression[start + len(name) :])


def saved_text(
    lang: str, name: str, expression: str, old: str | None, *, campaign_wide: bool
) -> str:
    """``/würfel speichern``'s answer; ``old``: what the name meant before (if anything)."""
    message = "roll.saved.saved_campaign" if campaign_wide else "roll.saved.saved"
    params: dict[str, str] = {"name": name, "expression": code(expression)}
    if old is not None and old != expression:  # say what the name meant before
        message = "roll.saved.replaced_campaign" if campaign_wide else "roll.saved.replaced"
        params["old"] = code(old)
    return t(message, lang, **params)


def expression_choices(
    lang: str, current: str, mine: Mapping[str, str], theirs: Mapping[str, str]
) -> list[tuple[str, str]]:
    """``/roll`` autocomplete as (label, value): what was typed (unless it is a saved name),
    then the user's and the campaign's saved rolls whose name starts like it."""
    typed = " ".join(current.split())
    match = LEADING_WORD.fullmatch(typed)
    word, rest = (match.group(1).lower(), match.group(2)) if match else (typed.lower(), "")
    choices: list[tuple[str, str]] = []
    if typed and len(typed) <= CHOICE_LIMIT and word not in mine and word not in theirs:
        choices.append((typed, typed))
    tag = t("roll.saved.campaign_tag", lang)
    entries = [(n, e, "") for n, e in mine.items()]
    entries += [(n, e, f" ({tag})") for n, e in theirs.items() if n not in mine]
    for name, expression, suffix in sorted(entries):
        value = name + rest
        if name.startswith(word) and len(value) <= CHOICE_LIMIT:
            label = f"{name} — {expression}"
            choices.append((label[: CHOICE_LIMIT - len(suffix)] + suffix, value))
    return choices


def difficulty_choices(lang: str, current: str) -> list[tuple[str, str]]:
    """Erschwernis autocomplete as (label, value): a typed number as "−N W6", and the named
    levels that start like the text (all of them for an empty text or a number)."""
    typed = current.strip().replace("−", "-").replace(" ", "")
    choices = []
    number = NUMBER.fullmatch(typed) is not None
    if number:
        count = abs(int(typed))
        choices.append((t("roll.difficulty.dice", lang, dice=count), str(count)))
    word = current.strip().casefold()
    for level in Difficulty:
        name = t(f"roll.difficulty.{level.name.lower()}", lang)
        if number or name.casefold().startswith(word):
            label = t("roll.difficulty.choice", lang, name=name, dice=level.dice)
            choices.append((label, level.name.lower()))
    return choices


# ---- names and choices ------------------------------------------------------------------------


class Person(Protocol):
    """Who rolls or is rolled against (a Discord user, but any id and name will do)."""

    @property
    def id(self) -> int: ...

    @property
    def display_name(self) -> str: ...


def display(user: Person) -> str:
    """A user's name as shown in a message (markdown escaped, backticks stood in for)."""
    return escape_markdown(user.display_name.replace("`", BACKTICK_STANDIN))


def name_choices(values: Mapping[str, Any], current: str) -> list[tuple[str, str]]:
    """``Name (value)`` choices for the names starting with ``current`` (any case)."""
    word = current.strip().casefold()
    return [
        (f"{name} ({value})"[:CHOICE_LIMIT], str(name))
        for name, value in sorted(values.items())
        if str(name).casefold().startswith(word)
    ]


def saved_choices(names: Mapping[str, str], current: str) -> list[tuple[str, str]]:
    """``name — expression`` choices for the saved rolls whose name starts like ``current``."""
    word = current.strip().lower()
    return [
        (f"{n} — {e}"[:CHOICE_LIMIT], n) for n, e in sorted(names.items()) if n.startswith(word)
    ]


def secret_header(lang: str, who: str, channel: str, campaign: str) -> str:
    """The first line of a secret roll's DM to a GM."""
    return t("roll.secret.dm_header", lang, name=who, channel=channel, campaign=plain(campaign))


def visibility_of(privat: bool, geheim: bool) -> Visibility:
    """A roll's visibility from its options (``geheim`` wins)."""
    if geheim:
        return "secret"
    return "private" if privat else "open"


def attack_shown(who: str, result: AttackRoll, armour: int | None, hero: bool) -> Shown:
    return Shown(text=lambda lg: attack_text(lg, who, result, armour, hero))


def erfolgswurf_shown(who: str, result: ErfolgswurfResult) -> Shown:
    return Shown(text=lambda lg: erfolgswurf_text(lg, who, result))
