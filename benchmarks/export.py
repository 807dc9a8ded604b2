"""Export benchmark: /lama export's CSV of a server with 100,000 finished games, on SQLite.

Run from the repository root::

    python -m benchmarks.export [--games 100000] [--seats 4] [--rated 0.5] [--page 500]

The games (each with its seats, results and, for a share ``--rated`` of them, the
rating rows of their season and of all time) are written straight into a fresh SQLite
file in a temporary folder, the way the store keeps them; then the export is built with
Discord's real 10 MiB cap, as ``/lama export`` builds it.  Printed: the time to the file,
the games and bytes in it, and the longest the event loop went without running
(a ticker every 5 ms), since the export must not hold up the tables.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import tempfile
import time
from contextlib import closing
from pathlib import Path

from bot.service.history.export import MAX_BYTES, export_csv
from data import EVERYTHING, Store
from data.export import EXPORT_PAGE
from game import Ruleset

GUILD = 1234


def fill(path: Path, games: int, seats: int, rated: float, rng: random.Random) -> None:
    """``games`` finished games of one server, written in one transaction."""
    ruleset = json.dumps(Ruleset().to_json())
    with closing(sqlite3.connect(path)) as raw:
        raw.execute("BEGIN")
        for game_id in range(1, games + 1):
            at = 1_700_000_000.0 + game_id * 60
            raw.execute(
                """INSERT INTO games (id, guild_id, channel_id, host_id, ruleset, status,
                       created_at, updated_at, finished_at)
                   VALUES (?, ?, ?, 1, ?, 'finished', ?, ?, ?)""",
                (game_id, GUILD, 100 + game_id % 7, ruleset, at - 600, at, at),
            )
            points = [rng.randrange(0, 60) for _ in range(seats)]
            low = min(points)
            for seat in range(seats):
                person = seat % 2 == 0
                user = 10**17 + (game_id * 7 + seat) % 5000 if person else None
                raw.execute(
                    "INSERT INTO seats (game_id, seat, user_id, ai, name) VALUES (?, ?, ?, ?, ?)",
                    (game_id, seat, user, None if person else "hard", f"Player {seat}"),
                )
                raw.execute(
                    "INSERT INTO game_results VALUES (?, ?, ?, ?, ?)",
                    (
                        game_id,
                        seat,
                        points[seat],
                        int(points[seat] == low),
                        1 + sum(p < points[seat] for p in points),
                    ),
                )
            if rng.random() < rated:
                season = 1_700_000_000
                raw.execute(
                    "INSERT INTO rated_games VALUES (?, ?, ?, ?)", (game_id, GUILD, at, season)
                )
                for seat in range(seats):
                    for scope in (season, -1):
                        raw.execute(
                            """INSERT INTO rating_changes SELECT ?, ?, ?, ?, ?, channel_id,
                                      ?, ?, ?, ?, ? FROM games WHERE id = ?""",
                            (game_id, seat, scope, GUILD, f"p:{seat}", seat + 1)
                            + (25.0, 8.0, 25.5, 7.9, game_id),
                        )
        raw.execute("COMMIT")


async def export_once(path: Path, page: int) -> tuple[float, float, int, int, int]:
    """Seconds to the file, the longest loop stall, games in it, games in all, bytes."""
    store = await Store.open(path, durable=False)
    stall = 0.0
    running = True

    async def ticker() -> None:
        nonlocal stall
        last = time.perf_counter()
        while running:
            await asyncio.sleep(0.005)
            now = time.perf_counter()
            stall = max(stall, now - last - 0.005)
            last = now

    try:
        tick = asyncio.create_task(ticker())
        await asyncio.sleep(0.05)
        start = time.perf_counter()
        export = await export_csv(store.export, GUILD, sight=EVERYTHING, cap=MAX_BYTES, page=page)
        took = time.perf_counter() - start
        running = False
        await tick
    finally:
        await store.close()
    return took, stall, export.games, export.total, len(export.data)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--rated", type=float, default=0.5)
    parser.add_argument("--page", type=int, default=EXPORT_PAGE, help="games a read")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "lama.db"
        await (await Store.open(path, durable=False)).close()  # the schema
        start = time.perf_counter()
        fill(path, args.games, args.seats, args.rated, random.Random(1))
        print(f"wrote {args.games:,} finished games in {time.perf_counter() - start:.1f} s")
        for run in (1, 2):
            took, stall, games, total, size = await export_once(path, args.page)
            print(
                f"run {run}: {took:.2f} s to the file: {games:,} of {total:,} games, "
                f"{size / 2**20:.2f} MiB; longest event-loop stall {stall * 1000:.1f} ms"
            )


if __name__ == "__main__":
    asyncio.run(main())
