"""Keeps each table message in step with its game, without flooding Discord.

Edits are coalesced: a table is edited at most once per ``MIN_INTERVAL``,
always with the latest state, and an edit identical to the last one is
skipped.  Open hands are refreshed when their owner's turn comes, while
Discord still lets us edit them.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import text
from bot.places import channel_gone
from bot.service import ServiceError
from bot.tables import Status, Table
from data.store import OpenHandRecord, StoreError

from . import render
from .faces import Faces
from .stats import chart_file, finished_chart

if TYPE_CHECKING:
    from bot.bot import LamaBot

log = logging.getLogger(__name__)

MIN_INTERVAL = 2.0  # seconds between two edits of one table message
DEBOUNCE = 0.25  # lets an interaction answer first, so its own edit isn't repeated
UNKNOWN_CHANNEL = 10003  # Discord's error code for a channel that no longer exists
HAND_RESAVE = 5 * 60  # seconds before an open hand's stored token is replaced by a newer one
HAND_EDITABLE = 14 * 60  # Discord allows 15 minutes; keep a margin


@dataclass
class OpenHand:
    edit: Callable[..., Awaitable[object]]  # edits the hand's message
    opened: float  # unix time (the service's clock)
    locale: str
    warning: str | None = None  # about the bot's permissions, as of the last click


def table_payload(table: Table, faces: Faces, reason: str | None = None) -> dict[str, Any]:
    """What the table message should show now: one Components V2 layout.

    A V2 message has no content or embeds, so they are cleared (a table posted
    before the bot used V2 is turned into one by its next edit).
    """
    view: discord.ui.LayoutView
    if table.status is Status.LOBBY:
        view = render.lobby_view(table, faces)
    elif table.status is Status.CANCELLED or table.match is None:
        view = render.closed_view(table, reason or "closed.cancelled")
    else:
        view = render.table_view(table, faces)
    return {"content": None, "embeds": [], "view": view}


def hand_payload(
    table: Table,
    seat: int,
    locale: str,
    faces: Faces,
    note: str | None = None,
    warning: str | None = None,
) -> dict[str, Any]:
    """What a private hand shows now, as :func:`table_payload` for the table."""
    view = render.hand_view(table, seat, locale, faces, note, warning)
    return {"content": None, "embeds": [], "view": view}


def chart_name(table: Table) -> str:
    """The name of the task posting a finished game's chart."""
    return f"lama-chart-{table.game_id}"


def signature(payload: dict[str, Any]) -> str:
    return repr(payload["view"].to_components())


class Presenter:
    def __init__(self, bot: LamaBot) -> None:
        self.bot = bot
        self._last_sig: dict[int, str] = {}
        self._last_edit: dict[int, float] = {}
        self._pending: dict[int, asyncio.Task[None]] = {}
        self._stale: set[int] = set()  # games whose table message lags behind
        self._reasons: dict[int, str] = {}
        self.hands: dict[tuple[int, int], OpenHand] = {}
        self.pings: dict[int, tuple[int, str]] = {}  # game -> (message id, its text)
        self._charted: set[int] = set()  # finished games whose chart was posted
        # The message and time of each open hand's stored token.
        self._hands_saved: dict[tuple[int, int], tuple[int, float]] = {}
        self._tasks: set[asyncio.Task[None]] = set()  # chart posts and open-hand saves

    # ------------------------------------------------------------ table message
    def remember(self, table: Table, payload: dict[str, Any]) -> None:
        """Record an edit made through an interaction response."""
        self._last_sig[table.game_id] = signature(payload)
        self._last_edit[table.game_id] = time.monotonic()

    def request(self, table: Table) -> None:
        self._stale.add(table.game_id)
        task = self._pending.get(table.game_id)
        if task is not None and not task.done():
            return  # the pending task edits again if its edit was already on its way
        self._pending[table.game_id] = asyncio.create_task(
            self._edit_later(table), name=f"lama-table-{table.game_id}"
        )

    async def _edit_later(self, table: Table) -> None:
        # A change that comes in while an edit is on its way (the payload was
        # already built) marks the table stale again, so the loop edits once more.
        while table.game_id in self._stale:
            last = self._last_edit.get(table.game_id, 0.0)
            wait = max(DEBOUNCE, last + MIN_INTERVAL - time.monotonic())
            await asyncio.sleep(wait)
            await self.edit_now(table)
        if not table.live:
            self._forget(table.game_id)  # its last edit is made; a bot runs for months

    def _forget(self, game_id: int) -> None:
        for per_game in (self._last_sig, self._last_edit, self._reasons, self._pending):
            per_game.pop(game_id, None)
        self._charted.discard(game_id)  # its chart went out with the notice that finished it
        for hands in (self.hands, self._hands_saved):
            for key in [key for key in hands if key[0] == game_id]:
                del hands[key]

    async def edit_now(self, table: Table) -> None:
        self._stale.discard(table.game_id)
        if table.table_message_id is None:
            return
        payload = table_payload(table, self.bot.faces, self._reasons.get(table.game_id))
        sig = signature(payload)
        if sig == self._last_sig.get(table.game_id):
            return
        try:
            await self._send_edit(table, payload)
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                # The gateway may have missed its deletion (while reconnecting): once
                # Discord confirms it, the game ends as with the deletion.
                if await channel_gone(self.bot, table.channel_id):
                    log.info("game %s: the table's channel is gone", table.game_id)
                    await self.bot.service.abandon_where(channel_id=table.channel_id)
                return
            # Deleted (by an admin tidying up, say): post it again, so that the
            # game goes on in sight rather than invisibly.
            log.info("game %s: the table message is gone; posting it again", table.game_id)
            if not await self._repost(table, payload):
                return
        except discord.HTTPException as error:
            log.warning("game %s: could not edit the table: %s", table.game_id, error)
            return
        self._last_sig[table.game_id] = sig
        self._last_edit[table.game_id] = time.monotonic()

    async def _repost(self, table: Table, payload: dict[str, Any]) -> bool:
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        try:
            message = await channel.send(**payload)
        except discord.HTTPException as error:
            log.warning("game %s: could not post the table again: %s", table.game_id, error)
            return False
        # A failed save is logged; this run edits the new message, a restart the old id.
        with contextlib.suppress(ServiceError):
            await self.bot.service.set_table_message(table, message.id)
        return True

    async def _send_edit(self, table: Table, payload: dict[str, Any]) -> None:
        assert table.table_message_id is not None
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        await channel.get_partial_message(table.table_message_id).edit(**payload)

    # ------------------------------------------------------------ the listener
    async def table_changed(self, table: Table) -> None:
        if table.status is not Status.RUNNING:
            await self._clear_ping(table)
        if table.status is Status.FINISHED and table.game_id not in self._charted:
            self._charted.add(table.game_id)
            task = asyncio.create_task(self._post_chart(table), name=chart_name(table))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        if table.status is Status.FINISHED:
            await self._close_hands(table)
        self.request(table)

    async def table_gone(self, table: Table) -> None:
        """Its channel or server is gone: stop every edit, ping and hand refresh."""
        self._stale.discard(table.game_id)
        self.pings.pop(table.game_id, None)
        tasks = [self._pending.get(table.game_id)] + [
            t for t in self._tasks if t.get_name() == chart_name(table)
        ]
        for task in tasks:
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        self._forget(table.game_id)

    async def _post_chart(self, table: Table) -> None:
        """One message with the finished game's chip chart, read from the store."""
        try:
            chart = await finished_chart(self.bot.service, table.game_id, table.locale)
        except StoreError as error:
            log.warning("game %s: could not load the chart: %s", table.game_id, error)
            return
        if chart is None:
            return
        embed, png = chart
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        try:
            await channel.send(embed=embed, file=chart_file(png))
        except discord.HTTPException as error:
            log.warning("game %s: could not post the chart: %s", table.game_id, error)

    async def turn_started(self, table: Table) -> None:
        seat = table.to_move
        if seat is None:
            return
        player = table.seats[seat]
        if player.user_id is None or player.controller is not None:
            await self._clear_ping(table)
            return
        await self._refresh_hand(table, player.user_id)
        await self._ping(table, player.user_id)

    async def turn_warning(self, table: Table) -> None:
        seat = table.to_move
        if seat is None or table.seats[seat].user_id is None:
            return
        user_id = table.seats[seat].user_id
        assert user_id is not None
        await self._ping(table, user_id, warning=True)
        self.request(table)

    async def table_closed(self, table: Table, reason: str) -> None:
        self._reasons[table.game_id] = reason
        await self._clear_ping(table)
        await self._close_hands(table, reason)
        self.request(table)

    # ------------------------------------------------------------ hands
    def opened_hand(
        self,
        table: Table,
        user_id: int,
        interaction: discord.Interaction[Any],
        warning: str | None = None,
        message_id: int | None = None,
    ) -> None:
        """Refresh this hand (``message_id``, answering ``interaction``) when its
        owner's turn comes; stored too, so that a restarted bot still can."""
        hand = OpenHand(
            interaction.edit_original_response,
            self.bot.service.clock(),
            str(interaction.locale),
            warning,
        )
        key = (table.game_id, user_id)
        self.hands[key] = hand
        # Every click on a hand is a new interaction with a new token; storing each
        # would double the writes of every move. The same message is stored again
        # only once its stored token has used up a third of its life.
        saved = self._hands_saved.get(key)
        if message_id is not None and (
            saved is None or saved[0] != message_id or hand.opened - saved[1] >= HAND_RESAVE
        ):
            self._hands_saved[key] = (message_id, hand.opened)
            record = OpenHandRecord(
                game_id=table.game_id,
                user_id=user_id,
                application_id=interaction.application_id,
                token=interaction.token,
                message_id=message_id,
                locale=hand.locale,
                warning=warning,
                opened_at=hand.opened,
            )
            task = asyncio.create_task(
                self.bot.service.remember_hand(record), name=f"lama-hand-{table.game_id}"
            )
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def restore_hands(self) -> None:
        """Take back the hands opened before a restart that Discord still lets us edit."""
        for record in await self.bot.service.open_hands():
            webhook = discord.Webhook.partial(record.application_id, record.token, client=self.bot)
            edit = functools.partial(webhook.edit_message, record.message_id)
            key = (record.game_id, record.user_id)
            self.hands[key] = OpenHand(edit, record.opened_at, record.locale, record.warning)

    async def _refresh_hand(
        self, table: Table, user_id: int, *, note: str | None = None, last: bool = False
    ) -> None:
        """Edit ``user_id``'s open hand to show the game as it is now; ``last``
        lets go of it after (the game is over, nothing will change it again)."""
        key = (table.game_id, user_id)
        hand = self.hands.get(key)
        if hand is None:
            return
        expired = self.bot.service.clock() - hand.opened > HAND_EDITABLE
        if last or expired:
            del self.hands[key]
        if expired:
            return
        seat = table.seat_of(user_id)
        if seat is None or table.match is None:
            return
        shown = text(hand.locale, note) if note is not None else None
        try:
            await hand.edit(
                **hand_payload(
                    table, seat, hand.locale, self.bot.faces, shown, warning=hand.warning
                )
            )
        except discord.HTTPException:
            self.hands.pop(key, None)

    async def _close_hands(self, table: Table, reason: str | None = None) -> None:
        """Every open hand of a game that ended shows how it ended, not stale moves."""
        for _game, user_id in [key for key in self.hands if key[0] == table.game_id]:
            await self._refresh_hand(table, user_id, note=reason, last=True)

    # ------------------------------------------------------------ pings
    async def _ping(self, table: Table, user_id: int, *, warning: bool = False) -> None:
        """One short ping message per table: a mention notifies, an edit would not."""
        key = "ping.warning" if warning else "ping.turn"
        when = f"<t:{int(table.turn_deadline)}:R>" if table.turn_deadline else ""
        content = text(table.locale, key, mention=f"<@{user_id}>", when=when)
        current = self.pings.get(table.game_id)
        if current is not None and current[1] == content:
            return  # the same player again, e.g. after a Plus card with no timer
        await self._clear_ping(table, replaced=True)
        try:
            message = await self._send_ping(table, content, user_id)
        except discord.HTTPException as error:
            log.warning("game %s: could not ping: %s", table.game_id, error)
            return
        if table.status is not Status.RUNNING:  # it closed while the ping was on its way
            with contextlib.suppress(discord.HTTPException):
                await message.delete()
            return
        self.pings[table.game_id] = (message.id, content)
        await self.bot.service.set_ping_message(table, message.id)

    async def _send_ping(self, table: Table, content: str, user_id: int) -> discord.Message:
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        return await channel.send(
            content, allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)])
        )

    async def _clear_ping(self, table: Table, *, replaced: bool = False) -> None:
        current = self.pings.pop(table.game_id, None)
        # After a restart only the stored id knows about the ping still standing.
        message_id = current[0] if current is not None else table.ping_message_id
        if message_id is None:
            return
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.get_partial_message(message_id).delete()
        if table.live and not replaced:
            await self.bot.service.set_ping_message(table, None)
        else:
            table.ping_message_id = None  # a new ping's id is saved in its place

    async def close(self) -> None:
        tasks = [*self._pending.values(), *self._tasks]
        self._pending.clear()
        self._tasks.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
