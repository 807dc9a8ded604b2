-- A server's defaults for /lama new (turn timer, hints; NULL: the bot's own default) and
-- the channels where /lama new may open a table (none listed: every channel).  A
-- server's allowed channels go with its settings row (ON DELETE CASCADE), so
-- forgetting a server deletes them with its language, as before.

ALTER TABLE guild_settings ADD COLUMN turn_timer INTEGER CHECK (turn_timer >= 0);
ALTER TABLE guild_settings ADD COLUMN hints INTEGER CHECK (hints IN (0, 1));

CREATE TABLE guild_channels (
    guild_id BIGINT NOT NULL REFERENCES guild_settings (guild_id) ON DELETE CASCADE,
    channel_id BIGINT NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
);
