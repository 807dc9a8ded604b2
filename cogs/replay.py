"""Replay commands: /lama replay and its buttons, and /lama history with a 🎬 Replay per game.

A replay is always private, and shows a game only to who may see it: anyone who can
see the game's channel now, and its players (:func:`~bot.frontend.views.stats.audience`).
That is checked on the command and again on every click, since a replay's buttons carry
the game and the step in their id, and anyone can craft one. A game that doesn't
exist, isn't finished, is another server's or hidden from the asker gets the one same
answer, so nobody learns which.
"""

from __future__ import annotations

import datetime

import discord
from discord import app_commands

from bot.frontend.cog_host import CogHost
from bot.frontend.cooldowns import too_soon
from bot.frontend.custom_ids import ReplayId, fits_store
from bot.frontend.places import place_of
from bot.frontend.replies import Interaction, reply, send_view
from bot.frontend.seen import read_in_sight
from bot.frontend.views.history import HISTORY_SIZE, history_view
from bot.frontend.views.replay import replay_view
from bot.frontend.views.stats import Audience
from bot.frontend.words import plain_name
from bot.i18n import text
from bot.service import ServiceError
from bot.service.history.replay import Replay
from data.records import EVERYTHING, HistoryRow, Sight

from .lama_cog import LamaCog

#: Games the autocomplete of /lama replay offers: the asker's latest.
CHOICES = 10


class ReplayCommands(LamaCog, name="Replay"):
    """Finished games again, move by move, for whoever may see them."""

    async def cog_load(self) -> None:
        await super().cog_load()
        self.route(ReplayId, self.handle_button)

    # ------------------------------------------------------------ /lama replay
    @app_commands.command(
        name="replay", description="A finished game again, move by move, every hand open."
    )
    @app_commands.describe(
        game="The game's number, from /lama history (default: your latest finished game here)"
    )
    async def replay_command(
        self,
        interaction: Interaction,
        game: app_commands.Range[int, 1, 2**53 - 1] | None = None,
    ) -> None:
        if await too_soon(interaction, self.bot.service.cooldowns, "stats"):
            return
        locale = str(interaction.locale)
        if game is not None and not fits_store(game):  # Discord checks the range, we too
            await reply(interaction, text(locale, "replay.unknown", game=game))
            return
        guild_id = place_of(interaction)

        async def read(seen: Audience) -> tuple[int | None, Replay | None]:
            chosen = game
            if chosen is None:
                latest = await self.stats.history(
                    guild_id, interaction.user.id, limit=1, sight=seen.sight
                )
                if not latest:
                    return None, None
                chosen = latest[0].game_id
            return chosen, await self._replay(interaction, chosen, seen.sight)

        # A replay not kept is rebuilt from the store: acknowledged meanwhile (privately,
        # as a replay always is) when that is slow.
        done = await read_in_sight(
            interaction,
            self.bot.service,
            read,
            cooldown=None,  # taken before the number was checked
            failed="replay.failed",
            private=True,
        )
        if done is None:
            return
        _, (chosen, replay) = done
        if chosen is None:
            await reply(interaction, text(locale, "replay.none"))
            return
        if replay is None:
            await reply(interaction, text(locale, "replay.unknown", game=chosen))
            return
        await send_view(interaction, replay_view(replay, 0, locale, self.bot.faces), ephemeral=True)

    @replay_command.autocomplete("game")
    async def game_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """The asker's latest finished games here (always theirs to see), by number."""
        try:
            # Their own games: always theirs to see, wherever they were played.
            rows = await self.stats.history(
                place_of(interaction), interaction.user.id, limit=25, sight=EVERYTHING
            )
        except ServiceError:
            return []  # nothing offered; the number can still be typed
        locale = str(interaction.locale)
        typed = current.strip().lstrip("#")
        choices = []
        for row in rows:
            if typed and not str(row.game_id).startswith(typed):
                continue
            day = datetime.datetime.fromtimestamp(row.finished_at, datetime.UTC).date()
            name = text(
                locale,
                "replay.choice",
                game=row.game_id,
                date=day.isoformat(),
                place=row.place,
                players=row.players,
            )
            choices.append(app_commands.Choice(name=name[:100], value=row.game_id))
        return choices[:CHOICES]

    # ------------------------------------------------------------ its buttons
    async def handle_button(self, interaction: Interaction, cid: ReplayId) -> None:
        """A step of a replay (edited in place), or a new private replay (``open``)."""
        locale = str(interaction.locale)

        async def read(seen: Audience) -> Replay | None:
            return await self._replay(interaction, cid.game_id, seen.sight)

        done = await read_in_sight(
            interaction,
            self.bot.service,
            read,
            cooldown="stats" if cid.action == "open" else None,  # paging on waits for nobody
            failed="replay.failed",
            private=True,
        )
        if done is None:
            return
        _, replay = done
        if replay is None:
            await reply(interaction, text(locale, "replay.unknown", game=cid.game_id))
            return
        if cid.step > replay.last:  # a forged id, or one made up by hand
            steps = replay.last + 1
            await reply(
                interaction,
                text(locale, "replay.no_step", game=cid.game_id, step=cid.step + 1, count=steps),
            )
            return
        view = replay_view(replay, cid.step, locale, self.bot.faces)
        # Only a private replay is paged in place; any other message (a finished table, a
        # history, a copied button) gets a private replay of its own: a replay is never shown
        # to a channel.
        message = interaction.message
        private = message is not None and message.flags.ephemeral
        if cid.action == "open" or not private:
            if interaction.response.is_done():
                await interaction.followup.send(view=view, ephemeral=True)
            else:
                await interaction.response.send_message(view=view, ephemeral=True)
        elif interaction.response.is_done():
            await interaction.edit_original_response(view=view)
        else:
            await interaction.response.edit_message(view=view)

    async def _replay(self, interaction: Interaction, game_id: int, sight: Sight) -> Replay | None:
        """The replay of ``game_id`` if it is a finished game of this server in ``sight``."""
        guild_id = place_of(interaction)
        # A game they may not see is answered as one that doesn't exist: no probing.
        if await self.stats.finished_game_channel(guild_id, game_id, sight=sight) is None:
            return None
        return await self.bot.service.replays.replay(
            game_id, guild_id=guild_id, person=interaction.user.id
        )

    # ------------------------------------------------------------ /lama history
    @app_commands.command(
        name="history",
        description="Recent finished L.A.M.A. games in this server, yours or a member's.",
    )
    @app_commands.describe(member="Whose games to show (default: you)")
    async def history_command(
        self,
        interaction: Interaction,
        # A user, not a member: the games of a player who left the server stay theirs.
        member: discord.User | None = None,
    ) -> None:
        who = member or interaction.user
        locale = str(interaction.locale)
        guild_id = place_of(interaction)

        async def read(seen: Audience) -> list[HistoryRow]:
            return await self.stats.history(guild_id, who.id, limit=HISTORY_SIZE, sight=seen.sight)

        done = await read_in_sight(
            interaction, self.bot.service, read, cooldown="stats", failed="stats.failed"
        )
        if done is None:
            return
        seen, rows = done
        if not rows:
            if who.id == interaction.user.id:
                nobody = text(locale, "stats.none_self")
            else:
                nobody = text(locale, "stats.none_member", name=plain_name(who.display_name))
            await reply(interaction, nobody)
            return
        view = history_view(locale, self.bot.faces, who.display_name, rows)
        await send_view(interaction, view, ephemeral=seen.private)


async def setup(bot: CogHost) -> None:
    await bot.add_cog(ReplayCommands(bot))
