"""The move pipeline through the service: saved before shown, one click of two, timeouts."""

from __future__ import annotations

import asyncio

import pytest

from bot.service import IllegalMove, MoveRefused, ServiceError, Timing
from bot.service.play.table import Status, Table, waiting
from data import StoreError
from data.records import AWAY
from game import DRAW, Card
from testkit.deals import whole_deal
from testkit.service_game import ServiceGame, eventually, people

ANN, BOB = people("Ann", "Bob")


async def test_a_move_is_saved_before_it_is_shown(game: ServiceGame) -> None:
    seen: list[tuple[int, int]] = []

    async def check(kind: str, table: Table) -> None:
        if kind == "changed" and table.match is not None:
            record = await game.store.games.load_game(table.game_id)
            assert record is not None
            seen.append((len(record.events), table.stamp))

    game.listener.on_notice = check
    table = await game.lobby([ANN, BOB])
    await game.play(table)
    await eventually(lambda: len(seen) == 2)
    assert all(stored == shown for stored, shown in seen)


async def test_a_failed_write_leaves_the_table_as_it_was(
    game: ServiceGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await game.lobby([ANN, BOB])
    await eventually(lambda: len(game.listener.notices) >= 2)
    before = (table.match, table.stamp, list(table.recent), table.turn_deadline)
    shown = len(game.listener.notices)

    async def broken(*args: object, **kwargs: object) -> None:
        raise StoreError("disk full")

    monkeypatch.setattr(game.store.games, "append_events", broken)
    with pytest.raises(ServiceError) as refused:
        await game.play(table)
    assert refused.value.key == "error.save_failed"
    assert (table.match, table.stamp, list(table.recent), table.turn_deadline) == before
    await game.settled()  # a notice would have gone out by now
    assert len(game.listener.notices) == shown  # nothing shown
    monkeypatch.undo()
    await game.play(table)  # the store is back: the same move goes through
    assert table.stamp > before[1]


async def test_two_clicks_at_once_apply_exactly_one_move(game: ServiceGame) -> None:
    game.service.dealer.scripted.append(
        whole_deal([[Card.ONE] * 3, [Card.TWO] * 3], Card.FIVE, starter=0)
    )
    table = await game.lobby([ANN, BOB])
    stamp = table.stamp
    clicks = [game.service.moves.move(table, ANN.id, DRAW, stamp) for _ in range(2)]
    outcomes = await asyncio.gather(*clicks, return_exceptions=True)
    refused = [o for o in outcomes if isinstance(o, ServiceError)]
    assert [e.key for e in refused] == ["error.stale"]
    assert table.stamp == stamp + 1
    record = await game.store.games.load_game(table.game_id)
    assert record is not None and len(record.events) == stamp + 1


async def test_refusals_of_a_move(game: ServiceGame) -> None:
    table = await game.lobby([ANN, BOB])
    stranger = people("Cy", first_id=900)[0]
    with pytest.raises(ServiceError) as refused:
        await game.service.moves.move(table, stranger.id, DRAW, table.stamp)
    assert refused.value.key == "error.not_a_player"
    with pytest.raises(ServiceError) as refused:
        await game.service.moves.move(table, ANN.id, DRAW, table.stamp - 1)
    assert refused.value.key == "error.stale"
    await game.service.lobbies.cancel(table, ANN.id, can_manage=False)
    with pytest.raises(ServiceError) as refused:
        await game.service.moves.move(table, ANN.id, DRAW, table.stamp)  # found open
    assert refused.value.key == "error.game_gone"


async def test_a_refused_move_names_the_seat_whose_hand_shows_why(game: ServiceGame) -> None:
    """A stale button or an illegal move is refused with the mover's seat (their hand is
    shown again, saying why), a move taken with the seat that moved: the click's answer
    needs no second look at who the player is."""
    game.service.dealer.scripted.append(
        whole_deal([[Card.ONE] * 3, [Card.TWO] * 3], Card.FIVE, starter=1)
    )
    table = await game.lobby([ANN, BOB])
    with pytest.raises(MoveRefused) as stale:
        await game.service.moves.move(table, BOB.id, DRAW, table.stamp - 1)
    assert (stale.value.seat, stale.value.key) == (1, "error.stale")
    with pytest.raises(MoveRefused) as illegal:
        await game.service.moves.move(table, ANN.id, DRAW, table.stamp)  # Bob's turn
    assert illegal.value.seat == 0 and isinstance(illegal.value.reason, IllegalMove)
    outcome = await game.service.moves.move(table, BOB.id, DRAW, table.stamp)
    assert (outcome.table, outcome.seat) == (table, 1)
    assert [event.kind for event in outcome.events] == ["draw"]


async def test_missed_turns_hand_the_seat_to_an_ai_and_the_game_waits_then_ends(
    game: ServiceGame,
) -> None:
    """Everybody away: the game waits for them (Timing.away_wait), then ends."""
    # Hands worth few points: the game can't reach its end by the points of the quits.
    game.service.dealer.scripted.append(whole_deal([[Card.ONE] * 6, [Card.TWO] * 6], Card.THREE))
    table = await game.lobby([ANN, BOB], turn_timer=60)
    for _ in range(10):
        if table.status is not Status.RUNNING or waiting(table):
            break
        stamp = table.stamp
        game.clock.advance(61)
        await eventually(lambda s=stamp: table.stamp != s or table.status is not Status.RUNNING)
        for seat in table.seats:  # an AI stands in only after the misses allowed
            assert seat.away == (seat.missed_turns >= Timing().misses_before_takeover)
    assert waiting(table) and table.status is Status.RUNNING
    game.clock.advance(Timing().away_wait)
    await eventually(lambda: table.status is Status.CANCELLED)
    await eventually(lambda: ("closed", table.game_id, AWAY) in game.listener.notices)
    record = await game.store.games.load_game(table.game_id)
    assert record is not None and record.status == "cancelled"
    timeouts = [seq for seq, kind in record.automatic.items() if kind == "timeout"]
    assert len(timeouts) == 2 * Timing().misses_before_takeover  # nobody moved: all timed out
    assert sorted(n.seat for n in record.notes if n.kind == "takeover") == [0, 1]
    assert game.service.registry.table(table.game_id) is None
