-- Skirmish's database, version 1. Later changes are numbered files in migrations/, never edits
-- of this file: an existing database must reach exactly the schema a fresh one gets.
--
-- Times are ISO-8601 UTC text ("2026-11-22T18:00:00+00:00"). Discord ids are integers.
-- Every table is scoped by game_id; a guild may run several games, one per channel or thread.

CREATE TABLE games (
    id              INTEGER PRIMARY KEY,
    name            TEXT    NOT NULL,
    ruleset         TEXT    NOT NULL,                 -- a preset name (assets/rulesets/<name>.toml)
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,                 -- the game's channel or thread
    status          TEXT    NOT NULL DEFAULT 'setup'
                    CHECK (status IN ('setup', 'running', 'paused', 'ended')),
    update_no       INTEGER NOT NULL DEFAULT 0,       -- the update whose orders are being collected
    snapshot_update INTEGER,                          -- the current snapshot: (snapshot_update,
    snapshot_revision INTEGER,                        --   snapshot_revision); NULL before the start
    seed            TEXT    NOT NULL,
    settings        TEXT    NOT NULL DEFAULT '{}',    -- JSON, see bot/service/settings.py
    schedule        TEXT    NOT NULL DEFAULT '{"kind": "manual"}',  -- JSON, see bot/service/schedule.py
    locked          INTEGER NOT NULL DEFAULT 0,       -- 1: the order book of update_no is frozen
    lock_at         TEXT,
    deadline_at     TEXT,
    paused_at       TEXT,
    claimed_by      TEXT,                             -- the process resolving update_no, if any
    claimed_at      TEXT,
    created_at      TEXT    NOT NULL,
    created_by      INTEGER NOT NULL
);
-- one game at a time in a channel or thread
CREATE UNIQUE INDEX games_one_live_per_channel ON games (channel_id) WHERE status != 'ended';

CREATE TABLE players (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,                      -- the player's name in the engine and reports
    colour      TEXT    NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'joined' CHECK (status IN ('joined', 'kicked')),
    joined_at   TEXT    NOT NULL,
    joined_update INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE UNIQUE INDEX players_name ON players (game_id, name COLLATE NOCASE);
CREATE UNIQUE INDEX players_colour ON players (game_id, colour COLLATE NOCASE);

CREATE TABLE orders (
    id           INTEGER PRIMARY KEY,
    game_id      INTEGER NOT NULL REFERENCES games (id),
    update_no    INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    text         TEXT    NOT NULL,                     -- as typed (at most 2,000 characters, P2)
    canonical    TEXT,                                 -- INTERFACES.md form; NULL when refused
    source       TEXT    NOT NULL CHECK (source IN ('channel', 'dm', 'moderator')),
    submitted_at TEXT    NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('pending', 'superseded', 'cancelled', 'locked',
                                                    'resolved', 'refused')),
    refusal      TEXT,                                 -- why it was refused (at once, or at the update)
    FOREIGN KEY (game_id, user_id) REFERENCES players (game_id, user_id)
);
-- D6: at most one live order per player and update
CREATE UNIQUE INDEX orders_one_live ON orders (game_id, update_no, user_id)
    WHERE status IN ('pending', 'locked');
CREATE INDEX orders_by_update ON orders (game_id, update_no, status);

CREATE TABLE snapshots (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    update_no   INTEGER NOT NULL,                      -- 0: the start; k: the state after update k
    revision    INTEGER NOT NULL,                      -- 0, 1, ...: each resolution, edit or re-resolution
    base_revision INTEGER,                             -- the revision of update_no - 1 it was resolved from
    state       TEXT    NOT NULL,                      -- bot.engine.serialize JSON
    orders      TEXT    NOT NULL DEFAULT '{}',         -- JSON {player name: canonical order} resolved
    joiners     TEXT    NOT NULL DEFAULT '[]',         -- JSON [[name, colour], ...]: players added to the
                                                       --   base state when this update was resolved
    seed        TEXT    NOT NULL,
    report      TEXT,                                  -- bot.engine.report JSON (NULL for edits/start)
    reason      TEXT    NOT NULL,                      -- start | update | edit: <what> | rollback
    rolled_back INTEGER NOT NULL DEFAULT 0,            -- 1: undone by a rollback, kept for history
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (game_id, update_no, revision)
);

CREATE TABLE outbox (
    id           INTEGER PRIMARY KEY,
    game_id      INTEGER NOT NULL REFERENCES games (id),
    update_no    INTEGER NOT NULL,                     -- the update the post belongs to
    kind         TEXT    NOT NULL,                     -- board, health_text, health_image, events,
                                                       -- report, private_report, notice,
                                                       -- announcement, reminder, timelapse
    recipient    INTEGER,                              -- a user id for a direct message, else NULL
    body         TEXT    NOT NULL DEFAULT '',
    attachment   BLOB,
    filename     TEXT,                                 -- the attachment's file name
    created_at   TEXT    NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    last_error   TEXT,
    next_attempt_at TEXT,
    sent_at      TEXT,
    message_id   TEXT                                  -- what the publisher made of it, once sent
);
CREATE INDEX outbox_unsent ON outbox (sent_at, id) WHERE sent_at IS NULL;

CREATE TABLE audit (
    id        INTEGER PRIMARY KEY,
    game_id   INTEGER NOT NULL REFERENCES games (id),
    actor     INTEGER NOT NULL,                        -- the moderator's user id (0: the bot itself)
    action    TEXT    NOT NULL,
    detail    TEXT    NOT NULL DEFAULT '{}',           -- JSON
    at        TEXT    NOT NULL
);
CREATE INDEX audit_by_game ON audit (game_id, id);
