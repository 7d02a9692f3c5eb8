-- The timelapse without a stall when a game ends (issue 19): each update's frame is drawn when the
-- update resolves and kept here, with the box its state shows (extent) and the region it was drawn
-- on; when the game ends, the GIF is made from these frames after the commit, off the event loop.
-- A frame whose region is not the final one (the game spread further later) is drawn again then.
CREATE TABLE timelapse_frames (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    update_no   INTEGER NOT NULL,
    revision    INTEGER NOT NULL,                      -- the snapshot (update_no, revision) it shows
    label       TEXT    NOT NULL,                      -- its banner's words ("after update 4")
    extent      TEXT,                                  -- JSON [x0, y0, x1, y1]; NULL: nothing shown
    bounds      TEXT,                                  -- JSON [[x0, y0], [x1, y1]] of the board; NULL: none
    region      TEXT,                                  -- JSON [x0, y0, x1, y1] it was drawn on
    png         BLOB    NOT NULL,
    PRIMARY KEY (game_id, update_no, revision)
);

-- A game that has ended owes its timelapse until the GIF is in the outbox: written in the ending
-- transaction, so a crash before the GIF is made loses nothing (the next start makes it).
CREATE TABLE timelapses (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id),
    update_no   INTEGER NOT NULL,                      -- the update its post belongs to
    owed_since  TEXT    NOT NULL,
    post_id     INTEGER                                -- the outbox row, once made; NULL: still owed
);
