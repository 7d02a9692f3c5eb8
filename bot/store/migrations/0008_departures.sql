-- How a player left their seat (issue 28): NULL while they play; 'kicked' (a moderator removed them),
-- 'left' (they left with /leave before anything of theirs was on the board) or 'replaced' (a
-- moderator gave their seat to another member). Such a row has status 'kicked': its member may not
-- order, and the row stays for the history of their orders. Rows kicked before this have NULL.
ALTER TABLE players ADD COLUMN departure TEXT;
-- A seat given to another member keeps its name and colour: the new member's row takes them while the
-- old row stays, so a name and a colour are unique among the players who play, not among every row.
-- (Joining still refuses a name or colour any row of the game has had: bot/service/games.py.)
DROP INDEX players_name;
DROP INDEX players_colour;
CREATE UNIQUE INDEX players_name ON players (game_id, name COLLATE NOCASE) WHERE status = 'joined';
CREATE UNIQUE INDEX players_colour ON players (game_id, colour COLLATE NOCASE) WHERE status = 'joined';
