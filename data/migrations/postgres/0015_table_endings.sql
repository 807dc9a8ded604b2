-- Whether a finished or cancelled game's table message shows how it ended: stored as
-- not shown in the write that ends the game, as shown once the table's last edit is
-- made, so a bot stopped (or killed) in between shows the end at its next start.
-- Games stored before count as shown.

ALTER TABLE games ADD COLUMN end_shown INTEGER NOT NULL DEFAULT 1 CHECK (end_shown IN (0, 1));
CREATE INDEX games_end_unshown ON games (id) WHERE end_shown = 0;
