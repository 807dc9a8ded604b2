"""Fit Hard's chance-of-winning model (``game/ai/standing.py``) from Normal games.

    python -m benchmarks.ai_win_model                     # 10,000 games per table size
    python -m benchmarks.ai_win_model --games 2000 --players 4

Games between Normal players (base game, threshold 40) are played out; after
every round that did not end the game, each seat's points and the share of
the win it finally got are one sample.  For each table size the model's
``(slope, base)`` (``spread² = slope × (threshold − highest) + base``) is
fitted by maximum likelihood (the log loss of the fractional share, a simple
Nelder–Mead search), and the table prints the log loss of the even share, of
``standing.SPREAD``'s numbers and of the fit, and the fit's calibration by
decile (mean predicted / mean won).  Paste the fit into ``SPREAD`` if it
moves.  Pure Python: a full run takes about half an hour on 2 cores.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence
from multiprocessing import Pool

from game import Ruleset
from game.ai import NormalPlayer
from game.ai.standing import SPREAD, chance
from testkit.arena import play_game, win_shares

THRESHOLD = 40
#: (points after a round, seat, the seat's final share of the win)
Sample = tuple[tuple[int, ...], int, float]


def games(job: tuple[int, int, int]) -> list[Sample]:
    players, start, stop = job
    normal = NormalPlayer()
    out: list[Sample] = []
    for game in range(start, stop):
        match = play_game([normal] * players, Ruleset(), f"win-model:{players}:{game}")
        shares = win_shares(match)
        points = [0] * players
        for result in match.results[:-1]:  # the last round ended the game
            for row in result.seats:
                points[row.seat] += row.gained - row.returned
            out.extend((tuple(points), seat, shares[seat]) for seat in range(players))
        out.extend((tuple([0] * players), seat, shares[seat]) for seat in range(players))
    return out


def log_loss(samples: Sequence[Sample], predict: Callable[[Sample], float]) -> float:
    total = 0.0
    for sample in samples:
        p = min(1 - 1e-6, max(1e-6, predict(sample)))
        y = sample[2]
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(samples)


def nelder_mead(f: Callable[[list[float]], float], start: list[float], steps: int) -> list[float]:
    """A plain Nelder-Mead search (two parameters are all it needs)."""
    simplex = [list(start)] + [
        [x * (1.3 if i == j else 1.0) for j, x in enumerate(start)] for i in range(len(start))
    ]
    values = [f(x) for x in simplex]
    for _ in range(steps):
        order = sorted(range(len(simplex)), key=values.__getitem__)
        simplex = [simplex[i] for i in order]
        values = [values[i] for i in order]
        centre = [sum(x[k] for x in simplex[:-1]) / (len(simplex) - 1) for k in range(len(start))]
        worst = simplex[-1]
        reflected = [c + (c - w) for c, w in zip(centre, worst, strict=True)]
        fr = f(reflected)
        if fr < values[0]:
            expanded = [c + 2 * (c - w) for c, w in zip(centre, worst, strict=True)]
            fe = f(expanded)
            simplex[-1], values[-1] = (expanded, fe) if fe < fr else (reflected, fr)
        elif fr < values[-2]:
            simplex[-1], values[-1] = reflected, fr
        else:
            contracted = [c + 0.5 * (w - c) for c, w in zip(centre, worst, strict=True)]
            fc = f(contracted)
            if fc < values[-1]:
                simplex[-1], values[-1] = contracted, fc
            else:
                best = simplex[0]
                simplex = [best] + [
                    [b + 0.5 * (x - b) for b, x in zip(best, s, strict=True)] for s in simplex[1:]
                ]
                values = [values[0]] + [f(x) for x in simplex[1:]]
    return simplex[min(range(len(simplex)), key=values.__getitem__)]


def fit(players: int, samples: list[Sample], steps: int) -> str:
    """One table row: the losses, the fitted numbers and the fit's deciles."""

    def model(slope: float, base: float) -> Callable[[Sample], float]:
        return lambda s: chance(s[0], s[1], THRESHOLD, slope, base)

    def loss(v: list[float]) -> float:
        return log_loss(samples, model(abs(v[0]), abs(v[1])))

    start = list(SPREAD[min(players, len(SPREAD) - 1)])
    even = log_loss(samples, lambda s: 1 / players)
    now = loss(start)
    slope, base = (abs(x) for x in nelder_mead(loss, start, steps))
    best = model(slope, base)
    predicted = sorted((best(s), s[2]) for s in samples)
    tenth = len(predicted) // 10
    parts = [predicted[i * tenth : (i + 1) * tenth] for i in range(10)]
    deciles = " ".join(
        f"{sum(p for p, _ in part) / tenth:.2f}/{sum(y for _, y in part) / tenth:.2f}"
        for part in parts
    )
    return (
        f"| {players} | {len(samples)} | {even:.4f} | {now:.4f} | {loss([slope, base]):.4f} "
        f"| {slope:.1f} | {base:.1f} | {deciles} |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--games", type=int, default=10_000, help="games per table size")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4, 5, 6])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--steps", type=int, default=40, help="Nelder-Mead steps")
    args = parser.parse_args(argv)
    print("# Hard's chance-of-winning model, fitted to Normal games (threshold 40)")
    print()
    print(f"{args.games} games per table size; log loss of the final share of the win.")
    print()
    print("| Players | Samples | Even share | SPREAD now | Fit | Slope | Base | Deciles |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |", flush=True)
    with Pool(args.workers) as pool:
        for players in args.players:
            jobs = [(players, s, min(args.games, s + 250)) for s in range(0, args.games, 250)]
            samples = [x for part in pool.map(games, jobs) for x in part]
            print(fit(players, samples, args.steps), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
