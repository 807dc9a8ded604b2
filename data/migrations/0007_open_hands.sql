-- The private hands players have open, so that a restarted bot can still refresh
-- them: Discord lets an interaction's token edit its message for 15 minutes.  Rows
-- older than that are useless and pruned as new ones come in.
BEGIN;

CREATE TABLE open_hands (
    game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id        INTEGER NOT NULL,
    application_id INTEGER NOT NULL,
    token          TEXT    NOT NULL,
    message_id     INTEGER NOT NULL,
    locale         TEXT    NOT NULL,
    warning        TEXT,
    opened_at      REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX open_hands_by_age ON open_hands (opened_at);

PRAGMA user_version = 7;
COMMIT;
