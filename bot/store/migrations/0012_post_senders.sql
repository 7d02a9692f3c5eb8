-- Who sends a game's posts (issue 26 items 4 and 5): one sender at a time. games.posting_by names
-- the identity of the service (a row of services, 0010) whose outbox relay delivers the game's
-- posts. Claims keep two processes from resolving one update; this keeps two live processes that
-- both own a game (a second copy started by mistake, a deploy that starts the new process before
-- stopping the old one) from both delivering its posts. The claim is taken by one conditional
-- statement when it is free: NULL, or its holder's row gone (a clean stop) or its heartbeat older
-- than the lease (the same test as games.claimed_by's, bot/service/claims.py). It is kept while the
-- holder lives, never released after a round, and a live holder's is never taken over.
ALTER TABLE games ADD COLUMN posting_by TEXT;
