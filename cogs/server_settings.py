"""Server settings commands: /lama settings language, turn_timer, hints, channels and more.

Also season, rules (saved house rules), house_board (where games with house rules are
rated) and show.
"""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import MAX_TURN_TIMER, MIN_TURN_TIMER
from bot.frontend.cog_host import CogHost
from bot.frontend.custom_ids import stored_number
from bot.frontend.house_choices import edition_choices, rule_choices, saved_choices
from bot.frontend.listed_channels import forget_channel, settings_of
from bot.frontend.permissions import can_manage, missing_in_channel, missing_permissions_text
from bot.frontend.places import bot_member
from bot.frontend.replies import Interaction, in_time, reply, reply_error, time_left
from bot.frontend.views.house_rules import (
    Refusal,
    composed,
    refusal_text,
    ruleset_words,
    saved_list,
)
from bot.frontend.views.settings import MAX_CHANNELS, channel_list, season_text, settings_text
from bot.frontend.words import plain_name, timer_text
from bot.i18n import language_of, text, typed_word
from bot.service import ServiceError
from bot.service.house_rules import MAX_SAVED, OWN, SERVER
from bot.service.ratings.seasons import MAX_DAYS, MIN_DAYS, Season
from data import ServerSettings
from game import RulesetError

log = logging.getLogger(__name__)

#: Choice value that clears the setting, so the server's Discord language applies.
SERVER_DEFAULT = "default"
#: The channels a table may be opened in: where a thread can be started, or a forum's posts.
Place = discord.TextChannel | discord.ForumChannel


#: The season length that means calendar months (UTC); any other is a number of days.
MONTHLY = "monthly"
#: The lengths /lama settings season suggests as one types.
SUGGESTED_DAYS = (7, 14, 30, 90, 365)


def season_length(value: str) -> int | None:
    """The days a ``length`` option asks for (None: monthly); ValueError if it is neither
    a whole number of days in range nor "monthly" (the autocomplete's value) or its word
    in one of the languages (``season.monthly_words``: "monatlich", "co miesiąc" …)."""
    if value.strip().lower() == MONTHLY or typed_word("season.monthly_words", value):
        return None
    days = int(value)  # raises ValueError for words
    if not MIN_DAYS <= days <= MAX_DAYS:
        raise ValueError(f"{days} days is out of range")
    return days


async def length_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Monthly and a few lengths, in the person's language; a number typed first, if it
    is a length the command takes (offered, then refused, it would only mislead)."""
    locale = interaction.locale
    typed = stored_number(current.strip())  # None for "²", a word or 5,000 digits
    days = [typed] if typed is not None and MIN_DAYS <= typed <= MAX_DAYS else []
    days += [d for d in SUGGESTED_DAYS if d not in days]
    choices = [app_commands.Choice(name=text(locale, "season.monthly_choice"), value=MONTHLY)]
    choices += [
        app_commands.Choice(name=text(locale, "season.days", count=d), value=str(d)) for d in days
    ]
    return choices[:25]


def timer_allowed(seconds: int) -> bool:
    """0 (no timer) or MIN_TURN_TIMER to MAX_TURN_TIMER seconds, as DEFAULT_TURN_TIMER."""
    return seconds == 0 or MIN_TURN_TIMER <= seconds <= MAX_TURN_TIMER


class ServerSettingsCommands(commands.Cog, name="Settings"):
    """Per-server settings, under /lama settings (Manage Server only)."""

    settings = app_commands.Group(
        name="settings", description="Settings for this server (Manage Server)."
    )

    def __init__(self, bot: CogHost) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        # /lama settings …: move the cog's own (bound) copy of the group under the
        # shared /lama group instead of letting discord.py add it as a top-level command.
        group = next(c for c in self.__cog_app_commands__ if c.name == self.settings.name)
        self.__cog_app_commands__ = [c for c in self.__cog_app_commands__ if c is not group]
        self.bot.lama.add_command(group)

    async def cog_unload(self) -> None:
        self.bot.lama.remove_command(self.settings.name)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A listed channel deleted goes off the list: nobody could pick it to take it
        off, and the last one listed would keep /lama new refused everywhere."""
        if isinstance(channel, Place):
            await forget_channel(self.bot.service, channel.guild.id, channel.id)

    async def _refused(self, interaction: Interaction) -> bool:
        """Refuse (politely, privately) anyone without Manage Server, and outside a server.

        Checked here rather than with a check decorator: a failed check is an
        error for discord.py, and a refusal is an ordinary, polite answer.
        """
        if interaction.guild_id is None or not bot_member(interaction):
            # A group DM, a DM, a server only a person installed the app in: no server
            # to set up (and no admin of it to ask).
            await reply(interaction, text(interaction.locale, "error.server_with_bot_only"))
            return True
        if not can_manage(interaction):
            await reply(interaction, text(interaction.locale, "settings.not_allowed"))
            return True
        return False

    @settings.command(
        name="language", description="The language of public game messages in this server."
    )
    @app_commands.describe(
        language=(
            "Language of lobbies and tables; private replies follow each player's Discord language"
        )
    )
    @app_commands.choices(
        language=[
            app_commands.Choice(name="English", value="en"),
            app_commands.Choice(name="Deutsch", value="de"),
            app_commands.Choice(name="Español", value="es"),
            app_commands.Choice(name="Polski", value="pl"),
            app_commands.Choice(name="Server default", value=SERVER_DEFAULT),
        ]
    )
    async def language(self, interaction: Interaction, language: app_commands.Choice[str]) -> None:
        if await self._refused(interaction):
            return
        assert interaction.guild_id is not None
        chosen = None if language.value == SERVER_DEFAULT else language.value
        try:
            await in_time(
                interaction, self.bot.service.front.set_language(interaction.guild_id, chosen)
            )
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        log.info("Guild %s: language set to %s", interaction.guild_id, chosen or "server default")
        locale = interaction.locale
        if chosen is None:
            name = text(locale, f"language.{language_of(interaction.guild_locale)}")
            message = text(locale, "settings.language.default", language=name)
        else:
            name = text(locale, f"language.{chosen}")
            message = text(locale, "settings.language.set", language=name)
        await reply(interaction, message)

    @settings.command(name="turn_timer", description="The turn timer of new tables in this server.")
    @app_commands.describe(
        seconds="Seconds per turn, 15 to 3600; 0 turns the timer off; empty: the bot's default"
    )
    async def turn_timer(
        self,
        interaction: Interaction,
        seconds: app_commands.Range[int, 0, MAX_TURN_TIMER] | None = None,
    ) -> None:
        if await self._refused(interaction):
            return
        assert interaction.guild_id is not None
        locale = interaction.locale
        if seconds is not None and not timer_allowed(seconds):
            message = text(locale, "settings.timer.range", min=MIN_TURN_TIMER, max=MAX_TURN_TIMER)
            await reply(interaction, message)
            return
        try:
            await in_time(
                interaction, self.bot.service.front.set_default_timer(interaction.guild_id, seconds)
            )
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        log.info("Guild %s: default turn timer set to %s", interaction.guild_id, seconds)
        if seconds is None:
            shown = timer_text(str(locale), self.bot.settings.turn_timer)
            await reply(interaction, text(locale, "settings.timer.default", timer=shown))
        elif seconds == 0:
            await reply(interaction, text(locale, "settings.timer.off"))
        else:
            shown = timer_text(str(locale), seconds)
            await reply(interaction, text(locale, "settings.timer.set", timer=shown))

    @settings.command(name="hints", description="Whether new tables in this server allow hints.")
    @app_commands.describe(
        enabled="On: players may ask what Hard would do, unless /lama new says no"
    )
    async def hints(self, interaction: Interaction, enabled: bool) -> None:
        if await self._refused(interaction):
            return
        assert interaction.guild_id is not None
        try:
            await in_time(
                interaction, self.bot.service.front.set_default_hints(interaction.guild_id, enabled)
            )
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        log.info("Guild %s: hints on by default: %s", interaction.guild_id, enabled)
        key = "settings.hints.on" if enabled else "settings.hints.off"
        await reply(interaction, text(interaction.locale, key))

    @settings.command(name="channel", description="Allow /lama new in a channel, or no longer.")
    @app_commands.describe(
        channel="The channel (its threads count too)",
        allowed="True: tables may open there; False: no longer. Until one is listed: everywhere",
    )
    async def channel(self, interaction: Interaction, channel: Place, allowed: bool) -> None:
        if await self._refused(interaction):
            return
        assert interaction.guild_id is not None
        guild_id, locale, service = interaction.guild_id, interaction.locale, self.bot.service
        # A slow store must not lose the command: acknowledged meanwhile, privately,
        # the read and the write within the one limit.
        started = asyncio.get_running_loop().time()
        try:
            settings = settings_of(service, guild_id, self.bot.get_guild(guild_id))
            listed = (await in_time(interaction, settings)).channels
            if allowed and channel.id not in listed and len(listed) >= MAX_CHANNELS:
                await reply(
                    interaction, text(locale, "settings.channels.too_many", max=MAX_CHANNELS)
                )
                return
            if not allowed and channel.id not in listed:
                key = "settings.channels.not_listed"
                await reply(
                    interaction,
                    text(
                        locale, key, channel=channel.mention, channels=channel_list(locale, listed)
                    ),
                )
                return
            changing = service.front.allow_channel(guild_id, channel.id, allowed)
            now = await in_time(interaction, changing, after=time_left(started))
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        log.info("Guild %s: channel %s allowed: %s", guild_id, channel.id, allowed)
        if allowed:
            key = "settings.channels.added"
        else:
            key = "settings.channels.removed" if now else "settings.channels.removed_last"
        message = text(locale, key, channel=channel.mention, channels=channel_list(locale, now))
        # Listed all the same (the admin may grant them next), but every /lama new there
        # would be refused until then: said now, not found out by the players.
        missing = missing_in_channel(channel) if allowed else []
        if missing:
            key = "settings.channels.missing_permissions"
            message += "\n" + missing_permissions_text(
                locale, key, missing, channel=channel.mention
            )
        await reply(interaction, message)

    @settings.command(name="all_channels", description="Allow /lama new in every channel again.")
    async def all_channels(self, interaction: Interaction) -> None:
        if await self._refused(interaction):
            return
        assert interaction.guild_id is not None
        try:
            await in_time(
                interaction, self.bot.service.front.allow_every_channel(interaction.guild_id)
            )
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        log.info("Guild %s: every channel allowed", interaction.guild_id)
        await reply(interaction, text(interaction.locale, "settings.channels.all"))

    @settings.command(
        name="season", description="How long this server's rating seasons last, or a new one now."
    )
    @app_commands.describe(
        length="Days per season, 7 to 365, or monthly (calendar months, UTC); empty: as now",
        start_now="True: a new season starts now; False: the season under way goes on",
    )
    @app_commands.autocomplete(length=length_choices)
    async def season(
        self, interaction: Interaction, length: str | None = None, start_now: bool = False
    ) -> None:
        if await self._refused(interaction):
            return
        assert interaction.guild_id is not None
        guild_id, locale, service = interaction.guild_id, interaction.locale, self.bot.service
        try:
            days = season_length(length) if length is not None else None
        except ValueError:
            await reply(interaction, text(locale, "season.range", min=MIN_DAYS, max=MAX_DAYS))
            return
        started = asyncio.get_running_loop().time()  # as for the channels, one limit
        try:
            if length is None and not start_now:  # nothing to change: say how it is
                season = await in_time(interaction, service.seasons.current(guild_id))
                await reply(interaction, season_text(locale, season))
                return
            if length is None:  # a new season now, of the length in force
                days = (await in_time(interaction, service.seasons.current(guild_id))).days
            setting = service.seasons.set(guild_id, days=days, start_now=start_now)
            season = await in_time(interaction, setting, after=time_left(started))
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        log.info(
            "Guild %s: seasons of %s days, new now: %s", guild_id, days or "monthly", start_now
        )
        await reply(interaction, season_text(locale, season, started=start_now, changed=True))

    @settings.command(
        name="rules", description="Save, list or delete this server's house rules for /lama new."
    )
    @app_commands.describe(
        action="Save house rules, delete them, or list them (default: list)",
        name="The house rules' name (to save or delete)",
        editions="The editions they start from (default: the base game)",
        change_1="A rule to change from the editions",
        change_2="A rule to change from the editions",
        change_3="A rule to change from the editions",
        change_4="A rule to change from the editions",
    )
    @app_commands.choices(
        action=[
            app_commands.Choice(name="Save", value="save"),
            app_commands.Choice(name="Delete", value="delete"),
            app_commands.Choice(name="List", value="list"),
        ]
    )
    @app_commands.autocomplete(
        name=saved_choices,
        editions=edition_choices,
        change_1=rule_choices,
        change_2=rule_choices,
        change_3=rule_choices,
        change_4=rule_choices,
    )
    async def rules(
        self,
        interaction: Interaction,
        action: app_commands.Choice[str] | None = None,
        name: app_commands.Range[str, 1, 100] | None = None,
        editions: str | None = None,
        change_1: str | None = None,
        change_2: str | None = None,
        change_3: str | None = None,
        change_4: str | None = None,
    ) -> None:
        if await self._refused(interaction):
            return
        assert interaction.guild_id is not None
        guild_id, locale = interaction.guild_id, interaction.locale
        house = self.bot.service.house_rules
        doing = action.value if action is not None else "list"
        if doing != "list" and name is None:
            await reply(interaction, text(locale, "house.name_needed"))
            return
        try:
            if doing == "save":
                assert name is not None
                ruleset = composed(editions, [change_1, change_2, change_3, change_4])
                kept = await in_time(interaction, house.save(guild_id, name, ruleset))
                log.info("Guild %s: house rules saved: %s", guild_id, ruleset.to_json())
                words = ruleset_words(locale, ruleset)
                message = text(locale, "house.saved", name=plain_name(kept), rules=words)
            elif doing == "delete":
                assert name is not None
                gone = await in_time(interaction, house.delete(guild_id, name))
                log.info("Guild %s: house rules deleted", guild_id)
                message = text(locale, "house.deleted", name=plain_name(gone))
            else:
                saved = await in_time(interaction, house.saved(guild_id))
                message = saved_list(locale, saved, MAX_SAVED)
        except Refusal as refusal:
            await reply(interaction, text(locale, refusal.key, **refusal.params))
            return
        except RulesetError as error:  # every combination offered plays; said all the same
            await reply(interaction, str(error))
            return
        except ServiceError as error:
            await reply(interaction, refusal_text(locale, error))
            return
        await reply(interaction, message)

    @settings.command(
        name="house_board", description="Where games with house rules are rated in this server."
    )
    @app_commands.describe(
        board="Their own board (the default), or this server's board and seasons with every game"
    )
    @app_commands.choices(
        board=[
            app_commands.Choice(name="Their own board", value=OWN),
            app_commands.Choice(name="The server's board and seasons", value=SERVER),
        ]
    )
    async def house_board(self, interaction: Interaction, board: app_commands.Choice[str]) -> None:
        if await self._refused(interaction):
            return
        assert interaction.guild_id is not None
        setting = self.bot.service.house_rules.set_board(interaction.guild_id, board.value)
        try:
            await in_time(interaction, setting)
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        log.info("Guild %s: games with house rules rated on: %s", interaction.guild_id, board.value)
        locale = interaction.locale
        said = text(locale, f"house.board.{board.value}") + "\n" + text(locale, "house.board.kept")
        await reply(interaction, said)

    @settings.command(name="show", description="This server's L.A.M.A. settings.")
    async def show(self, interaction: Interaction) -> None:
        if await self._refused(interaction):
            return
        guild_id = interaction.guild_id
        assert guild_id is not None
        service = self.bot.service

        async def read() -> tuple[ServerSettings, Season, int]:
            settings = await settings_of(service, guild_id, self.bot.get_guild(guild_id))
            saved = await service.house_rules.saved(guild_id)
            return settings, await service.seasons.current(guild_id), len(saved)

        try:
            # A slow store must not lose the command: acknowledged meanwhile, privately.
            settings, season, saved = await in_time(interaction, read())
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        message = settings_text(
            interaction.locale,
            settings,
            guild_locale=interaction.guild_locale,
            bot_timer=self.bot.settings.turn_timer,
            season=season,
            saved_rules=saved,
        )
        await reply(interaction, message)


async def setup(bot: CogHost) -> None:
    await bot.add_cog(ServerSettingsCommands(bot))
