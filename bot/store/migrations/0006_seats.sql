-- Seats before the start (issue 20): the seat a player took in a game whose variant seats its players
-- before /game start (arena, territory), numbered 1, 2, ... in the order they sat down; NULL for a
-- player who joined a running game by placing a king.
ALTER TABLE players ADD COLUMN seat INTEGER;
