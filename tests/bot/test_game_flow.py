"""A whole game through Discord: lobby, buttons, AI seats, scoring, the end."""

from __future__ import annotations

import re
from typing import Any

import pytest
import simcord

from bot.service.play.table import Status
from game import Card as C
from testkit.simcord_play import (
    enabled,
    open_hand,
    open_lobby,
    play_to_the_end,
    rig,
    service,
    started_game,
    table_message,
    take_simple_turn,
    texts,
    title,
    two_player_game,
)


@pytest.mark.slow  # a whole game
async def test_three_humans_and_an_ai_play_a_whole_game(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    carol = guild.add_member(simcord_env.create_user("carol"))
    table = await open_lobby(simcord_env, alice, channel, threshold=12)
    lobby = table_message(channel)
    await bob.click(lobby, label="Join")
    await carol.click(table_message(channel), label="Join")
    await alice.select(table_message(channel), ["normal"])
    assert "**Players (4/6)**" in texts(table_message(channel))
    await alice.click(table_message(channel), label="Start")
    assert table.status is Status.RUNNING
    assert "round 1" in title(table_message(channel))

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
    assert "game over" in title(final)
    winners = [table.seats[w].name for w in table.match.winners]
    headline = texts(final).split("\n")[1]  # under the title: who won
    assert all(name in headline for name in winners)
    assert enabled(final, "lama:rematch:")
    assert service(simcord_env).registry.table_in(channel.id) is None


async def test_hand_is_private_and_buttons_are_off_out_of_turn(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await two_player_game(simcord_env, alice, bob, channel)
    assert table.match is not None
    waiting = bob if table.to_move == 0 else alice
    hand = await open_hand(waiting, channel)
    assert (
        not enabled(hand, "lama:play:")
        and not enabled(hand, "lama:draw:")
        and not enabled(hand, "lama:quit:")
    )
    mover = alice if waiting is bob else bob
    assert "Waiting for " + mover.name in texts(hand)


async def test_a_full_lobby_and_a_busy_channel_are_refused_with_a_reason(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    table = await open_lobby(simcord_env, alice, channel)
    for _ in range(5):
        await alice.select(table_message(channel), ["easy"])
    assert len(table.seats) == 6
    assert not enabled(table_message(channel), "lama:join:"), "Join is off when the lobby is full"
    late = guild.add_member(simcord_env.create_user("late"))
    result = await late.slash(channel, "lama join")
    assert result.response is not None and result.response.ephemeral
    assert result.response.content == "The lobby is full (6 players)."
    again = await late.slash(channel, "lama new")
    assert again.response is not None and "already a L.A.M.A. game" in again.response.content
    assert len(table.seats) == 6


async def test_only_the_host_starts_and_rematch_reopens_the_same_table(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    rig(simcord_env, [[C.FOUR], [C.SIX] * 3], C.FOUR, [])
    table = await open_lobby(simcord_env, alice, channel, party=True, threshold=1)
    await bob.click(table_message(channel), label="Join")
    refused = await bob.click(table_message(channel), label="Start")
    assert refused.response is not None and refused.response.content == "Only the host can do that."
    assert table.status is Status.LOBBY
    await alice.click(table_message(channel), label="Start")
    await play_to_the_end(table, [alice, bob], channel)
    await bob.click(table_message(channel), label="Rematch")
    rematch = service(simcord_env).registry.table_in(channel.id)
    assert rematch is not None and rematch is not table and rematch.status is Status.LOBBY
    assert [s.user_id for s in rematch.seats] == [s.user_id for s in table.seats]
    assert rematch.ruleset == table.ruleset
    assert rematch.host_id == bob.id


async def test_a_nickname_cannot_put_a_link_or_formatting_into_the_table(
    simcord_env: simcord.Env, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    mallory = guild.add_member(
        simcord_env.create_user("mallory"), nick="[Free Nitro](https://evil.example)"
    )
    bob = guild.add_member(simcord_env.create_user("bob"), nick="||**bob**||")
    rig(simcord_env, [[C.TWO, C.FIVE], [C.THREE, C.SIX]], C.ONE, [])
    await two_player_game(simcord_env, mallory, bob, channel)
    await take_simple_turn(mallory, channel)
    await simcord_env.advance_time(3)

    shown = texts(table_message(channel))
    link = re.compile(r"(?<!\\)\[Free Nitro\]\(https://evil\.example\)")
    assert not link.search(shown), "a clickable masked link"
    assert "\\[Free Nitro](https://evil.example)" in shown, "the name, shown as typed"
    assert "\\|\\|\\*\\*bob\\*\\*\\|\\|" in shown
    assert "||**bob**||" not in shown, "bold hidden in a spoiler"
    waiting = texts(await open_hand(mallory, channel))
    assert "\\|\\|\\*\\*bob\\*\\*\\|\\|" in waiting


async def kicked_game(
    env: simcord.Env, guild: simcord.GuildHandle, channel: simcord.ChannelHandle, alice: Any
) -> tuple[Any, Any, Any]:
    """alice, bob and carol play; the host kicks carol; alice then ends the game."""
    bob = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))
    rig(env, [[C.FOUR], [C.SIX] * 3, [C.SIX] * 3], C.FOUR, [], starter=0)
    table = await started_game(env, alice, [bob, carol], channel, threshold=1)
    await alice.slash(channel, "lama kick", member=carol)
    await take_simple_turn(alice, channel)
    assert table.status is Status.FINISHED
    await env.advance_time(3)
    return table, bob, carol


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_rematch_leaves_a_kicked_player_out(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    _, bob, carol = await kicked_game(simcord_env, guild, channel, alice)

    await bob.click(table_message(channel), label="Rematch")

    rematch = service(simcord_env).registry.table_in(channel.id)
    assert rematch is not None
    assert [(s.user_id, s.ai) for s in rematch.seats] == [(alice.id, None), (bob.id, None)]
    await carol.click(table_message(channel), label="Join")  # she's back after all
    assert [s.user_id for s in rematch.seats] == [alice.id, bob.id, carol.id]
    assert rematch.seats[2].ai is None


async def test_a_kicked_player_who_asks_for_the_rematch_plays_it_themselves(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    _, bob, carol = await kicked_game(simcord_env, guild, channel, alice)

    await carol.click(table_message(channel), label="Rematch")

    rematch = service(simcord_env).registry.table_in(channel.id)
    assert rematch is not None and rematch.host_id == carol.id
    assert [(s.user_id, s.ai) for s in rematch.seats] == [
        (alice.id, None),
        (bob.id, None),
        (carol.id, None),
    ]
    # alice and bob were asked, not seated: each plays once they confirm with Join.
    for player in (alice, bob):
        await player.click(table_message(channel), label="Join")
    await carol.click(table_message(channel), label="Start")
    assert rematch.status is Status.RUNNING
    assert all(s.controller is None for s in rematch.seats), "every seat played by its human"


async def test_the_host_frees_an_ai_seat_of_a_full_lobby_for_a_friend(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    table = await open_lobby(simcord_env, alice, channel)
    assert not enabled(table_message(channel), "lama:dropai:"), "no AI to remove yet"
    for _ in range(5):
        await alice.select(table_message(channel), ["easy"])
    late = guild.add_member(simcord_env.create_user("late"))
    assert not enabled(table_message(channel), "lama:join:")

    refused = await late.click(table_message(channel), label="Remove AI")
    assert refused.response is not None and refused.response.ephemeral
    assert refused.response.content == "Only the host can do that."
    assert len(table.seats) == 6

    await alice.click(table_message(channel), label="Remove AI")
    assert [s.name for s in table.seats] == ["alice", "AI 1", "AI 2", "AI 3", "AI 4"]
    await late.click(table_message(channel), label="Join")
    assert [s.user_id for s in table.seats][-1] == late.id
    stored = await service(simcord_env).store.games.load_game(table.game_id)
    assert stored is not None and len(stored.seats) == 6, "the freed seat was saved"

    for _ in range(4):
        await alice.click(table_message(channel), label="Remove AI")
    assert [s.name for s in table.seats] == ["alice", "late"]
    assert not enabled(table_message(channel), "lama:dropai:"), "off with no AI left"


async def test_a_host_leaving_the_lobby_hands_it_to_the_next_player_for_good(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await open_lobby(simcord_env, alice, channel)
    await bob.click(table_message(channel), label="Join")

    await alice.click(table_message(channel), label="Leave")

    assert table.host_id == bob.id
    stored = await service(simcord_env).store.games.load_game(table.game_id)
    assert stored is not None and stored.host_id == bob.id, "saved, so a restart keeps it"
    await bob.select(table_message(channel), ["easy"])
    await bob.click(table_message(channel), label="Start")
    assert table.status is Status.RUNNING
