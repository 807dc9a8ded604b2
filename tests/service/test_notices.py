"""Notices: in order of the changes, the closed table last, places gone without a word."""

from __future__ import annotations

import asyncio

import pytest

from bot.service import ServiceError
from bot.service.play.notices import Notices
from bot.service.play.registry import TableRegistry
from bot.service.play.table import Seat, Status, Table
from bot.service.saver import Saver
from data import Store, StoreError
from game import Ruleset
from testkit.service_game import RecordingListener, ServiceGame, eventually, people, watch_locks

ANN, BOB = people("Ann", "Bob")


async def test_a_closed_table_is_told_after_the_notices_before_it(game: ServiceGame) -> None:
    slow = asyncio.Event()

    async def held(kind: str, table: Table) -> None:
        if kind == "turn":
            await slow.wait()

    game.listener.on_notice = held
    table = await game.lobby([ANN, BOB], start=False)
    _, notice_lock = watch_locks(table)
    await game.service.lobbies.start(table, ANN.id)
    await eventually(lambda: game.listener.kinds(table.game_id)[-1:] == ["turn"])  # held
    cancelling = asyncio.create_task(game.service.lobbies.cancel(table, ANN.id, can_manage=False))
    await eventually(lambda: table.status is Status.CANCELLED)  # saved at once...
    await eventually(lambda: notice_lock.waiting > 0, what="the close waits for the notices")
    assert "closed" not in game.listener.kinds(table.game_id)  # ...told after the turn notice
    slow.set()
    await cancelling
    await eventually(lambda: game.listener.kinds(table.game_id)[-1:] == ["closed"])
    assert game.listener.kinds(table.game_id) == ["changed", "turn", "closed"]


async def test_a_close_that_cannot_be_saved_leaves_the_table_open(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    registry = TableRegistry()
    notices = Notices(store, Saver(), registry)
    listener = RecordingListener()
    notices.listener = listener
    table = Table(1, 9, 50, 1, Ruleset(), 0, "en", [Seat(1, None, "Ann")])
    registry.register(table)

    async def broken(*args: object, **kwargs: object) -> None:
        raise StoreError("down")

    monkeypatch.setattr(store.games, "set_status", broken)
    with pytest.raises(ServiceError):
        await notices.close_table(table, Status.CANCELLED, "closed.cancelled")
    assert table.status is Status.LOBBY and registry.table(1) is table
    assert listener.notices == []


async def test_a_place_gone_ends_its_games_and_only_forgets_them(game: ServiceGame) -> None:
    here = await game.lobby([ANN, BOB])
    elsewhere = await game.lobby([ANN, BOB])
    await eventually(lambda: len(game.listener.notices) >= 4)
    gone = await game.service.notices.abandon_where(channel_id=here.channel_id)
    assert gone == [here] and here.status is Status.CANCELLED
    assert game.listener.kinds(here.game_id)[-1] == "gone"
    assert "closed" not in game.listener.kinds(here.game_id)
    assert elsewhere.status is Status.RUNNING
    record = await game.store.games.load_game(here.game_id)
    assert record is not None and record.status == "cancelled"
