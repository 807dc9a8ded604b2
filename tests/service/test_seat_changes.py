"""Seat changes through the service: kicks, leaving, coming back."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.service import ServiceError, Timing
from bot.service.play.table import Status, Table
from data import StoreError
from data.records import ALL_TIME
from game import QUIT, Card
from game.ai import Strength
from testkit.deals import whole_deal
from testkit.service_game import (
    ManualClock,
    ServiceGame,
    WatchedLock,
    eventually,
    people,
    rated,
    watch_locks,
)

ANN, BOB, CY = people("Ann", "Bob", "Cy")


async def three_players_nobody_can_play(game: ServiceGame, starter: int = 0) -> Table:
    """Ann (the host), Bob and Cy at a table with a 60 s turn timer, dealt hands nothing
    fits, seat ``starter`` to move."""
    game.service.dealer.scripted.append(
        whole_deal([[Card.ONE] * 6, [Card.TWO] * 6, [Card.THREE] * 6], Card.FIVE, starter=starter)
    )
    table = await game.lobby([ANN, BOB, CY], turn_timer=60)
    await game.settled()  # the start shown: no notice of it still going out
    watch_locks(table)  # a test can see the clock's ring held up by the table
    return table


async def kick_bob(game: ServiceGame, table: Table) -> None:
    await game.service.seats.kick(table, ANN.id, BOB.id, can_manage=True)


async def bob_leaves(game: ServiceGame, table: Table) -> None:
    await game.service.seats.leave_game(table, BOB.id)


#: Bob's seat handed to an AI: the host kicks him, or he leaves.
SeatChange = Callable[[ServiceGame, Table], Awaitable[None]]
HANDED_TO_AN_AI = pytest.mark.parametrize(
    "hand_over", [kick_bob, bob_leaves], ids=["kick", "leave"]
)


def hold_seat_changes(
    game: ServiceGame, monkeypatch: pytest.MonkeyPatch, go: asyncio.Event
) -> asyncio.Event:
    """Seat changes' saves held up until ``go`` is set; the event given back is set
    once one is under way (the table's lock held, the change not yet on the table)."""
    real = game.store.games.update_timer
    saving = asyncio.Event()

    async def held(*args: Any, **kwargs: Any) -> None:
        saving.set()
        await go.wait()
        await real(*args, **kwargs)

    monkeypatch.setattr(game.store.games, "update_timer", held)
    return saving


async def miss_turns_until_away(game: ServiceGame, table: Table) -> None:
    """Let the turns run out until Ann (seat 0) missed enough of hers to be away."""
    for _ in range(Timing().misses_before_takeover * 3):
        if table.seats[0].away:
            break
        stamp = table.stamp
        game.clock.advance(61)
        await eventually(lambda s=stamp: table.stamp != s)
    assert table.seats[0].away


async def test_only_the_host_or_a_manager_kicks(game: ServiceGame) -> None:
    table = await game.lobby([ANN, BOB, CY])
    with pytest.raises(ServiceError) as refused:
        await game.service.seats.kick(table, BOB.id, CY.id, can_manage=False)
    assert refused.value.key == "error.kick_not_allowed"
    await game.service.seats.kick(table, BOB.id, CY.id, can_manage=True)
    assert table.seats[2].controller is not None
    with pytest.raises(ServiceError) as refused:
        await game.service.seats.kick(table, ANN.id, CY.id, can_manage=False)
    assert refused.value.key == "error.already_ai"
    record = await game.store.games.load_game(table.game_id)
    assert record is not None and [n.kind for n in record.notes] == ["kicked"]


async def test_the_host_leaving_hands_the_host_on_and_the_last_human_ends_the_game(
    game: ServiceGame,
) -> None:
    table = await game.lobby([ANN, BOB])
    await game.service.seats.leave_game(table, ANN.id)
    assert table.host_id == BOB.id and table.status is Status.RUNNING
    await game.service.seats.leave_game(table, BOB.id)
    assert table.status is Status.CANCELLED
    assert ("closed", table.game_id, "closed.abandoned") in game.listener.notices


async def test_a_player_away_comes_back_to_a_whole_turn(game: ServiceGame) -> None:
    table = await three_players_nobody_can_play(game)
    with pytest.raises(ServiceError) as refused:
        await game.service.seats.come_back(table, ANN.id)
    assert refused.value.key == "error.not_away"
    await miss_turns_until_away(game, table)
    await game.service.seats.come_back(table, ANN.id)
    assert not table.seats[0].away and table.seats[0].missed_turns == 0
    assert table.recent[-1].kind == "back"


async def test_a_kicked_player_moving_or_asking_a_hint_is_told_their_seat_is_the_ais(
    tmp_path: Path, clock: ManualClock
) -> None:
    """Before the AI's first move for them (its pause), a kicked player's hand still has
    its buttons: they're told the seat is the AI's for the rest of the game, not to press
    an "I'm back" that a kicked player doesn't have."""
    game = await ServiceGame.open(tmp_path / "game.db", clock=clock, timing=Timing(ai_delay=30))
    try:
        table = await game.lobby([ANN, BOB])
        player = table.seats[table.to_move or 0].user_id
        assert player is not None
        await game.service.seats.kick(table, ANN.id, player, can_manage=True)
        assert table.seats[table.to_move or 0].ai is not None
        with pytest.raises(ServiceError) as refused:
            await game.service.moves.move(table, player, QUIT, table.stamp)
        assert refused.value.key == "error.kicked"
        with pytest.raises(ServiceError) as refused:
            await game.service.hints.hint(table, player)
        assert refused.value.key == "error.kicked"
    finally:
        await game.close()


async def test_im_back_that_waited_for_the_games_last_move_is_refused(
    game: ServiceGame,
) -> None:
    """“I'm back” pressed while the AI standing in makes the game's last move waits for
    the table; the game is over once it gets it: refused, nothing saved or shown."""
    table = await three_players_nobody_can_play(game)
    await miss_turns_until_away(game, table)
    record = await game.store.games.load_game(table.game_id)
    assert record is not None
    notes = len(record.notes)

    async with table.lock:  # the last move is being saved
        coming = asyncio.ensure_future(game.service.seats.come_back(table, ANN.id))
        await held_up(table)
        table.status = Status.FINISHED  # what that move did
    with pytest.raises(ServiceError) as refused:
        await coming
    assert refused.value.key == "error.game_gone"
    assert table.seats[0].away and table.recent[-1].kind != "back"
    record = await game.store.games.load_game(table.game_id)
    assert record is not None and len(record.notes) == notes, "nothing saved"


async def test_the_last_human_leaving_while_the_store_fails_the_close_ends_it_once_it_is_back(
    game: ServiceGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seat change is saved but not the game's end: the leave is done (not
    refused as unsaved), no AI plays on at a table nobody is left at, and the
    game is ended as abandoned once the store takes it, and rated then (her loss)."""
    table = await game.lobby([ANN], [Strength.NORMAL])
    real = game.store.games.set_status

    async def broken(*args: object, **kwargs: object) -> None:
        raise StoreError("disk full")

    monkeypatch.setattr(game.store.games, "set_status", broken)
    await game.service.seats.leave_game(table, ANN.id)  # done, though not yet closed
    stamp = table.stamp
    game.clock.advance(Timing().save_retry + 1)
    await game.settled()  # the close tried again (and failed again), an AI's move due by now
    assert table.stamp == stamp  # no AI plays on for nobody
    monkeypatch.setattr(game.store.games, "set_status", real)
    game.clock.advance(Timing().save_retry + 1)
    await eventually(lambda: table.status is Status.CANCELLED)
    assert ("closed", table.game_id, "closed.abandoned") in game.listener.notices
    record = await game.store.games.load_game(table.game_id)
    assert record is not None and record.status == "cancelled"
    assert table.stamp == stamp
    changes = await rated(game, table.game_id)  # right after the close, in the clock's task
    assert {c.seat: c.rank for c in changes if c.season == ALL_TIME} == {0: 2, 1: 1}


async def test_no_ai_plays_on_for_nobody_while_the_close_is_not_saved(
    tmp_path: Path, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann leaves while the AI's move is on its way (its pause) and the store fails the
    game's end: the AI doesn't move at the table nobody is left at."""
    game = await ServiceGame.open(tmp_path / "g.db", clock=clock, timing=Timing(ai_delay=5.0))
    try:
        game.service.dealer.scripted.append(
            whole_deal([[Card.ONE] * 6, [Card.TWO] * 6], Card.THREE, starter=1)
        )
        table = await game.lobby([ANN], [Strength.NORMAL])
        assert table.to_move == 1  # the AI's move waits for its pause

        async def broken(*args: object, **kwargs: object) -> None:
            raise StoreError("disk full")

        monkeypatch.setattr(game.store.games, "set_status", broken)
        await game.service.seats.leave_game(table, ANN.id)
        stamp = table.stamp
        for _ in range(3):
            clock.advance(6)
            await game.settled()  # past the AI's pause: its move would be made
        assert table.stamp == stamp and table.status is Status.RUNNING
        monkeypatch.undo()
        clock.advance(Timing().save_retry + 1)
        await eventually(lambda: table.status is Status.CANCELLED)
        assert table.stamp == stamp
    finally:
        await game.close()


@HANDED_TO_AN_AI
async def test_a_seat_handed_to_an_ai_as_its_turn_runs_out_is_played_by_the_ai(
    game: ServiceGame, monkeypatch: pytest.MonkeyPatch, hand_over: SeatChange
) -> None:
    """Bob's turn runs out while his seat's change to an AI is being saved: the timer's
    ring waits for the table, and finds the seat the AI's. It does nothing for Bob (no
    missed turn, no timeout, no takeover); the AI plays his turn, once."""
    table = await three_players_nobody_can_play(game, starter=1)  # Bob to move
    stamp = table.stamp
    go = asyncio.Event()
    saving = hold_seat_changes(game, monkeypatch, go)

    async def run_out() -> None:
        await saving.wait()
        assert table.turn_deadline is not None
        game.clock.advance(table.turn_deadline - game.clock.now)
        await held_up(table)  # the ring is on its way: it waits for the table
        go.set()

    await asyncio.gather(hand_over(game, table), run_out())
    await eventually(lambda: table.stamp != stamp)
    await game.settled()  # a second move, if one were coming, would be made
    bob = table.seats[1]
    assert bob.ai is Strength.NORMAL and bob.missed_turns == 0 and not bob.away
    assert table.stamp == stamp + 1 and table.to_move == 2, "the AI moved once for Bob"
    lines = [(line.seat, line.kind) for line in table.recent]
    assert lines[-1][0] == 1 and lines[-1][1] in ("draw", "quit"), lines
    assert not {"timeout", "takeover"} & {kind for _, kind in lines}
    record = await game.store.games.load_game(table.game_id)
    assert record is not None
    assert [note.kind for note in record.notes] == [lines[-2][1]]  # kicked or left
    assert record.automatic == {}, "no move stored as the timer's"
    assert record.seats[1].missed_turns == 0


async def warning_time(game: ServiceGame, table: Table) -> None:
    """Move the clock to the turn's warning (a quarter of its 60 s before the end), and
    let the warning ring: it is on its way, waiting for whatever holds it up."""
    assert table.turn_deadline is not None
    game.clock.advance(table.turn_deadline - 15 - game.clock.now)
    await held_up(table)


async def held_up(table: Table) -> None:
    """Wait until something (a clock's ring, a click) waits for the table (a change being
    saved holds it) or for its notices (one still going out)."""
    lock, notice_lock = table.lock, table.notice_lock
    assert isinstance(lock, WatchedLock) and isinstance(notice_lock, WatchedLock)
    await eventually(
        lambda: lock.waiting + notice_lock.waiting > 0, what="something waits for the table"
    )


async def warned_as_the_change_is_saved(
    game: ServiceGame, table: Table, hand_over: SeatChange, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The warning rings while the seat change is being saved (the table's lock held)."""
    go = asyncio.Event()
    saving = hold_seat_changes(game, monkeypatch, go)

    async def warn_then_save() -> None:
        await saving.wait()
        await warning_time(game, table)
        go.set()

    await asyncio.gather(hand_over(game, table), warn_then_save())


async def warned_behind_an_earlier_notice(
    game: ServiceGame, table: Table, hand_over: SeatChange, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The warning waits for a notice still going out (Discord slow to take an edit),
    and the seat changes meanwhile: its own notice goes out after the warning."""
    go = asyncio.Event()

    async def slow(kind: str, _table: Table) -> None:
        if kind == "changed":
            await go.wait()

    monkeypatch.setattr(game.listener, "on_notice", slow)
    showing = asyncio.ensure_future(game.service.notices.notify(table))
    await warning_time(game, table)
    await hand_over(game, table)
    go.set()
    await showing


#: When the seat changes as the warning goes out.
Moment = Callable[[ServiceGame, Table, SeatChange, pytest.MonkeyPatch], Awaitable[None]]


@HANDED_TO_AN_AI
@pytest.mark.parametrize(
    "moment",
    [warned_as_the_change_is_saved, warned_behind_an_earlier_notice],
    ids=["change-being-saved", "behind-a-notice"],
)
async def test_a_player_kicked_as_their_warning_goes_out_is_not_warned(
    game: ServiceGame, monkeypatch: pytest.MonkeyPatch, hand_over: SeatChange, moment: Moment
) -> None:
    """Bob's turn is about to be warned as his seat goes to an AI: the warning finds the
    seat no longer his, and he isn't pinged that his time runs out; the AI plays on."""
    table = await three_players_nobody_can_play(game, starter=1)  # Bob to move
    stamp = table.stamp
    await moment(game, table, hand_over, monkeypatch)
    await eventually(lambda: table.stamp != stamp)  # the AI played Bob's turn
    assert table.seats[1].ai is Strength.NORMAL
    assert "warning" not in game.listener.kinds(table.game_id), game.listener.notices
