"""Measure, from self-play, how often a held value ends the round still in hand.

    python -m benchmarks.calibrate [--games N]   # rewrites game/ai/normal_tables.py

Normal's estimate of what a hand will cost is built from two tables measured
here.  Right after each of a Normal player's moves (a play or a draw) in
games of 2 to 6 players (one game in three against Easy players), every
distinct value in its hand is recorded with its context, and when the round
is over we note whether the value was still held (an emptied hand holds
nothing):

* ``STUCK`` — the chance a value is still held at the end, by the number of
  opponents still in, the smallest hand among them, my own hand size, how far
  the value lies ahead of the top card on the 1..6, Llama cycle, and whether I
  hold one copy or several.
* ``EMPTY`` — the chance of emptying the hand, by the same table context and
  my hand size.

Their layout (dimensions, indexing) is ``game/ai/normal_layout.py``, shared
with Normal.  Sparse cells are shrunk towards the same cell without the
hand-size split.
The tables describe how Normal itself goes on to play, and Normal plays by
the tables it finds: each run starts from the current ``normal_tables.py``, so
recalibrate after a change of Normal (once or twice) to keep them consistent.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path

from game.actions import QUIT
from game.ai.easy import EasyPlayer
from game.ai.knowledge import STEP
from game.ai.normal import NormalPlayer
from game.ai.normal_layout import (
    COPIES,
    DISTANCES,
    EMPTY_SIZES,
    GAPS,
    OPP_MIN,
    OPPONENTS,
    RUN,
    SIZES,
    context,
    empty_index,
    run_steps,
    size_bucket,
    stuck_index,
)
from game.match import Match
from game.rules import Ruleset

PRIOR = 30.0  # pseudo-count for shrinking sparse cells
TABLES = Path(__file__).resolve().parent.parent / "game" / "ai" / "normal_tables.py"


Counts = tuple[list[int], list[int], list[int], list[int]]


def collect(players: int, games: int, seed: int) -> Counts:
    """Counts (seen, stuck) per STUCK cell and (seen, emptied) per EMPTY cell."""
    n_stuck = OPPONENTS * OPP_MIN * SIZES * DISTANCES * COPIES * RUN
    n_empty = OPPONENTS * OPP_MIN * EMPTY_SIZES * GAPS
    seen, stuck = [0] * n_stuck, [0] * n_stuck
    tries, emptied = [0] * n_empty, [0] * n_empty
    normal, easy = NormalPlayer(), EasyPlayer()
    rng = random.Random(seed)
    for game in range(games):
        lineup = [normal] * players
        if game % 3 == 0:
            lineup = [normal] + [easy] * (players - 1)  # type: ignore[list-item]
        match = Match(Ruleset(), players)
        while not match.over:
            match.deal(rng.getrandbits(64))
            after: list[tuple[int, tuple[int, ...], tuple[int, ...], bool, int]] = []
            while match.in_round:
                seat = match.to_move
                assert seat is not None
                action = lineup[seat].decide(match.view(seat), rng)
                match.apply(seat, action)
                if lineup[seat] is normal and match.in_round and action != QUIT:
                    view = match.view(seat)
                    opp = [
                        view.hand_sizes[s] for s in range(players) if s != seat and view.in_round[s]
                    ]
                    if opp:
                        assert view.top is not None
                        after.append(
                            (
                                seat,
                                tuple(0 if c == 20 else STEP[c] for c in view.hand),
                                (len(opp), min(opp)),
                                True,
                                STEP[view.top],
                            )
                        )
            result = match.results[-1]
            for seat, steps, (nopp, opp_min), _, top_step in after:
                row = result.seats[seat]
                held = set() if row.emptied else {STEP[c] for c in row.hand}
                ctx = context(nopp, opp_min)
                size = size_bucket(len(steps))
                counts = [0] * 8
                for step in steps:
                    if step:
                        counts[step] += 1
                run = run_steps(counts, top_step)
                gap = 0
                for step in set(steps):
                    if not step:
                        continue  # the pink llama: not tabled
                    copies = min(steps.count(step), 2) - 1
                    in_run = run >> step & 1
                    if not in_run:
                        gap += counts[step]
                    i = stuck_index(ctx, size, (step - top_step) % 7, copies, in_run)
                    seen[i] += 1
                    stuck[i] += step in held
                j = empty_index(ctx, len(steps), gap)
                tries[j] += 1
                emptied[j] += row.emptied
    return seen, stuck, tries, emptied


def _job(args: tuple[int, int, int]) -> Counts:
    return collect(*args)


def _shrunk(
    hits: Sequence[int], seen: Sequence[int], groups: Sequence[Sequence[Sequence[int]]]
) -> list[float]:
    """Frequencies, each shrunk towards the first of its pooling ``groups`` with
    enough observations (``groups[g]`` lists, per cell, the cells pooled with it)."""
    out = [0.0] * len(seen)
    for i in range(len(seen)):
        prior = 0.5
        for group in groups:
            cells = group[i]
            total = sum(seen[j] for j in cells)
            if total >= 4 * PRIOR:
                prior = sum(hits[j] for j in cells) / total
                break
        out[i] = (hits[i] + PRIOR * prior) / (seen[i] + PRIOR)
    return out


def smooth(seen: Sequence[int], stuck: Sequence[int]) -> list[float]:
    """STUCK frequencies.  A sparse cell is shrunk towards the same cell pooled over
    the smallest opponent hand, then also over the number of opponents, then also
    over whether the value is in my run."""
    cells = [
        (nopp, om, size, d, c, r)
        for nopp in range(OPPONENTS)
        for om in range(OPP_MIN)
        for size in range(SIZES)
        for d in range(DISTANCES)
        for c in range(COPIES)
        for r in range(RUN)
    ]
    assert [stuck_index(n * OPP_MIN + o, s, d, c, r) for n, o, s, d, c, r in cells] == list(
        range(len(cells))
    )
    by_om = [
        [stuck_index(n * OPP_MIN + o2, s, d, c, r) for o2 in range(OPP_MIN)]
        for n, _o, s, d, c, r in cells
    ]
    by_table = [
        [
            stuck_index(n2 * OPP_MIN + o2, s, d, c, r)
            for n2 in range(OPPONENTS)
            for o2 in range(OPP_MIN)
        ]
        for _n, _o, s, d, c, r in cells
    ]
    by_run = [
        [
            stuck_index(n2 * OPP_MIN + o2, s, d, c, r2)
            for n2 in range(OPPONENTS)
            for o2 in range(OPP_MIN)
            for r2 in range(RUN)
        ]
        for _n, _o, s, d, c, _r in cells
    ]
    return _shrunk(stuck, seen, [by_om, by_table, by_run])


def smooth_empty(tries: Sequence[int], emptied: Sequence[int]) -> list[float]:
    """EMPTY frequencies, shrunk like ``smooth`` (over opponents, then hand sizes)."""
    cells = [
        (nopp, om, n, g)
        for nopp in range(OPPONENTS)
        for om in range(OPP_MIN)
        for n in range(1, EMPTY_SIZES + 1)
        for g in range(GAPS)
    ]
    assert [empty_index(a * OPP_MIN + b, n, g) for a, b, n, g in cells] == list(range(len(cells)))
    by_om = [
        [empty_index(a * OPP_MIN + b2, n, g) for b2 in range(OPP_MIN)] for a, _b, n, g in cells
    ]
    by_table = [
        [empty_index(a2 * OPP_MIN + b2, n, g) for a2 in range(OPPONENTS) for b2 in range(OPP_MIN)]
        for _a, _b, n, g in cells
    ]
    return _shrunk(emptied, tries, [by_om, by_table])


def _fmt(values: Sequence[float], per_line: int) -> str:
    lines = []
    for i in range(0, len(values), per_line):
        lines.append("    " + ", ".join(f"{v:.3f}" for v in values[i : i + per_line]) + ",")
    return "\n".join(lines)


def write_tables(path: Path, stuck: Sequence[float], empty: Sequence[float], games: int) -> None:
    path.write_text(
        '"""Calibration tables for Normal, written by ``python -m benchmarks.calibrate``.\n\n'
        f"Measured from {games} self-play games per table size (2 to 6 players).\n"
        "Index them with the helpers in ``game/ai/normal_layout.py``\n"
        "(``stuck_index``, ``empty_index``).\n"
        '"""\n\n'
        "# fmt: off\n"
        "STUCK: tuple[float, ...] = (\n" + _fmt(stuck, 12) + "\n)\n\n"
        "EMPTY: tuple[float, ...] = (\n" + _fmt(empty, 12) + "\n)\n"
        "# fmt: on\n"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3000, help="games per table size")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=TABLES)
    args = parser.parse_args(argv)
    jobs = [
        (players, args.games // 4, 1000 * players + part)
        for players in range(2, 7)
        for part in range(4)
    ]
    with Pool(args.workers) as pool:
        parts = pool.map(_job, jobs, chunksize=1)
    seen = [sum(col) for col in zip(*(p[0] for p in parts), strict=True)]
    stuck = [sum(col) for col in zip(*(p[1] for p in parts), strict=True)]
    tries = [sum(col) for col in zip(*(p[2] for p in parts), strict=True)]
    emptied = [sum(col) for col in zip(*(p[3] for p in parts), strict=True)]
    write_tables(args.out, smooth(seen, stuck), smooth_empty(tries, emptied), args.games)
    print(f"wrote {args.out}: {sum(seen)} value observations, {sum(tries)} hands")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
