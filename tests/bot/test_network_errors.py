"""A call to Discord that never gets an answer: the connection drops (aiohttp's
``ClientError``, an ``OSError``) or times out.  discord.py raises those as they
are, not as an ``HTTPException``; the bot treats them as a 5xx: tried again,
and nothing else that was due is skipped."""

from __future__ import annotations

import fnmatch
from collections.abc import Callable
from typing import Any

import aiohttp
import pytest
import simcord
from simcord.http import router

from bot.config import Settings
from bot.service.play.table import Status
from testkit.simcord_play import (
    custom_ids,
    last_moves,
    one_move_from_the_end,
    open_hand,
    pings,
    table_message,
    take_simple_turn,
)
from testkit.simcord_play import two_player_game as game
from tests.process.common import restart, running

from .test_rest_budget import duel, turn

Drop = Callable[[str, str, BaseException], None]


@pytest.fixture
def drop(monkeypatch: pytest.MonkeyPatch) -> Drop:
    """``drop(method, path, error)``: the next REST call matching ``method`` and the
    fnmatch pattern ``path`` raises ``error`` instead of reaching SimCord's Discord."""
    armed: list[tuple[str, str, BaseException]] = []
    dispatch = router.dispatch

    def dispatching(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        for fault in armed:
            if method == fault[0] and fnmatch.fnmatch(path, fault[1]):
                armed.remove(fault)
                raise fault[2]
        return dispatch(backend, method, path, **kwargs)

    monkeypatch.setattr(router, "dispatch", dispatching)
    return lambda method, path, error: armed.append((method, path, error))


@pytest.mark.parametrize(
    "error",
    [aiohttp.ServerDisconnectedError(), TimeoutError(), ConnectionResetError()],
    ids=["disconnected", "timeout", "reset"],
)
async def test_a_table_edit_whose_connection_drops_still_shows_the_move(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    drop: Drop,
    error: BaseException,
) -> None:
    await duel(simcord_env, guild, channel, alice)
    # The table is edited with the Start click's token, or the bot token.
    drop("PATCH", "/webhooks/*/messages/@original", error)
    drop("PATCH", f"/channels/{channel.id}/messages/*", error)

    await take_simple_turn(alice, channel)
    await simcord_env.advance_time(120)

    assert "alice played" in last_moves(channel)


async def test_a_hand_refresh_that_times_out_still_pings_the_next_player(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    drop: Drop,
) -> None:
    _table, bob = await duel(simcord_env, guild, channel, alice)
    # Past the Start click's token: bob's /lama hand (its answer his hand) posts the
    # table anew, and the only edit of an interaction's answer left is his hand,
    # refreshed on his turn.
    await simcord_env.advance_time(15 * 60)
    hand = await bob.slash(channel, "lama hand")
    assert hand.ephemeral
    drop("PATCH", "/webhooks/*/messages/@original", TimeoutError())

    await take_simple_turn(alice, channel)
    await simcord_env.advance_time(120)

    assert pings(channel) == [turn(bob)]
    assert "alice played" in last_moves(channel)


async def test_the_last_move_shows_on_the_table_when_a_hand_refresh_drops(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    drop: Drop,
    bob: simcord.MemberActor,
) -> None:
    table = await one_move_from_the_end(simcord_env, alice, bob, channel)
    await simcord_env.advance_time(3)
    await open_hand(bob, channel)
    # The game's end refreshes the open hands before the table: the first goes wrong.
    drop("PATCH", "/webhooks/*/messages/*", aiohttp.ServerDisconnectedError())

    await take_simple_turn(alice, channel)
    await simcord_env.advance_time(120)

    assert table.status is Status.FINISHED
    assert "Rematch" in [label for _, label, _ in custom_ids(table_message(channel))]


async def test_a_dropped_look_up_at_startup_leaves_the_other_resumed_tables_pinged(
    simcord_env: simcord.Env,
    settings: Settings,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    drop: Drop,
    bob: simcord.MemberActor,
) -> None:
    await game(simcord_env, alice, bob, channel, turn_timer=0)
    side = guild.create_text_channel("side")
    other = await game(simcord_env, bob, alice, side, turn_timer=0)
    # Asking Discord about the first table's channel (gone from the cache) drops.
    drop("GET", f"/channels/{channel.id}", aiohttp.ServerDisconnectedError())
    since = len(simcord_env.http_requests)

    await restart(
        simcord_env, settings, while_down=lambda: simcord_env.backend.delete_channel(channel.id)
    )
    await simcord_env.advance_time(10)

    # Its ping goes out anew (with a restored click's token, or the bot's).
    resent = [
        r.path
        for r in simcord_env.http_requests[since:]
        if r.method == "POST"
        and (r.path == f"/channels/{side.id}/messages" or r.path.startswith("/webhooks/"))
        and isinstance(r.json, dict)
        and "<@" in str(r.json.get("content"))
    ]
    assert resent, "the other resumed table got no fresh ping"
    assert pings(side), "its ping stands"
    assert running(simcord_env, other.game_id).channel_id == side.id
