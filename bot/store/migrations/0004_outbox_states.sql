-- Where an unsent post stands (issue 19): 'pending' (due now or after next_attempt_at), 'waiting' (on
-- access the bot lacks or on Discord: retried with growing backoff and never given up), 'parked' (it
-- failed for a reason that will not pass by itself: kept with its reason until a moderator asks for it
-- again), 'sent'.
ALTER TABLE outbox ADD COLUMN state TEXT NOT NULL DEFAULT 'pending';
UPDATE outbox SET state = 'sent' WHERE sent_at IS NOT NULL;
-- Before this, a post that could not be delivered was closed as if sent, without a message: it is
-- parked instead, so a moderator can see it and have it delivered again.
UPDATE outbox SET state = 'parked', sent_at = NULL, next_attempt_at = NULL
    WHERE sent_at IS NOT NULL AND message_id IS NULL AND last_error IS NOT NULL;
