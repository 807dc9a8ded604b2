"""Keeps each table message in step with its game, on its players' clicks' tokens.

The table is edited at most once per ``Pacing.edit_interval``, always with the latest
state, never with what it shows already.  While AI seats are moving, the edit
waits for the turn to come back to a human (at most ``Pacing.ai_hold``): a human move
and the AI moves after it cost one edit, which lists every move the table hasn't
shown yet (no move misses its moment on the table), at least the last few.

The table is edited with the interaction token of the click that posted it (the lobby's
buttons and ``/lama new`` answer with it; a later one posts it as a followup), which
costs the bot token nothing and works where the bot is no member.  Once that token is
``REPOST_AFTER`` old, the next click's token (a move on a private hand, Show my hand,
Refresh) posts the table anew, silently, and the old message becomes one line pointing
to the new one: at most one message of a game shows live buttons.  When nobody clicked
for so long that no token is left, the table says, with its token's last edit, that it
waits for a click; the bot token edits on only where the bot is a member.  An edit that
fails for now is tried again until the table shows the current state; a table message
deleted is posted again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

import discord

from bot.limiter import Priority
from bot.service import ServiceError
from bot.service.play.table import Status, Table

from .discord_errors import FAILURES, UNKNOWN_CHANNEL, transient
from .host import Host
from .listing import Listing, moves_to_list
from .places import bot_present, channel_gone
from .screens import Screens, TableScreen
from .table_moved import point_to_new
from .tokens import LAST_CALL, NEW_MESSAGE_LIFE, USABLE, Token, Tokens
from .views.payloads import table_payload
from .views.table import SHOWN_MOVES

log = logging.getLogger(__name__)

HOLD_STEP = 0.25  # how often a waiting edit looks whether the AI seats are done


def signature(payload: dict[str, Any]) -> str:
    return repr(payload["view"].to_components())


class TokenGone(Exception):
    """The table's token no longer works, and there is no bot token where it is."""


class TableEdits:
    """The edits of every table message: paced, held for AI moves, tried again."""

    def __init__(
        self,
        host: Host,
        tokens: Tokens,
        screens: Screens,
        last_edit_made: Callable[[int], None],
        moves_listed: Callable[[int, int], None],
        token_moved: Callable[[Table, Token, int], None],
    ) -> None:
        self.host = host
        self.tokens = tokens
        #: Called with the game id once a game that is over shows how it ended.
        self.last_edit_made = last_edit_made
        #: Called with the game id and its count of lines once its table lists up to
        #: there (kept for a restart, which counts the moves it never listed).
        self.moves_listed = moves_listed
        #: Called with the table, the token and the message once a click's token posted
        #: the table anew (kept for a restart, which edits on with it).
        self.token_moved = token_moved
        #: Each game's table message (the presenter's): which, what it shows, its edit.
        self.screens = screens
        self._collapsing: set[asyncio.Task[None]] = set()  # old tables pointed to the new

    def _screen(self, game_id: int) -> TableScreen:
        return self.screens.of(game_id)

    def _stale(self, game_id: int) -> bool:
        screen = self.screens.get(game_id)
        return screen is not None and screen.stale

    def _unstale(self, game_id: int) -> None:
        if (screen := self.screens.get(game_id)) is not None:
            screen.stale = False

    def forget(self, game_id: int) -> None:
        screen = self.screens.forget(game_id)
        watch = screen.watch if screen is not None else None
        if watch is not None and watch is not asyncio.current_task():
            watch.cancel()

    def closed(self, table: Table, reason: str) -> None:
        """The game closed: its table says why."""
        self._screen(table.game_id).reason = reason

    def stop(self, table: Table) -> None:
        """The table is gone: no more edits (the edit on its way, if any, is cancelled)."""
        self._unstale(table.game_id)
        screen = self.screens.get(table.game_id)
        task = screen.pending if screen is not None else None
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def take_tasks(self) -> list[asyncio.Task[None]]:
        """Every game's edit task, let go of (the bot is stopping)."""
        tasks = [
            task
            for screen in self.screens.values()
            for task in (screen.pending, screen.watch)
            if task is not None
        ]
        tasks.extend(self._collapsing)
        for screen in self.screens.values():
            screen.pending = screen.watch = None
        return tasks

    def remember(self, table: Table, payload: dict[str, Any]) -> None:
        """Record an edit made through an interaction response."""
        screen = self._screen(table.game_id)
        screen.shown = signature(payload)
        screen.edited = time.monotonic()
        self.watch(table)
        # The default list:
        self._listed(table, Listing(list(table.recent)[-SHOWN_MOVES:], 0, table.recent.total))

    def _listed(self, table: Table, listing: Listing) -> None:
        """The table lists ``listing`` now: kept (and stored, when it got further)."""
        screen = self._screen(table.game_id)
        before = self._listing(screen)
        screen.listed = listing
        if before is None or listing.end > before.end:
            self.moves_listed(table.game_id, listing.end)

    @staticmethod
    def _listing(screen: TableScreen) -> Listing | None:
        """What the table lists, as far as known: by this run, else as stored before a
        restart (how far, not which lines)."""
        if screen.listed is None and screen.listed_before is not None:
            return Listing([], 0, screen.listed_before)
        return screen.listed

    def request(self, table: Table, priority: Priority = Priority.TABLE) -> None:
        self.watch(table)
        screen = self._screen(table.game_id)
        screen.stale = True
        waiting = Priority.COSMETIC if screen.priority is None else screen.priority
        screen.priority = min(waiting, priority)
        task = screen.pending
        if task is not None and not task.done():
            return  # the pending task edits again if its edit was already on its way
        screen.pending = asyncio.create_task(
            self._edit_later(table), name=f"lama-table-{table.game_id}"
        )

    @staticmethod
    def _ai_moving(table: Table) -> bool:
        seat = table.to_move
        return (
            table.status is Status.RUNNING
            and seat is not None
            and table.seats[seat].controller is not None
        )

    async def _edit_later(self, table: Table) -> None:
        # A change that comes in while an edit is on its way (the payload was
        # already built) marks the table stale again, so the loop edits once more;
        # an edit that failed for now is tried again, later each time.
        game_id = table.game_id
        failures = 0
        retry_at = 0.0
        held: float | None = None  # since when the edit waits for AI seats
        pacing = self.host.pacing
        while self._stale(game_id):
            now = time.monotonic()
            screen = self.screens.get(game_id)
            last = screen.edited if screen is not None else 0.0
            due = max(now + pacing.debounce, last + pacing.edit_interval, retry_at)
            if self._ai_moving(table):
                held = now if held is None else held
                if held + pacing.ai_hold > due:
                    # Look again soon: the turn may come back to a human sooner.
                    await asyncio.sleep(min(held + pacing.ai_hold, now + HOLD_STEP) - now)
                    continue
            await asyncio.sleep(due - now)
            try:
                done = await self.edit_now(table)
            except Exception:
                # Whatever went wrong, the table must still catch up: the game's last
                # edit may be the one that shows how it ended.
                log.exception("game %s: the table edit failed; trying again", game_id)
                self._screen(game_id).stale = True
                done = False
            if done:
                failures, held = 0, None
            else:
                failures += 1
                retry_at = time.monotonic() + pacing.backoff(failures)
        if not table.live:
            self.last_edit_made(game_id)  # its last edit is made; a bot runs for months

    def payload(self, table: Table) -> dict[str, Any]:
        """What the table should show now."""
        return self._payload(table)[0]

    def _payload(self, table: Table, *, waiting: bool = False) -> tuple[dict[str, Any], Listing]:
        """What the table should show now, and the moves it lists; ``waiting``: saying it
        waits for a click (as it does anyway in its token's last minute)."""
        screen = self._screen(table.game_id)
        listing = moves_to_list(table.recent, self._listing(screen))
        payload = table_payload(
            table,
            self.host.faces,
            screen.reason,
            listing.lines,
            unlisted=listing.unlisted,
            waiting=waiting or self._last_minute(table),
        )
        return payload, listing

    def _last_minute(self, table: Table) -> bool:
        """Whether the table's edit now is its token's last one before it runs out, with
        nothing to edit it after (no newer click's token, no bot member): it then says it
        waits for a click, as the token's last edit does."""
        token = self.tokens.on_table(table)
        return (
            token is not None
            and self.tokens.left(token) <= LAST_CALL
            and self.tokens.sender(table, life=NEW_MESSAGE_LIFE) is None
            and not bot_present(self.host, table.guild_id)
        )

    async def edit_now(self, table: Table) -> bool:
        """Show the game as it is now; False if that failed for now (429, 5xx)."""
        game_id = table.game_id
        self._unstale(game_id)
        if self.screens.message_id(game_id) is None:
            return True
        payload, listing = self._payload(table)
        if self.tokens.aging(table):
            # The table moves on to a newer click's token while the old one can still
            # point to it (or, none left, the next click brings it back).
            moved = await self._move_on(table, payload, listing)
            if moved is not None:
                return moved
        sig = signature(payload)
        screen = self.screens.get(game_id)
        if screen is not None and sig == screen.shown:
            return True
        priority = Priority.TABLE
        if screen is not None and screen.priority is not None:
            priority, screen.priority = screen.priority, None
        if self.tokens.on_table(table) is None:
            if not bot_present(self.host, table.guild_id):
                # No token left and no bot token there: the table says it waits for a
                # click (its token's last edit), and the next click brings it back.
                return True
            await self.host.limiter.acquire(priority)
            if self._stale(game_id):  # it changed while the edit waited its turn
                self._unstale(game_id)
                payload, listing = self._payload(table)
                sig = signature(payload)
        try:
            await self._send_edit(table, payload)
        except TokenGone:
            # A newer click's token posts it anew; none: the next click does.
            posted = await self._repost(table, payload)
            if posted is False:
                self._screen(game_id).stale = True
                return False
            return True
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                # The gateway may have missed its deletion (while reconnecting): once
                # Discord confirms it, the game ends as with the deletion.
                if await channel_gone(self.host, table.channel_id, self.host.limiter):
                    log.info("game %s: the table's channel is gone", game_id)
                    await self.host.service.notices.abandon_where(channel_id=table.channel_id)
                return True
            # Deleted (by an admin tidying up, say): post it again, so that the
            # game goes on in sight rather than invisibly.
            log.info("game %s: the table message is gone; posting it again", game_id)
            posted = await self._repost(table, payload)
            if posted is None:
                return True
            if not posted:
                self._screen(game_id).stale = True
                return False
        except FAILURES as error:
            if transient(error):
                log.info("game %s: the table edit will be tried again: %s", game_id, error)
                self._screen(game_id).stale = True
                return False
            log.warning("game %s: could not edit the table: %s", game_id, error)
            return True
        self._shown(table, sig, listing)
        return True

    def _shown(self, table: Table, sig: str, listing: Listing) -> None:
        screen = self._screen(table.game_id)
        screen.shown = sig
        screen.edited = time.monotonic()
        self._listed(table, listing)

    async def _move_on(
        self, table: Table, payload: dict[str, Any], listing: Listing
    ) -> bool | None:
        """Post the table anew with the newest click's token, and point the old message
        to it: True once posted, False to try again, None if no click's token can."""
        old_id, old = self.screens.message_id(table.game_id), self.tokens.table_token(table)
        while (sender := self.tokens.sender(table, life=NEW_MESSAGE_LIFE)) is not None:
            if sender is old or (old is not None and not self.tokens.newer(table, sender, old)):
                return None  # no newer click's token than the table's own: it edits on
            posted = await self._post_with(table, payload, sender)
            if posted is None:
                continue  # that token is dead: the next newest, if any
            if posted and old_id is not None:
                self._collapse_later(table, old_id, old)
            if posted:
                self._shown(table, signature(payload), listing)
            return posted
        return None

    async def _post_with(self, table: Table, payload: dict[str, Any], token: Token) -> bool | None:
        """Post the table as a followup of ``token``'s click, without notifications: True
        once posted, False to try again, None if the token no longer works."""
        try:
            self.tokens.sent(token)
            message = await token.webhook.send(**payload, wait=True, silent=True)
            if message.flags.ephemeral:
                # Discord made it private (a server that turned Use External Apps off
                # for the clicker): that click's token can't show the table to anyone.
                token.private = True
                return None
        except FAILURES as error:
            if transient(error):
                log.info("game %s: the table's post will be tried again: %s", table.game_id, error)
                self._screen(table.game_id).stale = True
                return False
            log.info("game %s: a click's token could not post the table: %s", table.game_id, error)
            self.tokens.failed(token)
            return None
        self._posted(table, message.id)
        self.tokens.edits_table(table, token, message.id)
        self.watch(table)
        # A failed save is logged; this run edits the new message, a restart the old id.
        with contextlib.suppress(ServiceError):
            await self.host.service.front.set_table_message(table.game_id, message.id)
        self.token_moved(table, token, message.id)
        return True

    def posted(self, table: Table, message_id: int) -> None:
        """The table is the message ``message_id`` from now on (a lobby posted)."""
        self._screen(table.game_id).message_id = message_id

    def _posted(self, table: Table, message_id: int) -> None:
        """The table was posted anew as ``message_id``: a click on the old one points here."""
        screen = self._screen(table.game_id)
        if screen.message_id is not None:
            screen.former.add(screen.message_id)
        screen.message_id = message_id

    def former(self, table: Table, message_id: int) -> bool:
        """Whether ``message_id`` was this game's table message before it was posted anew."""
        screen = self.screens.get(table.game_id)
        return screen is not None and message_id in screen.former

    def _collapse_later(self, table: Table, old_id: int, old: Token | None) -> None:
        task = asyncio.create_task(
            point_to_new(self.host, self.tokens, table, old_id, old),
            name=f"lama-table-moved-{table.game_id}",
        )
        self._collapsing.add(task)
        task.add_done_callback(self._collapsing.discard)

    def watch(self, table: Table) -> None:
        """Look after the end of the table's token: before it runs out, the table moves
        on to a newer click's token, or says it waits for a click."""
        screen = self._screen(table.game_id)
        if screen.watch is None or screen.watch.done():
            screen.watch = asyncio.create_task(
                self._watch(table), name=f"lama-table-token-{table.game_id}"
            )

    async def _watch(self, table: Table) -> None:
        try:
            while table.live and (token := self.tokens.on_table(table)) is not None:
                left = USABLE - LAST_CALL - self.tokens.age(token)
                if left > 0:
                    await asyncio.sleep(left)
                    continue  # a newer token may edit it by now
                if self.tokens.sender(table, life=NEW_MESSAGE_LIFE) is not None:
                    self.request(table)  # a newer click's token takes over
                elif not bot_present(self.host, table.guild_id):
                    await self._last_edit(table, token)
                return
        except Exception:  # a background task: log it and carry on
            log.exception("game %s: looking after the table's token failed", table.game_id)

    async def _last_edit(self, table: Table, token: Token) -> None:
        """The token's last edit: the table as it is, saying it waits for a click."""
        message_id = self.screens.message_id(table.game_id)
        assert message_id is not None
        payload, listing = self._payload(table, waiting=True)
        try:
            await token.editor(message_id)(**payload)
        except FAILURES as error:
            log.info("game %s: the table could not say it waits: %s", table.game_id, error)
            if not transient(error):
                self.tokens.failed(token)
            return
        self._shown(table, signature(payload), listing)

    async def _repost(self, table: Table, payload: dict[str, Any]) -> bool | None:
        """Post the table again: True once posted, False to try again, None never."""
        while (token := self.tokens.sender(table)) is not None:
            posted = await self._post_with(table, payload, token)
            if posted is not None:
                return posted
        if not bot_present(self.host, table.guild_id):
            return None  # the next click posts it
        channel = self.host.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        await self.host.limiter.acquire(Priority.TABLE)
        try:
            message = await channel.send(**payload)
        except FAILURES as error:
            log.warning("game %s: could not post the table again: %s", table.game_id, error)
            return False if transient(error) else None
        self.posted(table, message.id)  # the old one is gone or can't be edited
        # A failed save is logged; this run edits the new message, a restart the old id.
        with contextlib.suppress(ServiceError):
            await self.host.service.front.set_table_message(table.game_id, message.id)
        return True

    async def _send_edit(self, table: Table, payload: dict[str, Any]) -> None:
        message_id = self.screens.message_id(table.game_id)
        assert message_id is not None
        token = self.tokens.on_table(table)
        if token is not None:
            try:
                await token.editor(message_id)(**payload)
                return
            except discord.HTTPException as error:
                if transient(error):
                    raise
                # The token no longer works (or the message is gone): the bot token says,
                # where there is one; elsewhere the next click posts the table anew.
                self.tokens.failed(token)
                if not bot_present(self.host, table.guild_id):
                    raise TokenGone from error
                await self.host.limiter.acquire(Priority.TABLE)
        elif not bot_present(self.host, table.guild_id):
            raise TokenGone  # it ran out while the edit waited
        channel = self.host.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        await channel.get_partial_message(message_id).edit(**payload)
