"""Seat changes through the service: kicks, leaving, coming back."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.service import ServiceError, Timing
from bot.service.table import Status, Table
from data import StoreError
from game import QUIT, Card
from game.ai import Strength
from testkit.deals import whole_deal
from testkit.service_game import ManualClock, ServiceGame, eventually, people

ANN, BOB, CY = people("Ann", "Bob", "Cy")


async def three_players_nobody_can_play(game: ServiceGame) -> Table:
    """Ann, Bob and Cy at a table with a 60 s turn timer, dealt hands nothing fits."""
    game.service.scripted_deals.append(
        whole_deal([[Card.ONE] * 6, [Card.TWO] * 6, [Card.THREE] * 6], Card.FIVE)
    )
    return await game.lobby([ANN, BOB, CY], turn_timer=60)


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
        await game.service.kick(table.game_id, BOB.id, CY.id, can_manage=False)
    assert refused.value.key == "error.kick_not_allowed"
    await game.service.kick(table.game_id, BOB.id, CY.id, can_manage=True)
    assert table.seats[2].controller is not None
    with pytest.raises(ServiceError) as refused:
        await game.service.kick(table.game_id, ANN.id, CY.id, can_manage=False)
    assert refused.value.key == "error.already_ai"
    record = await game.store.games.load_game(table.game_id)
    assert record is not None and [n.kind for n in record.notes] == ["kicked"]


async def test_the_host_leaving_hands_the_host_on_and_the_last_human_ends_the_game(
    game: ServiceGame,
) -> None:
    table = await game.lobby([ANN, BOB])
    await game.service.leave_game(table.game_id, ANN.id)
    assert table.host_id == BOB.id and table.status is Status.RUNNING
    await game.service.leave_game(table.game_id, BOB.id)
    assert table.status is Status.CANCELLED
    assert ("closed", table.game_id, "closed.abandoned") in game.listener.notices


async def test_a_player_away_comes_back_to_a_whole_turn(game: ServiceGame) -> None:
    table = await three_players_nobody_can_play(game)
    with pytest.raises(ServiceError) as refused:
        await game.service.come_back(table.game_id, ANN.id)
    assert refused.value.key == "error.not_away"
    await miss_turns_until_away(game, table)
    await game.service.come_back(table.game_id, ANN.id)
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
        await game.service.kick(table.game_id, ANN.id, player, can_manage=True)
        assert table.seats[table.to_move or 0].ai is not None
        with pytest.raises(ServiceError) as refused:
            await game.service.move(table.game_id, player, QUIT, table.stamp)
        assert refused.value.key == "error.kicked"
        with pytest.raises(ServiceError) as refused:
            await game.service.hint(table.game_id, player)
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
        coming = asyncio.ensure_future(game.service.come_back(table.game_id, ANN.id))
        await asyncio.sleep(0)
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
    game is ended as abandoned once the store takes it."""
    table = await game.lobby([ANN], [Strength.NORMAL])
    real = game.store.games.set_status

    async def broken(*args: object, **kwargs: object) -> None:
        raise StoreError("disk full")

    monkeypatch.setattr(game.store.games, "set_status", broken)
    await game.service.leave_game(table.game_id, ANN.id)  # done, though not yet closed
    stamp = table.stamp
    game.clock.advance(Timing().save_retry + 1)
    await asyncio.sleep(0.05)
    assert table.stamp == stamp  # no AI plays on for nobody
    monkeypatch.setattr(game.store.games, "set_status", real)
    game.clock.advance(Timing().save_retry + 1)
    await eventually(lambda: table.status is Status.CANCELLED)
    assert ("closed", table.game_id, "closed.abandoned") in game.listener.notices
    record = await game.store.games.load_game(table.game_id)
    assert record is not None and record.status == "cancelled"
    assert table.stamp == stamp


async def test_no_ai_plays_on_for_nobody_while_the_close_is_not_saved(
    tmp_path: Path, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann leaves while the AI's move is on its way (its pause) and the store fails the
    game's end: the AI doesn't move at the table nobody is left at."""
    game = await ServiceGame.open(tmp_path / "g.db", clock=clock, timing=Timing(ai_delay=5.0))
    try:
        game.service.scripted_deals.append(
            whole_deal([[Card.ONE] * 6, [Card.TWO] * 6], Card.THREE, starter=1)
        )
        table = await game.lobby([ANN], [Strength.NORMAL])
        assert table.to_move == 1  # the AI's move waits for its pause

        async def broken(*args: object, **kwargs: object) -> None:
            raise StoreError("disk full")

        monkeypatch.setattr(game.store.games, "set_status", broken)
        await game.service.leave_game(table.game_id, ANN.id)
        stamp = table.stamp
        for _ in range(3):
            clock.advance(6)
            await asyncio.sleep(0.02)
        assert table.stamp == stamp and table.status is Status.RUNNING
        monkeypatch.undo()
        clock.advance(Timing().save_retry + 1)
        await eventually(lambda: table.status is Status.CANCELLED)
        assert table.stamp == stamp
    finally:
        await game.close()
