"""What reviews cost the other tables: Hard moves and hints while one user asks for many reviews.

    python -m benchmarks.ai_load                      # idle, 20 and 60 reviews, 20 people
    python -m benchmarks.ai_load --seconds 20 --reviews 20 60 --workers 1
    python -m benchmarks.ai_load --out benchmarks/results/ai_load.txt

A store is filled with finished two-player games (two people playing Normal's
moves, 150 decisions or so each to review).  A service's AI pool
(``bot.service.thinking``, ``--workers``, 1 by default: the bot's default on
two cores) and hint desk (``bot.service.thinking.hints``) answer the requests, the way
the bot does.  In each scenario, for ``--seconds``:

* another table's Hard seat asks for its move, again and again, 0.2 s apart
  (positions of 4-player games, the workers warmed up first);
* another player asks for a hint every 0.5 s (``Thinking.hint``, as the Hint
  button: today's work at least, more while no move waits, up to
  ``Timing.hint_time``);
* a ticker on the event loop sleeps 1 ms at a time and records how late it
  wakes: the loop's *stall*.

The scenarios: idle; one user pressing Review on 20 (or ``--reviews``) of
their finished games at once; 20 people each reviewing one game at once; and one
person playing against Hard seats at 20 (``--hogs``) tables at once, each of
their Hard seats asking for its next move as soon as it has the last (the probe's
Hard move is another person's table: each person's share of the pool is fair).
Each review may think for ``Timing.review_budget``; reviews still going when
the scenario ends are cut short.  Printed (and written to ``--out``): Hard-move
p50/p95, hint p50/p95, the hints' work as a share of today's for the same
views (the estimates' determinizations: Hard's decision stays at today's), the
worst stall, and the reviews refused.  Goals:
Hard-move p95 under load within 1.5x of idle, hint p95 within 2x, no stall
over 20 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.ai_latency import collect, percentile
from benchmarks.results import write_rows
from bot.service import Person, ServiceError, Timing
from bot.service.play.registry import TableRegistry
from bot.service.thinking.hints import HintDesk
from bot.service.thinking.pool import Thinking
from game import Ruleset, SeatView
from game.ai import Strength
from game.ai.advice import think_advice
from testkit.service_game import GUILD, ServiceGame

ANN = Person(101, "Ann")
#: Who plays against Hard seats at many tables at once, and whose table is probed.
HOG, PROBE = Person(102, "Hog"), Person(103, "Probe")
MOVE_GAP = 0.2
HINT_GAP = 0.5


async def finished_games(game: ServiceGame, count: int) -> list[tuple[int, int]]:
    """``count`` finished games of Ann against a different person each: (game, that person)."""
    games = []
    for i in range(count):
        other = Person(500 + i, f"P{i}")
        table = await game.lobby([ANN, other])
        await game.play_out(table, timeout=120)
        games.append((table.game_id, other.id))
    return games


async def scenario(
    thinking: Thinking,
    desk: HintDesk,
    asks: list[tuple[int, int]],
    moves: list[tuple[SeatView, int]],
    hints: list[tuple[SeatView, int]],
    seconds: float,
    hogs: int = 0,
) -> dict[str, float]:
    """Probe moves, hints and the loop for ``seconds`` while ``asks`` (game, user) are reviewed."""
    move_ms: list[float] = []
    hint_ms: list[float] = []
    hint_work = [0, 0]  # the hints' determinizations, and today's for the same views
    stalls: list[float] = []
    refused = 0
    stop = time.perf_counter() + seconds

    async def review(game_id: int, user_id: int) -> None:
        nonlocal refused
        try:
            await desk.review(game_id, user_id, guild_id=GUILD)
        except ServiceError:
            refused += 1

    async def ticker() -> None:
        while time.perf_counter() < stop:
            t0 = time.perf_counter()
            await asyncio.sleep(0.001)
            stalls.append(max(0.0, (time.perf_counter() - t0) * 1000 - 1.0))

    async def mover() -> None:
        for view, seed in itertools.cycle(moves):
            if time.perf_counter() >= stop:
                return
            t0 = time.perf_counter()
            await thinking.decide(view, Strength.HARD, seed, owner=PROBE.id)
            move_ms.append((time.perf_counter() - t0) * 1000)
            await asyncio.sleep(MOVE_GAP)

    async def hinter() -> None:
        await asyncio.sleep(HINT_GAP / 3)  # out of step with the moves
        for view, today in itertools.cycle(hints):
            if time.perf_counter() >= stop:
                return
            t0 = time.perf_counter()
            _, done = await thinking.hint(
                view, time.monotonic() + Timing().hint_time, owner=PROBE.id
            )
            hint_ms.append((time.perf_counter() - t0) * 1000)
            hint_work[0] += done
            hint_work[1] += today
            await asyncio.sleep(HINT_GAP)

    async def hog(table: int) -> None:
        """One of the hog's tables: its Hard seats move back to back."""
        for view, seed in itertools.cycle(moves[table:] + moves[:table]):
            if time.perf_counter() >= stop:
                return
            await thinking.decide(view, Strength.HARD, seed, owner=HOG.id)

    reviews = [asyncio.create_task(review(g, u)) for g, u in asks]
    hogging = [asyncio.create_task(hog(n)) for n in range(hogs)]
    await asyncio.gather(ticker(), mover(), hinter())
    for task in reviews:
        task.cancel()
    await asyncio.gather(*reviews, *hogging, return_exceptions=True)
    move_ms.sort()
    hint_ms.sort()
    return {
        "moves": len(move_ms),
        "move_p50": percentile(move_ms, 50),
        "move_p95": percentile(move_ms, 95),
        "hints": len(hint_ms),
        "hint_p50": percentile(hint_ms, 50),
        "hint_p95": percentile(hint_ms, 95),
        "hint_work": hint_work[0] / max(1, hint_work[1]),
        "stall_max": max(stalls),
        "stall_p99": percentile(sorted(stalls), 99),
        "refused": refused,
        "asked": len(asks),
    }


async def run(args: argparse.Namespace) -> list[str]:
    moves = collect(4, 60, Ruleset(), prefix="load")
    # Each hint view with today's work for it (the floor: as if a move always waited).
    hints = [
        (view, think_advice(view, lambda search: False)[1])
        for view, _ in collect(4, 30, Ruleset(), prefix="load-hints")
    ]
    most = max([*args.reviews, args.people, 1])
    with tempfile.TemporaryDirectory() as folder:
        game = await ServiceGame.open(Path(folder) / "load.db")
        try:
            print(f"playing {most} finished games to review...", flush=True)
            games = await finished_games(game, most)
            plans: list[tuple[str, list[tuple[int, int]], int]] = [("idle", [], 0)]
            for n in args.reviews:
                plans.append((f"one user, {n} reviews", [(g, ANN.id) for g, _ in games[:n]], 0))
            if args.people:
                plans.append(
                    (f"{args.people} people, a review each", list(games[: args.people]), 0)
                )
            if args.hogs:
                plans.append((f"one person, {args.hogs} tables of Hard seats", [], args.hogs))
            rows = [
                f"AI_WORKERS={args.workers}, {args.seconds:g} s a scenario, Hard move every "
                f"{MOVE_GAP} s, hint every {HINT_GAP} s",
                "",
                "| load | Hard moves | move p50 | move p95 | hints | hint p50 | hint p95 "
                "| hint work, x today's | loop stall p99 | loop stall max | reviews refused |",
                "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
            ]
            print("\n".join(rows), flush=True)
            for label, asks, hogs in plans:
                thinking = Thinking(args.workers)
                await thinking.start()
                # Warm the workers' memos, as a running bot's are.
                for view, seed in moves[:30]:
                    await thinking.decide(view, Strength.HARD, seed)
                desk = HintDesk(TableRegistry(), game.store, thinking)
                try:
                    got = await scenario(
                        thinking, desk, asks, moves, hints, args.seconds, hogs=hogs
                    )
                finally:
                    await desk.close()
                    await thinking.close()
                row = (
                    f"| {label} | {got['moves']:.0f} | {got['move_p50']:.0f} ms "
                    f"| {got['move_p95']:.0f} ms | {got['hints']:.0f} | {got['hint_p50']:.0f} ms "
                    f"| {got['hint_p95']:.0f} ms | {got['hint_work']:.2f}x "
                    f"| {got['stall_p99']:.1f} ms "
                    f"| {got['stall_max']:.1f} ms | {got['refused']:.0f} of {got['asked']:.0f} |"
                )
                print(row, flush=True)
                rows.append(row)
        finally:
            await game.close()
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--workers", type=int, default=1, help="AI worker processes")
    parser.add_argument("--seconds", type=float, default=15.0, help="of each scenario")
    parser.add_argument("--reviews", type=int, nargs="*", default=[20, 60])
    parser.add_argument("--people", type=int, default=20, help="people reviewing one game each")
    parser.add_argument("--hogs", type=int, default=20, help="one person's tables of Hard seats")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/ai_load.txt"))
    args = parser.parse_args(argv)
    rows = asyncio.run(run(args))
    write_rows(args.out, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
