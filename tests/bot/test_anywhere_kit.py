"""The play-anywhere kit around the real LamaBot: a game and a restart in the server with the
bot, every REST call counted, none refused, no token dead, no cap reached."""

from __future__ import annotations

import simcord

from bot.client import LamaBot
from bot.config import Settings
from bot.service.play.table import Status, Table
from game import Card as C
from testkit.anywhere import Anywhere, PlaceKind
from testkit.simcord_play import open_lobby, play_to_the_end, rig, service, table_message
from tests.simcord_fixtures import fresh_bot


async def short_game(
    env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> Table:
    """alice and bob, one round of a rigged deal (alice holds a single card)."""
    rig(env, [[C.FOUR], [C.SIX] * 3], C.FOUR, [])
    table = await open_lobby(env, alice, channel, party=True, threshold=1)
    await bob.click(table_message(channel), label="Join")
    await alice.click(table_message(channel), label="Start")
    return table


async def test_a_game_in_the_server_with_the_bot_is_counted_call_by_call(
    simcord_env: simcord.Env,
    anywhere: Anywhere,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    place = anywhere.place(channel)
    assert place.kind is PlaceKind.SERVER

    table = await short_game(simcord_env, channel, alice, bob)
    await play_to_the_end(table, [alice, bob], channel)

    assert anywhere.calls.at(place)[1] > 0  # interaction-token calls
    calls = anywhere.calls
    assert (calls.refused, calls.dead_token, calls.followup_cap) == (0, 0, 0)


async def test_a_game_goes_on_after_a_restart_with_the_kit_in_place(
    simcord_env: simcord.Env,
    anywhere: Anywhere,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await short_game(simcord_env, channel, alice, bob)
    old = simcord_env.bot
    assert isinstance(old, LamaBot)

    await old.close()  # frees its shard lease, as a stopped process does
    await simcord_env.restart_bot(fresh_bot(settings, old))

    resumed = service(simcord_env).registry.table_in(channel.id)
    assert resumed is not None and resumed.status is Status.RUNNING
    await play_to_the_end(resumed, [alice, bob], channel)
    assert resumed.game_id == table.game_id
    assert anywhere.calls.refused == 0
