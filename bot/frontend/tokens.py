"""The interaction tokens of the newest clicks at each table, to send without the bot token.

For 15 minutes they send and edit without the bot token, so they cost none of its
REST budget.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.service.table import Table

from .host import Host

TOKEN_LIFE = 14 * 60  # Discord lets an interaction token be used for 15 minutes


@dataclass
class Token:
    """A click's interaction token: followups in its channel, and edits of its own
    answer (``edit_answer``, the message ``answer_id``), for 15 minutes."""

    webhook: discord.Webhook
    since: float  # the service's clock, when the click came
    edit_answer: Callable[..., Awaitable[object]] | None = None
    answer_id: int | None = None


@dataclass
class Clicks:
    """A game's newest clicks: at its table, and the newest answered by the table message."""

    newest: Token | None = None
    on_table: Token | None = None


class Tokens:
    """Each game's newest clicks, and whether their tokens still work."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.games: dict[int, Clicks] = {}

    def forget(self, game_id: int) -> None:
        self.games.pop(game_id, None)

    def clicked(
        self,
        table: Table,
        interaction: discord.Interaction[Any],
        *,
        answer_id: int | None = None,
    ) -> None:
        """A click at this table was answered: its token can send the table's
        pings for a while; ``answer_id`` is the message its answer is, when
        that is the table message."""
        if interaction.channel_id != table.channel_id:
            return
        now = self.host.service.clock()
        clicks = self.games.setdefault(table.game_id, Clicks())
        clicks.newest = Token(interaction.followup, now)
        if answer_id is not None:
            clicks.on_table = Token(
                interaction.followup, now, interaction.edit_original_response, answer_id
            )

    def restored(self, game_id: int, webhook: discord.Webhook, since: float) -> None:
        """A token stored before a restart: the newest click of its game, unless one
        came since."""
        clicks = self.games.setdefault(game_id, Clicks())
        if clicks.newest is None or clicks.newest.since < since:
            clicks.newest = Token(webhook, since)

    def fresh(self, token: Token | None) -> bool:
        return token is not None and self.host.service.clock() - token.since < TOKEN_LIFE

    def click(self, table: Table) -> Token | None:
        """The token of the newest click at the table, while it works."""
        clicks = self.games.get(table.game_id)
        token = clicks.newest if clicks is not None else None
        return token if self.fresh(token) else None

    def on_table(self, table: Table) -> Token | None:
        """The token of the newest click answered by the table message, while it works."""
        clicks = self.games.get(table.game_id)
        token = clicks.on_table if clicks is not None else None
        if not self.fresh(token) or token is None or token.answer_id != table.table_message_id:
            return None
        return token

    def failed(self, table: Table, token: Token) -> None:
        """That token no longer works: no more pings with it."""
        clicks = self.games.get(table.game_id)
        if clicks is not None and clicks.newest is token:
            clicks.newest = None

    def table_failed(self, table: Table) -> None:
        """The table click's token no longer works (or the message is gone)."""
        clicks = self.games.get(table.game_id)
        if clicks is not None:
            clicks.on_table = None
