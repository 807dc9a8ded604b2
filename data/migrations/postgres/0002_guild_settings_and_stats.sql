-- Per-guild settings, a per-game language, and the indexes behind the stats.

CREATE TABLE guild_settings (
    guild_id BIGINT PRIMARY KEY,
    language TEXT
);

ALTER TABLE games ADD COLUMN language TEXT;

-- Stats, leaderboards and history read finished games of one guild.
CREATE INDEX games_by_guild ON games (guild_id, status, finished_at);

-- A person's games; also makes sure nobody holds two seats at one table.
CREATE UNIQUE INDEX seats_by_user ON seats (user_id, game_id) WHERE user_id IS NOT NULL;
