"""Nobody decides another person's result: a host's kick costs a present player nothing
and earns nobody their seat's place, and a cancel can't erase what others earned."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from bot.service.play.table import Status, Table
from data import EVERYTHING
from data.records import ALL_TIME, CANCELLED, RatingChange, SeatNote
from game import Card, Draw, Ruleset
from game.ai import Strength
from testkit.deals import whole_deal
from testkit.service_game import ServiceGame, eventually, people, rated

from .test_ratings import TABLES, play_a_round, ranked_by_points, rates_again_the_same, snapshot

ANN, BOB, CY = people("Ann", "Bob", "Cy")


def ranks(changes: Sequence[RatingChange], scope: int = ALL_TIME) -> dict[int, int]:
    return {c.seat: c.rank for c in changes if c.season == scope}


def moved_on(table: Table, stamp: int) -> Callable[[], bool]:
    """Whether the table moved on from ``stamp``."""
    return lambda: table.stamp != stamp


async def bobs_winning_turn(game: ServiceGame) -> Table:
    """Ann (the host) draws; it is then Bob's turn, and his one card, a 3 on the 3, wins
    the game for his seat (Ann holds 5 + 6 + the 1 she drew, past the threshold of 5)."""
    deal = whole_deal([[Card.FIVE, Card.SIX], [Card.THREE]], Card.THREE, [Card.ONE], 0)
    game.service.dealer.scripted.append(deal)
    table = await game.lobby([ANN, BOB], ruleset=Ruleset(threshold=5))
    await game.service.moves.move(table, ANN.id, Draw(), table.stamp)
    assert table.to_move == 1
    return table


async def test_a_kick_on_a_players_winning_turn_costs_them_nothing_and_earns_the_host_nothing(
    game: ServiceGame,
) -> None:
    """The issue's case: Bob holds his winning card on his turn, and the host kicks him.
    The stand-in plays that card and the seat wins: the seat stays first, ahead of the
    host, and Bob's own rating is as it was (he did not play it to the end)."""
    table = await bobs_winning_turn(game)
    await game.service.seats.kick(table, ANN.id, BOB.id, can_manage=False)
    await eventually(lambda: table.status is Status.FINISHED)
    changes = await rated(game, table.game_id)
    assert ranks(changes) == {1: 1, 0: 2}  # his seat won; the kick didn't put it last
    bobs = [c for c in changes if c.seat == 1]
    assert all((c.mu_after, c.sigma_after) == (c.mu_before, c.sigma_before) for c in bobs)
    anns = [c for c in changes if c.seat == 0]
    assert all(c.mu_after < c.mu_before for c in anns)  # she lost to that seat
    assert await game.store.ratings.rating_of(1, ALL_TIME, BOB.id, sight=EVERYTHING) is None
    assert table.rating_changes == {0: table.rating_changes[0], 1: 0}
    await rates_again_the_same(game, 1)


@pytest.mark.slow  # whole games rated
async def test_a_player_kicked_while_away_is_still_rated_by_their_own_absence(
    game: ServiceGame,
) -> None:
    """Bob missed his turns (an AI stands in), then the host kicks him: the kick changes
    nothing, his absence does: the stand-in played most of his seat, so he ranks last."""
    table = await game.lobby([ANN, BOB], turn_timer=60, ruleset=Ruleset(threshold=200))
    while not table.seats[1].away:
        await eventually(lambda: table.to_move is not None)
        if table.to_move == 0:
            await game.play(table)
        else:
            game.clock.advance(61)  # Bob misses it
            await eventually(moved_on(table, table.stamp))
    await game.service.seats.kick(table, ANN.id, BOB.id, can_manage=False)
    await game.play_out(table)
    assert ranks(await rated(game, table.game_id)) == {0: 1, 1: 2}


async def test_a_host_cancelling_once_others_moved_is_rated_as_their_leaving(
    game: ServiceGame,
) -> None:
    """Ann and Bob played a round; Ann, the host, cancels: the game isn't erased. It is
    rated as it stood, Ann last as if she had left, Bob ahead of her."""
    table = await game.lobby([ANN, BOB, CY])
    points = await play_a_round(game, table)
    await game.service.lobbies.cancel(table, ANN.id, can_manage=False)
    assert table.status is Status.CANCELLED
    assert ("closed", table.game_id, CANCELLED) in game.listener.notices
    changes = await rated(game, table.game_id)
    assert ranks(changes) == {0: 3, **ranked_by_points(points, (1, 2))}
    assert table.rating_changes[0] < 0
    stored = await game.store.games.load_game(table.game_id)
    assert stored is not None and stored.notes[-1] == SeatNote(len(stored.events), 0, "cancelled")
    await rates_again_the_same(game, 1)


async def test_an_admin_cancelling_a_game_people_moved_in_rates_it_as_it_stood(
    game: ServiceGame,
) -> None:
    """Bob, an admin not at the table, cancels Ann's game against an AI once she moved:
    it is rated as it stood, by the points then, nobody last (nobody left it)."""
    table = await game.lobby([ANN], [Strength.NORMAL])
    points = await play_a_round(game, table)
    await game.service.lobbies.cancel(table, BOB.id, can_manage=True)
    changes = await rated(game, table.game_id)
    assert ranks(changes) == ranked_by_points(points, (0, 1))
    stored = await game.store.games.load_game(table.game_id)
    assert stored is not None and stored.notes == () and stored.finished_at is not None
    await rates_again_the_same(game, 1)


async def test_a_cancel_before_anyone_but_the_canceller_moved_stays_unrated(
    game: ServiceGame,
) -> None:
    """A game started with the wrong rules, cancelled at once: nobody earned anything."""
    table = await game.lobby([ANN, BOB])
    if table.to_move == 0:
        await game.play(table)  # the canceller's own move earns the others nothing
    await game.service.lobbies.cancel(table, ANN.id, can_manage=False)
    assert (await game.service.rater.rate_all()).games == 0
    assert snapshot(Path(game.store.path)) == {name: [] for name in TABLES}
