-- The private hands players have open, so that a restarted bot can still refresh
-- them: Discord lets an interaction's token edit its message for 15 minutes.  Rows
-- older than that are useless and pruned as new ones come in.

CREATE TABLE open_hands (
    game_id        BIGINT           NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id        BIGINT           NOT NULL,
    application_id BIGINT           NOT NULL,
    token          TEXT             NOT NULL,
    message_id     BIGINT           NOT NULL,
    locale         TEXT             NOT NULL,
    warning        TEXT,
    opened_at      DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX open_hands_by_age ON open_hands (opened_at);
