"""The one SQL layer of both stores, second half: campaigns, characters, Telperinquár decks, a
server's content files and the web companion's tokens (``sql_games.py`` has the first half
and the backend contract). ``SqlStore`` is the whole ``Store`` on a backend's statements."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence

from bot.store.base import (
    CampaignRecord,
    CharacterRecord,
    ContentRecord,
    DeckRecord,
    Json,
    StaleRevision,
    WebTokenRecord,
    check_character_limits,
)
from bot.store.rows import _campaign, _changed, _character, _content, _deck, _dump, _web_token
from bot.store.sql_games import (
    CAMPAIGN_COLUMNS,
    CHARACTER_COLUMNS,
    CONTENT_COLUMNS,
    DECK_COLUMNS,
    TOKEN_COLUMNS,
    SqlGames,
    Tx,
    dump_or_none,
    insert_log,
)


def _cards(cards: Sequence[tuple[str, int]]) -> str:
    return _dump([list(c) for c in cards])


class SqlStore(SqlGames):
    """``Store`` on a backend's statements (``SqlGames`` names what a backend provides)."""

    # campaigns -------------------------------------------------------------------------------

    async def create_campaign(
        self, *, guild_id: int | None, channel_id: int, name: str, gm_id: int, settings: Json
    ) -> CampaignRecord:
        """Raises AlreadyExists when the channel has an active campaign (also one started by a
        second command at the same moment: the unique index decides)."""
        return await self.import_campaign(
            guild_id=guild_id, channel_id=channel_id, name=name, gm_id=gm_id, settings=settings
        )

    async def import_campaign(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        name: str,
        gm_id: int,
        settings: Json,
        characters: Sequence[tuple[int | None, str, Json]] = (),
        log: Sequence[tuple[int | None, str, Json]] = (),
    ) -> CampaignRecord:
        """The campaign, its characters and its log in one transaction: all or nothing."""
        now = time.time()
        async with self._one_active("campaign"), self._transaction() as tx:
            row = await tx.one(
                "INSERT INTO campaigns (guild_id, channel_id, name, gm_id, settings, created_at)"
                f" VALUES (?, ?, ?, ?, ?, ?) RETURNING {CAMPAIGN_COLUMNS}",
                guild_id,
                channel_id,
                name,
                gm_id,
                _dump(settings),
                now,
            )
            assert row is not None
            await tx.many(
                "INSERT INTO characters (campaign_id, owner_id, name, sheet, updated_at)"
                " VALUES (?, ?, ?, ?, ?)",
                [
                    (row["id"], owner, title, _dump(sheet), now)
                    for owner, title, sheet in characters
                ],
            )
            await insert_log(tx, row["id"], now, log)
        return _campaign(row)

    async def get_campaign(self, campaign_id: int) -> CampaignRecord | None:
        return await self._found(
            _campaign, f"SELECT {CAMPAIGN_COLUMNS} FROM campaigns WHERE id = ?", campaign_id
        )

    async def active_campaign(self, channel_id: int) -> CampaignRecord | None:
        return await self._found(
            _campaign,
            f"SELECT {CAMPAIGN_COLUMNS} FROM campaigns WHERE channel_id = ? AND status = 'active'",
            channel_id,
        )

    async def campaigns(self, guild_id: int | None) -> list[CampaignRecord]:
        return await self._listed(
            _campaign,
            f"SELECT {CAMPAIGN_COLUMNS} FROM campaigns"
            f" WHERE guild_id {self.dialect.same} ? ORDER BY id",
            guild_id,
        )

    async def update_campaign(
        self,
        campaign_id: int,
        *,
        gm_id: int | None = None,
        co_gm_ids: list[int] | None = None,
        settings: Json | None = None,
        status: str | None = None,
        name: str | None = None,
    ) -> CampaignRecord:
        row = await self._write_one(
            "UPDATE campaigns SET gm_id = COALESCE(?, gm_id),"
            " co_gm_ids = COALESCE(?, co_gm_ids), settings = COALESCE(?, settings),"
            " status = COALESCE(?, status), name = COALESCE(?, name)"
            f" WHERE id = ? RETURNING {CAMPAIGN_COLUMNS}",
            gm_id,
            dump_or_none(co_gm_ids),
            dump_or_none(settings),
            status,
            name,
            campaign_id,
        )
        assert row is not None
        return _campaign(row)

    async def add_log(self, campaign_id: int, actor_id: int | None, kind: str, data: Json) -> None:
        await self._write(
            "INSERT INTO campaign_log (campaign_id, at, actor_id, kind, data)"
            " VALUES (?, ?, ?, ?, ?)",
            campaign_id,
            time.time(),
            actor_id,
            kind,
            _dump(data),
        )

    async def campaign_log(self, campaign_id: int, limit: int = 50) -> list[Json]:
        """The newest ``limit`` entries, oldest first (``limit`` 0: all)."""
        rows = await self._all(
            "SELECT at, actor_id, kind, data FROM campaign_log WHERE campaign_id = ?"
            " ORDER BY id DESC LIMIT ?",
            campaign_id,
            limit if limit > 0 else self.dialect.no_limit,
        )
        return [
            {
                "at": r["at"],
                "actor_id": r["actor_id"],
                "kind": r["kind"],
                "data": json.loads(r["data"]),
            }
            for r in reversed(rows)
        ]

    # characters ------------------------------------------------------------------------------

    async def create_character(
        self,
        *,
        campaign_id: int,
        owner_id: int | None,
        name: str,
        sheet: Json,
        activate: bool = False,
        log: Sequence[tuple[int | None, str, Json]] = (),
        max_in_campaign: int = 0,
        max_per_owner: int = 0,
    ) -> CharacterRecord:
        """The character, its owner's active mark (``activate``: only when the owner has
        none yet) and ``log`` entries, in one transaction. The limits are counted in it (on
        PostgreSQL under a lock on the campaign's characters), so concurrent creates, also
        from several processes, cannot pass them."""
        now = time.time()
        async with self._transaction() as tx:
            if max_in_campaign > 0 or max_per_owner > 0:
                await self._hold(tx, f"characters:{campaign_id}")
                counted = await tx.one(
                    "SELECT COUNT(*) AS n, COUNT(*) FILTER (WHERE owner_id = ?) AS own"
                    " FROM characters WHERE campaign_id = ?",
                    owner_id,
                    campaign_id,
                )
                assert counted is not None
                check_character_limits(
                    counted["n"], counted["own"], owner_id, max_in_campaign, max_per_owner
                )
            row = await tx.one(
                "INSERT INTO characters (campaign_id, owner_id, name, sheet, updated_at)"
                f" VALUES (?, ?, ?, ?, ?) RETURNING {CHARACTER_COLUMNS}",
                campaign_id,
                owner_id,
                name,
                _dump(sheet),
                now,
            )
            assert row is not None
            if activate and owner_id is not None:
                await tx.run(
                    "INSERT INTO active_characters (campaign_id, user_id, character_id)"
                    " VALUES (?, ?, ?) ON CONFLICT (campaign_id, user_id) DO NOTHING",
                    campaign_id,
                    owner_id,
                    row["id"],
                )
            await insert_log(tx, campaign_id, now, log)
        return _character(row)

    async def get_character(self, character_id: int) -> CharacterRecord | None:
        return await self._found(
            _character, f"SELECT {CHARACTER_COLUMNS} FROM characters WHERE id = ?", character_id
        )

    async def characters(self, campaign_id: int) -> list[CharacterRecord]:
        return await self._listed(
            _character,
            f"SELECT {CHARACTER_COLUMNS} FROM characters WHERE campaign_id = ?"
            f" ORDER BY name{self.dialect.bytewise}, id",
            campaign_id,
        )

    async def update_character(
        self,
        character_id: int,
        *,
        expected_revision: int,
        name: str,
        sheet: Json,
        log: Sequence[tuple[int | None, str, Json]] = (),
    ) -> CharacterRecord:
        """Raises StaleRevision when the sheet changed since it was read. ``log`` entries go
        to the character's campaign log in the same transaction (both or neither)."""
        now = time.time()
        async with self._transaction() as tx:
            row = await tx.one(
                "UPDATE characters SET name = ?, sheet = ?, revision = revision + 1,"
                f" updated_at = ? WHERE id = ? AND revision = ? RETURNING {CHARACTER_COLUMNS}",
                name,
                _dump(sheet),
                now,
                character_id,
                expected_revision,
            )
            if row is None:
                raise StaleRevision()
            record = _character(row)
            await insert_log(tx, record.campaign_id, now, log)
        return record

    async def delete_character(self, character_id: int) -> None:
        await self._write("DELETE FROM characters WHERE id = ?", character_id)

    async def set_active_character(self, campaign_id: int, user_id: int, character_id: int) -> None:
        await self._write(
            "INSERT INTO active_characters (campaign_id, user_id, character_id)"
            " VALUES (?, ?, ?) ON CONFLICT (campaign_id, user_id)"
            " DO UPDATE SET character_id = excluded.character_id",
            campaign_id,
            user_id,
            character_id,
        )

    async def active_character(self, campaign_id: int, user_id: int) -> CharacterRecord | None:
        columns = ", ".join("c." + c.strip() for c in CHARACTER_COLUMNS.split(","))
        return await self._found(
            _character,
            f"SELECT {columns} FROM active_characters a"
            " JOIN characters c ON c.id = a.character_id"
            " WHERE a.campaign_id = ? AND a.user_id = ?",
            campaign_id,
            user_id,
        )

    # Telperinquár decks ----------------------------------------------------------------------

    async def create_deck(
        self, owner_id: int, name: str, cards: Sequence[tuple[str, int]] = ()
    ) -> DeckRecord:
        """Create a deck. Raises AlreadyExists("deck") when the owner has one of that name."""
        async with self._one_active("deck"):
            row = await self._write_one(
                "INSERT INTO tq_decks (owner_id, name, cards, updated_at) VALUES (?, ?, ?, ?)"
                f" RETURNING {DECK_COLUMNS}",
                owner_id,
                name,
                _cards(cards),
                time.time(),
            )
        assert row is not None
        return _deck(row)

    async def get_deck(self, owner_id: int, name: str) -> DeckRecord | None:
        return await self._found(
            _deck,
            f"SELECT {DECK_COLUMNS} FROM tq_decks WHERE owner_id = ? AND name = ?",
            owner_id,
            name,
        )

    async def decks(self, owner_id: int) -> list[DeckRecord]:
        """The owner's decks by name."""
        return await self._listed(
            _deck,
            f"SELECT {DECK_COLUMNS} FROM tq_decks WHERE owner_id = ?"
            f" ORDER BY name{self.dialect.bytewise}, id",
            owner_id,
        )

    async def rename_deck(self, owner_id: int, name: str, new_name: str) -> DeckRecord | None:
        return await self._deck_as(
            "UPDATE tq_decks SET name = ?, updated_at = ? WHERE owner_id = ? AND name = ?",
            owner_id,
            name,
            new_name,
        )

    async def copy_deck(self, owner_id: int, name: str, new_name: str) -> DeckRecord | None:
        return await self._deck_as(
            "INSERT INTO tq_decks (owner_id, name, cards, updated_at)"
            " SELECT owner_id, ?, cards, ? FROM tq_decks WHERE owner_id = ? AND name = ?",
            owner_id,
            name,
            new_name,
        )

    async def _deck_as(
        self, sql: str, owner_id: int, name: str, new_name: str
    ) -> DeckRecord | None:
        """The deck ``sql`` writes under ``new_name`` (renamed or copied; parameters: the new
        name, the time, owner and name); None when there is no such deck, AlreadyExists when
        the owner has a deck of the new name."""
        async with self._one_active("deck"):
            row = await self._write_one(
                f"{sql} RETURNING {DECK_COLUMNS}", new_name, time.time(), owner_id, name
            )
        return None if row is None else _deck(row)

    async def delete_deck(self, owner_id: int, name: str) -> bool:
        deleted = await self._write(
            "DELETE FROM tq_decks WHERE owner_id = ? AND name = ?", owner_id, name
        )
        return deleted > 0

    async def change_deck_card(
        self, owner_id: int, name: str, card: str, delta: int
    ) -> DeckRecord | None:
        async with self._transaction() as tx:
            deck = await self._deck_to_write(tx, owner_id, name)
            if deck is None:
                return None
            changed = _changed(deck.cards, self.dialect.text(card), delta)
            return await _write_cards(tx, deck, changed)

    async def set_deck_cards(
        self, owner_id: int, name: str, cards: Sequence[tuple[str, int]]
    ) -> DeckRecord | None:
        async with self._transaction() as tx:
            deck = await self._deck_to_write(tx, owner_id, name)
            if deck is None:
                return None
            kept = [(self.dialect.text(n), c) for n, c in cards if c > 0]
            return await _write_cards(tx, deck, kept)

    async def _deck_to_write(self, tx: Tx, owner_id: int, name: str) -> DeckRecord | None:
        row = await tx.one(
            f"SELECT {DECK_COLUMNS} FROM tq_decks WHERE owner_id = ? AND name = ?"
            + self.dialect.for_update,
            owner_id,
            name,
        )
        return None if row is None else _deck(row)

    # A server's own content files ------------------------------------------------------------

    async def put_content(
        self, guild_id: int, kind: str, text: str, author_id: int, name: str = ""
    ) -> bool:
        """Store the file, replacing an earlier one of that guild, kind and name; True when one
        was replaced."""
        async with self._transaction() as tx:
            replaced = await tx.run(
                "UPDATE server_content SET text = ?, author_id = ?, updated_at = ?"
                " WHERE guild_id = ? AND kind = ? AND name = ?",
                text,
                author_id,
                time.time(),
                guild_id,
                kind,
                name,
            )
            if replaced:
                return True
            # a file stored meanwhile by another process (PostgreSQL) is replaced all the same
            await tx.run(
                "INSERT INTO server_content (guild_id, kind, name, text, author_id, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, kind, name) DO UPDATE SET"
                " text = excluded.text, author_id = excluded.author_id,"
                " updated_at = excluded.updated_at",
                guild_id,
                kind,
                name,
                text,
                author_id,
                time.time(),
            )
        return False

    async def get_content(self, guild_id: int, kind: str, name: str = "") -> ContentRecord | None:
        return await self._found(
            _content,
            f"SELECT {CONTENT_COLUMNS} FROM server_content"
            " WHERE guild_id = ? AND kind = ? AND name = ?",
            guild_id,
            kind,
            name,
        )

    async def list_content(self, guild_id: int, kind: str) -> list[ContentRecord]:
        """The guild's files of that kind, by name."""
        return await self._listed(
            _content,
            f"SELECT {CONTENT_COLUMNS} FROM server_content"
            f" WHERE guild_id = ? AND kind = ? ORDER BY name{self.dialect.bytewise}",
            guild_id,
            kind,
        )

    async def delete_content(self, guild_id: int, kind: str, name: str = "") -> bool:
        deleted = await self._write(
            "DELETE FROM server_content WHERE guild_id = ? AND kind = ? AND name = ?",
            guild_id,
            kind,
            name,
        )
        return deleted > 0

    # The web companion's tokens --------------------------------------------------------------

    async def put_web_token(
        self, token_hash: str, kind: str, user_id: int, guild_id: int, data: Json,
        expires_at: float, *, now: float,
    ) -> None:  # fmt: skip
        """Store a token; tokens expired at ``now`` are dropped in the same write."""
        async with self._transaction() as tx:
            await tx.run("DELETE FROM web_tokens WHERE expires_at <= ?", now)
            await tx.run(
                "INSERT INTO web_tokens (token_hash, kind, user_id, guild_id, data, expires_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (token_hash) DO UPDATE SET"
                " kind = excluded.kind, user_id = excluded.user_id,"
                " guild_id = excluded.guild_id, data = excluded.data,"
                " expires_at = excluded.expires_at",
                token_hash,
                kind,
                user_id,
                guild_id,
                _dump(data),
                expires_at,
            )

    async def take_web_token(self, token_hash: str, kind: str, now: float) -> WebTokenRecord | None:
        """Remove the token and return it when it exists with that ``kind`` and has not expired
        at ``now`` (one statement: two uses at once get it once); else None."""
        row = await self._write_one(
            f"DELETE FROM web_tokens WHERE token_hash = ? AND kind = ? RETURNING {TOKEN_COLUMNS}",
            token_hash,
            kind,
        )
        if row is None:
            return None
        record = _web_token(row)
        return record if record.expires_at > now else None

    async def get_web_token(self, token_hash: str, kind: str, now: float) -> WebTokenRecord | None:
        return await self._found(
            _web_token,
            f"SELECT {TOKEN_COLUMNS} FROM web_tokens"
            " WHERE token_hash = ? AND kind = ? AND expires_at > ?",
            token_hash,
            kind,
            now,
        )

    async def delete_web_token(self, token_hash: str) -> bool:
        deleted = await self._write("DELETE FROM web_tokens WHERE token_hash = ?", token_hash)
        return deleted > 0


async def _write_cards(tx: Tx, deck: DeckRecord, cards: list[tuple[str, int]]) -> DeckRecord:
    await tx.run(
        "UPDATE tq_decks SET cards = ?, updated_at = ? WHERE id = ?",
        _cards(cards),
        time.time(),
        deck.id,
    )
    return DeckRecord(deck.id, deck.owner_id, deck.name, tuple(cards))
