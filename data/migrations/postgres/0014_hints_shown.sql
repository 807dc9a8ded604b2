-- The hints shown: the move a hint advised the seat to move, at a moment of a game (its
-- events so far), stored before the hint is shown.  The game's review reads them: a move
-- made as its hint advised is never listed as a mistake (the review may search further
-- than the hint did and judge a close call the other way).  A moment may have more than
-- one (asked again after a restart, the hint is thought again).  They go with the game,
-- and with the person when they are forgotten.

CREATE TABLE hints_shown (
    game_id BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL CHECK (seq >= 0),   -- the event the advised move would be
    seat    INTEGER NOT NULL CHECK (seat >= 0),
    kind    TEXT    NOT NULL CHECK (kind IN ('play', 'draw', 'quit')),
    card    INTEGER NOT NULL DEFAULT 0,          -- the card played; 0 for a draw or a quit
    CHECK ((kind = 'play') = (card > 0)),
    PRIMARY KEY (game_id, seq, kind, card)
);
