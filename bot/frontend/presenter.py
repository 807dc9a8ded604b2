"""The presenter: each notice of the service handed to the part of the front end for it.

A table changed, a turn started, a game closed or its place is gone.

Each part keeps its own per-game state and forgets a game itself:

- :class:`~bot.frontend.table_edits.TableEdits`: the table messages;
- :class:`~bot.frontend.pings.Pings`: the turn pings;
- :class:`~bot.frontend.open_hands.OpenHands`: the players' private hands;
- :class:`~bot.frontend.chart_post.ChartPost`: the chart at the end;
- :class:`~bot.frontend.tokens.Tokens`: the newest clicks, whose interaction tokens
  send and edit without the bot token.

A player who clicked in the last ``LOOKING`` seconds and whose open hand now
shows their turn is looking: no ping.  Once a new round is dealt, every open
hand shows its cards (through its own token), its moves only on its turn.  AI
turns have no ping: one ping per stretch of AI moves, for the human after them.
The turn timer's warning always pings.  Every bot-token call waits for its turn
at the process's
:class:`~bot.limiter.Limiter` (``REST_BUDGET`` a second): pings first, then the
table and taking pings down, then cosmetic posts (the finished game's chart, a
warning's table edit) and taking down the pings an earlier run left.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.limiter import Priority
from bot.service.play.table import Status, Table
from data import TableTokenRecord

from .background import Background, stop
from .chart_post import ChartPost
from .host import Host
from .open_hands import OpenHands
from .pings import Pings
from .places import bot_present
from .screens import Screens
from .table_edits import TableEdits
from .tokens import Token, Tokens

log = logging.getLogger(__name__)


class Presenter:
    """The service's :class:`~bot.service.TableListener`, and what the cogs tell the
    front end (a click answered, a hand opened, a table shown)."""

    def __init__(self, host: Host) -> None:
        self.host = host
        # Chart posts, open-hand saves, pings and deletions tried again.
        self.background = Background()
        #: Each game's table message, as the front end keeps it (the service's tables
        #: hold the games only); what the store kept is read back once per game. Read
        #: through the host when a screen is first made: `python -m bot sync` builds a
        #: presenter for its cogs without a service, and shows nothing through it.
        self.screens = Screens(lambda game_id: host.service.front.stored_table_message(game_id))
        self.tokens = Tokens(host, self.screens)
        self.table_edits = TableEdits(
            host,
            self.tokens,
            self.screens,
            last_edit_made=self._end_shown,
            moves_listed=self._moves_listed,
            token_moved=self._token_moved,
        )
        self.pings = Pings(host, self.tokens, self.background)
        self.open_hands = OpenHands(host, self.tokens, self.background)
        self.chart = ChartPost(host, self.tokens, self.background)
        #: Whether the bot was a member where each resumed game is, as stored with its
        #: table's token (a server missing from the cache is then no sign of removal).
        self.bot_members: dict[int, bool] = {}

    def drop_hand(self, game_id: int, user_id: int) -> None:
        """Stop refreshing a player's hand: an AI plays their seat now."""
        self.open_hands.drop(game_id, user_id)

    def moving(self, game_id: int, user_id: int) -> None:
        """A player clicked a move: the answer to the click shows their hand after it."""
        self.open_hands.moving(game_id, user_id)

    def _end_shown(self, game_id: int) -> None:
        """A game that is over shows how it ended: stored (a restart leaves its table
        alone), then let go of."""
        self.forget(game_id)
        self.background.spawn(self.host.service.front.end_shown(game_id), f"lama-ended-{game_id}")

    def _moves_listed(self, game_id: int, count: int) -> None:
        """A table lists its game's lines up to ``count``: stored, for a restart."""
        listed = self.host.service.front.moves_listed(game_id, count)
        self.background.spawn(listed, f"lama-listed-{game_id}")

    def _token_moved(self, table: Table, token: Token, message_id: int) -> None:
        """A click's token edits the table ``message_id`` now: stored, for a restart."""
        webhook = token.webhook
        if webhook.token is None:
            return
        record = TableTokenRecord(
            game_id=table.game_id,
            application_id=webhook.id,
            token=webhook.token,
            message_id=message_id,
            clicked_at=token.since,
            bot_member=bot_present(self.host, table.guild_id),
            original=token.answer_id == message_id,
        )
        self.background.spawn(
            self.host.service.front.remember_table_token(record),
            f"lama-table-token-{table.game_id}",
        )

    async def restore_tables(self) -> None:
        """Take back the tables' tokens stored before a restart: each table is edited on
        with its own while Discord takes it, else posted anew at the next click."""
        for record in await self.host.service.front.table_tokens():
            webhook = self.host.interaction_webhook(record.application_id, record.token)
            self.tokens.restored_table(
                record.game_id,
                webhook,
                record.clicked_at,
                record.message_id,
                original=record.original,
            )
            self.bot_members[record.game_id] = record.bot_member

    def show_endings(self, tables: list[Table]) -> None:
        """Games that ended before a restart whose tables may not show it yet: shown now."""
        for table in tables:
            self.request(table)

    def post_charts(self, tables: list[Table]) -> None:
        """Games that finished before a restart whose charts may not have gone out:
        posted now, as the game's end would have."""
        for table in tables:
            self.chart.finished(table)

    def forget(self, game_id: int) -> None:
        """Let go of a game that is over (a bot runs for months)."""
        self.table_edits.forget(game_id)
        self.tokens.forget(game_id)
        self.pings.forget(game_id)
        self.chart.forget(game_id)
        self.open_hands.forget(game_id)

    # ------------------------------------------------------------ what the cogs say
    def remember(
        self,
        table: Table,
        payload: dict[str, Any],
        interaction: discord.Interaction[Any] | None = None,
        message_id: int | None = None,
        *,
        followup: bool = False,
    ) -> None:
        """Record an edit made through an interaction response (the table
        message ``message_id``, answering ``interaction``, or its ``followup``)."""
        if interaction is not None:
            if followup:
                token = self.tokens.clicked(table, interaction, posted_id=message_id, followups=1)
            else:
                token = self.tokens.clicked(table, interaction, answer_id=message_id)
            if token is not None and message_id is not None:
                self._token_moved(table, token, message_id)
        self.table_edits.remember(table, payload)

    def request(self, table: Table, priority: Priority = Priority.TABLE) -> None:
        """Bring the table message up to date, soon."""
        self.table_edits.request(table, priority)

    def table_message_id(self, table: Table) -> int | None:
        """The message that shows the table now, if any."""
        return self.screens.message_id(table.game_id)

    def table_posted(self, table: Table, message_id: int) -> None:
        """The table (a lobby) was posted as ``message_id``: edited from now on."""
        self.table_edits.posted(table, message_id)

    def opened_hand(
        self,
        table: Table,
        user_id: int,
        interaction: discord.Interaction[Any],
        warning: str | None = None,
        message_id: int | None = None,
        edit: Callable[..., Awaitable[object]] | None = None,
    ) -> None:
        """Refresh this hand (``message_id``, answering ``interaction``, or ``edit``ed
        when it is a followup of it) when its owner's turn comes; stored too, so that a
        restarted bot still can."""
        self.clicked(table, interaction)
        self.open_hands.opened(table, user_id, interaction, warning, message_id, edit)

    def table_fading(self, table: Table) -> bool:
        """Whether no token edits the table any more, or the one that does is about to
        run out: a click on the table itself then brings it up to date in place."""
        return self.table_message_id(table) is not None and self.tokens.aging(table)

    def table_now(self, table: Table) -> dict[str, Any]:
        """What the table message should show now."""
        return self.table_edits.payload(table)

    def former_table(self, table: Table, message_id: int) -> bool:
        """Whether ``message_id`` was the game's table message before it was posted anew."""
        return self.table_edits.former(table, message_id)

    def clicked(
        self, table: Table, interaction: discord.Interaction[Any], followups: int = 0
    ) -> None:
        """A click at the table was answered (with ``followups`` of its own so far): its
        token sends the table's messages from now on, and posts the table anew if the one
        it has is about to run out (or has: the table waits for a click)."""
        self.tokens.clicked(table, interaction, followups=followups)
        if self.table_message_id(table) is not None and self.tokens.aging(table):
            self.request(table)

    async def restore_hands(self) -> None:
        """Take back the hands opened before a restart (see :meth:`OpenHands.restore`)."""
        await self.open_hands.restore()

    async def take_down_left(self) -> None:
        """Take down the pings an earlier run left (see :meth:`Pings.take_down_left`)."""
        await self.pings.take_down_left()

    # ------------------------------------------------------------ the listener
    async def table_changed(self, table: Table) -> None:
        try:
            if table.status is not Status.RUNNING:
                await self.pings.clear(table)
            if table.status is Status.FINISHED:
                self.chart.finished(table)
                await self.open_hands.close(table)
            else:
                await self.open_hands.seats_taken(table)
        finally:
            self.request(table)  # whatever failed above, the table still shows the change

    async def table_gone(self, table: Table) -> None:
        """Its channel or server is gone: stop every edit, ping and hand refresh."""
        self.table_edits.stop(table)
        self.pings.drop(table)
        self.chart.stop(table)
        self.forget(table.game_id)

    async def turn_started(self, table: Table) -> None:
        try:
            await self._turn_started(table)
        finally:
            # After the turn's own refresh and ping: a hand still offering a turn
            # that is over shows it is over, and the other hands see a new round's
            # cards too (their owners plan while others move).
            await self.open_hands.turns_over(table)
            await self.open_hands.new_round(table)

    async def _turn_started(self, table: Table) -> None:
        seat = table.to_move
        if seat is None:
            return
        player = table.seats[seat]
        if player.user_id is None or player.controller is not None:
            await self.pings.clear(table)
            return
        looking = self.open_hands.looking(table, player.user_id)
        try:
            refreshed = await self.open_hands.refresh(table, player.user_id)
        except Exception:
            log.exception("game %s: could not refresh the hand; pinging", table.game_id)
            refreshed = False  # the ping tells them instead
        if looking and refreshed:
            # They just clicked, and the hand in front of them says it's their turn.
            await self.pings.clear(table)
            return
        await self.pings.ping(table, player.user_id)

    async def turn_warning(self, table: Table) -> None:
        seat = table.to_move
        if seat is None or table.seats[seat].user_id is None:
            return
        user_id = table.seats[seat].user_id
        assert user_id is not None
        await self.pings.ping(table, user_id, warning=True)
        self.request(table, Priority.COSMETIC)

    async def table_closed(self, table: Table, reason: str) -> None:
        self.table_edits.closed(table, reason)
        try:
            await self.pings.clear(table)
            await self.open_hands.close(table, reason)
        finally:
            self.request(table)

    async def close(self) -> None:
        """Stop every edit and background task (the bot is stopping)."""
        await stop([*self.table_edits.take_tasks(), *self.background.take_all()])
