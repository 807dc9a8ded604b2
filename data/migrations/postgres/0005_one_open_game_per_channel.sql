-- At most one lobby-or-running game per channel: two "/lama new" (or Rematch
-- clicks) at the same instant can't both open a table.  A database from before
-- may hold more than one; keep the running one (else the newest lobby) and
-- cancel the others, as if they had been closed.

UPDATE games
SET status = 'cancelled', turn_deadline = NULL
WHERE status IN ('lobby', 'running')
  AND EXISTS (
      SELECT 1 FROM games AS other
      WHERE other.channel_id = games.channel_id
        AND other.status IN ('lobby', 'running')
        AND other.id <> games.id
        AND (other.status = 'running') >= (games.status = 'running')
        AND ((other.status = 'running') > (games.status = 'running') OR other.id > games.id)
  );

CREATE UNIQUE INDEX games_open_per_channel ON games (channel_id)
WHERE status IN ('lobby', 'running');
