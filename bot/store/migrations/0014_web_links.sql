-- Players' private links to the web viewer (issue 41, docs/web.md "The private view"). A link's
-- token is signed with [web] secret, or, when the configuration has none, with the secret kept
-- here (made once, by whichever process needs it first, and the same for every process on the
-- store). web_links.generation is a game's link generation: a token names the generation it was
-- made in, and /mod revoke-links counts it up, so every link made before is refused at once.
CREATE TABLE web_secret (
    name   TEXT NOT NULL PRIMARY KEY,
    secret TEXT NOT NULL
);
CREATE TABLE web_links (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    generation INTEGER NOT NULL,
    PRIMARY KEY (game_id)
);
