"""The export's reads on both backends: a server's finished games newest first, page by
page, each seat with its result and its season's rating (rows written here with SQL, as
the rater would), and only the games in sight.

The games are those of ``test_store_stats`` (each in its own channel).
"""

from __future__ import annotations

from data import EVERYTHING, Sight, Store
from data.export import ExportGame

from ._helpers import Backend
from .test_store_stats import ANN, BEN, CAT, Played, games  # noqa: F401

G = dict[str, Played]


def seats_of(game: ExportGame) -> list[tuple[int, int | None, str | None, str, int, bool, int]]:
    return [(s.seat, s.user_id, s.ai, s.name, s.points, s.winner, s.place) for s in game.seats]


async def everything(
    store: Store, guild_id: int, limit: int, sight: Sight = EVERYTHING
) -> list[ExportGame]:
    """Every page, one after the other, as the export reads them."""
    found: list[ExportGame] = []
    while True:
        after = (found[-1].finished_at, found[-1].game_id) if found else None
        page = await store.export.export_page(guild_id, after=after, limit=limit, sight=sight)
        assert len(page) <= limit
        found += page
        if len(page) < limit:
            return found


async def test_the_finished_games_newest_first_with_every_seat(store: Store, games: G) -> None:  # noqa: F811
    assert await store.export.export_count(1, sight=EVERYTHING) == 4, (
        "not the running game, the lobby, nor guild 2's"
    )
    page = await store.export.export_page(1, sight=EVERYTHING)
    assert [g.game_id for g in page] == [games[n].id for n in ("g4", "g3", "g2", "g1")]
    g1 = page[3]
    assert seats_of(g1) == [
        (0, ANN, None, "Ann", 0, True, 1),
        (1, BEN, None, "Ben", 11, False, 3),
        (2, None, "hard", "Bot", 10, False, 2),
    ]
    record = await store.games.load_game(games["g1"].id)
    assert record is not None and g1.channel_id == record.channel_id
    assert g1.finished_at == record.finished_at and g1.ruleset.threshold == 10
    # A shared win: both first.
    assert seats_of(page[1]) == [
        (0, ANN, None, "Annie", 10, True, 1),
        (1, BEN, None, "Ben", 10, True, 1),
    ]
    assert all(seat.rating is None for game in page for seat in game.seats), "nothing rated"
    assert [g.game_id for g in await store.export.export_page(2, sight=EVERYTHING)] == [
        games["g5"].id
    ]
    assert (
        await store.export.export_count(3, sight=EVERYTHING) == 0
        and await store.export.export_page(3, sight=EVERYTHING) == []
    )


async def test_pages_follow_each_other_without_gaps_or_repeats(
    store: Store,
    backend: Backend,
    games: G,  # noqa: F811
) -> None:
    newest_first = [games[n].id for n in ("g4", "g3", "g2", "g1")]
    for limit in (1, 2, 3, 4, 5):
        assert [g.game_id for g in await everything(store, 1, limit)] == newest_first
    # Games finished in the same second: by id, newest first, still none twice.
    await backend.rows("UPDATE games SET finished_at = 5000 WHERE status = 'finished'")
    same = await everything(store, 1, 1)
    assert [g.game_id for g in same] == sorted(newest_first, reverse=True)


async def test_a_seat_has_the_rating_of_its_games_season(
    store: Store,
    backend: Backend,
    games: G,  # noqa: F811
) -> None:
    g2 = games["g2"].id
    season = 1_700_000_000
    await backend.rows(
        "INSERT INTO rated_games (game_id, guild_id, finished_at, season) VALUES (?, 1, 1, ?)",
        (g2, season),
    )
    # Ben, Ann, Cat: the season's rows and all time's (which the export leaves out).
    for seat, player, rank in ((0, f"user:{BEN}", 2), (1, f"user:{ANN}", 1), (2, f"user:{CAT}", 3)):
        for scope, shift in ((season, 0.0), (-1, 100.0)):
            await backend.rows(
                """INSERT INTO rating_changes (game_id, seat, season, guild_id, player,
                       channel_id, rank, mu_before, sigma_before, mu_after, sigma_after)
                   SELECT ?, ?, ?, 1, ?, channel_id, ?, ?, ?, ?, ? FROM games WHERE id = ?""",
                (g2, seat, scope, player, rank, 25.0 + shift, 8.0, 26.0 + seat + shift, 7.5, g2),
            )
    by_id = {g.game_id: g for g in await store.export.export_page(1, sight=EVERYTHING)}
    ratings = [s.rating for s in by_id[g2].seats]
    assert [(r.rank, r.mu_before, r.mu_after, r.sigma_after) for r in ratings if r] == [
        (2, 25.0, 26.0, 7.5),
        (1, 25.0, 27.0, 7.5),
        (3, 25.0, 28.0, 7.5),
    ]
    assert len(by_id[g2].seats) == 3, "one row a seat, not one a scope"
    assert all(s.rating is None for s in by_id[games["g1"].id].seats), "g1 is not rated"


async def test_only_the_games_in_sight(store: Store, games: G) -> None:  # noqa: F811
    g2 = await store.games.load_game(games["g2"].id)
    assert g2 is not None
    hidden = frozenset({g2.channel_id})
    # An admin who can't see G2's channel and never sat there: left out.
    admin = Sight(viewer=999, hidden=hidden)
    assert await store.export.export_count(1, sight=admin) == 3
    assert games["g2"].id not in [g.game_id for g in await everything(store, 1, 2, sight=admin)]
    # Cat sat at G2: hers to see.
    cat = Sight(viewer=CAT, hidden=hidden)
    assert await store.export.export_count(1, sight=cat) == 4
    assert len(await everything(store, 1, 3, sight=cat)) == 4


async def test_one_game_alone(store: Store, games: G) -> None:  # noqa: F811
    g2 = games["g2"].id
    assert await store.export.export_count(1, game_id=g2, sight=EVERYTHING) == 1
    assert [g.game_id for g in await store.export.export_page(1, game_id=g2, sight=EVERYTHING)] == [
        g2
    ]
    # Another server's game, a running one, one that doesn't exist: none.
    for other in (games["g5"].id, games["running"].id, 10**9):
        assert await store.export.export_count(1, game_id=other, sight=EVERYTHING) == 0
        assert await store.export.export_page(1, game_id=other, sight=EVERYTHING) == []
    record = await store.games.load_game(g2)
    assert record is not None
    hidden = Sight(viewer=999, hidden=frozenset({record.channel_id}))
    assert await store.export.export_count(1, game_id=g2, sight=hidden) == 0
