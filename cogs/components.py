"""Persistent buttons and selects.

Every custom_id holds identifiers only (``lama:<action>:<game>[:<stamp>[:<card>]]``);
the state they act on lives in the game service and the store.  One
``DynamicItem`` matches every ``lama:`` id, so a stale or forged id still
reaches us and gets an explanation instead of "This interaction failed".
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.i18n import text
from data.records import LEADERBOARD_ORDERS
from game import Card
from game.ai import Strength

from .glue import answer_unexpected

if TYPE_CHECKING:
    from bot.client import LamaBot

log = logging.getLogger(__name__)

TABLE_ACTIONS = frozenset(
    {
        "join",
        "leave",
        "start",
        "cancel",
        "rematch",
        "hand",
        "rules",
        "back",
        "dropai",
        "hints",
        "hint",
        "review",
    }
)
MOVE_ACTIONS = frozenset({"play", "draw", "quit"})
#: A seat's card count on the table: ``lama:seat:<game>:<seat>``, a button no one can press.
SEAT_ACTION = "seat"
LOBBY_ACTIONS = frozenset({"join", "leave", "start", "cancel", "rematch", "dropai", "hints"})
#: The Hint button of a hand and the review button of a finished game.
HINT_ACTIONS = frozenset({"hint", "review"})
#: Leaderboard paging: ``lama:board:<guild>:<page>:<order index>``.
BOARD_ACTION = "board"
#: The cog that handles each action; anything else goes to "Gameplay".
COG_OF: dict[str, str] = {
    **dict.fromkeys(LOBBY_ACTIONS, "Lobby"),
    **dict.fromkeys(HINT_ACTIONS, "Hints"),
    BOARD_ACTION: "Stats",
}


@dataclass(frozen=True, slots=True)
class ComponentId:
    action: str
    game_id: int
    stamp: int | None = None
    card: Card | None = None
    option: int | None = None  # the leaderboard order (an index into LEADERBOARD_ORDERS), a seat


def table_id(action: str, game_id: int) -> str:
    return f"lama:{action}:{game_id}"


def hand_id(game_id: int) -> str:
    return table_id("hand", game_id)


def seat_id(game_id: int, seat: int) -> str:
    return f"lama:{SEAT_ACTION}:{game_id}:{seat}"


def move_id(action: str, game_id: int, stamp: int, card: int | None = None) -> str:
    base = f"lama:{action}:{game_id}:{stamp}"
    return base if card is None else f"{base}:{card}"


_NUMBER = r"[0-9]{1,19}"
_BODY = re.compile(
    rf"(?P<action>[a-z]{{2,10}}):(?P<game>{_NUMBER})(?::(?P<stamp>{_NUMBER}))?(?::(?P<card>[0-9]{{1,2}}))?"
)


def parse(body: str) -> ComponentId | None:
    """The meaning of a custom_id body, or None if it is not one we ever made."""
    m = _BODY.fullmatch(body)
    if m is None:
        return None
    action = m["action"]
    game_id = int(m["game"])
    if action == BOARD_ACTION:
        # game = guild id, stamp = page, card = order
        if m["stamp"] is None or m["card"] is None:
            return None
        order = int(m["card"])
        if order >= len(LEADERBOARD_ORDERS):
            return None
        return ComponentId(action, game_id, int(m["stamp"]), option=order)
    if action in TABLE_ACTIONS:
        return None if m["stamp"] is not None else ComponentId(action, game_id)
    if action == SEAT_ACTION:
        if m["stamp"] is None or m["card"] is not None:
            return None
        return ComponentId(action, game_id, option=int(m["stamp"]))
    if action not in MOVE_ACTIONS or m["stamp"] is None:
        return None
    stamp = int(m["stamp"])
    if action == "play":
        if m["card"] is None:
            return None
        try:
            card = Card(int(m["card"]))
        except ValueError:
            return None
        return ComponentId(action, game_id, stamp, card)
    return None if m["card"] is not None else ComponentId(action, game_id, stamp)


class ComponentHandler(Protocol):
    async def handle_component(
        self, interaction: discord.Interaction[LamaBot], cid: ComponentId
    ) -> None: ...


def _handler(interaction: discord.Interaction[LamaBot], cog: str) -> ComponentHandler | None:
    return interaction.client.get_cog(cog)  # type: ignore[return-value]


async def _reply_unknown(interaction: discord.Interaction[LamaBot]) -> None:
    await interaction.response.send_message(
        text(interaction.locale, "error.unknown_button"), ephemeral=True
    )


async def _answering(
    interaction: discord.Interaction[Any], custom_id: str | None, work: Awaitable[None]
) -> None:
    """Run a component's handler; if it fails, log it and still answer the click
    (discord.py would only log it, and the player would see "This interaction failed")."""
    try:
        await work
    except Exception:
        log.exception("component %s failed", custom_id)
        await answer_unexpected(interaction)


async def _in_its_place(interaction: discord.Interaction[LamaBot], game_id: int) -> bool:
    """A game's components act only in the game's own channel: a custom_id copied
    into another channel or server (anyone can craft one) is refused there.

    A game the service no longer holds is checked by the handler (a Rematch
    reopens only a finished game of the channel it is clicked in).
    """
    try:
        table = interaction.client.service.table(game_id)
        here = (interaction.guild_id, interaction.channel_id)
        if table is None or (table.guild_id, table.channel_id) == here:
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
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"lama:(?P<body>.{0,95})"
):
    def __init__(self, button: discord.ui.Button[Any], cid: ComponentId | None) -> None:
        super().__init__(button)
        self.cid = cid

    @classmethod
    def make(
        cls,
        custom_id: str,
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
            custom_id=custom_id,
            disabled=disabled,
            emoji=emoji,
            row=row,
        )
        return cls(button, parse(custom_id.removeprefix("lama:")))

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> LamaButton:
        button: discord.ui.Button[Any] = discord.ui.Button(custom_id=match.string)
        return cls(button, parse(match["body"]))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        cid = self.cid
        if cid is None or cid.action == BOARD_ACTION:  # the leaderboard checks its server
            return True
        return await _in_its_place(interaction, cid.game_id)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _answering(interaction, self.item.custom_id, self._dispatch(interaction))

    async def _dispatch(self, interaction: discord.Interaction[Any]) -> None:
        cid = self.cid
        if cid is None:
            await _reply_unknown(interaction)
            return
        handler = _handler(interaction, COG_OF.get(cid.action, "Gameplay"))
        if handler is None:
            await _reply_unknown(interaction)
            return
        await handler.handle_component(interaction, cid)


class AddAISelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"lama-ai:(?P<game>[0-9]{1,19})"
):
    def __init__(self, select: discord.ui.Select[Any], game_id: int) -> None:
        super().__init__(select)
        self.game_id = game_id

    @classmethod
    def make(cls, game_id: int, locale: str, *, disabled: bool = False) -> AddAISelect:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"lama-ai:{game_id}",
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

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> AddAISelect:
        select: discord.ui.Select[Any] = discord.ui.Select(custom_id=match.string)
        return cls(select, int(match["game"]))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return await _in_its_place(interaction, self.game_id)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _answering(interaction, self.item.custom_id, self._dispatch(interaction))

    async def _dispatch(self, interaction: discord.Interaction[Any]) -> None:
        values = self.item.values
        lobby = interaction.client.get_cog("Lobby")
        if lobby is None or not values or values[0] not in {s.value for s in Strength}:
            await _reply_unknown(interaction)
            return
        await lobby.add_ai(interaction, self.game_id, Strength(values[0]))


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (LamaButton, AddAISelect)
