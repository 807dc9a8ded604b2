-- Turn pings that are over but whose deletion Discord refused for now (429, 5xx):
-- the bot keeps trying, and a restarted bot takes them down.  A game stores only its
-- standing ping's id, so a ping replaced while its deletion is being tried needs a row.
BEGIN;

CREATE TABLE stale_pings (
    message_id INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    channel_id INTEGER NOT NULL
);
CREATE INDEX stale_pings_by_game ON stale_pings (game_id);

PRAGMA user_version = 9;
COMMIT;
