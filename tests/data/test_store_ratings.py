"""The ratings' tables and reads on both backends (the rater's writes have their own tests)."""

from __future__ import annotations

from data import Store
from data.records import ALL_TIME, SeasonPlan, SeatRecord, Sight
from game import Ruleset
from testkit.ratings import Rated, put_change, put_rating


async def test_a_server_without_rated_games_has_an_empty_board_and_no_seasons(
    store: Store,
) -> None:
    assert store.schema_version == 12
    assert await store.rating_board(1, ALL_TIME) == []
    assert await store.rating_board_count(1, ALL_TIME) == 0
    assert await store.rating_of(1, ALL_TIME, 7) is None
    assert await store.rating_history(1, ALL_TIME, 7) == []
    assert await store.rated_seasons(1) == []
    assert await store.season_plans(1) == []
    assert await store.rating_changes(1) == []


async def test_a_season_plan_is_kept_and_one_at_the_same_second_replaced(store: Store) -> None:
    await store.add_season_plan(1, SeasonPlan(started_at=2_000, days=14))
    await store.add_season_plan(1, SeasonPlan(started_at=1_000, days=None))
    await store.add_season_plan(2, SeasonPlan(started_at=1_500, days=7))
    assert await store.season_plans(1) == [SeasonPlan(1_000, None), SeasonPlan(2_000, 14)]
    await store.add_season_plan(1, SeasonPlan(started_at=2_000, days=30))
    assert await store.season_plans(1) == [SeasonPlan(1_000, None), SeasonPlan(2_000, 30)]
    assert await store.season_plans(2) == [SeasonPlan(1_500, 7)]


async def test_a_rank_counts_only_those_the_sight_lists(store: Store) -> None:
    """Bob is rated above alice from a game in channel 20 only; a sight hiding channel 20
    ranks alice first, as its board lists her; Hard is listed always."""
    seats = [SeatRecord(0, 1, None, "alice"), SeatRecord(1, 2, None, "bob")]

    async def game(channel: int, seated: list[SeatRecord]) -> int:
        return await store.create_game(
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

    everything = await store.rating_of(5, ALL_TIME, 1)
    assert everything is not None and everything.rank == 2
    carol = Sight(viewer=3, hidden=frozenset({20}))
    seen = await store.rating_of(5, ALL_TIME, 1, sight=carol)
    assert seen is not None and seen.rank == 1 and seen.name == "alice"
    assert [r.name for r in await store.rating_board(5, ALL_TIME, sight=carol)] == ["alice", "hard"]
    bobs = Sight(viewer=2, hidden=frozenset({20}))  # he sat at the hidden game
    mine = await store.rating_of(5, ALL_TIME, 1, sight=bobs)
    assert mine is not None and mine.rank == 2
    hard = await store.rating_of(5, ALL_TIME, 1, sight=Sight(viewer=None, hidden=frozenset({10})))
    assert hard is not None and hard.rank == 2  # bob is listed there, alice herself not
