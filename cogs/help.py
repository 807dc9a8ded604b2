"""/lama help: privately, in the person's language, what the bot does and their commands."""

from __future__ import annotations

from collections.abc import Iterator

from discord import app_commands

from bot.frontend.cog_host import CogHost
from bot.frontend.permissions import can_manage
from bot.frontend.replies import Interaction, send_view
from bot.frontend.views.help import Listed, help_view

from .lama_cog import LamaCog

#: The /lama commands only members with Manage Server may use: listed for admins alone.
ADMIN_ONLY = frozenset({"settings", "export"})

#: The order a player meets the commands in a game; a command not named here (a new one)
#: follows them, so that none is left out.
PLAYER_ORDER = (
    "new",
    "join",
    "start",
    "hand",
    "hint",
    "leave",
    "review",
    "rules",
    "stats",
    "leaderboard",
    "history",
    "replay",
    "chart",
    "kick",
    "cancel",
)


def listed(group: app_commands.Group) -> Iterator[Listed]:
    """Every command under ``group`` with its path and (English) description."""
    for item in group.commands:
        if isinstance(item, app_commands.Group):
            for sub in listed(item):
                yield (group.name, *sub[0]), sub[1]
        else:
            yield (group.name, item.name), item.description


def player_rank(entry: Listed) -> int:
    name = entry[0][1]
    return PLAYER_ORDER.index(name) if name in PLAYER_ORDER else len(PLAYER_ORDER)


class Help(LamaCog):
    """The /lama help command, read from the live command tree: it can't miss a command."""

    @app_commands.command(
        name="help", description="What the bot does and the commands for you; only you see it."
    )
    async def help_command(self, interaction: Interaction) -> None:
        every = [entry for entry in listed(self.bot.lama) if entry[0][1] != "help"]
        players = sorted((e for e in every if e[0][1] not in ADMIN_ONLY), key=player_rank)
        admins = [e for e in every if e[0][1] in ADMIN_ONLY] if can_manage(interaction) else []
        shown = help_view(interaction.locale, players, admins, self.bot.settings.docs_url)
        await send_view(interaction, shown, ephemeral=True)


async def setup(bot: CogHost) -> None:
    await bot.add_cog(Help(bot))
