"""The finished table's standings: equal points share a place, as the winners line,
/lama history and the export have it."""

from __future__ import annotations

import simcord

from game import Card as C
from testkit.simcord_play import table_message, text_blocks

from .games import Round, play_rigged_game
from .test_rating_change import standings

# Everybody quits at once: alice and bob hold a 3 (3 points each), carol a Llama (10),
# which ends a game to 5 points with alice and bob the winners.
TIE = [
    Round(
        hands=[[C.THREE], [C.THREE], [C.LLAMA]],
        top=C.ONE,
        moves=[(0, "quit"), (1, "quit"), (2, "quit")],
    )
]


async def test_equal_points_share_a_place_in_the_standings(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    carol = guild.add_member(simcord_env.create_user("carol"))
    await play_rigged_game(simcord_env, channel, [alice, bob, carol], TIE)
    await simcord_env.advance_time(3)

    shown = table_message(channel)
    assert any("**alice**, **bob**" in b for b in text_blocks(shown)), "both win"
    first, second, third = standings(shown)
    assert first.startswith("1. alice — 3 points")
    assert second.startswith("1. bob — 3 points"), "a tie is one place, not 1. and 2."
    assert third.startswith("3. carol — 10 points")
