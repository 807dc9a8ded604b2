-- Whether a table allows hints (the Hint button and /lama hint): on unless the
-- host turned them off in the lobby. Games stored before keep them on.
BEGIN;

ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 1 CHECK (hints IN (0, 1));

PRAGMA user_version = 8;
COMMIT;
