-- House rules (issue 45): a server's saved rulesets, and the board its house-rules games
-- count on.  See the SQLite migration of the same number.

CREATE TABLE saved_rules (
    guild_id   BIGINT  NOT NULL REFERENCES guild_settings (guild_id) ON DELETE CASCADE,
    folded     TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    ruleset    TEXT    NOT NULL CHECK (ruleset::jsonb IS NOT NULL),
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, folded)
);

ALTER TABLE guild_settings ADD COLUMN house_rules_board TEXT
    CHECK (house_rules_board IN ('own', 'server'));

CREATE TABLE game_boards (
    game_id  BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    guild_id BIGINT NOT NULL,
    board    TEXT   NOT NULL CHECK (board IN ('own', 'server'))
);
