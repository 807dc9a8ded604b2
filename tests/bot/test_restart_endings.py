"""After a restart the table shows what the bot had not shown before it stopped: a
game's end, the moves of a stretch of AI turns."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest
import simcord

from bot.client import LamaBot
from bot.config import Settings
from bot.frontend.views.stats import CHART_FILE
from bot.service.play.table import Status, Table
from game import Card as C
from testkit.simcord_play import (
    below_title,
    draws_counted,
    draws_unseen,
    enabled,
    fail_table_edits,
    last_moves,
    open_hand,
    open_lobby,
    rig,
    service,
    shown_at,
    table_message,
    take_simple_turn,
    texts,
    title,
    two_player_game,
)
from testkit.slow_store import held
from tests.simcord_fixtures import fresh_bot

#: Discord fails the tables' edits before the restarts: their retries wait for the clock.
pytestmark = pytest.mark.parked_retries

JUNK = [C.ONE, C.ONE, C.TWO, C.TWO, C.SIX, C.SIX]


def charts(channel: simcord.ChannelHandle) -> int:
    """How many chip charts were posted in the channel."""
    return sum(any(a.filename == CHART_FILE for a in m.attachments) for m in channel.history())


async def finish_unseen(
    env: simcord.Env,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
    channel: simcord.ChannelHandle,
) -> Table:
    """alice's last card ends the game while Discord fails the table's edits."""
    rig(env, [[C.FIVE], JUNK], C.FOUR, [C.LLAMA] * 8)
    table = await two_player_game(env, alice, bob, channel, threshold=1)
    await env.advance_time(3)
    hand: Any = await open_hand(alice, channel)
    fail_table_edits(env, channel, times=1000, status=503)
    await alice.click(hand, custom_id=enabled(hand, "lama:play:")[0])
    assert table.status is Status.FINISHED
    assert "game over" not in title(table_message(channel))  # not shown yet
    return table


async def stop(env: simcord.Env) -> LamaBot:
    """The bot stops (what it had not shown by now, it never shows)."""
    old = env.bot
    assert isinstance(old, LamaBot)
    await old.close()
    return old


async def start_again(env: simcord.Env, settings: Settings, old: LamaBot) -> None:
    """Discord is back, and the bot starts again (a while to show what it has to)."""
    env.backend.faults.clear()
    await env.restart_bot(fresh_bot(settings, old))
    await env.advance_time(10)


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_game_that_ended_just_before_a_restart_shows_its_end_after_it(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """alice's last card ends the game; the bot stops while Discord still fails the
    table's edit (or before it went out at all). The restarted bot shows the result,
    the table's last word, instead of a round still being played; its chip chart,
    which went out before the stop, is not posted again."""
    table = await finish_unseen(simcord_env, alice, bob, channel)
    await simcord_env.advance_time(3)
    assert charts(channel) == 1
    message_id = shown_at(simcord_env, table)
    await start_again(simcord_env, settings, await stop(simcord_env))
    shown = table_message(channel)
    assert "game over" in title(shown)
    assert "The winner is **alice**" in texts(shown)
    # As the table would have shown it: with what the game did to each rating.
    assert texts(shown).count("· rating **") == 2
    assert charts(channel) == 1
    # Shown once: a second restart leaves the finished table alone.
    before = len(simcord_env.http_requests)
    await start_again(simcord_env, settings, await stop(simcord_env))
    edits = [
        r
        for r in simcord_env.http_requests[before:]
        if r.method == "PATCH" and r.path.endswith(f"/messages/{message_id}")
    ]
    assert edits == []


async def test_a_game_that_ended_just_before_a_restart_lists_its_last_moves_as_it_would_have(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """alice's last card ends the game; the bot stops before the table shows it. The
    restarted table's last moves end as the running bot's would have: alice's card,
    then that she ended the round (before, the table rebuilt from the store left out
    the last round's end: it counted a round's end only once the next was dealt)."""
    await finish_unseen(simcord_env, alice, bob, channel)
    await start_again(simcord_env, settings, await stop(simcord_env))
    rows = last_moves(channel).split("\n")
    assert rows[-2].startswith("alice played") and rows[-1] == "alice ended the round", rows


async def test_a_restarted_table_lists_the_moves_it_had_not_shown_round_end_included(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    """alice plays, the first AI plays its last card (the round ends, the next is dealt)
    and the five AIs move: nine lines the table had not shown when the bot stopped
    (Discord failing its edits). The restarted table lists them, not just its last six."""
    table = await open_lobby(simcord_env, alice, channel, turn_timer=0)
    for _ in range(5):
        await alice.select(table_message(channel), ["normal"])
    # Round 1: only alice's five and the first AI's six fit; round 2: nothing fits.
    rig(
        simcord_env,
        [[C.FIVE, C.ONE, C.TWO], [C.SIX], [C.THREE], [C.THREE], [C.ONE], [C.TWO]],
        C.FOUR,
        [C.LLAMA] * 8,
    )
    low, high = [C.ONE, C.TWO], [C.THREE, C.SIX]
    rig(simcord_env, [low, low, high, low, high, high], C.FOUR, [C.LLAMA] * 8, starter=1)
    await alice.click(table_message(channel), label="Start")
    await simcord_env.advance_time(3)
    hand: Any = await open_hand(alice, channel)
    fail_table_edits(simcord_env, channel, times=1000, status=503)
    await alice.click(hand, custom_id=enabled(hand, "lama:play:")[0])
    await simcord_env.advance_time(3)
    assert table.match is not None and table.match.round_no == 2 and table.to_move == 0
    await start_again(simcord_env, settings, await stop(simcord_env))
    shown = last_moves(channel)
    assert "alice played" in shown
    assert "ended the round" in shown and "New round dealt" in shown


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_game_ended_for_idling_just_before_a_restart_says_why_after_it(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """Nobody moved for three days: the game ends, but Discord fails the table's edit
    until the bot stops. The restarted bot's table says why it ended, as it would
    have, not just that it was cancelled."""
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=0)
    await simcord_env.advance_time(3)
    simcord_env.inject_error(
        "PATCH", f"*/messages/{shown_at(simcord_env, table)}", status=503, times=None
    )
    await simcord_env.advance_time(3 * 24 * 60 * 60 + 10)
    assert table.status is Status.CANCELLED
    old = await stop(simcord_env)
    simcord_env.backend.faults.clear()  # Discord is back
    await simcord_env.restart_bot(fresh_bot(settings, old))
    await simcord_env.advance_time(10)
    shown = texts(table_message(channel))
    assert "Nobody moved for three days, so the game was ended." in shown, shown


async def test_a_game_left_idle_while_the_bot_was_down_says_why_it_ended(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """Nobody moves for three days, the bot being down the while: the restarted bot
    ends the game, and its table says why, as a running bot's would."""
    rig(simcord_env, [[C.TWO, C.FIVE], [C.THREE, C.SIX]], C.ONE, [])
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=0)
    await simcord_env.advance_time(3)
    old = await stop(simcord_env)
    await simcord_env.advance_time(service(simcord_env).timing.game_idle + 60)
    await start_again(simcord_env, settings, old)
    stored = await service(simcord_env).store.games.load_game(table.game_id)
    assert stored is not None and stored.status == "cancelled"
    says = below_title(table_message(channel))
    assert says == "Nobody moved for three days, so the game was ended."


async def test_a_game_its_players_left_just_before_a_restart_says_why_it_ended_after_it(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """bob and alice leave, every seat is an AI's and the game ends, while Discord
    fails the table's edits; the bot stops. The restarted table says why it ended."""
    rig(simcord_env, [[C.TWO, C.FIVE], [C.THREE, C.SIX]], C.ONE, [])
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=0)
    await simcord_env.advance_time(3)
    fail_table_edits(simcord_env, channel, times=1000, status=503)
    await bob.slash(channel, "lama leave")
    await alice.slash(channel, "lama leave")
    assert table.status is Status.CANCELLED
    await start_again(simcord_env, settings, await stop(simcord_env))
    says = below_title(table_message(channel))
    assert says == "Every player's seat is held by an AI, so the game was ended."


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_game_that_ended_just_before_a_restart_posts_its_chart_after_it(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """The game ends and the bot stops before its chart could go out: the restarted
    bot shows the end as a running one would, the chip chart too, once."""
    # The chart's read of the store is slow: the bot stops before it went out.
    with held(service(simcord_env).store.stats, "chip_history", 60.0):
        await finish_unseen(simcord_env, alice, bob, channel)
        old = await stop(simcord_env)
    assert charts(channel) == 0
    await start_again(simcord_env, settings, old)
    assert "game over" in title(table_message(channel))
    assert charts(channel) == 1
    await start_again(simcord_env, settings, await stop(simcord_env))
    assert charts(channel) == 1, "posted once"


@pytest.mark.slow  # 26 moves, and a settle that waits out SimCord's window
async def test_a_restarted_table_counts_the_moves_it_had_not_shown_beyond_those_it_lists(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """Discord fails the table's edits while alice and bob draw 26 times (more moves
    than the bot keeps lines of), then the bot stops. The restarted table lists the
    newest moves and counts every other one it had not shown in its "… N more moves"."""
    await draws_unseen(simcord_env, alice, bob, channel, draws=26)
    await start_again(simcord_env, settings, await stop(simcord_env))
    assert draws_counted(channel) == 26


async def test_a_game_ended_for_a_reason_this_version_does_not_know_says_it_was_cancelled(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """A newer version ended the game for a reason of its own, then the bot was rolled
    back to this one: its table, and a click on an old hand, say the game was
    cancelled instead of failing to draw."""
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=0)
    await simcord_env.advance_time(3)
    bobs: Any = await open_hand(bob, channel)
    await simcord_env.advance_time(15 * 60)  # too old to be edited: it shows no end
    simcord_env.inject_error(
        "PATCH", f"*/messages/{shown_at(simcord_env, table)}", status=503, times=None
    )
    await alice.slash(channel, "lama cancel")
    old = await stop(simcord_env)
    with sqlite3.connect(settings.database_path) as db:  # as the newer version wrote it
        db.execute("UPDATE games SET end_reason = 'closed.by_a_newer_version'")
    await start_again(simcord_env, settings, old)
    assert below_title(table_message(channel)) == "This game was cancelled."
    result = await bob.click(bobs, custom_id=enabled(bobs, "lama:hand:")[0])
    assert "This game was cancelled." in texts(result.response), result.response.content


async def test_a_seat_change_of_a_kind_this_version_does_not_know_is_left_off_the_table(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """A newer version noted a seat change of a kind of its own, then the bot was rolled
    back to this one: the resumed table goes on, its moves shown, without that line."""
    rig(simcord_env, [[C.TWO, C.FIVE], [C.THREE, C.SIX]], C.ONE, [], starter=0)
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=0)
    await simcord_env.advance_time(3)
    old = await stop(simcord_env)
    with sqlite3.connect(settings.database_path) as db:  # as the newer version wrote it
        db.execute(
            "INSERT INTO seat_notes (game_id, seq, seat, kind, created_at) VALUES (?, 1, 1, ?, 0)",
            (table.game_id, "from_a_newer_version"),
        )
    await start_again(simcord_env, settings, old)
    await take_simple_turn(alice, channel)
    await simcord_env.advance_time(3)
    assert "alice played" in last_moves(channel), texts(table_message(channel))
