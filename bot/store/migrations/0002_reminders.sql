-- Reminders are sent once per deadline ("3 of 7 players have not moved"): the deadline a reminder
-- went out for, so a restart or a second trigger never sends it twice.
ALTER TABLE games ADD COLUMN reminded_for TEXT;
