-- Every turn ping is stored from Discord's answer to its sending until it is gone, so
-- a bot that dies after that (while Discord refuses a deletion, say) leaves none of
-- them standing for good: a restarted bot takes down every stored one.  This replaces the game's
-- one ping id (0003) and the pings whose deletion failed (0009); both are kept as
-- rows of the one table.  Only a live game's ping id is copied: the old code never
-- cleared it once a game was over (its last ping was taken down, or failed into
-- stale_pings), so a finished or cancelled game's id names a ping long gone, and
-- copying them all would have the first start send one deletion per old game.
-- (SQLite keeps the column, unused: its DROP COLUMN needs 3.35.)

ALTER TABLE stale_pings RENAME TO pings;
ALTER INDEX stale_pings_by_game RENAME TO pings_by_game;
INSERT INTO pings (message_id, game_id, channel_id)
    SELECT ping_message_id, id, channel_id FROM games
    WHERE ping_message_id IS NOT NULL AND status IN ('lobby', 'running')
    ON CONFLICT (message_id) DO NOTHING;
ALTER TABLE games DROP COLUMN ping_message_id;
