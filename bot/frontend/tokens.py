"""The interaction tokens of each game's newest clicks: what the game's public messages ride on.

A click's token answers the click and, for 15 minutes, sends followups in its channel
and edits its own answer and followups, without the bot token: where the app is only
installed to a person (a group DM, a server without the bot) there is no other way to
write there at all.  So every public message of a game (the table, its turn pings,
the chart) goes out with the token of a recent click, and the bot token is kept for
what nothing else can do.  Discord's rules, and how they are kept here:

- A token works 15 minutes from its click (after that 401 / 50027, which count
  towards Discord's limit on invalid requests): it is used for ``USABLE`` seconds only,
  and a call it failed with for good marks it ``dead``, never tried again.
- Where the app is only user-installed, one interaction creates at most 5 followups
  (the 6th gets 40094; edits don't count): the front end makes at most
  ``OUR_FOLLOWUPS`` with one token, which leaves the cog's own answers room.
- The table message is edited with the token that posted it (its answer or its
  followup).  Once that token is ``REPOST_AFTER`` old, the next click's token posts the
  table anew (:mod:`bot.frontend.table_edits`), so a game lives past a quarter hour.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context

from bot.service.play.table import Table

from .host import Host
from .screens import Screens

TOKEN_LIFE = 15 * 60  # Discord lets an interaction token be used this long
USABLE = 14 * 60  # how long one is used here: a call on its way must not reach the end
REPOST_AFTER = 10 * 60  # a table token this old gives way to the next click's
OUR_FOLLOWUPS = 3  # followups made with one token here (Discord: 5 where user-installed)
KEPT = 4  # recent clicks kept per game: a newer one with followups left, or an older one
#: How long before a token runs out its last call is made (the table's last edit, a ping
#: taken down): time for that call, and one more try of it.
LAST_CALL = 60.0
#: How long a token must still work to be given a message to send (a ping, the table
#: posted anew): it should stand a while before its last call.
NEW_MESSAGE_LIFE = 2 * LAST_CALL


def original_editor(webhook: discord.Webhook) -> Callable[..., Awaitable[object]]:
    """What edits the answer of an interaction known only by its token (after a restart):
    Discord edits an interaction's own answer only as ``…/messages/@original`` (a followup
    by its id), the call discord.py's ``Interaction.edit_original_response`` makes."""

    async def edit(**fields: Any) -> object:
        with handle_message_parameters(
            content=fields.get("content", discord.utils.MISSING),
            embeds=fields.get("embeds", discord.utils.MISSING),
            view=fields.get("view", discord.utils.MISSING),
        ) as params:
            assert webhook.token is not None
            return await async_context.get().edit_original_interaction_response(
                webhook.id,
                webhook.token,
                session=webhook.session,
                proxy=webhook.proxy,
                proxy_auth=webhook.proxy_auth,
                payload=params.payload,
                multipart=params.multipart,
                files=params.files,
            )

    return edit


@dataclass(eq=False)
class Token:
    """A click's interaction token: followups in its channel, and edits of its own
    answer (``edit_answer``, the message ``answer_id``) and followups, for 15 minutes."""

    webhook: discord.Webhook
    since: float  # the service's clock, when the click came
    edit_answer: Callable[..., Awaitable[object]] | None = None
    answer_id: int | None = None
    followups: int = 0  # made with it here
    dead: bool = False  # Discord refused it for good: never used again
    private: bool = False  # Discord makes its messages private: never used for the channel

    def editor(self, message_id: int) -> Callable[..., Awaitable[object]]:
        """What edits ``message_id``, its answer or one of its followups."""
        if message_id == self.answer_id and self.edit_answer is not None:
            return self.edit_answer
        return functools.partial(self.webhook.edit_message, message_id)


@dataclass
class Clicks:
    """A game's recent clicks (newest last), and the one whose token edits the table."""

    recent: list[Token] = field(default_factory=list)
    table: Token | None = None
    table_id: int | None = None  # the message ``table`` edits


class Tokens:
    """Each game's recent clicks, and whether their tokens still work."""

    def __init__(self, host: Host, screens: Screens) -> None:
        self.host = host
        self.screens = screens  # which message shows each game's table
        self.games: dict[int, Clicks] = {}

    def forget(self, game_id: int) -> None:
        self.games.pop(game_id, None)

    def _add(self, game_id: int, token: Token) -> None:
        clicks = self.games.setdefault(game_id, Clicks())
        clicks.recent.append(token)
        clicks.recent.sort(key=lambda each: each.since)
        del clicks.recent[:-KEPT]

    def clicked(
        self,
        table: Table,
        interaction: discord.Interaction[Any],
        *,
        answer_id: int | None = None,
        posted_id: int | None = None,
        followups: int = 0,
    ) -> Token | None:
        """A click at this table was answered: its token can send the table's
        messages for a while; ``answer_id`` is the message its answer is, when
        that is the table message, ``posted_id`` the table message when it is a followup
        of the click (it then edits the table); ``followups``: how many it made already."""
        if interaction.channel_id != table.channel_id:
            return None
        # One interaction, one token: its followups are counted together (Discord's cap
        # is per interaction), whichever part of the front end made them.
        token = self._find(table.game_id, interaction.token)
        if token is None:
            token = Token(interaction.followup, self.host.service.clock())
            self._add(table.game_id, token)
        token.followups = max(token.followups, followups)
        if answer_id is not None:
            token.edit_answer, token.answer_id = interaction.edit_original_response, answer_id
            self.edits_table(table, token, answer_id)
        elif posted_id is not None:  # the table is a followup of this click
            self.edits_table(table, token, posted_id)
        return token

    def _find(self, game_id: int, token: str) -> Token | None:
        clicks = self.games.get(game_id)
        recent = clicks.recent if clicks is not None else []
        return next((each for each in recent if each.webhook.token == token), None)

    def newer(self, table: Table, token: Token, than: Token) -> bool:
        """Whether ``token``'s click came after ``than``'s (one no longer kept: it did)."""
        clicks = self.games.get(table.game_id)
        recent = clicks.recent if clicks is not None else []
        if than not in recent:
            return True
        return token in recent and recent.index(token) > recent.index(than)

    def dead(self, token: str) -> bool:
        """Whether the interaction token ``token`` failed for good here."""
        return any(
            each.dead
            for clicks in self.games.values()
            for each in clicks.recent
            if each.webhook.token == token
        )

    def failed_token(self, token: str) -> None:
        """The interaction token ``token`` no longer works (a hand's refresh said so)."""
        for clicks in self.games.values():
            for each in clicks.recent:
                if each.webhook.token == token:
                    each.dead = True

    def restored(self, game_id: int, webhook: discord.Webhook, since: float) -> None:
        """A token stored before a restart (an open hand's): one of its game's clicks.
        It only edits: how many followups it made before is not known, and one too many
        is refused where the app is only user-installed."""
        self._add(game_id, Token(webhook, since, followups=OUR_FOLLOWUPS))

    def restored_table(
        self,
        game_id: int,
        webhook: discord.Webhook,
        since: float,
        message_id: int,
        *,
        original: bool,
    ) -> None:
        """The token that edited a game's table before a restart (it only edits, as
        :meth:`restored`); ``original``: the table is its own answer, which Discord edits
        only as ``@original`` (a followup by its id)."""
        edit = original_editor(webhook) if original else None
        token = Token(webhook, since, edit, message_id if original else None)
        token.followups = OUR_FOLLOWUPS
        self._add(game_id, token)
        clicks = self.games[game_id]
        clicks.table, clicks.table_id = token, message_id

    def fresh(self, token: Token | None) -> bool:
        return token is not None and self.left(token) > 0

    def age(self, token: Token) -> float:
        return self.host.service.clock() - token.since

    def left(self, token: Token) -> float:
        """How long ``token`` may still be used (0: no longer)."""
        return 0.0 if token.dead else max(0.0, USABLE - self.age(token))

    def sender(self, table: Table, life: float = 0.0) -> Token | None:
        """The newest click's token that may still send a message for the table (for at
        least ``life`` seconds more), if any."""
        clicks = self.games.get(table.game_id)
        if clicks is None:
            return None
        for token in reversed(clicks.recent):
            if self.left(token) > life and token.followups < OUR_FOLLOWUPS and not token.private:
                return token
        return None

    def on_table(self, table: Table) -> Token | None:
        """The token that edits the table message, while it works."""
        clicks = self.games.get(table.game_id)
        if clicks is None or clicks.table_id != self.screens.message_id(table.game_id):
            return None
        return clicks.table if self.fresh(clicks.table) else None

    def table_token(self, table: Table) -> Token | None:
        """The token that posted the table message, fresh or not (to tidy up after it)."""
        clicks = self.games.get(table.game_id)
        if clicks is None or clicks.table_id != self.screens.message_id(table.game_id):
            return None
        return clicks.table

    def aging(self, table: Table) -> bool:
        """Whether the table should move on to a newer click's token: none edits it,
        or the one that does is old enough to be replaced while it can still tidy up."""
        token = self.on_table(table)
        return token is None or self.age(token) >= REPOST_AFTER

    def edits_table(self, table: Table, token: Token, message_id: int) -> None:
        """``token`` edits the table message ``message_id`` from now on."""
        clicks = self.games.setdefault(table.game_id, Clicks())
        clicks.table, clicks.table_id = token, message_id

    def sent(self, token: Token) -> None:
        """A followup went out with ``token``."""
        token.followups += 1

    def failed(self, token: Token) -> None:
        """That token no longer works: never used again (a retry of a dead token is an
        invalid request, and enough of those get the bot's address banned)."""
        token.dead = True
