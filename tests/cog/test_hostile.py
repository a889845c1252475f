"""Hostile input against the real bot through the fake Discord (issue 8).

Every slash command and subcommand (enumerated from the schema the bot synced, so a new command
is covered without editing this file), every autocomplete, every registered component prefix
(forged ``custom_id``s: random segments, wrong argument counts, other games and users, old
revisions, over-long ids, random select values) and every form (hostile field values, forged
modal ids) is driven with values drawn by hypothesis, by a GM, a player and strangers, in German
and English, against a realistic state: a campaign with a GM, a player with a character, an NPC,
a running combat, an Essence game, saved rolls.

Each case asserts: the bot answered (a deferral is followed by an answer); it logged no
unexpected error (the harness turns every logged error into ``BotFailed``) and sent no
"unexpected error" reply; a refusal (anything that went through ``bot.replies.send_error``) is
ephemeral, posts nothing public and changes nothing in the database (a digest of every table:
campaigns, characters, games, combats, saved rolls, log, …).

Cases are drawn by hypothesis with a fixed seed (``derandomize``), generated once and then
replayed against the running bot, so CI runs the same few examples every time. Size:

- default: ``EXAMPLES`` cases per command / prefix (a CI-sized run, well under two minutes);
- ``SPIELLEITER_HOSTILE=long`` (or a number, e.g. ``SPIELLEITER_HOSTILE=200``) for a local run
  with many more cases per command; ``SPIELLEITER_HOSTILE_SEED=<n>`` draws a different set.

A failure names the case (command, options, user, locale) to pin as a plain test below.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import sqlite3
from collections.abc import Awaitable, Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

import bot.components as components_module
import bot.replies as replies_module
from bot.i18n import t
from bot.sandbox.fake_discord import (
    BOT_ID,
    BUTTON,
    CALLBACK_DEFER,
    CALLBACK_DEFER_UPDATE,
    CALLBACK_MODAL,
    STRING_SELECT,
    Exchange,
    FakeDiscord,
    StoredMessage,
)
from engines.w6.actions import SPECS
from tests.cog.test_combat import set_up
from tests.cog.test_w6 import ALICE, BOB, GM, thoin_json

# --------------------------------------------------------------------------- profile

_SIZE = os.environ.get("SPIELLEITER_HOSTILE", "")
EXAMPLES = 200 if _SIZE == "long" else int(_SIZE) if _SIZE.isdigit() else 5
SEED = int(os.environ.get("SPIELLEITER_HOSTILE_SEED", "8"))

OPT_SUBCOMMAND, OPT_GROUP, OPT_STRING, OPT_INTEGER, OPT_BOOLEAN, OPT_USER = 1, 2, 3, 4, 5, 6
OPT_NUMBER, OPT_ATTACHMENT = 10, 11
MALLORY = "mallory"
EVIL = "**<@1>** `||x"  # a stranger whose name is markdown and mention syntax
USERS = [GM, ALICE, BOB, MALLORY, EVIL]
LOCALES = ["de", "en-US"]

# What ends the combat or game in the random walk over the live buttons.
ENDING = (":ende:", "resign", ":inv:0")

# Commands whose success ends or hands away the state the others need: run them last.
LAST = ("kampf ende", "kampagne archivieren", "kampagne übergeben", "essenz aufgeben",
        "charakter löschen", "kampagne import")  # fmt: skip


def draw(strategy: st.SearchStrategy[Any], count: int, salt: str) -> list[Any]:
    """``count`` examples of ``strategy``, the same every run (seeded per ``salt``)."""
    found: list[Any] = []

    @seed(SEED + int(hashlib.sha256(salt.encode()).hexdigest()[:8], 16))
    @settings(
        max_examples=count,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
        deadline=None,
    )
    @given(strategy)
    def collect(example: Any) -> None:
        found.append(example)

    collect()
    return found[:count]


# --------------------------------------------------------------------------- hostile values

ODD_STRINGS = [
    "", " ", "\u200b", "\u200b\u200b", "\u202e", "\u202egnalloG", "\ufeff", "\x00", "\x1b[31m",
    "\n", "\t\r\n", "🎲", "\U0010ffff", "ä", "ẞ", "İ", "@everyone", "@here", "<@123>",
    "<@!1>", "<@&5>", "<#1>", "**fett**", "`", "```", "||x||", "> zitat", "# Titel", "[a](http://x)",
    "-1", "0", "1", "99999999999999999999999", "1e309", "NaN", "inf", "None", "null", "{}",
    "[]", "{name}", "{0}", "%s", "a:b:c", ":", "::::", "=", "lp=", "lp=-5", "kw=99999",
    "Ork lp=999999999", "3W6", "1W6", "0W6", "W", "99999W99999", "1d6+" * 40, "(" * 300,
    "8W6>=5", "feuerball", "Thoin", "thoin", "Ork", "ork", "Ork 2", "all", "a1", "d4-d5",
    "resign!", "x" * 101, "ß" * 1000, "🎲" * 300, "1" * 5000, "²", "٣", "１２", "⅕", "𝟗",
]  # fmt: skip
# Digits that str.isdigit() accepts and int() does not ("²"), or reads as another digit.
ODD_DIGITS = ["²", "٣", "１", "⅕", "𝟗", "³³"]

NOTATION = st.from_regex(
    r"[0-9]{0,4}[WwDd][0-9]{0,7}([+\-*x/>=<]{1,2}[0-9]{0,5}){0,3}",
    fullmatch=True,
)
FIELDS = st.from_regex(r"[a-zäöü]{1,6}=-?[0-9]{0,12}( [a-z]{1,4}=[0-9]{1,3}){0,3}", fullmatch=True)
ANY_TEXT = st.text(st.characters(blacklist_categories=["Cs"]), max_size=60)
ESSENCE = st.from_regex(
    r"(grow|move|split|heal|void|destab|summon|bewege|teile) ?[a-h][0-9](/[0-9]|')?"
    r"([ -][a-h][0-9](/[0-9])?)?( [0-9]{1,3}| n[oe]| w| so)?",
    fullmatch=True,
)
NUMBERS = ["0", "-1", "1", "5", "999", "1000", "99999999999999999999", "", "x", "1e5", *ODD_DIGITS]


@st.composite
def w6_action(draw_: Any) -> str:
    """Combat notation from the engine's own verb table: a verb, maybe an actor, targets,
    options with odd numbers."""
    verb = draw_(st.sampled_from(sorted(SPECS)))
    keys = [key for key, _ in SPECS[verb].opts] or ["x"]
    actor = draw_(st.sampled_from(["", "@thoin ", "@ork ", "@x ", "@ ", "@sl "]))
    targets = draw_(st.lists(st.sampled_from(["thoin", "ork", "alle", "x", "1", *ODD_DIGITS])))
    options = draw_(
        st.lists(st.tuples(st.sampled_from(keys), st.sampled_from(NUMBERS)), max_size=3)
    )
    return actor + " ".join([verb, *targets[:3], *(f"{k}={v}" for k, v in options)])


def hostile_text(min_size: int = 0, max_size: int = 6000) -> st.SearchStrategy[str]:
    base = st.one_of(
        st.sampled_from(ODD_STRINGS),
        ANY_TEXT,
        NOTATION,
        FIELDS,
        ESSENCE,
        w6_action(),
        st.lists(st.sampled_from(ODD_STRINGS[:40]), max_size=6).map("".join),
        st.integers(1, 8000).map(lambda n: "W" * n),
    )
    return base.map(lambda s: (s + "x" * min_size)[: max(min_size, len(s))][:max_size])


def hostile_int(low: int | None, high: int | None) -> st.SearchStrategy[int]:
    lo = -(2**53) if low is None else int(low)
    hi = 2**53 if high is None else int(high)
    edges = [v for v in (lo, hi, 0, 1, -1, 2, 1000, 2**31, -(2**31)) if lo <= v <= hi]
    return st.one_of(st.sampled_from(edges), st.integers(lo, hi))


def _json_bytes(value: Any) -> bytes:
    return json.dumps(value).encode()


def _nested(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.lists(inner, max_size=4) | st.dictionaries(ANY_TEXT, inner, max_size=4)


ODD_JSON = st.one_of(
    st.sampled_from([None, True, -1, 0, 2**63, -(2**63), 1e308, "", [], {}, [[]], {"": None}]),
    st.integers(),
    ANY_TEXT,
    st.sampled_from(ODD_STRINGS),
    st.lists(st.integers(-(10**6), 10**6), max_size=30),
)


@st.composite
def odd_sheet(draw_: Any) -> tuple[str, bytes]:
    """A real character sheet with one to three values (at any depth) made odd."""
    sheet: Any = thoin_json()
    for _ in range(draw_(st.integers(1, 3))):
        holder = sheet
        while True:
            keys = list(holder) if isinstance(holder, dict) else list(range(len(holder)))
            if not keys:
                break
            key = draw_(st.sampled_from(keys))
            if isinstance(holder[key], dict | list) and draw_(st.booleans()):
                holder = holder[key]
                continue
            holder[key] = draw_(ODD_JSON)
            break
        if draw_(st.booleans()):  # and a key nobody expects
            sheet[draw_(st.sampled_from(["", "name\u0000", "__proto__", "x" * 300]))] = 1
    return ("sheet.json", _json_bytes(sheet))


ATTACHMENTS = st.one_of(
    st.sampled_from(
        [
            ("leer.json", b""),
            ("gross.json", b"{" + b" " * (3 * 1024 * 1024) + b"}"),
            ("bild.png", b"\x89PNG\r\n\x1a\nxxxx"),
            ("text.json", b"keine json"),
            ("bom.json", b"\xef\xbb\xbf{}"),
            ("latin1.json", '{"name": "Jörg"}'.encode("latin-1")),
            ("tief.json", b"[" * 100_000 + b"]" * 100_000),
            ("tief2.json", b'{"a":' * 5_000 + b"1" + b"}" * 5_000),
            ("zahl.json", b"1e999999"),
            ("nan.json", b'{"lp": NaN}'),
            ("null.json", b"null"),
            ("liste.json", b"[]"),
            ("string.json", b'"Thoin"'),
            ("riesig.json", _json_bytes({"name": "x" * 100_000, "felder": list(range(10_000))})),
            ("schema.json", _json_bytes({"schema": 99999, "name": "@everyone"})),
        ]
    ),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | ANY_TEXT,
        _nested,
        max_leaves=12,
    ).map(lambda v: ("zufall.json", _json_bytes(v))),
    odd_sheet(),
    odd_sheet(),
)


def option_value(opt: dict[str, Any]) -> st.SearchStrategy[Any]:
    kind = opt["type"]
    if opt.get("choices"):
        values = [c["value"] for c in opt["choices"]]
        return st.sampled_from(values)
    if kind == OPT_STRING:
        return hostile_text(opt.get("min_length", 0), opt.get("max_length", 6000))
    if kind == OPT_INTEGER:
        return hostile_int(opt.get("min_value"), opt.get("max_value"))
    if kind == OPT_NUMBER:
        return st.floats(opt.get("min_value", -1e15), opt.get("max_value", 1e15))
    if kind == OPT_BOOLEAN:
        return st.booleans()
    if kind == OPT_USER:
        return st.sampled_from([*USERS, BOT_ID])  # the bot itself can be picked too
    if kind == OPT_ATTACHMENT:
        return ATTACHMENTS
    raise AssertionError(f"no hostile values for option type {kind} ({opt['name']}): add them")


def options_for(schema: list[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    required = {o["name"]: option_value(o) for o in schema if o.get("required")}
    optional = {o["name"]: option_value(o) for o in schema if not o.get("required")}
    return st.fixed_dictionaries(required, optional=optional)  # type: ignore[arg-type]


def leaf_commands(fake: FakeDiscord) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """Every invocable command as (``"kampf angriff"``, its option schema), from the synced
    command tree."""

    def walk(path: str, options: list[dict[str, Any]]) -> Iterator[tuple[str, Any]]:
        subs = [o for o in options if o["type"] in (OPT_SUBCOMMAND, OPT_GROUP)]
        if not subs:
            yield path, options
        for sub in subs:
            yield from walk(f"{path} {sub['name']}", sub.get("options") or [])

    for scope in fake.commands.values():
        for command in scope:
            if command.get("type", 1) == 1:
                yield from walk(command["name"], command.get("options") or [])


def ordered(commands: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    return sorted(commands, key=lambda c: (c[0] in LAST, LAST.index(c[0]) if c[0] in LAST else 0))


WHO = st.tuples(st.sampled_from(USERS), st.sampled_from(LOCALES))
# Mostly the channel of the campaign, combat and game; sometimes another one, or a DM.
WHERE = st.sampled_from(["allgemein", "allgemein", "allgemein", "allgemein", "spieltisch", "dm"])


# --------------------------------------------------------------------------- checking a case


class Watch:
    """Records the error keys ``bot.replies.send_error`` sent, per interaction id."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.keys: dict[int, list[str]] = {}
        original = replies_module.send_error

        async def recording(interaction: Any, key: str, **params: Any) -> None:
            self.keys.setdefault(interaction.id, []).append(key)
            await original(interaction, key, **params)

        monkeypatch.setattr(replies_module, "send_error", recording)
        monkeypatch.setattr(components_module, "send_error", recording)


def digest(database: Path) -> dict[str, str]:
    """A hash of every table's rows (read through its own read-only connection)."""
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        out = {}
        for table in sorted(tables):
            rows = db.execute(f'SELECT * FROM "{table}"').fetchall()
            out[table] = hashlib.sha256(repr(sorted(map(repr, rows))).encode()).hexdigest()
        return out
    finally:
        db.close()


HANDLER_TASKS = ("CommandTree-invoker", "discord.py: on_interaction")


async def handlers_done(fake: FakeDiscord, timeout: float = 20.0) -> None:
    """Wait until discord.py runs no interaction handler any more (a secret roll's DMs and
    notice come after its answer), then raise what the bot reported."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while any(
        task.get_name().startswith(HANDLER_TASKS) and not task.done()
        for task in asyncio.all_tasks()
    ):
        if loop.time() > deadline:
            raise AssertionError(f"a handler still runs after {timeout}s")
        await asyncio.sleep(0.005)
    await asyncio.sleep(0)
    fake.raise_reported_errors()


def public_messages(fake: FakeDiscord) -> set[int]:
    return {m.id for m in fake.messages.values() if not m.ephemeral and not m.deleted}


UNEXPECTED = {t("error.unexpected", lang, code="").split("(")[0][:30] for lang in ("de", "en")}


class Hostile:
    """Runs cases against the bot and checks each one."""

    def __init__(self, fake: FakeDiscord, database: Path, watch: Watch) -> None:
        self.fake, self.database, self.watch = fake, database, watch
        self.cases = 0
        self.modals: list[tuple[Exchange, dict[str, Any]]] = []
        self.failures: list[str] = []
        self.tracebacks = Tracebacks()

    async def run(self, label: Any, push: Callable[[], Awaitable[Exchange]]) -> None:
        """Run one case; a failure is collected (see :meth:`check`), the run goes on."""
        self.cases += 1
        try:
            await self._run(label, push)
        except Exception as error:
            self.failures.append(f"hostile case {label!r}: {error}")
            self.fake.errors.clear()
            self.fake.errors_raised = False

    def check(self) -> None:
        """Fail with every collected failure."""
        assert not self.failures, f"{len(self.failures)} failure(s):\n" + "\n".join(self.failures)

    async def _run(self, label: Any, push: Callable[[], Awaitable[Exchange]]) -> None:
        before, public = digest(self.database), public_messages(self.fake)
        ex = await push()
        await self.answered(ex)
        keys = self.watch.keys.get(ex.id, [])
        where = f"refused with {keys}"
        logged, self.tracebacks.records = self.tracebacks.records, []
        assert not logged, f"{where}: logged a traceback: {[r.getMessage() for r in logged]}"
        assert "error.unexpected" not in keys, where
        for reply in ex.replies:
            text = reply.content or ""
            assert not any(text.startswith(u) for u in UNEXPECTED), f"{where}: {text!r}"
        if keys:
            last = [r for r in ex.replies if r.kind in ("callback", "followup")][-1]
            # As the user sees it: after a public deferral the first followup fills the public
            # "thinking" message, whatever flags it asks for.
            seen = last.message if last.message is not None else last
            assert seen.ephemeral, f"{where}: the refusal is public: {last!r}"
            posted = [self.fake.messages[m].content for m in public_messages(self.fake) - public]
            posted += [r.content for r in ex.replies if r.kind == "followup" and not r.ephemeral]
            assert not posted, f"{where}: posted a public message: {posted}"
            after = digest(self.database)
            changed = [k for k in after if after[k] != before.get(k)]
            assert not changed, f"{where}: the refusal changed {changed}"

    async def answered(self, ex: Exchange) -> None:
        """The callback came; a deferral was followed by an answer; nothing more arrives."""
        callback = await ex.callback()
        if callback.type in (CALLBACK_DEFER, CALLBACK_DEFER_UPDATE):
            await ex.reply(1)
        await handlers_done(self.fake)
        if callback.type == CALLBACK_MODAL:
            self.modals.append((ex, callback.data))


def text_inputs(modal: dict[str, Any]) -> list[dict[str, Any]]:
    found = []
    stack = list(modal.get("components", []))
    while stack:
        comp = stack.pop(0)
        if comp.get("type") == 4:
            found.append(comp)
        stack.extend(comp.get("components", []))
        if "component" in comp:
            stack.append(comp["component"])
    return found


def modal_values(modal: dict[str, Any]) -> st.SearchStrategy[dict[str, str]]:
    fields = {}
    for comp in text_inputs(modal):
        low = max(1, comp.get("min_length", 0)) if comp.get("required", True) else 0
        fields[comp["custom_id"]] = hostile_text(low, comp.get("max_length", 4000))
    return st.fixed_dictionaries(fields)


async def submit_hostile_forms(h: Hostile, salt: str) -> None:
    """Fill every form the bot opened so far with hostile values (and forged users)."""
    pending, h.modals = h.modals, []
    for index, (opened, modal) in enumerate(pending):
        cases = draw(st.tuples(modal_values(modal), WHO), 3, f"{salt}:{modal['custom_id']}:{index}")
        for values, (user, locale) in cases:
            await h.run(
                ("modal", modal["custom_id"], values, user, locale),
                partial(h.fake.submit_modal, opened, values, user=user, locale=locale),
            )
    h.modals = []


# --------------------------------------------------------------------------- the state


async def realistic_state(fake: FakeDiscord) -> None:
    """A campaign (GM), Thoin (alice) and an Ork NPC in a begun combat, an Essence game
    alice against bob (accepted) and an invitation in another channel, saved rolls (alice's
    and the campaign's), a roll with its buttons."""
    await set_up(fake)
    invitation = await (await fake.slash("essenz start", {"gegner": BOB}, user=ALICE)).message()
    accept = next(c for c in invitation.custom_ids if c.endswith(":inv:1"))
    await (await fake.click(invitation, accept, user=BOB)).message()
    other = {"gegner": MALLORY}  # another game elsewhere: forged ids may name it
    await (await fake.slash("essenz start", other, user=GM, channel="spieltisch")).message()
    for name, expression, campaign, user in (
        ("feuerball", "8W6", False, ALICE),
        ("falle", "2W6+3", True, GM),
    ):
        options = {"name": name, "ausdruck": expression, "kampagne": campaign}
        await (await fake.slash("würfel speichern", options, user=user)).callback()
    await (await fake.slash("roll", {"ausdruck": "3W6"}, user=ALICE)).message()


class Tracebacks(logging.Handler):
    """Every log record below ERROR that carries a traceback (ERROR ones fail the harness's
    waits already): a handler that swallowed an exception it should not have met."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info and record.levelno < logging.ERROR:
            self.records.append(record)


@pytest.fixture
def hostile(fake: FakeDiscord, settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Hostile]:
    runner = Hostile(fake, Path(settings.database_path), Watch(monkeypatch))
    root = logging.getLogger()
    root.addHandler(runner.tracebacks)
    try:
        yield runner
    finally:
        root.removeHandler(runner.tracebacks)


# --------------------------------------------------------------------------- the suite


async def test_every_command_with_hostile_options(
    fake: FakeDiscord, bot: Any, hostile: Hostile
) -> None:
    await realistic_state(fake)
    commands = ordered(list(leaf_commands(fake)))
    assert len(commands) > 40
    for name, schema in commands:
        cases = draw(st.tuples(options_for(schema), WHO, WHERE), EXAMPLES, name)
        for options, (user, locale), where in cases:
            channel = fake.dm_channel(user) if where == "dm" else fake.channel(where)
            await hostile.run(
                (name, options, user, locale, where),
                partial(fake.slash, name, options, user=user, locale=locale, channel=channel),
            )
        await submit_hostile_forms(hostile, name)
    hostile.check()


async def test_every_autocomplete_with_hostile_text(
    fake: FakeDiscord, bot: Any, hostile: Hostile
) -> None:
    await realistic_state(fake)
    focused_options = [
        (name, opt, schema)
        for name, schema in leaf_commands(fake)
        for opt in schema
        if opt.get("autocomplete")
    ]
    assert focused_options
    for name, opt, schema in focused_options:
        others = options_for([o for o in schema if o["name"] != opt["name"]])
        case = st.tuples(hostile_text(0, 100), others, WHO)
        salt = f"auto:{name}:{opt['name']}"
        for typed, typed_before, (user, locale) in draw(case, EXAMPLES, salt):
            before = digest(hostile.database)
            label = ("autocomplete", name, opt["name"], typed, typed_before, user, locale)
            options = {**typed_before, opt["name"]: typed}  # what else the user typed so far, too
            try:
                choices = await fake.autocomplete(
                    name, options, focused=opt["name"], user=user, locale=locale
                )
            except Exception as error:
                raise AssertionError(f"hostile case {label!r}: {error}") from error
            assert len(choices) <= 25, label
            for choice in choices:
                assert 1 <= len(choice["name"]) <= 100, (label, choice)
                assert len(str(choice["value"])) <= 100, (label, choice)
            assert digest(hostile.database) == before, f"{label!r} changed the database"


def _prefixes(bot: Any) -> list[str]:
    return sorted(bot.components._handlers)


SEGMENT = st.one_of(
    st.sampled_from(["", "0", "1", "-1", "999999999999", "x", "resign!", "a1", "ziel", "atk",
                     "m", "r", "inv", "tsel", "fdsv", "again", "basis", "ork", "🎲", " "]),
    st.integers(-5, 10**12).map(str),
    st.sampled_from(ODD_DIGITS),
    ANY_TEXT.map(lambda s: s.replace(":", "")[:30]),
)  # fmt: skip


@st.composite
def mutated_id(draw: Any, real: list[str]) -> str:
    """A real custom_id with a segment replaced, cut off, added, its numbers (ids, revisions)
    shifted, or made over-long."""
    parts = draw(st.sampled_from(real)).split(":")
    how = draw(st.sampled_from(["replace", "drop", "add", "shift", "long", "same"]))
    if how == "replace" and len(parts) > 1:
        parts[draw(st.integers(1, len(parts) - 1))] = draw(SEGMENT)
    elif how == "drop":
        parts = parts[: draw(st.integers(1, len(parts)))]
    elif how == "add":
        parts += draw(st.lists(SEGMENT, min_size=1, max_size=4))
    elif how == "shift":
        numeric = [i for i, p in enumerate(parts) if p.lstrip("-").isdecimal()]
        if numeric:
            i = draw(st.sampled_from(numeric))
            parts[i] = str(int(parts[i]) + draw(st.sampled_from([-2, -1, 1, 2, 1000])))
    elif how == "long":
        parts.append("x" * draw(st.integers(80, 300)))
    return ":".join(parts)


def forged_ids(prefixes: list[str], real: list[str]) -> st.SearchStrategy[str]:
    """A registered prefix with random segments, or a mutated real id."""
    by_prefix = st.builds(
        lambda p, segs: ":".join([p, *segs]),
        st.sampled_from(prefixes),
        st.lists(SEGMENT, max_size=8),
    )
    return st.one_of(by_prefix, mutated_id(real)) if real else by_prefix


def real_component_ids(fake: FakeDiscord) -> list[str]:
    return sorted({cid for m in fake.messages.values() for cid in m.custom_ids if ":" in cid})


def recently_changed(fake: FakeDiscord, count: int) -> dict[str, list[StoredMessage]]:
    """Per component prefix (``roll``, ``kampf``, ``essenz``…), the ``count`` messages with
    such components that were sent or edited last."""
    messages = messages_with_components(fake)
    messages.sort(key=lambda m: (m.edited_at or m.created_at, m.id), reverse=True)
    found: dict[str, list[StoredMessage]] = {}
    for message in messages:
        for prefix in {cid.split(":")[0] for cid in message.custom_ids}:
            if len(found.setdefault(prefix, [])) < count:
                found[prefix].append(message)
    return found


def messages_with_components(fake: FakeDiscord) -> list[StoredMessage]:
    return [m for m in fake.messages.values() if m.components and not m.deleted]


async def test_forged_component_ids_and_values(
    fake: FakeDiscord, bot: Any, hostile: Hostile
) -> None:
    await realistic_state(fake)
    prefixes, real = _prefixes(bot), real_component_ids(fake)
    assert len(prefixes) >= 4 and real
    sources = messages_with_components(fake)
    case = st.tuples(
        forged_ids(prefixes, real),
        st.sampled_from([BUTTON, STRING_SELECT]),
        st.lists(hostile_text(0, 100), min_size=1, max_size=3),
        st.integers(0, len(sources) - 1),
        WHO,
    )
    for prefix in prefixes:
        for custom_id, kind, values, source, (user, locale) in draw(case, EXAMPLES * 6, prefix):
            await hostile.run(
                ("component", custom_id, kind, values, user, locale),
                partial(
                    fake.forge_component, sources[source], custom_id, component_type=kind,
                    values=values if kind == STRING_SELECT else (), user=user, locale=locale,
                ),
            )  # fmt: skip
        await submit_hostile_forms(hostile, f"component:{prefix}")
    hostile.check()


async def test_a_random_walk_over_the_live_buttons_and_menus(
    fake: FakeDiscord, bot: Any, hostile: Hostile
) -> None:
    """Press what is on screen now (the newest messages' buttons and menus, ephemeral ones
    included), mostly as the GM and the player so that the game goes on, sometimes as a
    stranger; menus get a real option or hostile values; every form opened on the way is
    filled with hostile values."""
    await realistic_state(fake)
    step = st.tuples(
        st.integers(0, 10**6),
        st.booleans(),
        st.lists(hostile_text(0, 100), min_size=1, max_size=2),
        st.sampled_from([GM, ALICE, BOB, GM, ALICE, BOB, MALLORY]),
        st.sampled_from(LOCALES),
    )
    for pick, real_option, values, user, locale in draw(step, EXAMPLES * 16, "walk"):
        live: dict[str, list[tuple[StoredMessage, dict[str, Any]]]] = {}
        for prefix, messages in recently_changed(fake, 3).items():
            for message in messages:
                live[prefix] = live.get(prefix, []) + [
                    (message, comp)
                    for comp in message.walk_components()
                    if comp.get("custom_id") and not comp.get("disabled")
                ]
        assert live, "no button or menu left on screen"
        kinds = sorted(live)  # each kind (dice, combat, game) as often, however many buttons
        on_screen = live[kinds[pick % len(kinds)]]
        message, comp = on_screen[(pick // len(kinds)) % len(on_screen)]
        if any(word in comp["custom_id"] for word in ENDING):
            user = MALLORY  # the game goes on: only a stranger presses what ends it
        kind = STRING_SELECT if comp["type"] == STRING_SELECT else BUTTON
        if kind == STRING_SELECT and real_option and comp.get("options"):
            values = [comp["options"][pick % len(comp["options"])]["value"]]
        await hostile.run(
            ("live", comp["custom_id"], values, user, locale),
            partial(
                fake.forge_component, message, comp["custom_id"], component_type=kind,
                values=values if kind == STRING_SELECT else (), user=user, locale=locale,
            ),
        )  # fmt: skip
        await submit_hostile_forms(hostile, f"walk:{comp['custom_id']}")
    hostile.check()


async def test_forged_form_submissions(fake: FakeDiscord, bot: Any, hostile: Hostile) -> None:
    await realistic_state(fake)
    opened = await fake.slash("charakter neu", user=BOB)
    modal = await opened.modal()
    field_ids = [c["custom_id"] for c in text_inputs(modal)] + ["x", ""]
    prefixes, real = _prefixes(bot), [*real_component_ids(fake), modal["custom_id"]]
    case = st.tuples(
        forged_ids(prefixes, real),
        st.dictionaries(st.sampled_from(field_ids), hostile_text(0, 4000), max_size=6),
        WHO,
    )
    for custom_id, fields, (user, locale) in draw(case, EXAMPLES * 8, "forms"):
        await hostile.run(
            ("form", custom_id, fields, user, locale),
            partial(fake.forge_modal, custom_id, fields, user=user, locale=locale),
        )
    hostile.check()


# --------------------------------------------------------------------------- pinned cases
# What the suite found, as plain tests.


async def test_a_forged_form_with_a_button_prefix_is_refused(
    fake: FakeDiscord, bot: Any, hostile: Hostile
) -> None:
    """A modal submission carrying an Essence button id reached the button handler, which
    answered with a message update that a submission without a message cannot have: Discord
    refused it and the bot logged an unexpected error."""
    await realistic_state(fake)
    await hostile.run(
        "essenz form", lambda: fake.forge_modal("essenz:1:0:inv:0:2898:x", {}, user=BOB)
    )
    hostile.check()
    assert hostile.watch.keys and list(hostile.watch.keys.values())[-1] == [
        "error.unknown_component"
    ]


async def test_a_click_on_a_form_id_creates_no_character(
    fake: FakeDiscord, bot: Any, hostile: Hostile
) -> None:
    """``w6neu:basis`` names the new-character form; a click carrying it (a forged client)
    is refused instead of creating a character from no fields."""
    await realistic_state(fake)
    roll = next(m for m in messages_with_components(fake) if m.custom_ids[0].startswith("roll:"))
    await hostile.run("w6neu click", lambda: fake.forge_component(roll, "w6neu:basis", user=BOB))
    hostile.check()
    assert list(hostile.watch.keys.values())[-1] == ["error.unknown_component"]


def test_a_form_preview_cuts_the_parameters_of_its_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Like every refusal (``bot.replies.send_error``), a combat form's preview of why it would
    be refused cuts what the error echoes (a name can be hundreds of characters long)."""
    from bot import fit
    from cogs import combat_forms
    from engines.core import IllegalAction
    from tests.unit.test_w6_combat import duel

    def refuse(*_: Any, **__: Any) -> None:
        raise IllegalAction("w6cog.combat.not_yours", name="Ork" * 200)

    monkeypatch.setattr(combat_forms, "form_action", refuse)
    shown = combat_forms.preview_error(duel(), combat_forms.Form("finte", "held"), "de")
    assert shown == t("w6cog.combat.not_yours", "de", name=fit.cut("Ork" * 200))
    assert len(shown) < 200


async def test_digits_that_int_does_not_read_are_refused(
    fake: FakeDiscord, bot: Any, hostile: Hostile
) -> None:
    """ "²" passes ``str.isdigit()`` but not ``int()``: ids, menu values, form fields and
    notation that checked with ``isdigit`` crashed on it ("unexpected error")."""
    await realistic_state(fake)
    source = recently_changed(fake, 1)["kf"][0]
    _prefix, combat_id, token = source.custom_ids[0].split(":")[:3]
    game = recently_changed(fake, 1)["essenz"][0]
    for custom_id, values in (
        (f"kf:²:{token}:fdsv:x", ()),
        (f"kf:{combat_id}:{token}:ziel:thoin", ["²"]),
        ("essenz:²:1:x", ()),
        ("essenz:1:²:r", ()),
    ):
        kind = STRING_SELECT if values else BUTTON
        push = partial(fake.forge_component, source if custom_id.startswith("kf:") else game,
                       custom_id, component_type=kind, values=values, user=GM)  # fmt: skip
        await hostile.run(custom_id, push)
    for name, options in (
        ("essenz zug", {"notation": "a² b2"}),
        ("essenz zug", {"notation": "heal a1 b1 ²"}),
        ("probe-komplex", {"aufteilung": "2 2", "erfolge": "²", "wert": 6}),
    ):
        await hostile.run((name, options), partial(fake.slash, name, options, user=ALICE))
    opened = await fake.slash("charakter neu", user=BOB)
    modal = await opened.modal()
    fields = {c["custom_id"]: "Xaver" for c in text_inputs(modal) if c.get("required", True)}
    fields["pm"] = "²"
    await hostile.run(("form", fields), partial(fake.submit_modal, opened, fields))
    hostile.check()
    assert len(hostile.watch.keys) == hostile.cases  # every one of them refused, kindly
