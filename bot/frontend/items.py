"""The persistent buttons and selects, and the router that hands each click to its family's handler.

One ``DynamicItem`` matches every ``lama:`` id, so a stale or forged id still
reaches us and gets an explanation instead of "This interaction failed". Typed ids
(:mod:`bot.frontend.custom_ids`) travel as objects: a view builds its buttons from
them, and a click's custom_id is parsed once, here. The item checks that a game's
click is in the game's place, with the table it looked up (the click's one lookup),
and the bot's :class:`Router` hands the typed id, and that table, to the handler
registered for its family (each cog registers its own in ``cog_load``). A click no
handler takes is answered as an unknown button.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, Self, TypeVar, cast

import discord

from bot.i18n import text
from bot.service import GameService
from bot.service.play.table import Table
from game import Ruleset
from game.ai import Strength

from .custom_ids import (
    AIPick,
    BoardId,
    ButtonId,
    ReplayId,
    RulePick,
    add_ai_id,
    fits_store,
    parse,
    parse_rule,
    rule_id,
    rule_value,
)
from .places import place_of
from .replies import Interaction, answer_unexpected
from .words import house_rule_options

log = logging.getLogger(__name__)

Routed = ButtonId | AIPick | RulePick
R = TypeVar("R", bound=Routed)
Handler = Callable[[Interaction, R], Awaitable[None]]
#: A handler of a game's family: also given the live table the click's place check
#: found (None: the service holds no such game, over or never ours).
TableHandler = Callable[[Interaction, R, Table | None], Awaitable[None]]
#: What is done with a handler that raised: log it and still answer the click
#: (discord.py would only log it, and the player would see "This interaction failed").
ErrorHandler = Callable[[Interaction, Exception, str | None], Awaitable[None]]


async def reply_unknown(interaction: Interaction) -> None:
    await interaction.response.send_message(
        text(interaction.locale, "error.unknown_button"), ephemeral=True
    )


async def log_and_answer(interaction: Interaction, error: Exception, custom_id: str | None) -> None:
    log.error("component %s failed", custom_id, exc_info=error)
    await answer_unexpected(interaction)


class Router:
    """Each family of typed ids to the one handler that answers it."""

    def __init__(self) -> None:
        self._handlers: dict[type[Any], TableHandler[Any]] = {}
        self.on_error: ErrorHandler = log_and_answer

    def register(self, family: type[R], handler: Handler[R]) -> None:
        """Hand the clicks of ``family`` to ``handler``."""

        async def without_table(interaction: Interaction, cid: R, table: Table | None) -> None:
            await handler(interaction, cid)

        self.register_at_table(family, without_table)

    def register_at_table(self, family: type[R], handler: TableHandler[R]) -> None:
        """Hand the clicks of ``family`` (a game's) to ``handler``, with the table the
        click's place check found: the click looks its table up once."""
        if family in self._handlers:
            raise ValueError(f"{family.__name__} has a handler already")
        self._handlers[family] = handler

    def unregister(self, family: type[Routed]) -> None:
        self._handlers.pop(family, None)

    async def dispatch(
        self,
        interaction: Interaction,
        cid: Routed | None,
        custom_id: str | None,
        table: Table | None = None,
    ) -> None:
        """Hand ``cid`` (and ``table``, its game's as the place check found it) to its
        handler; an id we never made, or one no handler takes (its cog unloaded), is
        explained as an unknown button."""
        try:
            handler = None if cid is None else self._handlers.get(type(cid))
            if handler is None:
                await reply_unknown(interaction)
            else:
                await handler(interaction, cid, table)
        except Exception as error:
            await self.on_error(interaction, error, custom_id)


class ClickHost(Protocol):
    """What the items need of the bot."""

    @property
    def router(self) -> Router: ...

    @property
    def service(self) -> GameService: ...


def _host(interaction: Interaction) -> ClickHost:
    return cast(ClickHost, interaction.client)


class _AtTable:
    """A game's component: the table its click found, once its place was checked."""

    table: Table | None = None

    async def in_its_place(self, interaction: Interaction, game_id: int) -> bool:
        """A game's components act only in the game's own channel: a custom_id copied
        into another channel or server (anyone can craft one) is refused there.

        The table looked up here is the one the handler is given. A game the service
        no longer holds is checked by the handler (a Rematch reopens only a finished
        game of the channel it is clicked in).
        """
        try:
            table = _host(interaction).service.registry.table(game_id)
            here = (place_of(interaction), interaction.channel_id)
            if table is None or (table.guild_id, table.channel_id) == here:
                self.table = table
                return True
            await interaction.response.send_message(
                text(interaction.locale, "error.wrong_place"), ephemeral=True
            )
        except Exception:
            # discord.py would drop the click without a word if this raised.
            log.exception("checking the place of game %s failed", game_id)
            await answer_unexpected(interaction)
        return False


class LamaButton(
    _AtTable, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"lama:(?P<body>.{0,95})"
):
    def __init__(self, button: discord.ui.Button[Any], cid: ButtonId | None) -> None:
        super().__init__(button)
        self.cid = cid

    @classmethod
    def make(
        cls,
        cid: ButtonId,
        label: str,
        style: discord.ButtonStyle,
        *,
        disabled: bool = False,
        emoji: str | discord.Emoji | None = None,
        row: int | None = None,
    ) -> LamaButton:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label[:80],
            style=style,
            custom_id=cid.custom_id,  # its string form only for Discord
            disabled=disabled,
            emoji=emoji,
            row=row,
        )
        return cls(button, cid)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> LamaButton:
        button: discord.ui.Button[Any] = discord.ui.Button(custom_id=match.string)
        return cls(button, parse(match["body"]))  # the click's custom_id, parsed once

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        cid = self.cid
        # The leaderboard checks its server; a replay is private and may be clicked anywhere
        # in the server, its handler checks who may see the game.
        if cid is None or isinstance(cid, BoardId | ReplayId):
            return True
        return await self.in_its_place(interaction, cid.game_id)

    async def callback(self, interaction: Interaction) -> None:
        router = _host(interaction).router
        await router.dispatch(interaction, self.cid, self.item.custom_id, self.table)


def select_id(version: float) -> int:
    """A component id (32 bits, apart from the few Discord numbers a message's other
    components with) that changes with ``version``, to the millisecond."""
    return 1000 + round(version * 1000) % (2**30)


class _GameSelect(
    _AtTable,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"lama-(?:ai|rule):(?P<game>[0-9]{1,19})",
):
    """A select of one game's lobby (``lama-<kind>:<game>``), acting only in its channel;
    each kind is a subclass with its own template."""

    def __init__(self, select: discord.ui.Select[Any], game_id: int | None) -> None:
        super().__init__(select)
        self.game_id = game_id  # None: a number too big for the store, no game of ours

    @classmethod
    async def from_custom_id(
        cls,
        interaction: Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        select: discord.ui.Select[Any] = discord.ui.Select(custom_id=match.string)
        game_id = int(match["game"])
        return cls(select, game_id if fits_store(game_id) else None)

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        return self.game_id is None or await self.in_its_place(interaction, self.game_id)


class AddAISelect(_GameSelect, template=r"lama-ai:(?P<game>[0-9]{1,19})"):
    @classmethod
    def make(
        cls, game_id: int, locale: str, *, disabled: bool = False, version: float = 0.0
    ) -> AddAISelect:
        """The lobby's select as of its last change at ``version`` (unix time): a new
        component each time (its ``id``), since a client shows a select's last pick for as
        long as it is the same one, and after "Easy" was added it went on showing "Easy"
        rather than its placeholder."""
        select: discord.ui.Select[Any] = discord.ui.Select(
            id=select_id(version),
            custom_id=add_ai_id(game_id),
            placeholder=text(locale, "lobby.add_ai"),
            disabled=disabled,
            options=[
                discord.SelectOption(
                    label=text(locale, f"ai.{s.value}"),
                    value=s.value,
                    description=text(locale, f"ai.{s.value}.about"),
                )
                for s in Strength
            ],
        )
        return cls(select, game_id)

    async def callback(self, interaction: Interaction) -> None:
        values = self.item.values
        known = bool(values) and values[0] in {s.value for s in Strength}
        game_id = self.game_id
        pick = AIPick(game_id, Strength(values[0])) if known and game_id is not None else None
        router = _host(interaction).router
        await router.dispatch(interaction, pick, self.item.custom_id, self.table)


class RuleSelect(_GameSelect, template=r"lama-rule:(?P<game>[0-9]{1,19})"):
    """The lobby's house rules, shown to its host privately: one option for each value the
    rules don't have now, a pick changing that one dimension."""

    @classmethod
    def make(
        cls, game_id: int, locale: str, ruleset: Ruleset, *, version: float = 0.0
    ) -> RuleSelect:
        """The select for ``ruleset`` as of the lobby's last change at ``version`` (a new
        component each time, as :meth:`AddAISelect.make` says why)."""
        select: discord.ui.Select[Any] = discord.ui.Select(
            id=select_id(version) + 1,  # beside the Add AI select's
            custom_id=rule_id(game_id),
            placeholder=text(locale, "lobby.house_rule"),
            options=[
                discord.SelectOption(
                    label=o.label, value=rule_value(o.name, o.value), description=o.description
                )
                for o in house_rule_options(locale, ruleset)
            ],
        )
        return cls(select, game_id)

    async def callback(self, interaction: Interaction) -> None:
        values = self.item.values
        rule = parse_rule(values[0]) if values else None
        game_id = self.game_id
        pick = RulePick(game_id, *rule) if rule is not None and game_id is not None else None
        router = _host(interaction).router
        await router.dispatch(interaction, pick, self.item.custom_id, self.table)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LamaButton,
    AddAISelect,
    RuleSelect,
)
