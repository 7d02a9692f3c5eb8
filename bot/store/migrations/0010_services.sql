-- Running services (issue 26 item 5): every Service that resolves updates has a row here while it
-- runs, under an identity of its own (a uuid4, so two services of one process, a re-created
-- container or a reused pid are never taken for one another); host and pid are only for people to
-- read. It beats every few seconds (heartbeat_at: milliseconds since 1970-01-01 UTC, a number so that
-- both back ends compare it alike) and deletes its row when it stops cleanly. games.claimed_by names
-- the identity of the service resolving the open update: the claim is free when that row is gone or
-- its heartbeat is older than the lease (bot/service/claims.py), and a live one is never taken over.
CREATE TABLE services (
    identity     TEXT    NOT NULL PRIMARY KEY,
    host         TEXT    NOT NULL,
    pid          INTEGER NOT NULL,
    started_at   TEXT    NOT NULL,
    heartbeat_at INTEGER NOT NULL
);
-- the sweep reads the claimed games only
CREATE INDEX games_claimed ON games (claimed_by) WHERE claimed_by IS NOT NULL;
