"""Stats, leaderboards, history and chip history, checked against games worked out by hand.

The games are dealt by hand (``explicit_deal``) with hands of one or two
cards, so every round ends in a move or two and its score is easy to follow.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from data import EVERYTHING, HistoryRow, LeaderboardRow, SeatRecord, Store, StoreError
from game import PLAY, QUIT, Action, Card, Match, RoundDealt, Ruleset, explicit_deal

from ._helpers import humans, new_running_game, play_move

ANN, BEN, CAT, DAN = 101, 102, 103, 104
ONE, TWO, THREE, FOUR, FIVE, SIX, LLAMA = (
    Card.ONE,
    Card.TWO,
    Card.THREE,
    Card.FOUR,
    Card.FIVE,
    Card.SIX,
    Card.LLAMA,
)


@dataclass
class Played:
    id: int
    match: Match
    seats: list[SeatRecord]
    guild_id: int


def deal(hands: list[list[Card]], top: Card, starter: int, round_no: int = 1) -> RoundDealt:
    return explicit_deal(hands, top, [TWO, THREE], starter=starter, round_no=round_no)


async def scripted(
    store: Store,
    guild_id: int,
    seats: list[SeatRecord],
    threshold: int,
    rounds: Sequence[tuple[RoundDealt, Sequence[Action]]],
) -> Played:
    """Play ``rounds`` (a deal and the moves, by whoever is to move) and save every move."""
    match = Match(Ruleset(threshold=threshold), len(seats))
    game_id = await new_running_game(
        store, match, seats, guild_id=guild_id, first_deal=rounds[0][0]
    )
    for index, (_, moves) in enumerate(rounds):
        following = rounds[index + 1][0] if index + 1 < len(rounds) else None
        for move_no, action in enumerate(moves):
            last = move_no == len(moves) - 1
            await play_move(store, game_id, match, action, next_deal=following if last else None)
    return Played(game_id, match, seats, guild_id)


@pytest.fixture
async def games(store: Store) -> dict[str, Played]:
    played: dict[str, Played] = {}
    # G1: Ann plays her only card. Ben keeps 5+6 = 11, the bot a llama = 10: over at 10.
    played["g1"] = await scripted(
        store,
        1,
        [*humans((ANN, "Ann"), (BEN, "Ben")), SeatRecord(2, None, "hard", "Bot")],
        10,
        [(deal([[ONE], [FIVE, SIX], [LLAMA]], ONE, starter=0), [PLAY[ONE]])],
    )
    # G2, to 20. Round 1: Ben empties; Ann keeps 3+3 = 3, Cat 6.
    # Round 2: Ben quits with llama+4 = 14; Ann empties and gives back a white chip (3 -> 2);
    # Cat keeps 6+llama = 16 -> 22: over, Ann wins on 2.
    played["g2"] = await scripted(
        store,
        1,
        humans((BEN, "Ben"), (ANN, "Ann"), (CAT, "Cat")),
        20,
        [
            (deal([[TWO], [THREE, THREE], [SIX]], TWO, starter=0), [PLAY[TWO]]),
            (deal([[LLAMA, FOUR], [FIVE], [SIX, LLAMA]], FOUR, 0, round_no=2), [QUIT, PLAY[FIVE]]),
        ],
    )
    # G3: both quit holding a llama: 10 each, a shared win. Ann now calls herself Annie.
    played["g3"] = await scripted(
        store,
        1,
        humans((ANN, "Annie"), (BEN, "Ben")),
        10,
        [(deal([[LLAMA], [LLAMA]], ONE, starter=0), [QUIT, QUIT])],
    )
    # G4, to 5: Dan empties, Cat keeps a 6.
    played["g4"] = await scripted(
        store,
        1,
        humans((DAN, "Dan"), (CAT, "Cat")),
        5,
        [(deal([[ONE], [SIX]], ONE, starter=0), [PLAY[ONE]])],
    )
    # G5, another guild: Ben empties, Ann keeps a llama and loses.
    played["g5"] = await scripted(
        store,
        2,
        humans((ANN, "Ann"), (BEN, "Ben")),
        10,
        [(deal([[LLAMA], [ONE]], ONE, starter=1), [PLAY[ONE]])],
    )
    # Not counted: a running game where Ann emptied a round, and a cancelled lobby.
    running = Match(Ruleset(threshold=200), 2)
    running_id = await new_running_game(
        store,
        running,
        humans((ANN, "Ann"), (CAT, "Cat")),
        first_deal=deal([[ONE], [SIX, FIVE]], ONE, starter=0),
    )
    await play_move(store, running_id, running, PLAY[ONE])
    played["running"] = Played(running_id, running, humans((ANN, "Ann"), (CAT, "Cat")), 1)
    cancelled = await store.games.create_game(
        guild_id=1,
        channel_id=1,
        host_id=ANN,
        ruleset=Ruleset(),
        turn_timer=0,
        seats=humans((ANN, "Ann")),
    )
    await store.games.set_status(cancelled, "cancelled")
    return played


def test_the_scripted_games_end_as_worked_out(games: dict[str, Played]) -> None:
    assert games["g1"].match.points == [0, 11, 10] and games["g1"].match.winners == (0,)
    assert [r.seats[1].total for r in games["g2"].match.results] == [3, 2]
    assert games["g2"].match.results[1].seats[1].returned == 1
    assert games["g2"].match.points == [14, 2, 22] and games["g2"].match.winners == (1,)
    assert games["g3"].match.points == [10, 10] and games["g3"].match.winners == (0, 1)
    assert games["g4"].match.points == [0, 6] and games["g4"].match.winners == (0,)
    assert games["g5"].match.points == [10, 0] and games["g5"].match.winners == (1,)
    assert not games["running"].match.over


async def test_player_stats(store: Store, games: dict[str, Played]) -> None:
    g1 = await store.games.load_game(games["g1"].id)
    g3 = await store.games.load_game(games["g3"].id)
    g4 = await store.games.load_game(games["g4"].id)
    assert g1 is not None and g3 is not None and g4 is not None

    ann = await store.stats.player_stats(1, ANN, sight=EVERYTHING)
    assert ann is not None
    assert (ann.name, ann.games, ann.wins, ann.win_rate, ann.average_points) == (
        "Annie",
        3,
        3,
        1.0,
        4.0,  # (0 + 2 + 10) / 3
    )
    assert (ann.rounds, ann.rounds_emptied, ann.chips_returned) == (4, 2, 1)
    assert (ann.best_points, ann.best_game_id, ann.best_game_at) == (0, g1.id, g1.finished_at)

    ben = await store.stats.player_stats(1, BEN, sight=EVERYTHING)
    assert ben is not None
    assert (ben.games, ben.wins, ben.rounds, ben.rounds_emptied, ben.chips_returned) == (
        3,
        1,
        4,
        1,
        0,
    )
    assert ben.win_rate == pytest.approx(1 / 3)
    assert ben.average_points == pytest.approx(35 / 3)  # (11 + 14 + 10) / 3
    assert (ben.best_points, ben.best_game_id, ben.best_game_at) == (10, g3.id, g3.finished_at)

    cat = await store.stats.player_stats(1, CAT, sight=EVERYTHING)
    assert cat is not None
    assert (cat.games, cat.wins, cat.win_rate, cat.average_points, cat.rounds) == (
        2,
        0,
        0.0,
        14.0,
        3,
    )
    assert (cat.best_points, cat.best_game_id) == (6, g4.id)

    # Another guild counts on its own; nobody with no finished game has stats.
    other = await store.stats.player_stats(2, ANN, sight=EVERYTHING)
    assert other is not None
    assert (other.games, other.wins, other.average_points, other.rounds) == (1, 0, 10.0, 1)
    assert await store.stats.player_stats(2, CAT, sight=EVERYTHING) is None
    assert await store.stats.player_stats(1, 999, sight=EVERYTHING) is None


async def test_player_stats_agree_with_the_matches(store: Store, games: dict[str, Played]) -> None:
    """The same numbers, recomputed from the engine's own results."""
    for user in (ANN, BEN, CAT, DAN):
        mine = [
            (p, next(s.seat for s in p.seats if s.user_id == user))
            for key, p in games.items()
            if key != "running" and p.guild_id == 1 and any(s.user_id == user for s in p.seats)
        ]
        stats = await store.stats.player_stats(1, user, sight=EVERYTHING)
        assert stats is not None
        points = [p.match.points[seat] for p, seat in mine]
        assert stats.games == len(mine)
        assert stats.wins == sum(seat in p.match.winners for p, seat in mine)
        assert stats.average_points == pytest.approx(sum(points) / len(points))
        assert stats.best_points == min(points)
        rows = [r.seats[seat] for p, seat in mine for r in p.match.results]
        assert stats.rounds == len(rows)
        assert stats.rounds_emptied == sum(row.emptied for row in rows)
        assert stats.chips_returned == sum(row.returned for row in rows)


def board(rows: list[LeaderboardRow]) -> list[tuple[int, int]]:
    return [(row.rank, row.user_id) for row in rows]


async def test_leaderboard_orders(store: Store, games: dict[str, Played]) -> None:
    wins = await store.stats.leaderboard(
        1, order="wins", min_games=1, limit=10, offset=0, sight=EVERYTHING
    )
    # Ben and Dan share 2nd place with a win each; Ben, with more games, is listed first.
    assert board(wins) == [(1, ANN), (2, BEN), (2, DAN), (4, CAT)]
    ann = wins[0]
    assert (ann.name, ann.games, ann.wins, ann.win_rate, ann.average_points) == (
        "Annie",
        3,
        3,
        1.0,
        4.0,
    )
    assert (wins[3].name, wins[3].games, wins[3].wins, wins[3].average_points) == (
        "Cat",
        2,
        0,
        14.0,
    )

    rate = await store.stats.leaderboard(
        1, order="win_rate", min_games=1, limit=10, offset=0, sight=EVERYTHING
    )
    assert board(rate) == [(1, ANN), (1, DAN), (3, BEN), (4, CAT)]

    average = await store.stats.leaderboard(
        1, order="average", min_games=1, limit=10, offset=0, sight=EVERYTHING
    )
    assert board(average) == [(1, DAN), (2, ANN), (3, BEN), (4, CAT)]
    assert [row.average_points for row in average] == pytest.approx([0, 4, 35 / 3, 14])

    # AI seats never appear; the other guild has its own board.
    assert board(
        await store.stats.leaderboard(
            2, order="wins", min_games=1, limit=10, offset=0, sight=EVERYTHING
        )
    ) == [
        (1, BEN),
        (2, ANN),
    ]


async def test_leaderboard_filter_and_paging(store: Store, games: dict[str, Played]) -> None:
    regulars = await store.stats.leaderboard(
        1, order="wins", min_games=2, limit=10, offset=0, sight=EVERYTHING
    )
    assert board(regulars) == [(1, ANN), (2, BEN), (3, CAT)]
    assert await store.stats.leaderboard_count(1, min_games=2, sight=EVERYTHING) == 3
    assert await store.stats.leaderboard_count(1, min_games=1, sight=EVERYTHING) == 4
    assert await store.stats.leaderboard_count(1, min_games=4, sight=EVERYTHING) == 0
    assert await store.stats.leaderboard_count(3, min_games=1, sight=EVERYTHING) == 0
    assert (
        await store.stats.leaderboard(
            3, order="wins", min_games=1, limit=10, offset=0, sight=EVERYTHING
        )
        == []
    )

    page = await store.stats.leaderboard(
        1, order="wins", min_games=1, limit=2, offset=1, sight=EVERYTHING
    )
    assert board(page) == [(2, BEN), (2, DAN)]  # ranks count from the top, not the page
    assert (
        await store.stats.leaderboard(
            1, order="wins", min_games=1, limit=2, offset=4, sight=EVERYTHING
        )
        == []
    )

    with pytest.raises(ValueError, match="unknown leaderboard order"):
        await store.stats.leaderboard(
            1, order="name", min_games=1, limit=1, offset=0, sight=EVERYTHING
        )


async def test_history(store: Store, games: dict[str, Played]) -> None:
    finished = {
        key: record
        for key in ("g1", "g2", "g3")
        if (record := await store.games.load_game(games[key].id)) is not None
    }
    assert await store.stats.history(1, ANN, sight=EVERYTHING) == [
        HistoryRow(
            games["g3"].id, finished["g3"].finished_at or 0, 2, 10, 1, True, ("Annie", "Ben")
        ),
        HistoryRow(games["g2"].id, finished["g2"].finished_at or 0, 3, 2, 1, True, ("Ann",)),
        HistoryRow(games["g1"].id, finished["g1"].finished_at or 0, 3, 0, 1, True, ("Ann",)),
    ]
    assert [
        row.game_id for row in await store.stats.history(1, ANN, limit=2, sight=EVERYTHING)
    ] == [
        games["g3"].id,
        games["g2"].id,
    ]
    ben = await store.stats.history(1, BEN, sight=EVERYTHING)
    assert [(r.points, r.place, r.winner, r.winners) for r in ben] == [
        (10, 1, True, ("Annie", "Ben")),
        (14, 2, False, ("Ann",)),
        (11, 3, False, ("Ann",)),  # the bot, on 10, came second
    ]
    assert await store.stats.history(2, CAT, sight=EVERYTHING) == []


async def test_latest_finished_game(store: Store, games: dict[str, Played]) -> None:
    # Newer games exist (g5 in guild 2, a running game and a cancelled lobby in guild 1),
    # but none of them is a finished game of guild 1.
    assert await store.stats.latest_finished_game(1, sight=EVERYTHING) == games["g4"].id
    assert await store.stats.latest_finished_game(2, sight=EVERYTHING) == games["g5"].id
    assert await store.stats.latest_finished_game(3, sight=EVERYTHING) is None

    # The game that finished last, not the one opened last.
    opened_first = Match(Ruleset(threshold=5), 2)
    first_id = await new_running_game(
        store,
        opened_first,
        humans((DAN, "Dan"), (CAT, "Cat")),
        guild_id=3,
        first_deal=deal([[ONE], [SIX]], ONE, starter=0),
    )
    opened_second = await scripted(
        store,
        3,
        humans((CAT, "Cat"), (DAN, "Dan")),
        5,
        [(deal([[ONE], [SIX]], ONE, starter=0), [PLAY[ONE]])],
    )
    assert await store.stats.latest_finished_game(3, sight=EVERYTHING) == opened_second.id
    await play_move(store, first_id, opened_first, PLAY[ONE])
    assert opened_first.over and first_id < opened_second.id
    assert await store.stats.latest_finished_game(3, sight=EVERYTHING) == first_id
    assert await store.stats.latest_finished_game(1, sight=EVERYTHING) == games["g4"].id


async def test_chip_history(store: Store, games: dict[str, Played]) -> None:
    g2 = await store.stats.chip_history(games["g2"].id)
    assert g2 is not None
    assert (g2.names, g2.threshold, g2.totals, g2.winners) == (
        ("Ben", "Ann", "Cat"),
        20,
        ((0, 3, 6), (14, 2, 22)),
        (1,),
    )
    running = await store.stats.chip_history(games["running"].id)
    assert running is not None
    assert (running.names, running.totals, running.winners) == (("Ann", "Cat"), ((0, 11),), ())


async def test_a_long_stats_read_does_not_hold_up_a_move(store: Store) -> None:
    """Stats read on their own connection: a move saves while a leaderboard is mid-read."""
    match = Match(Ruleset(), 2)
    game_id = await new_running_game(store, match, humans((ANN, "Ann"), (BEN, "Ben")))
    async with store._reads.read() as unit:  # a big leaderboard, half-way through
        [(before,)] = await unit.fetch("SELECT COUNT(*) FROM events")
        # With one connection for both, this move would wait for the read to end: forever.
        await asyncio.wait_for(play_move(store, game_id, match, match.legal_actions()[0]), 60)
        # The read goes on in its own snapshot, without the move.
        assert await unit.fetch("SELECT COUNT(*) FROM events") == [(before,)]
    record = await store.games.load_game(game_id)
    assert record is not None and record.events == tuple(match.events)
    assert await store.stats.history(ANN, ANN, sight=EVERYTHING) == []  # and stats read on


async def test_the_stats_connection_cannot_write(store: Store) -> None:
    await store.settings.set_language(1, "de")
    refused = "attempt to write a readonly database|cannot execute DELETE in a read-only"
    with pytest.raises(StoreError, match=f"could not load: ({refused})"):
        async with store._reads.read() as unit:
            await unit.execute("DELETE FROM guild_settings")
    assert await store.settings.get_language(1) == "de"
