-- House rules (issue 45): a server's saved rulesets, and the board its house-rules games
-- count on.
--
-- ``saved_rules``: named rulesets a server's admins saved (``/lama settings rules``), which
-- /lama new offers; ``folded`` is the name casefolded, so that "Summer" and "summer" are
-- one name.  They go with the server's settings row (ON DELETE CASCADE), as its channels.
--
-- ``guild_settings.house_rules_board``: where a game with house rules (a ruleset that
-- differs from the editions it uses) is rated: 'own' (a board of its own, all time, apart
-- from the server's board and seasons) or 'server' (with every other game).  NULL: 'own'.
--
-- ``game_boards``: the board each game with house rules was rated on, written with its
-- first rating and kept when the ratings are recomputed (``rerate``), so a changed
-- setting never moves a game rated before it.  A game without house rules has none: it
-- is always on the server's board.
BEGIN;

CREATE TABLE saved_rules (
    guild_id   INTEGER NOT NULL REFERENCES guild_settings (guild_id) ON DELETE CASCADE,
    folded     TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    ruleset    TEXT    NOT NULL CHECK (json_valid(ruleset)),
    created_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, folded)
);

ALTER TABLE guild_settings ADD COLUMN house_rules_board TEXT
    CHECK (house_rules_board IN ('own', 'server'));

CREATE TABLE game_boards (
    game_id  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    guild_id INTEGER NOT NULL,
    board    TEXT    NOT NULL CHECK (board IN ('own', 'server'))
);

PRAGMA user_version = 22;
COMMIT;
