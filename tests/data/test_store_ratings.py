"""The ratings' tables and reads on both backends (the rater's writes have their own tests)."""

from __future__ import annotations

import itertools
import random

import pytest

from data import EVERYTHING, Store
from data.records import ALL_TIME, SeasonPlan, SeatRecord, Sight
from game import Ruleset
from testkit.ratings import Rated, put_change, put_rating


async def test_a_server_without_rated_games_has_an_empty_board_and_no_seasons(
    store: Store,
) -> None:
    assert store.schema_version >= 12  # the ratings came with migration 0012
    assert await store.ratings.rating_board(1, ALL_TIME, sight=EVERYTHING) == []
    assert (await store.ratings.rating_page(1, ALL_TIME, sight=EVERYTHING)).total == 0
    assert await store.ratings.rating_of(1, ALL_TIME, 7, sight=EVERYTHING) is None
    assert await store.ratings.rating_history(1, ALL_TIME, 7, sight=EVERYTHING) == []
    assert await store.ratings.rated_seasons(1) == []
    assert await store.ratings.season_plans(1) == []
    assert await store.ratings.rating_changes(1) == []


async def test_a_page_as_far_as_the_stores_integers_go_is_the_last_page(store: Store) -> None:
    """A leaderboard's Next may carry any page number the store holds (a forged one):
    ten rows a page past it is no offset the store takes, and it is the last page."""
    for user, name, mu in ((2, "bob", 40.0), (3, "carol", 30.0)):
        await put_rating(store, 5, ALL_TIME, Rated(name, mu, 5.0, 1, user_id=user))
    page = await store.ratings.rating_page(5, ALL_TIME, page=2**63 - 1, size=10, sight=EVERYTHING)
    assert (page.total, page.page, [r.name for r in page.rows]) == (2, 0, ["bob", "carol"])


async def test_a_season_plan_is_kept_and_one_at_the_same_second_replaced(store: Store) -> None:
    await store.rating_writes.add_season_plan(1, SeasonPlan(started_at=2_000, days=14))
    await store.rating_writes.add_season_plan(1, SeasonPlan(started_at=1_000, days=None))
    await store.rating_writes.add_season_plan(2, SeasonPlan(started_at=1_500, days=7))
    assert await store.ratings.season_plans(1) == [SeasonPlan(1_000, None), SeasonPlan(2_000, 14)]
    await store.rating_writes.add_season_plan(1, SeasonPlan(started_at=2_000, days=30))
    assert await store.ratings.season_plans(1) == [SeasonPlan(1_000, None), SeasonPlan(2_000, 30)]
    assert await store.ratings.season_plans(2) == [SeasonPlan(1_500, 7)]


async def test_a_rank_counts_only_those_the_sight_lists(store: Store) -> None:
    """Bob is rated above alice from a game in channel 20 only; a sight hiding channel 20
    ranks alice first, as its board lists her; Hard is listed always."""
    seats = [SeatRecord(0, 1, None, "alice"), SeatRecord(1, 2, None, "bob")]

    async def game(channel: int, seated: list[SeatRecord]) -> int:
        return await store.games.create_game(
            guild_id=5, channel_id=channel, host_id=1, ruleset=Ruleset(), turn_timer=0, seats=seated
        )

    open_game, hidden_game = await game(10, seats[:1]), await game(20, seats[1:])
    for rated, game_id in (
        (Rated("alice", 30.0, 5.0, 1, user_id=1), open_game),
        (Rated("bob", 35.0, 5.0, 1, user_id=2), hidden_game),
    ):
        await put_rating(store, 5, ALL_TIME, rated)
        await put_change(store, 5, ALL_TIME, game_id, 0, rated.player, (25.0, 8.0), (30.0, 5.0))
    await put_rating(store, 5, ALL_TIME, Rated("hard", 20.0, 5.0, 3, ai="hard"))

    everything = await store.ratings.rating_of(5, ALL_TIME, 1, sight=EVERYTHING)
    assert everything is not None and everything.rank == 2
    carol = Sight(viewer=3, hidden=frozenset({20}))
    seen = await store.ratings.rating_of(5, ALL_TIME, 1, sight=carol)
    assert seen is not None and seen.rank == 1 and seen.name == "alice"
    assert [r.name for r in await store.ratings.rating_board(5, ALL_TIME, sight=carol)] == [
        "alice",
        "hard",
    ]
    bobs = Sight(viewer=2, hidden=frozenset({20}))  # he sat at the hidden game
    mine = await store.ratings.rating_of(5, ALL_TIME, 1, sight=bobs)
    assert mine is not None and mine.rank == 2
    # Alice's only game is in a hidden channel: her rating is not shown, as on the board.
    assert (
        await store.ratings.rating_of(5, ALL_TIME, 1, sight=Sight(hidden=frozenset({10}))) is None
    )


async def test_a_person_only_a_hidden_game_rates_is_listed_to_those_who_sat_at_it(
    store: Store,
) -> None:
    """Bob's one rated game is in hidden channel 20, where Dan sat with him: Dan's board
    lists him (and counts him, and ranks Dan below him); Carol's, who was not there, does
    not.  Alice, rated in channel 10 and in hidden channel 21, is listed to both."""
    people = {1: "alice", 2: "bob", 3: "carol", 4: "dan"}

    async def game(channel: int, seated: list[int]) -> int:
        seats = [SeatRecord(s, user, None, people[user]) for s, user in enumerate(seated)]
        return await store.games.create_game(
            guild_id=5, channel_id=channel, host_id=1, ruleset=Ruleset(), turn_timer=0, seats=seats
        )

    hidden_game, open_game, alices_hidden = (
        await game(20, [2, 4]),
        await game(10, [3]),
        await game(21, [1]),
    )
    changes = (
        (Rated("bob", 40.0, 5.0, 1, user_id=2), [(hidden_game, 0)]),
        (Rated("dan", 35.0, 5.0, 1, user_id=4), [(hidden_game, 1)]),
        (Rated("alice", 30.0, 5.0, 2, user_id=1), [(alices_hidden, 0), (open_game, 1)]),
        (Rated("carol", 25.0, 5.0, 1, user_id=3), [(open_game, 0)]),
    )
    for rated, played in changes:
        await put_rating(store, 5, ALL_TIME, rated)
        for game_id, seat in played:
            await put_change(
                store, 5, ALL_TIME, game_id, seat, rated.player, (25.0, 8.0), (30.0, 5.0)
            )
    await put_rating(store, 5, ALL_TIME, Rated("hard", 50.0, 5.0, 3, ai="hard"))

    dans = Sight(viewer=4, hidden=frozenset({20, 21}))
    board = await store.ratings.rating_board(5, ALL_TIME, sight=dans)
    assert [(r.rank, r.name) for r in board] == [
        (1, "hard"),
        (2, "bob"),
        (3, "dan"),
        (4, "alice"),
        (5, "carol"),
    ]
    assert (await store.ratings.rating_page(5, ALL_TIME, sight=dans)).total == 5
    dan = await store.ratings.rating_of(5, ALL_TIME, 4, sight=dans)
    assert dan is not None and dan.rank == 3

    carols = Sight(viewer=3, hidden=frozenset({20, 21}))
    board = await store.ratings.rating_board(5, ALL_TIME, sight=carols)
    assert [(r.rank, r.name) for r in board] == [(1, "hard"), (2, "alice"), (3, "carol")]
    assert (await store.ratings.rating_page(5, ALL_TIME, sight=carols)).total == 3
    carol = await store.ratings.rating_of(5, ALL_TIME, 3, sight=carols)
    assert carol is not None and carol.rank == 3
    page = await store.ratings.rating_board(5, ALL_TIME, limit=1, offset=1, sight=carols)
    assert [(r.rank, r.name) for r in page] == [(2, "alice")]


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_every_sight_lists_exactly_those_with_a_game_it_shows(store: Store) -> None:
    """Eight people's games in four channels, dealt at random: for every set of hidden
    channels and every viewer, the board, its count and each rank list exactly the people
    with a rated game outside the hidden channels or one the viewer sat at (the AI always)."""
    rng = random.Random(26)
    people = range(1, 9)
    played: dict[int, list[tuple[int, int]]] = {user: [] for user in people}
    channel_of: dict[int, int] = {}
    seated: dict[int, set[int]] = {}
    for _ in range(14):
        channel = rng.choice((10, 11, 12, 13))
        users = rng.sample(list(people), rng.randint(1, 3))
        seats = [SeatRecord(s, user, None, f"p{user}") for s, user in enumerate(users)]
        game_id = await store.games.create_game(
            guild_id=5, channel_id=channel, host_id=1, ruleset=Ruleset(), turn_timer=0, seats=seats
        )
        async with store._db.write() as unit:  # so that its channel takes the next game
            await unit.execute("UPDATE games SET status = 'cancelled' WHERE id = ?", (game_id,))
        channel_of[game_id], seated[game_id] = channel, set(users)
        for seat, user in enumerate(users):
            played[user].append((game_id, seat))
    for user, games in played.items():
        if not games:
            continue
        rated = Rated(f"p{user}", 20.0 + user, 5.0, len(games), user_id=user)
        await put_rating(store, 5, ALL_TIME, rated)
        for game_id, seat in games:
            await put_change(
                store, 5, ALL_TIME, game_id, seat, rated.player, (25.0, 8.0), (30.0, 5.0)
            )
    await put_rating(store, 5, ALL_TIME, Rated("hard", 10.0, 5.0, 3, ai="hard"))

    channels = (10, 11, 12, 13)
    for size in range(len(channels) + 1):
        for hidden in itertools.combinations(channels, size):
            for viewer in (None, *people):
                sight = Sight(viewer=viewer, hidden=frozenset(hidden))
                shown = {
                    f"p{user}"
                    for user, games in played.items()
                    if any(channel_of[g] not in hidden or viewer in seated[g] for g, _ in games)
                }
                board = await store.ratings.rating_board(5, ALL_TIME, limit=50, sight=sight)
                assert {r.name for r in board} == shown | {"hard"}, sight
                page = await store.ratings.rating_page(5, ALL_TIME, size=50, sight=sight)
                assert (page.total, page.rows) == (len(board), board)
                for row in board:
                    if row.user_id is not None:
                        mine = await store.ratings.rating_of(5, ALL_TIME, row.user_id, sight=sight)
                        assert mine is not None and mine.rank == row.rank
                for user in people:
                    if f"p{user}" not in shown:
                        assert await store.ratings.rating_of(5, ALL_TIME, user, sight=sight) is None


async def test_a_rating_page_comes_with_the_boards_size_and_past_the_end_is_the_last(
    store: Store,
) -> None:
    """Twelve rated people, pages of five: each page has its rows and the total; a page
    past the end (an old button) is the last page; an empty board has none."""
    for n in range(12):
        await put_rating(store, 5, ALL_TIME, Rated(f"p{n}", 40.0 - n, 5.0, 1, user_id=n + 1))
    first = await store.ratings.rating_page(5, ALL_TIME, page=0, size=5, sight=EVERYTHING)
    assert (first.total, first.page) == (12, 0)
    assert [r.name for r in first.rows] == [f"p{n}" for n in range(5)]
    assert [r.rank for r in first.rows] == [1, 2, 3, 4, 5]
    last = await store.ratings.rating_page(5, ALL_TIME, page=2, size=5, sight=EVERYTHING)
    assert (last.total, last.page, [r.name for r in last.rows]) == (12, 2, ["p10", "p11"])
    beyond = await store.ratings.rating_page(5, ALL_TIME, page=9, size=5, sight=EVERYTHING)
    assert beyond == last
    assert (
        await store.ratings.rating_board(5, ALL_TIME, limit=5, offset=10, sight=EVERYTHING)
        == last.rows
    )
    empty = await store.ratings.rating_page(6, ALL_TIME, page=3, size=5, sight=EVERYTHING)
    assert (empty.total, empty.page, empty.rows) == (0, 0, [])
