"""Per-guild settings: the language of a server's tables, its defaults and channels."""

from __future__ import annotations

from dataclasses import dataclass

from .database import Database, Unit

#: The boards a game with house rules may count on (``guild_settings.house_rules_board``,
#: ``game_boards.board``): a board of its own, or the server's with every other game.
OWN = "own"
SERVER = "server"

#: The columns of ``guild_settings`` a setter may write (never a caller's string).
_COLUMNS = frozenset({"language", "turn_timer", "hints", "house_rules_board"})


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """What a server has set; None (or no channels) leaves the bot's own default."""

    language: str | None = None
    turn_timer: int | None = None  # seconds, 0 = off
    hints: bool | None = None
    #: The channels where /lama new may open a table (their threads too); () is every channel.
    channels: tuple[int, ...] = ()
    #: Where games with house rules are rated: ``OWN`` (None too) or ``SERVER``.
    house_rules_board: str | None = None


class GuildSettings:
    """A server's language, /lama new's defaults and allowed channels."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def get_language(self, guild_id: int) -> str | None:
        async with self._db.read() as unit:
            query = "SELECT language FROM guild_settings WHERE guild_id = ?"
            rows = await unit.fetch(query, (guild_id,))
        return rows[0][0] if rows else None

    async def guild_settings(self, guild_id: int) -> ServerSettings:
        """Everything the server ``guild_id`` has set, in one read."""
        async with self._db.read() as unit:
            query = """SELECT language, turn_timer, hints, house_rules_board FROM guild_settings
                       WHERE guild_id = ?"""
            rows = await unit.fetch(query, (guild_id,))
            channels = await _channels(unit, guild_id)
        if not rows:
            return ServerSettings(channels=channels)
        language, timer, hints, board = rows[0]
        return ServerSettings(
            language=language,
            turn_timer=None if timer is None else int(timer),
            hints=None if hints is None else bool(hints),
            channels=channels,
            house_rules_board=board,
        )

    async def set_language(self, guild_id: int, language: str | None) -> None:
        """Set the guild's language; None goes back to the default."""
        await self._set(guild_id, "language", language)

    async def set_default_timer(self, guild_id: int, seconds: int | None) -> None:
        """The turn timer of the server's new tables; None goes back to the bot's."""
        await self._set(guild_id, "turn_timer", seconds)

    async def set_default_hints(self, guild_id: int, hints: bool | None) -> None:
        """Whether the server's new tables allow hints; None goes back to the bot's (on)."""
        await self._set(guild_id, "hints", None if hints is None else int(hints))

    async def set_house_rules_board(self, guild_id: int, board: str | None) -> None:
        """Where the server's games with house rules are rated from now on: ``OWN`` or
        ``SERVER``; None goes back to the default (``OWN``)."""
        assert board in (None, OWN, SERVER), board
        await self._set(guild_id, "house_rules_board", board)

    async def allow_channel(self, guild_id: int, channel_id: int) -> tuple[int, ...]:
        """Add a channel where /lama new may open a table; the channels allowed now."""
        async with self._db.write() as unit:
            await settings_row(unit, guild_id)
            query = """INSERT INTO guild_channels (guild_id, channel_id) VALUES (?, ?)
                       ON CONFLICT (guild_id, channel_id) DO NOTHING"""
            await unit.execute(query, (guild_id, channel_id))
            return await _channels(unit, guild_id)

    async def disallow_channel(self, guild_id: int, channel_id: int) -> tuple[int, ...]:
        """Take a channel off the list; the channels allowed now (() is every channel)."""
        async with self._db.write() as unit:
            query = "DELETE FROM guild_channels WHERE guild_id = ? AND channel_id = ?"
            await unit.execute(query, (guild_id, channel_id))
            return await _channels(unit, guild_id)

    async def allow_every_channel(self, guild_id: int) -> None:
        """Empty the list: /lama new may open a table in every channel again."""
        async with self._db.write() as unit:
            await unit.execute("DELETE FROM guild_channels WHERE guild_id = ?", (guild_id,))

    async def _set(self, guild_id: int, column: str, value: object) -> None:
        assert column in _COLUMNS, column
        async with self._db.write() as unit:
            query = f"""INSERT INTO guild_settings (guild_id, {column}) VALUES (?, ?)
                        ON CONFLICT (guild_id) DO UPDATE SET {column} = excluded.{column}
                     """
            await unit.execute(query, (guild_id, value))


async def settings_row(unit: Unit, guild_id: int) -> None:
    """The guild's settings row, which its channels hang on (and go with)."""
    query = "INSERT INTO guild_settings (guild_id) VALUES (?) ON CONFLICT (guild_id) DO NOTHING"
    await unit.execute(query, (guild_id,))


async def _channels(unit: Unit, guild_id: int) -> tuple[int, ...]:
    query = "SELECT channel_id FROM guild_channels WHERE guild_id = ? ORDER BY channel_id"
    return tuple(int(channel_id) for (channel_id,) in await unit.fetch(query, (guild_id,)))
