"""Playing through SimCord's Discord the way a player would: find the table, open a hand, click."""

from __future__ import annotations

import re
from typing import Any

import discord
import simcord
from simcord.backend.models import Overwrite
from simcord.components import COMPONENTS_V2_FLAG, walk_components
from simcord.enums import OverwriteType
from simcord.results import to_discord_message

from bot.service import GameService
from bot.service.play.table import Status, Table
from game import Card

from .deals import whole_deal


def service(env: simcord.Env) -> GameService:
    return env.bot.service  # type: ignore[attr-defined, no-any-return]


def shown_at(env: simcord.Env, table: Table) -> int | None:
    """The message that shows ``table`` now: the front end's, not the game's."""
    return env.bot.presenter.table_message_id(table)  # type: ignore[attr-defined, no-any-return]


def components(message: Any) -> list[dict[str, Any]]:
    """A message's, response's or layout's components as Discord's JSON, nested ones included."""
    rows = message.to_components() if hasattr(message, "to_components") else message.components
    tree = [row if isinstance(row, dict) else row.to_dict() for row in rows]
    return list(walk_components(tree))


def text_blocks(message: Any) -> list[str]:
    """The text displays of a Components V2 message, in order."""
    return [str(c["content"]) for c in components(message) if c.get("type") == 10]


def texts(message: Any) -> str:
    """Every text display of a Components V2 message, in order, a line between them."""
    return "\n".join(text_blocks(message))


def title(message: Any) -> str:
    """The heading a layout opens with, without its "## "."""
    shown = texts(message)
    return shown.split("\n", 1)[0].lstrip("#").strip() if shown else ""


def accent(message: Any) -> int | None:
    """The accent colour of the message's container."""
    return next((c.get("accent_color") for c in components(message) if c.get("type") == 17), None)


def is_components_v2(message: Any) -> bool:
    return bool(message.flags.value & COMPONENTS_V2_FLAG)


def table_message(channel: simcord.ChannelHandle) -> discord.Message:
    """The newest bot message that is a L.A.M.A. layout: the table."""
    for message in reversed(channel.history()):
        if title(message).startswith("🦙"):
            return message
    raise AssertionError("no table message in the channel")


def last_moves(channel: simcord.ChannelHandle) -> str:
    """The table's "Last moves", a line per move."""
    return moves_shown(table_message(channel))


def moves_shown(message: Any) -> str:
    """The "Last moves" of a table message or layout, a line per move."""
    block = next(t for t in text_blocks(message) if t.startswith("**Last moves**"))
    return block.split("\n", 1)[1]


def pings(channel: simcord.ChannelHandle) -> list[str]:
    """The turn pings and warnings standing in the channel."""
    return [m.content.strip() for m in channel.history() if m.content.startswith(("<@", "⏰"))]


def fail_table_edits(
    env: simcord.Env, channel: simcord.ChannelHandle, times: int, **error: Any
) -> None:
    """The next ``times`` edits of a message fail (429 unless ``error`` says otherwise:
    ``status``, ``code``, ``message``), whichever token makes them: the bot token's
    edit, or a click's token editing the table its answer is."""
    error.setdefault("status", 429)
    env.inject_error("PATCH", f"/channels/{channel.id}/messages/*", times=times, **error)
    env.inject_error("PATCH", "/webhooks/*/messages/@original", times=times, **error)


def bot_token_calls(env: simcord.Env, calls: list[Any]) -> list[Any]:
    """The calls that count against the bot token's budget: all but those made with
    an interaction token (``/interactions/…/callback``, ``/webhooks/{app}/{token}/…``)."""
    hooks = f"/webhooks/{env.backend.application_id}/"
    return [c for c in calls if not c.path.startswith((hooks, "/interactions/"))]


def below_title(message: Any) -> str:
    """A layout's text without its title line: what a hand says."""
    return texts(message).split("\n", 1)[-1]


def forged(env: simcord.Env, channel: simcord.ChannelHandle, custom_id: str) -> discord.Message:
    """A message in ``channel`` with one button carrying ``custom_id``, as a copied or
    crafted component would arrive."""
    backend = env.backend
    stored = backend.create_message(
        channel.id,
        backend.bot_user.id,
        "",
        components=[
            {
                "type": 1,
                "components": [{"type": 2, "style": 1, "label": "Forged", "custom_id": custom_id}],
            }
        ],
    )
    return to_discord_message(env, stored)


def lock(env: simcord.Env, guild: simcord.GuildHandle, channel: simcord.ChannelHandle) -> None:
    """A moderator makes ``channel`` read-only: members may read it, only the bot may
    send there."""
    send = discord.Permissions(send_messages=True).value
    bot_id = env.bot.user.id  # type: ignore[union-attr]
    for target, kind, allow, deny in (
        (guild.id, OverwriteType.ROLE, 0, send),  # @everyone
        (bot_id, OverwriteType.MEMBER, send, 0),
    ):
        env.backend.set_overwrite(channel.id, Overwrite(target, kind, allow, deny))


def custom_ids(message: Any) -> list[tuple[str, str, bool]]:
    """(custom_id, label, disabled) of every button of a message or response."""
    return [
        (str(c.get("custom_id", "")), str(c.get("label", "") or ""), bool(c.get("disabled")))
        for c in components(message)
        if c.get("type") in (2, 3)
    ]


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
    table = service(env).registry.table_in(channel.id)
    assert table is not None
    return table


async def open_hand(player: simcord.MemberActor, channel: simcord.ChannelHandle) -> Any:
    result = await player.click(table_message(channel), label="Show my hand")
    if not result.ephemeral:
        # The table's token ran out: the click brought the table up to date in place,
        # and the hand came as a private followup.
        [hand] = [f for f in result.followups if f.ephemeral]
        return hand
    return result.response


async def take_simple_turn(player: simcord.MemberActor, channel: simcord.ChannelHandle) -> Any:
    """Play the first card that fits, else draw, else quit."""
    hand = await open_hand(player, channel)
    for prefix in ("lama:play:", "lama:draw:", "lama:quit:"):
        ids = enabled(hand, prefix)
        if ids:
            return await player.click(hand, custom_id=ids[0])
    raise AssertionError(f"no move button enabled in {custom_ids(hand)}")


async def play_to_the_end(
    table: Table, players: list[simcord.MemberActor], channel: simcord.ChannelHandle
) -> None:
    """The humans take simple turns until the game is over (no AI seats)."""
    by_id = {player.id: player for player in players}
    for _ in range(500):
        if table.status is not Status.RUNNING:
            break
        seat = table.to_move
        assert seat is not None
        await take_simple_turn(by_id[table.seats[seat].user_id or 0], channel)
    assert table.status is Status.FINISHED


def rig(
    env: simcord.Env,
    hands: list[list[Card]],
    top: Card,
    pile: list[Card],
    starter: int = 0,
) -> None:
    """Make the next round deal exactly these cards (a puzzle deal), the rest of the deck
    of the rules the table plays in the draw pile: see :func:`testkit.deals.whole_deal`."""
    deal = whole_deal(hands, top, pile, starter)
    service(env).dealer.scripted.append(deal)


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


async def finished_game(
    env: simcord.Env,
    host: simcord.MemberActor,
    other: simcord.MemberActor,
    channel: simcord.ChannelHandle,
) -> Table:
    """A two-player game the host has just won with its last card, its end shown."""
    table = await one_move_from_the_end(env, host, other, channel)
    await take_simple_turn(host, channel)
    await env.advance_time(3)
    return table


def private(result: simcord.InteractionResult) -> str:
    """The text of an answer that must be for the asker alone."""
    assert result.ephemeral and result.response is not None, "the answer is private"
    return str(result.response.content)


def answered(result: Any) -> list[str]:
    """Every text an interaction was answered with: its followups, then its response
    (a deferred command's answer fills that in)."""
    response = result.response.content if result.response is not None else ""
    return [m.content for m in result.followups] + [response]


def table_versions(calls: list[Any]) -> list[str]:
    """The "Last moves" of every table message sent or edited in ``calls``, whichever
    token made the call: each version of the table players could have seen."""
    shown = []
    for call in calls:
        if call.method not in ("PATCH", "POST") or not isinstance(call.json, dict):
            continue
        payload = call.json.get("data", call.json)  # an interaction's answer wraps it
        if not isinstance(payload, dict):
            continue
        blocks = [
            str(part.get("content", ""))
            for part in walk_components(payload.get("components") or [])
            if part.get("type") == 10
        ]
        if any(b.startswith("## 🦙") for b in blocks):
            moves = next((b for b in blocks if b.startswith("**Last moves**")), "")
            shown.append(moves.split("\n", 1)[-1])
    return shown


async def draws_unseen(
    env: simcord.Env,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
    channel: simcord.ChannelHandle,
    draws: int,
) -> None:
    """A two-player game in which nothing fits the top card: once the table shows the
    deal, Discord fails its edits while alice and bob draw ``draws`` times in all."""
    misfits = [Card.FIVE] * 8 + [Card.FOUR] * 8 + [Card.SIX] * 2 + [Card.LLAMA] * 8
    rig(env, [[Card.SIX] * 3, [Card.SIX] * 3], Card.ONE, misfits)
    table = await two_player_game(env, alice, bob, channel, turn_timer=0)
    await env.advance_time(3)
    assert last_moves(channel).startswith("New round dealt")
    fail_table_edits(env, channel, times=1000, status=503)
    for _ in range(draws):
        await take_simple_turn(alice if table.to_move == 0 else bob, channel)


def draws_counted(channel: simcord.ChannelHandle) -> int:
    """The draws the table accounts for: those it lists, and those its one "… N more
    moves" row before them counts (that row must be there, the others all draws)."""
    rows = last_moves(channel).split("\n")
    found = re.fullmatch(r"… (\d+) more moves", rows[0])
    assert found is not None and all(row.endswith("drew a card") for row in rows[1:]), rows
    return int(found[1]) + len(rows) - 1
