"""Schema migrations, applied in order by ``PRAGMA user_version``.

Never edit a migration that has shipped; append a new one. ``tests/unit/test_store_migrations.py``
upgrades from every older version.
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
]

# Migrations with a data step that runs (in the same transaction) before their script.
COMBATS_TO_GAMES = 3

SCHEMA_VERSION = len(MIGRATIONS)
