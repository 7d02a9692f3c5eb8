-- Team threads (issue 22 item 7): in a game of teams (megachess) the bot keeps a private thread per
-- team where its players plan together. `team_threads` remembers each team's thread once the
-- Discord publisher has made it (NULL until then); `team_members` is the roster the bot last asked
-- the threads to have: each player (a Discord user) on a team now. A change of roster (a join, a
-- player who leaves, is taken, changes team or is replaced) puts a `team_threads` post in the
-- outbox, and the publisher makes each thread's members match the roster.
CREATE TABLE team_threads (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    team      TEXT    NOT NULL,
    thread_id INTEGER,
    PRIMARY KEY (game_id, team)
);
CREATE TABLE team_members (
    game_id INTEGER NOT NULL REFERENCES games (id),
    user_id INTEGER NOT NULL,
    team    TEXT    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
