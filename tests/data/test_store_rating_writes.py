"""The rater's reads and writes on both backends: games in finish order, one game's ratings
all or nothing and only once, a server's ratings wiped."""

from __future__ import annotations

import pytest

from data import EVERYTHING, Store, StoreError
from data.records import (
    ABANDONED,
    ALL_TIME,
    AlreadyRated,
    GameRating,
    PlayerRating,
    SeatNote,
    SeatRating,
    Skill,
)
from game import Match, Ruleset

from ._helpers import humans, new_running_game, play_random_game


def rating_of(game_id: int, guild_id: int, finished_at: float, mu: float = 27.0) -> GameRating:
    """A made-up rating of a two-seat game: seat 0 (user 500) won against the Normal AI."""
    changes = tuple(
        SeatRating(seat, scope, player, seat + 1, 25.0, 8.3, mu - 4 * seat, 8.0)
        for scope in (100, ALL_TIME)
        for seat, player in ((0, "user:500"), (1, "ai:normal"))
    )
    players = tuple(
        PlayerRating(scope, player, user, ai, name, mu - 4 * n, 8.0, 1)
        for scope in (100, ALL_TIME)
        for n, (player, user, ai, name) in enumerate(
            (("user:500", 500, None, "Player 0"), ("ai:normal", None, "normal", "normal"))
        )
    )
    return GameRating(game_id, guild_id, finished_at, 100, changes, players)


async def test_unrated_games_come_in_the_order_they_finished(store: Store) -> None:
    ids = [(await play_random_game(store, Ruleset(), 2, seed, guild_id=5))[0] for seed in range(5)]
    await play_random_game(store, Ruleset(), 2, 9, guild_id=6)
    await play_random_game(store, Ruleset(), 2, 10, guild_id=5, stop_after=3)  # still running
    assert await store.rating_writes.unrated_guilds() == [5, 6]

    first, cursor = await store.rating_writes.unrated_games(5, limit=2)
    assert [g.record.id for g in first] == ids[:2]
    assert cursor is not None
    rest, end = await store.rating_writes.unrated_games(5, after=cursor, limit=10)
    assert [g.record.id for g in rest] == ids[2:]
    assert end is None
    game = first[0]
    assert game.record.status == "finished" and game.record.finished_at is not None
    assert len(game.points) == 2 and game.winners and game.record.events
    assert min(game.points) == game.points[min(game.winners)]

    # A game rated is no longer listed; one that finished before it still is.
    rated = rest[0]
    assert rated.record.finished_at is not None
    await store.rating_writes.save_ratings(
        [rating_of(rated.record.id, 5, rated.record.finished_at)]
    )
    left, _ = await store.rating_writes.unrated_games(5)
    assert [g.record.id for g in left] == [i for i in ids if i != rated.record.id]
    assert await store.rating_writes.newest_rated(5) == (rated.record.finished_at, rated.record.id)
    assert await store.rating_writes.newest_rated(6) is None


async def test_a_games_ratings_are_written_once_and_read_back(store: Store) -> None:
    game_id, _ = await play_random_game(store, Ruleset(), 2, 1, guild_id=5)
    await store.rating_writes.save_ratings([rating_of(game_id, 5, 2_000.0)])
    with pytest.raises(AlreadyRated):
        await store.rating_writes.save_ratings([rating_of(game_id, 5, 2_000.0, mu=40.0)])
    # The refused second rating wrote nothing.
    skills = await store.rating_writes.skills(
        5, (100, ALL_TIME), ["user:500", "ai:normal", "user:9"]
    )
    assert skills == {
        (100, "user:500"): Skill(27.0, 8.0, 1),
        (ALL_TIME, "user:500"): Skill(27.0, 8.0, 1),
        (100, "ai:normal"): Skill(23.0, 8.0, 1),
        (ALL_TIME, "ai:normal"): Skill(23.0, 8.0, 1),
    }
    board = await store.ratings.rating_board(5, 100, sight=EVERYTHING)
    assert [(row.rank, row.user_id, row.ai, row.name) for row in board] == [
        (1, 500, None, "Player 0"),
        (2, None, "normal", "normal"),
    ]
    changes = await store.ratings.rating_changes(game_id)
    assert [(c.season, c.seat, c.user_id, c.ai, c.rank) for c in changes] == [
        (ALL_TIME, 0, 500, None, 1),
        (ALL_TIME, 1, None, "normal", 2),
        (100, 0, 500, None, 1),
        (100, 1, None, "normal", 2),
    ]
    assert await store.ratings.rated_seasons(5) == [100]


async def test_wiping_a_servers_ratings_leaves_its_plans_and_the_other_servers(
    store: Store,
) -> None:
    one, _ = await play_random_game(store, Ruleset(), 2, 1, guild_id=5)
    two, _ = await play_random_game(store, Ruleset(), 2, 2, guild_id=6)
    await store.rating_writes.save_ratings([rating_of(one, 5, 2_000.0)])
    await store.rating_writes.save_ratings([rating_of(two, 6, 2_000.0)])
    assert await store.rating_writes.wipe_ratings(5) == 1
    assert await store.ratings.rating_board(5, ALL_TIME, sight=EVERYTHING) == []
    assert await store.ratings.rating_changes(one) == []
    assert await store.rating_writes.newest_rated(5) is None
    assert len(await store.ratings.rating_board(6, ALL_TIME, sight=EVERYTHING)) == 2
    assert await store.rating_writes.finished_guilds() == [5, 6]
    await store.rating_writes.save_ratings([rating_of(one, 5, 2_000.0)])  # it may be rated again


async def test_several_games_are_written_in_one_unit_all_or_nothing(store: Store) -> None:
    one, _ = await play_random_game(store, Ruleset(), 2, 1, guild_id=5)
    two, _ = await play_random_game(store, Ruleset(), 2, 2, guild_id=5)
    await store.rating_writes.save_ratings([rating_of(two, 5, 2_001.0)])
    with pytest.raises(AlreadyRated):
        await store.rating_writes.save_ratings(
            [rating_of(one, 5, 2_000.0), rating_of(two, 5, 2_001.0)]
        )
    assert await store.ratings.rating_changes(one) == []  # the first game's rows went back too
    await store.rating_writes.save_ratings([rating_of(one, 5, 2_000.0)])
    assert len(await store.ratings.rating_changes(one)) == 4


async def test_a_game_every_person_left_is_rated_in_order_when_it_is_to_be_rated(
    store: Store,
) -> None:
    first, _ = await play_random_game(store, Ruleset(), 2, 1, guild_id=5)
    # Every person left a game with someone left to rank ahead of them: it is rated
    # where it ended ...
    left, _ = await play_random_game(store, Ruleset(), 3, 2, guild_id=5, stop_after=4)
    await store.games.set_status(left, "cancelled", reason=ABANDONED, rated=True)
    # ... but not one with nobody to rank ahead, nor one cancelled for another reason.
    people = await new_running_game(
        store, Match(Ruleset(), 2), humans((1, "A"), (2, "B")), guild_id=5
    )
    await store.games.set_status(people, "cancelled", reason=ABANDONED)
    idle, _ = await play_random_game(store, Ruleset(), 2, 3, guild_id=5, stop_after=2)
    with pytest.raises(ValueError):  # an idle game is rated by its stall note alone
        await store.games.set_status(idle, "cancelled", reason="closed.idle_game", rated=True)
    await store.games.set_status(idle, "cancelled", reason="closed.idle_game")
    alone, _ = await play_random_game(store, Ruleset(), 2, 4, guild_id=7, stop_after=2)
    await store.games.set_status(alone, "cancelled", reason=ABANDONED, rated=True)
    last, _ = await play_random_game(store, Ruleset(), 2, 5, guild_id=5)
    assert await store.rating_writes.unrated_guilds() == [5, 7]
    assert await store.rating_writes.finished_guilds() == [5, 7]  # rerate counts it too

    games, end = await store.rating_writes.unrated_games(5)
    assert [g.record.id for g in games] == [first, left, last] and end is None
    cancelled = games[1].record
    assert (cancelled.status, cancelled.end_reason) == ("cancelled", ABANDONED)
    assert cancelled.events and cancelled.notes == ()
    # No result was stored (it didn't finish): the rater works out the points then.
    assert games[1].points == () and games[1].winners == frozenset()
    # When it ended is kept, for the order; a game not to rate has no end time.
    assert cancelled.finished_at is not None
    for other in (people, idle):
        record = await store.games.load_game(other)
        assert record is not None and record.finished_at is None

    await store.rating_writes.save_ratings([rating_of(left, 5, cancelled.finished_at)])
    rest, _ = await store.rating_writes.unrated_games(5)
    assert [g.record.id for g in rest] == [first, last]
    assert await store.rating_writes.newest_rated(5) == (cancelled.finished_at, left)
    # Rated, it still is no finished game for the stats.
    assert {row.game_id for row in await store.stats.history(5, 500, sight=EVERYTHING)} == {
        first,
        last,
    }


@pytest.mark.parametrize(
    ("reason", "kind"),
    [("closed.idle_game", "stalled"), ("closed.cancelled", "cancelled")],
    ids=["stalled", "cancelled-alone"],
)
async def test_a_game_cancelled_with_the_note_of_who_went_is_rated_in_order(
    store: Store, reason: str, kind: str
) -> None:
    """Nobody moved for long in a game (cancelled as idle, the note of the seat to move
    ``stalled``), or its only person still playing cancelled it (noted ``left``)."""
    first, _ = await play_random_game(store, Ruleset(), 2, 1, guild_id=5)
    # Cancelled with the note of the seat that went, in the same write: it is then
    # rated where it ended ...
    gone, match = await play_random_game(store, Ruleset(), 3, 2, guild_id=5, stop_after=4)
    note = SeatNote(len(match.events), 0, kind)
    await store.games.set_status(gone, "cancelled", reason=reason, gone=note)
    # ... but not one cancelled so without it (as every one before this version; a
    # cancel by an admin, or while other people play).
    other, _ = await play_random_game(store, Ruleset(), 2, 3, guild_id=5, stop_after=2)
    await store.games.set_status(other, "cancelled", reason=reason)
    last, _ = await play_random_game(store, Ruleset(), 2, 5, guild_id=5)

    games, end = await store.rating_writes.unrated_games(5)
    assert [g.record.id for g in games] == [first, gone, last] and end is None
    cancelled = games[1].record
    assert (cancelled.status, cancelled.end_reason) == ("cancelled", reason)
    assert cancelled.notes == (note,) and cancelled.finished_at is not None
    assert games[1].points == () and games[1].winners == frozenset()
    record = await store.games.load_game(other)
    assert record is not None and record.finished_at is None and record.notes == ()
    assert await store.rating_writes.finished_guilds() == [5]
    # Rated, it still is no finished game for the stats.
    await store.rating_writes.save_ratings([rating_of(gone, 5, cancelled.finished_at)])
    assert {row.game_id for row in await store.stats.history(5, 500, sight=EVERYTHING)} == {
        first,
        last,
    }


async def test_only_a_game_cancelled_as_idle_takes_the_note_of_who_let_it_stall(
    store: Store,
) -> None:
    running, match = await play_random_game(store, Ruleset(), 2, 1, stop_after=2)
    note = SeatNote(len(match.events), 0, "stalled")
    for status, reason, kind in (
        ("cancelled", ABANDONED, "stalled"),
        ("finished", "closed.idle_game", "stalled"),
        ("cancelled", "closed.idle_game", "left"),
        # A cancel is rated by the note of its person's leaving only.
        ("cancelled", "closed.cancelled", "stalled"),
        ("cancelled", "closed.cancelled", "left"),
        ("cancelled", ABANDONED, "cancelled"),
        ("finished", "closed.cancelled", "cancelled"),
    ):
        with pytest.raises(ValueError):
            await store.games.set_status(
                running, status, reason=reason, gone=SeatNote(note.seq, note.seat, kind)
            )
    record = await store.games.load_game(running)
    assert record is not None and record.status == "running" and record.notes == ()
    # A game no longer running takes none: nothing of the write is kept.
    await store.games.set_status(running, "cancelled", reason="closed.cancelled")
    with pytest.raises(StoreError):
        await store.games.set_status(running, "cancelled", reason="closed.idle_game", gone=note)
    record = await store.games.load_game(running)
    assert record is not None and record.notes == () and record.finished_at is None
