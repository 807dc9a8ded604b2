"""One person keeps only a few channels busy at once: their lobbies and the games they play
as its only person count alike; and such a game nobody moves in frees its channel in hours."""

from __future__ import annotations

import pytest

from bot.service import ServiceError
from bot.service.play.table import Status
from data import EVERYTHING
from data.records import ALL_TIME, IDLE_GAME
from game.ai import Strength
from testkit.service_game import GUILD, ServiceGame, eventually, people, rated

ANN, BOB = people("Ann", "Bob")
HOURS = 6  # a game its only person doesn't move in ends after this


async def test_games_against_ais_count_with_lobbies_toward_the_channels_one_keeps(
    game: ServiceGame,
) -> None:
    """The issue's case: Ann starts game after game against an AI, each in a channel of
    its own. The fourth is refused, as a fourth lobby would be; a game she plays with Bob
    counts for neither of them, and one that ended frees its place."""
    alone = [await game.lobby([ANN], [Strength.EASY]) for _ in range(3)]
    assert all(t.status is Status.RUNNING for t in alone)
    for opening in (game.lobby([ANN], start=False), game.lobby([ANN], [Strength.EASY])):
        with pytest.raises(ServiceError) as refused:
            await opening
        assert (refused.value.key, refused.value.params) == (
            "error.too_many_channels",
            {"max": 3, "hours": HOURS},
        )
    together = await game.lobby([BOB, ANN])
    assert together.status is Status.RUNNING  # two people: nobody's channel alone
    await game.service.lobbies.cancel(alone[0], ANN.id, can_manage=False)
    await game.lobby([ANN], start=False)


async def test_a_game_its_only_person_leaves_idle_ends_in_hours_rated_as_idle(
    game: ServiceGame,
) -> None:
    """Ann's untimed game against an AI, at her turn, nobody moving: it ends after six
    hours, not three days, rated as the idle rule rates it (she let it stall: last)."""
    table = await game.lobby([ANN], [Strength.EASY])
    await eventually(lambda: table.to_move == 0)
    await game.play(table)  # a move of hers, so there is something to rate
    await eventually(lambda: table.to_move == 0 or table.status is not Status.RUNNING)
    assert table.status is Status.RUNNING
    game.clock.advance(HOURS * 3600 - 60)
    assert table.status is Status.RUNNING
    game.clock.advance(61)
    await eventually(lambda: ("closed", table.game_id, IDLE_GAME) in game.listener.notices)
    ranks = {c.seat: c.rank for c in await rated(game, table.game_id) if c.season == ALL_TIME}
    assert ranks == {0: 2, 1: 1}
    # Two people take their time: their game keeps the three days.
    together = await game.lobby([ANN, BOB])
    game.clock.advance(HOURS * 3600 + 1)
    assert together.status is Status.RUNNING
    assert await game.store.ratings.rating_of(GUILD, ALL_TIME, BOB.id, sight=EVERYTHING) is None
