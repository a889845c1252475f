"""The settings for the database URL and the shards a process runs."""

from __future__ import annotations

import pytest

from bot.app import create_bot, shard_of
from bot.settings import Settings, SettingsError


def _load(**env: str) -> Settings:
    return Settings.load(env, dotenv=None)


def test_shard_of_a_guild_is_discords_formula() -> None:
    guild = 810000000000000001
    assert shard_of(guild, 4) == (guild >> 22) % 4
    assert shard_of(None, 4) == 0  # direct messages
    assert shard_of(guild, 1) == 0


def test_defaults_one_process_all_shards_sqlite() -> None:
    settings = _load()
    assert settings.shard_count is None and settings.shard_ids is None
    assert settings.database == "spielleiter.sqlite"


def test_shard_ids_and_ranges() -> None:
    settings = _load(SPIELLEITER_SHARD_COUNT="8", SPIELLEITER_SHARD_IDS="0-2, 5")
    assert settings.shard_count == 8 and settings.shard_ids == (0, 1, 2, 5)
    assert _load(SPIELLEITER_SHARD_COUNT="2").shard_ids is None


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"SPIELLEITER_SHARD_IDS": "1"}, "needs SPIELLEITER_SHARD_COUNT"),
        ({"SPIELLEITER_SHARD_COUNT": "2", "SPIELLEITER_SHARD_IDS": "2"}, "between 0 and 1"),
        ({"SPIELLEITER_SHARD_COUNT": "2", "SPIELLEITER_SHARD_IDS": "eins"}, "like 0,2 or 0-3"),
        ({"SPIELLEITER_SHARD_COUNT": "0"}, "at least 1"),
        ({"SPIELLEITER_DATABASE_URL": "mysql://db/bot"}, "postgresql://"),
    ],
)
def test_unusable_values_are_named(env: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        _load(**env)


def test_the_database_url_wins_over_the_file() -> None:
    url = "postgresql://bot@db/spielleiter"
    assert _load(SPIELLEITER_DATABASE_URL=url, SPIELLEITER_DB="x.sqlite").database == url
    assert _load(SPIELLEITER_DATABASE_URL="sqlite:///y.sqlite").database == "sqlite:///y.sqlite"


def test_a_process_owns_the_guilds_of_its_shards() -> None:
    settings = Settings(shard_count=2, shard_ids=(1,))
    bot = create_bot(settings)
    on_zero = next(g for g in range(1 << 22, 1 << 30, 1 << 22) if shard_of(g, 2) == 0)
    on_one = next(g for g in range(1 << 22, 1 << 30, 1 << 22) if shard_of(g, 2) == 1)
    assert bot.owns_guild(on_one) and not bot.owns_guild(on_zero)
    assert not bot.owns_guild(None)  # DMs are shard 0's
