-- The people a lobby's host (or a manager) removed with /lama kick: they may not join
-- that lobby again, also after a restart.  Only a lobby reads them; they go with the game.
BEGIN;

CREATE TABLE lobby_removals (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;

PRAGMA user_version = 13;
COMMIT;
