"""A whole game through Discord: lobby, buttons, AI seats, scoring, the end."""

from __future__ import annotations

import simcord

from bot.tables import Status

from .play import enabled, open_hand, open_lobby, service, table_message, take_simple_turn


async def test_three_humans_and_an_ai_play_a_whole_game(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    bob = guild.add_member(simcord_env.create_user("bob"))
    carol = guild.add_member(simcord_env.create_user("carol"))
    table = await open_lobby(simcord_env, alice, channel, threshold=12)
    lobby = table_message(channel)
    await bob.click(lobby, label="Join")
    await carol.click(table_message(channel), label="Join")
    await alice.select(table_message(channel), ["normal"])
    shown = table_message(channel).embeds[0]
    assert "Players (4/6)" in [f.name for f in shown.fields]
    await alice.click(table_message(channel), label="Start")
    assert table.status is Status.RUNNING
    assert "round 1" in (table_message(channel).embeds[0].title or "")

    players = {a.id: a for a in (alice, bob, carol)}
    for _ in range(3000):
        if table.status is not Status.RUNNING:
            break
        seat = table.to_move
        assert seat is not None
        user_id = table.seats[seat].user_id
        if user_id is None:
            await simcord_env.advance_time(1)
            continue
        await take_simple_turn(players[user_id], channel)
    assert table.status is Status.FINISHED
    assert table.match is not None and table.match.over
    await simcord_env.advance_time(3)  # the coalesced table edit
    final = table_message(channel)
    assert "game over" in (final.embeds[0].title or "")
    winners = [table.seats[w].name for w in table.match.winners]
    assert all(name in (final.embeds[0].description or "") for name in winners)
    assert enabled(final, "lama:rematch:")
    assert service(simcord_env).table_in(channel.id) is None


async def test_hand_is_private_and_buttons_are_off_out_of_turn(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    bob = guild.add_member(simcord_env.create_user("bob"))
    table = await open_lobby(simcord_env, alice, channel)
    await bob.click(table_message(channel), label="Join")
    await alice.click(table_message(channel), label="Start")
    assert table.match is not None
    waiting = bob if table.to_move == 0 else alice
    hand = await open_hand(waiting, channel)
    assert (
        not enabled(hand, "lama:play:")
        and not enabled(hand, "lama:draw:")
        and not enabled(hand, "lama:quit:")
    )
    mover = alice if waiting is bob else bob
    assert "Waiting for " + mover.name in hand.embeds[0].description
