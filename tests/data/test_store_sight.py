"""The stats reads over only the games someone may see (``Sight``), on both backends.

The games are those of ``test_store_stats`` (each in its own channel); here some of
their channels are hidden from the asker, and every total must leave those games out,
except the games the asker sat at.
"""

from __future__ import annotations

from data import EVERYTHING, Sight, Store

from .test_store_stats import ANN, BEN, CAT, DAN, Played, board, games  # noqa: F401

G = dict[str, Played]


async def channel_of(store: Store, played: Played) -> int:
    record = await store.games.load_game(played.id)
    assert record is not None
    return record.channel_id


async def test_finished_channels(store: Store, games: G) -> None:  # noqa: F811
    channels = {name: await channel_of(store, games[name]) for name in ("g1", "g2", "g3", "g4")}
    # Guild 1's finished games only: not guild 2's, nor the running or cancelled game.
    assert await store.stats.finished_channels(1) == frozenset(channels.values())
    assert await store.stats.finished_channels(1, user_id=DAN) == frozenset({channels["g4"]})
    assert await store.stats.finished_channels(1, user_id=999) == frozenset()
    assert await store.stats.finished_channels(3) == frozenset()


async def test_stats_leave_out_the_hidden_games(store: Store, games: G) -> None:  # noqa: F811
    g2 = await channel_of(store, games["g2"])
    hidden = Sight(viewer=DAN, hidden=frozenset({g2}))
    # Ann without G2: G1 (0 points, won) and G3 (10 points, shared win).
    ann = await store.stats.player_stats(1, ANN, sight=hidden)
    assert ann is not None
    assert (ann.games, ann.wins, ann.average_points, ann.name) == (2, 2, 5.0, "Annie")
    assert (ann.rounds, ann.best_points, ann.best_game_id) == (2, 0, games["g1"].id)
    # Cat played G2 and G4; only G4 is left, where she lost with 6.
    cat = await store.stats.player_stats(1, CAT, sight=hidden)
    assert cat is not None and (cat.games, cat.wins, cat.average_points) == (1, 0, 6.0)
    # Nothing hidden, or another guild's channel hidden: all of Ann's games.
    for sight in (Sight(viewer=DAN), Sight(viewer=DAN, hidden=frozenset({-5}))):
        every = await store.stats.player_stats(1, ANN, sight=sight)
        assert every is not None and every.games == 3
    # All her channels hidden: as if she had played none.
    mine = {await channel_of(store, games[n]) for n in ("g1", "g2", "g3")}
    assert (
        await store.stats.player_stats(1, ANN, sight=Sight(viewer=DAN, hidden=frozenset(mine)))
        is None
    )


async def test_a_hidden_game_stays_in_sight_of_its_players(store: Store, games: G) -> None:  # noqa: F811
    g2 = await channel_of(store, games["g2"])
    # Cat sat at G2: she sees it, and so Ann's game there too.
    cats = Sight(viewer=CAT, hidden=frozenset({g2}))
    ann = await store.stats.player_stats(1, ANN, sight=cats)
    assert ann is not None and ann.games == 3
    assert [row.game_id for row in await store.stats.history(1, ANN, sight=cats)] == [
        games[n].id for n in ("g3", "g2", "g1")
    ]
    # Without a viewer nobody is excepted.
    nobody = Sight(hidden=frozenset({g2}))
    assert [row.game_id for row in await store.stats.history(1, ANN, sight=nobody)] == [
        games[n].id for n in ("g3", "g1")
    ]


async def test_history_leaves_out_the_hidden_games(store: Store, games: G) -> None:  # noqa: F811
    g3 = await channel_of(store, games["g3"])
    rows = await store.stats.history(
        1, ANN, limit=2, sight=Sight(viewer=DAN, hidden=frozenset({g3}))
    )
    assert [row.game_id for row in rows] == [games["g2"].id, games["g1"].id]
    assert rows[0].winners == ("Ann",)  # the winners of the games listed, no others


async def test_the_leaderboard_counts_only_the_games_in_sight(store: Store, games: G) -> None:  # noqa: F811
    g1, g2 = await channel_of(store, games["g1"]), await channel_of(store, games["g2"])
    sight = Sight(viewer=DAN, hidden=frozenset({g1, g2}))
    # Left: G3 (Annie and Ben share the win) and G4 (Dan beats Cat).
    rows = await store.stats.leaderboard(1, sight=sight)
    assert board(rows) == [(1, ANN), (1, BEN), (1, DAN), (4, CAT)]
    assert [(r.games, r.wins) for r in rows] == [(1, 1), (1, 1), (1, 1), (1, 0)]
    assert await store.stats.leaderboard_count(1, sight=sight) == 4
    assert await store.stats.leaderboard_count(1, min_games=2, sight=sight) == 0
    # Ann's name on the board is that of her latest game in sight.
    only_g1 = Sight(hidden=frozenset({g2, await channel_of(store, games["g3"])}))
    [first, *_] = await store.stats.leaderboard(1, sight=only_g1)
    assert (first.user_id, first.name) == (ANN, "Ann")


async def test_the_latest_game_and_a_chart_in_sight(store: Store, games: G) -> None:  # noqa: F811
    g4 = await channel_of(store, games["g4"])
    hidden = Sight(viewer=ANN, hidden=frozenset({g4}))
    assert await store.stats.latest_finished_game(1, sight=hidden) == games["g3"].id
    assert await store.stats.latest_finished_game(1, sight=EVERYTHING) == games["g4"].id
    # A finished game's channel, if the viewer may see it; else None, as for no such game.
    assert await store.stats.finished_game_channel(1, games["g4"].id, sight=EVERYTHING) == g4
    assert await store.stats.finished_game_channel(1, games["g4"].id, sight=hidden) is None
    dans = Sight(viewer=DAN, hidden=frozenset({g4}))
    assert await store.stats.finished_game_channel(1, games["g4"].id, sight=dans) == g4
    assert (
        await store.stats.finished_game_channel(2, games["g4"].id, sight=EVERYTHING) is None
    )  # another guild's
    assert (
        await store.stats.finished_game_channel(1, games["running"].id, sight=EVERYTHING) is None
    )  # not finished
    assert await store.stats.finished_game_channel(1, 10**9, sight=EVERYTHING) is None
