-- The "your turn" ping standing in a game's channel, so a restarted bot can take it down.

ALTER TABLE games ADD COLUMN ping_message_id BIGINT;
