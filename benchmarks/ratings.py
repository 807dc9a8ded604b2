"""Ratings benchmark: one finished game rated, 100,000 stored games rated afresh, a board page.

Run from the repository root::

    python -m benchmarks.ratings [--games 100000] [--players 5000] [--single 2000]
                                 [--pages 300] [--rounds 1]
                                 [--postgres postgresql://user:pw@host/empty_db]

In a temporary folder (``--dir`` picks where), then on the empty PostgreSQL database of
``--postgres`` if given:

1. the rating math of one finished four-seat game (openskill's Plackett-Luce, both
   scopes: :func:`bot.service.ratings.rate_game`), p50/p95 over ``--single`` games, and
   the same through the store as the service does it when a game finishes (the game
   read, the players' ratings read, the one write transaction: ``Rater.rate_new``);
2. ``--games`` finished games of one server among ``--players`` people (a quarter of the
   games with an AI seat), each with the events of a real random game, rated from
   scratch (``Rater.rerate``, what ``python -m bot rerate`` runs);
3. a page (10 rows) of the server's board in the current season and over all time,
   p95 over ``--pages`` pages at random offsets, without and with a sight (a viewer
   and two hidden channels, as /lama leaderboard asks), and the same page with the
   board's size in one read, as /lama leaderboard reads it; ``--rounds`` times, as one
   round on a shared machine can be noisy.

The games are written straight into the tables, many per transaction (the way the
service saves them would take hours for 100,000 games); what is measured goes through
the store's public methods only.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.store import choose
from bot.service.ratings.rater import Rater, rate_game
from bot.service.ratings.seasons import season_at
from data import EVERYTHING, Store
from data.codec import dumps
from data.records import (
    ALL_TIME,
    FinishedGame,
    SeatRecord,
    Sight,
    Skill,
)
from game import Event, Match, Ruleset
from testkit.records import finished_record

GUILD = 7
SEATS = 4
#: Games written per transaction while filling the database.
CHUNK = 500
#: The first game finishes here (2026-09-01 UTC); one every ``SPACING`` seconds after it.
START = 1_788_220_800.0
SPACING = 90.0
CHANNELS = 40


@dataclass(frozen=True, slots=True)
class Played:
    """A real random game: its events, each seat's final points and the winners."""

    events: tuple[Event, ...]
    points: tuple[int, ...]
    winners: frozenset[int]


def play(rng: random.Random) -> Played:
    match = Match(Ruleset(), SEATS)
    match.deal(rng.randrange(1 << 30))
    while not match.over:
        seat = match.to_move
        assert seat is not None
        match.apply(seat, choose(match, rng))
        if match.awaiting_deal:
            match.deal(rng.randrange(1 << 30))
    totals = tuple(match.results[-1].seats[s].total for s in range(SEATS))
    low = min(totals)
    return Played(
        tuple(match.events), totals, frozenset(s for s in range(SEATS) if totals[s] == low)
    )


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def seats_of(rng: random.Random, players: int) -> list[SeatRecord]:
    people = rng.sample(range(players), SEATS)
    seats = [SeatRecord(s, 10_000 + p, None, f"Player {p}") for s, p in enumerate(people)]
    if rng.random() < 0.25:
        strength = rng.choice(("easy", "normal", "hard"))
        seats[rng.randrange(SEATS)] = SeatRecord(0, None, strength, "AI 1")
        seats = [SeatRecord(i, s.user_id, s.ai, s.name) for i, s in enumerate(seats)]
    return seats


async def fill(store: Store, games: int, players: int, templates: list[Played]) -> None:
    """``games`` finished games of one server, written many per transaction."""
    rng = random.Random(5)
    ruleset = dumps(Ruleset().to_json())
    for first in range(1, games + 1, CHUNK):
        ids = range(first, min(games, first + CHUNK - 1) + 1)
        rows, seats, events, results = [], [], [], []
        for game_id in ids:
            at = START + game_id * SPACING
            played = templates[game_id % len(templates)]
            rows.append((game_id, GUILD, 900 + game_id % CHANNELS, 1, ruleset, at - 600, at, at))
            for s in seats_of(rng, players):
                seats.append((game_id, s.seat, s.user_id, s.ai, s.name))
                place = 1 + sum(p < played.points[s.seat] for p in played.points)
                winner = int(s.seat in played.winners)
                results.append((game_id, s.seat, played.points[s.seat], winner, place))
            for seq, event in enumerate(played.events):
                events.append((game_id, seq, event.kind, dumps(event.to_json()), at))
        async with store._db.write() as unit:  # the filling only: see the docstring
            await unit.executemany(
                """INSERT INTO games (id, guild_id, channel_id, host_id, ruleset, status,
                                      created_at, updated_at, finished_at)
                   VALUES (?, ?, ?, ?, ?, 'finished', ?, ?, ?)""",
                rows,
            )
            await unit.executemany(
                "INSERT INTO seats (game_id, seat, user_id, ai, name) VALUES (?, ?, ?, ?, ?)",
                seats,
            )
            await unit.executemany(
                """INSERT INTO events (game_id, seq, kind, payload, created_at)
                   VALUES (?, ?, ?, ?, ?)""",
                events,
            )
            await unit.executemany(
                """INSERT INTO game_results (game_id, seat, points, winner, place)
                   VALUES (?, ?, ?, ?, ?)""",
                results,
            )
    if store._db.dialect == "postgres":  # the ids were given: move the sequence past them
        async with store._db.write() as unit:
            await unit.execute(
                "SELECT setval(pg_get_serial_sequence('games', 'id'), (SELECT MAX(id) FROM games))"
            )


def single_math(templates: list[Played], count: int, players: int) -> list[float]:
    """Seconds of the rating math of one game each, the players rated before."""
    rng = random.Random(9)
    samples = []
    for n in range(count):
        played = templates[n % len(templates)]
        seats = tuple(seats_of(rng, players))
        record = finished_record(seats, played.events, id=n, guild_id=GUILD, finished_at=START)
        game = FinishedGame(record, played.points, played.winners)
        skills = {
            (scope, f"user:{s.user_id}" if s.user_id else f"ai:{s.ai}"): Skill(
                rng.uniform(15, 35), rng.uniform(1, 8), 20
            )
            for s in seats
            for scope in (1, ALL_TIME)
        }
        started = time.perf_counter()
        rate_game(game, 1, skills)
        samples.append(time.perf_counter() - started)
    return samples


async def single_stored(
    target: str, templates: list[Played], count: int, players: int
) -> list[float]:
    """Seconds to rate one just-finished game through the store, as the service does."""
    store = await Store.open(target)
    try:
        rater = Rater(store)
        samples = []
        for n in range(count):
            await fill_one(store, n + 1, templates, players)
            started = time.perf_counter()
            rated = await rater.rate_new(GUILD)
            samples.append(time.perf_counter() - started)
            assert len(rated) == 1
        return samples
    finally:
        await store.close()


async def fill_one(store: Store, game_id: int, templates: list[Played], players: int) -> None:
    rng = random.Random(game_id)
    played = templates[game_id % len(templates)]
    seats = seats_of(rng, players)
    at = START + game_id * SPACING
    ruleset = dumps(Ruleset().to_json())
    async with store._db.write() as unit:
        await unit.execute(
            """INSERT INTO games (id, guild_id, channel_id, host_id, ruleset, status,
                                  created_at, updated_at, finished_at)
               VALUES (?, ?, ?, ?, ?, 'finished', ?, ?, ?)""",
            (game_id, GUILD, 900, 1, ruleset, at - 600, at, at),
        )
        await unit.executemany(
            "INSERT INTO seats (game_id, seat, user_id, ai, name) VALUES (?, ?, ?, ?, ?)",
            [(game_id, s.seat, s.user_id, s.ai, s.name) for s in seats],
        )
        await unit.executemany(
            "INSERT INTO events (game_id, seq, kind, payload, created_at) VALUES (?, ?, ?, ?, ?)",
            [(game_id, seq, e.kind, dumps(e.to_json()), at) for seq, e in enumerate(played.events)],
        )
        await unit.executemany(
            """INSERT INTO game_results (game_id, seat, points, winner, place)
               VALUES (?, ?, ?, ?, 1)""",
            [(game_id, s, played.points[s], int(s in played.winners)) for s in range(SEATS)],
        )


async def boards(store: Store, pages: int, season: int) -> dict[str, list[float]]:
    rng = random.Random(11)
    sight = Sight(viewer=10_003, hidden=frozenset({900, 901}))
    out: dict[str, list[float]] = {}
    for name, scope, seen in (
        ("season", season, EVERYTHING),
        ("all time", ALL_TIME, EVERYTHING),
        ("season, with a sight", season, sight),
        ("all time, with a sight", ALL_TIME, sight),
    ):
        total = (await store.ratings.rating_page(GUILD, scope, sight=seen)).total
        samples, both = [], []
        for _ in range(pages):
            offset = rng.randrange(max(1, total - 10)) // 10 * 10
            started = time.perf_counter()
            rows = await store.ratings.rating_board(
                GUILD, scope, limit=10, offset=offset, sight=seen
            )
            samples.append(time.perf_counter() - started)
            assert rows
            # What /lama leaderboard reads for a page: the rows with the board's size.
            started = time.perf_counter()
            page = await store.ratings.rating_page(
                GUILD, scope, page=offset // 10, size=10, sight=seen
            )
            both.append(time.perf_counter() - started)
            assert page.rows == rows
        out[f"{name} ({total} rated)"] = samples
        out[f"{name}, with its count as /lama leaderboard reads it"] = both
    return out


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


async def backend(
    name: str, target: str, args: argparse.Namespace, templates: list[Played]
) -> None:
    print(f"\n== {name}")
    one = await single_stored(target, templates, 300, args.players)
    print(
        f"rate one finished game through the store (read, rate, one write; 300 games): "
        f"p50 {ms(statistics.median(one))}, p95 {ms(percentile(one, 0.95))}"
    )
    # The single games were another server's worth: start the big one afresh.
    store = await Store.open(target, durable=False)
    try:
        async with store._db.write() as unit:
            for table in ("rating_changes", "ratings", "rated_games", "games"):
                await unit.execute(f"DELETE FROM {table}")
        started = time.perf_counter()
        await fill(store, args.games, args.players, templates)
        print(f"filled {args.games} finished games in {time.perf_counter() - started:.1f} s")
    finally:
        await store.close()
    store = await Store.open(target)
    try:
        rater = Rater(store)
        started = time.perf_counter()
        rated = await rater.rerate(GUILD)
        elapsed = time.perf_counter() - started
        assert rated == args.games, rated
        print(
            f"rate {rated} stored games from scratch: {elapsed:.1f} s "
            f"({rated / elapsed:.0f} games/s, {elapsed / rated * 1000:.2f} ms a game)"
        )
        season = season_at([], START + args.games * SPACING).key
        # On a shared machine one round can be noisy: --rounds measures the pages again.
        for round_no in range(1, args.rounds + 1):
            print(f"board pages, round {round_no}: load average {os.getloadavg()[0]:.2f}")
            for label, samples in (await boards(store, args.pages, season)).items():
                print(
                    f"board page, {label}: p50 {ms(statistics.median(samples))}, "
                    f"p95 {ms(percentile(samples, 0.95))}"
                )
    finally:
        await store.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=5_000)
    parser.add_argument("--single", type=int, default=2_000)
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=1, help="times to measure the pages")
    parser.add_argument("--templates", type=int, default=200)
    parser.add_argument("--postgres", help="an empty PostgreSQL database's URL")
    parser.add_argument("--dir", type=Path, help="the folder of the SQLite file")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    rng = random.Random(3)
    templates = [play(rng) for _ in range(args.templates)]
    events = statistics.mean(len(t.events) for t in templates)
    print(f"{args.templates} random four-seat games as templates, {events:.0f} events each")
    math = single_math(templates, args.single, args.players)
    print(
        f"rating math of one finished game (4 seats, both scopes; {args.single} games): "
        f"p50 {ms(statistics.median(math))}, p95 {ms(percentile(math, 0.95))}"
    )
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        await backend("SQLite", str(Path(folder) / "ratings.db"), args, templates)
    if args.postgres:
        await backend("PostgreSQL", args.postgres, args, templates)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    asyncio.run(main())
