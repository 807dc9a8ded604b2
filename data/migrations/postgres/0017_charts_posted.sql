-- Whether a finished game's chip chart was posted (or given up on): stored as not posted
-- in the write that finishes the game, as posted once the front end is done with it, so
-- a bot stopped (or killed) in between posts it at its next start, and only then.
-- Games stored before count as posted.

ALTER TABLE games ADD COLUMN chart_posted INTEGER NOT NULL DEFAULT 1
    CHECK (chart_posted IN (0, 1));
CREATE INDEX games_chart_unposted ON games (id) WHERE chart_posted = 0;
