-- Core tables: games, their seats, the append-only event log and the results.
-- Each migration is one transaction that ends by setting user_version, so a
-- failure anywhere leaves the database at the previous version.
BEGIN;

CREATE TABLE games (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    table_message_id INTEGER,
    host_id          INTEGER NOT NULL,
    ruleset          TEXT    NOT NULL CHECK (json_valid(ruleset)),
    status           TEXT    NOT NULL DEFAULT 'lobby'
                     CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
    turn_timer       INTEGER NOT NULL DEFAULT 0 CHECK (turn_timer >= 0),  -- seconds, 0 = off
    turn_deadline    REAL,                                                -- unix time
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL,
    finished_at      REAL
);

-- Resuming after a restart reads exactly these games.
CREATE INDEX games_unfinished ON games (status, id) WHERE status IN ('lobby', 'running');

CREATE TABLE seats (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    user_id      INTEGER,                                   -- NULL for an AI seat
    ai           TEXT CHECK (ai IN ('easy', 'normal', 'hard')),
    name         TEXT    NOT NULL,
    missed_turns INTEGER NOT NULL DEFAULT 0 CHECK (missed_turns >= 0),
    away         INTEGER NOT NULL DEFAULT 0 CHECK (away IN (0, 1)),  -- an AI stand-in plays
    PRIMARY KEY (game_id, seat),
    CHECK (user_id IS NOT NULL OR ai IS NOT NULL)
) WITHOUT ROWID;

-- seq is the event's index in Match.events: 0 is the first deal.
CREATE TABLE events (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    kind       TEXT    NOT NULL,
    payload    TEXT    NOT NULL CHECK (json_valid(payload)),
    meta       TEXT    CHECK (meta IS NULL OR json_valid(meta)),
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

-- The log is append-only: rows go away only together with their game.
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only');
END;

-- seq counts 0, 1, 2, ... without gaps, so no move can go missing.  (The
-- primary key refuses a seq already taken, so none can be saved twice.)
CREATE TRIGGER events_in_order BEFORE INSERT ON events
WHEN NEW.seq > 0
 AND NOT EXISTS (SELECT 1 FROM events WHERE game_id = NEW.game_id AND seq = NEW.seq - 1)
BEGIN
    SELECT RAISE(ABORT, 'events must follow each other without gaps');
END;

CREATE TRIGGER events_no_delete BEFORE DELETE ON events
WHEN EXISTS (SELECT 1 FROM games WHERE id = OLD.game_id)
BEGIN
    SELECT RAISE(ABORT, 'events are append-only');
END;

CREATE TABLE round_results (
    game_id   INTEGER NOT NULL,
    round_no  INTEGER NOT NULL CHECK (round_no >= 1),
    seat      INTEGER NOT NULL,
    penalty   INTEGER NOT NULL,                       -- what the hand cost after any discard
    gained    INTEGER NOT NULL,
    returned  INTEGER NOT NULL,                       -- value of the chip given back
    total     INTEGER NOT NULL,                       -- points after the round
    emptied   INTEGER NOT NULL CHECK (emptied IN (0, 1)),
    hand      TEXT    NOT NULL CHECK (json_valid(hand)),
    discarded INTEGER,                                -- the No Drama discard
    PRIMARY KEY (game_id, round_no, seat),
    FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat) ON DELETE CASCADE
) WITHOUT ROWID;

CREATE TABLE game_results (
    game_id INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    points  INTEGER NOT NULL,
    winner  INTEGER NOT NULL CHECK (winner IN (0, 1)),
    place   INTEGER NOT NULL CHECK (place >= 1),     -- 1 + seats with fewer points
    PRIMARY KEY (game_id, seat),
    FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat) ON DELETE CASCADE
) WITHOUT ROWID;

PRAGMA user_version = 1;
COMMIT;
