-- Post numbers (issue 26): a post's identity, and its file's name, come from its game, not from the
-- outbox row's id. An id is the database's (PostgreSQL's sequences skip values a killed transaction
-- drew), so a session played again from the same seed, or killed and resumed, would name its posts
-- differently. Each game counts its posts in its own row (`post_count`); the transaction that
-- inserts a post takes the next number there (`outbox.post_no`: 1, 2, ... per game), so a
-- transaction that is rolled back, or killed, takes none.
ALTER TABLE games ADD COLUMN post_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN post_no INTEGER NOT NULL DEFAULT 0;
-- the posts already there: numbered per game in id order (the order they were written in)
UPDATE outbox SET post_no = numbered.post_no
    FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY game_id ORDER BY id) AS post_no FROM outbox) AS numbered
    WHERE numbered.id = outbox.id;
UPDATE games SET post_count = (SELECT COUNT(*) FROM outbox WHERE outbox.game_id = games.id);
CREATE UNIQUE INDEX outbox_post_no ON outbox (game_id, post_no);
