"""The table registry: lookups, the channel claim, and its hooks."""

from __future__ import annotations

import pytest

from bot.service import ServiceError
from bot.service.play.registry import TableRegistry
from bot.service.play.table import Seat, Status, Table
from game import Ruleset


def a_table(game_id: int, channel_id: int) -> Table:
    seats = [Seat(user_id=1, ai=None, name="Ann")]
    return Table(game_id, 9, channel_id, 1, Ruleset(), 0, "en", seats)


def test_a_claimed_channel_refuses_a_second_lobby_until_released() -> None:
    registry = TableRegistry()
    with registry.claim(50):
        with pytest.raises(ServiceError) as refused, registry.claim(50):
            pass
        assert refused.value.key == "error.channel_busy"
    with registry.claim(50):  # released: free again
        pass


def test_a_channel_with_a_table_is_busy() -> None:
    registry = TableRegistry()
    registry.register(a_table(1, 50))
    with pytest.raises(ServiceError) as refused, registry.claim(50):
        pass
    assert refused.value.key == "error.channel_busy"


def test_lookups_and_the_hooks_for_tables_coming_and_going() -> None:
    came: list[int] = []
    went: list[int] = []
    registry = TableRegistry(
        on_register=lambda t: came.append(t.game_id), on_unregister=lambda t: went.append(t.game_id)
    )
    table = a_table(1, 50)
    registry.register(table)
    assert registry.table(1) is table and registry.table_in(50) is table
    assert registry.require(1) is table
    registry.unregister(table)
    assert registry.table(1) is None and registry.table_in(50) is None
    assert (came, went) == ([1], [1])
    with pytest.raises(ServiceError) as gone:
        registry.require(1)
    assert gone.value.key == "error.game_gone"


def test_a_closed_table_is_gone_and_a_newer_one_keeps_the_channel() -> None:
    registry = TableRegistry()
    old, new = a_table(1, 50), a_table(2, 50)
    registry.register(old)
    old.status = Status.FINISHED
    with pytest.raises(ServiceError):
        registry.require(1)
    registry.register(new)  # the rematch in the same channel
    registry.unregister(old)
    assert registry.table_in(50) is new
    assert registry.tables() == [new]
