"""Lobbies through the service: joins at once, the full lobby, the host's buttons, rematches."""

from __future__ import annotations

import asyncio

import pytest

from bot.service import GameService, ServiceError, Timing
from bot.service.play.table import Status, Table, ai_name
from game import Card, Ruleset
from game.ai import Strength
from testkit.deals import whole_deal
from testkit.service_game import ServiceGame, eventually, people

ANN, BOB, CY, DEE, EVE, FAY, GUS = people("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")


async def test_two_joins_at_once_seat_the_player_once(game: ServiceGame) -> None:
    table = await game.lobby([ANN], start=False)
    outcomes = await asyncio.gather(
        game.service.lobbies.join(table, BOB),
        game.service.lobbies.join(table, BOB),
        return_exceptions=True,
    )
    refused = [o.key for o in outcomes if isinstance(o, ServiceError)]
    assert refused == ["error.already_joined"]
    assert [s.name for s in table.seats] == ["Ann", "Bob"]
    record = await game.store.games.load_game(table.game_id)
    assert record is not None and [s.name for s in record.seats] == ["Ann", "Bob"]


async def test_the_last_seat_goes_to_one_of_two_joining_at_once(game: ServiceGame) -> None:
    table = await game.lobby([ANN, BOB, CY, DEE, EVE], start=False)
    outcomes = await asyncio.gather(
        game.service.lobbies.join(table, FAY),
        game.service.lobbies.join(table, GUS),
        return_exceptions=True,
    )
    refused = [o for o in outcomes if isinstance(o, ServiceError)]
    assert [(e.key, e.params) for e in refused] == [("error.lobby_full", {"max": 6})]
    assert len(table.seats) == 6


async def test_only_the_host_adds_ais_or_starts(game: ServiceGame) -> None:
    table = await game.lobby([ANN, BOB], start=False)
    for ask in (
        game.service.lobbies.add_ai(table, BOB.id, Strength.EASY),
        game.service.lobbies.remove_ai(table, BOB.id),
        game.service.lobbies.toggle_hints(table, BOB.id),
        game.service.lobbies.start(table, BOB.id),
    ):
        with pytest.raises(ServiceError) as refused:
            await ask
        assert refused.value.key == "error.host_only"
    assert table.status is Status.LOBBY


async def test_starting_alone_is_refused_and_a_started_game_refuses_joins(
    game: ServiceGame,
) -> None:
    table = await game.lobby([ANN], start=False)
    with pytest.raises(ServiceError) as refused:
        await game.service.lobbies.start(table, ANN.id)
    assert (refused.value.key, refused.value.params) == ("error.not_enough_players", {"min": 2})
    await game.service.lobbies.add_ai(table, ANN.id, Strength.EASY)
    await game.service.lobbies.start(table, ANN.id)
    with pytest.raises(ServiceError) as refused:
        await game.service.lobbies.join(table, BOB)
    assert refused.value.key == "error.already_started"


async def test_two_hint_clicks_at_once_turn_hints_off_and_on_again(game: ServiceGame) -> None:
    table = await game.lobby([ANN], start=False)
    await asyncio.gather(*(game.service.lobbies.toggle_hints(table, ANN.id) for _ in range(2)))
    assert table.hints is True


async def test_the_host_leaving_hands_the_lobby_on_and_the_last_leaving_closes_it(
    game: ServiceGame,
) -> None:
    table = await game.lobby([ANN, BOB], start=False)
    await game.service.lobbies.leave(table, ANN.id)
    assert table.host_id == BOB.id
    await game.service.lobbies.leave(table, BOB.id)
    assert table.status is Status.CANCELLED
    assert ("closed", table.game_id, "closed.empty") in game.listener.notices
    assert game.service.registry.table_in(table.channel_id) is None


async def test_a_lobby_passes_only_to_a_player_who_may_host_one_more(
    game: ServiceGame,
) -> None:
    """The host leaving hands the lobby to the next player who hosts fewer lobbies than
    the limit in the server; nobody hosts more than three by inheriting one."""
    table = await game.lobby([ANN, BOB, CY], start=False)
    for _ in range(3):
        await game.lobby([BOB], start=False)
    await game.service.lobbies.leave(table, ANN.id)
    assert table.host_id == CY.id, "bob hosts three lobbies already"
    record = await game.store.games.load_game(table.game_id)
    assert record is not None and record.host_id == CY.id


async def test_a_lobby_nobody_may_host_is_closed_when_its_host_leaves(
    game: ServiceGame,
) -> None:
    table = await game.lobby([ANN, BOB], [Strength.EASY], start=False)
    for _ in range(3):
        await game.lobby([BOB], start=False)
    await game.service.lobbies.leave(table, ANN.id)
    assert table.status is Status.CANCELLED
    assert ("closed", table.game_id, "closed.no_host") in game.listener.notices
    hosted = [t for t in game.service.registry.tables() if t.host_id == BOB.id and t.live]
    assert len(hosted) == 3


async def test_two_hosts_leaving_at_once_hand_no_one_more_than_three_lobbies(
    game: ServiceGame,
) -> None:
    # Bob hosts two and sits in Ann's and Cy's lobbies; both leave at the same moment:
    # he may take one of them over, not both.
    first = await game.lobby([ANN, BOB], start=False)
    second = await game.lobby([CY, BOB], start=False)
    for _ in range(2):
        await game.lobby([BOB], start=False)
    await asyncio.gather(
        game.service.lobbies.leave(first, ANN.id),
        game.service.lobbies.leave(second, CY.id),
    )
    hosted = [t for t in game.service.registry.tables() if t.host_id == BOB.id and t.live]
    assert len(hosted) == 3
    assert {first.status, second.status} == {Status.LOBBY, Status.CANCELLED}


async def test_an_idle_lobby_closes(game: ServiceGame) -> None:
    table = await game.lobby([ANN], start=False)
    game.clock.advance(Timing().lobby_idle + 1)
    await eventually(lambda: table.status is Status.CANCELLED)
    assert ("closed", table.game_id, "closed.idle") in game.listener.notices
    record = await game.store.games.load_game(table.game_id)
    assert record is not None and record.status == "cancelled"


@pytest.mark.parametrize("change", ["hints", "leave", "remove"])
async def test_every_change_to_a_lobby_starts_its_idle_clock_again(
    game: ServiceGame, change: str
) -> None:
    """The host switching hints, or a joiner leaving or removed, is a change like a join
    or an AI seat added: the lobby isn't closed as idle a minute later (a restart counts
    it from the change too, the lobby's saved row)."""
    table = await game.lobby([ANN, BOB], start=False)
    game.clock.advance(Timing().lobby_idle - 60)
    if change == "hints":
        await game.service.lobbies.toggle_hints(table, ANN.id)
    elif change == "leave":
        await game.service.lobbies.leave(table, BOB.id)
    else:
        await game.service.lobbies.remove(table, ANN.id, BOB.id, can_manage=False)
    game.clock.advance(120)
    await game.settled()  # the lobby's first idle clock would have rung by now
    assert table.status is Status.LOBBY, "closed as idle a minute after a change"
    game.clock.advance(Timing().lobby_idle)
    await eventually(lambda: table.status is Status.CANCELLED)


async def test_a_second_lobby_in_the_channel_is_refused(game: ServiceGame) -> None:
    table = await game.lobby([ANN], start=False)
    with pytest.raises(ServiceError) as refused:
        await game.lobby([BOB], start=False, channel_id=table.channel_id)
    assert refused.value.key == "error.channel_busy"


async def test_cancel_is_for_the_host_or_a_manager(game: ServiceGame) -> None:
    table = await game.lobby([ANN, BOB])
    with pytest.raises(ServiceError) as refused:
        await game.service.lobbies.cancel(table, BOB.id, can_manage=False)
    assert refused.value.key == "error.cancel_not_allowed"
    outcomes = await asyncio.gather(
        game.service.lobbies.cancel(table, ANN.id, can_manage=False),
        game.service.lobbies.cancel(table, BOB.id, can_manage=True),
        return_exceptions=True,
    )
    assert [o.key for o in outcomes if isinstance(o, ServiceError)] == ["error.game_gone"]
    assert table.status is Status.CANCELLED


async def test_a_rematch_seats_the_same_players_in_the_same_channel(game: ServiceGame) -> None:
    game.service.dealer.scripted.append(whole_deal([[Card.FOUR], [Card.SIX] * 3], Card.FOUR))
    table = await game.lobby([ANN, BOB], ruleset=Ruleset(threshold=1))
    await game.play(table)  # Ann plays her only card: the game is over
    assert table.status is Status.FINISHED
    with pytest.raises(ServiceError) as refused:
        await game.service.lobbies.rematch(table.game_id, BOB, table.channel_id + 1, table.guild_id)
    assert refused.value.key == "error.wrong_place"
    again = await game.service.lobbies.rematch(table.game_id, BOB, table.channel_id, table.guild_id)
    assert again.host_id == BOB.id and [s.name for s in again.seats] == ["Ann", "Bob"]
    assert game.service.registry.table_in(table.channel_id) is again


async def finished(game: ServiceGame) -> Table:
    """A two-player game (Ann, Bob) that Ann ended with her only card."""
    game.service.dealer.scripted.append(whole_deal([[Card.FOUR], [Card.SIX] * 3], Card.FOUR))
    table = await game.lobby([ANN, BOB], ruleset=Ruleset(threshold=1))
    await game.play(table)
    assert table.status is Status.FINISHED
    return table


async def test_a_finished_table_rematches_once_even_after_the_rematch_is_cancelled(
    game: ServiceGame,
) -> None:
    table = await finished(game)
    again = await game.service.lobbies.rematch(table.game_id, BOB, table.channel_id, table.guild_id)
    await game.service.lobbies.cancel(again, BOB.id, can_manage=False)
    for who in (BOB, ANN):
        with pytest.raises(ServiceError) as refused:
            await game.service.lobbies.rematch(table.game_id, who, table.channel_id, table.guild_id)
        assert refused.value.key == "error.rematch_used"
    assert game.service.registry.table_in(table.channel_id) is None


async def restart(game: ServiceGame) -> GameService:
    """The bot stops, the store stays: a new service over it, not yet resumed."""
    await game.service.close()
    return GameService(
        game.store, clock=game.clock, sleep=game.clock.sleep, timing=game.service.timing
    )


async def test_a_rematch_used_before_a_restart_is_refused_after_it(game: ServiceGame) -> None:
    table = await finished(game)
    again = await game.service.lobbies.rematch(table.game_id, BOB, table.channel_id, table.guild_id)
    await game.service.lobbies.cancel(again, BOB.id, can_manage=False)
    restarted = await restart(game)
    try:
        await restarted.resume()
        with pytest.raises(ServiceError) as refused:
            await restarted.lobbies.rematch(table.game_id, ANN, table.channel_id, table.guild_id)
        assert refused.value.key == "error.rematch_used"
    finally:
        await restarted.close()


async def test_a_host_keeps_at_most_three_lobbies_in_a_server_threads_included(
    game: ServiceGame,
) -> None:
    first = [await game.lobby([ANN], start=False) for _ in range(2)]
    # Two more at once, in two threads: one of them is refused.
    outcomes = await asyncio.gather(
        game.lobby([ANN], start=False), game.lobby([ANN], start=False), return_exceptions=True
    )
    refused = [o for o in outcomes if isinstance(o, ServiceError)]
    assert [(e.key, e.params) for e in refused] == [
        ("error.too_many_channels", {"max": 3, "hours": 6})
    ]
    # Someone else may still open one; a lobby started or closed no longer counts.
    await game.lobby([BOB], start=False)
    await game.service.lobbies.cancel(first[0], ANN.id, can_manage=False)
    await game.lobby([ANN], start=False)
    with pytest.raises(ServiceError) as again:
        await game.lobby([ANN], start=False)
    assert again.value.key == "error.too_many_channels"


async def test_the_host_removes_a_joiner_who_then_cannot_join_again(game: ServiceGame) -> None:
    table = await game.lobby([ANN, BOB, CY], start=False)
    removed = await game.service.lobbies.remove(table, ANN.id, BOB.id, can_manage=False)
    assert removed is table and [s.name for s in table.seats] == ["Ann", "Cy"]
    record = await game.store.games.load_game(table.game_id)
    assert record is not None and [s.name for s in record.seats] == ["Ann", "Cy"]
    assert game.listener.kinds(table.game_id)[-1:] != ["closed"]
    with pytest.raises(ServiceError) as refused:
        await game.service.lobbies.join(table, BOB)
    assert refused.value.key == "error.removed_from_lobby"


async def test_only_the_host_or_a_manager_removes_and_only_someone_else_in_the_lobby(
    game: ServiceGame,
) -> None:
    table = await game.lobby([ANN, BOB, CY], start=False)
    for user_id, target_id, manager, key in (
        (BOB.id, CY.id, False, "error.host_only"),
        (ANN.id, ANN.id, False, "error.remove_host"),
        (ANN.id, DEE.id, False, "error.target_not_a_player"),
    ):
        with pytest.raises(ServiceError) as refused:
            await game.service.lobbies.remove(table, user_id, target_id, can_manage=manager)
        assert refused.value.key == key
    await game.service.lobbies.remove(table, BOB.id, CY.id, can_manage=True)
    assert [s.name for s in table.seats] == ["Ann", "Bob"]


async def test_a_joiner_removed_before_a_restart_cannot_join_again_after_it(
    game: ServiceGame,
) -> None:
    table = await game.lobby([ANN, BOB, CY], start=False)
    await game.service.lobbies.remove(table, ANN.id, BOB.id, can_manage=False)
    restarted = await restart(game)
    try:
        await restarted.resume()
        with pytest.raises(ServiceError) as refused:
            await restarted.lobbies.join(table, BOB)
        assert refused.value.key == "error.removed_from_lobby"
        await restarted.lobbies.join(table, DEE)  # anyone else still may
    finally:
        await restarted.close()


async def test_a_rematch_seats_a_forgotten_players_seat_as_an_ai_of_its_own(
    game: ServiceGame,
) -> None:
    """Bob was forgotten since: his seat, an AI's now, comes back as an AI seat like any
    other, not as a forgotten person's in a game he never played (which the rating
    would take for one: no AI to rank ahead of Ann when she leaves)."""
    table = await finished(game)
    await game.store.forget.forget_user(BOB.id)
    again = await game.service.lobbies.rematch(table.game_id, ANN, table.channel_id, table.guild_id)
    await game.service.lobbies.start(again, ANN.id)
    record = await game.store.games.load_game(again.game_id)
    assert record is not None
    assert [(s.user_id, s.ai) for s in record.seats] == [(ANN.id, None), (None, "normal")]
    assert record.seats[1].name == ai_name(1)
    await game.service.seats.leave_game(again, ANN.id)
    assert again.status is Status.CANCELLED
    changes = await game.store.ratings.rating_changes(again.game_id)
    assert {(c.seat, c.ai, c.rank) for c in changes} == {(0, None, 2), (1, "normal", 1)}
