"""A stored game is rebuilt only from deals of the ruleset's whole deck."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service import GameService
from data import Store
from game import Card as C
from game import Match, Ruleset, explicit_deal
from tests.data._helpers import counter_clock, new_running_game, random_seats


async def test_a_stored_game_dealt_from_less_than_the_whole_deck_is_left_alone(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The bot deals only whole decks: a stored deal with cards missing was tampered
    with or corrupted, and playing it would give people a game with other odds."""
    store = await Store.open(tmp_path / "lama.db", durable=False, clock=counter_clock())
    try:
        short = explicit_deal([[C.ONE] * 6, [C.TWO] * 6], C.THREE, [C.FOUR] * 8, 0, round_no=1)
        broken = await new_running_game(
            store, Match(Ruleset(), 2), random_seats(2), first_deal=short
        )
        whole = await new_running_game(store, Match(Ruleset(), 2), random_seats(2), first_deal=7)
        games = GameService(store, clock=counter_clock(2_000.0))
        resumed = await games.resume()
        assert [t.game_id for t in resumed] == [whole]
        assert games.registry.table(broken) is None
        assert f"game {broken} could not be rebuilt" in caplog.text
        await games.close()
    finally:
        await store.close()
