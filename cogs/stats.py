"""Stats commands: /lama stats, leaderboard and chart, and the leaderboard's paging.

Everything here reads finished games of one server through the service, only those
the asker may see (:func:`~bot.frontend.views.stats.audience`), and answers privately
when some of them are from a channel not everyone reading here may see; the messages
are drawn by :mod:`bot.frontend.views.stats`, ``.leaderboard`` and ``.player_stats``.

The leaderboard ranks by rating in a season (the current one by default), all time or,
where the server rates games with house rules apart, on their own board; the old orders
(wins, win rate, average) count every finished game over all time, so a season asked
with one of them is refused, saying so.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.frontend.cog_host import CogHost
from bot.frontend.cooldowns import too_soon
from bot.frontend.custom_ids import BoardId, fits_store, stored_number
from bot.frontend.places import place_of
from bot.frontend.replies import Interaction, reply, send_view
from bot.frontend.seen import read_in_sight
from bot.frontend.views.layout import Layout
from bot.frontend.views.leaderboard import (
    ALL,
    HOUSE,
    RATING,
    Boards,
    Scope,
    board_page,
    notice_view,
)
from bot.frontend.views.player_stats import Ratings, rating_file, rating_png, stats_view
from bot.frontend.views.stats import (
    Audience,
    chart_file,
    finished_chart,
)
from bot.frontend.words import plain_name, season_label
from bot.i18n import text
from bot.service import ServiceError
from bot.service.house_rules import OWN
from data.records import ALL_TIME, HOUSE_RULES, PlayerStats

from .lama_cog import LamaCog

log = logging.getLogger(__name__)

#: A chart's layout, its picture, and whether it is private.
Chart = tuple[Layout, bytes, bool]

#: The season option's values beside a season's key.
CURRENT = "current"
ALL_CHOICE = "all"
HOUSE_CHOICE = "house"


class StatsCommands(LamaCog, name="Stats"):
    """Numbers from finished games: per player, per server and per game."""

    async def cog_load(self) -> None:
        await super().cog_load()
        self.route(BoardId, self.handle_button)

    @app_commands.command(
        name="stats", description="Your L.A.M.A. stats in this server, or a member's."
    )
    @app_commands.describe(member="Whose stats to show (default: you)")
    async def stats_command(
        self,
        interaction: Interaction,
        # A user, not a member: the games of a player who left the server stay theirs.
        member: discord.User | None = None,
    ) -> None:
        who = member or interaction.user
        locale = interaction.locale
        guild_id = place_of(interaction)

        async def read(seen: Audience) -> tuple[PlayerStats | None, Ratings | None, bytes | None]:
            stats = await self.stats.player_stats(guild_id, who.id, sight=seen.sight)
            ratings = await self._ratings_of(guild_id, who.id, seen, locale)
            if stats is None and ratings.all_time is None and ratings.house_rules is None:
                return None, None, None
            return stats, ratings, await rating_png(locale, ratings)

        # ~8 reads and a picture: the games, the seasons, the ratings.
        done = await read_in_sight(
            interaction, self.bot.service, read, cooldown="stats", failed="stats.failed"
        )
        if done is None:
            return
        seen, (stats, ratings, png) = done
        if ratings is None:  # no finished game and no rating (one they left is rated)
            await reply(interaction, self._nobody(interaction, who), ephemeral=True)
            return
        shown = stats_view(
            locale, self.bot.faces, who.display_name, stats, ratings, chart=png is not None
        )
        await send_view(
            interaction,
            shown,
            ephemeral=seen.private,
            file=None if png is None else rating_file(png),
        )

    async def _ratings_of(
        self, guild_id: int, user_id: int, seen: Audience, locale: object
    ) -> Ratings:
        """A person's ratings this season and all time, and their history in ``seen``."""
        season = await self.bot.service.seasons.current(guild_id)
        label = season_label(locale, season.start, season.end)
        ratings = self.bot.service.ratings
        return Ratings(
            season_label=text(locale, "board.season_current", season=label),
            season=await ratings.rating_of(guild_id, season.key, user_id, sight=seen.sight),
            all_time=await ratings.rating_of(guild_id, ALL_TIME, user_id, sight=seen.sight),
            season_history=await ratings.history(guild_id, season.key, user_id, sight=seen.sight),
            all_time_history=await ratings.history(guild_id, ALL_TIME, user_id, sight=seen.sight),
            house_rules=await ratings.rating_of(guild_id, HOUSE_RULES, user_id, sight=seen.sight),
        )

    @app_commands.command(
        name="leaderboard", description="The best L.A.M.A. players in this server."
    )
    @app_commands.describe(
        order="How to rank the players (default: by rating)",
        season="Which season's ratings (default: the current one)",
    )
    @app_commands.choices(
        order=[
            app_commands.Choice(name="Rating", value="rating"),
            app_commands.Choice(name="Wins", value="wins"),
            app_commands.Choice(name="Win rate", value="win_rate"),
            app_commands.Choice(name="Average score", value="average"),
        ]
    )
    async def leaderboard_command(
        self,
        interaction: Interaction,
        order: app_commands.Choice[str] | None = None,
        season: str | None = None,
    ) -> None:
        locale = interaction.locale
        chosen = order.value if order is not None else RATING
        guild_id = place_of(interaction)
        if chosen != RATING and season is not None and season != ALL_CHOICE:
            # The old orders count every finished game, over all time only. Said before
            # the wait starts: nothing is read, and the board asked again at once is shown.
            await reply(interaction, text(locale, "board.season_old_order"))
            return

        async def read(seen: Audience) -> tuple[str | None, Layout | None] | None:
            scope = await self._scope(guild_id, season) if chosen == RATING else ALL
            if scope is None:
                return None
            return await self._page(guild_id, chosen, scope, 0, locale, seen)

        done = await read_in_sight(
            interaction, self.bot.service, read, cooldown="stats", failed="stats.failed"
        )
        if done is None:
            return
        seen, page = done
        if page is None:
            await reply(interaction, text(locale, "season.unknown"))
            return
        message, shown = page
        if shown is None:
            await reply(interaction, message or "", ephemeral=True)
            return
        await self._send_board(interaction, shown, ephemeral=seen.private)

    @leaderboard_command.autocomplete("season")
    async def season_choices(
        self, interaction: Interaction, typed: str
    ) -> list[app_commands.Choice[str]]:
        """The current season, all time, and the seasons rated here, newest first, by
        their dates in the person's language."""
        locale = interaction.locale
        guild_id = place_of(interaction)
        try:
            current = await self.bot.service.seasons.current(guild_id)
            keys = await self.bot.service.ratings.rated_seasons(guild_id)
            # One read of the plans for them all; a key that starts no season is left out.
            seasons = await self.bot.service.seasons.of_keys(guild_id, keys)
        except ServiceError as error:
            log.warning("seasons could not be read: %s", error)
            return []
        label = season_label(locale, current.start, current.end)
        choices = [
            app_commands.Choice(
                name=text(locale, "board.season_current", season=label), value=CURRENT
            ),
            app_commands.Choice(name=text(locale, "board.all_time"), value=ALL_CHOICE),
        ]
        if HOUSE_RULES in keys:
            house = text(locale, "board.house_rules")
            choices.append(app_commands.Choice(name=house, value=HOUSE_CHOICE))
        choices += [
            app_commands.Choice(name=season_label(locale, s.start, s.end), value=str(s.key))
            for s in seasons
            if s.key != current.key
        ]
        wanted = typed.casefold().strip()
        return [c for c in choices if wanted in c.name.casefold() or wanted == c.value][:25]

    @app_commands.command(
        name="chart", description="Every player's points round by round in a finished game."
    )
    @app_commands.describe(
        game_id="The game's number, from /lama history (default: your latest, else the server's)"
    )
    async def chart_command(
        self,
        interaction: Interaction,
        game_id: app_commands.Range[int, 1, 2**53 - 1] | None = None,
    ) -> None:
        if await too_soon(interaction, self.bot.service.cooldowns, "chart"):
            return
        locale = interaction.locale
        guild_id = place_of(interaction)
        if game_id is not None and not fits_store(game_id):  # Discord checks the range, we too
            await reply(interaction, text(locale, "chart.unknown", game=game_id))
            return

        async def read(seen: Audience) -> tuple[int | None, Chart | None]:
            chosen = game_id
            note: str | None = None  # says so when the chart is not the asker's own game
            if chosen is None:
                # The asker's latest finished game here, else the server's latest they may see.
                latest = await self.stats.history(
                    guild_id, interaction.user.id, limit=1, sight=seen.sight
                )
                if latest:
                    chosen = latest[0].game_id
                else:
                    chosen = await self.stats.latest_finished_game(guild_id, sight=seen.sight)
                    note = text(locale, "chart.server_latest")
                if chosen is None:
                    return None, None
            # A game they may not see is answered as one that doesn't exist: no probing.
            place = await self.stats.finished_game_channel(guild_id, chosen, sight=seen.sight)
            if place is None:
                return chosen, None
            chart = await finished_chart(
                self.bot.service, self.bot.faces, chosen, locale, guild_id=guild_id, note=note
            )
            return chosen, None if chart is None else (*chart, place in seen.private_channels)

        # Reads and a picture; acknowledged as privately as the answer may be (a game from
        # a private channel is in sight only when seen.private is).
        done = await read_in_sight(
            interaction,
            self.bot.service,
            read,
            cooldown=None,  # taken before the number was checked
            failed="stats.failed",
        )
        if done is None:
            return
        _, (chosen, chart) = done
        if chosen is None:
            await reply(interaction, text(locale, "chart.none"))
            return
        if chart is None:
            await reply(interaction, text(locale, "chart.unknown", game=chosen))
            return
        shown, png, private = chart
        await send_view(interaction, shown, ephemeral=private, file=chart_file(png))

    # ------------------------------------------------------------ buttons
    async def handle_button(self, interaction: Interaction, cid: BoardId) -> None:
        """Previous/Next on a leaderboard: show that page in the same message."""
        locale = interaction.locale
        if cid.guild_id != place_of(interaction):
            await reply(interaction, text(locale, "error.unknown_button"))
            return

        async def read(seen: Audience) -> tuple[str | None, Layout | None] | None:
            scope = ALL
            if cid.order == RATING and cid.season == HOUSE_RULES:
                scope = HOUSE
            elif cid.order == RATING and cid.season != ALL_TIME:
                try:
                    season = await self.bot.service.seasons.of_key(cid.guild_id, cid.season)
                except ServiceError as error:
                    if error.key != "season.unknown":  # the seasons unread: the store failed
                        raise
                    return None  # a season this server never had: a forged id
                scope = Scope(season.key, season.start, season.end)
            return await self._page(cid.guild_id, cid.order, scope, cid.page, locale, seen)

        done = await read_in_sight(
            interaction, self.bot.service, read, cooldown="page", failed="stats.failed"
        )
        if done is None:
            return
        seen, page = done
        if page is None:
            await reply(interaction, text(locale, "error.unknown_button"))
            return
        private, (message, shown) = seen.private, page
        shared = interaction.message is not None and not interaction.message.flags.ephemeral
        if private and shared:
            # Their page holds games not everyone here may see: theirs alone, not an edit.
            if shown is None:
                await reply(interaction, message or "", ephemeral=True)
            else:
                await self._send_board(interaction, shown, ephemeral=True)
            return
        edit = (
            interaction.edit_original_response
            if interaction.response.is_done()
            else interaction.response.edit_message
        )
        # A Components V2 message stays one: an emptied board says so in a layout.
        layout = shown if shown is not None else notice_view(message or "")
        before = interaction.message
        if before is not None and not before.flags.components_v2:
            # A board posted before the new look: its embed and text go, the layout comes.
            await edit(content=None, embeds=[], view=layout)
            return
        await edit(view=layout)

    # ------------------------------------------------------------ helpers
    async def _scope(self, guild_id: int, season: str | None) -> Scope | None:
        """The ratings a board shows: the current season (by default), all time, or a
        season by its key; None for a season that is not one of this server's."""
        if season == ALL_CHOICE:
            return ALL
        if season == HOUSE_CHOICE:
            return HOUSE
        if season is None or season == CURRENT:
            found = await self.bot.service.seasons.current(guild_id)
        else:
            key = stored_number(season)
            if key is None:
                return None
            try:
                found = await self.bot.service.seasons.of_key(guild_id, key)
            except ServiceError:  # no season of this server starts then
                return None
        return Scope(found.key, found.start, found.end)

    async def _page(
        self,
        guild_id: int,
        order: str,
        scope: Scope,
        page: int,
        locale: object,
        seen: Audience,
    ) -> tuple[str | None, Layout | None]:
        service = self.bot.service
        boards = await self._boards(guild_id, scope) if order == RATING else Boards()
        message, shown = await board_page(
            service.stats,
            service.ratings,
            guild_id,
            order,
            scope,
            page,
            locale,
            self.bot.faces,
            sight=seen.sight,
            boards=boards,
        )
        if shown is None and boards.other is not None:  # nobody here: the other board?
            message = f"{message}\n" + text(
                locale, "board.other_board", board=boards.other.label(locale)
            )
        return message, shown

    async def _boards(self, guild_id: int, scope: Scope) -> Boards:
        """Where the server rates games with house rules, and the board to offer beside
        ``scope``'s: the server's this season from the house-rules board; the house-rules
        board from the server's, once anyone is rated on it."""
        service = self.bot.service
        own = await service.house_rules.board(guild_id) == OWN
        if scope.key == HOUSE_RULES:
            season = await service.seasons.current(guild_id)
            return Boards(own, Scope(season.key, season.start, season.end))
        has_house = await service.ratings.has_ratings(guild_id, HOUSE_RULES)
        return Boards(own, HOUSE if has_house else None)

    @staticmethod
    async def _send_board(interaction: Interaction, shown: Layout, *, ephemeral: bool) -> None:
        await send_view(interaction, shown, ephemeral=ephemeral)

    @staticmethod
    def _nobody(interaction: Interaction, who: discord.abc.User) -> str:
        if who.id == interaction.user.id:
            return text(interaction.locale, "stats.none_self")
        return text(interaction.locale, "stats.none_member", name=plain_name(who.display_name))


async def setup(bot: CogHost) -> None:
    await bot.add_cog(StatsCommands(bot))
