-- Turn pings that are over but whose deletion Discord refused for now (429, 5xx):
-- the bot keeps trying, and a restarted bot takes them down.  A game stores only its
-- standing ping's id, so a ping replaced while its deletion is being tried needs a row.

CREATE TABLE stale_pings (
    message_id BIGINT PRIMARY KEY,
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    channel_id BIGINT NOT NULL
);
CREATE INDEX stale_pings_by_game ON stale_pings (game_id);
