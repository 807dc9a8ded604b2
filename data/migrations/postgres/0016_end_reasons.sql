-- Why a cancelled game or lobby ended (an i18n key: closed.cancelled, closed.idle_game,
-- closed.abandoned …), stored in the write that ends it, so that what shows its end
-- later (an old private hand clicked, a table shown after a restart) can say why.
-- NULL for a finished game, a game whose place is gone, and games stored before.

ALTER TABLE games ADD COLUMN end_reason TEXT;
