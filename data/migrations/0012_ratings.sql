-- Skill ratings (openskill's Plackett-Luce) per server, per season and over all time.
--
-- A season is keyed by its start in unix seconds (UTC); ``season = -1`` is the rating over
-- all time.  A server's seasons follow its plans: from a plan's ``started_at`` on,
-- seasons of ``days`` days (NULL: calendar months, UTC, the first one ending at the next
-- month's start).  No plan at all: calendar months.  A new plan never moves a finished
-- game into another season, so the ratings can always be recomputed from the games.
--
-- ``player`` names the rated one: 'user:<id>' for a person, 'ai:<strength>' for an AI
-- strength (each of a server's strengths is one rated player).  Every finished game is
-- rated once (``rated_games``), in the order the games finished; ``rating_changes``
-- keeps what it did to each seat in each scope, for the finished table, the rating over
-- time and the export.
BEGIN;

CREATE TABLE season_plans (
    guild_id   INTEGER NOT NULL,
    started_at INTEGER NOT NULL,
    days       INTEGER CHECK (days IS NULL OR days BETWEEN 7 AND 365),
    PRIMARY KEY (guild_id, started_at)
);

CREATE TABLE ratings (
    guild_id  INTEGER NOT NULL,
    season    INTEGER NOT NULL,
    player    TEXT    NOT NULL,
    user_id   INTEGER,
    ai        TEXT CHECK (ai IN ('easy', 'normal', 'hard')),
    name      TEXT    NOT NULL,           -- the name in the player's latest rated game
    mu        REAL    NOT NULL,
    sigma     REAL    NOT NULL,
    ordinal   REAL    NOT NULL,           -- mu - 3 sigma, what the board ranks by
    games     INTEGER NOT NULL CHECK (games >= 0),
    last_game INTEGER NOT NULL,           -- the id of the latest game rated
    PRIMARY KEY (guild_id, season, player),
    CHECK ((user_id IS NULL) <> (ai IS NULL))
);
CREATE INDEX ratings_board ON ratings (guild_id, season, ordinal DESC, player);
CREATE INDEX ratings_by_user ON ratings (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE rated_games (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    guild_id    INTEGER NOT NULL,
    finished_at REAL    NOT NULL,
    season      INTEGER NOT NULL          -- the season the game counts for
);
CREATE INDEX rated_games_in_order ON rated_games (guild_id, finished_at, game_id);

CREATE TABLE rating_changes (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    season       INTEGER NOT NULL,
    guild_id     INTEGER NOT NULL,
    player       TEXT    NOT NULL,
    channel_id   INTEGER NOT NULL,            -- the game's, for the boards' sight without a join
    rank         INTEGER NOT NULL CHECK (rank >= 1),  -- the seat's place in the rating's order
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    PRIMARY KEY (game_id, seat, season)
) WITHOUT ROWID;
-- A board's sight asks of every rated person whether it shows one of their games: the
-- channel here answers that from this index alone, without reading the games.
CREATE INDEX rating_changes_by_player
    ON rating_changes (guild_id, season, player, channel_id, game_id);
-- ... and which people have a game in a hidden channel at all (the few checked one by one).
CREATE INDEX rating_changes_by_channel ON rating_changes (guild_id, season, channel_id, player);

PRAGMA user_version = 12;
COMMIT;
