"""All or nothing: a unit of work that fails leaves no trace; the connection is set up right."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest

from data import Store, StoreError
from game import QUIT, Card, Match, RoundDealt, Ruleset, explicit_deal

from ._helpers import CHECK_FAILED, Backend, humans, new_running_game, play_move, unique_failed


async def stored(store: Store, backend: Backend, game_id: int) -> tuple[int, int, int, str]:
    """(events, round result rows, game result rows, status) of a game, read raw."""
    await store.close()
    [row] = await backend.rows(
        """SELECT (SELECT COUNT(*) FROM events WHERE game_id = ?),
                  (SELECT COUNT(*) FROM round_results WHERE game_id = ?),
                  (SELECT COUNT(*) FROM game_results WHERE game_id = ?),
                  (SELECT status FROM games WHERE id = ?)
        """,
        (game_id,) * 4,
    )
    return (int(row[0]), int(row[1]), int(row[2]), row[3])


def last_round_deal() -> RoundDealt:
    """Two players, each holding a llama: two quits end round 1 and, at 10 points, the game."""
    return explicit_deal([[Card.LLAMA], [Card.LLAMA]], Card.ONE, [Card.TWO], starter=0)


async def test_a_move_cannot_be_saved_twice(store: Store) -> None:
    match = Match(Ruleset(), 3)
    game_id = await new_running_game(store, match, humans((1, "A"), (2, "B"), (3, "C")))
    seat = match.to_move
    assert seat is not None
    match.apply(seat, match.legal_actions()[0])
    await store.games.append_events(game_id, 1, match.events[1:], turn_deadline=10.0)

    with pytest.raises(StoreError, match=unique_failed("events")):
        await store.games.append_events(game_id, 1, match.events[1:], turn_deadline=20.0)
    record = await store.games.load_game(game_id)
    assert record is not None
    assert record.events == tuple(match.events)
    assert record.turn_deadline == 10.0  # the failed unit changed nothing at all


async def test_a_gap_in_the_log_is_refused(store: Store) -> None:
    match = Match(Ruleset(), 2)
    game_id = await new_running_game(store, match, humans((1, "A"), (2, "B")))
    seat = match.to_move
    assert seat is not None
    match.apply(seat, match.legal_actions()[0])
    with pytest.raises(StoreError, match="without gaps"):
        await store.games.append_events(game_id, 2, match.events[1:])
    record = await store.games.load_game(game_id)
    assert record is not None and len(record.events) == 1


async def test_a_failure_after_the_events_rolls_the_events_back(
    store: Store, backend: Backend
) -> None:
    """Events and results are one unit: a result that can't be written takes the events along."""
    match = Match(Ruleset(threshold=10), 2)
    game_id = await new_running_game(
        store, match, humans((1, "A"), (2, "B")), first_deal=last_round_deal()
    )
    match.apply(0, QUIT)
    match.apply(1, QUIT)
    assert match.over and match.winners == (0, 1)
    result = match.results[0]

    # The same round twice: the second results insert fails on its primary key.
    with pytest.raises(StoreError, match=unique_failed("round_results")):
        await store.games.append_events(
            game_id, 1, match.events[1:], results=[result, result], finished=match.winners
        )
    assert await stored(store, backend, game_id) == (1, 0, 0, "running")


async def test_a_failure_in_the_final_results_rolls_everything_back(backend: Backend) -> None:
    store = await Store.open(backend.target, durable=False)
    match = Match(Ruleset(threshold=10), 2)
    game_id = await new_running_game(
        store, match, humans((1, "A"), (2, "B")), first_deal=last_round_deal()
    )
    match.apply(0, QUIT)
    match.apply(1, QUIT)
    # Points for a third seat the game doesn't have: refused last thing in the unit.
    with pytest.raises(StoreError, match="3 final points for 2 seats"):
        await store.games.append_events(
            game_id,
            1,
            match.events[1:],
            results=match.results,
            finished=match.winners,
            final_points=[10, 10, 3],
        )
    with pytest.raises(ValueError, match="winners"):
        await store.games.append_events(
            game_id, 1, match.events[1:], finished=(2,), final_points=[1, 2]
        )
    assert await stored(store, backend, game_id) == (1, 0, 0, "running")

    # And the same unit, right this time, lands whole.
    store = await Store.open(backend.target, durable=False)
    await store.games.append_events(
        game_id, 1, match.events[1:], results=match.results, finished=match.winners
    )
    assert await stored(store, backend, game_id) == (3, 2, 2, "finished")


async def test_a_finished_game_takes_no_more_events(store: Store) -> None:
    match = Match(Ruleset(threshold=10), 2)
    game_id = await new_running_game(
        store, match, humans((1, "A"), (2, "B")), first_deal=last_round_deal()
    )
    await play_move(store, game_id, match, QUIT)
    await play_move(store, game_id, match, QUIT)
    assert match.over
    with pytest.raises(StoreError, match="is finished, not running"):
        await store.games.append_events(game_id, 3, [match.events[0]])


async def test_finishing_needs_points(store: Store) -> None:
    with pytest.raises(ValueError, match="needs final_points"):
        await store.games.append_events(1, 1, [], finished=(0,))
    with pytest.raises(ValueError, match="at least one winner"):
        await store.games.append_events(1, 1, [], finished=())


async def test_the_event_log_is_append_only(store: Store, backend: Backend) -> None:
    match = Match(Ruleset(), 2)
    game_id = await new_running_game(store, match, humans((1, "A"), (2, "B")))
    await store.close()
    # Another program, straight on the database, can't change the log either.
    with pytest.raises(Exception, match="append-only"):
        await backend.rows("UPDATE events SET payload = '{}' WHERE game_id = ?", (game_id,))
    with pytest.raises(Exception, match="append-only"):
        await backend.rows("DELETE FROM events WHERE game_id = ?", (game_id,))
    # Deleting the whole game takes its log along.
    await backend.rows("DELETE FROM games WHERE id = ?", (game_id,))
    assert await backend.rows("SELECT COUNT(*) FROM events") == [(0,)]
    assert await backend.rows("SELECT COUNT(*) FROM seats") == [(0,)]


async def test_constraints_reach_the_caller_as_store_errors(store: Store) -> None:
    from data import SeatRecord

    bad_strength = [SeatRecord(0, None, "godlike", "Bot")]
    with pytest.raises(StoreError, match=CHECK_FAILED):
        await store.games.create_game(
            guild_id=1, channel_id=1, host_id=1, ruleset=Ruleset(), turn_timer=0, seats=bad_strength
        )
    twice = [SeatRecord(0, 7, None, "Ann"), SeatRecord(1, 7, None, "Ann again")]
    with pytest.raises(StoreError, match=unique_failed("seats")):
        await store.games.create_game(
            guild_id=1, channel_id=1, host_id=1, ruleset=Ruleset(), turn_timer=0, seats=twice
        )
    # Neither half-made game was kept.
    assert await store.games.unfinished_games() == []


@pytest.mark.parametrize(("durable", "synchronous"), [(True, 2), (False, 1)])
async def test_connection_settings(db_path: Path, durable: bool, synchronous: int) -> None:
    store = await Store.open(db_path, durable=durable)
    try:
        assert await store.pragmas() == {
            "journal_mode": "wal",
            "foreign_keys": 1,
            "synchronous": synchronous,  # 2 = FULL, 1 = NORMAL
            "busy_timeout": 5000,
            "secure_delete": 1,
            "user_version": store.schema_version,
        }
        await store.settings.set_language(1, "de")
        assert db_path.with_name(db_path.name + "-wal").exists()
    finally:
        await store.close()


@pytest.mark.parametrize("cut_after", [0, 1, 2, 3])
async def test_a_read_or_write_cut_short_leaves_the_store_working(
    store: Store, cut_after: int
) -> None:
    """A task stopped while its unit begins (a shutdown, a hint given up) must not leave
    the connection inside that transaction: every later read and write would fail."""
    await store.settings.guild_settings(1)  # the connections are open
    for work in (store.settings.guild_settings(1), store.settings.set_language(1, "de")):
        task = asyncio.ensure_future(work)
        for _ in range(cut_after):
            await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    await store.settings.set_language(1, "pl")
    assert (await store.settings.guild_settings(1)).language == "pl"
    assert await store.games.unfinished_games() == []
