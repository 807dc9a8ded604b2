-- A running game cancelled because no person played at it any more (end_reason
-- closed.abandoned) is rated like a finished one when an AI seat started it, the people
-- who left it last: the write that cancels it now keeps when it ended in finished_at, the
-- rater's order (a game only people started, all gone, is not rated: it gets none).
-- Those cancelled so before get their last write's time (the cancel, or its table posted
-- again right after): the next start rates them, in that order.
-- The rater reads the games to rate of a server in that order from their own index.
BEGIN;

UPDATE games SET finished_at = updated_at
    WHERE status = 'cancelled' AND end_reason = 'closed.abandoned' AND finished_at IS NULL
      AND EXISTS (SELECT 1 FROM seats AS a WHERE a.game_id = games.id
                  AND a.user_id IS NULL AND a.name <> 'former player');
CREATE INDEX games_rated_in_order ON games (guild_id, finished_at, id)
    WHERE finished_at IS NOT NULL;

PRAGMA user_version = 19;
COMMIT;
