"""How long a Hard decision takes, and what Hard's thinking costs the event loop.

    python -m benchmarks.ai_latency                       # 2, 4 and 6 players, 300 decisions each
    python -m benchmarks.ai_latency --decisions 1000 --players 4 --concurrent 1 4 16

Positions are collected first: whole games (base rules unless variants are
given) with one Hard seat against Normal players, recording every view in
which the Hard seat has to move (a cheap Hard plays the games; the positions
are then decided by the real one, with the seed the game used).

**Per decision.**  Each decision where Hard runs its search (two or more moves
worth trying) is timed on its own, one after another in this process: the
wall time, and the CPU time of the thread (on a shared machine the wall time
also counts the waits for a core).  The 100 ms budget is about these rows.
Hard's memos make a process that has decided a few hundred times about twice
as fast as a fresh one, and the bot's workers live as long as the bot: so
``--warm`` decisions from other games are made first (``--warm 0`` times a
cold process).

**Concurrent decisions and the event loop.**  ``N`` Hard decisions are asked
for at once, from an asyncio event loop, the way the bot asks for them
(``bot.service.thinking``): in the worker-process pool, and for comparison in a
thread (how the bot thought before).  A ticker on the loop sleeps 1 ms at a
time and records how late it wakes up: the *stall*, how long the loop was
kept from running anything else.  The row without any AI work shows what the
machine alone does to the ticker.  Each decision's wall time here includes
its wait for a free worker.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import time
from collections.abc import Awaitable, Callable, Sequence

from bot.config import default_ai_workers
from bot.service.thinking.pool import Thinking
from game import Action, Ruleset, SeatView
from game.ai import HardPlayer, NormalPlayer, Player, Strength, choose
from game.ai.hard import candidates
from testkit.arena import play_game

BUDGET_MS = 100.0
STALL_MS = 20.0


class Recorder:
    """Plays like a (cheap) Hard and keeps every view it was asked about."""

    def __init__(self, hard: HardPlayer) -> None:
        self.hard = hard
        self.views: list[tuple[SeatView, int]] = []

    def decide(self, view: SeatView, rng: random.Random) -> Action:
        seed = rng.getrandbits(64)
        self.views.append((view, seed))
        return self.hard.decide(view, random.Random(seed))


def collect(
    players: int, wanted: int, ruleset: Ruleset, prefix: str = "latency"
) -> list[tuple[SeatView, int]]:
    """Views and seeds of ``wanted`` Hard decisions that run the search."""
    recorder = Recorder(HardPlayer(samples=4))
    normal = NormalPlayer()
    game = 0
    while sum(1 for v, _ in recorder.views if len(candidates(v)) > 1) < wanted:
        lineup: list[Player] = [normal] * players
        lineup[game % players] = recorder
        play_game(lineup, ruleset, f"{prefix}:{players}:{game}")
        game += 1
    return [(v, s) for v, s in recorder.views if len(candidates(v)) > 1][:wanted]


def percentile(sorted_ms: Sequence[float], q: float) -> float:
    """Nearest-rank percentile."""
    if not sorted_ms:
        return float("nan")
    rank = max(1, min(len(sorted_ms), int(-(-q * len(sorted_ms) // 100))))
    return sorted_ms[rank - 1]


def stats(label: str, ms: list[float]) -> str:
    ms = sorted(ms)
    return (
        f"| {label} | {len(ms)} | {statistics.fmean(ms):.1f} | {percentile(ms, 50):.1f} "
        f"| {percentile(ms, 90):.1f} | {percentile(ms, 99):.1f} | {ms[-1]:.1f} |"
    )


def time_each(hard: HardPlayer, views: list[tuple[SeatView, int]]) -> tuple[list[float], ...]:
    wall: list[float] = []
    cpu: list[float] = []
    for view, seed in views:
        w0, c0 = time.perf_counter(), time.thread_time()
        hard.decide(view, random.Random(seed))
        cpu.append((time.thread_time() - c0) * 1000)
        wall.append((time.perf_counter() - w0) * 1000)
    return wall, cpu


Decide = Callable[[SeatView, int], Awaitable[Action]]


async def concurrent(
    decide: Decide | None, views: list[tuple[SeatView, int]], n: int
) -> tuple[list[float], list[float], float]:
    """Ask for the decisions ``n`` at a time; (each decision's wall ms, the
    ticker's stalls in ms, decisions per second)."""
    stalls: list[float] = []
    running = True

    async def ticker() -> None:
        while running:
            t0 = time.perf_counter()
            await asyncio.sleep(0.001)
            stalls.append(max(0.0, (time.perf_counter() - t0) * 1000 - 1.0))

    async def timed(view: SeatView, seed: int) -> float:
        t0 = time.perf_counter()
        if decide is None:
            await asyncio.sleep(0.03)  # no AI work: the machine alone
        else:
            await decide(view, seed)
        return (time.perf_counter() - t0) * 1000

    tick = asyncio.create_task(ticker())
    latencies: list[float] = []
    t0 = time.perf_counter()
    for start in range(0, len(views) - n + 1, n):
        batch = views[start : start + n]
        latencies.extend(await asyncio.gather(*(timed(v, s) for v, s in batch)))
    elapsed = time.perf_counter() - t0
    running = False
    await tick
    return latencies, stalls, len(latencies) / elapsed


async def loop_rows(views: list[tuple[SeatView, int]], counts: list[int], workers: int) -> None:
    pool = Thinking(workers)
    await pool.start()
    # Warm the workers' memos as the main process's are (a running bot's are warm too).
    await asyncio.gather(*(pool.decide(v, Strength.HARD, s) for v, s in views))

    async def in_pool(view: SeatView, seed: int) -> Action:
        return await pool.decide(view, Strength.HARD, seed)

    async def in_thread(view: SeatView, seed: int) -> Action:
        return await asyncio.to_thread(choose, view, Strength.HARD, seed)

    print(
        "| Hard thinks in | At once | Decisions | decision p50 | decision p99 "
        "| loop stall p99 | loop stall max | decisions/s |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    try:
        modes: list[tuple[str, Decide | None]] = [
            ("(no AI work)", None),
            (f"the pool ({workers} process{'es' if workers > 1 else ''})", in_pool),
            ("a thread (before)", in_thread),
        ]
        for label, decide in modes:
            for n in counts:
                lat, stalls, rate = await concurrent(decide, views, n)
                lat.sort()
                stalls.sort()
                print(
                    f"| {label} | {n} | {len(lat)} | {percentile(lat, 50):.0f} ms "
                    f"| {percentile(lat, 99):.0f} ms | {percentile(stalls, 99):.1f} ms "
                    f"| {stalls[-1]:.1f} ms | {rate:.1f} |",
                    flush=True,
                )
    finally:
        await pool.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--decisions", type=int, default=300, help="decisions per table size")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 4, 6])
    parser.add_argument("--concurrent", type=int, nargs="*", default=[1, 4, 16])
    parser.add_argument(
        "--loop-decisions", type=int, default=160, help="decisions per row of the loop table"
    )
    parser.add_argument("--workers", type=int, default=default_ai_workers(), help="pool size")
    parser.add_argument("--hard-budget", type=int, default=None, help="override determinizations")
    parser.add_argument(
        "--warm",
        type=int,
        default=300,
        help="decisions of other games made first, per table size (0: time a cold process)",
    )
    parser.add_argument("--no-drama", action="store_true")
    parser.add_argument("--party", action="store_true")
    parser.add_argument("--komarami", action="store_true")
    args = parser.parse_args(argv)
    ruleset = Ruleset(no_drama=args.no_drama, party=args.party, komarami=args.komarami)
    hard = HardPlayer(samples=args.hard_budget)
    load = os.getloadavg()[0]

    print(f"# Hard decision latency ({', '.join(ruleset.presets) or 'base game'})")
    print()
    print(
        f"{os.cpu_count()} CPUs on this machine, load average {load:.1f} at the start; "
        f"times in milliseconds; {args.warm} decisions of other games made first at each "
        "table size (a worker that has been thinking a while: its memos warm)."
    )
    print()
    print("| Decisions that search | Decisions | mean | p50 | p90 | p99 | max |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    worst_cpu = 0.0
    collected: dict[int, list[tuple[SeatView, int]]] = {}
    for players in args.players:
        if args.warm:  # other games' decisions, as a worker that has been thinking a while
            time_each(hard, collect(players, args.warm, ruleset, "latency-warm"))
        views = collected[players] = collect(players, args.decisions, ruleset)
        wall, cpu = time_each(hard, views)
        worst_cpu = max(worst_cpu, percentile(sorted(cpu), 99))
        budget = hard.budget(players)
        work = hard.work_budget(players)
        print(
            stats(f"{players} players (up to {budget} determinizations, work {work:,}), wall", wall)
        )
        print(stats(f"{players} players, CPU of the thread", cpu), flush=True)
    print()
    print(f"Worst p99 CPU time per decision: {worst_cpu:.1f} ms (budget {BUDGET_MS:.0f} ms)")
    print()
    mixed = [vs for players in args.players for vs in collected[players]]
    random.Random(0).shuffle(mixed)
    asyncio.run(loop_rows(mixed[: args.loop_decisions], args.concurrent, args.workers))
    print()
    print(f"The loop's budget: never kept from running for more than {STALL_MS:.0f} ms.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
