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
    bot_member     INTEGER NOT NULL CHECK (bot_member IN (0, 1)),
    -- 1: the message is the token's own answer (edited as @original), 0: its followup
    original       INTEGER NOT NULL CHECK (original IN (0, 1))
);

-- A ping sent with a click's token is taken down with that token (the bot token can't
-- where the bot is no member): a restart finds it here while the token still works.
ALTER TABLE pings ADD COLUMN application_id INTEGER;
ALTER TABLE pings ADD COLUMN token TEXT;
ALTER TABLE pings ADD COLUMN sent_at REAL;

PRAGMA user_version = 20;
COMMIT;
