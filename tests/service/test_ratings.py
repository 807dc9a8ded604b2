"""The rater: every finished game rated once, in finish order, before its table is shown."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.service import GameService
from bot.service.play.rows import table_from_record
from bot.service.play.table import Status, Table, waiting
from bot.service.ratings.rater import MODEL, Rated, Rater, rate_game
from bot.service.ratings.rating_order import leavers, standings
from bot.service.ratings.rating_scale import MU, SIGMA, shown_change
from bot.service.ratings.seasons import DAY, season_at
from data import EVERYTHING, StoreError
from data.records import (
    ALL_TIME,
    AWAY,
    FORMER_PLAYER,
    IDLE_GAME,
    FinishedGame,
    GameRecord,
    SeasonPlan,
    SeatNote,
    SeatRecord,
    Skill,
)
from game import Card, CardDrawn, CardPlayed, Match, PlayerQuit, Ruleset
from game.ai import Strength
from testkit.records import finished_record
from testkit.service_game import ServiceGame, eventually, people, rated
from testkit.service_game import finished as finish

ANN, BOB, CY = people("Ann", "Bob", "Cy")
GUILD = 1
TABLES = ("ratings", "rated_games", "rating_changes")


def snapshot(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the ratings' tables, in a fixed order."""
    with sqlite3.connect(path) as db:
        return {
            table: sorted(db.execute(f"SELECT * FROM {table}").fetchall(), key=repr)
            for table in TABLES
        }


def record(seats: list[SeatRecord], **fields: Any) -> GameRecord:
    base: dict[str, Any] = dict(
        guild_id=GUILD, channel_id=2, host_id=0, updated_at=10.0, finished_at=10.0
    )
    return finished_record(seats, **{**base, **fields})


def person(seat: int, user: int) -> SeatRecord:
    return SeatRecord(seat, user, None, f"P{user}")


def ai(seat: int, strength: str = "normal") -> SeatRecord:
    return SeatRecord(seat, None, strength, f"AI {seat}")


async def next_start(game: ServiceGame) -> Rated:
    """Start the bot again over the same store: resume, and wait for what it rates."""
    again = GameService(
        game.store, clock=game.clock, sleep=game.clock.sleep, timing=game.service.timing
    )
    try:
        await again.resume()
        return await again.rater.caught_up()
    finally:
        await again.close()


def ratings_fail(game: ServiceGame, monkeypatch: pytest.MonkeyPatch, error: str) -> None:
    """Every write of ratings fails with ``error`` (until ``monkeypatch.undo()``)."""

    async def fail(*args: object) -> None:
        raise StoreError(error)

    monkeypatch.setattr(game.store.rating_writes, "save_ratings", fail)


async def rates_again_the_same(game: ServiceGame, games: int) -> None:
    """The ``games`` rated one by one so far: recomputing them gives exactly the same."""
    path = Path(game.store.path)
    incremental = snapshot(path)
    assert len(incremental["rated_games"]) == games
    assert (await game.service.rater.rerate_every()).games == games
    assert snapshot(path) == incremental


async def rated_at_the_next_start(game: ServiceGame, game_id: int) -> dict[int, int]:
    """A game left unrated is rated at the next start, as a recomputation rates it too;
    its seats' ranks then."""
    assert await game.store.ratings.rating_changes(game_id) == []
    assert (await next_start(game)).games == 1
    await rates_again_the_same(game, 1)
    return {c.seat: c.rank for c in await game.store.ratings.rating_changes(game_id)}


# ------------------------------------------------------------------ the order of a game


def test_winners_first_then_fewer_points_and_equal_points_share() -> None:
    seats = [person(0, 10), person(1, 11), ai(2, "easy"), person(3, 12)]
    game = FinishedGame(record(seats), points=(30, 12, 30, 41), winners=frozenset({1}))
    assert [(s.player, s.rank) for s in standings(game)] == [
        ("user:10", 2),
        ("user:11", 1),
        ("ai:easy", 2),
        ("user:12", 4),
    ]
    both = FinishedGame(record(seats[:2]), points=(5, 5), winners=frozenset({0, 1}))
    assert [s.rank for s in standings(both)] == [1, 1]


def test_the_rating_is_openskills_plackett_luce_in_both_scopes() -> None:
    seats = [person(0, 10), person(1, 11), ai(2, "hard")]
    game = FinishedGame(record(seats), points=(3, 44, 20), winners=frozenset({0}))
    before = {(500, "user:11"): Skill(30.0, 4.0, 9), (ALL_TIME, "ai:hard"): Skill(28.0, 3.0, 50)}
    rating = rate_game(game, 500, before)
    for scope in (500, ALL_TIME):
        teams = [
            [MODEL.rating(mu=b.mu, sigma=b.sigma)]
            if (b := before.get((scope, p)))
            else [MODEL.rating(mu=MU, sigma=SIGMA)]
            for p in ("user:10", "user:11", "ai:hard")
        ]
        want = MODEL.rate(teams, ranks=[1, 3, 2])
        got = [c for c in rating.changes if c.season == scope]
        assert [(c.mu_after, c.sigma_after) for c in got] == [(t[0].mu, t[0].sigma) for t in want]
    games = {(p.season, p.player): p.games for p in rating.players}
    assert games[(500, "user:11")] == 10 and games[(ALL_TIME, "ai:hard")] == 51
    assert games[(ALL_TIME, "user:11")] == 1


def test_seats_of_one_strength_play_with_its_rating_and_it_keeps_their_mean() -> None:
    seats = [person(0, 10), ai(1), ai(2)]
    game = FinishedGame(record(seats), points=(3, 44, 20), winners=frozenset({0}))
    rating = rate_game(game, 500, {})
    seats_after = [c for c in rating.changes if c.season == 500 and c.player == "ai:normal"]
    assert len(seats_after) == 2 and seats_after[0].mu_after != seats_after[1].mu_after
    (normal,) = [p for p in rating.players if p.season == 500 and p.player == "ai:normal"]
    assert normal.mu == (seats_after[0].mu_after + seats_after[1].mu_after) / 2
    assert normal.sigma == (seats_after[0].sigma_after + seats_after[1].sigma_after) / 2
    assert normal.games == 1 and normal.name == "normal"


def test_a_seat_the_stand_in_and_the_clock_played_mostly_is_a_leaver() -> None:
    moves = [CardPlayed(0, Card.ONE), CardDrawn(1), CardPlayed(0, Card.TWO), CardDrawn(1)]
    events = (*moves, CardDrawn(1), PlayerQuit(0), CardDrawn(1))
    seats = [person(0, 10), person(1, 11)]
    # Seat 1: a timeout at seq 1, then taken over before seq 3 (3 of 4 moves not theirs).
    mostly_stood_in = record(
        seats,
        events=events,
        automatic={1: "timeout"},
        notes=(SeatNote(3, 1, "takeover"),),
    )
    assert leavers(mostly_stood_in) == {1}
    # Back before seq 4: two of their four moves were theirs, which is not more than half.
    back = record(
        seats,
        events=events,
        automatic={1: "timeout"},
        notes=(SeatNote(3, 1, "takeover"), SeatNote(4, 1, "back")),
    )
    assert leavers(back) == set()
    left = record(seats, events=events, notes=(SeatNote(6, 0, "left"),))
    assert leavers(left) == {0}


def test_leavers_share_the_last_rank_even_when_their_ai_won() -> None:
    seats = [person(0, 10), SeatRecord(1, 11, "normal", "P11"), person(2, 12), ai(3, "easy")]
    notes = (SeatNote(0, 1, "left"),)
    game = FinishedGame(record(seats, notes=notes), points=(20, 3, 40, 30), winners=frozenset({1}))
    ranks = {s.player: s.rank for s in standings(game)}
    assert ranks == {"user:10": 1, "user:12": 3, "ai:easy": 2, "user:11": 4}
    rating = rate_game(game, 500, {})
    # The Normal AI that played on for them is not rated for that seat.
    assert {p.player for p in rating.players} == {"user:10", "user:11", "user:12", "ai:easy"}


def test_a_forgotten_seat_plays_as_a_newcomer_whose_rating_is_not_kept() -> None:
    seats = [person(0, 10), SeatRecord(1, None, "normal", FORMER_PLAYER)]
    game = FinishedGame(record(seats), points=(4, 50), winners=frozenset({0}))
    normal = {(500, "ai:normal"): Skill(40.0, 2.0, 99)}
    rating = rate_game(game, 500, normal)
    former = [c for c in rating.changes if c.seat == 1]
    assert {c.player for c in former} == {"former"}
    assert all((c.mu_before, c.sigma_before) == (MU, SIGMA) for c in former)
    assert {p.player for p in rating.players} == {"user:10"}


# ------------------------------------------------------------------ through the service


async def test_a_finished_game_is_rated_before_its_table_is_shown(game: ServiceGame) -> None:
    seen: list[dict[int, int]] = []

    async def on_notice(kind: str, table: Table) -> None:
        if kind == "changed" and table.status is Status.FINISHED:
            assert await game.store.ratings.rating_changes(table.game_id)
            seen.append(dict(table.rating_changes))

    game.listener.on_notice = on_notice
    table = await finish(game, await game.lobby([ANN, BOB], [Strength.EASY]))
    await eventually(lambda: bool(seen))
    changes = await game.store.ratings.rating_changes(table.game_id)
    season = season_at([], game.clock.now).key
    assert {c.season for c in changes} == {season, ALL_TIME}
    in_season = {c.seat: c for c in changes if c.season == season}
    assert set(in_season) == {0, 1, 2}
    # The table shows each person's change in the season, on the shown scale.
    assert seen == [
        {
            seat: shown_change(c.mu_before, c.sigma_before, c.mu_after, c.sigma_after)
            for seat, c in in_season.items()
            if c.user_id is not None
        }
    ]
    assert set(seen[0]) == {0, 1}
    board = await game.store.ratings.rating_board(GUILD, season, sight=EVERYTHING)
    assert {(row.user_id, row.ai) for row in board} == {
        (ANN.id, None),
        (BOB.id, None),
        (None, "easy"),
    }


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_each_season_is_rated_from_its_own_games_and_all_time_from_all(
    game: ServiceGame,
) -> None:
    await finish(game, await game.lobby([ANN], [Strength.NORMAL]))
    first = season_at([], game.clock.now)
    game.clock.advance(first.end - game.clock.now + DAY)
    await finish(game, await game.lobby([ANN], [Strength.NORMAL]))
    second = season_at([], game.clock.now)
    assert second.key != first.key
    assert await game.store.ratings.rated_seasons(GUILD) == [second.key, first.key]
    for key in (first.key, second.key):
        ann = await game.store.ratings.rating_of(GUILD, key, ANN.id, sight=EVERYTHING)
        assert ann is not None and ann.games == 1
    ever = await game.store.ratings.rating_of(GUILD, ALL_TIME, ANN.id, sight=EVERYTHING)
    assert ever is not None and ever.games == 2


async def test_a_leaver_is_rated_last_through_the_service(game: ServiceGame) -> None:
    table = await game.lobby([ANN, BOB, CY])
    await game.service.seats.leave_game(table, BOB.id)
    await finish(game, table)
    changes = await game.store.ratings.rating_changes(table.game_id)
    ranks = {c.seat: c.rank for c in changes if c.season == ALL_TIME}
    assert ranks[1] == 3 and ranks[0] < 3 and ranks[2] < 3
    assert 1 in table.rating_changes  # they see what leaving cost them
    board = await game.store.ratings.rating_board(GUILD, sight=EVERYTHING)
    assert {row.ai for row in board} == {None}  # the Normal AI playing on is not rated


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_every_game_is_rated_once_and_a_new_start_rates_none_again(
    game: ServiceGame,
) -> None:
    for _ in range(3):
        await finish(game, await game.lobby([ANN, BOB]))
    path = Path(game.store.path)
    before = snapshot(path)
    assert len(before["rated_games"]) == 3
    again = GameService(
        game.store, clock=game.clock, sleep=game.clock.sleep, timing=game.service.timing
    )
    try:
        assert (await again.rater.rate_all()).games == 0
    finally:
        await again.close()
    assert snapshot(path) == before


@pytest.mark.slow  # whole games rated, then rated again
async def test_recomputing_gives_exactly_what_the_games_gave_one_by_one(
    game: ServiceGame,
) -> None:
    await game.service.seasons.set(GUILD, days=7, start_now=True)
    for n in range(6):
        players = [ANN, BOB] if n % 2 else [ANN, CY, BOB]
        table = await game.lobby(players, [Strength.NORMAL, Strength.NORMAL][: n % 3])
        if n == 2:
            await game.service.seats.leave_game(table, CY.id)
        await finish(game, table)
        game.clock.advance(3 * DAY)
    path = Path(game.store.path)
    incremental = snapshot(path)
    assert (await game.service.rater.rerate_every()).games == 6
    assert snapshot(path) == incremental
    # A board's sight counts a person's hidden games against the games their rating
    # counts: those must be their changes, one a game, in every scope (a leaver too).
    with sqlite3.connect(path) as db:
        counted = db.execute(
            """SELECT r.season, r.player, r.games, COUNT(c.game_id) FROM ratings AS r
               LEFT JOIN rating_changes AS c ON c.guild_id = r.guild_id
                    AND c.season = r.season AND c.player = r.player
               WHERE r.user_id IS NOT NULL GROUP BY r.season, r.player, r.games"""
        ).fetchall()
    assert len(counted) > 3 and all(games == changes for *_, games, changes in counted)


async def test_a_rating_that_fails_is_logged_and_made_at_the_next_start(
    game: ServiceGame, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    ratings_fail(game, monkeypatch, "disk full")
    with caplog.at_level(logging.WARNING, "bot.service.ratings"):
        table = await finish(game, await game.lobby([ANN, BOB]))
    assert "disk full" in caplog.text
    assert table.rating_changes == {}
    assert ("changed", table.game_id, table.stamp) in game.listener.notices  # shown anyway
    monkeypatch.undo()
    assert await game.store.ratings.rating_changes(table.game_id) == []
    await next_start(game)
    assert await game.store.ratings.rating_changes(table.game_id)


async def test_a_game_rating_missed_is_rated_in_order_when_the_next_one_finishes(
    game: ServiceGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = game.store.rating_writes.save_ratings
    fails = [True, True]  # the rating as the game finishes, and its retry at once

    async def once(rating: Any) -> None:
        if fails.pop() if fails else False:
            raise StoreError("locked")
        await original(rating)

    monkeypatch.setattr(game.store.rating_writes, "save_ratings", once)
    first = await finish(game, await game.lobby([ANN, BOB]))
    second = await finish(game, await game.lobby([ANN, BOB]))
    assert first.rating_changes == {} and set(second.rating_changes) == {0, 1}
    path = Path(game.store.path)
    incremental = snapshot(path)
    await game.service.rater.rerate_every()
    assert snapshot(path) == incremental


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_game_left_unrated_before_a_rated_one_has_its_server_rated_again(
    game: ServiceGame,
) -> None:
    await finish(game, await game.lobby([ANN, BOB]))
    await finish(game, await game.lobby([ANN, CY]))
    path = Path(game.store.path)
    in_order = snapshot(path)
    # As if the bot had stopped between saving the first game and rating it: only the
    # second is rated.
    with sqlite3.connect(path) as db:
        for table in TABLES:
            db.execute(f"DELETE FROM {table}")
    games, _ = await game.store.rating_writes.unrated_games(GUILD)
    newest = games[-1]
    assert newest.record.finished_at is not None
    await game.store.rating_writes.save_ratings(
        [rate_game(newest, season_at([], newest.record.finished_at).key, {})]
    )
    done = await game.service.rater.rate_all()
    assert (done.games, done.guilds, done.rerated) == (2, 1, 1)
    assert snapshot(path) == in_order


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_after_a_forget_the_seat_is_recomputed_as_a_newcomer(game: ServiceGame) -> None:
    for _ in range(2):
        await finish(game, await game.lobby([ANN, BOB], [Strength.NORMAL]))
    await game.store.forget.forget_user(BOB.id)
    await game.service.rater.rerate_every()
    path = Path(game.store.path)
    once = snapshot(path)
    board = await game.store.ratings.rating_board(GUILD, sight=EVERYTHING)
    assert {(row.user_id, row.ai) for row in board} == {(ANN.id, None), (None, "normal")}
    normal = await game.store.ratings.rating_board(GUILD, sight=EVERYTHING)
    assert [row.games for row in normal if row.ai == "normal"] == [2]  # not 4: Bob isn't it
    await game.service.rater.rerate_every()
    assert snapshot(path) == once


@pytest.mark.slow  # whole games rated side by side
async def test_a_game_rated_with_another_that_finished_beside_it_shows_its_changes(
    game: ServiceGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    rater = Rater(game.store)

    async def later(table: Table) -> None:  # both games finish before either is rated
        return None

    monkeypatch.setattr(game.service.moves, "_rate", later)
    first = await finish(game, await game.lobby([ANN, BOB]))
    second = await finish(game, await game.lobby([ANN, CY], [Strength.HARD]))
    await rater.rate_table(second)  # rates both, in order
    await rater.rate_table(first)  # nothing left to rate: its changes are read back
    assert set(first.rating_changes) == {0, 1} and set(second.rating_changes) == {0, 1}
    changes = await game.store.ratings.rating_changes(first.game_id)
    ann = next(c for c in changes if c.seat == 0 and c.season != ALL_TIME)
    want = shown_change(ann.mu_before, ann.sigma_before, ann.mu_after, ann.sigma_after)
    assert first.rating_changes[0] == want


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_database_from_before_the_ratings_is_rated_whole_at_the_first_start(
    game: ServiceGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def unrated(table: Table) -> None:  # the bot before the ratings
        return None

    monkeypatch.setattr(game.service.moves, "_rate", unrated)
    for players in ([ANN, BOB], [BOB, CY], [ANN, CY]):
        await finish(game, await game.lobby(players, [Strength.EASY]))
    path = Path(game.store.path)
    assert snapshot(path)["rated_games"] == []
    await next_start(game)
    first_start = snapshot(path)
    assert len(first_start["rated_games"]) == 3
    await game.service.rater.rerate_every()
    assert snapshot(path) == first_start  # in the order they finished


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_game_whose_finish_was_saved_after_a_later_one_was_rated_is_rated_in_order(
    game: ServiceGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    # On PostgreSQL two finishes of one server go through different connections, so the
    # one that finished first by the clock may be committed after the other was rated.
    rater = Rater(game.store)

    async def later(table: Table) -> None:
        return None

    monkeypatch.setattr(game.service.moves, "_rate", later)
    first = await finish(game, await game.lobby([ANN, BOB]))
    second = await finish(game, await game.lobby([ANN, CY]))
    path = Path(game.store.path)
    with sqlite3.connect(path) as db:  # the first one's finish not committed yet
        db.execute("UPDATE games SET status = 'running' WHERE id = ?", (first.game_id,))
    await rater.rate_table(second)
    with sqlite3.connect(path) as db:  # ... and now it is
        db.execute("UPDATE games SET status = 'finished' WHERE id = ?", (first.game_id,))
    await rater.rate_table(first)
    assert set(first.rating_changes) == {0, 1} and set(second.rating_changes) == {0, 1}
    incremental = snapshot(path)
    await game.service.rater.rerate_every()
    assert snapshot(path) == incremental


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_the_games_are_resumed_before_a_backlog_of_ratings_is_made(
    game: ServiceGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A start after the upgrade has every stored game to rate (minutes for 100,000): the
    unfinished games are back and playable first, and the ratings come behind them."""

    async def unrated(table: Table) -> None:  # the bot before the ratings
        return None

    monkeypatch.setattr(game.service.moves, "_rate", unrated)
    for players in ([ANN, BOB], [BOB, CY]):
        await finish(game, await game.lobby(players, [Strength.EASY]))
    running = await game.lobby([ANN, CY])
    monkeypatch.undo()
    writes_held = asyncio.Event()
    save = game.store.rating_writes.save_ratings

    async def held(ratings: Any) -> None:  # a slow backlog: held until the test lets it go
        await writes_held.wait()
        await save(ratings)

    monkeypatch.setattr(game.store.rating_writes, "save_ratings", held)
    upgraded = GameService(
        game.store, clock=game.clock, sleep=game.clock.sleep, timing=game.service.timing
    )
    try:
        resumed = await asyncio.wait_for(upgraded.resume(), timeout=10)
        assert [table.game_id for table in resumed] == [running.game_id]
        assert snapshot(Path(game.store.path))["rated_games"] == []
        writes_held.set()
        assert (await asyncio.wait_for(upgraded.rater.caught_up(), timeout=10)).games == 2
    finally:
        writes_held.set()
        await upgraded.close()
    assert len(snapshot(Path(game.store.path))["rated_games"]) == 2


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_stop_during_the_backlog_keeps_what_was_rated_and_the_next_start_goes_on(
    game: ServiceGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def unrated(table: Table) -> None:
        return None

    monkeypatch.setattr(game.service.moves, "_rate", unrated)
    for players in ([ANN, BOB], [BOB, CY]):
        await finish(game, await game.lobby(players))
    monkeypatch.undo()
    never = asyncio.Event()
    save = game.store.rating_writes.save_ratings

    async def held(ratings: Any) -> None:
        await never.wait()
        await save(ratings)

    monkeypatch.setattr(game.store.rating_writes, "save_ratings", held)
    stopped = GameService(
        game.store, clock=game.clock, sleep=game.clock.sleep, timing=game.service.timing
    )
    await stopped.resume()
    await asyncio.wait_for(stopped.close(), timeout=10)  # does not wait for the backlog
    monkeypatch.undo()
    assert snapshot(Path(game.store.path))["rated_games"] == []
    assert (await next_start(game)).games == 2


# ------------------------------------------------------------------ a game every person left


async def play_a_round(game: ServiceGame, table: Table) -> list[int]:
    """Play the people's moves (the AIs make their own) until a round is scored; each
    seat's points then."""
    while table.match is not None and not table.match.results:
        assert table.status is Status.RUNNING
        seat = table.to_move
        if seat is not None and table.seats[seat].controller is None:
            await game.play(table)
        else:
            await asyncio.sleep(0.001)  # an AI's move is on its way
    assert table.match is not None
    return list(table.match.points)


def one_round(players: int) -> Match:
    """A match of ``players`` seats whose first round is scored (each taking its first
    legal move)."""
    match = Match(Ruleset(), players)
    match.deal(5)
    while not match.results:
        match.step(match.legal_actions()[0])
    return match


def test_a_game_every_person_left_ranks_its_ai_seats_by_points_and_the_leavers_last() -> None:
    match = one_round(4)
    points = match.points
    seats = [person(0, 10), ai(1, "easy"), SeatRecord(2, 11, "normal", "P11"), ai(3, "hard")]
    left = record(
        seats,
        status="cancelled",
        events=tuple(match.events),
        notes=(SeatNote(3, 2, "kicked"), SeatNote(len(match.events), 0, "left")),
    )
    # Points that didn't count (a finished game's) and no winner: the points when it ended.
    game = FinishedGame(left, points=(), winners=frozenset())
    ranks = {s.seat: s.rank for s in standings(game)}
    # Seat 2 was kicked while its person played it: no leaver, ranked by its points, and
    # its person's rating left as it was.
    assert ranks == {0: 4, **ranked_by_points(points, (1, 2, 3))}
    assert [s.player for s in standings(game)] == ["user:10", "ai:easy", "user:11", "ai:hard"]
    assert [s.counts for s in standings(game)] == [True, True, False, True]
    # Only people started it: nobody to rank ahead of them, so nobody is rated.
    people_only = record(
        [person(0, 10), SeatRecord(1, 11, "normal", "P11")],
        status="cancelled",
        notes=(SeatNote(0, 1, "left"), SeatNote(0, 0, "left")),
    )
    assert standings(FinishedGame(people_only, points=(), winners=frozenset())) == []


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_the_last_person_leaving_a_game_against_ais_is_rated_last(
    game: ServiceGame,
) -> None:
    table = await game.lobby([ANN], [Strength.EASY, Strength.NORMAL, Strength.HARD])
    points = await play_a_round(game, table)
    await game.service.seats.leave_game(table, ANN.id)
    assert table.status is Status.CANCELLED
    assert ("closed", table.game_id, "closed.abandoned") in game.listener.notices
    changes = await game.store.ratings.rating_changes(table.game_id)
    season = season_at([], game.clock.now).key
    assert {c.season for c in changes} == {season, ALL_TIME}
    for scope in (season, ALL_TIME):
        ranks = {c.seat: c.rank for c in changes if c.season == scope}
        # Ann last, whatever her points; the AIs by their points, equal ones sharing.
        assert ranks[0] == 4
        assert all(ranks[s] == 1 + sum(points[o] < points[s] for o in (1, 2, 3)) for s in (1, 2, 3))
    ann = next(c for c in changes if c.seat == 0 and c.season == season)
    assert ann.mu_after < ann.mu_before
    assert shown_change(ann.mu_before, ann.sigma_before, ann.mu_after, ann.sigma_after) < 0
    ais = [c for c in changes if c.ai is not None and c.season == season]
    assert sum(c.mu_after - c.mu_before for c in ais) > 0  # what she lost, they won
    assert all(c.mu_after > c.mu_before for c in ais if c.rank == 1)
    board = await game.store.ratings.rating_board(GUILD, season, sight=EVERYTHING)
    assert {(row.user_id, row.ai) for row in board} == {
        (ANN.id, None),
        (None, "easy"),
        (None, "normal"),
        (None, "hard"),
    }
    assert [
        p.game_id
        for p in await game.store.ratings.rating_history(GUILD, season, ANN.id, sight=EVERYTHING)
    ] == [table.game_id]
    # Only the rating: it was cancelled, not finished, for the wins, averages and history.
    assert await game.store.stats.player_stats(GUILD, ANN.id, sight=EVERYTHING) is None
    assert await game.store.stats.history(GUILD, ANN.id, sight=EVERYTHING) == []


async def test_a_game_only_people_started_stays_unrated_when_they_all_leave(
    game: ServiceGame,
) -> None:
    table = await game.lobby([ANN, BOB])
    await play_a_round(game, table)
    await game.service.seats.leave_game(table, ANN.id)
    await game.service.seats.leave_game(table, BOB.id)
    assert table.status is Status.CANCELLED
    assert snapshot(Path(game.store.path)) == {name: [] for name in TABLES}
    assert (await game.service.rater.rate_all()).games == 0
    assert (await game.service.rater.rerate_every()).games == 0
    assert snapshot(Path(game.store.path)) == {name: [] for name in TABLES}


async def test_a_game_of_people_whose_last_player_made_their_own_moves_is_the_leavers_loss(
    game: ServiceGame,
) -> None:
    """Bob left; Ann played on against the AI in his seat, then missed her turns until an
    AI took hers too: the game waits for her, and she is not back in time, so it is
    cancelled.  Ann made most of her moves herself, so she ranks ahead of Bob, who left:
    his leaving is still his loss."""
    table = await game.lobby([ANN, BOB], turn_timer=60, ruleset=Ruleset(threshold=200))
    await play_a_round(game, table)
    await game.service.seats.leave_game(table, BOB.id)
    for _ in range(50):
        # Ann's turn (an AI plays Bob's seat), or the wait for her once an AI took her
        # seat too.
        await eventually(lambda: waiting(table) or persons(table))
        if waiting(table):
            break
        stamp = table.stamp
        game.clock.advance(61)  # she misses it
        await eventually(lambda s=stamp: table.stamp != s)
    game.clock.advance(game.service.timing.away_wait)
    # The close tells the listener after any notice still going out (the turn ping).
    await eventually(lambda: ("closed", table.game_id, AWAY) in game.listener.notices)
    ranks = {c.seat: c.rank for c in await rated(game, table.game_id) if c.season == ALL_TIME}
    assert ranks == {0: 1, 1: 2}
    await rates_again_the_same(game, 1)


@pytest.mark.slow  # whole games rated, then rated again
async def test_a_game_every_person_left_rates_again_the_same(game: ServiceGame) -> None:
    await finish(game, await game.lobby([ANN, BOB], [Strength.HARD]))
    game.clock.advance(60)
    left = await game.lobby([ANN, BOB], [Strength.HARD, Strength.EASY])
    await play_a_round(game, left)
    await game.service.seats.kick(left, ANN.id, BOB.id, can_manage=False)
    await game.service.seats.leave_game(left, ANN.id)
    game.clock.advance(60)
    await finish(game, await game.lobby([ANN, CY], [Strength.HARD]))
    ranks = {c.seat: c.rank for c in await game.store.ratings.rating_changes(left.game_id)}
    # Bob, kicked while he played, is no leaver: his seat is ranked by its points.
    assert ranks[0] == 4 and {ranks[1], ranks[2], ranks[3]} <= {1, 2, 3}
    await rates_again_the_same(game, 3)


@pytest.mark.parametrize("cancels", [False, True], ids=["leaving", "cancelling"])
async def test_a_game_every_person_left_that_could_not_be_rated_is_rated_at_the_next_start(
    game: ServiceGame,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    cancels: bool,
) -> None:
    """Ann leaves, or cancels as the only person playing (``cancel_alone``)."""
    ratings_fail(game, monkeypatch, "database down")
    table = await game.lobby([ANN], [Strength.NORMAL])
    await play_a_round(game, table)
    with caplog.at_level(logging.WARNING, "bot.service.ratings"):
        if cancels:  # a host who may manage the server cancels as the host all the same
            await cancel_alone(game, table, ANN.id, can_manage=True)
        else:
            await game.service.seats.leave_game(table, ANN.id)
    assert table.status is Status.CANCELLED  # closed all the same
    assert "database down" in caplog.text
    monkeypatch.undo()
    assert await rated_at_the_next_start(game, table.game_id) == {0: 2, 1: 1}


# ------------------------------------------------------------------ cancelled by its last player


async def cancel_alone(game: ServiceGame, table: Table, user_id: int, **how: bool) -> list[int]:
    """``user_id`` cancels the running game; each seat's points then."""
    await game.service.lobbies.cancel(table, user_id, can_manage=how.get("can_manage", False))
    assert table.status is Status.CANCELLED and table.match is not None
    assert ("closed", table.game_id, "closed.cancelled") in game.listener.notices
    return list(table.match.points)


async def rated_last_against_two_ais(game: ServiceGame, table: Table, points: list[int]) -> None:
    """Ann (seat 0) went from a game against two AI seats: she is rated last in its
    season and all time, whatever her points, the AIs by theirs (equal ones sharing),
    and what she lost, they won."""
    changes = await rated(game, table.game_id)
    season = season_at([], game.clock.now).key
    assert {c.season for c in changes} == {season, ALL_TIME}
    for scope in (season, ALL_TIME):
        ranks = {c.seat: c.rank for c in changes if c.season == scope}
        assert ranks == {0: 3, **ranked_by_points(points, (1, 2))}
    ann = next(c for c in changes if c.seat == 0 and c.season == season)
    assert ann.mu_after < ann.mu_before
    assert shown_change(ann.mu_before, ann.sigma_before, ann.mu_after, ann.sigma_after) < 0
    ais = [c for c in changes if c.ai is not None and c.season == season]
    assert sum(c.mu_after - c.mu_before for c in ais) > 0


async def test_a_host_cancelling_a_game_against_ais_is_rated_last(game: ServiceGame) -> None:
    table = await game.lobby([ANN], [Strength.EASY, Strength.HARD])
    await play_a_round(game, table)
    # Ann cancels as if she had left: nobody won.
    await rated_last_against_two_ais(game, table, await cancel_alone(game, table, ANN.id))
    # The closing write notes her leaving, so a recomputation rates it alike; the table
    # rebuilt from the store (its end shown after a restart) lists no line of it, as the
    # running one doesn't: it says the host cancelled it.
    stored = await game.store.games.load_game(table.game_id)
    assert stored is not None and stored.finished_at is not None
    assert stored.end_reason == "closed.cancelled"
    assert stored.notes[-1] == SeatNote(len(stored.events), 0, "cancelled")
    assert list(table_from_record(stored).recent) == list(table.recent)
    assert table_from_record(stored).end_reason == "closed.cancelled"
    assert await game.store.stats.player_stats(GUILD, ANN.id, sight=EVERYTHING) is None
    # The others of a game of people left her alone with an AI: her cancel is her loss
    # too, beside theirs.
    game.clock.advance(60)
    left = await game.lobby([ANN, BOB], [Strength.EASY])
    await play_a_round(game, left)
    await game.service.seats.leave_game(left, BOB.id)
    await cancel_alone(game, left, ANN.id)
    ranks = {c.seat: c.rank for c in await rated(game, left.game_id) if c.season == ALL_TIME}
    assert ranks == {0: 2, 1: 2, 2: 1}
    await rates_again_the_same(game, 2)


async def test_a_cancel_before_the_cancellers_first_move_stays_unrated(
    game: ServiceGame,
) -> None:
    """Ann started a game against AIs with the wrong rules and cancels it at once, before
    she made a move of her own: nothing of hers was played to lose, so it isn't rated."""
    table = await game.lobby([ANN], [Strength.EASY])
    await persons_turn(table)  # the AI may have moved first; Ann has not
    await cancel_alone(game, table, ANN.id)
    assert (await game.service.rater.rate_all()).games == 0
    assert snapshot(Path(game.store.path)) == {name: [] for name in TABLES}
    stored = await game.store.games.load_game(table.game_id)
    assert stored is not None and stored.finished_at is None and stored.notes == ()


async def test_a_cancelled_lobby_or_game_only_leavers_would_rank_in_stays_unrated(
    game: ServiceGame,
) -> None:
    """A lobby cancelled is not rated, nor a game whose canceller would rank with the
    others who left (nobody to rank ahead of them). A cancel once others moved is:
    tests/service/test_kicks_and_cancels.py."""
    lobby = await game.lobby([ANN], [Strength.EASY], start=False)
    await game.service.lobbies.cancel(lobby, ANN.id, can_manage=False)
    people = await game.lobby([ANN, BOB])
    await play_a_round(game, people)
    await game.service.seats.leave_game(people, BOB.id)
    await cancel_alone(game, people, ANN.id)
    assert (await game.service.rater.rate_all()).games == 0
    assert snapshot(Path(game.store.path)) == {name: [] for name in TABLES}
    assert (await game.service.rater.rerate_every()).games == 0
    stored = await game.store.games.load_game(people.game_id)
    assert stored is not None and stored.finished_at is None
    assert [n.kind for n in stored.notes] == ["left"]


async def test_a_host_who_left_cancelling_before_the_game_is_ended_is_still_rated_last(
    game: ServiceGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann, alone against an AI, leaves while the store fails the game's end (the clock
    tries again); she is still its host, and cancels it before the clock's next try: the
    game nobody plays any more ends as abandoned all the same, her loss, not a cancel
    that dodges it."""
    table = await game.lobby([ANN], [Strength.NORMAL])
    await play_a_round(game, table)
    real = game.store.games.set_status

    async def broken(*args: object, **kwargs: object) -> None:
        raise StoreError("disk full")

    monkeypatch.setattr(game.store.games, "set_status", broken)
    await game.service.seats.leave_game(table, ANN.id)  # done, though not yet closed
    assert table.status is Status.RUNNING and table.host_id == ANN.id
    monkeypatch.setattr(game.store.games, "set_status", real)
    await game.service.lobbies.cancel(table, ANN.id, can_manage=False)
    assert table.status is Status.CANCELLED
    assert ("closed", table.game_id, "closed.abandoned") in game.listener.notices
    ranks = {c.seat: c.rank for c in await rated(game, table.game_id) if c.season == ALL_TIME}
    assert ranks == {0: 2, 1: 1}
    assert table.rating_changes.get(0, 0) < 0  # the answer to her cancel says so
    await rates_again_the_same(game, 1)


# ------------------------------------------------------------------ a game that stalled


def persons(table: Table) -> bool:
    """Whether it is a person's turn (not an AI's, and the game not over)."""
    seat = table.to_move
    return seat is not None and table.seats[seat].controller is None


async def persons_turn(table: Table) -> int:
    """The seat to move once it is a person's (the AIs' moves made), whose clock is set."""

    await eventually(lambda: persons(table))
    assert table.to_move is not None
    return table.to_move


async def stall(game: ServiceGame, table: Table) -> int:
    """Once it is a person's turn, nobody moves for Timing.game_idle: the game ends as
    idle. The seat that was to move."""
    seat = await persons_turn(table)
    game.clock.advance(game.service.timing.game_idle + 1)
    # The close tells the listener after any notice still going out: wait for it too.
    await eventually(lambda: ("closed", table.game_id, IDLE_GAME) in game.listener.notices)
    assert table.status is Status.CANCELLED
    return seat


def ranked_by_points(points: Sequence[int], seats: Sequence[int]) -> dict[int, int]:
    """The ranks of ``seats`` by their points among themselves, fewer is better."""
    return {s: 1 + sum(points[o] < points[s] for o in seats) for s in seats}


def test_a_stalled_game_ranks_the_others_by_points_and_its_staller_with_the_leavers() -> None:
    match = one_round(4)
    points = match.points
    seats = [person(0, 10), person(1, 11), person(2, 12), person(3, 13)]
    stalled = record(
        seats,
        status="cancelled",
        end_reason="closed.idle_game",
        events=tuple(match.events),
        notes=(SeatNote(3, 2, "kicked"), SeatNote(len(match.events), 0, "stalled")),
    )
    game = FinishedGame(stalled, points=(), winners=frozenset())
    assert leavers(stalled) == {0}  # seat 2 was kicked while it played: no leaver
    ranks = {s.seat: s.rank for s in standings(game)}
    assert ranks == {0: 4, **ranked_by_points(points, (1, 2, 3))}
    # Nobody but leavers to rank ahead of the staller: nobody is rated.
    alone = record(
        seats[:2],
        status="cancelled",
        end_reason="closed.idle_game",
        events=tuple(match.events[:1]),
        notes=(SeatNote(0, 1, "left"), SeatNote(1, 0, "stalled")),
    )
    assert standings(FinishedGame(alone, points=(), winners=frozenset())) == []


async def test_a_person_who_lets_a_game_stall_is_rated_last(game: ServiceGame) -> None:
    table = await game.lobby([ANN], [Strength.EASY, Strength.HARD])
    await play_a_round(game, table)
    assert await stall(game, table) == 0
    assert table.match is not None
    await rated_last_against_two_ais(game, table, list(table.match.points))
    # The stored game says who let it stall, so a recomputation rates it alike.
    stored = await game.store.games.load_game(table.game_id)
    assert stored is not None and stored.finished_at is not None
    assert stored.notes[-1] == SeatNote(len(stored.events), 0, "stalled")
    # The note is no move: the table rebuilt from the store (its end shown after a
    # restart) lists the lines the running one did.
    assert list(table_from_record(stored).recent) == list(table.recent)
    # Only the rating: it was cancelled, not finished, for the wins, averages and history.
    assert await game.store.stats.player_stats(GUILD, ANN.id, sight=EVERYTHING) is None
    assert await game.store.stats.history(GUILD, ANN.id, sight=EVERYTHING) == []


async def test_a_stalled_game_of_people_rates_the_others_by_points(game: ServiceGame) -> None:
    table = await game.lobby([ANN, BOB, CY])
    await play_a_round(game, table)
    staller = await stall(game, table)
    assert table.match is not None
    points = list(table.match.points)
    others = [s for s in range(3) if s != staller]
    changes = await rated(game, table.game_id)
    for scope in {c.season for c in changes}:
        ranks = {c.seat: c.rank for c in changes if c.season == scope}
        assert ranks == {staller: 3, **ranked_by_points(points, others)}
        last = next(c for c in changes if c.seat == staller and c.season == scope)
        assert last.mu_after < last.mu_before


async def test_a_stalled_game_with_only_leavers_beside_the_staller_stays_unrated(
    game: ServiceGame,
) -> None:
    table = await game.lobby([ANN, BOB])
    await play_a_round(game, table)
    await game.service.seats.leave_game(table, BOB.id)
    assert await stall(game, table) == 0
    assert (await game.service.rater.rate_all()).games == 0  # after the close's own try
    assert snapshot(Path(game.store.path)) == {name: [] for name in TABLES}
    assert (await game.service.rater.rerate_every()).games == 0
    stored = await game.store.games.load_game(table.game_id)
    assert stored is not None and stored.finished_at is None
    assert [n.kind for n in stored.notes] == ["left"]


@pytest.mark.slow  # whole games rated, then rated again
async def test_a_stalled_game_rates_again_the_same(game: ServiceGame) -> None:
    await finish(game, await game.lobby([ANN, BOB], [Strength.HARD]))
    game.clock.advance(60)
    stalled = await game.lobby([ANN, BOB, CY], [Strength.EASY])
    await play_a_round(game, stalled)
    await game.service.seats.kick(stalled, ANN.id, CY.id, can_manage=False)
    staller = await stall(game, stalled)
    ranks = {c.seat: c.rank for c in await rated(game, stalled.game_id)}
    # The staller last; Cy, kicked while he played, is no leaver.
    assert ranks[staller] == 4 and ranks[2] < 4 and staller in (0, 1)
    game.clock.advance(60)
    await finish(game, await game.lobby([ANN, CY], [Strength.HARD]))
    await rates_again_the_same(game, 3)


async def test_an_idle_game_whose_stored_moves_cannot_be_read_is_ended_once_they_can(
    game: ServiceGame, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Whose loss it is comes from the stored game: while the store can't read it, the
    game is not ended unrated but left running, and ended (and rated) at the next try."""
    table = await game.lobby([ANN], [Strength.NORMAL])

    async def unreadable(*args: object) -> None:
        raise StoreError("database busy")

    await persons_turn(table)
    monkeypatch.setattr(game.store.games, "load_game", unreadable)
    with caplog.at_level(logging.WARNING, "bot.service.saver"):
        game.clock.advance(game.service.timing.game_idle + 1)
        await eventually(lambda: "database busy" in caplog.text)
    assert table.status is Status.RUNNING
    monkeypatch.undo()
    game.clock.advance(game.service.timing.save_retry)
    await eventually(lambda: table.status is Status.CANCELLED)
    ranks = {c.seat: c.rank for c in await rated(game, table.game_id)}
    assert ranks == {0: 2, 1: 1}


async def test_a_stalled_game_that_could_not_be_rated_is_rated_at_the_next_start(
    game: ServiceGame, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    ratings_fail(game, monkeypatch, "database down")
    table = await game.lobby([ANN], [Strength.NORMAL])
    with caplog.at_level(logging.WARNING, "bot.service.ratings"):
        await stall(game, table)
        await eventually(lambda: "database down" in caplog.text)
    await game.service.close()  # the bot stops: what is left of the close's try with it
    monkeypatch.undo()
    assert await rated_at_the_next_start(game, table.game_id) == {0: 2, 1: 1}


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_game_finishing_while_a_new_season_is_saved_counts_for_that_season(
    game: ServiceGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An admin starts a new season now while a game is finishing, after that start: the
    game counts for the new season.  The save is slow (a busy database) and the rater
    asks for the plans meanwhile, if it may: it must not rate with the plans from
    before the new one."""
    table = await game.lobby([ANN], [Strength.NORMAL])
    store = game.store
    saving, read_while_saving = asyncio.Event(), asyncio.Event()
    read_plans, add_plan = store.ratings.season_plans, store.rating_writes.add_season_plan

    async def reading(guild_id: int) -> list[SeasonPlan]:
        plans = await read_plans(guild_id)
        if saving.is_set():
            read_while_saving.set()
        return plans

    async def slow_save(guild_id: int, plan: SeasonPlan) -> None:
        saving.set()
        with contextlib.suppress(TimeoutError):  # a while: the rater may be kept waiting
            await asyncio.wait_for(read_while_saving.wait(), 0.5)
        await add_plan(guild_id, plan)

    async def finishing() -> None:
        await saving.wait()
        game.clock.advance(5)  # past the new season's start
        await finish(game, table)

    monkeypatch.setattr(store.ratings, "season_plans", reading)
    monkeypatch.setattr(store.rating_writes, "add_season_plan", slow_save)
    season, _ = await asyncio.gather(
        game.service.seasons.set(GUILD, days=None, start_now=True), finishing()
    )
    assert season.start <= game.clock.now
    changes = await store.ratings.rating_changes(table.game_id)
    assert {c.season for c in changes} == {season.key, ALL_TIME}
    assert await store.ratings.rated_seasons(GUILD) == [season.key]


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_game_ending_before_its_server_is_caught_up_shows_the_change_it_keeps(
    game: ServiceGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first start after the upgrade finds, in server 2, a game every person left
    before it that ended before its latest rated game: that server is rated again. A
    game finishing there while the catch-up is still busy with server 1 is rated after
    it, in order, so its table shows the change the games keep."""
    left = await game.lobby([ANN], [Strength.HARD], guild_id=2)
    await play_a_round(game, left)
    await game.service.seats.leave_game(left, ANN.id)
    game.clock.advance(60)
    await finish(game, await game.lobby([ANN, BOB], guild_id=2))
    path = Path(game.store.path)
    # As the version before left them: the game Ann left unrated, the other one rated.
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET finished_at = NULL WHERE id = ?", (left.game_id,))
    await game.service.rater.rerate_every()
    with sqlite3.connect(path) as db:  # migration 0019
        db.execute("UPDATE games SET finished_at = updated_at WHERE id = ?", (left.game_id,))

    async def later(table: Table) -> None:
        return None

    monkeypatch.setattr(game.service.moves, "_rate", later)
    await finish(game, await game.lobby([BOB, CY], guild_id=1))  # server 1's backlog
    monkeypatch.undo()
    backlog = asyncio.Event()
    save = game.store.rating_writes.save_ratings

    async def held(ratings: Sequence[Any]) -> None:
        if any(rating.guild_id == 1 for rating in ratings):
            await backlog.wait()
        await save(ratings)

    monkeypatch.setattr(game.store.rating_writes, "save_ratings", held)
    try:
        await game.service.resume()  # the start: the catch-up begins with server 1
        game.clock.advance(60)
        last = await finish(game, await game.lobby([ANN, CY], guild_id=2))
        backlog.set()
        await asyncio.wait_for(game.service.rater.caught_up(), timeout=10)
    finally:
        backlog.set()
    changes = await game.store.ratings.rating_changes(last.game_id)
    kept = {
        c.seat: shown_change(c.mu_before, c.sigma_before, c.mu_after, c.sigma_after)
        for c in changes
        if c.season != ALL_TIME
    }
    assert last.rating_changes == kept
    await rates_again_the_same(game, 4)
