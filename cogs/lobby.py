"""Opening, joining and starting games: /lama new, join, leave, start, cancel."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Literal, assert_never

import discord
from discord import app_commands

from bot.config import MAX_TURN_TIMER, MIN_TURN_TIMER
from bot.frontend.cog_host import CogHost, TablePresenter
from bot.frontend.cooldowns import reserved
from bot.frontend.custom_ids import AIPick, LobbyButtonId, RulePick
from bot.frontend.house_choices import edition_choices, saved_choices
from bot.frontend.listed_channels import settings_of
from bot.frontend.lobby_answers import cancel_cost, left_out, started_without
from bot.frontend.lobby_rules import change_rule, show_house_rules
from bot.frontend.permissions import (
    can_manage,
    may_write_here,
    missing_permissions_text,
    missing_table_permissions,
)
from bot.frontend.places import bot_member, place_of
from bot.frontend.replies import (
    Interaction,
    defer_private,
    in_time,
    reply,
    reply_error,
    time_left,
)
from bot.frontend.table_post import post_table
from bot.frontend.views.house_rules import Refusal, new_ruleset, refusal_text
from bot.frontend.views.payloads import message_link, table_payload
from bot.frontend.views.settings import allowed_here, channel_list
from bot.frontend.words import leaving_cost
from bot.i18n import text
from bot.service import Person, ServiceError
from bot.service.play.table import Status, Table
from data import ServerSettings
from game import Ruleset, RulesetError
from game.rules import MAX_THRESHOLD, MIN_THRESHOLD

from .lama_cog import LamaCog

log = logging.getLogger(__name__)

#: Actions that may close the table, and closing waits for the notices still
#: going out (slow when Discord is): they are answered first.
#: What a lobby button or command asks of the service (a Rematch opens a lobby instead).
LobbyChange = Literal["join", "leave", "start", "cancel", "dropai", "hints", "leave_game"]
CLOSING = frozenset({"cancel", "leave", "leave_game"})
#: The lobby changes one person makes at most one of every few seconds (the "lobby"
#: cooldown, Add AI too): each is saved and edits the table. Start, Cancel and leaving a
#: running game end something, once.
PACED = frozenset({"join", "leave", "dropai", "hints"})


def person(interaction: Interaction) -> Person:
    return Person(id=interaction.user.id, name=interaction.user.display_name)


def public_locale(interaction: Interaction, server: ServerSettings) -> str:
    """The language of a table opened now: the server's setting, else its Discord language;
    where the bot is no member (a group DM, a server only a person installed it in), the
    language of the person who opens it."""
    if not bot_member(interaction):
        return str(interaction.locale)
    return server.language or str(interaction.guild_locale or "en")


class LobbyCommands(LamaCog, name="Lobby"):
    """The lobby's commands and buttons, the Add AI select and a finished game's Rematch."""

    @property
    def presenter(self) -> TablePresenter:
        return self.bot.presenter

    async def cog_load(self) -> None:
        await super().cog_load()
        # Each click is given the table its place check found: looked up once.
        self.route_at_table(LobbyButtonId, self.handle_button)
        self.route_at_table(AIPick, self.add_ai)
        self.route_at_table(RulePick, self.change_rule)

    # ------------------------------------------------------------ commands
    @app_commands.command(name="new", description="Open a L.A.M.A. lobby in this channel.")
    @app_commands.describe(
        editions="The editions to play, from the list (with those switched on below)",
        no_drama="No Drama card: the last to quit may discard one card",
        party="Party Edition: Plus cards and the pink Llama",
        komarami="Lato z Komarami: 7 Llamas, each costs 10",
        threshold="The game ends after a round in which someone reaches this many points",
        turn_timer="Seconds per turn, 15 or more; 0 turns the timer off",
        hints="Players may ask what Hard would do (a hint); as the server has set, else on",
        house_rules="House rules this server saved (/lama settings rules), instead of the editions",
    )
    @app_commands.autocomplete(editions=edition_choices, house_rules=saved_choices)
    async def new(
        self,
        interaction: Interaction,
        editions: app_commands.Range[str, 1, 100] | None = None,
        no_drama: bool = False,
        party: bool = False,
        komarami: bool = False,
        threshold: app_commands.Range[int, MIN_THRESHOLD, MAX_THRESHOLD] = 40,
        turn_timer: app_commands.Range[int, 0, MAX_TURN_TIMER] | None = None,
        hints: bool | None = None,
        house_rules: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        # The editions' switches, kept for the players used to them; any preset: editions.
        switched = Ruleset(no_drama=no_drama, party=party, komarami=komarami).presets
        await self._open_reserved(
            interaction,
            "new",
            lambda: self._new_lobby(
                interaction, switched, editions, threshold, turn_timer, hints, house_rules
            ),
        )

    async def _open_reserved(
        self,
        interaction: Interaction,
        action: Literal["new", "rematch"],
        opening: Callable[[], Awaitable[Table | None]],
    ) -> None:
        """Open a table (``opening``: None once it told the person why not) with the
        person's wait for ``action`` reserved first: a double submit arriving while the
        first reads the store is refused, and a table refused after all costs no wait."""

        async def opened_and_posted() -> Table | None:
            # Posted within the reservation: a table Discord refused to post costs no wait.
            table = await opening()
            if table is not None and not await post_table(
                interaction, table, action, self.bot.service, self.presenter, self.bot.faces
            ):
                return None
            return table

        await reserved(interaction, self.bot.service.cooldowns, action, opened_and_posted)

    async def _new_lobby(
        self,
        interaction: Interaction,
        switched: tuple[str, ...],
        editions: str | None,
        threshold: int,
        turn_timer: int | None,
        hints: bool | None,
        house_rules: str | None = None,
    ) -> Table | None:
        """/lama new's lobby, opened; None once the person is told why not."""
        assert interaction.channel_id is not None
        started = asyncio.get_running_loop().time()
        server = await self._server_if_here(interaction)
        if server is None:
            return None
        try:
            ruleset = new_ruleset(switched, editions, threshold)
        except Refusal as refusal:
            await reply(interaction, text(interaction.locale, refusal.key, **refusal.params))
            return None
        except RulesetError as error:
            await reply(interaction, str(error))
            return None
        if house_rules is not None:
            saved = await self._saved_rules(interaction, ruleset, house_rules, started)
            if saved is None:
                return None
            ruleset = saved
        if turn_timer is not None and 0 < turn_timer < MIN_TURN_TIMER:
            # Discord's option range can't leave a hole between 0 (off) and 15.
            await reply(
                interaction, text(interaction.locale, "error.timer_too_short", min=MIN_TURN_TIMER)
            )
            return None
        # What /lama new leaves out, the server's settings give, else the bot's defaults.
        if turn_timer is None:
            turn_timer = (
                self.bot.settings.turn_timer if server.turn_timer is None else server.turn_timer
            )
        if hints is None:
            hints = True if server.hints is None else server.hints
        locale = public_locale(interaction, server)
        opening = self.bot.service.lobbies.open_lobby(
            guild_id=place_of(interaction),
            channel_id=interaction.channel_id,
            host=person(interaction),
            ruleset=ruleset,
            turn_timer=turn_timer,
            locale=locale,
            hints=hints,
        )
        try:
            return await in_time(interaction, opening, after=time_left(started))
        except ServiceError as error:
            await reply_error(interaction, error)
            return None

    async def _saved_rules(
        self, interaction: Interaction, editions: Ruleset, name: str, started: float
    ) -> Ruleset | None:
        """The server's house rules saved as ``name``, played to the table's threshold;
        None once the person is told why not (editions picked too, no such rules)."""
        if editions.presets:  # the saved rules bring their own editions
            await reply(interaction, text(interaction.locale, "house.with_editions"))
            return None
        finding = self.bot.service.house_rules.ruleset(
            place_of(interaction), name, threshold=editions.threshold
        )
        try:
            return await in_time(interaction, finding, after=time_left(started))
        except ServiceError as error:
            await reply(interaction, refusal_text(interaction.locale, error))
            return None

    async def _server_if_here(self, interaction: Interaction) -> ServerSettings | None:
        """The server's settings if a table may open here; None once the person is told
        why not (the person may not write here, the settings unread, a channel not
        listed, the bot's permissions).

        The read is the first of two store calls (the lobby's save follows): a slow store
        must not keep Discord waiting past its 3 s, so the caller gives the save what is
        left of the one limit (``time_left``)."""
        guild_id = place_of(interaction)
        if not may_write_here(interaction):
            await reply(interaction, text(interaction.locale, "error.cannot_write_here"))
            return None
        try:
            # A listed channel deleted while the bot was down goes off the list here.
            server = await in_time(
                interaction,
                settings_of(self.bot.service, guild_id, self.bot.get_guild(guild_id)),
            )
        except ServiceError as error:
            await reply_error(interaction, error)
            return None
        if not await self._allowed_here(interaction, server.channels):
            return None
        if not await self._can_run_table_here(interaction):
            return None
        return server

    async def _allowed_here(self, interaction: Interaction, channels: tuple[int, ...]) -> bool:
        """Refuse, naming the allowed ones, outside the channels the server listed."""
        if allowed_here(interaction, channels):
            return True
        places = channel_list(interaction.locale, channels)
        await reply(
            interaction, text(interaction.locale, "error.channel_not_allowed", channels=places)
        )
        return False

    async def _can_run_table_here(self, interaction: Interaction) -> bool:
        """Refuse, naming what is missing, where the bot couldn't keep a table going."""
        missing = missing_table_permissions(interaction)
        if missing:
            await reply(
                interaction,
                missing_permissions_text(interaction.locale, "error.bot_permissions", missing),
            )
        return not missing

    def _here(self, interaction: Interaction) -> Table | None:
        return self.bot.service.registry.table_in(interaction.channel_id or 0)

    @app_commands.command(name="join", description="Join the lobby in this channel.")
    async def join_command(self, interaction: Interaction) -> None:
        await self._lobby_command(interaction, "join")

    @app_commands.command(
        name="leave",
        description="Leave the lobby, or hand your seat in a running game to an AI.",
    )
    async def leave_command(self, interaction: Interaction) -> None:
        await self._lobby_command(interaction, "leave")

    @app_commands.command(name="start", description="Start the game in this channel (host only).")
    async def start_command(self, interaction: Interaction) -> None:
        await self._lobby_command(interaction, "start")

    @app_commands.command(
        name="cancel",
        description="Cancel the lobby or game in this channel (host or Manage Server).",
    )
    async def cancel_command(self, interaction: Interaction) -> None:
        await self._lobby_command(interaction, "cancel")

    async def _lobby_command(self, interaction: Interaction, action: LobbyChange) -> None:
        table = self._here(interaction)
        if table is None:
            await reply(interaction, text(interaction.locale, "error.no_lobby_here"))
            return
        if action == "leave" and table.status is Status.RUNNING:
            action = "leave_game"
        if action in CLOSING:
            await defer_private(interaction)
        asked = left_out(table)
        if not await self._act(interaction, table, action):
            return
        self.presenter.request(table)
        done = f"done.{action}"
        answer = text(interaction.locale, done)
        if action == "leave_game" and table.status is not Status.RUNNING:
            # The last player left: the game is over, and rated as their loss.
            answer = text(interaction.locale, "done.leave_game_ended")
            answer += leaving_cost(str(interaction.locale), table, interaction.user.id)
        if action == "cancel":  # the only person playing who cancels leaves, rated so
            answer += cancel_cost(str(interaction.locale), table, interaction.user.id)
        if action == "start" and (
            without := started_without(str(interaction.locale), table, asked)
        ):
            answer += " " + without
        await reply(interaction, answer)

    # ------------------------------------------------------------ buttons
    async def handle_button(
        self, interaction: Interaction, cid: LobbyButtonId, table: Table | None
    ) -> None:
        action = cid.action
        if action == "rematch":
            await self.rematch(interaction, cid.game_id, table)
            return
        if table is None or not table.live:
            await reply(interaction, text(interaction.locale, "error.lobby_closed"))
            return
        if action == "house":  # the host's private house rules select
            await show_house_rules(interaction, table)
            return
        if action in CLOSING:
            await defer_private(interaction)
        asked = left_out(table)
        if not await self._act(interaction, table, action):
            return
        await self._update_from_button(interaction, table)
        if action == "start" and (
            without := started_without(str(interaction.locale), table, asked)
        ):
            await reply(interaction, without)  # the host hears whom the Start left out
        # The lobby's Cancel still shown on a started game (the Start's edit refused):
        # the only person playing who clicks it leaves, rated so, and is told the cost.
        cost = (
            cancel_cost(str(interaction.locale), table, interaction.user.id)
            if action == "cancel"
            else ""
        )
        if cost:
            await reply(interaction, text(interaction.locale, "done.cancel") + cost)

    async def _act(self, interaction: Interaction, table: Table, action: LobbyChange) -> bool:
        """Ask the service for ``action``; a save that keeps the store waiting past
        ``in_time``'s limit has the click acknowledged meanwhile.  A lobby change
        (:data:`PACED`) waits the person's "lobby" cooldown; a refusal costs no wait."""

        def act() -> Awaitable[bool]:
            return self._done(interaction, self._change(interaction, table, action))

        return await (self._paced(interaction, act) if action in PACED else act())

    async def _paced(self, interaction: Interaction, act: Callable[[], Awaitable[bool]]) -> bool:
        """``act`` within the person's "lobby" cooldown; False if it is too soon (told)."""

        async def reserve() -> bool | None:
            return await act() or None  # refused: the wait is given back

        cooldowns = self.bot.service.cooldowns
        return bool(await reserved(interaction, cooldowns, "lobby", reserve))

    @staticmethod
    async def _done(interaction: Interaction, change: Awaitable[object]) -> bool:
        """Whether ``change`` was made; if not, the person is told why."""
        try:
            await in_time(interaction, change)
        except ServiceError as error:
            await reply_error(interaction, error)
            return False
        return True

    async def _change(self, interaction: Interaction, table: Table, action: LobbyChange) -> None:
        service, user_id = self.bot.service, interaction.user.id
        match action:
            case "join":
                await service.lobbies.join(table, person(interaction))
            case "leave":
                await service.lobbies.leave(table, user_id)
            case "dropai":
                await service.lobbies.remove_ai(table, user_id)
            case "hints":
                await service.lobbies.toggle_hints(table, user_id)
            case "leave_game":
                await service.seats.leave_game(table, user_id)
            case "start":
                await service.lobbies.start(table, user_id)
            case "cancel":
                await service.lobbies.cancel(table, user_id, can_manage=can_manage(interaction))
            case _:
                assert_never(action)

    async def _update_from_button(self, interaction: Interaction, table: Table) -> None:
        reason = "closed.cancelled" if table.status is Status.CANCELLED else None
        payload = table_payload(table, self.bot.faces, reason)
        try:
            if interaction.response.is_done():  # deferred: the click's message is the table
                await interaction.edit_original_response(**payload)
            else:
                await interaction.response.edit_message(**payload)
        except discord.HTTPException as error:
            # The change is saved and made; only showing it failed. The table is
            # brought up to date another way (the bot token, tried again), so the
            # lobby doesn't hide a seat someone has, and the clicker is told it was
            # done: "that didn't work" would have them click again for what is made.
            log.warning("game %s: Discord refused a click's table edit: %s", table.game_id, error)
            self.presenter.request(table)
            with contextlib.suppress(discord.HTTPException):
                await reply(interaction, text(interaction.locale, "done.shown_soon"))
            return
        # The click's message is the table: its token can edit it for a while.
        clicked = interaction.message.id if interaction.message is not None else None
        self.presenter.remember(table, payload, interaction, clicked)

    async def add_ai(self, interaction: Interaction, pick: AIPick, table: Table | None) -> None:
        if table is None or table.status is not Status.LOBBY:
            await reply(interaction, text(interaction.locale, "error.lobby_closed"))
            return

        def adding() -> Awaitable[bool]:
            change = self.bot.service.lobbies.add_ai(table, interaction.user.id, pick.strength)
            return self._done(interaction, change)

        if not await self._paced(interaction, adding):
            return
        await self._update_from_button(interaction, table)

    async def change_rule(
        self, interaction: Interaction, pick: RulePick, table: Table | None
    ) -> None:
        await change_rule(interaction, pick, table, self.bot.service, self.presenter)

    async def rematch(self, interaction: Interaction, game_id: int, found: Table | None) -> None:
        """A Rematch of the finished game ``game_id`` (``found``: its table as the click's
        place check found it; None: the service holds it no more)."""
        # A Rematch works once: pressed again (within the person's wait or not) it says
        # where the newer game is, not to try again in a while, which could never work.
        if await self._rematch_made(interaction, game_id):
            return
        await self._open_reserved(
            interaction,
            "rematch",
            lambda: self._rematch_lobby(interaction, game_id if found is None else found),
        )

    async def _rematch_made(self, interaction: Interaction, game_id: int) -> bool:
        """Whether a newer game was opened in the channel (this table's Rematch, say),
        and if so, the person told where it is (or that it is over by now)."""
        channel_id = interaction.channel_id or 0
        try:
            made = await self.bot.service.lobbies.opened_after(game_id, channel_id)
        except ServiceError as error:
            await reply_error(interaction, error)
            return True
        if not made:
            return False
        newer = self.bot.service.registry.table_in(channel_id)
        shown = None if newer is None else self.presenter.table_message_id(newer)
        if newer is None or shown is None or newer.game_id < game_id:
            await reply(interaction, text(interaction.locale, "error.rematch_used"))
            return True
        link = message_link(newer.guild_id, channel_id, shown)
        await reply(interaction, text(interaction.locale, "error.rematch_made", link=link))
        return True

    async def _rematch_lobby(self, interaction: Interaction, finished: Table | int) -> Table | None:
        """A finished game's rematch lobby, opened; None once the person is told why not."""
        assert interaction.channel_id is not None
        started = asyncio.get_running_loop().time()
        server = await self._server_if_here(interaction)
        if server is None:
            return None
        # A new table: in the server's language now (set since the game, perhaps).
        opening = self.bot.service.lobbies.rematch(
            finished,
            person(interaction),
            interaction.channel_id,
            place_of(interaction),
            locale=public_locale(interaction, server),
        )
        try:
            return await in_time(interaction, opening, after=time_left(started))
        except ServiceError as error:
            await reply_error(interaction, error)
            return None


async def setup(bot: CogHost) -> None:
    await bot.add_cog(LobbyCommands(bot))
