"""Cogs parse, call a service and reply (issue #20): no cog imports the store or an engine's
internals (only ``engines.core``, the contract every game shares, and an engine package's own
public names, ``engines.w6``, ``engines.dice`` …). Every import is seen, also one inside a
function or under ``TYPE_CHECKING``. (That a renderer imports neither narration nor the store is
``tests/unit/test_layers.py``'s.) No cog is excepted."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def imports_of(path: Path) -> set[str]:
    """Every module ``path`` imports (absolute imports; the project has no relative ones)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            # ``from bot import store`` imports the module ``bot.store``
            found.update(
                f"{node.module}.{alias.name}"
                for alias in node.names
                if _is_module(f"{node.module}.{alias.name}")
            )
    return found


def _is_module(name: str) -> bool:
    place = ROOT.joinpath(*name.split("."))
    return place.with_suffix(".py").is_file() or (place / "__init__.py").is_file()


def _is(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def engine_internal(module: str) -> bool:
    """An engine module below its package (``engines.w6.state``), not the core contract."""
    parts = module.split(".")
    return parts[0] == "engines" and len(parts) > 2 and parts[1] != "core"


def cog_breaks(module: str) -> bool:
    return _is(module, "bot.store") or engine_internal(module)


def violations(folder: str, breaks: object) -> set[tuple[str, str]]:
    assert callable(breaks)
    found = set()
    for path in sorted((ROOT / folder).glob("*.py")):
        for module in imports_of(path):
            if breaks(module):
                found.add((path.relative_to(ROOT).as_posix(), module))
    return {(path, module) for path, module in found if not _covered(path, module, found)}


def _covered(path: str, module: str, found: set[tuple[str, str]]) -> bool:
    """``from bot.store import base`` is one import: its ``bot.store.base`` is told once."""
    parent = module.rsplit(".", 1)[0]
    return parent != module and (path, parent) in found and module.count(".") > 1


def test_the_walk_sees_every_kind_of_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from typing import TYPE_CHECKING\n"
        "import bot.store\n"
        "if TYPE_CHECKING:\n    from engines.w6.state import Fighter\n"
        "def later():\n    from bot.narration import w6\n",
        encoding="utf-8",
    )
    found = imports_of(sample)
    assert {"bot.store", "engines.w6.state", "bot.narration", "bot.narration.w6"} <= found
    assert not any(name.endswith(".Fighter") for name in found)  # a name, not a module
    assert cog_breaks("bot.store.base") and cog_breaks("engines.w6.state")
    assert not cog_breaks("engines.w6") and not cog_breaks("engines.core.match")


def test_cogs_import_neither_the_store_nor_engine_internals() -> None:
    assert violations("cogs", cog_breaks) == set(), "a cog calls a service instead"


async def test_an_lp_change_and_its_log_entry_are_one_write(tmp_path: Path) -> None:
    """``Sheets.change_lp``: the sheet and its entry (an NPC's marked) both, or — a sheet
    changed since it was read — neither."""
    from bot.sheets import Sheets
    from bot.store import SqliteStore, StaleRevision
    from engines.w6 import npc_from_text

    store = SqliteStore(tmp_path / "lp.db")
    await store.open()
    try:
        campaign = await store.create_campaign(
            guild_id=1, channel_id=2, name="Mine", gm_id=3, settings={}
        )
        sheets = Sheets(store)
        ork = await sheets.create(campaign, npc_from_text("Ork lp=20 kw=8 ab=5"), None, 3)
        before, lp = await sheets.change_lp(campaign, ork, "damage", -5, 3)
        assert (before.lp, lp) == (20, 15)
        (entry,) = [e for e in await store.campaign_log(campaign.id) if e["kind"] == "damage"]
        assert entry["data"] == {"name": "Ork", "amount": 5, "lp": 15, "lp_max": 20, "npc": True}
        with pytest.raises(StaleRevision):  # ``ork`` as read before is stale now
            await sheets.change_lp(campaign, ork, "damage", -5, 3)
        kinds = [e["kind"] for e in await store.campaign_log(campaign.id)]
        assert kinds.count("damage") == 1
        stored = await store.get_character(ork.id)
        assert stored is not None and stored.sheet["lp"] == 15
    finally:
        await store.close()


async def test_the_campaign_service_holds_the_main_gm_and_npc_rules(tmp_path: Path) -> None:
    """Handing a campaign over and choosing co-GMs are the main GM's alone (a co-GM is
    refused, nothing changes); an NPC's sheet is readable only for the GMs."""
    from bot.services.campaigns import CampaignService, may_read_sheet
    from bot.sheets import Sheets
    from bot.store import SqliteStore
    from engines.core import IllegalAction
    from engines.w6 import npc_from_text

    store = SqliteStore(tmp_path / "gm.db")
    await store.open()
    try:
        service = CampaignService(store)
        campaign = await service.start(1, 2, "Mine", gm_id=3)
        await service.set_co_gm(campaign, 3, 4, remove=False)
        campaign = await service.here(2)
        assert campaign.co_gm_ids == [4] and campaign.is_gm(4)
        for attempt in (
            service.hand_over(campaign, 4, 5),
            service.set_co_gm(campaign, 4, 5, remove=False),
        ):
            with pytest.raises(IllegalAction) as refused:
                await attempt
            assert refused.value.key == "w6cog.error.main_gm_only"
        unchanged = await service.here(2)
        assert (unchanged.gm_id, unchanged.co_gm_ids) == (3, [4])
        ork = await Sheets(store).create(campaign, npc_from_text("Ork lp=20 kw=8 ab=5"), None, 3)
        assert may_read_sheet(campaign, ork, 3) and may_read_sheet(campaign, ork, 4)
        assert not may_read_sheet(campaign, ork, 5)
        await service.hand_over(campaign, 3, 5)
        moved = await service.here(2)
        assert moved.gm_id == 5 and may_read_sheet(moved, ork, 5)
        assert not may_read_sheet(moved, ork, 3)
    finally:
        await store.close()
