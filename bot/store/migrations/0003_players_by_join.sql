-- Every order's validation asks which players joined since the current snapshot (the joiners not yet on
-- the board): without this index that read walks every player of the game.
CREATE INDEX players_by_join ON players (game_id, joined_update);
