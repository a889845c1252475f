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
        return cls(
            token=values.get("DISCORD_TOKEN") or None,
            database_path=Path(values.get("SPIELLEITER_DB", "spielleiter.sqlite")),
            api_base_url=values.get("DISCORD_API_BASE_URL", DISCORD_API).rstrip("/"),
            gateway_url=values.get("DISCORD_GATEWAY_URL") or None,
            dev_guild_id=_optional_int(values, "SPIELLEITER_DEV_GUILD"),
            log_level=values.get("SPIELLEITER_LOG_LEVEL", "INFO").upper(),
            idle_reminder_minutes=_int(values, "SPIELLEITER_IDLE_REMINDER_MINUTES", 60 * 24),
            idle_forfeit_minutes=_int(values, "SPIELLEITER_IDLE_FORFEIT_MINUTES", 60 * 24 * 3),
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


def _optional_int(values: Mapping[str, str], name: str) -> int | None:
    raw = values.get(name, "").strip()
    return _int(values, name, 0) if raw else None


def _int(values: Mapping[str, str], name: str, default: int) -> int:
    raw = values.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a whole number, not {raw!r}") from None
