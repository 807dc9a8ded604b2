-- How many of a game's move lines (its moves, deals, round ends and seat changes, in the
-- order its table lists them) the table message has listed: kept by the front end after
-- each edit, so a table shown after a restart can count the moves it never listed that
-- are beyond those it lists.  Unknown (NULL) for games stored before.
BEGIN;

ALTER TABLE games ADD COLUMN moves_listed INTEGER CHECK (moves_listed >= 0);

PRAGMA user_version = 18;
COMMIT;
