-- Which process serves which Discord shard.  A process claims its shards when it
-- starts and renews the lease while it runs, so a second process on the same
-- shard (which would play the same games) is refused.
BEGIN;

CREATE TABLE shard_leases (
    shard_id    INTEGER PRIMARY KEY CHECK (shard_id >= 0),
    shard_count INTEGER NOT NULL CHECK (shard_count > shard_id),
    owner       TEXT    NOT NULL,   -- one token per run of a process
    host        TEXT    NOT NULL,
    pid         INTEGER NOT NULL,
    expires_at  REAL    NOT NULL    -- unix time; a lease not renewed by then is free
);

PRAGMA user_version = 6;
COMMIT;
