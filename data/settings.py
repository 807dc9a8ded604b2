"""Per-guild settings: today the language of a server's public tables."""

from __future__ import annotations

from .database import Part


class GuildSettings(Part):
    async def get_language(self, guild_id: int) -> str | None:
        async with self._db.read() as unit:
            query = "SELECT language FROM guild_settings WHERE guild_id = ?"
            rows = await unit.fetch(query, (guild_id,))
        return rows[0][0] if rows else None

    async def set_language(self, guild_id: int, language: str | None) -> None:
        """Set the guild's language; None goes back to the default."""
        async with self._db.write() as unit:
            query = """INSERT INTO guild_settings (guild_id, language) VALUES (?, ?)
                       ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language
                    """
            await unit.execute(query, (guild_id, language))
