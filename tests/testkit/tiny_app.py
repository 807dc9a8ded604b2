"""A tiny discord.py app for the play-anywhere kit's tests: a /play group, a table with buttons.

Installable to servers and to people, usable in every context, synced globally: what issue 41
asks of /lama. It keeps each interaction it got, and each HTTP error its calls met, so a test
can say what discord.py saw and what Discord answered.
"""

from __future__ import annotations

import discord
from discord import app_commands


class Table(discord.ui.View):
    """The table's buttons, persistent so they answer after a restart too."""

    def __init__(self, app: TinyApp) -> None:
        super().__init__(timeout=None)
        self.app = app

    @discord.ui.button(label="Move", custom_id="tiny:move")
    async def move(
        self, interaction: discord.Interaction, button: discord.ui.Button[Table]
    ) -> None:
        """Edits the table it is on (callback type 7): one interaction-token call."""
        self.app.seen.append(interaction)
        await interaction.response.edit_message(content=f"moved by {interaction.user.name}")

    @discord.ui.button(label="Refresh", custom_id="tiny:refresh")
    async def refresh(
        self, interaction: discord.Interaction, button: discord.ui.Button[Table]
    ) -> None:
        """Acknowledges, then edits the table through the token of the /play open that made it."""
        self.app.seen.append(interaction)
        await interaction.response.defer()
        await self.app.guarded(self.app.opener().edit_original_response(content="refreshed"))

    @discord.ui.button(label="Ping", custom_id="tiny:ping")
    async def ping(
        self, interaction: discord.Interaction, button: discord.ui.Button[Table]
    ) -> None:
        """Acknowledges, then sends a followup on the opener's token."""
        self.app.seen.append(interaction)
        await interaction.response.defer()
        await self.app.guarded(self.app.opener().followup.send("your turn"))

    @discord.ui.button(label="Shout", custom_id="tiny:shout")
    async def shout(
        self, interaction: discord.Interaction, button: discord.ui.Button[Table]
    ) -> None:
        """Acknowledges, then posts with the bot token in the channel."""
        self.app.seen.append(interaction)
        await interaction.response.defer()
        channel = interaction.channel
        assert isinstance(channel, discord.abc.Messageable)
        await self.app.guarded(channel.send("hello from the bot token"))


class TinyApp(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.seen: list[discord.Interaction] = []
        self.failures: list[discord.HTTPException] = []
        self.openers: list[discord.Interaction] = []
        # On the group: discord.py ignores these two on subcommands (Discord reads them on the
        # top-level command only).
        play = app_commands.Group(
            name="play",
            description="Play here",
            allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
            allowed_contexts=app_commands.AppCommandContext(
                guild=True, dm_channel=True, private_channel=True
            ),
        )

        @play.command(name="open", description="Open a table")
        async def open_table(interaction: discord.Interaction) -> None:
            self.seen.append(interaction)
            self.openers.append(interaction)
            await interaction.response.send_message("the table", view=Table(self))

        @play.command(name="followups", description="Answer, then send followups")
        async def followups(interaction: discord.Interaction, count: int) -> None:
            self.seen.append(interaction)
            self.openers.append(interaction)
            await interaction.response.send_message("answer")
            for n in range(count):
                await self.guarded(interaction.followup.send(f"followup {n + 1}"))
            await self.guarded(interaction.edit_original_response(content="answer, edited"))

        @app_commands.command(name="settings", description="Only where the bot is a member")
        @app_commands.allowed_installs(guilds=True, users=False)
        @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
        async def settings(interaction: discord.Interaction) -> None:
            self.seen.append(interaction)
            await interaction.response.send_message("settings")

        self.tree.add_command(play)
        self.tree.add_command(settings)

    def opener(self) -> discord.Interaction:
        return self.openers[-1]

    async def guarded(self, call: object) -> None:
        """Await a REST call; keep its HTTP error instead of raising (Discord's answer)."""
        try:
            await call  # type: ignore[misc]
        except discord.HTTPException as exc:
            self.failures.append(exc)

    async def setup_hook(self) -> None:
        self.add_view(Table(self))
        await self.tree.sync()
