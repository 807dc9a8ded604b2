-- The interaction token that edits each running game's table message: every public
-- message of a game rides on its players' clicks' tokens (15 minutes each), so that a
-- game plays where the bot is no member (a group DM, a server that only a person
-- installed the app in) and costs the bot token nothing elsewhere.  Kept so that a
-- restarted bot edits the table on with it; ``bot_member`` says whether the bot was a
-- member where the game is (else a server missing from its cache is no sign that the
-- bot was removed from it).  One row a game, replaced at each new table message.
BEGIN;

CREATE TABLE table_tokens (
    game_id        INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    application_id INTEGER NOT NULL,
    token          TEXT    NOT NULL,
    message_id     INTEGER NOT NULL,
    clicked_at     REAL    NOT NULL,
    bot_member     INTEGER NOT NULL CHECK (bot_member IN (0, 1))
);

PRAGMA user_version = 20;
COMMIT;
