-- Whether a table allows hints (the Hint button and /lama hint): on unless the
-- host turned them off in the lobby. Games stored before keep them on.

ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 1 CHECK (hints IN (0, 1));
