"""Test helpers that act the way a player would: find the table, open a hand, click."""

from __future__ import annotations

from typing import Any

import discord
import simcord

from bot.service import GameService
from bot.tables import Table


def service(env: simcord.Env) -> GameService:
    return env.bot.service  # type: ignore[attr-defined, no-any-return]


def table_message(channel: simcord.ChannelHandle) -> discord.Message:
    """The newest bot message with lama buttons or a L.A.M.A. embed: the table."""
    for message in reversed(channel.history()):
        if message.embeds and (message.embeds[0].title or "").startswith("🦙"):
            return message
    raise AssertionError("no table message in the channel")


def last_moves(channel: simcord.ChannelHandle) -> str:
    """The table's "Last moves" field, a line per move."""
    fields = table_message(channel).embeds[0].fields
    return next(str(f.value) for f in fields if f.name == "Last moves")


def custom_ids(message: Any) -> list[tuple[str, str, bool]]:
    """(custom_id, label, disabled) of every button of a message or response."""
    rows = message.components
    out: list[tuple[str, str, bool]] = []
    for row in rows:
        children = row["components"] if isinstance(row, dict) else row.children
        for child in children:
            if isinstance(child, dict):
                out.append(
                    (
                        child.get("custom_id", ""),
                        child.get("label", ""),
                        bool(child.get("disabled")),
                    )
                )
            else:
                out.append(
                    (
                        getattr(child, "custom_id", "") or "",
                        getattr(child, "label", "") or "",
                        bool(getattr(child, "disabled", False)),
                    )
                )
    return out


def enabled(message: Any, prefix: str) -> list[str]:
    return [
        cid
        for cid, _label, disabled in custom_ids(message)
        if cid.startswith(prefix) and not disabled
    ]


async def open_lobby(
    env: simcord.Env, host: simcord.MemberActor, channel: simcord.ChannelHandle, **options: Any
) -> Table:
    result = await host.slash(channel, "lama new", **options)
    assert result.response is not None and not result.ephemeral
    table = service(env).table_in(channel.id)
    assert table is not None
    return table


async def open_hand(player: simcord.MemberActor, channel: simcord.ChannelHandle) -> Any:
    result = await player.click(table_message(channel), label="Show my hand")
    assert result.ephemeral, "a hand must only be shown to its owner"
    return result.response


async def take_simple_turn(player: simcord.MemberActor, channel: simcord.ChannelHandle) -> Any:
    """Play the first card that fits, else draw, else quit."""
    hand = await open_hand(player, channel)
    for prefix in ("lama:play:", "lama:draw:", "lama:quit:"):
        ids = enabled(hand, prefix)
        if ids:
            return await player.click(hand, custom_id=ids[0])
    raise AssertionError(f"no move button enabled in {custom_ids(hand)}")


def rig(
    env: simcord.Env,
    hands: list[list[Any]],
    top: Any,
    pile: list[Any],
    starter: int = 0,
    **variants: bool,
) -> None:
    """Make the next round deal exactly these cards (a puzzle deal).

    The draw pile starts with ``pile`` and goes on with the rest of the deck,
    so every card of the deck is in play as in a real deal.
    """
    from collections import Counter

    from game import build_deck, explicit_deal

    rest = Counter(
        build_deck(party=variants.get("party", False), komarami=variants.get("komarami", False))
    )
    rest.subtract([*(c for hand in hands for c in hand), top, *pile])
    if any(n < 0 for n in rest.values()):
        raise AssertionError(f"the deal uses cards the deck doesn't have: {-rest}")
    full_pile = [*pile, *sorted(rest.elements())]

    def deal(match: Any) -> Any:
        return explicit_deal(hands, top, full_pile, starter, round_no=len(match.results) + 1)

    service(env).scripted_deals.append(deal)


async def two_player_game(
    env: simcord.Env,
    host: simcord.MemberActor,
    other: simcord.MemberActor,
    channel: simcord.ChannelHandle,
    **options: Any,
) -> Table:
    return await started_game(env, host, [other], channel, **options)


async def started_game(
    env: simcord.Env,
    host: simcord.MemberActor,
    others: list[simcord.MemberActor],
    channel: simcord.ChannelHandle,
    **options: Any,
) -> Table:
    """The host opens a lobby, ``others`` join in order, the host starts."""
    table = await open_lobby(env, host, channel, **options)
    for player in others:
        await player.click(table_message(channel), label="Join")
    await host.click(table_message(channel), label="Start")
    return table


async def one_move_from_the_end(
    env: simcord.Env,
    host: simcord.MemberActor,
    other: simcord.MemberActor,
    channel: simcord.ChannelHandle,
) -> Table:
    """A two-player game (threshold 1) that the host ends by playing their only card."""
    from game import Card

    rig(env, [[Card.FOUR], [Card.SIX] * 3], Card.FOUR, [])
    return await two_player_game(env, host, other, channel, threshold=1)
