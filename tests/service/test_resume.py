"""Resuming after a restart: the games rebuilt with their clocks."""

from __future__ import annotations

import pytest

from bot.service import GameService
from bot.service.play.table import Status
from data import StoreError
from game.ai import Strength
from testkit.service_game import ServiceGame, eventually, people, rated

ANN, BOB = people("Ann", "Bob")


async def test_a_running_game_is_rebuilt_with_its_turn_clock(game: ServiceGame) -> None:
    table = await game.lobby([ANN, BOB], turn_timer=60)
    await game.play(table)
    lobby = await game.lobby([ANN], start=False)
    await game.service.close()  # the bot stops; the store stays
    game.clock.advance(600)  # it was down for a while
    again = GameService(
        game.store, clock=game.clock, sleep=game.clock.sleep, timing=game.service.timing
    )
    try:
        resumed = {t.game_id: t for t in await again.resume()}
        assert set(resumed) == {table.game_id, lobby.game_id}
        back = resumed[table.game_id]
        assert back.status is Status.RUNNING and back.stamp == table.stamp
        assert list(back.recent) == list(table.recent)
        assert [t.game_id for t in again.resumer.resumed_tables()] == sorted(resumed)
        assert again.resumer.resumed_tables() == []  # handed out once
        # The player to move has a whole turn from now, then times out.
        assert back.turn_deadline == game.clock.now + 60
        stamp = back.stamp
        game.clock.advance(61)
        await eventually(lambda: back.stamp > stamp)
        assert any(line.kind == "timeout" for line in back.recent)
    finally:
        await again.close()


async def test_a_resumed_game_whose_ai_is_to_move_moves_on(game: ServiceGame) -> None:
    table = await game.lobby([ANN], [Strength.NORMAL], start=False)
    await game.service.close()
    again = GameService(
        game.store, clock=game.clock, sleep=game.clock.sleep, timing=game.service.timing
    )
    try:
        (back,) = await again.resume()
        await again.lobbies.start(back, ANN.id)
        await eventually(lambda: back.to_move == 0 or back.status is not Status.RUNNING)
        assert back.game_id == table.game_id
    finally:
        await again.close()


async def test_a_game_whose_last_player_left_before_a_failed_close_ends_at_the_restart(
    game: ServiceGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last human's leave was saved, the game's end was not when the bot stopped:
    the restarted bot ends it as abandoned instead of letting the AIs play it out
    (and rate the one who left as last)."""
    table = await game.lobby([ANN], [Strength.NORMAL])

    async def broken(*args: object, **kwargs: object) -> None:
        raise StoreError("disk full")

    monkeypatch.setattr(game.store.games, "set_status", broken)
    await game.service.seats.leave_game(table, ANN.id)
    await game.service.close()  # the bot stops before the close is saved
    monkeypatch.undo()
    stamp = table.stamp
    again = GameService(
        game.store, clock=game.clock, sleep=game.clock.sleep, timing=game.service.timing
    )
    try:
        await again.resume()
        await eventually(lambda: again.registry.table(table.game_id) is None)
        record = await game.store.games.load_game(table.game_id)
        assert record is not None and record.status == "cancelled"
        assert len(record.events) == stamp  # nobody played on
        assert again.resumer.resumed_tables() == []
    finally:
        await again.close()


@pytest.mark.parametrize("turn_timer", [60, 0], ids=["timed", "untimed"])
async def test_a_game_nobody_plays_whose_close_fails_at_the_restart_still_ends_once_it_can(
    game: ServiceGame, monkeypatch: pytest.MonkeyPatch, turn_timer: int
) -> None:
    """As above, but the store fails the close at the restart too: handing the resumed
    tables out (their turns from now, once the bot is connected) must not take the
    clock's next try away, nor put the turn's clock in its place (none for a timed game,
    an idle close three days on for an untimed one, neither ending it as abandoned): the
    game is ended as abandoned once the store takes it, and rated as Ann's loss."""
    table = await game.lobby([ANN], [Strength.NORMAL], turn_timer=turn_timer)
    tries = 0

    async def broken(*args: object, **kwargs: object) -> None:
        nonlocal tries
        tries += 1
        raise StoreError("disk full")

    monkeypatch.setattr(game.store.games, "set_status", broken)
    await game.service.seats.leave_game(table, ANN.id)
    await game.service.close()  # the bot stops before the close is saved
    again = GameService(
        game.store, clock=game.clock, sleep=game.clock.sleep, timing=game.service.timing
    )
    try:
        before = tries
        (back,) = await again.resume()
        # The close tried at once at the restart fails too: it is tried again later.
        await eventually(lambda: tries > before)
        assert back.status is Status.RUNNING
        again.resumer.resumed_tables()  # the bot is connected
        monkeypatch.undo()
        game.clock.advance(again.timing.save_retry + 1)
        await eventually(lambda: back.status is Status.CANCELLED)
        record = await game.store.games.load_game(table.game_id)
        assert record is not None and record.end_reason == "closed.abandoned"
        changes = await rated(game, back.game_id)  # right after the close, in the clock's task
        ranks = {c.seat: c.rank for c in changes}
        assert ranks == {0: 2, 1: 1}
    finally:
        await again.close()


async def test_what_the_store_kept_of_a_table_message_is_read_back_once_after_a_restart(
    game: ServiceGame,
) -> None:
    """The table message is the front end's, not the game's: after a restart its id and
    how far it listed the moves come back through the service, once per game."""
    table = await game.lobby([ANN, BOB])
    lobby = await game.lobby([ANN], start=False)
    await game.service.front.set_table_message(table.game_id, 777)
    await game.service.front.moves_listed(table.game_id, 2)
    assert game.service.front.stored_table_message(table.game_id) == (None, None), "not rebuilt"
    await game.service.close()
    again = GameService(
        game.store, clock=game.clock, sleep=game.clock.sleep, timing=game.service.timing
    )
    try:
        await again.resume()
        assert not hasattr(again.registry.table(table.game_id), "table_message_id")
        assert again.front.stored_table_message(table.game_id) == (777, 2)
        assert again.front.stored_table_message(table.game_id) == (None, None), "handed out once"
        assert again.front.stored_table_message(lobby.game_id) == (None, None), "never posted"
    finally:
        await again.close()
