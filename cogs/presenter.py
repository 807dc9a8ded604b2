"""Keeps each table message and its turn ping in step with the game, within the
bot token's REST budget.

Discord allows one bot token about 50 requests a second, across all of its
processes; calls made with an interaction token (a click's answer, its
followups, edits of its own answer) don't count.  Hence this policy:

- **The table** is edited at most once per ``MIN_INTERVAL``, always with the
  latest state, never with what it shows already.  While AI seats are moving,
  the edit waits for the turn to come back to a human (at most ``AI_HOLD``):
  a human move and the AI moves after it cost one edit.  A move is clicked on
  the player's private hand, whose token can edit only that hand, so the table
  is edited with the bot token, except while the token of the last click on
  the table itself still works (the lobby's buttons and ``/lama new``: their
  answer *is* the table message), the first quarter of an hour of a game.
- **Turn pings** are new messages, since an edit notifies nobody: one per human
  turn, taken down when the turn is over.  They are sent and taken down as
  followups of the newest click at the table (anyone's move, Show my hand, a
  lobby button), which need no bot token, while that token works (15 minutes);
  with the bot token only when nobody clicked that recently.  AI turns have no
  ping: one ping per stretch of AI moves, for the human after them.  A player
  who clicked in the last ``LOOKING`` seconds and whose open hand now shows
  their turn is looking: no ping.  The turn timer's warning always pings.
- **Nothing is lost**: a table edit, ping or ping deletion that Discord answers
  with 429 or a 5xx, or that gets no answer (a dropped connection, a timeout), is
  tried again, waiting twice as long after each failure
  (up to ``RETRY_MAX``), until the table shows the current state, the turn's
  ping stands and every ping that is over is gone.  Every ping is stored once
  Discord has answered its sending and forgotten only once the message is gone,
  so a bot stopped later on (killed while Discord refuses a deletion, say)
  leaves none of them standing: the restarted bot takes down every stored one.
  A deletion refused where the ping stands (an archived thread, 50083; a place
  hidden from the bot, 403) is not tried again and again: the ping stays
  stored, and goes after the game's next ping there (sending it unarchives a
  thread) or at a restart.
- **The budget**: every bot-token call waits for its turn at the process's
  :class:`~bot.limiter.Limiter` (``REST_BUDGET`` a second): pings first, then
  the table and taking pings down, then cosmetic posts (the finished game's
  chart, a warning's table edit) and taking down the pings an earlier run left.

Open hands are refreshed when their owner's turn comes, with their own
click's token, while Discord still lets us edit them.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.frontend.places import channel_gone, place_gone
from bot.i18n import text
from bot.limiter import Priority
from bot.service import ServiceError
from bot.service.table import Status, Table
from data.store import OpenHandRecord, PingRecord, StoreError

from . import render
from .faces import Faces
from .stats import chart_file, finished_chart

if TYPE_CHECKING:
    from bot.client import LamaBot

log = logging.getLogger(__name__)

MIN_INTERVAL = 2.0  # seconds between two edits of one table message
DEBOUNCE = 0.25  # lets an interaction answer first, so its own edit isn't repeated
AI_HOLD = 4.0  # at most this long a table edit waits for the AI seats' moves
HOLD_STEP = 0.25  # how often a waiting edit looks whether the AI seats are done
LOOKING = 5.0  # seconds since a player's last click in which they're taken to be looking
TOKEN_LIFE = 14 * 60  # Discord lets an interaction token be used for 15 minutes
RETRY_FIRST = 1.0  # seconds before a failed call is tried again, doubling...
RETRY_MAX = 60.0  # ...up to this
CHART_TRIES = 4  # the chart is cosmetic: given up after this many failures
UNKNOWN_CHANNEL = 10003  # Discord's error code for a channel that no longer exists
UNKNOWN_MESSAGE = 10008
ARCHIVED_THREAD = 50083  # "Thread is archived": refused until a message unarchives it
HAND_RESAVE = 5 * 60  # seconds before an open hand's stored token is replaced by a newer one
HAND_EDITABLE = 14 * 60  # Discord allows 15 minutes; keep a margin


#: No answer at all: the connection dropped or timed out.  discord.py raises these
#: as they are, not as an HTTPException; like a 5xx, they are worth trying again.
NETWORK: tuple[type[Exception], ...] = (aiohttp.ClientError, TimeoutError, OSError)
#: Every way a call to Discord can fail that the presenter handles.
FAILURES: tuple[type[Exception], ...] = (discord.HTTPException, discord.RateLimited, *NETWORK)
#: Failures that are always tried again (an HTTPException only with 429 or a 5xx).
RETRIED: tuple[type[Exception], ...] = (discord.RateLimited, *NETWORK)


def transient(error: Exception) -> bool:
    """Worth trying again: Discord was busy (429), failed on its side (5xx), or the
    call got no answer (a dropped connection, a timeout)."""
    if isinstance(error, RETRIED):
        return True
    return isinstance(error, discord.HTTPException) and (error.status == 429 or error.status >= 500)


class Deletion(Enum):
    """How taking a ping down went."""

    DONE = "done"  # gone (or gone already, or refused for good: logged)
    RETRY = "retry"  # refused for now (429, 5xx, no answer): tried again soon
    # Refused where it stands: an archived thread (50083, until a message there
    # unarchives it), a place hidden from the bot (403, until it is shown again).  It
    # stays stored, for the game's next ping there or a restart to take down.
    LATER = "later"


def refused_here(error: Exception) -> bool:
    """Discord refuses the call because of where it is: a thread archived, a channel or
    thread hidden from the bot (Missing Access, Missing Permissions)."""
    return isinstance(error, discord.HTTPException) and (
        error.status == 403 or error.code == ARCHIVED_THREAD
    )


def _log_failure(task: asyncio.Task[None]) -> None:
    """A background task (a retry, the chart) that failed is logged, not lost unseen."""
    if not task.cancelled() and (error := task.exception()) is not None:
        log.error("%s failed", task.get_name(), exc_info=error)


def backoff(failures: int) -> float:
    return float(min(RETRY_MAX, RETRY_FIRST * 2 ** (failures - 1)))


@dataclass
class Token:
    """A click's interaction token: followups in its channel, and edits of its own
    answer (``edit_answer``, the message ``answer_id``), for 15 minutes."""

    webhook: discord.Webhook
    since: float  # the service's clock, when the click came
    edit_answer: Callable[..., Awaitable[object]] | None = None
    answer_id: int | None = None


@dataclass
class Ping:
    """A turn ping standing in the channel, and the token it was sent with (None:
    the bot token)."""

    message_id: int
    content: str
    token: Token | None = None

    def record(self, table: Table) -> PingRecord:
        return PingRecord(table.game_id, table.guild_id, table.channel_id, self.message_id)


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
        self._edit_priority: dict[int, Priority] = {}  # of the table edit waiting
        self._reasons: dict[int, str] = {}
        self.hands: dict[tuple[int, int], OpenHand] = {}
        self.pings: dict[int, Ping] = {}  # game -> the ping standing
        self._wanted: dict[int, str] = {}  # game -> the text of the ping that should stand
        self._deleting: set[int] = set()  # pings that are over, their deletion tried again
        # game -> pings that are over but refused deletion where they stand (Deletion.LATER):
        # taken down after the game's next ping there is sent (which unarchives a thread).
        self._kept: dict[int, list[Ping]] = {}
        self._clicks: dict[int, Token] = {}  # game -> the newest click at its table
        self._table_clicks: dict[int, Token] = {}  # game -> the newest click answered by the table
        self._charted: set[int] = set()  # finished games whose chart was posted
        # The message and time of each open hand's stored token.
        self._hands_saved: dict[tuple[int, int], tuple[int, float]] = {}
        # Chart posts, open-hand saves, pings and deletions tried again.
        self._tasks: set[asyncio.Task[None]] = set()

    def _spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(_log_failure)

    # ------------------------------------------------------------ tokens
    def clicked(
        self,
        table: Table,
        interaction: discord.Interaction[Any],
        *,
        answer_id: int | None = None,
    ) -> None:
        """A click at this table was answered: its token can send the table's
        pings for a while; ``answer_id`` is the message its answer is, when
        that is the table message."""
        if interaction.channel_id != table.channel_id:
            return
        now = self.bot.service.clock()
        self._clicks[table.game_id] = Token(interaction.followup, now)
        if answer_id is not None:
            self._table_clicks[table.game_id] = Token(
                interaction.followup, now, interaction.edit_original_response, answer_id
            )

    def _fresh(self, token: Token | None) -> bool:
        return token is not None and self.bot.service.clock() - token.since < TOKEN_LIFE

    def _click_token(self, table: Table) -> Token | None:
        token = self._clicks.get(table.game_id)
        return token if self._fresh(token) else None

    # ------------------------------------------------------------ table message
    def remember(
        self,
        table: Table,
        payload: dict[str, Any],
        interaction: discord.Interaction[Any] | None = None,
        message_id: int | None = None,
    ) -> None:
        """Record an edit made through an interaction response (the table
        message ``message_id``, answering ``interaction``)."""
        self._last_sig[table.game_id] = signature(payload)
        self._last_edit[table.game_id] = time.monotonic()
        if interaction is not None:
            self.clicked(table, interaction, answer_id=message_id)

    def request(self, table: Table, priority: Priority = Priority.TABLE) -> None:
        self._stale.add(table.game_id)
        waiting = self._edit_priority.get(table.game_id, Priority.COSMETIC)
        self._edit_priority[table.game_id] = min(waiting, priority)
        task = self._pending.get(table.game_id)
        if task is not None and not task.done():
            return  # the pending task edits again if its edit was already on its way
        self._pending[table.game_id] = asyncio.create_task(
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
        while game_id in self._stale:
            now = time.monotonic()
            last = self._last_edit.get(game_id, 0.0)
            due = max(now + DEBOUNCE, last + MIN_INTERVAL, retry_at)
            if self._ai_moving(table):
                held = now if held is None else held
                if held + AI_HOLD > due:
                    # Look again soon: the turn may come back to a human sooner.
                    await asyncio.sleep(min(held + AI_HOLD, now + HOLD_STEP) - now)
                    continue
            await asyncio.sleep(due - now)
            try:
                done = await self.edit_now(table)
            except Exception:
                # Whatever went wrong, the table must still catch up: the game's last
                # edit may be the one that shows how it ended.
                log.exception("game %s: the table edit failed; trying again", game_id)
                self._stale.add(game_id)
                done = False
            if done:
                failures, held = 0, None
            else:
                failures += 1
                retry_at = time.monotonic() + backoff(failures)
        if not table.live:
            self._forget(game_id)  # its last edit is made; a bot runs for months

    def _forget(self, game_id: int) -> None:
        per_game: tuple[dict[int, Any], ...] = (
            self._last_sig,
            self._last_edit,
            self._reasons,
            self._pending,
            self._edit_priority,
            self._clicks,
            self._table_clicks,
            self._wanted,
            self._kept,  # still stored: a restart tries them
        )
        for remembered in per_game:
            remembered.pop(game_id, None)
        self._charted.discard(game_id)  # its chart went out with the notice that finished it
        for hands in (self.hands, self._hands_saved):
            for key in [key for key in hands if key[0] == game_id]:
                del hands[key]

    async def edit_now(self, table: Table) -> bool:
        """Show the game as it is now; False if that failed for now (429, 5xx)."""
        self._stale.discard(table.game_id)
        if table.table_message_id is None:
            return True
        payload = table_payload(table, self.bot.faces, self._reasons.get(table.game_id))
        sig = signature(payload)
        if sig == self._last_sig.get(table.game_id):
            return True
        priority = self._edit_priority.pop(table.game_id, Priority.TABLE)
        if self._table_token(table) is None:
            await self.bot.limiter.acquire(priority)
            if table.game_id in self._stale:  # it changed while the edit waited its turn
                self._stale.discard(table.game_id)
                payload = table_payload(table, self.bot.faces, self._reasons.get(table.game_id))
                sig = signature(payload)
        try:
            await self._send_edit(table, payload)
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                # The gateway may have missed its deletion (while reconnecting): once
                # Discord confirms it, the game ends as with the deletion.
                if await channel_gone(self.bot, table.channel_id, self.bot.limiter):
                    log.info("game %s: the table's channel is gone", table.game_id)
                    await self.bot.service.abandon_where(channel_id=table.channel_id)
                return True
            # Deleted (by an admin tidying up, say): post it again, so that the
            # game goes on in sight rather than invisibly.
            log.info("game %s: the table message is gone; posting it again", table.game_id)
            posted = await self._repost(table, payload)
            if posted is None:
                return True
            if not posted:
                self._stale.add(table.game_id)
                return False
        except FAILURES as error:
            if transient(error):
                log.info("game %s: the table edit will be tried again: %s", table.game_id, error)
                self._stale.add(table.game_id)
                return False
            log.warning("game %s: could not edit the table: %s", table.game_id, error)
            return True
        self._last_sig[table.game_id] = sig
        self._last_edit[table.game_id] = time.monotonic()
        return True

    async def _repost(self, table: Table, payload: dict[str, Any]) -> bool | None:
        """Post the table again: True once posted, False to try again, None never."""
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        await self.bot.limiter.acquire(Priority.TABLE)
        try:
            message = await channel.send(**payload)
        except FAILURES as error:
            log.warning("game %s: could not post the table again: %s", table.game_id, error)
            return False if transient(error) else None
        # A failed save is logged; this run edits the new message, a restart the old id.
        with contextlib.suppress(ServiceError):
            await self.bot.service.set_table_message(table, message.id)
        return True

    def _table_token(self, table: Table) -> Token | None:
        """The token of the newest click answered by the table message, while it works."""
        token = self._table_clicks.get(table.game_id)
        if not self._fresh(token) or token is None or token.answer_id != table.table_message_id:
            return None
        return token

    async def _send_edit(self, table: Table, payload: dict[str, Any]) -> None:
        assert table.table_message_id is not None
        token = self._table_token(table)
        if token is not None and token.edit_answer is not None:
            try:
                await token.edit_answer(**payload)
                return
            except discord.HTTPException as error:
                if transient(error):
                    raise
                # The token no longer works (or the message is gone): the bot token says.
                self._table_clicks.pop(table.game_id, None)
                await self.bot.limiter.acquire(Priority.TABLE)
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        await channel.get_partial_message(table.table_message_id).edit(**payload)

    # ------------------------------------------------------------ the listener
    async def table_changed(self, table: Table) -> None:
        try:
            if table.status is not Status.RUNNING:
                await self._clear_ping(table)
            if table.status is Status.FINISHED and table.game_id not in self._charted:
                self._charted.add(table.game_id)
                self._spawn(self._post_chart(table, self._click_token(table)), chart_name(table))
            if table.status is Status.FINISHED:
                await self._close_hands(table)
        finally:
            self.request(table)  # whatever failed above, the table still shows the change

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

    async def _post_chart(self, table: Table, token: Token | None) -> None:
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
        for failures in itertools.count(1):
            try:
                if self._fresh(token):
                    assert token is not None
                    await token.webhook.send(embed=embed, file=chart_file(png), wait=True)
                else:
                    await self.bot.limiter.acquire(Priority.COSMETIC)
                    await channel.send(embed=embed, file=chart_file(png))
                return
            except FAILURES as error:
                if not transient(error) or failures >= CHART_TRIES:
                    log.warning("game %s: could not post the chart: %s", table.game_id, error)
                    return
            await asyncio.sleep(backoff(failures))

    async def turn_started(self, table: Table) -> None:
        seat = table.to_move
        if seat is None:
            return
        player = table.seats[seat]
        if player.user_id is None or player.controller is not None:
            await self._clear_ping(table)
            return
        looking = self._looking(table, player.user_id)
        try:
            refreshed = await self._refresh_hand(table, player.user_id)
        except Exception:
            log.exception("game %s: could not refresh the hand; pinging", table.game_id)
            refreshed = False  # the ping tells them instead
        if looking and refreshed:
            # They just clicked, and the hand in front of them says it's their turn.
            await self._clear_ping(table)
            return
        await self._ping(table, player.user_id)

    async def turn_warning(self, table: Table) -> None:
        seat = table.to_move
        if seat is None or table.seats[seat].user_id is None:
            return
        user_id = table.seats[seat].user_id
        assert user_id is not None
        await self._ping(table, user_id, warning=True)
        self.request(table, Priority.COSMETIC)

    async def table_closed(self, table: Table, reason: str) -> None:
        self._reasons[table.game_id] = reason
        try:
            await self._clear_ping(table)
            await self._close_hands(table, reason)
        finally:
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
        self.clicked(table, interaction)
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
            self._spawn(self.bot.service.remember_hand(record), f"lama-hand-{table.game_id}")

    async def restore_hands(self) -> None:
        """Take back the hands opened before a restart that Discord still lets us edit;
        the newest of each game's tokens sends its pings, as a click would."""
        for record in await self.bot.service.open_hands():
            webhook = self.bot.interaction_webhook(record.application_id, record.token)
            edit = functools.partial(webhook.edit_message, record.message_id)
            key = (record.game_id, record.user_id)
            self.hands[key] = OpenHand(edit, record.opened_at, record.locale, record.warning)
            click = self._clicks.get(record.game_id)
            if click is None or click.since < record.opened_at:
                self._clicks[record.game_id] = Token(webhook, record.opened_at)

    def _looking(self, table: Table, user_id: int) -> bool:
        hand = self.hands.get((table.game_id, user_id))
        return hand is not None and self.bot.service.clock() - hand.opened < LOOKING

    async def _refresh_hand(
        self, table: Table, user_id: int, *, note: str | None = None, last: bool = False
    ) -> bool:
        """Edit ``user_id``'s open hand to show the game as it is now; ``last``
        lets go of it after (the game is over, nothing will change it again).
        True if the hand shows it now."""
        key = (table.game_id, user_id)
        hand = self.hands.get(key)
        if hand is None:
            return False
        expired = self.bot.service.clock() - hand.opened > HAND_EDITABLE
        if last or expired:
            del self.hands[key]
        if expired:
            return False
        seat = table.seat_of(user_id)
        if seat is None or table.match is None:
            return False
        shown = text(hand.locale, note) if note is not None else None
        try:
            await hand.edit(
                **hand_payload(
                    table, seat, hand.locale, self.bot.faces, shown, warning=hand.warning
                )
            )
        except FAILURES as error:
            if not transient(error):
                self.hands.pop(key, None)  # gone, or its token no longer works
            return False  # the ping tells them instead
        return True

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
        if current is not None and current.content == content:
            return  # the same player again, e.g. after a Plus card with no timer
        self._wanted[table.game_id] = content
        await self._clear_ping(table, replaced=True)
        if not await self._put_up(table, content, user_id):
            self._spawn(self._ping_again(table, content, user_id), f"lama-ping-{table.game_id}")

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
        # Stored before anything else: from now on a restart takes it down.
        await self.bot.service.remember_ping(ping.record(table))
        if table.status is not Status.RUNNING or self._wanted.get(table.game_id) != content:
            # It closed, or the turn moved on, while the ping was on its way.
            await self._take_down(table, ping)
        else:
            self.pings[table.game_id] = ping
        # A message got through there: a thread that was archived is not any more.
        for kept in self._kept.pop(table.game_id, []):
            await self._take_down(table, kept)
        return True

    async def _ping_again(self, table: Table, content: str, user_id: int) -> None:
        """Try a ping that failed again until it stands, or its turn is over."""
        for failures in itertools.count(1):
            await asyncio.sleep(backoff(failures))
            # In turn with the table's notices, as the first try was.
            async with table.notice_lock:
                wanted = self._wanted.get(table.game_id) == content
                if not wanted or table.game_id in self.pings or table.status is not Status.RUNNING:
                    return
                if await self._put_up(table, content, user_id):
                    return

    async def _send_ping(self, table: Table, content: str, user_id: int) -> Ping:
        mentions = discord.AllowedMentions(users=[discord.Object(user_id)])
        token = self._click_token(table)
        if token is not None:
            try:
                message = await token.webhook.send(content, allowed_mentions=mentions, wait=True)
                return Ping(message.id, content, token)
            except FAILURES as error:
                # That token is busy or no longer works: the bot token, at once.
                if not transient(error) and self._clicks.get(table.game_id) is token:
                    del self._clicks[table.game_id]
        await self.bot.limiter.acquire(Priority.PING)
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        sent = await channel.send(content, allowed_mentions=mentions)
        return Ping(sent.id, content)

    async def _clear_ping(self, table: Table, *, replaced: bool = False) -> None:
        if not replaced:
            self._wanted.pop(table.game_id, None)
        current = self.pings.pop(table.game_id, None)
        if current is not None and current.message_id not in self._deleting:
            await self._take_down(table, current)

    async def _take_down(self, table: Table, ping: Ping) -> None:
        """Take the ping down, and forget it once it is gone; a deletion Discord refuses
        for now is tried again, one refused where the ping stands waits for the game's
        next ping (the ping stays stored until it is gone)."""
        deletion = await self._delete_ping(table, ping)
        if deletion is Deletion.RETRY:
            self._deleting.add(ping.message_id)
            self._spawn(self._delete_again(table, ping), f"lama-unping-{table.game_id}")
        else:
            await self._deleted(table, ping, deletion)

    async def _deleted(self, table: Table, ping: Ping, deletion: Deletion) -> None:
        if deletion is Deletion.DONE:
            await self.bot.service.forget_ping(ping.record(table))
        elif deletion is Deletion.LATER:
            self._kept.setdefault(table.game_id, []).append(ping)

    async def _delete_again(self, table: Table, ping: Ping) -> None:
        """Try taking a ping down again until it is gone (or refused where it stands)."""
        try:
            for failures in itertools.count(1):
                await asyncio.sleep(backoff(failures))
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
        left = await self.bot.service.standing_pings()
        if left:
            self._spawn(self._take_down_left(left), "lama-unping-left")

    async def _take_down_left(self, left: list[PingRecord]) -> None:
        await self.bot.wait_until_ready()
        for ping in left:
            self._spawn(self._unping_left(ping), f"lama-unping-left-{ping.game_id}")

    async def _unping_left(self, left: PingRecord) -> None:
        # Cosmetic: a ping left standing can wait, the live tables can't (after an
        # outage there may be many, each with its look-up).
        limiter, cosmetic = self.bot.limiter, Priority.COSMETIC
        if await place_gone(self.bot, left.guild_id, left.channel_id, limiter, cosmetic):
            # Deleted, or the bot removed, while it was down: the ping went with its
            # place (or can't be reached), so nothing is sent there.
            await self.bot.service.forget_ping(left)
            return
        for failures in itertools.count(1):
            deletion = await self._bot_delete(
                left.game_id, left.channel_id, left.message_id, cosmetic
            )
            if deletion is Deletion.DONE:
                await self.bot.service.forget_ping(left)
                return
            if deletion is Deletion.LATER:
                # Stored still; a game going on takes it down after its next ping there.
                table = self.bot.service.table(left.game_id)
                if table is not None and table.live:
                    self._kept.setdefault(table.game_id, []).append(Ping(left.message_id, ""))
                return
            await asyncio.sleep(backoff(failures))

    async def _delete_ping(self, table: Table, ping: Ping) -> Deletion:
        """Take the ping down: with the token it was sent with while that works,
        else with the bot token."""
        if self._fresh(ping.token):
            assert ping.token is not None
            try:
                await ping.token.webhook.delete_message(ping.message_id)
                return Deletion.DONE
            except discord.NotFound as error:
                if error.code == UNKNOWN_MESSAGE:
                    return Deletion.DONE  # gone already
            except FAILURES as error:
                if transient(error):
                    return Deletion.RETRY  # the same token later: it costs no budget
            # The token no longer works (or is refused there): the bot token can delete
            # the bot's messages.
        return await self._bot_delete(table.game_id, table.channel_id, ping.message_id)

    async def _bot_delete(
        self, game_id: int, channel_id: int, message_id: int, priority: Priority = Priority.TABLE
    ) -> Deletion:
        """Take a ping down with the bot token."""
        await self.bot.limiter.acquire(priority)
        channel = self.bot.get_partial_messageable(channel_id)
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

    async def close(self) -> None:
        tasks = [*self._pending.values(), *self._tasks]
        self._pending.clear()
        self._tasks.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
