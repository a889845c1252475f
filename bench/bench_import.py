"""A campaign import at its limits (a 2 MB file: 200 characters, the rest log entries): the
whole check (``parse_import``) and the one-transaction write (``Store.import_campaign``)."""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from pathlib import Path

from bench.common import Figure
from bot.limits import MAX_CHARACTERS_PER_CAMPAIGN, MAX_IMPORT_BYTES, MAX_LOG_ENTRIES_IMPORT
from bot.services.campaigns import EXPORT_SCHEMA, EXPORT_VERSION, parse_import
from bot.store import SqliteStore

TARGET_S = 3.0  # "finishes in seconds": check and write together
SHEET = {
    "schema": "w6.sheet",
    "version": 1,
    "name": "Thoin",
    "pm": {"K": 4, "G": 3, "M": 3, "B": 3},
    "eigenschaften": {"Geschick": 3, "Kraft": 5},
    "fertigkeiten": {"Spaltwaffen": 2},
    "lp": 30,
    "lp_max": 30,
    "kw": 12,
    "ab": 6,
    "waffen": [{"name": "Axt", "schaden": "1-2", "zusatz": "K"}],
}


def biggest_file() -> bytes:
    """A valid export as large as an import may be."""
    characters = [
        {"owner_id": 1000 + i // 10, "sheet": {**SHEET, "name": f"Thoin {i}"}}
        for i in range(MAX_CHARACTERS_PER_CAMPAIGN)
    ]
    entry = {
        "at": 1.7e9,
        "actor_id": 1001,
        "kind": "roll",
        "data": {"expression": "3W6", "total": 11},
    }
    data = {
        "schema": EXPORT_SCHEMA,
        "version": EXPORT_VERSION,
        "name": "Die Mine",
        "settings": {},
        "characters": characters,
        "npcs": [],
        "log": [],
    }
    room = MAX_IMPORT_BYTES - len(json.dumps(data).encode()) - 100
    count = min(MAX_LOG_ENTRIES_IMPORT, room // (len(json.dumps(entry)) + 2))
    data["log"] = [entry] * count
    return json.dumps(data).encode()


async def _write(data: dict) -> float:
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(Path(folder) / "bench.sqlite")
        await store.open()
        start = time.perf_counter()
        await store.import_campaign(
            guild_id=1,
            channel_id=1,
            name=data["name"],
            gm_id=1,
            settings=data["settings"],
            characters=[(c["owner_id"], c["name"], c["sheet"]) for c in data["characters"]],
            log=[(e.get("actor_id"), e["kind"], e.get("data", {})) for e in data["log"]],
        )
        elapsed = time.perf_counter() - start
        await store.close()
    return elapsed


def run() -> list[Figure]:
    raw = biggest_file()
    start = time.perf_counter()
    data = parse_import(raw)
    checked = time.perf_counter() - start
    written = asyncio.run(_write(data))
    return [
        Figure(f"import: check a {len(raw) / 1e6:.1f} MB campaign file", checked, "s"),
        Figure(f"import: write it ({len(data['log'])} log entries)", written, "s"),
        Figure("import: check and write together", checked + written, "s", TARGET_S),
    ]
