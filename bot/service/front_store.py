"""What the front end keeps in the store besides games: settings, messages, hands, pings."""

from __future__ import annotations

import logging
from collections.abc import Awaitable

from bot.service.errors import ServiceError
from bot.service.play.rows import table_from_record
from bot.service.play.table import Status, Table
from bot.service.saver import Saver
from data import (
    GameRecord,
    OpenHandRecord,
    PingRecord,
    ServerSettings,
    Store,
    StoreError,
    TableTokenRecord,
)
from game import Ruleset

log = logging.getLogger(__name__)


class FrontStore:
    """The store as the front end needs it beyond the game itself.

    A server's settings and a table's message are saved like a change of the
    game (refused with a :class:`ServiceError` if the write fails); open hands
    and pings only spare a restart some work, so failing to keep them is logged
    and goes no further.

    The table message and how far it listed the game's moves are the front end's, not
    the game's: read with a game rebuilt after a restart, they are kept here until the
    front end reads them back (:meth:`stored_table_message`), once.
    """

    def __init__(self, store: Store, saver: Saver) -> None:
        self._store = store
        self._saver = saver
        #: The stored table message and count of lines it listed, by game, of the games
        #: rebuilt and not yet asked for by the front end.
        self._table_messages: dict[int, tuple[int | None, int | None]] = {}

    async def public_locale(self, guild_id: int, fallback: str) -> str:
        """The language of public messages: the server's setting, else its locale."""
        return await self._store.settings.get_language(guild_id) or fallback

    async def set_language(self, guild_id: int, language: str | None) -> None:
        await self._saver.save(self._store.settings.set_language(guild_id, language))

    async def server_settings(self, guild_id: int) -> ServerSettings:
        """What the server has set: its language, /lama new's defaults, its channels;
        ``error.settings_unread`` if the store can't say (nothing is done without them)."""
        try:
            return await self._store.settings.guild_settings(guild_id)
        except StoreError as error:
            log.warning("guild %s: could not read its settings: %s", guild_id, error)
            raise ServiceError("error.settings_unread") from error

    async def set_default_timer(self, guild_id: int, seconds: int | None) -> None:
        await self._saver.save(self._store.settings.set_default_timer(guild_id, seconds))

    async def set_default_hints(self, guild_id: int, hints: bool | None) -> None:
        await self._saver.save(self._store.settings.set_default_hints(guild_id, hints))

    async def allow_channel(self, guild_id: int, channel_id: int, allowed: bool) -> tuple[int, ...]:
        """Put a channel on the server's list (or take it off); the channels listed now."""
        if allowed:
            return await self._saver.save(self._store.settings.allow_channel(guild_id, channel_id))
        return await self._saver.save(self._store.settings.disallow_channel(guild_id, channel_id))

    async def allow_every_channel(self, guild_id: int) -> None:
        await self._saver.save(self._store.settings.allow_every_channel(guild_id))

    async def finished_ruleset(self, game_id: int, *, channel_id: int) -> Ruleset | None:
        """The rules a game no longer held (over) was played by, if it is one of the
        channel ``channel_id`` (its own table's Rules button); None otherwise, or if
        the store can't say (the rules are then summed up without the game's)."""
        try:
            record = await self._store.games.load_game(game_id)
        except StoreError as error:
            log.warning("game %s: could not read its rules: %s", game_id, error)
            return None
        return record.ruleset if record is not None and record.channel_id == channel_id else None

    async def ended_table(self, game_id: int, *, channel_id: int) -> Table | None:
        """A game of the channel ``channel_id`` that ended (finished or cancelled) as
        its table was when it did, rebuilt from the store: for an old hand clicked
        after the end. None for any other game (unknown, elsewhere, not over), or if
        the store can't say (the click is then refused as for a game gone)."""
        try:
            record = await self._store.games.load_game(game_id)
        except StoreError as error:
            log.warning("game %s: could not read how it ended: %s", game_id, error)
            return None
        ended = (Status.FINISHED.value, Status.CANCELLED.value)
        if record is None or record.channel_id != channel_id or record.status not in ended:
            return None
        return table_from_record(record)

    async def set_table_message(self, game_id: int, message_id: int) -> None:
        await self._saver.save(self._store.games.set_table_message(game_id, message_id))

    def keep_table_message(self, record: GameRecord) -> None:
        """A game rebuilt from ``record``: its table message as stored, for the front end."""
        if record.table_message_id is not None or record.moves_listed is not None:
            self._table_messages[record.id] = (record.table_message_id, record.moves_listed)

    def stored_table_message(self, game_id: int) -> tuple[int | None, int | None]:
        """The message that showed the game's table before a restart and how many of its
        lines it had listed, as stored, handed out once; (None, None) if none was."""
        return self._table_messages.pop(game_id, (None, None))

    async def endings_unshown(self) -> list[Table]:
        """The games that ended (finished or cancelled) before the bot stopped but whose
        table may not show it yet (its last edit had not gone out), rebuilt to be shown.
        A store that can't say leaves them for the next start."""
        try:
            game_ids = await self._store.endings.endings_unshown()
        except StoreError as error:
            log.warning("could not read the games whose end is not shown: %s", error)
            return []
        return await self._rebuilt(game_ids, "its end")

    async def charts_unposted(self) -> list[Table]:
        """The games that finished before the bot stopped but whose chart may not have
        gone out, rebuilt to post it. A store that can't say leaves them for the next start."""
        try:
            game_ids = await self._store.endings.charts_unposted()
        except StoreError as error:
            log.warning("could not read the games whose chart is not posted: %s", error)
            return []
        return await self._rebuilt(game_ids, "its chart")

    async def _rebuilt(self, game_ids: list[int], what: str) -> list[Table]:
        tables = []
        for game_id in game_ids:
            try:
                record = await self._store.games.load_game(game_id)
                if record is not None:
                    tables.append(table_from_record(record))
                    self.keep_table_message(record)
            except Exception:
                log.exception("game %s: %s could not be rebuilt to be shown", game_id, what)
        return tables

    async def end_shown(self, game_id: int) -> None:
        """The table of a game that ended shows it now; failing to keep that costs
        only one more edit at the next start."""
        await self._keep(self._store.endings.set_end_shown(game_id), game_id, "its end is shown")

    async def chart_posted(self, game_id: int) -> None:
        """A finished game's chart went out (or was given up on); failing to keep that
        costs a second chart at the next start."""
        posted = self._store.endings.set_chart_posted(game_id)
        await self._keep(posted, game_id, "its chart is posted")

    async def moves_listed(self, game_id: int, count: int) -> None:
        """The table lists the game's lines up to ``count``; failing to keep that costs
        a table after a restart the count of the moves it never listed."""
        listed = self._store.listed.set_moves_listed(game_id, count)
        await self._keep(listed, game_id, "its table listed its moves")

    @staticmethod
    async def _keep(write: Awaitable[None], game_id: int, what: str) -> None:
        """Store ``what`` the table shows now, in the background: a failure is logged."""
        try:
            await write
        except StoreError as error:
            log.warning("game %s: could not store that %s: %s", game_id, what, error)
        except Exception:  # a background task: log it and carry on
            log.exception("game %s: storing that %s failed", game_id, what)

    async def remember_hand(self, hand: OpenHandRecord) -> None:
        """Keep an open hand for after a restart; failing costs only its refreshes."""
        try:
            await self._store.hands.save_open_hand(hand)
        except StoreError as error:
            log.warning("game %s: could not save an open hand: %s", hand.game_id, error)
        except Exception:  # a background task: log it and carry on
            log.exception("game %s: saving an open hand failed", hand.game_id)

    async def open_hands(self) -> list[OpenHandRecord]:
        """The open hands stored before a restart that may still be edited."""
        try:
            return await self._store.hands.open_hands()
        except StoreError as error:
            log.warning("could not load the open hands: %s", error)
            return []

    async def remember_table_token(self, record: TableTokenRecord) -> None:
        """Keep the token that edits a table now, for after a restart; failing costs only
        the table's edits until the next click after a restart."""
        saving = self._store.table_tokens.save(record)
        await self._keep(saving, record.game_id, "its table's token")

    async def table_tokens(self) -> list[TableTokenRecord]:
        """The tokens that edited the tables of the unfinished games before a restart."""
        try:
            return await self._store.table_tokens.table_tokens()
        except StoreError as error:
            log.warning("could not load the tables' tokens: %s", error)
            return []

    async def remember_ping(self, ping: PingRecord) -> None:
        """Keep a ping just sent until it is gone, so that if the bot stops from now on,
        a restart takes it down."""
        try:
            await self._store.pings.add_ping(ping)
        except Exception as error:  # it costs a ping left standing, not the turn
            log.warning("game %s: could not save a ping to take down: %s", ping.game_id, error)

    async def forget_ping(self, ping: PingRecord) -> None:
        """The ping is gone."""
        try:
            await self._store.pings.drop_ping(ping.message_id)
        except Exception as error:  # a restart tries deleting it once more: no harm
            log.warning("game %s: could not forget a ping taken down: %s", ping.game_id, error)

    async def standing_pings(self) -> list[PingRecord]:
        """The pings stored and not known to be gone (sent before a restart, say)."""
        try:
            return await self._store.pings.standing_pings()
        except StoreError as error:
            log.warning("could not load the pings to take down: %s", error)
            return []
