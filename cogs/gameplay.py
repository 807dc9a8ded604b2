"""Playing: the table message, private hands and the move buttons."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.frontend.open_hands import hand_payload
from bot.frontend.presenter import Presenter
from bot.i18n import text
from bot.service import ServiceError
from bot.service.table import Status, Table
from game import DRAW, PLAY, QUIT, Action, IllegalMove

from . import render
from .components import DYNAMIC_ITEMS, SEAT_ACTION, ComponentId, LamaButton, table_id
from .glue import (
    Interaction,
    LamaCog,
    can_manage,
    defer_private,
    error_text,
    missing_permissions_text,
    missing_table_permissions,
    reply,
    reply_error,
)

if TYPE_CHECKING:
    from bot.client import LamaBot

log = logging.getLogger(__name__)


class Gameplay(LamaCog):
    def __init__(self, bot: LamaBot) -> None:
        super().__init__(bot)
        self.presenter: Presenter = bot.presenter  # built in LamaBot.setup_hook

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.presenter.restore_hands()
        await self.presenter.take_down_left()

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)
        await super().cog_unload()

    # ------------------------------------------------------------ places gone
    # A table whose channel, thread or server is gone can't be shown or played:
    # its game ends, and its clocks and Discord calls with it.
    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.bot.service.abandon_where(channel_id=channel.id)
        # Its threads went with it (those the bot saw, anyway).
        for thread in getattr(channel, "threads", ()):
            await self.bot.service.abandon_where(channel_id=thread.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.bot.service.abandon_where(channel_id=payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.bot.service.abandon_where(guild_id=guild.id)

    # ------------------------------------------------------------ commands
    @app_commands.command(
        name="hand", description="Show your hand privately, with your move buttons."
    )
    async def hand_command(self, interaction: Interaction) -> None:
        table = self.bot.service.table_in(interaction.channel_id or 0)
        if table is None or table.status is not Status.RUNNING:
            await reply(interaction, text(interaction.locale, "error.no_game_here"))
            return
        await self.show_hand(interaction, table)

    @app_commands.command(
        name="rules", description="A short summary of the rules and the variants in use."
    )
    async def rules_command(self, interaction: Interaction) -> None:
        table = self.bot.service.table_in(interaction.channel_id or 0)
        await reply(
            interaction,
            render.rules_text(str(interaction.locale), table.ruleset if table else None),
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
        table = self.bot.service.table_in(interaction.channel_id or 0)
        if table is None or table.status is not Status.RUNNING:
            await reply(interaction, text(interaction.locale, "error.no_game_here"))
            return
        await defer_private(interaction)  # the kick may end the game, which takes a while
        try:
            await self.bot.service.kick(
                table.game_id, interaction.user.id, member.id, can_manage=can_manage(interaction)
            )
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        await reply(
            interaction,
            text(
                interaction.locale,
                "kick.done",
                name=discord.utils.escape_markdown(member.display_name),
            ),
        )

    # ------------------------------------------------------------ buttons
    async def handle_component(self, interaction: Interaction, cid: ComponentId) -> None:
        table = self.bot.service.table(cid.game_id)
        if cid.action == "rules":
            ruleset = table.ruleset if table else None
            await reply(interaction, render.rules_text(str(interaction.locale), ruleset))
            return
        if table is None or table.status is not Status.RUNNING:
            await reply(interaction, text(interaction.locale, "error.game_gone"))
            return
        if cid.action in ("hand", SEAT_ACTION):
            # A seat's card count can't be pressed; a forged click on it gets what
            # the table can show anyone privately: their own hand.
            await self.show_hand(interaction, table)
        elif cid.action == "back":
            await self.come_back(interaction, table)
        else:
            await self.move(interaction, table, cid)

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
            self.presenter.hands.pop((table.game_id, interaction.user.id), None)
            await self._respond(interaction, seat_taken_payload(table, seat, locale))
            return
        # Every click carries the bot's permissions in this channel: the one way
        # to tell players that the table and the pings have stopped, and why.
        # (Attach Files is only for the chart at the end, not for the table.)
        missing = [p for p in missing_table_permissions(interaction) if p != "attach_files"]
        warning = None
        if missing:
            warning = missing_permissions_text(locale, "hand.table_blocked", missing)
        hand = hand_payload(table, seat, locale, self.bot.faces, note, warning)
        shown = await self._respond(interaction, hand)
        self.presenter.opened_hand(table, interaction.user.id, interaction, warning, shown)

    @staticmethod
    async def _respond(interaction: Interaction, payload: dict[str, Any]) -> int | None:
        """Show a private hand: in place of the hand clicked, else as a new reply.
        Returns the id of the message that shows it."""
        message = interaction.message
        if message is not None and message.flags.ephemeral and not interaction.response.is_done():
            callback = await interaction.response.edit_message(**payload)
            return callback.message_id if callback is not None else message.id
        if interaction.response.is_done():
            return (await interaction.edit_original_response(**payload)).id
        return (await interaction.response.send_message(**payload, ephemeral=True)).message_id

    async def move(self, interaction: Interaction, table: Table, cid: ComponentId) -> None:
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await reply(interaction, text(interaction.locale, "error.not_a_player"))
            return
        action: Action
        if cid.action == "play":
            assert cid.card is not None
            action = PLAY[cid.card]
        else:
            action = DRAW if cid.action == "draw" else QUIT
        if table.lock.locked():
            # Someone else's move is being saved; answer Discord in time.
            await interaction.response.defer()
        try:
            await self.bot.service.move(table.game_id, interaction.user.id, action, cid.stamp or 0)
        except ServiceError as error:
            if error.key == "error.stale" and table.status is Status.RUNNING:
                await self._send_hand(
                    interaction,
                    table,
                    seat,
                    note=error_text(interaction.locale, error, table.ruleset),
                )
            else:
                await reply_error(interaction, error)
            return
        except IllegalMove as error:
            await self._send_hand(
                interaction, table, seat, note=error_text(interaction.locale, error, table.ruleset)
            )
            return
        await self._send_hand(interaction, table, seat)

    async def come_back(self, interaction: Interaction, table: Table) -> None:
        try:
            await self.bot.service.come_back(table.game_id, interaction.user.id)
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        seat = table.seat_of(interaction.user.id)
        assert seat is not None
        await self._send_hand(interaction, table, seat, note=text(interaction.locale, "back.done"))


def seat_taken_payload(table: Table, seat: int, locale: str) -> dict[str, Any]:
    """What a player whose seat an AI plays sees instead of their hand: no cards."""
    away = table.seats[seat].ai is None  # else kicked, or left: for the rest of the game
    why = text(locale, "hand.away" if away else "hand.ai_seat")
    container: discord.ui.Container[Any] = discord.ui.Container(
        discord.ui.TextDisplay(f"## {text(locale, 'hand.title')}\n{why}"),
        accent_colour=discord.Colour.dark_grey(),
    )
    if away:
        back = LamaButton.make(
            table_id("back", table.game_id),
            text(locale, "button.back"),
            discord.ButtonStyle.success,
        )
        container.add_item(discord.ui.ActionRow(back))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    return {"content": None, "embeds": [], "view": view}


async def setup(bot: LamaBot) -> None:
    await bot.add_cog(Gameplay(bot))
