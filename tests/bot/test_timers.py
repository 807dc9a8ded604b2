"""Keeping games moving: turn pings, the turn timer, AFK takeover, kicks, idle lobbies."""

from __future__ import annotations

import pytest
import simcord

from bot.service.play.table import Status
from bot.service.timing import Timing
from game import Card
from testkit.simcord_play import (
    below_title,
    custom_ids,
    enabled,
    last_moves,
    open_hand,
    open_lobby,
    pings,
    rig,
    service,
    started_game,
    table_message,
    take_simple_turn,
    texts,
    two_player_game,
)

C = Card
MOVES = ("lama:play:", "lama:draw:", "lama:quit:")
JUNK = [C.ONE, C.ONE, C.TWO, C.TWO, C.SIX, C.SIX]


async def test_the_player_to_move_is_pinged_and_warned_before_the_timer_runs_out(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    rig(simcord_env, [JUNK, JUNK], C.FOUR, [C.LLAMA] * 8)
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=60)
    assert pings(channel) == [
        f"{alice.mention}, it's your turn — time runs out <t:{int(table.turn_deadline or 0)}:R>"
    ]
    await simcord_env.advance_time(3)
    # "in 2 minutes" is when the turn ends, not when it starts.
    assert f"to move ⏳ ends <t:{int(table.turn_deadline or 0)}:R>" in texts(table_message(channel))
    await simcord_env.advance_time(44)
    warned = pings(channel)
    assert len(warned) == 1 and warned[0].startswith(f"⏰ {alice.mention}, your turn ends")


async def test_running_out_of_time_quits_the_round_and_the_table_says_so(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    rig(simcord_env, [JUNK, JUNK], C.FOUR, [C.LLAMA] * 8)
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=60)
    await simcord_env.advance_time(61)
    assert table.match is not None and table.match.round is not None
    assert table.match.round.active == [False, True]
    assert table.seats[0].missed_turns == 1 and not table.seats[0].away
    await simcord_env.advance_time(3)
    assert "alice ran out of time and quit the round" in last_moves(channel)
    assert pings(channel) == [
        f"{bob.mention}, it's your turn — time runs out <t:{int(table.turn_deadline or 0)}:R>"
    ]


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_two_missed_turns_hand_the_seat_to_an_ai_until_the_player_is_back(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    rig(simcord_env, [JUNK, JUNK], C.FOUR, [C.LLAMA] * 8)
    # Rounds 2 and 3 are started by bob, the last to quit the round before.
    rig(simcord_env, [JUNK, JUNK], C.FOUR, [C.LLAMA] * 8, starter=1)
    rig(simcord_env, [JUNK, JUNK], C.FOUR, [C.LLAMA] * 8, starter=1)
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=60, threshold=100)
    await simcord_env.advance_time(61)  # alice misses her first turn
    bobs = await open_hand(bob, channel)
    await bob.click(bobs, custom_id=enabled(bobs, "lama:quit:")[0])  # round 1 ends
    assert table.match is not None and table.match.round is not None
    assert table.match.round.round_no == 2 and table.to_move == 1
    bobs = await open_hand(bob, channel)
    await bob.click(bobs, custom_id=enabled(bobs, "lama:draw:")[0])
    assert table.to_move == 0
    await simcord_env.advance_time(61)  # the second miss in a row
    assert table.seats[0].away
    await simcord_env.advance_time(3)
    assert "alice missed 2 turns in a row" in last_moves(channel)
    # From now on an AI moves for alice whenever her turn comes.
    bobs = await open_hand(bob, channel)
    await bob.click(bobs, custom_id=enabled(bobs, "lama:quit:")[0])  # round 2 ends
    assert table.match.round is not None and table.match.round.round_no == 3
    moves_before = len(table.match.events)
    bobs = await open_hand(bob, channel)
    await bob.click(bobs, custom_id=enabled(bobs, "lama:draw:")[0])
    await simcord_env.advance_time(2)
    moved = table.match.events[moves_before + 1 :]
    assert moved and moved[0].seat == 0, "the stand-in AI should have moved for alice"
    assert table.seats[0].controller is not None
    result = await alice.click(table_message(channel), label="I'm back")
    assert result.ephemeral or (result.response is not None and result.response.ephemeral)
    assert not table.seats[0].away and table.seats[0].missed_turns == 0
    assert table.seats[0].controller is None


@pytest.mark.parametrize("timing", [Timing(ai_delay=0.0, misses_before_takeover=1)])
async def test_the_table_says_how_many_turns_were_missed_as_the_service_counts_them(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """The turns missed before an AI plays the seat are the service's Timing: the
    table's line counts them as it does, not a "two" of its own."""
    rig(simcord_env, [JUNK, JUNK], C.FOUR, [C.LLAMA] * 8)
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=60)
    await simcord_env.advance_time(61)  # alice misses her turn: once is enough here
    assert table.seats[0].away
    await simcord_env.advance_time(3)
    moves = last_moves(channel)
    assert "alice missed a turn; an AI plays for them until they are back" in moves, moves


async def test_a_kick_by_a_non_host_is_refused_and_the_host_can_kick(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    carol = guild.add_member(simcord_env.create_user("carol"))
    table = await started_game(simcord_env, alice, [bob, carol], channel)
    refused = await bob.slash(channel, "lama kick", member=carol)
    assert refused.response is not None and refused.response.ephemeral
    assert "Only the host" in refused.response.content
    assert table.seats[2].controller is None
    done = await alice.slash(channel, "lama kick", member=carol)
    assert done.response is not None and "An AI now plays for carol" in done.response.content
    assert table.seats[2].controller is not None
    assert table.status is Status.RUNNING


async def test_every_human_seat_held_by_ai_ends_the_game_and_says_why(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await two_player_game(simcord_env, alice, bob, channel)
    await alice.slash(channel, "lama kick", member=bob)
    await alice.slash(channel, "lama kick", member=alice)
    assert table.status is Status.CANCELLED
    await simcord_env.advance_time(3)
    assert "held by an AI" in texts(table_message(channel))
    assert service(simcord_env).registry.table_in(channel.id) is None


async def test_a_lobby_nobody_starts_closes_after_15_minutes(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    table = await open_lobby(simcord_env, alice, channel)
    await simcord_env.advance_time(service(simcord_env).timing.lobby_idle - 60)
    assert table.status is Status.LOBBY
    await simcord_env.advance_time(61)
    assert table.status is Status.CANCELLED
    await simcord_env.advance_time(3)
    assert "15 minutes" in texts(table_message(channel))
    assert not custom_ids(table_message(channel)), "no buttons left"


async def test_exactly_one_ping_message_stands_at_any_time(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    carol = guild.add_member(simcord_env.create_user("carol"))
    rig(simcord_env, [[C.FOUR, C.FOUR, C.FIVE, C.FIVE, C.SIX, C.SIX]] * 3, C.FOUR, [C.ONE] * 8)
    table = await started_game(simcord_env, alice, [bob, carol], channel, turn_timer=60)
    players = {alice.id: alice, bob.id: bob, carol.id: carol}
    for _ in range(6):
        seat = table.to_move
        assert seat is not None
        mover = players[table.seats[seat].user_id or 0]
        await simcord_env.advance_time(6)  # the player thinks (one who just clicked isn't pinged)
        assert pings(channel) == [
            f"{mover.mention}, it's your turn — time runs out <t:{int(table.turn_deadline or 0)}:R>"
        ]
        hand = await open_hand(mover, channel)
        await mover.click(hand, custom_id=enabled(hand, "lama:play:")[0])
    await simcord_env.advance_time(50)  # a warning replaces the ping, it doesn't add one
    assert len(pings(channel)) == 1


async def test_a_player_can_leave_a_running_game_and_an_ai_plays_on(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    rig(simcord_env, [[C.TWO, C.FIVE, C.SIX], [C.THREE, C.FOUR, C.SIX]], C.ONE, [])
    table = await two_player_game(simcord_env, alice, bob, channel)

    done = await bob.slash(channel, "lama leave")

    assert done.response is not None and done.response.ephemeral
    assert done.response.content == "You left the game. An AI plays your seat for the rest of it."
    assert table.seats[1].controller is not None and table.status is Status.RUNNING
    await take_simple_turn(alice, channel)  # alice plays 2; the AI answers for bob
    await simcord_env.advance_time(3)
    assert "bob left; an AI plays the seat" in last_moves(channel)
    assert table.match is not None and table.match.round is not None
    assert table.match.round.discard[-1] is C.THREE, "the AI played bob's 3"
    hand = await open_hand(bob, channel)
    assert "Your seat was handed to an AI" in texts(hand)
    assert not enabled(hand, "lama:"), "no cards of the seat the AI plays, no buttons"
    assert "cards" not in texts(hand)
    again = await bob.slash(channel, "lama leave")
    assert again.response is not None
    assert again.response.content == "Your seat was handed to an AI for the rest of this game."

    last = await alice.slash(channel, "lama leave")  # the last human leaves: the game ends
    assert last.response is not None and last.response.content == (
        "You left the game. Every seat is now played by an AI, so the game was ended."
    )
    assert table.status is Status.CANCELLED
    assert service(simcord_env).registry.table_in(channel.id) is None


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_game_without_a_timer_that_nobody_plays_for_three_days_ends(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    rig(simcord_env, [[C.TWO, C.FIVE], [C.THREE, C.SIX]], C.ONE, [])
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=0)
    await simcord_env.advance_time(service(simcord_env).timing.game_idle - 3600)
    await take_simple_turn(alice, channel)  # a move a day before: the three days start again
    await simcord_env.advance_time(service(simcord_env).timing.game_idle - 60)
    assert table.status is Status.RUNNING

    await simcord_env.advance_time(61)

    assert table.status is Status.CANCELLED
    await simcord_env.advance_time(3)
    message = table_message(channel)
    assert below_title(message) == "Nobody moved for three days, so the game was ended."
    assert not custom_ids(message), "no buttons left"
    assert service(simcord_env).registry.table_in(channel.id) is None, "the channel is free again"
    stored = await service(simcord_env).store.games.load_game(table.game_id)
    assert stored is not None and stored.status == "cancelled"


async def test_a_game_against_ais_its_only_person_leaves_for_six_hours_ends(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, alice: simcord.MemberActor
) -> None:
    """A shared channel isn't held for three days by one person's game against an AI:
    untimed and nobody moving, it ends after six hours, and its table says why."""
    rig(simcord_env, [[C.TWO, C.FIVE], [C.THREE, C.SIX]], C.ONE, [], starter=0)
    table = await open_lobby(simcord_env, alice, channel, turn_timer=0)
    await alice.select(table_message(channel), ["easy"])
    await alice.click(table_message(channel), label="Start")
    await simcord_env.advance_time(6 * 3600 - 60)
    assert table.status is Status.RUNNING
    await simcord_env.advance_time(61)
    assert table.status is Status.CANCELLED
    await simcord_env.advance_time(3)
    assert below_title(table_message(channel)) == (
        "Nobody moved for six hours in this game against AIs, so it was ended: a channel is shared."
    )
    assert service(simcord_env).registry.table_in(channel.id) is None, "the channel is free again"


async def test_a_host_who_leaves_the_game_hands_the_host_role_on(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    carol = guild.add_member(simcord_env.create_user("carol"))
    table = await started_game(simcord_env, alice, [bob, carol], channel)

    await alice.slash(channel, "lama leave")

    assert table.host_id == bob.id
    stored = await service(simcord_env).store.games.load_game(table.game_id)
    assert stored is not None and stored.host_id == bob.id, "saved, so a restart keeps it"
    refused = await alice.slash(channel, "lama cancel")
    assert refused.response is not None and "Only the host" in refused.response.content
    kicked = await bob.slash(channel, "lama kick", member=carol)
    assert kicked.response is not None and "An AI now plays for carol" in kicked.response.content


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_an_open_hand_whose_turn_ran_out_no_longer_offers_that_turn(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """alice opened her hand on her turn and looked away: once the timer quit the
    round for her, the hand in front of her says she is out, not that it's her turn."""
    rig(simcord_env, [JUNK, JUNK], C.FOUR, [C.LLAMA] * 8)
    await two_player_game(simcord_env, alice, bob, channel, turn_timer=60)
    hand = await open_hand(alice, channel)
    assert "It's your turn." in texts(hand) and enabled(hand, "lama:quit:")
    await simcord_env.advance_time(61)
    await simcord_env.advance_time(3)
    assert "It's your turn." not in texts(hand)
    assert "You are out of this round." in texts(hand)
    assert not [cid for cid in enabled(hand, "lama:") if cid.startswith(MOVES)]


async def test_an_open_hand_on_its_turn_shows_no_cards_once_its_seat_is_handed_to_an_ai(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """alice is kicked on her turn, her hand open: it shows what Show my hand would
    (her seat is the AI's, its cards with it), not her old turn's buttons."""
    carol = guild.add_member(simcord_env.create_user("carol"))
    rig(simcord_env, [JUNK, JUNK, JUNK], C.FOUR, [C.LLAMA] * 8)
    table = await started_game(simcord_env, bob, [alice, carol], channel)
    assert table.to_move == 0
    await take_simple_turn(bob, channel)
    assert table.to_move == 1
    hand = await open_hand(alice, channel)
    assert "It's your turn." in texts(hand)
    await bob.slash(channel, "lama kick", member=alice)
    await simcord_env.advance_time(3)
    assert "Your seat was handed to an AI for the rest of this game." in texts(hand)
    assert "It's your turn." not in texts(hand)
    assert not [cid for cid in enabled(hand, "lama:") if cid.startswith(MOVES)]
