-- Seat changes during a game that no move records (a kick, a player leaving or
-- coming back, an AI taking over), with their place in the event log: ``seq`` is
-- the number of events stored before the change.  ``id`` keeps the order of the
-- notes at one seq (SQLite's rowid does it there).

CREATE TABLE seat_notes (
    id         BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id    BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    seat       INTEGER NOT NULL CHECK (seat >= 0),
    kind       TEXT    NOT NULL,
    created_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX seat_notes_by_game ON seat_notes (game_id, seq);
