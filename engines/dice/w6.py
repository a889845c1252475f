"""W6 checks ("Prüfungen des Alltags", W6-Regeln): Probe, Erschwerte Probe, Komplexe Probe,
Konkurrierende Probe. Every pool is rolled with :func:`engines.dice.pool.roll_pool` (a 5 or 6
is a success).

API:

``Difficulty``: ``NORMAL`` (3), ``ANSPRUCHSVOLL`` (6), ``SCHWER`` (9), ``SEHR_SCHWER`` (12),
``FAST_UNMOEGLICH`` (15); ``.dice`` = W6 removed, ``.rulebook_name`` (e.g. "Sehr schwer"),
``.key`` (i18n key, e.g. ``dice.w6.difficulty.sehr_schwer``).

``Pool(base, bonus=0, penalty=0, difficulty=None)``: ``base`` Eigenschaft value (or the dice
assigned to one part of a Komplexe Probe), ``bonus`` W6 from Fertigkeiten/Hilfsmittel,
``penalty`` summed Abzüge in W6, ``difficulty`` a named Erschwerung; ``.dice`` = base + bonus
- penalty - difficulty.dice (may be 0 or less: such a pool fails without rolling).

``ProbeSpec(pool, required=2)``.

``probe(spec, rng) -> (ProbeResult, Rng)``: ``ProbeResult.spec``, ``.dice_count`` (effective
pool), ``.rolled`` (False when the pool was 0 or less), ``.roll`` (PoolRoll: ``.dice`` every die,
``.successes``, ``.fives``, ``.sixes``), ``.dice``, ``.successes``, ``.required``, ``.passed``,
``.margin`` (successes - required).

``komplexe_probe(pool, parts, rng) -> (KomplexResult, Rng)``: ``parts`` a sequence of
ProbeSpec whose ``pool.base`` values are the share of ``pool.dice`` given to each part (their
own bonus/penalty/difficulty apply to that part only). ``KomplexResult.available`` (pool.dice),
``.parts`` (ProbeResult each), ``.unused`` (dice not assigned), ``.rolled``, ``.passed`` (every
part passed).

``konkurrierende_probe(first, second, rng) -> (ContestResult, Rng)``: ``ContestSide(label,
pool)``; ``ContestResult.sides`` (two ``SideResult``: ``label``, ``dice_count``, ``rolled``,
``roll``, ``successes``), ``.winner`` (0, 1 or None for a tie), ``.tie``, ``.margin``.

Text forms (see ``data/dice/RULES.md``): ``parse_pool(text) -> Pool``, ``parse_probe(text) ->
ProbeSpec`` (``"5+2"``, ``"7 erfolge:3"``, ``"6+1-2 schwer e3"``), ``parse_komplex(parts,
requirements=None) -> tuple[ProbeSpec, ...]`` (``"3/2/2"``, ``"3,2,2"`` or ``"3 2 2"`` with
``"2,2,1"``, or ``"3:2/2/2-1:1"``),
``parse_difficulty(text) -> Difficulty``.

Errors (BadInput key and params): ``dice.w6.bad_number`` (field, value, min, max);
``dice.w6.pool_too_big`` (dice, limit); ``dice.w6.syntax`` (text); ``dice.w6.unknown_difficulty``
(text); ``dice.w6.komplex_split_syntax`` / ``dice.w6.komplex_requirements_syntax`` (text);
``dice.w6.komplex_parts`` (count, min, max); ``dice.w6.komplex_split`` (used,
available); ``dice.w6.komplex_requirements`` (parts, requirements).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from engines.core import BadInput, Rng
from engines.dice.pool import PoolRoll, roll_pool

MAX_POOL = 100  # W6 in one throw; far above any character, small enough for a message
DEFAULT_REQUIRED = 2  # "Grundsätzlich sind bei einer Probe zwei so genannte Erfolge gefordert"
MIN_PARTS, MAX_PARTS = 2, 10


class Difficulty(Enum):
    """The Erschwerung levels of the W6 rules ("Erschwerte Proben"); value = W6 removed."""

    NORMAL = 3
    ANSPRUCHSVOLL = 6
    SCHWER = 9
    SEHR_SCHWER = 12
    FAST_UNMOEGLICH = 15

    @property
    def dice(self) -> int:
        return self.value

    @property
    def rulebook_name(self) -> str:
        return _RULEBOOK_NAMES[self]

    @property
    def key(self) -> str:
        return f"dice.w6.difficulty.{self.name.lower()}"


_RULEBOOK_NAMES = {
    Difficulty.NORMAL: "Normal",
    Difficulty.ANSPRUCHSVOLL: "Anspruchsvoll",
    Difficulty.SCHWER: "Schwer",
    Difficulty.SEHR_SCHWER: "Sehr schwer",
    Difficulty.FAST_UNMOEGLICH: "Fast unmöglich",
}
# Spellings accepted in text (after lower-casing, ä→ae ö→oe ü→ue ß→ss, "-"/"_" → space).
_DIFFICULTY_WORDS = {
    "normal": Difficulty.NORMAL,
    "anspruchsvoll": Difficulty.ANSPRUCHSVOLL,
    "demanding": Difficulty.ANSPRUCHSVOLL,
    "challenging": Difficulty.ANSPRUCHSVOLL,
    "schwer": Difficulty.SCHWER,
    "hard": Difficulty.SCHWER,
    "sehr schwer": Difficulty.SEHR_SCHWER,
    "very hard": Difficulty.SEHR_SCHWER,
    "fast unmoeglich": Difficulty.FAST_UNMOEGLICH,
    "fast unmoglich": Difficulty.FAST_UNMOEGLICH,
    "nearly impossible": Difficulty.FAST_UNMOEGLICH,
    "almost impossible": Difficulty.FAST_UNMOEGLICH,
}
_DIFFICULTY_PATTERN = re.compile(
    r"\b("
    + "|".join(re.escape(w) for w in sorted(_DIFFICULTY_WORDS, key=len, reverse=True))
    + r")\b"
)
_REQUIRED_PATTERN = re.compile(
    r"\b(?:erfolge|erfolg|erf|e|successes|success|succ|s)\s*[:=]?\s*(\d+)\b"
)
_POOL_PATTERN = re.compile(r"\d+(?:[+-]\d+)*")
_PART_PATTERN = re.compile(r"(\d+)((?:[+-]\d+)*)(?::(\d+))?")
_LIST_SEPARATORS = re.compile(r"[/,;\s]+")  # "3/2/2", "3,2,2", "3; 2; 2", "3 2 2"
_QUOTED = 60  # characters of unreadable input quoted back


@dataclass(frozen=True, slots=True)
class Pool:
    """W6 available for one throw; see the module doc for the fields."""

    base: int
    bonus: int = 0
    penalty: int = 0
    difficulty: Difficulty | None = None

    @property
    def dice(self) -> int:
        removed = self.penalty + (self.difficulty.dice if self.difficulty else 0)
        return self.base + self.bonus - removed

    def validate(self) -> None:
        """Raises :class:`BadInput` (``dice.w6.bad_number`` / ``dice.w6.pool_too_big``)."""
        for field, value in (("base", self.base), ("bonus", self.bonus)):
            _check_range(field, value, 0, MAX_POOL)
        _check_range("penalty", self.penalty, 0, MAX_POOL)
        if self.dice > MAX_POOL:
            raise BadInput("dice.w6.pool_too_big", dice=self.dice, limit=MAX_POOL)


@dataclass(frozen=True, slots=True)
class ProbeSpec:
    pool: Pool
    required: int = DEFAULT_REQUIRED

    def validate(self) -> None:
        """Raises :class:`BadInput` for an out-of-range pool or requirement."""
        self.pool.validate()
        _check_range("required", self.required, 1, MAX_POOL)


@dataclass(frozen=True, slots=True)
class ProbeResult:
    spec: ProbeSpec
    dice_count: int
    rolled: bool
    roll: PoolRoll

    @property
    def dice(self) -> tuple[int, ...]:
        return self.roll.dice

    @property
    def successes(self) -> int:
        return self.roll.successes

    @property
    def required(self) -> int:
        return self.spec.required

    @property
    def passed(self) -> bool:
        return self.rolled and self.successes >= self.required

    @property
    def margin(self) -> int:
        return self.successes - self.required


@dataclass(frozen=True, slots=True)
class KomplexResult:
    available: int
    parts: tuple[ProbeResult, ...]
    unused: int

    @property
    def rolled(self) -> bool:
        return any(part.rolled for part in self.parts)

    @property
    def passed(self) -> bool:
        return all(part.passed for part in self.parts)


@dataclass(frozen=True, slots=True)
class ContestSide:
    label: str
    pool: Pool


@dataclass(frozen=True, slots=True)
class SideResult:
    label: str
    dice_count: int
    rolled: bool
    roll: PoolRoll

    @property
    def successes(self) -> int:
        return self.roll.successes


@dataclass(frozen=True, slots=True)
class ContestResult:
    sides: tuple[SideResult, SideResult]

    @property
    def winner(self) -> int | None:
        first, second = (side.successes for side in self.sides)
        if first == second:
            return None
        return 0 if first > second else 1

    @property
    def tie(self) -> bool:
        return self.winner is None

    @property
    def margin(self) -> int:
        return abs(self.sides[0].successes - self.sides[1].successes)


# ---- rolling ----------------------------------------------------------------------------


def probe(spec: ProbeSpec, rng: Rng) -> tuple[ProbeResult, Rng]:
    """Roll a (possibly erschwerte) Probe. A pool of 0 or fewer W6 fails without rolling.

    Raises :class:`BadInput` for out-of-range numbers (see module doc).
    """
    spec.validate()
    return _roll_probe(spec, spec.pool.dice, rng)


def _roll_probe(spec: ProbeSpec, count: int, rng: Rng) -> tuple[ProbeResult, Rng]:
    roll, rng = roll_pool(count, rng)
    return ProbeResult(spec=spec, dice_count=count, rolled=count > 0, roll=roll), rng


def komplexe_probe(pool: Pool, parts: Sequence[ProbeSpec], rng: Rng) -> tuple[KomplexResult, Rng]:
    """Split ``pool`` over ``parts`` and roll each part as its own Probe.

    The parts' ``pool.base`` shares must add up to at most ``pool.dice``. When ``pool.dice`` is
    0 or less (an Erschwerung ate the pool) every part fails without rolling.
    Raises :class:`BadInput`: ``dice.w6.komplex_parts``, ``dice.w6.komplex_split`` and the
    range errors of :meth:`ProbeSpec.validate`.
    """
    pool.validate()
    if not MIN_PARTS <= len(parts) <= MAX_PARTS:
        raise BadInput("dice.w6.komplex_parts", count=len(parts), min=MIN_PARTS, max=MAX_PARTS)
    for part in parts:
        part.validate()
    available = pool.dice
    if available <= 0:
        results = tuple(_roll_probe(part, 0, rng)[0] for part in parts)
        return KomplexResult(available=available, parts=results, unused=0), rng
    used = sum(part.pool.base for part in parts)
    if used > available:
        raise BadInput("dice.w6.komplex_split", used=used, available=available)
    rolled: list[ProbeResult] = []
    for part in parts:
        result, rng = _roll_probe(part, part.pool.dice, rng)
        rolled.append(result)
    return KomplexResult(available=available, parts=tuple(rolled), unused=available - used), rng


def konkurrierende_probe(
    first: ContestSide, second: ContestSide, rng: Rng
) -> tuple[ContestResult, Rng]:
    """Both sides roll their pools; more successes wins, equal successes are a tie.

    A side whose pool is 0 or less rolls nothing and has 0 successes.
    Raises :class:`BadInput` for out-of-range pools.
    """
    results: list[SideResult] = []
    for side in (first, second):
        side.pool.validate()
        count = side.pool.dice
        roll, rng = roll_pool(count, rng)
        results.append(SideResult(side.label, count, count > 0, roll))
    return ContestResult((results[0], results[1])), rng


# ---- text forms -------------------------------------------------------------------------


def _check_range(field: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise BadInput("dice.w6.bad_number", field=field, value=value, min=low, max=high)


def _normalize(text: str) -> str:
    text = text.lower()
    for umlaut, plain in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")):
        text = text.replace(umlaut, plain)
    text = re.sub(r"[-_](?=[a-z])", " ", text)  # "sehr-schwer", "fast_unmöglich"
    text = re.sub(r"\s*([+-])\s*", r"\1", text)  # "5 + 2" → "5+2"
    return " ".join(text.split())


def parse_difficulty(text: str) -> Difficulty:
    """``"Sehr schwer"``, ``"sehr_schwer"``, ``"fast unmoeglich"``, ``"hard"`` … or the enum name.

    Raises :class:`BadInput` ``dice.w6.unknown_difficulty``.
    """
    word = _normalize(text)
    if word in _DIFFICULTY_WORDS:
        return _DIFFICULTY_WORDS[word]
    for level in Difficulty:
        if word.replace(" ", "_") == level.name.lower():
            return level
    raise BadInput("dice.w6.unknown_difficulty", text=text.strip())


def _split_pool(expression: str) -> tuple[int, int, int]:
    """``"5+2-1+1"`` → (base 5, bonus 3, penalty 1)."""
    terms = re.findall(r"[+-]?\d+", expression)
    base = int(terms[0])
    bonus = sum(int(t) for t in terms[1:] if t.startswith("+"))
    penalty = -sum(int(t) for t in terms[1:] if t.startswith("-"))
    return base, bonus, penalty


def _take_difficulty(text: str, original: str) -> tuple[Difficulty | None, str]:
    found = _DIFFICULTY_PATTERN.findall(text)
    if len(found) > 1:
        raise BadInput("dice.w6.syntax", text=original.strip())
    rest = _DIFFICULTY_PATTERN.sub(" ", text)
    return (_DIFFICULTY_WORDS[found[0]] if found else None), rest


def parse_pool(text: str) -> Pool:
    """``"5"``, ``"5+2"``, ``"5+2-3"``, ``"7+1 schwer"``: the first number is the Eigenschaft,
    ``+N`` adds Fertigkeit/Hilfsmittel W6, ``-N`` removes W6, a level name adds its Erschwerung.

    Raises :class:`BadInput` ``dice.w6.syntax`` / ``dice.w6.unknown_difficulty`` and range errors.
    """
    pool, required = _parse_pool_and_required(text)
    if required is not None:
        raise BadInput("dice.w6.syntax", text=text.strip())
    return pool


def parse_probe(text: str) -> ProbeSpec:
    """A pool as in :func:`parse_pool`, optionally with the successes required:
    ``"7 erfolge:3"``, ``"7 e3"``, ``"5+2 schwer erfolge=3"``, ``"5+2 successes 3"``.

    Raises :class:`BadInput` ``dice.w6.syntax`` and range errors.
    """
    pool, required = _parse_pool_and_required(text)
    spec = ProbeSpec(pool, DEFAULT_REQUIRED if required is None else required)
    spec.validate()
    return spec


def _parse_pool_and_required(text: str) -> tuple[Pool, int | None]:
    normalized = _normalize(text)
    difficulty, rest = _take_difficulty(normalized, text)
    required_found = _REQUIRED_PATTERN.findall(rest)
    if len(required_found) > 1:
        raise BadInput("dice.w6.syntax", text=text.strip())
    rest = " ".join(_REQUIRED_PATTERN.sub(" ", rest).split())
    if not _POOL_PATTERN.fullmatch(rest):
        raise BadInput("dice.w6.syntax", text=text.strip())
    base, bonus, penalty = _split_pool(rest)
    pool = Pool(base, bonus, penalty, difficulty)
    pool.validate()
    return pool, int(required_found[0]) if required_found else None


def parse_komplex(parts: str, requirements: str | None = None) -> tuple[ProbeSpec, ...]:
    """Parts separated by ``/``, ``,``, ``;`` or spaces: each ``N`` (its share of W6), optionally
    ``+B``/``-P`` W6 for that part only and ``:R`` successes required (default 2):
    ``"3/2/2"``, ``"3,2,2"``, ``"3 2 2"``, ``"3:2/2/2-1:1"``. ``requirements`` (``"2,2,1"``;
    the same separators) gives R for every part and overrides any ``:R``; a single number
    applies to all parts.

    Raises :class:`BadInput` ``dice.w6.komplex_split_syntax`` / ``komplex_requirements_syntax``
    (text) for what is not such a list, ``dice.w6.komplex_parts``,
    ``dice.w6.komplex_requirements`` and range errors.
    """
    matches = _part_matches(parts)
    if not MIN_PARTS <= len(matches) <= MAX_PARTS:
        raise BadInput("dice.w6.komplex_parts", count=len(matches), min=MIN_PARTS, max=MAX_PARTS)
    specs = [_part_spec(match) for match in matches]
    if requirements is not None and requirements.strip():
        specs = _apply_requirements(specs, requirements)
    for spec in specs:
        spec.validate()
    return tuple(specs)


def _part_matches(parts: str) -> list[re.Match[str]]:
    glued = re.sub(r"\s*([+:-])\s*", r"\1", parts.replace("−", "-"))
    tokens = [t for t in _LIST_SEPARATORS.split(glued) if t]
    matches = [m for m in map(_PART_PATTERN.fullmatch, tokens) if m is not None]
    if not tokens or len(matches) < len(tokens):
        raise BadInput("dice.w6.komplex_split_syntax", text=parts.strip()[:_QUOTED])
    return matches


def _part_spec(match: re.Match[str]) -> ProbeSpec:
    base, bonus, penalty = _split_pool(match.group(1) + match.group(2))
    required = int(match.group(3)) if match.group(3) else DEFAULT_REQUIRED
    return ProbeSpec(Pool(base, bonus, penalty), required)


def _apply_requirements(specs: list[ProbeSpec], requirements: str) -> list[ProbeSpec]:
    values = [t for t in _LIST_SEPARATORS.split(requirements.strip()) if t]
    if not all(v.isdecimal() for v in values):
        raise BadInput("dice.w6.komplex_requirements_syntax", text=requirements.strip()[:_QUOTED])
    if len(values) == 1:
        values = values * len(specs)
    if len(values) != len(specs):
        raise BadInput("dice.w6.komplex_requirements", parts=len(specs), requirements=len(values))
    return [ProbeSpec(spec.pool, int(v)) for spec, v in zip(specs, values, strict=True)]
