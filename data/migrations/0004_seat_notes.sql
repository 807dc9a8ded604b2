-- Seat changes during a game that no move records (a kick, a player leaving or
-- coming back, an AI taking over), with their place in the event log: ``seq`` is
-- the number of events stored before the change.
BEGIN;

CREATE TABLE seat_notes (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    seat       INTEGER NOT NULL CHECK (seat >= 0),
    kind       TEXT    NOT NULL,
    created_at REAL    NOT NULL
);
CREATE INDEX seat_notes_by_game ON seat_notes (game_id, seq);

PRAGMA user_version = 4;
COMMIT;
