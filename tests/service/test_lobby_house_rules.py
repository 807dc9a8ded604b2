"""House rules in the lobby: the host changes rule dimensions, saved before anyone sees them."""

from __future__ import annotations

import asyncio

import pytest

from bot.service import GameService, ServiceError
from game import Ruleset
from game.rules import LlamaCost
from testkit.service_game import ServiceGame, people
from testkit.slow_store import held

ANN, BOB = people("Ann", "Bob")


async def stored_rules(game: ServiceGame, game_id: int) -> Ruleset:
    record = await game.store.games.load_game(game_id)
    assert record is not None
    return record.ruleset


async def test_the_host_changes_house_rules_and_the_store_has_them(game: ServiceGame) -> None:
    table = await game.lobby([ANN, BOB], start=False, ruleset=Ruleset(party=True, threshold=30))
    await game.service.lobbies.change_rules(table, ANN.id, hand_size=7)
    await game.service.lobbies.change_rules(table, ANN.id, llama_cost=LlamaCost.EACH)
    wanted = Ruleset.compose("party", hand_size=7, llama_cost=LlamaCost.EACH, threshold=30)
    assert table.ruleset == wanted
    assert await stored_rules(game, table.game_id) == wanted
    assert table.ruleset.presets == ("party",)
    assert table.ruleset.house_rules == ("llama_cost", "hand_size")


async def test_only_the_host_changes_house_rules(game: ServiceGame) -> None:
    table = await game.lobby([ANN, BOB], start=False)
    with pytest.raises(ServiceError) as refused:
        await game.service.lobbies.change_rules(table, BOB.id, hand_size=7)
    assert refused.value.key == "error.rules_host_only"
    assert table.ruleset == Ruleset()
    assert await stored_rules(game, table.game_id) == Ruleset()


async def test_house_rules_change_only_while_the_lobby_is_open(game: ServiceGame) -> None:
    table = await game.lobby([ANN, BOB])
    with pytest.raises(ServiceError) as refused:
        await game.service.lobbies.change_rules(table, ANN.id, pink_chips=True)
    assert refused.value.key == "error.already_started"
    assert table.ruleset == Ruleset()


async def test_a_rule_the_lobby_does_not_offer_is_refused(game: ServiceGame) -> None:
    table = await game.lobby([ANN], start=False)
    for changes in ({"colour": "blue"}, {"hand_size": 40}, {"threshold": 5}):
        with pytest.raises(ServiceError) as refused:
            await game.service.lobbies.change_rules(table, ANN.id, **changes)
        assert refused.value.key == "error.house_rule_unknown"
    assert table.ruleset == Ruleset()


async def test_two_changes_at_once_are_both_kept(game: ServiceGame) -> None:
    table = await game.lobby([ANN], start=False)
    await asyncio.gather(
        game.service.lobbies.change_rules(table, ANN.id, hand_size=5),
        game.service.lobbies.change_rules(table, ANN.id, last_player_draws=True),
    )
    wanted = Ruleset(hand_size=5, last_player_draws=True)
    assert table.ruleset == wanted
    assert await stored_rules(game, table.game_id) == wanted


async def test_a_change_the_store_refused_is_not_made(game: ServiceGame) -> None:
    """Saved before shown: a failed save leaves the lobby's rules as they were."""
    table = await game.lobby([ANN], start=False)
    with held(game.store.games, "update_lobby", 0, fails=True), pytest.raises(ServiceError):
        await game.service.lobbies.change_rules(table, ANN.id, hand_size=4)
    assert table.ruleset == Ruleset()


async def test_a_restart_keeps_the_composed_rules_and_the_game_plays_them(
    game: ServiceGame,
) -> None:
    table = await game.lobby([ANN, BOB], start=False, ruleset=Ruleset(party=True))
    await game.service.lobbies.change_rules(table, ANN.id, llama_cost=LlamaCost.EACH)
    await game.service.close()
    restarted = GameService(
        game.store, clock=game.clock, sleep=game.clock.sleep, timing=game.service.timing
    )
    try:
        await restarted.resume()
        again = restarted.registry.table(table.game_id)
        assert again is not None
        assert again.ruleset == Ruleset.compose("party", llama_cost=LlamaCost.EACH)
        await restarted.lobbies.start(again, ANN.id)
        assert again.match is not None and again.match.ruleset == again.ruleset
    finally:
        await restarted.close()
