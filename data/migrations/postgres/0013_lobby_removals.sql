-- The people a lobby's host (or a manager) removed with /lama kick: they may not join
-- that lobby again, also after a restart.  Only a lobby reads them; they go with the game.

CREATE TABLE lobby_removals (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
