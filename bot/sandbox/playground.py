"""``spielleiter play``: the real bot and its cogs in the terminal, against the in-process fake
Discord (no token, no network).

Lines you can type::

    /roll 3W6                 a slash command; options as Discord shows them: name:value
    /essenz start gegner:@bob text without a name fills the first required option
    @bob                      act as another user        #spieltisch   switch channel
                              (or thread: a game's thread is followed when it opens; #Essenz
                              is enough for the thread whose name begins so)
    !lang en                  switch the acting user's client language (de / en)
    2                         press button 2 of the last message with buttons
    3=rot                     choose "rot" in select 3 (several: 3=rot,blau)
    ^2  ^^1=rot               the same on the message with buttons before (^^: two before)
    /charakter import datei:bogen.json   an attachment option takes a file path
    help                      this text                  quit          leave

Replies are printed as text; images are saved to ``./playground-out/``. With stdin not a
terminal, commands are read one per line until the end of input::

    printf '/hilfe\\n' | spielleiter play
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import re
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from bot.sandbox.fake_discord import (
    BUTTON,
    CALLBACK_MODAL,
    OPT_ATTACHMENT,
    OPT_GROUP,
    OPT_SUBCOMMAND,
    TEXT_INPUT,
    Exchange,
    FakeDiscord,
    FakeTimeout,
    StoredMessage,
)
from bot.store import StoreUnavailable
from bot.store.base import DB_UNUSABLE

ONLY_YOU = "(nur für dich / only you)"
ANSWER_TIMEOUT = 15.0
QUIET = 0.15
HISTORY = 20  # messages with buttons that ^N can still reach
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp")

HELP = """\
Befehle / commands:
  /befehl wert name:wert …   Slash-Befehl / slash command   (z. B. /hilfe, /sprache sprache:en)
  @name                      als anderer Nutzer handeln / act as another user
  #kanal                     Kanal oder Thread wechseln / switch channel or thread
                             (#allgemein, #spieltisch, #wuerfel, #Essenz … für / for a thread)
  !lang de|en                Sprache dieses Nutzers / the acting user's client language
  N                          Knopf N der letzten Nachricht drücken / press button N
  N=wert[,wert]              in Auswahl N wählen / choose in select N
  ^N  ^^N=wert               dasselbe in der Nachricht davor / on the message before (^^: two)
  datei:pfad/zur/datei.json  Anhang-Option: Dateipfad / attachment option: a file path
  (Formular / form)          die Felder der Reihe nach beantworten, eine Zeile je Feld /
                             answer the fields in order, one line per field
  help                       diese Hilfe / this help
  quit                       beenden / leave"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="spielleiter play", description="Try the bot in the terminal, without Discord."
    )
    parser.add_argument("--db", type=Path, default=Path("playground.sqlite"), help="database file")
    parser.add_argument(
        "--out", type=Path, default=Path("playground-out"), help="folder for images"
    )
    parser.add_argument("--user", default="alice", help="the acting user at the start")
    parser.add_argument("--lang", default="de", help="client language at the start (de/en)")
    parser.add_argument(
        "--seed", type=int, default=None, help="same seed, same script: same dice and bot moves"
    )
    parser.add_argument(
        "--web",
        type=_port,
        default=None,
        metavar="PORT",
        help="serve the web companion on 127.0.0.1:PORT (0: a free port); /web prints a link",
    )
    return parser


def _port(text: str) -> int:
    if not text.isdecimal() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {text!r}")
    return int(text)


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Run the playground; returns the exit code (0 at ``quit`` or end of input)."""
    args = _parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    session = Playground(
        database=args.db,
        out_dir=args.out,
        stdin=stdin or sys.stdin,
        stdout=stdout or sys.stdout,
        user=args.user,
        locale=args.lang,
        seed=args.seed,
        web_port=args.web,
    )
    try:
        return asyncio.run(session.run())
    except KeyboardInterrupt:
        print(file=session.stdout)
        return 0
    except StoreUnavailable as error:
        print(DB_UNUSABLE.format(error=error), file=sys.stderr)
        return 2


class Playground:
    def __init__(
        self,
        *,
        database: Path,
        out_dir: Path,
        stdin: TextIO,
        stdout: TextIO,
        user: str = "alice",
        locale: str = "de",
        seed: int | None = None,
        web_port: int | None = None,
    ) -> None:
        self.seed = seed
        self.web_port = web_port
        self.database = database
        self.out_dir = out_dir
        self.stdin = stdin
        self.stdout = stdout
        self.interactive = stdin.isatty()
        self.user = user
        self.start_locale = locale
        self.locales: dict[str, str] = {}  # !lang per user: each user's own Discord client
        self.channel = "allgemein"
        # Refusals are shown (not raised): the playground goes on after one.
        self.fake = FakeDiscord(report_refusals=False)
        self.with_buttons: list[StoredMessage] = []  # oldest first; the last one is "N"
        self.saved = 0
        self.bot: Any = None

    @property
    def locale(self) -> str:
        """The acting user's client language: what they set with ``!lang``, else --lang."""
        return self.locales.get(self.user, self.start_locale)

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    # ----------------------------------------------------------------- lifecycle

    async def run(self) -> int:
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
        logging.getLogger("discord").setLevel(logging.ERROR)  # no voice-support notices
        await self.fake.start()
        task: asyncio.Task[None] | None = None
        try:
            task = await self._start_bot()
            if task is None:
                return 1
            self.say(
                f"Spielleiter-Spielwiese / playground — Datenbank {self.database}, "
                f"Bilder → {self.out_dir}/. 'help' zeigt die Befehle."
            )
            self.say(f"Du bist @{self.user} in #{self.channel}, Sprache {self.locale}.")
            if self.bot.web is not None:
                self.say(
                    f"Web-Begleiter / web companion: {self.bot.web.base_url} "
                    "— /web gibt den Anmeldelink / /web gives the sign-in link."
                )
            await self._loop()
            await self._finish()
            return 0
        finally:
            if self.bot is not None:
                await self.bot.close()
            if task is not None:
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await asyncio.wait_for(task, 5)
            await self.fake.stop()

    async def _start_bot(self) -> asyncio.Task[None] | None:
        from bot.app import create_bot
        from bot.settings import Settings

        settings = Settings(
            token="playground",
            database_path=self.database,
            api_base_url=self.fake.api_base,
            gateway_url=self.fake.gateway_url,
            log_level="WARNING",
            seed=self.seed,
            web_port=self.web_port,
        )
        self.bot = create_bot(settings)
        self.fake.in_process_work = self.bot.finish_interactions  # a step waits on the bot
        self.bot._connection.guild_ready_timeout = 0.05
        task = asyncio.create_task(self.bot.start(settings.token))
        ready = asyncio.create_task(self.bot.wait_until_ready())
        await asyncio.wait({task, ready}, timeout=30, return_when=asyncio.FIRST_COMPLETED)
        if not ready.done():
            ready.cancel()
            error = task.exception() if task.done() else None
            if isinstance(error, StoreUnavailable):
                raise error
            self.say(f"Der Bot startet nicht / the bot does not start: {error!r}")
            return None
        if None not in self.fake.commands:
            # Schema unchanged since the last run: no sync, so tell the fake what exists.
            self.fake.register_commands(await self.bot.command_schema())
        return task

    async def _read_line(self, prompt: str = "> ") -> str | None:
        if self.interactive:
            with contextlib.suppress(ImportError):
                import readline  # noqa: F401  (line editing and history for input())
            try:
                return await _in_daemon_thread(lambda: input(prompt))
            except EOFError:
                return None
        line = await _in_daemon_thread(self.stdin.readline)
        return line.rstrip("\n") if line else None

    async def _loop(self) -> None:
        while (line := await self._read_line()) is not None:
            line = line.strip()
            if not line or line.startswith("//"):
                continue
            if not self.interactive:  # a script waits for the bot's thinking, as a player
                await self._finish()  # would, so the same script always clicks the same
                self.say(f"> {line}")
            if line in ("quit", "exit", "q"):
                break
            try:
                await self.handle(line)
            except (LookupError, ValueError) as error:
                self.say(f"  ✗ {error}")

    # ----------------------------------------------------------------- one line

    async def handle(self, line: str) -> None:
        if line in ("help", "hilfe", "?"):
            self.say(HELP)
            self.say("Slash-Befehle: " + ", ".join(f"/{n}" for n in self._command_names()))
        elif line.startswith("/"):
            await self._slash(line[1:])
        elif re.fullmatch(r"@\S+", line):
            self.user = line[1:]
            self.say(f"  Du bist jetzt / you are now @{self.user}")
        elif re.fullmatch(r"#\S.*", line):
            self.channel = self._channel_named(line[1:].strip())
            self.say(f"  Kanal / channel: #{self.channel}")
        elif m := re.fullmatch(r"!lang\s+(\S+)", line):
            self.locales[self.user] = m.group(1)
            self.say(f"  Sprache / language: {self.locale}")
        elif m := re.fullmatch(r"(\^*)(\d+)\s*=\s*(.+)", line):
            values = [v.strip() for v in m.group(3).split(",")]
            await self._choose(int(m.group(2)), values, back=len(m.group(1)))
        elif m := re.fullmatch(r"(\^*)(\d+)", line):
            await self._press(int(m.group(2)), back=len(m.group(1)))
        else:
            raise ValueError(f"unbekannt / unknown: {line!r} — 'help'")

    def _channel_named(self, name: str) -> str:
        """A channel of the guild, or a thread (its whole name, or the one thread whose name
        begins with ``name``)."""
        names = [c.name for g in self.fake.guilds for c in g.channels]
        threads = [t.name for t in self.fake.threads.values()]
        if name in names or name in threads:
            return name
        begun = [t for t in threads if t.lower().startswith(name.lower())]
        if len(begun) == 1:
            return begun[0]
        known = ", ".join(f"#{n}" for n in [*names, *threads])
        raise LookupError(f"kein Kanal / no channel #{name} — {known}")

    def _command_names(self) -> list[str]:
        return sorted({c["name"] for cmds in self.fake.commands.values() for c in cmds})

    async def _slash(self, text: str) -> None:
        path, typed = parse_command(self.fake, text, self._guild_id())
        files = attachment_options(self.fake, path, self._guild_id())
        options: dict[str, Any] = {
            name: _read_upload(value) if name in files else value for name, value in typed.items()
        }
        ex = await self.fake.slash(
            path, options, user=self.user, channel=self.channel, locale=self.locale
        )
        await self._show(ex)

    def _guild_id(self) -> int | None:
        return self.fake.channel(self.channel).guild_id

    def _target(self, back: int) -> tuple[StoredMessage, list[dict[str, Any]]]:
        """The message with buttons ``back`` steps before the last one, and its components
        (as the message holds them now: an old message may have lost its buttons)."""
        if back >= len(self.with_buttons):
            raise LookupError("keine Nachricht mit Knöpfen / no message with buttons")
        message = self.with_buttons[-1 - back]
        if message.deleted:
            raise LookupError("die Nachricht ist gelöscht / the message is deleted")
        return message, message.walk_components()

    async def _press(self, number: int, *, back: int = 0) -> None:
        message, items = self._target(back)
        if not 1 <= number <= len(items) or items[number - 1]["type"] != BUTTON:
            raise LookupError(f"kein Knopf {number} / no button {number}")
        ex = await self.fake.click(
            message, items[number - 1]["custom_id"], user=self.user, locale=self.locale
        )
        await self._show(ex)

    async def _choose(self, number: int, values: list[str], *, back: int = 0) -> None:
        message, items = self._target(back)
        if not 1 <= number <= len(items) or items[number - 1]["type"] == BUTTON:
            raise LookupError(f"keine Auswahl {number} / no select {number}")
        ex = await self.fake.select(
            message, items[number - 1]["custom_id"], values, user=self.user, locale=self.locale
        )
        await self._show(ex)

    # ----------------------------------------------------------------- output

    async def _finish(self) -> None:
        """The script has ended: let the bot finish what it is still doing (thinking about its
        move) and show what that changed, before the database is closed."""
        before = {mid: m.edits for mid, m in self.fake.messages.items()}
        await self.bot.finish_interactions()
        for mid, message in sorted(self.fake.messages.items()):
            if mid not in before or message.edits != before[mid]:
                self._render(message, updated=mid in before)

    async def _show(self, ex: Exchange) -> None:
        before = {mid: m.edits for mid, m in self.fake.messages.items()}
        threads = set(self.fake.threads)
        refused = len(self.fake.refused)
        try:
            await ex.settle(quiet=QUIET, timeout=ANSWER_TIMEOUT)
            if ex.original is not None and ex.original.loading:
                await ex.message(ANSWER_TIMEOUT)
        except FakeTimeout:
            self.say("  (keine Antwort / no answer)")
            return
        finally:
            for refusal in self.fake.refused[refused:]:
                self.say(f"  (Discord lehnt ab / Discord refuses: {refusal})")
        callback = ex.callback_reply
        if callback is not None and callback.type == CALLBACK_MODAL:
            await self._fill_modal(ex)
            return
        if callback is not None and callback.type == 6 and ex.source is not None:
            before.pop(ex.source.id, None)
        self._follow(threads)
        changed = [
            m
            for mid, m in sorted(self.fake.messages.items())
            if mid not in before or m.edits != before[mid]
        ]
        for message in changed:
            self._render(message, updated=message.id in before)

    def _follow(self, known: set[int]) -> None:
        """A thread the bot opened from a message here (a game's own): the player follows
        it, as clicking its link in Discord does."""
        here = self.fake.channel(self.channel).id
        for thread_id in sorted(set(self.fake.threads) - known):
            thread = self.fake.threads[thread_id]
            if thread.parent_id == here:
                self.channel = thread.name
                self.say(f"  Thread: #{thread.name} (du folgst / you follow)")

    async def _fill_modal(self, ex: Exchange) -> None:
        modal = await ex.modal()
        self.say(f"  Formular / form: {modal.get('title', '')}")
        values: dict[str, str] = {}
        for comp in _text_inputs(modal.get("components", [])):
            line = await self._read_line(f"  {comp.get('label', comp['custom_id'])}: ")
            if line is None:
                return
            if not self.interactive:
                self.say(f"  {comp.get('label', comp['custom_id'])}: {line}")
            values[comp["custom_id"]] = line
        submitted = await self.fake.submit_modal(ex, values, user=self.user, locale=self.locale)
        await self._show(submitted)

    def _render(self, message: StoredMessage, *, updated: bool) -> None:
        if message.deleted:
            self.say("  (Nachricht gelöscht / message deleted)")
            return
        head = "[Spielleiter]" + (" (geändert / updated)" if updated else "")
        if message.ephemeral:
            head += " " + ONLY_YOU
        if message.channel_id != self.fake.channel(self.channel).id:
            head += f" in {self._channel_label(message.channel_id)}"
        self.say(head)
        if message.content:
            self.say(_indent(self._names(message.content)))
        for embed in message.embeds:
            self.say(_indent(self._names(render_embed(embed)), "  ┃ "))
        for attachment in message.attachments:
            saved = self._save(attachment.filename, attachment.data)
            kind = "Bild / image" if saved.suffix.lower() in IMAGE_SUFFIXES else "Datei / file"
            self.say(f"  {kind}: {saved}")
        self._render_components(message)

    def _names(self, text: str) -> str:
        """``<@id>`` mentions as ``@name`` of the fake users, ``<#id>`` as ``#channel``."""
        text = re.sub(r"<@!?(\d+)>", lambda m: "@" + self.fake.user(int(m.group(1))).name, text)
        return re.sub(r"<#(\d+)>", lambda m: self._channel_label(int(m.group(1))), text)

    def _channel_label(self, channel_id: int) -> str:
        channel = self.fake.channel(channel_id)
        return f"DM @{channel.recipient.name}" if channel.recipient else f"#{channel.name}"

    def _render_components(self, message: StoredMessage) -> None:
        items = message.walk_components()
        if not items:
            return
        kept = [m for m in self.with_buttons if m.id != message.id]
        self.with_buttons = [*kept, message][-HISTORY:]
        for number, comp in enumerate(items, start=1):
            if comp["type"] == BUTTON:
                label = comp.get("label") or (comp.get("emoji") or {}).get("name", "")
                state = " (gesperrt / disabled)" if comp.get("disabled") else ""
                self.say(f"  [{number}] {label}{state}")
            else:
                options = ", ".join(
                    o["value"] if o["label"] == o["value"] else f"{o['value']} ({o['label']})"
                    for o in comp.get("options", [])
                )
                hint = comp.get("placeholder") or "Auswahl / select"
                self.say(f"  [{number}=…] {hint}: {options}")

    def _save(self, filename: str, data: bytes) -> Path:
        self.out_dir.mkdir(parents=True, exist_ok=True)
        if not self.saved:  # go on after the files of an earlier run, never overwrite them
            numbers = [int(p.name[:3]) for p in self.out_dir.glob("[0-9][0-9][0-9]-*")]
            self.saved = max(numbers, default=0)
        self.saved += 1
        path = self.out_dir / f"{self.saved:03d}-{filename}"
        path.write_bytes(data)
        return path


async def _in_daemon_thread(read: Callable[[], str]) -> str:
    """Run a blocking read in a daemon thread, so Ctrl-C never waits for an Enter key."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[str] = loop.create_future()

    def deliver(result: str | None, error: BaseException | None) -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result or "")

    def work() -> None:
        try:
            result = read()
        except BaseException as error:  # EOFError, and whatever stdin raises
            loop.call_soon_threadsafe(deliver, None, error)
        else:
            loop.call_soon_threadsafe(deliver, result, None)

    threading.Thread(target=work, name="playground-input", daemon=True).start()
    return await future


def render_embed(embed: dict[str, Any]) -> str:
    """An embed as plain text: title, description, fields (``name: value``), footer."""
    lines = []
    if embed.get("title"):
        lines.append(f"**{embed['title']}**")
    if embed.get("description"):
        lines.append(embed["description"])
    for item in embed.get("fields", []):
        lines.append(f"{item.get('name', '')}: {item.get('value', '')}")
    if (embed.get("footer") or {}).get("text"):
        lines.append(f"— {embed['footer']['text']}")
    if (embed.get("image") or {}).get("url"):
        lines.append(f"(Bild / image: {embed['image']['url'].rsplit('/', 1)[-1]})")
    return "\n".join(lines)


def _indent(text: str, prefix: str = "  ") -> str:
    return "\n".join(prefix + line for line in text.splitlines())


def _text_inputs(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = []
    for comp in components:
        inner = comp.get("components") or ([comp["component"]] if "component" in comp else [])
        if comp.get("type") == TEXT_INPUT:
            found.append(
                {**comp, "label": comp.get("label") or comp.get("custom_id")}
                if "label" not in comp
                else comp
            )
        for child in _text_inputs(inner):
            found.append({**child, "label": comp.get("label") or child.get("label")})
    return found


def parse_command(fake: FakeDiscord, text: str, guild_id: int | None) -> tuple[str, dict[str, str]]:
    """Split ``essenz start gegner:@bob`` into (``"essenz start"``, ``{"gegner": "@bob"}``) using
    the synced schema: words naming subcommands descend, ``name:`` starts an option, and text
    without a name fills the first required (else first) option not given."""
    words = text.split()
    if not words:
        raise ValueError("welcher Befehl? / which command?")
    command = fake.command(words[0], guild_id)
    path = [command["name"]]
    schema = command.get("options") or []
    rest = words[1:]
    while rest:
        sub = _sub(schema, rest[0])
        if sub is None:
            break
        path.append(sub["name"])
        schema = sub.get("options") or []
        rest = rest[1:]
    names = sorted(
        {
            alias
            for o in schema
            for alias in (o["name"], *(o.get("name_localizations") or {}).values())
        },
        key=len,
        reverse=True,
    )
    remainder = " ".join(rest)
    _refuse_unknown_options(remainder, names, path)
    options: dict[str, str] = {}
    if names:
        marker = re.compile(r"(?:^|\s)(" + "|".join(re.escape(n) for n in names) + r"):")
        found = list(marker.finditer(remainder))
        leading = remainder[: found[0].start()] if found else remainder
        for index, match in enumerate(found):
            end = found[index + 1].start() if index + 1 < len(found) else len(remainder)
            options[match.group(1)] = remainder[match.end() : end].strip()
    else:
        leading = remainder
    if leading.strip():
        given = {_canonical(schema, n) for n in options}
        free = [o for o in schema if o["name"] not in given]
        target = next((o for o in free if o.get("required")), free[0] if free else None)
        if target is None:
            raise ValueError(f"/{' '.join(path)} nimmt keinen weiteren Wert / takes no more values")
        options[target["name"]] = leading.strip()
    return " ".join(path), options


# ``name:value`` with a name Discord could give an option (a letter, then up to 31 more; a
# short one too, so ``xy:@bob`` is refused and never read as a user named ``xy:@bob``): prose
# ("Achtung: …"), a time (12:30) or an address (https://…) is not taken for one
_OPTION_LIKE = re.compile(r"(?:^|\s)([^\W\d_][\w-]{0,31}):(?!//)(?=\S)")


def _refuse_unknown_options(text: str, names: list[str], path: list[str]) -> None:
    """Raise ValueError for a ``name:`` in ``text`` that the command has no option of (it
    would silently become part of another option's value), naming the valid ones."""
    unknown = [found.group(1) for found in _OPTION_LIKE.finditer(text)]
    unknown = [name for name in unknown if name not in names]
    if not unknown:
        return
    valid = ", ".join(sorted(names)) or "–"
    raise ValueError(
        f"unbekannte Option / unknown option {unknown[0]!r} für / for /{' '.join(path)}"
        f" — Optionen / options: {valid}"
    )


def attachment_options(fake: FakeDiscord, path: str, guild_id: int | None) -> set[str]:
    """The names (all languages) of the attachment options of the command ``path``."""
    words = path.split()
    schema = fake.command(words[0], guild_id).get("options") or []
    for word in words[1:]:
        sub = _sub(schema, word)
        schema = (sub.get("options") or []) if sub else []
    return {
        alias
        for o in schema
        if o["type"] == OPT_ATTACHMENT
        for alias in (o["name"], *(o.get("name_localizations") or {}).values())
    }


def _read_upload(text: str) -> tuple[str, bytes]:
    """An attachment option's value: the file at the path ``text``, as (file name, bytes)."""
    path = Path(text.strip()).expanduser()
    try:
        return path.name, path.read_bytes()
    except OSError as error:
        raise ValueError(f"Datei nicht lesbar / cannot read file {text.strip()!r}") from error


def _sub(schema: list[dict[str, Any]], word: str) -> dict[str, Any] | None:
    for option in schema:
        names = {option["name"], *(option.get("name_localizations") or {}).values()}
        if option["type"] in (OPT_SUBCOMMAND, OPT_GROUP) and word in names:
            return option
    return None


def _canonical(schema: list[dict[str, Any]], name: str) -> str:
    for option in schema:
        if name == option["name"] or name in (option.get("name_localizations") or {}).values():
            return str(option["name"])
    return name


if __name__ == "__main__":
    raise SystemExit(main())
