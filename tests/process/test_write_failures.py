"""Writes that fail for real: a move is made only if it was saved, and the bot keeps going."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.config import Settings
from bot.frontend.views.table import table_view
from bot.service.play.table import Status, Table
from bot.service.timing import Timing
from testkit.simcord_play import (
    enabled,
    open_hand,
    open_lobby,
    service,
    table_message,
    take_simple_turn,
    texts,
    two_player_game,
)

from .common import allow_event_writes, assert_saved, count, deal_stuck, refuse_event_writes, rows


def stored_state(path: Path, game_id: int) -> list[Any]:
    """Everything a move writes besides its events."""
    return [
        rows(path, "SELECT status, turn_deadline, updated_at FROM games WHERE id = ?", (game_id,)),
        rows(path, "SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)),
        count(path, "events", game_id),
        count(path, "round_results", game_id),
        count(path, "game_results", game_id),
    ]


async def test_a_move_the_database_refuses_is_not_made_and_goes_through_once_it_can_be_saved(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    deal_stuck(simcord_env, 2)
    table = await two_player_game(simcord_env, alice, bob, channel)
    hand = await open_hand(alice, channel)
    await alice.click(hand, custom_id=enabled(hand, "lama:quit:")[0])
    # Bob's quit ends the round: its event, the round's results and the next deal in one write.
    assert table.match is not None and table.to_move == 1
    path = Path(settings.database_path)
    before = table.match.snapshot()
    stamp, deadline = table.stamp, table.turn_deadline
    saved = stored_state(path, table.game_id)
    assert saved[3] == 0

    refuse_event_writes(path)
    hand = await open_hand(bob, channel)
    [quit_id] = enabled(hand, "lama:quit:")
    result = await bob.click(hand, custom_id=quit_id)
    assert result.ephemeral and result.response is not None
    assert "couldn't be saved" in result.response.content
    assert table.match.snapshot() == before, "a move that wasn't saved was made anyway"
    assert (table.stamp, table.turn_deadline, table.status) == (stamp, deadline, Status.RUNNING)
    assert stored_state(path, table.game_id) == saved, "half a move was saved"

    allow_event_writes(path)
    fresh = await open_hand(bob, channel)
    assert enabled(fresh, "lama:quit:") == [quit_id], "the same move is offered again"
    result = await bob.click(fresh, custom_id=quit_id)
    assert result.response is not None and "couldn't" not in result.response.content
    assert len(table.match.results) == 1 and table.match.round_no == 2
    assert count(path, "round_results", table.game_id) == 2
    await assert_saved(service(simcord_env).store, table)


#: Longer than SimCord's settle timeout, so only advance_time lets the AI move.
PAUSE = 10.0


@pytest.mark.parametrize("timing", [Timing(ai_delay=PAUSE)], ids=["AI pause 10 s"])
async def test_an_ai_move_the_database_refuses_is_tried_again_ever_less_often(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    caplog: pytest.LogCaptureFixture,
) -> None:
    deal_stuck(simcord_env, 2, first_starter=1)
    path = Path(settings.database_path)
    table = await open_lobby(simcord_env, alice, channel)
    await alice.select(table_message(channel), ["normal"])
    refuse_event_writes(path, from_seq=1)  # the deal is saved, the AI's moves are not
    await alice.click(table_message(channel), label="Start")
    assert table.match is not None and table.to_move == 1 and table.stamp == 1
    before = table.match.snapshot()

    with caplog.at_level(logging.WARNING, logger="bot.service"):
        await simcord_env.advance_time(PAUSE + 1)
        # Tried at 10 s, then after pauses of 10, 20, 40 and 60 s (the longest):
        # not every 10 s (15 times) while the store is down.
        await simcord_env.advance_time(139)
    failures = [r for r in caplog.records if "could not save a move" in r.getMessage()]
    assert len(failures) == 5, "the AI should wait longer after each failure"
    assert table.match.snapshot() == before and table.status is Status.RUNNING
    assert count(path, "events", table.game_id) == 1

    allow_event_writes(path)
    await simcord_env.advance_time(60)
    assert table.stamp > 1 and table.to_move == 0, "the AI did not move once it could save"
    await assert_saved(service(simcord_env).store, table)
    await take_simple_turn(alice, channel)  # and the game goes on
    await assert_saved(service(simcord_env).store, table)
    assert not simcord_env.errors_since(0)


def current(env: simcord.Env, table: Table) -> str:
    """What the table message should say now."""
    return texts(table_view(table, env.bot.faces))


async def test_a_failed_table_edit_is_logged_and_the_next_change_shows_the_table_right(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    caplog: pytest.LogCaptureFixture,
    bob: simcord.MemberActor,
) -> None:
    deal_stuck(simcord_env, 2)
    table = await two_player_game(simcord_env, alice, bob, channel)
    await simcord_env.advance_time(1)
    stale = texts(table_message(channel))
    assert stale == current(simcord_env, table)

    # Refused for good (a 5xx or 429 is tried again: tests/bot/test_rest_budget.py),
    # whichever token edits the table.
    simcord_env.inject_error("PATCH", "/channels/*/messages/*", status=403)
    simcord_env.inject_error("PATCH", "/webhooks/*/messages/@original", status=403)
    with caplog.at_level(logging.WARNING, logger="bot.frontend.table_edits"):
        await take_simple_turn(alice, channel)
        await simcord_env.advance_time(1)
    assert any("could not edit the table" in r.getMessage() for r in caplog.records)
    assert texts(table_message(channel)) == stale != current(simcord_env, table)
    assert table.to_move == 1

    await take_simple_turn(bob, channel)  # the bot kept going; the next change fixes the table
    await simcord_env.advance_time(1)
    assert texts(table_message(channel)) == current(simcord_env, table)
    assert not simcord_env.errors_since(0)


async def test_a_turn_that_runs_out_while_saving_fails_times_out_once_it_can_be_saved(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    caplog: pytest.LogCaptureFixture,
    bob: simcord.MemberActor,
) -> None:
    deal_stuck(simcord_env, 2)
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=60)
    path = Path(settings.database_path)
    stamp = table.stamp
    refuse_event_writes(path)
    with caplog.at_level(logging.WARNING, logger="bot.service"):
        await simcord_env.advance_time(61)
    assert any("could not save a move" in r.getMessage() for r in caplog.records)
    assert table.stamp == stamp and table.to_move == 0
    assert table.seats[0].missed_turns == 0 and not table.seats[0].away

    allow_event_writes(path)
    await simcord_env.advance_time(service(simcord_env).timing.save_retry)
    assert table.stamp == stamp + 1 and table.to_move == 1, "the timeout was never retried"
    assert table.seats[0].missed_turns == 1
    assert rows(
        path, "SELECT meta FROM events WHERE game_id = ? AND seq = ?", (table.game_id, stamp)
    ) == [('{"auto":"timeout"}',)]
    await assert_saved(service(simcord_env).store, table)
