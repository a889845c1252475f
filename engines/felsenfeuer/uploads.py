"""A group's own spell file checked exactly like the shipped ones: the loader's checks, the size
limits and every uploaded spell's own ``[spell.test]`` run against the merged spellbook (which
needs the resolution, so this module sits above ``scenario``)."""

from __future__ import annotations

import re
from functools import lru_cache

from engines.core.errors import BadInput
from engines.felsenfeuer.scenario import run_spell_test
from engines.felsenfeuer.spells import Spellbook, extra_problems, merged


@lru_cache(maxsize=32)
def upload_problems(extra_toml: str) -> tuple[str, ...]:
    """Every mistake of an uploaded spell file (``line N: Spell: what``), its spells' own tests
    run against the merged book; remembered per text, as every duel of a server starts (and
    every check of its config runs) with the same file."""
    spells, problems = extra_problems(extra_toml)
    if not problems:
        book = merged(extra_toml)
        for spell in spells:
            try:
                problems += [f"line {spell.line}: {p}" for p in run_spell_test(
                    book[spell.slug], extra_toml)]  # fmt: skip
            except Exception as error:  # a test that cannot run is a mistake of the file
                problems.append(f"line {spell.line}: {spell.name}: its test fails: {error}")
    return tuple(problems)


def spellbook_with(extra_toml: str) -> Spellbook:
    """Validate an uploaded spell file exactly like the shipped ones and return the merged
    spellbook: the loader's checks (every mistake with its line and spell), a size limit, and
    every uploaded spell's own ``[spell.test]`` run against the merged book. Raises BadInput
    (``felsenfeuer.error.spellbook_line``: the first problem's line and text, how many there
    are; ``felsenfeuer.error.spellbook`` for a problem of no line) and changes
    nothing on any mistake."""
    problems = upload_problems(extra_toml)
    if problems:
        at = re.match(r"line (\d+): (.*)", problems[0], re.DOTALL)
        if at and int(at.group(1)) > 0:  # the line is said in the reader's language
            raise BadInput("felsenfeuer.error.spellbook_line", line=int(at.group(1)),
                           problem=at.group(2), count=len(problems))  # fmt: skip
        raise BadInput("felsenfeuer.error.spellbook", problem=problems[0],
                       count=len(problems))  # fmt: skip
    return merged(extra_toml)
