"""Schema migrations, applied in order: SQLite by ``PRAGMA user_version``, PostgreSQL by the
row of its ``schema_version`` table.

Never edit a migration that has shipped; append a new one to both lists.
``tests/unit/test_store.py`` and ``tests/unit/test_store_backends.py`` upgrade from every older
version.
"""

from __future__ import annotations

MIGRATIONS: list[str] = [
    # 1: games, their action logs, user preferences, bot metadata
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE user_prefs (
        user_id INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
        PRIMARY KEY (user_id, key)
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        engine_version INTEGER NOT NULL,
        config TEXT NOT NULL,
        seed INTEGER NOT NULL,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        players TEXT NOT NULL,
        status TEXT NOT NULL,
        snapshot TEXT NOT NULL,
        revision INTEGER NOT NULL DEFAULT 0,
        message_id INTEGER,
        display TEXT NOT NULL DEFAULT '{}',
        reminded_at REAL,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX games_by_channel ON games (channel_id, status);
    CREATE TABLE game_actions (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        player INTEGER NOT NULL,
        action TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    """,
    # 2: saved rolls, W6 campaigns, their log, characters and combats
    """
    CREATE TABLE saved_rolls (
        scope TEXT NOT NULL, name TEXT NOT NULL, expression TEXT NOT NULL,
        created_by INTEGER NOT NULL,
        PRIMARY KEY (scope, name)
    );
    CREATE TABLE campaigns (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        gm_id INTEGER NOT NULL,
        co_gm_ids TEXT NOT NULL DEFAULT '[]',
        settings TEXT NOT NULL DEFAULT '{}',
        status TEXT NOT NULL DEFAULT 'active',
        created_at REAL NOT NULL
    );
    CREATE UNIQUE INDEX one_active_campaign_per_channel
        ON campaigns (channel_id) WHERE status = 'active';
    CREATE TABLE campaign_log (
        id INTEGER PRIMARY KEY,
        campaign_id INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
        at REAL NOT NULL,
        actor_id INTEGER,
        kind TEXT NOT NULL,
        data TEXT NOT NULL
    );
    CREATE TABLE characters (
        id INTEGER PRIMARY KEY,
        campaign_id INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
        owner_id INTEGER,
        name TEXT NOT NULL,
        sheet TEXT NOT NULL,
        revision INTEGER NOT NULL DEFAULT 0,
        updated_at REAL NOT NULL
    );
    CREATE TABLE active_characters (
        campaign_id INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        character_id INTEGER NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
        PRIMARY KEY (campaign_id, user_id)
    );
    CREATE TABLE combats (
        id INTEGER PRIMARY KEY,
        channel_id INTEGER NOT NULL,
        campaign_id INTEGER REFERENCES campaigns (id) ON DELETE SET NULL,
        state TEXT NOT NULL,
        revision INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL DEFAULT 'active',
        message_id INTEGER,
        updated_at REAL NOT NULL
    );
    CREATE UNIQUE INDEX one_active_combat_per_channel
        ON combats (channel_id) WHERE status = 'active';
    """,
    # 3: every combat becomes a game of kind w6combat with its action log (moved by the data
    # step ``bot.store.upgrades.combat_to_game`` before this script); the combats table goes
    """
    DROP INDEX one_active_combat_per_channel;
    DROP TABLE combats;
    """,
    # 4: Telperinquár decks per user
    """
    CREATE TABLE tq_decks (
        id INTEGER PRIMARY KEY,
        owner_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        cards TEXT NOT NULL DEFAULT '[]',
        updated_at REAL NOT NULL,
        UNIQUE (owner_id, name)
    );
    """,  # 5: a server's own content files (a Felsenfeuer spell file, Telperinquár cards, ...)
    """
    CREATE TABLE server_content (
        guild_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        name TEXT NOT NULL DEFAULT '',
        text TEXT NOT NULL,
        author_id INTEGER NOT NULL,
        updated_at REAL NOT NULL,
        PRIMARY KEY (guild_id, kind, name)
    );
    """,  # 6: game seeds of 128 bits and more (no 64-bit column holds them): the whole seed
    # as decimal text; ``seed`` keeps its low 63 bits for an older bot reading the row
    """
    ALTER TABLE games ADD COLUMN seed_text TEXT;
    UPDATE games SET seed_text = CAST(seed AS TEXT);
    """,
    # 7: the web companion's one-time sign-in links and sessions (only a hash of each token),
    # and a server's games newest first (its replays)
    """
    CREATE TABLE web_tokens (
        token_hash TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        guild_id INTEGER NOT NULL,
        data TEXT NOT NULL DEFAULT '{}',
        expires_at REAL NOT NULL
    );
    CREATE INDEX web_tokens_by_expiry ON web_tokens (expires_at);
    CREATE INDEX games_by_guild ON games (guild_id, id);
    """,
]


# The same schema for PostgreSQL, migration for migration (``PG_MIGRATIONS[i]`` is
# ``MIGRATIONS[i]``): ids are identities, Discord ids BIGINT, times DOUBLE PRECISION (seconds,
# as in SQLite), JSON as TEXT (exactly what SQLite keeps; JSONB would refuse a \u0000 a user
# typed). Versions are rows of ``schema_version``. ``tests/unit/test_store_backends.py`` checks
# that both have the same tables and columns and upgrades each from every older version.
PG_MIGRATIONS: list[str] = [
    # 1: games, their action logs, user preferences, bot metadata
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE user_prefs (
        user_id BIGINT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
        PRIMARY KEY (user_id, key)
    );
    CREATE TABLE games (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        kind TEXT NOT NULL,
        engine_version INTEGER NOT NULL,
        config TEXT NOT NULL,
        seed BIGINT NOT NULL,
        guild_id BIGINT,
        channel_id BIGINT NOT NULL,
        players TEXT NOT NULL,
        status TEXT NOT NULL,
        snapshot TEXT NOT NULL,
        revision INTEGER NOT NULL DEFAULT 0,
        message_id BIGINT,
        display TEXT NOT NULL DEFAULT '{}',
        reminded_at DOUBLE PRECISION,
        created_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX games_by_channel ON games (channel_id, status);
    CREATE INDEX games_idle ON games (updated_at) WHERE status = 'active';
    CREATE TABLE game_actions (
        game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        player INTEGER NOT NULL,
        action TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    """,
    # 2: saved rolls, W6 campaigns, their log, characters and combats
    """
    CREATE TABLE saved_rolls (
        scope TEXT NOT NULL, name TEXT NOT NULL, expression TEXT NOT NULL,
        created_by BIGINT NOT NULL,
        PRIMARY KEY (scope, name)
    );
    CREATE TABLE campaigns (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        guild_id BIGINT,
        channel_id BIGINT NOT NULL,
        name TEXT NOT NULL,
        gm_id BIGINT NOT NULL,
        co_gm_ids TEXT NOT NULL DEFAULT '[]',
        settings TEXT NOT NULL DEFAULT '{}',
        status TEXT NOT NULL DEFAULT 'active',
        created_at DOUBLE PRECISION NOT NULL
    );
    CREATE UNIQUE INDEX one_active_campaign_per_channel
        ON campaigns (channel_id) WHERE status = 'active';
    CREATE TABLE campaign_log (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        campaign_id BIGINT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
        at DOUBLE PRECISION NOT NULL,
        actor_id BIGINT,
        kind TEXT NOT NULL,
        data TEXT NOT NULL
    );
    CREATE INDEX campaign_log_by_campaign ON campaign_log (campaign_id, id);
    CREATE TABLE characters (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        campaign_id BIGINT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
        owner_id BIGINT,
        name TEXT NOT NULL,
        sheet TEXT NOT NULL,
        revision INTEGER NOT NULL DEFAULT 0,
        updated_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX characters_by_campaign ON characters (campaign_id);
    CREATE TABLE active_characters (
        campaign_id BIGINT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
        user_id BIGINT NOT NULL,
        character_id BIGINT NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
        PRIMARY KEY (campaign_id, user_id)
    );
    CREATE TABLE combats (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        channel_id BIGINT NOT NULL,
        campaign_id BIGINT REFERENCES campaigns (id) ON DELETE SET NULL,
        state TEXT NOT NULL,
        revision INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL DEFAULT 'active',
        message_id BIGINT,
        updated_at DOUBLE PRECISION NOT NULL
    );
    CREATE UNIQUE INDEX one_active_combat_per_channel
        ON combats (channel_id) WHERE status = 'active';
    """,
    # 3: as MIGRATIONS[2] (the data step moves the combats first)
    """
    DROP INDEX one_active_combat_per_channel;
    DROP TABLE combats;
    """,
    # 4: Telperinquár decks per user
    """
    CREATE TABLE tq_decks (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        owner_id BIGINT NOT NULL,
        name TEXT NOT NULL,
        cards TEXT NOT NULL DEFAULT '[]',
        updated_at DOUBLE PRECISION NOT NULL,
        UNIQUE (owner_id, name)
    );
    """,  # 5: a server's own content files
    """
    CREATE TABLE server_content (
        guild_id BIGINT NOT NULL,
        kind TEXT NOT NULL,
        name TEXT NOT NULL DEFAULT '',
        text TEXT NOT NULL,
        author_id BIGINT NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (guild_id, kind, name)
    );
    """,  # 6: as MIGRATIONS[5] (seeds of 128 bits as text)
    """
    ALTER TABLE games ADD COLUMN seed_text TEXT;
    UPDATE games SET seed_text = CAST(seed AS TEXT);
    """,
    # 7: the web companion's one-time sign-in links and sessions, a server's games
    """
    CREATE TABLE web_tokens (
        token_hash TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        user_id BIGINT NOT NULL,
        guild_id BIGINT NOT NULL,
        data TEXT NOT NULL DEFAULT '{}',
        expires_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX web_tokens_by_expiry ON web_tokens (expires_at);
    CREATE INDEX games_by_guild ON games (guild_id, id);
    """,
]

# Migrations with a data step that runs (in the same transaction) before their script.
COMBATS_TO_GAMES = 3

SCHEMA_VERSION = len(MIGRATIONS)
