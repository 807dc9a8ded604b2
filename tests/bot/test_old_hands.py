"""Hand buttons of a game that is over: its players see how it ended, anyone else and
any other button (an unknown game, another channel's) the refusal."""

from __future__ import annotations

from typing import Any

import simcord

from game import Card as C
from testkit.simcord_play import (
    enabled,
    forged,
    one_move_from_the_end,
    open_hand,
    rig,
    texts,
    two_player_game,
)

GONE = "That game is over or was cancelled."


async def test_a_forged_hand_button_of_a_game_over_is_refused_to_all_but_its_players(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await one_move_from_the_end(simcord_env, alice, bob, channel)
    hand: Any = await open_hand(alice, channel)
    play = enabled(hand, "lama:play:")[0]
    await alice.click(hand, custom_id=play)  # her last card: the game is over
    gid = table.game_id
    carol = guild.add_member(simcord_env.create_user("carol"))
    side = guild.create_text_channel("side")

    # Its player, on a copy of her play button: how it ended, privately.
    again = await alice.click(forged(simcord_env, channel, play), custom_id=play)
    assert again.ephemeral and "1. alice — 0 points" in texts(again.response)
    refusals = [
        (carol, channel, play),  # not a player of it
        (alice, side, play),  # the game of another channel
        (alice, channel, f"lama:hand:{gid + 1}"),  # no such game
        (alice, channel, f"lama:draw:{gid + 1}:1"),
    ]
    for who, where, custom_id in refusals:
        result = await who.click(forged(simcord_env, where, custom_id), custom_id=custom_id)
        assert result.ephemeral and result.response.content == GONE, (who, custom_id)


async def test_the_hint_button_of_an_old_hand_of_a_game_over_shows_how_it_ended(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """bob's hand, opened on his turn, offers 💡 Hint; it grows too old for the bot to
    edit, and alice, the host, cancels the game. The Hint on it shows the end as its
    other buttons do (the README: "once you click any of its buttons"); before, it
    answered "There's no game running here to give a hint for." and the hand went on
    offering bob his turn."""
    rig(simcord_env, [[C.TWO, C.FIVE], [C.THREE, C.SIX]], C.ONE, [], starter=1)
    await two_player_game(simcord_env, alice, bob, channel, turn_timer=0)
    bobs: Any = await open_hand(bob, channel)
    hint = enabled(bobs, "lama:hint:")[0]
    await simcord_env.advance_time(15 * 60)  # too old to be edited: it shows no end
    await alice.slash(channel, "lama cancel")
    await simcord_env.advance_time(3)

    result = await bob.click(bobs, custom_id=hint)
    assert result.response.ephemeral, "the hand itself shows it"
    assert "This game was cancelled." in texts(result.response), result.response.content
