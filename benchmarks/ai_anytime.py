"""Hard thinking in its pause: the work it gets and how late its move comes, by load.

    python -m benchmarks.ai_anytime                        # 1, 10, 50 and 200 tables
    python -m benchmarks.ai_anytime --tables 1 10 --seconds 20 --workers 1

``--tables`` tables play at once, each four AI seats (one Hard, three Normal)
that move after the bot's pause (``Timing.ai_delay``) as in the bot, through the service's own
``AITurns``, ``Scheduler`` and ``Thinking`` (``--workers`` processes, 1 by
default as on a two-core machine), for ``--seconds``; a finished game starts
a new one at the same table.  Each load runs twice: *anytime* (the bot's:
Hard starts thinking when its turn comes and may use the pause, up to the
idle work, stopping at its floor when other work waits) and *today*
(thinking only when the pause is over, at today's work: the bot before).

Printed (and written to ``--out``): Hard moves made; their determinizations
(``done``) p50 and mean, and as a share of today's work for the same
positions (a sample of ``--floor-sample`` recomputed afterwards); the time
from the end of the pause to the move (p50/p99/max); the worst stall of the
event loop (a 1 ms ticker).  Goals: a move no later than its pause plus
50 ms (p99); no stall over 20 ms; at saturation no later than today.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.ai_latency import percentile
from benchmarks.results import write_rows
from bot.service import Timing
from bot.service.play.moves import MoveOutcome
from bot.service.play.scheduler import Scheduler
from bot.service.play.table import Seat, Status, Table
from bot.service.thinking.ai_turns import AITurns
from bot.service.thinking.pool import Thinking
from game import Action, Match, Ruleset, SeatView
from game.ai import Strength
from game.ai.hard import think

#: The pause every AI move waits, as in the bot.
PAUSE = Timing().ai_delay


class TodaysTurns(AITurns):
    """The AI turns of before: a Hard move thought only once its pause is over."""

    def _think_early(self, table: Table, seat: int) -> None:
        return None


async def load(
    tables: int, seconds: float, workers: int, anytime: bool, seed: str
) -> dict[str, float | list[tuple[SeatView, str, int]]]:
    """``tables`` tables playing for ``seconds``; the figures of one row."""
    thinking = Thinking(workers)
    await thinking.start()
    scheduler = Scheduler(time.monotonic)
    late_ms: list[float] = []
    stalls: list[float] = []
    hard_moves: list[tuple[SeatView, str, int]] = []
    due: dict[int, tuple[float, int]] = {}  # game id: (pause end, move number)
    games = itertools.count()
    stop = time.monotonic() + seconds

    def new_match(table: Table) -> None:
        match = Match(Ruleset(), 4)
        match.deal(seed=f"{seed}:{table.game_id}:{next(games)}")
        table.match = match

    async def apply(table: Table, seat: int, action: Action) -> MoveOutcome:
        assert table.match is not None
        end, number = due.pop(table.game_id)
        if table.seats[seat].controller is Strength.HARD:
            late_ms.append((time.monotonic() - end) * 1000)
            searched = turns.searched.get(table.game_id, [0])
            view = table.match.view(seat)
            hard_moves.append((view, f"{table.game_id}:{number}", searched[-1] if anytime else 0))
        table.match.apply(seat, action)
        return MoveOutcome(table, seat, (), ())

    def schedule(table: Table) -> None:
        if time.monotonic() >= stop:
            return
        assert table.match is not None
        if table.match.over:
            new_match(table)
        elif not table.match.in_round:
            table.match.deal(seed=f"{seed}:{table.game_id}:{next(games)}")
        due[table.game_id] = (time.monotonic() + PAUSE, len(table.match.events))
        turns.schedule(table)

    async def after_change(table: Table) -> None:
        schedule(table)

    kind = AITurns if anytime else TodaysTurns
    turns = kind(scheduler, time.monotonic, thinking, apply=apply, after_change=after_change)

    async def ticker() -> None:
        while time.monotonic() < stop:
            t0 = time.perf_counter()
            await asyncio.sleep(0.001)
            stalls.append(max(0.0, (time.perf_counter() - t0) * 1000 - 1.0))

    rng = random.Random(seed)
    for game_id in range(tables):
        seats = [Seat(None, Strength.NORMAL, f"N{i}") for i in range(4)]
        seats[rng.randrange(4)] = Seat(None, Strength.HARD, "H")
        table = Table(game_id, 1, 1, 1, Ruleset(), 0, "en", seats, status=Status.RUNNING)
        new_match(table)
        schedule(table)
        await asyncio.sleep(PAUSE / tables)  # the tables out of step
    await ticker()
    await asyncio.sleep(2 * PAUSE)  # the moves under way
    await scheduler.close()
    await thinking.close()
    late_ms.sort()
    return {
        "moves": len(late_ms),
        "late_p50": percentile(late_ms, 50),
        "late_p99": percentile(late_ms, 99),
        "late_max": late_ms[-1] if late_ms else 0.0,
        "stall_max": max(stalls),
        "hard": hard_moves,
    }


def floor_share(moves: Sequence[tuple[SeatView, str, int]], sample: int) -> tuple[float, float]:
    """Today's determinizations for a sample of the moves, and the moves' work as a
    share of them (only decisions with a choice: one move left means no search)."""
    picked = [m for m in moves if m[2] > 0][:sample]
    if not picked:
        return 0.0, 0.0
    floors = [think(view, seed, lambda search: False)[1] for view, seed, _ in picked]
    done = [d for *_, d in picked]
    return statistics.mean(floors), sum(done) / max(1, sum(floors))


async def run(args: argparse.Namespace) -> list[str]:
    rows = [
        f"AI_WORKERS={args.workers}, AI_DELAY={PAUSE} s, {args.seconds:g} s a row, "
        "4 AI seats a table (1 Hard, 3 Normal)",
        "",
        "| tables | mode | Hard moves | done p50 | done mean | x today's work "
        "| late p50 | late p99 | late max | loop stall max |",
        "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    print("\n".join(rows), flush=True)
    for tables in args.tables:
        for anytime in (True, False):
            got = await load(tables, args.seconds, args.workers, anytime, args.seed)
            hard = got["hard"]
            assert isinstance(hard, list)
            if anytime:
                searched = sorted(d for *_, d in hard if d > 0)
                _, share = floor_share(hard, args.floor_sample)
                work = (
                    f"{percentile([float(d) for d in searched], 50):.0f} "
                    f"| {statistics.mean(searched) if searched else 0:.0f} | {share:.2f}x"
                )
            else:
                work = "- | - | 1.00x"
            row = (
                f"| {tables} | {'anytime' if anytime else 'today'} | {got['moves']:.0f} "
                f"| {work} | {got['late_p50']:.0f} ms | {got['late_p99']:.0f} ms "
                f"| {got['late_max']:.0f} ms | {got['stall_max']:.1f} ms |"
            )
            print(row, flush=True)
            rows.append(row)
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--tables", type=int, nargs="*", default=[1, 10, 50, 200])
    parser.add_argument("--workers", type=int, default=1, help="AI worker processes")
    parser.add_argument("--seconds", type=float, default=20.0, help="of each row")
    parser.add_argument("--floor-sample", type=int, default=100, help="moves to recompute")
    parser.add_argument("--seed", default="anytime")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/ai_anytime.txt"))
    args = parser.parse_args(argv)
    rows = asyncio.run(run(args))
    write_rows(args.out, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
