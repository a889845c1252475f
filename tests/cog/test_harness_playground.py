"""The terminal playground: a piped script through the real bot, and its command-line parsing."""

from __future__ import annotations

import contextlib
import io
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import t
from bot.sandbox.fake_discord import FakeDiscord
from bot.sandbox.playground import main, parse_command, render_embed

REPO = Path(__file__).resolve().parents[2]


def _play(tmp_path: Path, script: str) -> str:
    out = io.StringIO()
    code = main(
        ["--db", str(tmp_path / "play.sqlite"), "--out", str(tmp_path / "out")],
        stdin=io.StringIO(script),
        stdout=out,
    )
    assert code == 0
    return out.getvalue()


def test_script_switches_users_locales_and_keeps_preferences(tmp_path: Path) -> None:
    text = _play(
        tmp_path,
        "/hilfe\n!lang en\n/help\n@bob\n/sprache sprache:en\n!lang de\n/hilfe\n@alice\n/hilfe\n",
    )
    blocks = text.split("> ")
    assert t("core.help.title", "de") in blocks[1]
    assert "(nur für dich / only you)" in blocks[1]
    assert t("core.help.title", "en") in blocks[3]  # /help is the English name of /hilfe
    assert t("core.language.set.en", "en") in blocks[5]
    assert t("core.help.title", "en") in blocks[7]  # bob chose English, client is German
    assert t("core.help.title", "en") in blocks[9]  # alice's client: her own !lang en


def test_lang_belongs_to_the_user_who_set_it(tmp_path: Path) -> None:
    text = _play(
        tmp_path, "!lang en\n/hilfe\n@bob\n/hilfe\n!lang en\n@alice\n!lang de\n@bob\n/hilfe\n"
    )
    blocks = text.split("> ")
    assert t("core.help.title", "en") in blocks[2]  # alice switched her client
    assert t("core.help.title", "de") in blocks[4]  # bob's client is still the default
    assert t("core.help.title", "en") in blocks[9]  # alice going back to German leaves bob's


def test_help_explains_forms_and_the_per_user_language(tmp_path: Path) -> None:
    text = _play(tmp_path, "help\n")
    assert "one line per field" in text and "eine Zeile je Feld" in text
    assert "the acting user's client language" in text


def test_the_new_dice_forms_in_the_playground(tmp_path: Path) -> None:
    script = "/roll 6#4d6kh3\n/roll 4dF\n!lang en\n/roll 1d20+5 vs 15\n/roll 6x1000d6\n"
    blocks = _play(tmp_path, script).split("> ")
    assert all(f"`#{i}` 4d6kh3 (" in blocks[1] for i in range(1, 7))
    assert "**Ergebnisse: " in blocks[1] and "wuerfel.png" in blocks[1]
    assert "4dF (" in blocks[2] and "**Ergebnis: " in blocks[2]
    assert "(vs 15)" in blocks[4] and ("**Hit: " in blocks[4] or "**Miss: " in blocks[4])
    too_many = t("dice.too_many_sets", "en", sets=6, dice=1000, total=6000, limit=1000)
    assert too_many in blocks[5] and "(nur für dich / only you)" in blocks[5]


def test_second_run_reuses_the_database_without_syncing(tmp_path: Path) -> None:
    _play(tmp_path, "@bob\n/sprache en\n")
    text = _play(tmp_path, "@bob\n/hilfe\n")
    assert t("core.help.title", "en") in text


def test_mistakes_are_explained_not_raised(tmp_path: Path) -> None:
    text = _play(tmp_path, "/gibtsnicht\n7\n/sprache sprache:klingonisch\nwas\nquit\n/hilfe\n")
    assert text.count("✗") == 4
    assert "gibtsnicht" in text and "klingonisch" in text
    assert t("core.help.title", "de") not in text  # nothing after quit


@pytest.mark.e2e
def test_piped_through_the_console_entry(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run(
        [sys.executable, "-m", "bot", "play"],
        input="/hilfe\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert t("core.help.title", "de") in result.stdout
    assert (tmp_path / "playground.sqlite").exists()
    assert "Traceback" not in result.stderr


def test_the_console_entry_passes_playground_options_through(tmp_path: Path) -> None:
    from bot.cli import main

    script = io.StringIO("/hilfe\n")
    with contextlib.redirect_stdout(io.StringIO()) as out:
        sys.stdin, saved = script, sys.stdin
        try:
            code = main(["play", "--db", str(tmp_path / "own.sqlite"), "--out", str(tmp_path)])
        finally:
            sys.stdin = saved
    assert code == 0
    assert (tmp_path / "own.sqlite").exists()
    assert t("core.help.title", "de") in out.getvalue()


def _schema_fake() -> FakeDiscord:
    fake = FakeDiscord()
    string, user, integer = 3, 6, 4
    fake.register_commands(
        [
            {
                "name": "essenz",
                "description": "Essenz",
                "options": [
                    {
                        "type": 1,
                        "name": "start",
                        "description": "neues Spiel",
                        "name_localizations": {"en-US": "begin"},
                        "options": [
                            {"type": user, "name": "gegner", "description": "x", "required": True},
                            {"type": integer, "name": "groesse", "description": "x"},
                        ],
                    },
                    {
                        "type": 2,
                        "name": "zug",
                        "description": "Züge",
                        "options": [
                            {
                                "type": 1,
                                "name": "setzen",
                                "description": "x",
                                "options": [{"type": string, "name": "feld", "description": "x"}],
                            }
                        ],
                    },
                ],
            },
            {
                "name": "roll",
                "description": "würfeln",
                "options": [
                    {"type": string, "name": "ausdruck", "description": "x", "required": True},
                    {"type": string, "name": "grund", "description": "x"},
                ],
            },
        ]
    )
    return fake


def test_parse_command_options_as_discord_shows_them() -> None:
    fake = _schema_fake()
    assert parse_command(fake, "roll 3W6 + 2", None) == ("roll", {"ausdruck": "3W6 + 2"})
    assert parse_command(fake, "roll grund:Angriff auf Ork ausdruck:2W6", None) == (
        "roll",
        {"grund": "Angriff auf Ork", "ausdruck": "2W6"},
    )
    assert parse_command(fake, "essenz start gegner:@bob groesse:7", None) == (
        "essenz start",
        {"gegner": "@bob", "groesse": "7"},
    )
    assert parse_command(fake, "essenz begin @bob", None) == ("essenz start", {"gegner": "@bob"})
    assert parse_command(fake, "essenz zug setzen c3", None) == (
        "essenz zug setzen",
        {"feld": "c3"},
    )
    with pytest.raises(LookupError):
        parse_command(fake, "nichts", None)


def test_render_embed_as_text() -> None:
    embed = {
        "title": "Zug 3",
        "description": "Weiß am Zug",
        "fields": [{"name": "Essenz", "value": "4"}],
        "footer": {"text": "Spiel 12"},
    }
    assert render_embed(embed) == "**Zug 3**\nWeiß am Zug\nEssenz: 4\n— Spiel 12"


def test_buttons_are_pressed_by_number(tmp_path: Path) -> None:
    text = _play(tmp_path, "/roll 3W6\n1\n@bob\n1\n")
    assert "✗" not in text
    rolls = [block for block in text.split("> ") if "3W6" in block and "[1]" in block]
    assert len(rolls) == 3  # the command and two presses of "roll again"
    assert "@bob" not in rolls[1] and "Bob" in rolls[2]


def test_selects_by_number_and_value_and_images_saved(tmp_path: Path) -> None:
    from bot.app import COGS

    if "cogs.essence" not in COGS:
        pytest.skip("the /essenz cog is not loaded")
    text = _play(tmp_path, "/essenz start gegner:@bob\n@bob\n1\n@alice\n1=a1\n")
    assert "✗" not in text
    last = text.split("> ")[-1]
    assert "(geändert / updated)" in last
    saved = sorted((tmp_path / "out").glob("*.png"))
    assert len(saved) == 2 and str(saved[-1]) in last
    assert "@alice" in text and "<@" not in text  # mentions shown as names


def test_older_buttons_files_and_channel_mentions(tmp_path: Path) -> None:
    sheet = tmp_path / "kaputt.json"
    sheet.write_text('{"schema": ')
    script = (
        "/roll 1W6\n/roll 2W6\n^1\n^^^1\n#nirgendwo\n#wuerfel\n"
        "/kampagne start name:Feste\n@bob\n/roll 1W6 geheim:true\n"
        f"@alice\n/charakter import datei:{sheet}\n/charakter import datei:{tmp_path}/fehlt.json\n"
        "/kampagne export\n"
    )
    text = _play(tmp_path, script)
    blocks = text.split("> ")
    assert "1W6" in blocks[3] and "2W6" not in blocks[3]  # ^1: the roll before the last
    assert "keine Nachricht mit Knöpfen" in blocks[4]
    assert "#allgemein, #spieltisch, #wuerfel" in blocks[5]
    assert "in #wuerfel" in text and "<#" not in text  # channel mention in the GM's DM
    assert t("json.not_json", "de") in blocks[11]
    assert "✗" in blocks[12] and "fehlt.json" in blocks[12]
    assert "Datei / file:" in blocks[13] and "kampagne.json" in blocks[13]
    again = _play(tmp_path, "#wuerfel\n/kampagne export\n")
    assert "002-kampagne.json" in again  # a second run does not overwrite the first one's files


def test_a_reply_discord_would_refuse_is_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.sandbox import fake_limits

    monkeypatch.setattr(fake_limits, "EMBED_TITLE", 3)  # every help embed is now too long
    text = _play(tmp_path, "/hilfe\n/roll ausdruck:1W6\n")
    refusal = "(Discord lehnt ab / Discord refuses: "
    assert text.count(refusal) == 1
    assert "embeds.0.title: Must be 3 or fewer in length." in text
    assert "/roll" in text.split(refusal)[1]  # the playground goes on


def _seeded(tmp_path: Path, name: str, script: str, seed: int) -> str:
    out = io.StringIO()
    folder = tmp_path / name
    args = ["--db", str(folder / "play.sqlite"), "--out", str(folder), "--seed", str(seed)]
    assert main(args, stdin=io.StringIO(script), stdout=out) == 0
    return out.getvalue().replace(str(folder), "<out>")


SEEDED = (
    "/roll 4W6kh3+2\n/roll 10W6>=5\n"
    "/essenz start bot:hard schnell:true\n"
    "/essenz zug notation:move c1 c2\n/essenz zug notation:split a1 b2\n"
)


def _what_happened(tmp_path: Path, name: str, seed: int) -> tuple[list[str], list[Any]]:
    """The dice shown and every stored game step (seat, action) of a seeded session; how a
    message was caught half-edited may differ with timing, what happened may not."""
    text = _seeded(tmp_path, name, SEEDED, seed)
    rolls = [line for line in text.splitlines() if " = `" in line and "(" in line]
    with sqlite3.connect(tmp_path / name / "play.sqlite") as db:
        steps = db.execute(
            "SELECT g.seed, a.player, a.action FROM game_actions a JOIN games g"
            " ON g.id = a.game_id ORDER BY a.game_id, a.seq"
        ).fetchall()
    return rolls, steps


def test_a_seeded_script_is_the_same_every_time(tmp_path: Path) -> None:
    first = _what_happened(tmp_path, "a", 7)
    assert len(first[0]) == 2 and len(first[1]) >= 4  # two rolls; the game and the bot's turn
    assert first == _what_happened(tmp_path, "b", 7)
    assert first != _what_happened(tmp_path, "c", 8)  # the seed is what decides


def test_a_script_that_ends_while_the_bot_thinks_shows_its_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last line makes the bot think about its move: the playground waits for it (each step
    waits until the bot has handled it, not for a quiet moment) and closes the database only
    then (it used to print 'no active connection' tracebacks). The thinking is patched here, so
    it cannot be sent to a worker process: the lane does it."""
    from engines.essence.engine import EssenceEngine

    thinking = EssenceEngine.choose_action

    def slow(self: Any, *args: Any) -> Any:
        time.sleep(1.0)  # longer than the playground waits for a quiet channel
        return thinking(self, *args)

    monkeypatch.setattr(EssenceEngine, "choose_action", slow)
    errors = io.StringIO()
    with contextlib.redirect_stderr(errors):
        text = _seeded(tmp_path, "a", SEEDED, 3)
    boards = [part for part in text.split("[Spielleiter]") if "  ┃ " in part]
    last_board = boards[-1]
    bot_name = f"Spielleiter ({t('essenzcog.choice.level.hard', 'de')})"
    assert f"› {bot_name}" in last_board, last_board  # the bot's own steps, narrated
    assert t("essenzcog.bot.thinking", "de") not in last_board
    assert "Traceback" not in errors.getvalue() + text
    assert "no active connection" not in errors.getvalue() + text


def test_the_player_follows_a_game_into_its_thread_and_switches_back(tmp_path: Path) -> None:
    script = (
        "/essenz start bot:easy schnell:true\n"
        "#allgemein\n"
        "/essenz zug notation:move c1 c2\n"
        "#Essenz\n"
        "/essenz zug notation:move c1 c2\n"
    )
    text = _seeded(tmp_path, "t", script, 3)
    thread = "#Essenz des Arkanen · Partie #1 · Alice, Spielleiter (leicht)"
    assert f"  Thread: {thread} (du folgst / you follow)" in text
    started, rest = text.split("> #allgemein", 1)
    # the invitation in the channel, told where it went; the board in the thread, here
    assert "[Spielleiter] in #allgemein" in started and f"läuft im Thread {thread}" in started
    assert "[Spielleiter]\n  @alice, du bist am Zug." in started
    in_channel, in_thread = rest.split("> #Essenz", 1)
    assert "keine laufende Partie" in in_channel  # the game is not in the channel itself
    assert f"Kanal / channel: {thread}" in in_thread
    assert "[Spielleiter] (geändert / updated)\n" in in_thread  # the one board, edited
    assert "(nur für dich / only you)" in in_thread
