"""Settings, the translator, the match wrapper, the RNG and the component ids."""

from __future__ import annotations

import json
import logging
import re
import string
from pathlib import Path

import discord
import pytest

from bot.cli import RedactToken
from bot.components import custom_id
from bot.i18n import catalog, language_of, t
from bot.settings import DISCORD_API, Settings, SettingsError
from engines.core import IllegalAction, Rng
from engines.core.errors import BadInput


def test_settings_defaults_and_env(tmp_path: Path) -> None:
    assert Settings.load(env={}, dotenv=None) == Settings()
    assert Settings().api_base_url == DISCORD_API
    dotenv = tmp_path / ".env"
    dotenv.write_text("# comment\nDISCORD_TOKEN='abc'\nSPIELLEITER_DEV_GUILD=12\n")
    loaded = Settings.load(env={"SPIELLEITER_LOG_LEVEL": "debug"}, dotenv=dotenv)
    assert loaded.token == "abc" and loaded.dev_guild_id == 12 and loaded.log_level == "DEBUG"
    assert "abc" not in repr(loaded)
    with pytest.raises(SettingsError, match="SPIELLEITER_DEV_GUILD"):
        Settings.load(env={"SPIELLEITER_DEV_GUILD": "zwölf"}, dotenv=None)


def test_games_get_threads_unless_the_setting_says_off() -> None:
    assert Settings().game_threads and Settings.load(env={}, dotenv=None).game_threads
    off = Settings.load(env={"SPIELLEITER_GAME_THREADS": "off"}, dotenv=None)
    assert not off.game_threads
    assert Settings.load(env={"SPIELLEITER_GAME_THREADS": "1"}, dotenv=None).game_threads
    minutes = Settings.load(env={"SPIELLEITER_THREAD_ARCHIVE_MINUTES": "5"}, dotenv=None)
    assert minutes.thread_archive_minutes == 5
    with pytest.raises(SettingsError, match="SPIELLEITER_GAME_THREADS"):
        Settings.load(env={"SPIELLEITER_GAME_THREADS": "vielleicht"}, dotenv=None)


def test_env_example_documents_every_setting() -> None:
    example = Path(__file__).resolve().parents[2] / ".env.example"
    names = set(re.findall(r"^([A-Z_]+)=", example.read_text(), re.M))
    source = (Path(__file__).resolve().parents[2] / "bot" / "settings.py").read_text()
    used = set(re.findall(r'"((?:DISCORD|SPIELLEITER)_[A-Z_]+)"', source))
    assert used == names


def test_token_is_redacted_from_logs() -> None:
    record = logging.LogRecord("x", logging.INFO, "f", 1, "token is %s", ("sekret",), None)
    RedactToken("sekret").filter(record)
    assert "sekret" not in record.getMessage()


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_message_has_german_and_english_with_the_same_placeholders() -> None:
    for key, texts in catalog().items():
        assert set(texts) == {"de", "en"}, key
        assert texts["de"].strip() and texts["en"].strip(), key
        assert _placeholders(texts["de"]) == _placeholders(texts["en"]), key


def test_catalog_files_are_valid_json_without_duplicate_keys() -> None:
    for path in (Path(__file__).resolve().parents[2] / "data" / "i18n").glob("*.json"):
        pairs = json.loads(path.read_text(), object_pairs_hook=lambda p: p)
        keys = [k for k, _ in pairs]
        assert len(keys) == len(set(keys)), path.name


def test_language_choice() -> None:
    assert language_of(discord.Locale.german) == "de"
    assert language_of(discord.Locale.american_english) == "en"
    assert language_of(discord.Locale.british_english) == "en"
    assert language_of(discord.Locale.french) == "de"
    assert language_of(None) == "de"
    assert t("error.unexpected", "en", code="abc").endswith("please try again.")
    assert "abc" in t("error.unexpected", "de", code="abc")
    assert t("no.such.key", "de") == "no.such.key"


def test_rng_is_deterministic_and_advances() -> None:
    rng = Rng(42)
    first, after = rng.dice(10, 6)
    again, _ = Rng(42).dice(10, 6)
    assert first == again and after == Rng(42, 1)
    assert all(1 <= d <= 6 for d in first)
    assert after.dice(10, 6)[0] != first or after.dice(10, 6)[0] != Rng(42, 2).dice(10, 6)[0]
    assert Rng.from_json(after.to_json()) == after


def test_custom_id_limit() -> None:
    assert custom_id("essenz", 12, 3, "move") == "essenz:12:3:move"
    with pytest.raises(ValueError):
        custom_id("x", "y" * 120)


def test_engine_errors_carry_key_and_params() -> None:
    error = IllegalAction("essence.error.blocked", square="d4")
    assert error.key == "essence.error.blocked" and error.params == {"square": "d4"}
    assert isinstance(BadInput("x"), Exception)
