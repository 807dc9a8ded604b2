"""The table message always ends up showing the latest state of its game."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
import simcord

from bot.frontend.pings import Pings
from bot.frontend.presenter import Presenter
from bot.frontend.table_edits import TableEdits
from bot.service.play.table import Status, Table
from game import PLAY
from game import Card as C
from testkit.simcord_play import (
    custom_ids,
    draws_counted,
    draws_unseen,
    enabled,
    last_moves,
    moves_shown,
    one_move_from_the_end,
    open_hand,
    open_lobby,
    rig,
    service,
    table_message,
    table_versions,
    take_simple_turn,
    two_player_game,
)


async def test_a_move_made_while_the_table_edit_is_on_its_way_reaches_the_table(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    monkeypatch: pytest.MonkeyPatch,
    bob: simcord.MemberActor,
) -> None:
    rig(simcord_env, [[C.TWO, C.FIVE], [C.THREE, C.SIX]], C.ONE, [])
    await two_player_game(simcord_env, alice, bob, channel)
    await simcord_env.advance_time(3)

    # bob's move arrives while the edit for alice's move is on its way: its
    # payload is built, Discord hasn't answered yet.
    send = TableEdits._send_edit
    edits: list[str] = []

    async def in_flight(self: TableEdits, table: Table, payload: dict[str, Any]) -> None:
        edits.append(moves_shown(payload["view"]))
        if len(edits) == 1:
            await service(simcord_env).moves.move(table, bob.id, PLAY[C.THREE], table.stamp)
        await send(self, table, payload)

    monkeypatch.setattr(TableEdits, "_send_edit", in_flight)
    hand = await open_hand(alice, channel)
    await alice.click(hand, custom_id=enabled(hand, "lama:play:")[0])
    await simcord_env.advance_time(10)

    assert "alice played" in edits[0] and "bob played" not in edits[0], "built before bob moved"
    assert "bob played" in last_moves(channel)


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_game_cancelled_while_a_turn_ping_is_on_its_way_leaves_no_ping(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    monkeypatch: pytest.MonkeyPatch,
    bob: simcord.MemberActor,
) -> None:
    rig(simcord_env, [[C.TWO, C.FIVE], [C.THREE, C.SIX]], C.ONE, [])
    table = await two_player_game(simcord_env, alice, bob, channel)
    await simcord_env.advance_time(3)

    # The host cancels (another click, another task) just as bob's ping goes out.
    send = Pings._send_ping
    cancels: list[asyncio.Task[Table]] = []

    async def in_flight(self: Pings, table: Table, content: str, user_id: int) -> Any:
        if user_id == bob.id and not cancels:
            games = service(simcord_env)
            cancels.append(
                asyncio.create_task(games.lobbies.cancel(table, alice.id, can_manage=False))
            )
            # Discord takes a moment (real time: the store's thread runs meanwhile).
            await asyncio.get_running_loop().run_in_executor(None, time.sleep, 0.2)
        return await send(self, table, content, user_id)

    monkeypatch.setattr(Pings, "_send_ping", in_flight)
    hand = await open_hand(alice, channel)
    await alice.click(hand, custom_id=enabled(hand, "lama:play:")[0])
    await simcord_env.advance_time(3)

    assert cancels and cancels[0].done() and table.status is Status.CANCELLED
    assert [m.content for m in channel.history() if m.content.startswith("<@")] == []


async def test_the_presenter_lets_go_of_a_game_once_its_last_edit_is_made(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    # A bot runs for months: a finished game must not stay in its memory.
    table = await one_move_from_the_end(simcord_env, alice, bob, channel)
    await open_hand(bob, channel)
    await take_simple_turn(alice, channel)
    assert table.status is Status.FINISHED

    await simcord_env.advance_time(3)

    assert "Rematch" in [label for _, label, _ in custom_ids(table_message(channel))]
    presenter: Presenter = simcord_env.bot.presenter  # type: ignore[attr-defined]
    remembered = (
        [*presenter.table_edits.screens, *presenter.tokens.games, *presenter.pings.games]
        + [*presenter.chart.charted]
        + [game for game, _ in presenter.open_hands.hands]
    )
    assert table.game_id not in remembered


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_move_made_while_the_turn_warning_is_on_its_way_leaves_no_warning(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    monkeypatch: pytest.MonkeyPatch,
    bob: simcord.MemberActor,
) -> None:
    rig(simcord_env, [[C.TWO, C.FIVE], [C.THREE, C.SIX]], C.ONE, [])
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=60)

    # alice plays (another click, another task) just as her turn's warning goes out.
    send = Pings._send_ping
    moves: list[asyncio.Task[Any]] = []

    async def in_flight(self: Pings, table: Table, content: str, user_id: int) -> Any:
        if content.startswith("⏰") and not moves:
            games = service(simcord_env)
            moves.append(
                asyncio.create_task(games.moves.move(table, alice.id, PLAY[C.TWO], table.stamp))
            )
            # Discord takes a moment (real time: the store's thread runs meanwhile).
            await asyncio.get_running_loop().run_in_executor(None, time.sleep, 0.2)
        return await send(self, table, content, user_id)

    monkeypatch.setattr(Pings, "_send_ping", in_flight)
    await simcord_env.advance_time(46)  # the warning comes 15 s before the minute is up
    await simcord_env.advance_time(3)

    assert moves and moves[0].done() and table.to_move == 1, "alice's move was made"
    standing = [m.content for m in channel.history() if m.content.startswith(("<@", "⏰"))]
    assert standing == [
        f"{bob.mention}, it's your turn — time runs out <t:{int(table.turn_deadline or 0)}:R>"
    ]


@pytest.mark.real_pacing
async def test_a_quit_followed_by_ai_moves_within_the_hold_is_on_the_table_at_some_moment(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    # The table edit waits up to Pacing.ai_hold for the AI seats. Here the first AI seat
    # ends a round with each of its moves (its end and the new deal are lines
    # too): more lines come within the hold than the table lists.
    table = await open_lobby(simcord_env, alice, channel, turn_timer=0)
    for _ in range(5):
        await alice.select(table_message(channel), ["easy"])
    small = [C.TWO, C.TWO, C.FOUR]
    for starter in (0, 1):
        rig(simcord_env, [[C.THREE] * 2, [C.ONE], *[small] * 4], C.ONE, [C.LLAMA] * 4, starter)
    await alice.click(table_message(channel), label="Start")
    await simcord_env.advance_time(5)
    hand = await open_hand(alice, channel)
    await simcord_env.advance_time(5)
    assert table.to_move == 0
    before = len(simcord_env.http_requests)

    await alice.click(hand, custom_id=enabled(hand, "lama:quit:")[0])
    await simcord_env.advance_time(20)

    versions = table_versions(simcord_env.http_requests[before:])
    assert versions, "the table was edited"
    assert any("alice quit the round" in moves for moves in versions), versions


@pytest.mark.slow  # 26 moves, and a settle that waits out SimCord's window
@pytest.mark.parked_retries  # 26 moves' failed edits wait on no backoff in real time
async def test_a_table_kept_from_discord_for_long_counts_every_move_it_does_not_list(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """Discord fails the table's edits while alice and bob draw 26 times (more moves
    than the bot keeps lines of). Once Discord is back, the table lists the newest and
    counts every one of the others in its "… N more moves": none goes missing unsaid."""
    await draws_unseen(simcord_env, alice, bob, channel, draws=26)
    simcord_env.backend.faults.clear()  # Discord is back
    await simcord_env.advance_time(120)
    assert draws_counted(channel) == 26
