"""What the front end needs of the bot that runs it (:class:`bot.client.LamaBot` has it all)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import discord

if TYPE_CHECKING:
    from bot.limiter import Limiter
    from bot.service import GameService

    from .faces import Faces
    from .pacing import Pacing


class Lookups(Protocol):
    """Asking Discord whether a server, channel or thread is there."""

    def get_guild(self, id: int, /) -> discord.Guild | None: ...

    async def fetch_channel(self, channel_id: int, /) -> object: ...


class Host(Lookups, Protocol):
    """The bot, as the front end sees it: the games, the REST budget, the card faces, and
    the few Discord calls it makes itself."""

    @property
    def service(self) -> GameService: ...

    @property
    def limiter(self) -> Limiter:
        """Every bot-token call waits its turn here."""
        ...

    @property
    def pacing(self) -> Pacing:
        """How often table messages are edited and failed calls tried again."""
        ...

    @property
    def faces(self) -> Faces:
        """How cards look in messages (read at each use: the app's own emojis come later)."""
        ...

    def get_partial_messageable(
        self,
        id: int,
        *,
        guild_id: int | None = None,
        type: discord.ChannelType | None = None,
    ) -> discord.PartialMessageable: ...

    async def wait_until_ready(self) -> None: ...

    def interaction_webhook(self, application_id: int, token: str) -> discord.Webhook:
        """The webhook of an interaction token (stored before a restart), with the
        client's state: it edits and sends without the bot token."""
        ...
