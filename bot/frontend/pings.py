"""Turn pings: sent, stored, and taken down when the turn is over or after a restart.

Turn pings are new messages, since an edit notifies nobody: one per human turn,
taken down when the turn is over.  They are sent and taken down as followups of
the newest click at the table (anyone's move, Show my hand, a lobby button),
which need no bot token, while that token works (15 minutes) and may make more
followups (``tokens.OUR_FOLLOWUPS``); with the bot token only when nobody clicked
that recently, and only where the bot is a member (elsewhere the private hand shows
the turn).  A ping still standing shortly before its token runs out is taken down
with it, and stands again with a newer click's token (or the bot's), if any; the
task that waits for that moment is the table's only one, cancelled when its ping goes.
Every ping is stored once Discord has answered its sending and forgotten only
once the message is gone, so a bot stopped later on (killed while Discord refuses
a deletion, say) leaves none of them standing: the restarted bot takes down every
stored one.  A deletion
refused where the ping stands (an archived thread, 50083; a place hidden from
the bot, 403) is not tried again and again: the ping stays stored, and goes
after the game's next ping there (sending it unarchives a thread) or at a
restart.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from dataclasses import dataclass, field

import discord

from bot.i18n import text
from bot.limiter import Priority
from bot.service.play.table import Status, Table
from data import PingRecord

from .background import Background
from .discord_errors import FAILURES, UNKNOWN_MESSAGE, Deletion, refused_here, transient
from .host import Host
from .places import bot_present, place_gone
from .tokens import LAST_CALL, NEW_MESSAGE_LIFE, USABLE, Token, Tokens

log = logging.getLogger(__name__)


@dataclass
class Ping:
    """A turn ping standing in the channel, and the token it was sent with (None:
    the bot token)."""

    message_id: int
    content: str
    token: Token | None = None
    user_id: int = 0  # whom it pings

    def record(self, table: Table) -> PingRecord:
        token = self.token.webhook if self.token is not None else None
        return PingRecord(
            table.game_id,
            table.guild_id,
            table.channel_id,
            self.message_id,
            application_id=token.id if token is not None else None,
            token=token.token if token is not None else None,
            sent_at=self.token.since if self.token is not None else None,
        )


@dataclass
class GamePings:
    """One game's pings."""

    standing: Ping | None = None  # the ping standing for the turn
    wanted: str | None = None  # the text of the ping that should stand
    # Pings that are over but refused deletion where they stand (Deletion.LATER):
    # taken down after the game's next ping there is sent (which unarchives a thread).
    kept: list[Ping] = field(default_factory=list)
    # The standing ping's watch over its token (``Pings._expire``), while it sleeps:
    # cancelled when the ping goes, so a table has one at most, and none once it is over.
    watch: asyncio.Task[None] | None = None

    def unwatch(self) -> None:
        """The standing ping is going: its watch has nothing left to do."""
        if self.watch is not None:
            self.watch.cancel()
            self.watch = None


class Pings:
    """Every game's turn ping, and the pings that are over until they are gone."""

    def __init__(self, host: Host, tokens: Tokens, background: Background) -> None:
        self.host = host
        self.tokens = tokens
        self.background = background
        self.games: dict[int, GamePings] = {}
        self._deleting: set[int] = set()  # pings that are over, their deletion tried again

    def _game(self, game_id: int) -> GamePings:
        return self.games.setdefault(game_id, GamePings())

    def standing(self, game_id: int) -> Ping | None:
        game = self.games.get(game_id)
        return game.standing if game is not None else None

    def _wanted(self, game_id: int) -> str | None:
        game = self.games.get(game_id)
        return game.wanted if game is not None else None

    def forget(self, game_id: int) -> None:
        """Forget the game, but for its ping standing, if any: that goes only once it is
        taken down.  (Its kept pings are still stored: a restart tries them.)"""
        game = self.games.pop(game_id, None)
        if game is None:
            return
        if game.standing is not None:
            self.games[game_id] = GamePings(standing=game.standing, watch=game.watch)
        else:
            game.unwatch()

    def drop(self, table: Table) -> None:
        """The table is gone, and its ping with it: nothing to take down."""
        if (game := self.games.get(table.game_id)) is not None:
            game.standing = None
            game.unwatch()

    async def ping(self, table: Table, user_id: int, *, warning: bool = False) -> None:
        """One short ping message per table: a mention notifies, an edit would not."""
        # A timed turn's ping says when its time runs out, not when the turn starts.
        key = (
            "ping.warning" if warning else "ping.turn_until" if table.turn_deadline else "ping.turn"
        )
        when = f"<t:{int(table.turn_deadline)}:R>" if table.turn_deadline else ""
        content = text(table.locale, key, mention=f"<@{user_id}>", when=when)
        current = self.standing(table.game_id)
        if current is not None and current.content == content:
            return  # the same player again, e.g. after a Plus card with no timer
        self._game(table.game_id).wanted = content
        await self.clear(table, replaced=True)
        if not await self._put_up(table, content, user_id):
            self.background.spawn(
                self._ping_again(table, content, user_id), f"lama-ping-{table.game_id}"
            )

    async def _put_up(self, table: Table, content: str, user_id: int) -> bool:
        """Send the ping ``content``; False if that failed for now (429, 5xx)."""
        try:
            ping = await self._send_ping(table, content, user_id)
        except FAILURES as error:
            if transient(error):
                log.info("game %s: the ping will be tried again: %s", table.game_id, error)
                return False
            log.warning("game %s: could not ping: %s", table.game_id, error)
            return True
        if ping is None:
            return True  # nothing can ping there now: the player's hand shows the turn
        # Stored before anything else: from now on a restart takes it down.
        await self.host.service.front.remember_ping(ping.record(table))
        if table.status is not Status.RUNNING or self._wanted(table.game_id) != content:
            # It closed, or the turn moved on, while the ping was on its way.
            await self._take_down(table, ping)
        else:
            self._stand(table, ping)
        # A message got through there: a thread that was archived is not any more.
        if (game := self.games.get(table.game_id)) is not None:
            kept, game.kept = game.kept, []
            for old in kept:
                await self._take_down(table, old)
        return True

    def _stand(self, table: Table, ping: Ping) -> None:
        """The ping stands for the turn, watched (if sent with a click's token) until
        shortly before that token runs out."""
        game = self._game(table.game_id)
        game.standing = ping
        game.unwatch()
        if ping.token is not None:
            game.watch = self.background.spawn(
                self._expire(table, ping), f"lama-ping-end-{table.game_id}"
            )

    async def _ping_again(self, table: Table, content: str, user_id: int) -> None:
        """Try a ping that failed again until it stands, or its turn is over."""
        for failures in itertools.count(1):
            await asyncio.sleep(self.host.pacing.backoff(failures))
            # In turn with the table's notices, as the first try was.
            async with table.notice_lock:
                wanted = self._wanted(table.game_id) == content
                standing = self.standing(table.game_id) is not None
                if not wanted or standing or table.status is not Status.RUNNING:
                    return
                if await self._put_up(table, content, user_id):
                    return

    async def _send_ping(self, table: Table, content: str, user_id: int) -> Ping | None:
        """The ping sent: with a recent click's token, else with the bot token where the
        bot is a member; None where nothing can send it now."""
        mentions = discord.AllowedMentions(users=[discord.Object(user_id)])
        while (token := self.tokens.sender(table, life=NEW_MESSAGE_LIFE)) is not None:
            try:
                self.tokens.sent(token)
                message = await token.webhook.send(content, allowed_mentions=mentions, wait=True)
            except FAILURES as error:
                if transient(error):
                    # Busy (429) or failing for now: tried again later, never traded for a
                    # bot-token call, which would spend the bot's budget on Discord's limit.
                    raise
                self.tokens.failed(token)  # never again; the next newest, if any
                continue
            if message.flags.ephemeral:
                # Discord made it private (Use External Apps off for the clicker):
                # it pings nobody, and that token's messages never will.
                token.private = True
                continue
            return Ping(message.id, content, token, user_id)
        if not bot_present(self.host, table.guild_id):
            return None
        await self.host.limiter.acquire(Priority.PING)
        channel = self.host.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        sent = await channel.send(content, allowed_mentions=mentions)
        return Ping(sent.id, content, None, user_id)

    async def _expire(self, table: Table, ping: Ping) -> None:
        """Take the ping down before its token runs out (a message nothing could take
        down would stand for good), and put it up again with a newer token, if any."""
        assert ping.token is not None
        await asyncio.sleep(max(0.0, self.tokens.left(ping.token) - LAST_CALL))
        game = self.games.get(table.game_id)
        if game is not None and game.watch is asyncio.current_task():
            # Awake: from here on it finishes what it does (a ping half put up would
            # stand unstored), and whatever else happens to the ping no longer cancels it.
            game.watch = None
        async with table.notice_lock:
            game = self.games.get(table.game_id)
            if game is None or game.standing is not ping:
                return  # taken down already
            wanted = game.wanted
            await self.clear(table, replaced=True)
            if wanted is None or table.status is not Status.RUNNING:
                return
            if not await self._put_up(table, wanted, ping.user_id):
                self.background.spawn(
                    self._ping_again(table, wanted, ping.user_id),
                    f"lama-ping-{table.game_id}",
                )

    async def clear(self, table: Table, *, replaced: bool = False) -> None:
        """Take the turn's ping down (``replaced``: a new one is on its way)."""
        game = self.games.get(table.game_id)
        if game is None:
            return
        if not replaced:
            game.wanted = None
        current, game.standing = game.standing, None
        game.unwatch()
        if current is not None and current.message_id not in self._deleting:
            await self._take_down(table, current)

    async def _take_down(self, table: Table, ping: Ping) -> None:
        """Take the ping down, and forget it once it is gone; a deletion Discord refuses
        for now is tried again, one refused where the ping stands waits for the game's
        next ping (the ping stays stored until it is gone)."""
        deletion = await self._delete_ping(table, ping)
        if deletion is Deletion.RETRY:
            self._deleting.add(ping.message_id)
            self.background.spawn(self._delete_again(table, ping), f"lama-unping-{table.game_id}")
        else:
            await self._deleted(table, ping, deletion)

    async def _deleted(self, table: Table, ping: Ping, deletion: Deletion) -> None:
        if deletion is Deletion.DONE:
            await self.host.service.front.forget_ping(ping.record(table))
        elif deletion is Deletion.LATER:
            self._game(table.game_id).kept.append(ping)

    async def _delete_again(self, table: Table, ping: Ping) -> None:
        """Try taking a ping down again until it is gone (or refused where it stands)."""
        try:
            for failures in itertools.count(1):
                await asyncio.sleep(self.host.pacing.backoff(failures))
                deletion = await self._delete_ping(table, ping)
                if deletion is not Deletion.RETRY:
                    await self._deleted(table, ping, deletion)
                    return
        finally:
            self._deleting.discard(ping.message_id)

    async def take_down_left(self) -> None:
        """Take down the pings that stood when the bot last stopped, once it is connected:
        those that were over, and those of the games it resumes (each gets a fresh ping).
        Read now, before this process sends a ping of its own."""
        left = await self.host.service.front.standing_pings()
        if left:
            self.background.spawn(self._take_down_left(left), "lama-unping-left")

    async def _take_down_left(self, left: list[PingRecord]) -> None:
        await self.host.wait_until_ready()
        for ping in left:
            self.background.spawn(self._unping_left(ping), f"lama-unping-left-{ping.game_id}")

    async def _unping_left(self, left: PingRecord) -> None:
        if await self._unping_with_token(left):
            return
        # Cosmetic: a ping left standing can wait, the live tables can't (after an
        # outage there may be many, each with its look-up).
        limiter, cosmetic = self.host.limiter, Priority.COSMETIC
        if await place_gone(self.host, left.guild_id, left.channel_id, limiter, cosmetic):
            # Deleted, or the bot removed, while it was down: the ping went with its
            # place (or can't be reached), so nothing is sent there.
            await self.host.service.front.forget_ping(left)
            return
        for failures in itertools.count(1):
            deletion = await self._bot_delete(
                left.game_id, left.channel_id, left.message_id, cosmetic
            )
            if deletion is Deletion.DONE:
                await self.host.service.front.forget_ping(left)
                return
            if deletion is Deletion.LATER:
                # Stored still; a game going on takes it down after its next ping there.
                table = self.host.service.registry.table(left.game_id)
                if table is not None and table.live:
                    self._game(table.game_id).kept.append(Ping(left.message_id, ""))
                return
            await asyncio.sleep(self.host.pacing.backoff(failures))

    async def _unping_with_token(self, left: PingRecord) -> bool:
        """Take a ping a stopped run left down with the click's token that sent it, while
        that works (where the bot is no member nothing else can): True once done with it."""
        if left.token is None or left.application_id is None or left.sent_at is None:
            return False
        if self.host.service.clock() - left.sent_at >= USABLE:
            return False
        webhook = self.host.interaction_webhook(left.application_id, left.token)
        try:
            await webhook.delete_message(left.message_id)
        except discord.NotFound as error:
            if error.code != UNKNOWN_MESSAGE:
                return False  # the token, not the ping, is gone
        except FAILURES as error:
            log.info("game %s: a ping left could not be taken down: %s", left.game_id, error)
            return False
        await self.host.service.front.forget_ping(left)
        return True

    async def _delete_ping(self, table: Table, ping: Ping) -> Deletion:
        """Take the ping down: with the token it was sent with while that works,
        else with the bot token."""
        if self.tokens.fresh(ping.token):
            assert ping.token is not None
            try:
                await ping.token.webhook.delete_message(ping.message_id)
                return Deletion.DONE
            except discord.NotFound as error:
                if error.code == UNKNOWN_MESSAGE:
                    return Deletion.DONE  # gone already
                self.tokens.failed(ping.token)  # the token is gone (10015): never again
            except FAILURES as error:
                if transient(error):
                    return Deletion.RETRY  # the same token later: it costs no budget
                self.tokens.failed(ping.token)  # never again (an invalid request each time)
            # The token no longer works (or is refused there): the bot token can delete
            # the bot's messages, where it is a member.
        if not bot_present(self.host, table.guild_id):
            return Deletion.DONE  # nothing else can; its token's end was watched for that
        return await self._bot_delete(table.game_id, table.channel_id, ping.message_id)

    async def _bot_delete(
        self, game_id: int, channel_id: int, message_id: int, priority: Priority = Priority.TABLE
    ) -> Deletion:
        """Take a ping down with the bot token."""
        await self.host.limiter.acquire(priority)
        channel = self.host.get_partial_messageable(channel_id)
        try:
            await channel.get_partial_message(message_id).delete()
        except discord.NotFound:
            return Deletion.DONE  # gone already, or its channel is
        except FAILURES as error:
            if transient(error):
                return Deletion.RETRY
            if refused_here(error):
                log.info("game %s: a ping can't be taken down there now: %s", game_id, error)
                return Deletion.LATER
            log.warning("game %s: could not take a ping down: %s", game_id, error)
        return Deletion.DONE
