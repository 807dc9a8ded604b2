"""How many points each decision gives away, measured against the real hands.

    python -m benchmarks.ai_regret                  # 40 games, about 8 minutes on 2 cores
    python -m benchmarks.ai_regret --games 80

Hard plays against 3 Normal (``benchmarks/ai_tournament.py``'s seats and a
seed range of its own).  At every decision of Hard's seat with a choice, every
legal move is valued by the *truth*: the round is played out with the Normal
heuristic from the real hands, the draw pile shuffled (nobody knows its
order), ``--truth`` times, and scored as Hard scores a round.  A chooser's
*loss* at that decision is the best move's value less the value of the move
it picked; the table reports the mean loss per decision of

* Normal's move;
* the real Hard's move (the bot's budget, plays only when a card fits);
* Hard at the truth's budget with every legal move simulated: what more
  samples and more candidates could buy;
* Hard with every opponent's real hand (``ai_information.py``'s ``sees-all``
  row, at the bot's budget).

A move picked by the truth itself loses nothing but the noise of its own
estimate.  ``ai_information.py`` measures the win shares these losses turn
into: the real Hard wins 26.4% against 3 Normal and the ``sees-all`` Hard
40.3%.  So this table says how much of Normal's loss a player must remove to
win a given share, and how much an honest Hard removes.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from multiprocessing import Pool

from benchmarks.ai_information import Peek
from game import Ruleset
from game.actions import Play
from game.ai import HardPlayer, NormalPlayer
from game.match import Match

PLAYERS = 4
CHOOSERS = (
    "Normal",
    "Hard (the bot's)",
    "Hard, truth's budget, every legal move",
    "Hard seeing every hand (bot's budget)",
)


def best(values: Sequence[float]) -> int:
    return max(range(len(values)), key=values.__getitem__)


def run(args: tuple[int, int, int]) -> tuple[list[float], int, int, float]:
    """Summed losses per chooser, decisions, decisions where a card fit, seconds."""
    start, stop, samples = args
    t0 = time.perf_counter()
    normal = NormalPlayer()
    hard = HardPlayer()
    big = HardPlayer(samples=samples)
    truth_peek, sees_peek = Peek(None), Peek(None)
    truth = HardPlayer(samples=samples, dealer=truth_peek)
    sees_all = HardPlayer(dealer=sees_peek)
    losses = [0.0] * len(CHOOSERS)
    decisions = playing = 0
    for game in range(start, stop):
        seat = game % PLAYERS
        match = Match(Ruleset(), PLAYERS)
        for peek in (truth_peek, sees_peek):
            peek.watch(match)
        rng = random.Random(f"regret:{game}")
        while not match.over:
            match.deal(seed=rng.getrandbits(64))
            while match.in_round:
                s = match.to_move
                assert s is not None  # a round in play has a player to move
                view = match.view(s)
                seed = rng.getrandbits(64)
                if s != seat:
                    match.apply(s, normal.decide(view, random.Random(seed)))
                    continue
                move = hard.decide(view, random.Random(seed))
                legal = list(view.legal)
                if len(legal) > 1:
                    values = truth.evaluate(view, legal, random.Random(seed ^ 1))
                    top = max(values)
                    picks = (
                        normal.decide(view, random.Random(0)),
                        move,
                        legal[best(big.evaluate(view, legal, random.Random(seed ^ 2)))],
                        sees_all.decide(view, random.Random(seed ^ 3)),
                    )
                    for i, pick in enumerate(picks):
                        losses[i] += top - values[legal.index(pick)]
                    decisions += 1
                    playing += any(isinstance(a, Play) for a in legal)
                match.apply(s, move)
    return losses, decisions, playing, time.perf_counter() - t0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--games", type=int, default=40, help="games (default 40)")
    parser.add_argument("--truth", type=int, default=160, help="truth samples (default 160)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    args = parser.parse_args(argv)
    chunk = 4
    parts = [(s, min(args.games, s + chunk), args.truth) for s in range(0, args.games, chunk)]
    with Pool(args.workers) as pool:
        results = pool.map(run, parts, chunksize=1)
    losses = [sum(r[0][i] for r in results) for i in range(len(CHOOSERS))]
    decisions = sum(r[1] for r in results)
    playing = sum(r[2] for r in results)
    print("# Points given away per decision: Hard's seat against 3 Normal, base game")
    print()
    print(
        f"{args.games} games, {decisions} decisions with a choice ({playing} with a card "
        f"that fits), truth from the real hands at {args.truth} samples."
    )
    print()
    print("| chooser | loss per decision | share of Normal's loss removed |")
    print("| --- | ---: | ---: |")
    base = losses[0] / decisions
    for name, loss in zip(CHOOSERS, losses, strict=True):
        mean = loss / decisions
        print(f"| {name} | {mean:.3f} | {100 * (1 - mean / base):.0f}% |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
