"""A Rematch seats nobody who didn't act in its lobby: the old game's people are asked,
and only those who confirm (Join) play, are pinged and are rated; Start leaves out the rest."""

from __future__ import annotations

import pytest

from bot.service import ServiceError
from bot.service.play.table import Status, Table
from data import EVERYTHING
from data.records import ALL_TIME
from game import Card, Ruleset
from game.ai import Strength
from testkit.deals import whole_deal
from testkit.service_game import GUILD, ServiceGame, people

ANN, BOB, CY = people("Ann", "Bob", "Cy")


async def finished(game: ServiceGame, players: int = 2) -> Table:
    """A game of Ann and Bob (and Cy) that Ann ended with her only card."""
    hands = [[Card.FOUR], [Card.SIX] * 3, [Card.SIX] * 3][:players]
    game.service.dealer.scripted.append(whole_deal(hands, Card.FOUR))
    table = await game.lobby([ANN, BOB, CY][:players], ruleset=Ruleset(threshold=1))
    await game.play(table)
    assert table.status is Status.FINISHED
    return table


async def bobs_games(game: ServiceGame) -> int:
    rating = await game.store.ratings.rating_of(GUILD, ALL_TIME, BOB.id, sight=EVERYTHING)
    return 0 if rating is None else rating.games


async def test_rematches_bob_never_confirmed_neither_seat_nor_rate_him(
    game: ServiceGame,
) -> None:
    """The issue's case: after one game together, Ann runs rematch after rematch while Bob
    clicks nothing. He is asked in the first, never seated: each starts without him, and
    he is rated for none of them; the rematch of a game he didn't play doesn't ask him."""
    table = await finished(game)
    assert await bobs_games(game) == 1
    for time in range(3):
        again = await game.service.lobbies.rematch(table.game_id, ANN, table.channel_id, GUILD)
        asked = [s.user_id for s in again.seats if s.human]
        assert asked == ([ANN.id, BOB.id] if time == 0 else [ANN.id])
        if time == 0:
            with pytest.raises(ServiceError) as refused:
                await game.service.lobbies.start(again, ANN.id)  # Ann alone: not enough
            assert refused.value.key == "error.not_enough_confirmed"
            await game.service.lobbies.add_ai(again, ANN.id, Strength.EASY)
        await game.service.lobbies.start(again, ANN.id)
        assert again.humans == [ANN.id] and len(again.seats) == 2
        await game.play_out(again)
        table = again
    assert await bobs_games(game) == 1


async def test_those_who_confirm_play_and_the_others_are_left_out(game: ServiceGame) -> None:
    table = await finished(game, players=3)
    again = await game.service.lobbies.rematch(table.game_id, CY, table.channel_id, GUILD)
    assert [s.away for s in again.seats] == [True, True, False]  # asked, asked, Cy
    await game.service.lobbies.join(again, BOB)  # Bob confirms
    assert [s.away for s in again.seats] == [True, False, False]
    stored = await game.store.games.load_game(again.game_id)
    assert stored is not None and [s.away for s in stored.seats] == [True, False, False]
    await game.service.lobbies.start(again, CY.id)
    assert again.humans == [BOB.id, CY.id]
    assert all(s.controller is None for s in again.seats), "each seat played by its person"
