-- When a running game whose every person is away (they missed their turns; nobody left)
-- stops waiting for them: until then its AI seats stand still and "I'm back" plays on;
-- then it ends as abandoned.  NULL while someone plays (and for games stored before).
BEGIN;

ALTER TABLE games ADD COLUMN waits_until REAL;

PRAGMA user_version = 21;
COMMIT;
