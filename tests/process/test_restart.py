"""A restart in the middle of a round: the game, its table message and its clock carry on."""

from __future__ import annotations

from pathlib import Path

import simcord

from bot.config import Settings
from bot.service.play.table import Status
from game import Card as C
from game import PlayerQuit
from testkit.simcord_play import (
    enabled,
    last_moves,
    open_hand,
    open_lobby,
    rig,
    service,
    shown_at,
    started_game,
    table_message,
    take_simple_turn,
    texts,
    title,
    two_player_game,
)

from .common import assert_saved, count, deal_stuck, quit_until_over, restart, rows, running


async def test_a_restart_mid_round_loses_nothing_and_the_game_plays_to_its_end(
    simcord_env: simcord.Env,
    settings: Settings,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    carol = guild.add_member(simcord_env.create_user("carol"))
    players = {p.id: p for p in (alice, bob, carol)}
    deal_stuck(simcord_env, 4)
    # Two rounds of 14 points each: the game ends after the second.
    table = await open_lobby(simcord_env, alice, channel, threshold=15)
    await bob.click(table_message(channel), label="Join")
    await carol.click(table_message(channel), label="Join")
    await alice.select(table_message(channel), ["normal"])
    await alice.click(table_message(channel), label="Start")
    game_id = table.game_id
    for player in (alice, bob, carol):  # a draw each, then the AI seat moves
        hand = await open_hand(player, channel)
        await player.click(hand, custom_id=enabled(hand, "lama:draw:")[0])
    await simcord_env.advance_time(1)
    assert table.to_move == 0 and table.match is not None
    await simcord_env.advance_time(3)  # the table message shows the latest state
    before = table.match.snapshot()
    deadline = table.turn_deadline
    assert deadline is not None
    old_message = table_message(channel)
    cursor = len(simcord_env.http_requests)

    bot = await restart(simcord_env, settings)

    resumed = running(simcord_env, game_id)
    assert resumed is not table and resumed.match is not None
    assert resumed.match.snapshot() == before
    assert [s.name for s in resumed.seats] == ["alice", "bob", "carol", "AI 1"]
    assert shown_at(simcord_env, resumed) == old_message.id
    assert resumed.turn_deadline == simcord_env.now().timestamp() + table.turn_timer, (
        "a resumed turn is a whole turn from the restart"
    )
    await assert_saved(bot.store, resumed)
    # The new bot refreshes the table message in place, with the token of the click
    # that posted it (the Start's, stored): no bot-token call.
    await simcord_env.advance_time(1)
    hooks = f"/webhooks/{simcord_env.backend.application_id}/"
    edits = [
        r
        for r in simcord_env.http_requests[cursor:]
        if r.method == "PATCH"
        and r.path.startswith(hooks)
        and r.path.endswith((f"/messages/{old_message.id}", "/messages/@original"))
    ]
    assert edits, "the resumed game's table message was not refreshed"
    assert table_message(channel).id == old_message.id
    # The buttons drawn by the old bot still work: they are persistent.
    result = await alice.click(old_message, label="Show my hand")
    assert result.ephemeral and result.response is not None
    hand = result.response
    assert enabled(hand, "lama:draw:") == [f"lama:draw:{game_id}:{resumed.stamp}"]
    await alice.click(hand, custom_id=enabled(hand, "lama:draw:")[0])
    assert resumed.stamp == len(before["events"]) + 1
    await assert_saved(bot.store, resumed)

    deal_stuck(simcord_env, 4)  # the new bot deals round 2
    await quit_until_over(simcord_env, channel, players, resumed)
    assert resumed.status is Status.FINISHED and resumed.match is not None
    assert resumed.match.points == [28, 28, 28, 28] and resumed.match.winners == (0, 1, 2, 3)
    path = Path(settings.database_path)
    assert rows(path, "SELECT status FROM games WHERE id = ?", (game_id,)) == [("finished",)]
    assert count(path, "round_results", game_id) == 8
    assert count(path, "game_results", game_id) == 4
    await assert_saved(bot.store, resumed)
    await simcord_env.advance_time(3)
    assert "game over" in title(table_message(channel))
    assert service(simcord_env).registry.table_in(channel.id) is None


async def test_a_resumed_turn_starts_again_from_the_restart_and_then_runs_out(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    deal_stuck(simcord_env, 2)
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=60)
    game_id = table.game_id
    deadline = table.turn_deadline
    assert table.to_move == 0 and deadline is not None
    path = Path(settings.database_path)
    assert rows(path, "SELECT turn_deadline FROM games WHERE id = ?", (game_id,)) == [
        (deadline,)
    ], "the first turn's deadline must be saved with the start"

    # The bot was away, not the player: a resumed turn is a whole turn from the
    # moment the bot is back, however much of it was left.
    await simcord_env.advance_time(5)
    await restart(simcord_env, settings)
    resumed = running(simcord_env, game_id)
    assert resumed.turn_deadline == simcord_env.now().timestamp() + 60

    # A restart 5 s before it would have run out: 60 s from now again.
    await simcord_env.advance_time(50)
    bot = await restart(simcord_env, settings)
    resumed = running(simcord_env, game_id)
    now = simcord_env.now().timestamp()
    assert resumed.turn_deadline == now + 60
    # The ping from before the restart is replaced by one with the deadline as it is now.
    standing = [m.content for m in channel.history() if m.content.startswith(("<@", "⏰"))]
    assert standing == [f"{alice.mention}, it's your turn — time runs out <t:{int(now + 60)}:R>"]
    stamp = resumed.stamp
    await simcord_env.advance_time(59)
    assert resumed.stamp == stamp and resumed.to_move == 0, "the turn was cut short"
    await simcord_env.advance_time(2)
    assert resumed.match is not None and resumed.stamp == stamp + 1
    assert resumed.match.events[-1] == PlayerQuit(seat=0)
    assert resumed.seats[0].missed_turns == 1 and resumed.to_move == 1
    assert rows(
        path, "SELECT meta FROM events WHERE game_id = ? AND seq = ?", (game_id, stamp)
    ) == [('{"auto":"timeout"}',)]
    assert rows(
        path, "SELECT missed_turns FROM seats WHERE game_id = ? AND seat = 0", (game_id,)
    ) == [(1,)]
    await assert_saved(bot.store, resumed)


async def test_a_player_back_after_a_missed_turn_is_resumed_with_none_missed(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    deal_stuck(simcord_env, 2)
    deal_stuck(simcord_env, 2)
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=60)
    await simcord_env.advance_time(61)  # alice misses her turn
    assert table.seats[0].missed_turns == 1
    while table.to_move != 0:  # bob plays on into the next round, until alice is to move
        await take_simple_turn(bob, channel)
    await take_simple_turn(alice, channel)  # she is back
    assert table.seats[0].missed_turns == 0
    path = Path(settings.database_path)
    assert rows(
        path, "SELECT missed_turns FROM seats WHERE game_id = ? ORDER BY seat", (table.game_id,)
    ) == [(0,), (0,)]
    await restart(simcord_env, settings)
    assert running(simcord_env, table.game_id).seats[0].missed_turns == 0


async def test_a_restart_keeps_counting_the_idle_days_of_a_game_without_a_timer(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=0)
    game_id = table.game_id

    # Two idle days, a restart (as for a deploy), then the third day runs out.
    await simcord_env.advance_time(2 * 24 * 3600)
    await restart(simcord_env, settings)
    assert running(simcord_env, game_id).status is Status.RUNNING
    await simcord_env.advance_time(service(simcord_env).timing.game_idle - 2 * 24 * 3600 - 60)
    assert running(simcord_env, game_id).status is Status.RUNNING
    await simcord_env.advance_time(61)

    assert service(simcord_env).registry.table_in(channel.id) is None
    path = Path(settings.database_path)
    assert rows(path, "SELECT status FROM games WHERE id = ?", (game_id,)) == [("cancelled",)]


async def test_the_last_moves_survive_a_restart_timeouts_and_round_ends_included(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    rig(simcord_env, [[C.TWO, C.FIVE], [C.TWO, C.THREE]], C.ONE, [])
    rig(simcord_env, [[C.FOUR, C.FIVE], [C.TWO, C.SIX]], C.ONE, [], starter=1)
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=60)
    await simcord_env.advance_time(61)  # alice runs out of time and quits
    await take_simple_turn(bob, channel)  # 2
    await take_simple_turn(bob, channel)  # 3: his hand is empty, round 2 is dealt
    await simcord_env.advance_time(3)
    before = last_moves(channel)

    await restart(simcord_env, settings)
    await take_simple_turn(bob, channel)  # bob starts round 2
    await simcord_env.advance_time(3)

    after = last_moves(channel)
    assert before.splitlines()[1:] == after.splitlines()[:-1], "the same lines, one more move"
    assert "alice ran out of time and quit the round" in after
    assert "bob ended the round" in after
    assert "New round dealt; bob starts" in after
    two = simcord_env.bot.faces.card(C.TWO)
    assert two.startswith("<:lama_2:"), "the application's card emoji"
    assert after.splitlines()[-1] == f"bob played {two} 2"
    assert running(simcord_env, table.game_id).status is Status.RUNNING


async def test_seat_changes_stay_in_the_last_moves_across_a_restart(
    simcord_env: simcord.Env,
    settings: Settings,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    carol = guild.add_member(simcord_env.create_user("carol"))
    junk = [C.ONE, C.ONE, C.TWO, C.TWO, C.SIX, C.SIX]
    rig(simcord_env, [junk, junk, junk], C.FOUR, [], starter=0)  # alice to move: no AI moves
    table = await started_game(simcord_env, alice, [bob, carol], channel, turn_timer=0)
    await alice.slash(channel, "lama kick", member=carol)
    await bob.slash(channel, "lama leave")
    await simcord_env.advance_time(3)
    before = last_moves(channel).splitlines()
    assert before[-2:] == ["carol's seat was handed to an AI", "bob left; an AI plays the seat"]

    await restart(simcord_env, settings)
    await simcord_env.advance_time(3)

    resumed = running(simcord_env, table.game_id)
    assert resumed.recent == table.recent, "the same lines as before the restart"
    assert last_moves(channel).splitlines()[: len(before)] == before


async def test_a_takeover_and_the_return_stay_in_the_last_moves_across_a_restart(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    junk = [C.ONE, C.ONE, C.TWO, C.TWO, C.SIX, C.SIX]
    rig(simcord_env, [junk, junk], C.FOUR, [C.LLAMA] * 8)
    rig(simcord_env, [junk, junk], C.FOUR, [C.LLAMA] * 8, starter=1)
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=60, threshold=100)
    await simcord_env.advance_time(61)  # alice misses her first turn
    bobs = await open_hand(bob, channel)
    await bob.click(bobs, custom_id=enabled(bobs, "lama:quit:")[0])  # round 1 ends
    bobs = await open_hand(bob, channel)
    await bob.click(bobs, custom_id=enabled(bobs, "lama:draw:")[0])
    assert table.to_move == 0
    await simcord_env.advance_time(61)  # the second miss in a row: an AI takes over
    assert table.seats[0].away
    await alice.click(table_message(channel), label="I'm back")
    await simcord_env.advance_time(3)
    before = last_moves(channel).splitlines()
    assert "alice missed 2 turns in a row; an AI plays for them until they are back" in before
    assert before[-1] == "alice is back"

    await restart(simcord_env, settings)

    assert running(simcord_env, table.game_id).recent == table.recent


async def test_a_lobby_keeps_its_idle_clock_across_a_restart(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    table = await open_lobby(simcord_env, alice, channel)
    await simcord_env.advance_time(service(simcord_env).timing.lobby_idle - 5 * 60)
    await restart(simcord_env, settings)
    games = service(simcord_env)
    assert games.registry.table_in(channel.id) is not None

    await simcord_env.advance_time(5 * 60 + 1)

    assert games.registry.table_in(channel.id) is None, (
        "the restart gave the lobby another 15 minutes"
    )
    path = Path(settings.database_path)
    assert rows(path, "SELECT status FROM games WHERE id = ?", (table.game_id,)) == [("cancelled",)]


async def test_the_bot_back_online_gets_the_resumed_tables_once_with_their_turns_from_now(
    simcord_env: simcord.Env,
    settings: Settings,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """Connecting may take long with many games: the turns start when the bot is back."""
    deal_stuck(simcord_env, 2)
    table = await started_game(simcord_env, alice, [bob], channel, turn_timer=60)
    other = guild.create_text_channel("lobby-only")
    await open_lobby(simcord_env, bob, other)
    await restart(simcord_env, settings)
    # LamaBot takes the resumed tables itself as soon as it is connected.
    back_at = simcord_env.now().timestamp()
    games = service(simcord_env)
    await simcord_env.advance_time(20)

    assert games.resumer.resumed_tables() == [], "the resumed tables are handed out once"
    assert games.registry.table_in(other.id) is not None
    resumed = running(simcord_env, table.game_id)
    assert resumed.turn_deadline == back_at + 60
    await simcord_env.advance_time(39)
    assert resumed.to_move == 0, "the turn was counted from before the bot was back"


async def test_a_hand_opened_before_a_restart_still_refreshes_itself(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    rig(simcord_env, [[C.THREE] * 3, [C.FOUR] * 3], C.THREE, [C.ONE] * 8)
    table = await two_player_game(simcord_env, alice, bob, channel)
    bobs = await open_hand(bob, channel)  # bob waits for his turn with his hand open
    assert not enabled(bobs, "lama:play:")

    await restart(simcord_env, settings)
    await simcord_env.advance_time(60)  # well within the 15 minutes Discord allows an edit
    await take_simple_turn(alice, channel)
    await simcord_env.advance_time(3)

    assert running(simcord_env, table.game_id).to_move == 1
    assert enabled(bobs, "lama:play:") and "It's your turn" in texts(bobs), "refreshed"
