-- Careers (issue 42): ratings per server and game family, from the games that ended at their verdict.
-- `game_results` keeps each ended game's result as its final snapshot (snapshot_update,
-- snapshot_revision) says it: the family, whether the verdict rated it, when the game ended
-- (ended_at: the final snapshot's time, the order ratings are computed in, then the game's id) and
-- the places, JSON [[seat, user id, place, weight], ...] (a seat handed to a substitute: one team of its
-- members, each weighted by the orders they sent; bot/service/careers.py). It is a cache: ratings
-- are a pure function of the stored games, and a row whose snapshot is no longer the game's
-- current one (a moderator rolled the game back) is worked out again; docs/ratings.md.
CREATE TABLE game_results (
    game_id           INTEGER NOT NULL REFERENCES games (id),
    snapshot_update   INTEGER NOT NULL,
    snapshot_revision INTEGER NOT NULL,
    guild_id          INTEGER NOT NULL,
    family            TEXT    NOT NULL,
    rated             INTEGER NOT NULL,
    ended_at          TEXT    NOT NULL,
    places            TEXT    NOT NULL DEFAULT '[]',
    PRIMARY KEY (game_id)
);
CREATE INDEX game_results_by_guild ON game_results (guild_id, family, ended_at, game_id);
-- A member's choices on a server: hidden = 1 keeps them off its leaderboards (/profile hide:true);
-- they are still rated.
CREATE TABLE profiles (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    hidden   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id)
);
