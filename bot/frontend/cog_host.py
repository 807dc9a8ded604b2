"""What the cogs need of the bot that runs them (a Protocol: nothing here imports the client)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.limiter import Limiter
from bot.service import GameService
from bot.service.play.table import Table
from data import Store

from .faces import Faces
from .items import Router


class TablePresenter(Protocol):
    """What the cogs tell the presenter, which keeps table messages and hands in step."""

    def drop_hand(self, game_id: int, user_id: int) -> None:
        """Stop refreshing a player's hand: an AI plays their seat now."""
        ...

    def moving(self, game_id: int, user_id: int) -> None:
        """A player clicked a move: the answer to the click shows their hand after it."""
        ...

    def remember(
        self,
        table: Table,
        payload: dict[str, Any],
        interaction: discord.Interaction[Any] | None = ...,
        message_id: int | None = ...,
        *,
        followup: bool = ...,
    ) -> None: ...

    def request(self, table: Table) -> None: ...

    def table_message_id(self, table: Table) -> int | None:
        """The message that shows the table now, if any."""
        ...

    def table_posted(self, table: Table, message_id: int) -> None:
        """The table (a lobby) was posted as ``message_id``: edited from now on."""
        ...

    def former_table(self, table: Table, message_id: int) -> bool:
        """Whether ``message_id`` was the game's table message before it was posted anew."""
        ...

    def clicked(
        self, table: Table, interaction: discord.Interaction[Any], followups: int = ...
    ) -> None:
        """A click at the table was answered (with ``followups`` of its own so far): its
        token may send the table's messages."""
        ...

    def opened_hand(
        self,
        table: Table,
        user_id: int,
        interaction: discord.Interaction[Any],
        warning: str | None = ...,
        message_id: int | None = ...,
        edit: Callable[..., Awaitable[object]] | None = ...,
    ) -> None: ...

    def table_fading(self, table: Table) -> bool:
        """Whether no token edits the table any more, or the one that does is about to
        run out."""
        ...

    def table_now(self, table: Table) -> dict[str, Any]:
        """What the table message should show now."""
        ...


class CogHost(Protocol):
    """The bot as its cogs see it."""

    faces: Faces  # the Emojis cog puts the application's own in

    @property
    def service(self) -> GameService: ...

    @property
    def presenter(self) -> TablePresenter: ...

    @property
    def router(self) -> Router: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def store(self) -> Store: ...

    @property
    def limiter(self) -> Limiter: ...

    @property
    def lama(self) -> app_commands.Group:
        """The /lama group every cog adds its commands to."""

    @property
    def tree(self) -> app_commands.CommandTree[Any]: ...

    def get_guild(self, id: int, /) -> discord.Guild | None:
        """The server as the gateway has it cached (its channels), else None."""

    async def add_cog(self, cog: commands.Cog, /) -> None: ...

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None: ...

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None: ...

    async def fetch_application_emojis(self) -> list[discord.Emoji]: ...

    async def create_application_emoji(self, *, name: str, image: bytes) -> discord.Emoji: ...
