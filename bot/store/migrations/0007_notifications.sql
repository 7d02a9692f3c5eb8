-- Opt-in notifications (issue 28): the Discord role the bot keeps for a game, whose members are
-- pinged when an update is posted and before its deadline (NULL: no member has asked yet), and
-- each player's wish for a direct-message reminder when they have not ordered (0: no, 1: yes).
ALTER TABLE games ADD COLUMN notify_role INTEGER;
ALTER TABLE players ADD COLUMN dm_reminder INTEGER NOT NULL DEFAULT 0;
