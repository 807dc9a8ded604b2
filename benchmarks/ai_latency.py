"""How long a Hard decision takes, from real game positions.

    python benchmarks/ai_latency.py                 # 2, 4 and 6 players, >= 500 decisions each
    python benchmarks/ai_latency.py --decisions 1000 --players 4

Positions are collected first: whole games (base rules unless variants are
given) with one Hard player against Normal players, recording every view in
which the Hard seat has to move.  Then each recorded decision is timed on
its own, one after another in this single process (nothing else running), with
the seed the game used.  Two rows per table size:

* *simulated* — decisions where Hard runs its Monte Carlo (two or more moves
  worth trying).  This is the row the 100 ms budget is about.
* *all* — every Hard decision, including the ones with a single sensible move
  (answered in microseconds).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
from collections.abc import Callable, Sequence

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks.arena import play_game  # noqa: E402
from game import Action, Ruleset, SeatView  # noqa: E402
from game.ai import HardPlayer, NormalPlayer, Player  # noqa: E402
from game.ai.hard import candidates  # noqa: E402

BUDGET_MS = 100.0


class Recorder:
    """Plays like Hard and keeps every view it was asked about."""

    def __init__(self, hard: HardPlayer) -> None:
        self.hard = hard
        self.views: list[tuple[SeatView, int]] = []

    def decide(self, view: SeatView, rng: random.Random) -> Action:
        seed = rng.getrandbits(64)
        self.views.append((view, seed))
        return self.hard.decide(view, random.Random(seed))


def collect(
    players: int, wanted: int, ruleset: Ruleset, hard: HardPlayer
) -> list[tuple[SeatView, int]]:
    """Views of >= ``wanted`` simulated Hard decisions (and all the others met on the way)."""
    recorder = Recorder(hard)
    normal = NormalPlayer()
    game = 0
    while sum(1 for v, _ in recorder.views if len(candidates(v)) > 1) < wanted:
        seat = game % players
        lineup: list[Player] = [normal] * players
        lineup[seat] = recorder
        play_game(lineup, ruleset, f"latency:{players}:{game}")
        game += 1
    return recorder.views


def percentile(sorted_ms: Sequence[float], q: float) -> float:
    """Nearest-rank percentile."""
    if not sorted_ms:
        return float("nan")
    rank = max(1, min(len(sorted_ms), int(-(-q * len(sorted_ms) // 100))))
    return sorted_ms[rank - 1]


def time_decisions(
    hard: HardPlayer, views: list[tuple[SeatView, int]], clock: Callable[[], float]
) -> tuple[list[float], list[float]]:
    simulated: list[float] = []
    everything: list[float] = []
    for view, seed in views:
        t0 = clock()
        hard.decide(view, random.Random(seed))
        ms = (clock() - t0) * 1000
        everything.append(ms)
        if len(candidates(view)) > 1:
            simulated.append(ms)
    return sorted(simulated), sorted(everything)


def line(label: str, ms: Sequence[float]) -> str:
    return (
        f"| {label} | {len(ms)} | {statistics.fmean(ms):.1f} | {percentile(ms, 50):.1f} "
        f"| {percentile(ms, 90):.1f} | {percentile(ms, 99):.1f} | {ms[-1]:.1f} |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument(
        "--decisions", type=int, default=500, help="simulated decisions per table size"
    )
    parser.add_argument("--players", type=int, nargs="*", default=[2, 4, 6])
    parser.add_argument("--hard-budget", type=int, default=None, help="override determinizations")
    parser.add_argument("--no-drama", action="store_true")
    parser.add_argument("--party", action="store_true")
    parser.add_argument("--komarami", action="store_true")
    args = parser.parse_args(argv)
    ruleset = Ruleset(no_drama=args.no_drama, party=args.party, komarami=args.komarami)
    hard = HardPlayer(samples=args.hard_budget)

    print(f"# Hard decision latency ({', '.join(ruleset.variants) or 'base game'})")
    print()
    print(f"One process, {os.cpu_count()} CPUs on this machine; times in milliseconds.")
    print()
    print("| Positions | Decisions | mean | p50 | p90 | p99 | max |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    worst_p99 = 0.0
    all_simulated: list[float] = []
    for players in args.players:
        views = collect(players, args.decisions, ruleset, hard)
        simulated, everything = time_decisions(hard, views)
        all_simulated.extend(simulated)
        worst_p99 = max(worst_p99, percentile(simulated, 99))
        budget = hard.budget(players)
        print(line(f"{players} players, simulated ({budget} determinizations)", simulated))
        print(line(f"{players} players, all", everything), flush=True)
    all_simulated.sort()
    print(line("all table sizes, simulated", all_simulated))
    print()
    verdict = "OK" if worst_p99 <= BUDGET_MS else "OVER BUDGET"
    print(
        f"Worst p99 of simulated decisions: {worst_p99:.1f} ms "
        f"(budget {BUDGET_MS:.0f} ms): {verdict}"
    )
    return 0 if worst_p99 <= BUDGET_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
