"""Keeps each table message in step with its game, within the bot token's REST budget.

The table is edited at most once per ``Pacing.edit_interval``, always with the latest
state, never with what it shows already.  While AI seats are moving, the edit
waits for the turn to come back to a human (at most ``Pacing.ai_hold``): a human move
and the AI moves after it cost one edit, which lists every move the table hasn't
shown yet (no move misses its moment on the table), at least the last few.  A
move is clicked on the player's private hand, whose token can edit only that
hand, so the table is edited with the bot token, except while the token of the
last click on the table itself still works (the lobby's buttons and ``/lama
new``: their answer *is* the table message), the first quarter of an hour of a
game.  An edit that fails for now is tried again until the table shows the
current state; a table message deleted is posted again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.limiter import Priority
from bot.service import ServiceError
from bot.service.table import MoveLine, MoveLog, Status, Table

from .discord_errors import FAILURES, UNKNOWN_CHANNEL, transient
from .host import Host
from .places import channel_gone
from .tokens import Tokens
from .views.payloads import table_payload
from .views.table import SHOWN_MOVES

log = logging.getLogger(__name__)

HOLD_STEP = 0.25  # how often a waiting edit looks whether the AI seats are done


def signature(payload: dict[str, Any]) -> str:
    return repr(payload["view"].to_components())


def _index(lines: Sequence[MoveLine], line: MoveLine | None) -> int | None:
    # By identity: two moves alike (two draws of one seat) are two lines.
    return next((i for i, each in enumerate(lines) if each is line), None)


@dataclass(frozen=True, slots=True)
class Listing:
    """The moves a table lists, and how many before them it never listed."""

    lines: list[MoveLine]
    unlisted: int  # lines older than ``lines`` the table never listed (they fell off)
    end: int  # the game's count of lines when listed: the table has listed up to here


def moves_to_list(recent: MoveLog, listed: Listing | None) -> Listing:
    """The moves the table lists next: every line since the newest it ``listed``,
    at least the last ``SHOWN_MOVES``; while no line came since, the same as now,
    so that nothing is edited for nothing.  With no lines listed by this run (the
    bot restarted, say), every line there is: the lines the table showed before
    are not known, and a stop in the middle of a stretch of AI moves must not lose
    its first ones.  The lines since it listed (as far as known: after a restart,
    as stored) that fell off before it could list them are counted."""
    lines = list(recent)
    last_few = max(0, len(lines) - SHOWN_MOVES)
    if listed is None or not listed.lines:
        unlisted = 0 if listed is None else max(0, recent.start - listed.end)
        return Listing(lines, unlisted, recent.total)
    seen = _index(lines, listed.lines[-1])
    if seen == len(lines) - 1:
        kept = _index(lines, listed.lines[0])
        if kept is None:
            return Listing(lines[last_few:], 0, recent.total)
        return Listing(lines[kept:], listed.unlisted, recent.total)  # the same as now
    # Even the newest line it lists may be gone: then all there are.
    chosen = lines if seen is None else lines[min(seen + 1, last_few) :]
    unlisted = max(0, recent.total - len(chosen) - listed.end)
    return Listing(chosen, unlisted, recent.total)


@dataclass
class TableScreen:
    """What one game's table message shows, and the edit that will bring it up to date."""

    shown: str | None = None  # the signature of what it shows
    edited: float = 0.0  # monotonic time of its last edit
    pending: asyncio.Task[None] | None = None  # the task that edits it
    stale: bool = False  # it lags behind the game
    priority: Priority | None = None  # of the edit waiting
    reason: str | None = None  # why the game closed, once it did
    listed: Listing | None = None  # the moves it lists


class TableEdits:
    """The edits of every table message: paced, held for AI moves, tried again."""

    def __init__(
        self,
        host: Host,
        tokens: Tokens,
        last_edit_made: Callable[[int], None],
        moves_listed: Callable[[int, int], None],
    ) -> None:
        self.host = host
        self.tokens = tokens
        #: Called with the game id once a game that is over shows how it ended.
        self.last_edit_made = last_edit_made
        #: Called with the game id and its count of lines once its table lists up to
        #: there (kept for a restart, which counts the moves it never listed).
        self.moves_listed = moves_listed
        self.screens: dict[int, TableScreen] = {}

    def _screen(self, game_id: int) -> TableScreen:
        return self.screens.setdefault(game_id, TableScreen())

    def _stale(self, game_id: int) -> bool:
        screen = self.screens.get(game_id)
        return screen is not None and screen.stale

    def _unstale(self, game_id: int) -> None:
        if (screen := self.screens.get(game_id)) is not None:
            screen.stale = False

    def forget(self, game_id: int) -> None:
        self.screens.pop(game_id, None)

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
        tasks = [screen.pending for screen in self.screens.values() if screen.pending is not None]
        for screen in self.screens.values():
            screen.pending = None
        return tasks

    def remember(self, table: Table, payload: dict[str, Any]) -> None:
        """Record an edit made through an interaction response."""
        screen = self._screen(table.game_id)
        screen.shown = signature(payload)
        screen.edited = time.monotonic()
        # The default list:
        self._listed(table, Listing(list(table.recent)[-SHOWN_MOVES:], 0, table.recent.total))

    def _listed(self, table: Table, listing: Listing) -> None:
        """The table lists ``listing`` now: kept (and stored, when it got further)."""
        screen = self._screen(table.game_id)
        before = self._listing(table, screen)
        screen.listed = listing
        if before is None or listing.end > before.end:
            self.moves_listed(table.game_id, listing.end)

    @staticmethod
    def _listing(table: Table, screen: TableScreen) -> Listing | None:
        """What the table lists, as far as known: by this run, else as stored before a
        restart (how far, not which lines)."""
        if screen.listed is None and table.moves_listed is not None:
            return Listing([], 0, table.moves_listed)
        return screen.listed

    def request(self, table: Table, priority: Priority = Priority.TABLE) -> None:
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

    def _payload(self, table: Table) -> tuple[dict[str, Any], Listing]:
        """What the table should show now, and the moves it lists."""
        screen = self.screens.get(table.game_id) or TableScreen()
        listing = moves_to_list(table.recent, self._listing(table, screen))
        payload = table_payload(
            table, self.host.faces, screen.reason, listing.lines, unlisted=listing.unlisted
        )
        return payload, listing

    async def edit_now(self, table: Table) -> bool:
        """Show the game as it is now; False if that failed for now (429, 5xx)."""
        game_id = table.game_id
        self._unstale(game_id)
        if table.table_message_id is None:
            return True
        payload, listing = self._payload(table)
        sig = signature(payload)
        screen = self.screens.get(game_id)
        if screen is not None and sig == screen.shown:
            return True
        priority = Priority.TABLE
        if screen is not None and screen.priority is not None:
            priority, screen.priority = screen.priority, None
        if self.tokens.on_table(table) is None:
            await self.host.limiter.acquire(priority)
            if self._stale(game_id):  # it changed while the edit waited its turn
                self._unstale(game_id)
                payload, listing = self._payload(table)
                sig = signature(payload)
        try:
            await self._send_edit(table, payload)
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                # The gateway may have missed its deletion (while reconnecting): once
                # Discord confirms it, the game ends as with the deletion.
                if await channel_gone(self.host, table.channel_id, self.host.limiter):
                    log.info("game %s: the table's channel is gone", game_id)
                    await self.host.service.abandon_where(channel_id=table.channel_id)
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
        screen = self._screen(game_id)
        screen.shown = sig
        screen.edited = time.monotonic()
        self._listed(table, listing)
        return True

    async def _repost(self, table: Table, payload: dict[str, Any]) -> bool | None:
        """Post the table again: True once posted, False to try again, None never."""
        channel = self.host.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        await self.host.limiter.acquire(Priority.TABLE)
        try:
            message = await channel.send(**payload)
        except FAILURES as error:
            log.warning("game %s: could not post the table again: %s", table.game_id, error)
            return False if transient(error) else None
        # A failed save is logged; this run edits the new message, a restart the old id.
        with contextlib.suppress(ServiceError):
            await self.host.service.set_table_message(table, message.id)
        return True

    async def _send_edit(self, table: Table, payload: dict[str, Any]) -> None:
        assert table.table_message_id is not None
        token = self.tokens.on_table(table)
        if token is not None and token.edit_answer is not None:
            try:
                await token.edit_answer(**payload)
                return
            except discord.HTTPException as error:
                if transient(error):
                    raise
                # The token no longer works (or the message is gone): the bot token says.
                self.tokens.table_failed(table)
                await self.host.limiter.acquire(Priority.TABLE)
        channel = self.host.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        await channel.get_partial_message(table.table_message_id).edit(**payload)
