-- The "your turn" ping standing in a game's channel, so a restarted bot can take it down.
BEGIN;

ALTER TABLE games ADD COLUMN ping_message_id INTEGER;

PRAGMA user_version = 3;
COMMIT;
