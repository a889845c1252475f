"""A server's own Felsenfeuer spell file apart from Discord: read, stored (after the cog has
had every spell's test run), deleted, and what the engine says about it (the book it makes,
the size a file may have). ``cogs.felsenfeuer`` parses, calls this and replies with
``bot.narration.felsenfeuer``'s texts."""

from __future__ import annotations

from bot.narration.felsenfeuer import SPELLS_KIND
from bot.store import ContentRecord as ContentRecord  # the record a cog reads
from bot.store import Store
from engines.core import BadInput
from engines.felsenfeuer.spells import MAX_EXTRA_BYTES, book_for

__all__ = ["ContentRecord", "SpellbookService"]


class SpellbookService:
    """The spell file of a server (kind ``felsenfeuer.spells`` in the content store)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def file(self, guild_id: int | None) -> ContentRecord | None:
        """The server's stored file (None in a direct message or without one)."""
        if guild_id is None:
            return None
        return await self.store.get_content(guild_id, SPELLS_KIND)

    async def text(self, guild_id: int | None) -> str:
        """The server's own spell file ("" in a direct message or without one)."""
        record = await self.file(guild_id)
        return record.text if record is not None else ""

    @staticmethod
    def check_size(size: int) -> None:
        """Raises BadInput ``felsenfeuercog.error.file_too_big`` for a file too big to read."""
        if size > MAX_EXTRA_BYTES:
            raise BadInput("felsenfeuercog.error.file_too_big", max=MAX_EXTRA_BYTES // 1000)

    async def put(self, guild_id: int, text: str, user_id: int) -> bool:
        """Stores a file already checked; True when it replaced one."""
        return await self.store.put_content(guild_id, SPELLS_KIND, text, user_id)

    async def delete(self, guild_id: int) -> bool:
        return await self.store.delete_content(guild_id, SPELLS_KIND)

    @staticmethod
    def book_size(spells: str) -> int:
        """How many spells the book has with the server's file ``spells`` ("" none)."""
        return len(book_for(spells))
