"""All settings in one place, read from the environment and an optional ``.env`` file.

Every setting is documented with its default in ``.env.example``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DISCORD_API = "https://discord.com/api/v10"


class SettingsError(ValueError):
    """A setting has a value that cannot be used; the message names the variable."""


@dataclass(frozen=True)
class Settings:
    token: str | None = None
    database_path: Path = Path("spielleiter.sqlite")
    api_base_url: str = DISCORD_API
    gateway_url: str | None = None
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    idle_reminder_minutes: int = 60 * 24
    idle_forfeit_minutes: int = 60 * 24 * 3
    reaction_minutes: int = 10  # a reaction unanswered this long passes (0: no limit)
    game_threads: bool = True  # a game started in a text channel gets its own thread
    thread_archive_minutes: int = 60  # a finished game's thread is archived this much later
    # postgresql://… for PostgreSQL (several shard processes), sqlite:///… or None: database_path
    database_url: str | None = None
    # None: discord.py asks Discord how many shards and runs them all in this process
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None  # None: every shard of shard_count
    seed: int | None = None  # reproducible dice and games (scripted sessions); None: random
    web_port: int | None = None  # the web companion's port (None: no web companion)
    web_host: str = "127.0.0.1"  # the address it listens on (0.0.0.0: every interface)
    web_url: str | None = None  # its public address for links; None: http://127.0.0.1:<port>
    # processes that draw boards and images beside the bot's own (0: threads, as in tests)
    render_processes: int = 2

    @property
    def web_base(self) -> str:
        """The address the companion's links start with (no trailing slash)."""
        return (self.web_url or f"http://127.0.0.1:{self.web_port}").rstrip("/")

    @property
    def database(self) -> str:
        """What the store opens: the database URL, else the SQLite file."""
        return self.database_url or str(self.database_path)

    def __repr__(self) -> str:  # the token never appears in logs or tracebacks
        shown = "set" if self.token else "missing"
        return f"Settings(token={shown}, database_path={self.database_path!s})"

    @classmethod
    def load(
        cls, env: Mapping[str, str] | None = None, dotenv: Path | None = Path(".env")
    ) -> Settings:
        """Settings from ``env`` (default: the process environment) over the ``.env`` file.

        Raises SettingsError for a value that is not a number where one is needed.
        """
        values = read_dotenv(dotenv) if dotenv is not None else {}
        values.update(os.environ if env is None else env)
        shard_count = _optional_int(values, "SPIELLEITER_SHARD_COUNT")
        return cls(
            token=values.get("DISCORD_TOKEN") or None,
            database_path=Path(values.get("SPIELLEITER_DB", "spielleiter.sqlite")),
            api_base_url=values.get("DISCORD_API_BASE_URL", DISCORD_API).rstrip("/"),
            gateway_url=values.get("DISCORD_GATEWAY_URL") or None,
            dev_guild_id=_optional_int(values, "SPIELLEITER_DEV_GUILD"),
            log_level=values.get("SPIELLEITER_LOG_LEVEL", "INFO").upper(),
            idle_reminder_minutes=_int(values, "SPIELLEITER_IDLE_REMINDER_MINUTES", 60 * 24),
            idle_forfeit_minutes=_int(values, "SPIELLEITER_IDLE_FORFEIT_MINUTES", 60 * 24 * 3),
            reaction_minutes=_int(values, "SPIELLEITER_REACTION_MINUTES", 10),
            game_threads=_flag(values, "SPIELLEITER_GAME_THREADS", True),
            thread_archive_minutes=_int(values, "SPIELLEITER_THREAD_ARCHIVE_MINUTES", 60),
            database_url=_database_url(values),
            shard_count=_shard_count(shard_count),
            shard_ids=_shard_ids(values, shard_count),
            seed=_optional_int(values, "SPIELLEITER_SEED"),
            web_port=_web_port(values),
            web_host=values.get("SPIELLEITER_WEB_HOST", "").strip() or "127.0.0.1",
            web_url=_web_url(values),
            render_processes=_int(values, "SPIELLEITER_RENDER_PROCESSES", 2),
        )


def read_dotenv(path: Path) -> dict[str, str]:
    """``KEY=value`` lines of ``path`` (missing file: empty); ``#`` comments and quotes allowed."""
    if not path.is_file():
        return {}
    values: dict[str, str] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, value = line.split("=", 1)
        values[key.strip().removeprefix("export ").strip()] = value.strip().strip("\"'")
    return values


def _database_url(values: Mapping[str, str]) -> str | None:
    url = values.get("SPIELLEITER_DATABASE_URL", "").strip()
    if not url:
        return None
    if "://" not in url or url.startswith(("postgresql://", "postgres://", "sqlite:///")):
        return url
    scheme = url.split("://", 1)[0]
    raise SettingsError(
        f"SPIELLEITER_DATABASE_URL must start with postgresql:// or sqlite:///, not {scheme}://"
    )


def _web_port(values: Mapping[str, str]) -> int | None:
    port = _optional_int(values, "SPIELLEITER_WEB_PORT")
    if port is not None and not 1 <= port <= 65535:
        raise SettingsError(f"SPIELLEITER_WEB_PORT must be between 1 and 65535, not {port}")
    return port


def _web_url(values: Mapping[str, str]) -> str | None:
    url = values.get("SPIELLEITER_WEB_URL", "").strip()
    if not url:
        return None
    if not url.startswith(("http://", "https://")):
        raise SettingsError(f"SPIELLEITER_WEB_URL must start with http:// or https://, not {url!r}")
    return url.rstrip("/")


def _shard_count(count: int | None) -> int | None:
    if count is not None and count < 1:
        raise SettingsError(f"SPIELLEITER_SHARD_COUNT must be at least 1, not {count}")
    return count


def _shard_ids(values: Mapping[str, str], count: int | None) -> tuple[int, ...] | None:
    """``SPIELLEITER_SHARD_IDS``: shard ids and ranges (``0,2`` or ``0-3``), each below the
    shard count; empty: all of them."""
    raw = values.get("SPIELLEITER_SHARD_IDS", "").strip()
    if not raw:
        return None
    name = "SPIELLEITER_SHARD_IDS"
    if count is None:
        raise SettingsError(f"{name} needs SPIELLEITER_SHARD_COUNT (the shards of all processes)")
    ids: list[int] = []
    for part in raw.replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        try:
            first, last = int(low), int(high if dash else low)
        except ValueError:
            raise SettingsError(
                f"{name} takes shard numbers and ranges like 0,2 or 0-3, not {raw!r}"
            ) from None
        ids.extend(range(first, last + 1))
    wrong = [i for i in ids if not 0 <= i < count]
    if wrong or not ids:
        raise SettingsError(
            f"{name} must be between 0 and {count - 1} (SPIELLEITER_SHARD_COUNT={count}), "
            f"not {raw!r}"
        )
    return tuple(sorted(set(ids)))


def _optional_int(values: Mapping[str, str], name: str) -> int | None:
    raw = values.get(name, "").strip()
    return _int(values, name, 0) if raw else None


def _flag(values: Mapping[str, str], name: str, default: bool) -> bool:
    """A yes/no setting: 1/true/yes/on or 0/false/no/off (empty: the default)."""
    raw = values.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in ("1", "true", "yes", "on", "ja", "an"):
        return True
    if raw in ("0", "false", "no", "off", "nein", "aus"):
        return False
    raise SettingsError(f"{name} must be on or off, not {raw!r}")


def _int(values: Mapping[str, str], name: str, default: int) -> int:
    raw = values.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a whole number, not {raw!r}") from None
