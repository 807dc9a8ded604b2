"""Playing: /lama hand, rules and kick, the table's buttons and the moves of a private hand."""

from __future__ import annotations

import functools
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.frontend.cog_host import CogHost, TablePresenter
from bot.frontend.custom_ids import MoveId, SeatId, TableButtonId
from bot.frontend.ended_hands import respond_hand, show_end
from bot.frontend.permissions import (
    can_manage,
    missing_permissions_text,
    missing_table_permissions,
)
from bot.frontend.places import left_the_group
from bot.frontend.replies import Interaction, defer_private, in_time, reply, reply_error
from bot.frontend.views.hand import hand_view, seat_taken_view
from bot.frontend.views.payloads import message_link, moved_payload, v2_payload
from bot.frontend.words import error_text, plain_name, rules_text
from bot.i18n import text
from bot.service import MoveRefused, ServiceError
from bot.service.play.table import Status, Table
from game import DRAW, PLAY, QUIT, Action, Ruleset

from .lama_cog import LamaCog

log = logging.getLogger(__name__)


class GameplayCommands(LamaCog, name="Gameplay"):
    """Playing: /lama hand, rules and kick, the table's buttons, the moves of a hand."""

    def __init__(self, bot: CogHost) -> None:
        super().__init__(bot)
        self.presenter: TablePresenter = bot.presenter  # built in LamaBot.setup_hook

    async def cog_load(self) -> None:
        await super().cog_load()
        # Each click is given the table its place check found: looked up once.
        self.route_at_table(TableButtonId, self.handle_button)
        self.route_at_table(MoveId, self.handle_move)
        self.route_at_table(SeatId, self.handle_seat)

    # ------------------------------------------------------------ places gone
    # A table whose channel, thread or server is gone can't be shown or played:
    # its game ends, and its clocks and Discord calls with it.
    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.bot.service.notices.abandon_where(channel_id=channel.id)
        # Its threads went with it (those the bot saw, anyway).
        for thread in getattr(channel, "threads", ()):
            await self.bot.service.notices.abandon_where(channel_id=thread.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.bot.service.notices.abandon_where(channel_id=payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.bot.service.notices.abandon_where(guild_id=guild.id)

    # ------------------------------------------------------------ commands
    @app_commands.command(
        name="hand", description="Show your hand privately, with your move buttons."
    )
    async def hand_command(self, interaction: Interaction) -> None:
        table = self.bot.service.registry.table_in(interaction.channel_id or 0)
        if table is None or table.status is not Status.RUNNING:
            await reply(interaction, text(interaction.locale, "error.no_game_here"))
            return
        await self.show_hand(interaction, table)

    @app_commands.command(
        name="rules", description="A short summary of the rules and the variants in use."
    )
    async def rules_command(self, interaction: Interaction) -> None:
        table = self.bot.service.registry.table_in(interaction.channel_id or 0)
        await reply(
            interaction,
            rules_text(str(interaction.locale), table.ruleset if table else None),
        )

    @app_commands.command(
        name="kick", description="Hand a player's seat to an AI (host or Manage Server)."
    )
    @app_commands.describe(member="The player whose seat an AI should take over")
    async def kick_command(
        self,
        interaction: Interaction,
        # A user, not a member: a player who left the server can be kicked too.
        member: discord.User,
    ) -> None:
        table = self.bot.service.registry.table_in(interaction.channel_id or 0)
        if table is not None and table.status is Status.LOBBY:
            await self.remove_from_lobby(interaction, table, member)
            return
        if table is None or table.status is not Status.RUNNING:
            await reply(interaction, text(interaction.locale, "error.no_game_here"))
            return
        await defer_private(interaction)  # the kick may end the game, which takes a while
        seat = table.seat_of(member.id)
        # Kicked while playing (not away): the game won't touch their rating.
        present = seat is not None and table.seats[seat].controller is None
        try:
            await self.bot.service.seats.kick(
                table, interaction.user.id, member.id, can_manage=can_manage(interaction)
            )
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        done = text(interaction.locale, "kick.done", name=plain_name(member.display_name))
        if present:
            done += " " + text(interaction.locale, "kick.spared")
        await reply(interaction, done)

    async def remove_from_lobby(
        self, interaction: Interaction, table: Table, member: discord.User
    ) -> None:
        """/lama kick in a lobby: the host takes a joiner's seat; only the lobby shows it."""
        removing = self.bot.service.lobbies.remove(
            table, interaction.user.id, member.id, can_manage=can_manage(interaction)
        )
        try:
            # A slow store must not lose the command: acknowledged meanwhile (in_time).
            await in_time(interaction, removing)
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        self.presenter.request(table)
        name = plain_name(member.display_name)
        await reply(interaction, text(interaction.locale, "done.removed", name=name))

    # ------------------------------------------------------------ buttons
    async def handle_button(
        self, interaction: Interaction, cid: TableButtonId, table: Table | None
    ) -> None:
        if cid.action == "rules":
            if table is not None:
                ruleset: Ruleset | None = table.ruleset
            else:  # a finished table's: its game is read back (acknowledged if slow)
                reading = self.bot.service.front.finished_ruleset(
                    cid.game_id, channel_id=interaction.channel_id or 0
                )
                ruleset = await in_time(interaction, reading)
            await reply(interaction, rules_text(str(interaction.locale), ruleset))
            return
        table = await self._running(interaction, cid.game_id, table)
        if table is None:
            return
        if await self._moved_on(interaction, table):
            return
        if cid.action == "back":
            await self.come_back(interaction, table)
        elif self._fading_here(interaction, table):
            await self.revive(interaction, table)
        else:
            await self.show_hand(interaction, table)

    def _fading_here(self, interaction: Interaction, table: Table) -> bool:
        """A click on the table itself, whose token runs out (or has): the click's own
        token takes it over in place, no need to post it anew."""
        message = interaction.message
        return (
            message is not None
            and message.id == self.presenter.table_message_id(table)
            and self.presenter.table_fading(table)
        )

    async def revive(self, interaction: Interaction, table: Table) -> None:
        """Show my hand on a table whose token runs out: the click's answer brings the
        table up to date in place (its token edits it from now on), and the hand comes
        as a private followup."""
        assert interaction.message is not None
        payload = self.presenter.table_now(table)
        await interaction.response.edit_message(**payload)
        self.presenter.remember(table, payload, interaction, interaction.message.id)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await reply(interaction, text(interaction.locale, "error.not_a_player"))
            return
        if table.seats[seat].controller is not None:
            self.presenter.drop_hand(table.game_id, interaction.user.id)
            taken = v2_payload(seat_taken_view(table, seat, str(interaction.locale)))
            await interaction.followup.send(**taken, ephemeral=True)
            return
        hand = v2_payload(hand_view(table, seat, str(interaction.locale), self.bot.faces))
        sent = await interaction.followup.send(**hand, ephemeral=True, wait=True)
        self.presenter.clicked(table, interaction, followups=1)  # the hand is one
        edit = functools.partial(interaction.followup.edit_message, sent.id)
        self.presenter.opened_hand(table, interaction.user.id, interaction, None, sent.id, edit)

    async def handle_seat(self, interaction: Interaction, cid: SeatId, found: Table | None) -> None:
        # A seat's card count can't be pressed; a forged click on it gets what
        # the table can show anyone privately: their own hand.
        table = await self._running(interaction, cid.game_id, found)
        if table is not None and not await self._moved_on(interaction, table):
            await self.show_hand(interaction, table)

    async def _moved_on(self, interaction: Interaction, table: Table) -> bool:
        """A click on an old table message, the table posted anew since (its old token
        ran out before it could point to the new one): the click makes it point there,
        and the person is told privately where the game is."""
        message, current = interaction.message, self.presenter.table_message_id(table)
        if message is None or current is None or message.id == current:
            return False
        if not self.presenter.former_table(table, message.id):
            return False
        try:
            await interaction.response.edit_message(**moved_payload(table, current))
        except discord.HTTPException as error:  # the reply below says where all the same
            log.info("game %s: an old table could not point to the new: %s", table.game_id, error)
        link = message_link(table.guild_id, table.channel_id, current)
        await reply(interaction, text(interaction.locale, "error.table_moved", link=link))
        self.presenter.clicked(table, interaction, followups=1)
        return True

    async def handle_move(self, interaction: Interaction, cid: MoveId, found: Table | None) -> None:
        table = await self._running(interaction, cid.game_id, found)
        if table is not None:
            await self.move(interaction, table, cid)

    async def _running(
        self, interaction: Interaction, game_id: int, table: Table | None
    ) -> Table | None:
        """``table`` if its game is being played; else None, and the click is answered:
        a player of a game that is over is shown how it ended (``show_end``)."""
        if table is not None and table.status is Status.RUNNING:
            await self._gone_from_the_group(interaction, table)
            return table
        if table is None or not table.live:
            await show_end(interaction, self.bot.service, self.bot.faces, game_id)
        else:  # a lobby's id on a hand's button: forged
            await reply(interaction, text(interaction.locale, "error.game_gone"))
        return None

    async def _gone_from_the_group(self, interaction: Interaction, table: Table) -> None:
        """A player who left the group DM the game is in has left the game: an AI
        takes their seat, as with /lama leave (seen at the next click there)."""
        playing = [
            seat.user_id
            for seat in table.seats
            if seat.user_id is not None and seat.controller is None
        ]
        for user_id in left_the_group(interaction, playing):
            log.info("game %s: a player left its group DM", table.game_id)
            try:
                await self.bot.service.seats.leave_game(table, user_id)
            except ServiceError as error:
                log.warning("game %s: could not seat an AI for them: %s", table.game_id, error)

    async def show_hand(self, interaction: Interaction, table: Table) -> None:
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await reply(interaction, text(interaction.locale, "error.not_a_player"))
            return
        await self._send_hand(interaction, table, seat)

    async def _send_hand(
        self, interaction: Interaction, table: Table, seat: int, note: str | None = None
    ) -> None:
        locale = str(interaction.locale)
        if table.live and table.seats[seat].controller is not None:
            # The AI's cards are its own: someone who left, was kicked or is away
            # sees none of them (the away player gets the way back instead).
            self.presenter.drop_hand(table.game_id, interaction.user.id)
            await respond_hand(interaction, v2_payload(seat_taken_view(table, seat, locale)))
            return
        # Every click carries the bot's permissions in this channel: the one way
        # to tell players that the table and the pings have stopped, and why.
        # (Attach Files is only for the chart at the end, not for the table.)
        missing = [p for p in missing_table_permissions(interaction) if p != "attach_files"]
        warning = None
        if missing:
            warning = missing_permissions_text(locale, "hand.table_blocked", missing)
        hand = v2_payload(hand_view(table, seat, locale, self.bot.faces, note, warning))
        shown = await respond_hand(interaction, hand)
        self.presenter.opened_hand(table, interaction.user.id, interaction, warning, shown)

    async def move(self, interaction: Interaction, table: Table, cid: MoveId) -> None:
        """The click's move at ``table``: the service checks who moves, and the answer is
        the hand after the move (or, refused, the hand again saying why)."""
        action: Action
        if cid.action == "play":
            assert cid.card is not None
            action = PLAY[cid.card]
        else:
            action = DRAW if cid.action == "draw" else QUIT
        # Its answer shows the hand after the move: the open hand needn't be refreshed
        # for the turn being over as well.
        self.presenter.moving(table.game_id, interaction.user.id)
        moving = self.bot.service.moves.move(table, interaction.user.id, action, cid.stamp)
        try:
            # Another move being saved (or a slow store): acknowledged meanwhile.
            outcome = await in_time(interaction, moving)
        except MoveRefused as refused:
            if refused.key == "error.stale" and table.status is not Status.RUNNING:
                await reply_error(interaction, refused)  # the game ended meanwhile
                return
            note = error_text(interaction.locale, refused, table.ruleset)
            await self._send_hand(interaction, table, refused.seat, note=note)
            return
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        await self._send_hand(interaction, table, outcome.seat)

    async def come_back(self, interaction: Interaction, table: Table) -> None:
        # Pressed on the table (not on the away hand), the hand comes as a new private
        # message: acknowledged while the store is slow, the table must not become it.
        message = interaction.message
        anew = message is None or not message.flags.ephemeral
        try:
            seat = await in_time(
                interaction,
                self.bot.service.seats.come_back(table, interaction.user.id),
                anew=anew,
            )
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        await self._send_hand(interaction, table, seat, note=text(interaction.locale, "back.done"))


async def setup(bot: CogHost) -> None:
    await bot.add_cog(GameplayCommands(bot))
