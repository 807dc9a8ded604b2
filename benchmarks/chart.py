"""Chip chart benchmark: milliseconds to draw one PNG, and its size in bytes.

Run from the repository root (or anywhere)::

    python -m benchmarks.chart [--repeat 10] [--example docs/chart.png]

``--example`` writes a six-player chart (the README's picture).

The chart is drawn in a worker thread (``asyncio.to_thread``), so these
milliseconds are CPU time taken from the bot's other threads, not a pause of
its event loop.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from bot.art.chart import render_chip_chart
from data import ChipHistory

NAMES = ("Jürgen", "Ωμέγα", "Жанна", "王小明", "Zoë", "Łukasz Żółć")


def history(players: int, rounds: int, rng: random.Random) -> ChipHistory:
    totals, rows = [0] * players, []
    for _ in range(rounds):
        totals = [t + rng.choice((0, 1, 3, 6, 10, 13)) for t in totals]
        rows.append(tuple(totals))
    return ChipHistory(1, NAMES[:players], 40, tuple(rows), winners=(0,))


def median_render(render: Callable[[], bytes], repeat: int) -> tuple[float, bytes]:
    """The median milliseconds of ``repeat`` calls of ``render``, and the picture it drew."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        png = render()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), png


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--example", type=Path, help="write a six-player chart here")
    args = parser.parse_args()
    rng = random.Random(1)
    render_chip_chart(history(2, 2, rng))  # fonts loaded once, as in the bot
    print("players rounds   ms (median)   bytes")
    for players, rounds in ((2, 5), (4, 12), (6, 30)):
        chart = history(players, rounds, rng)
        ms, png = median_render(partial(render_chip_chart, chart), args.repeat)
        print(f"{players:7} {rounds:6} {ms:13.1f} {len(png):7}")
    if args.example is not None:
        args.example.write_bytes(render_chip_chart(example()))


def example() -> ChipHistory:
    """A whole six-player game to 40 points, names in five scripts; Zoë wins."""
    totals = (
        (3, 10, 0, 6, 11, 2),
        (13, 9, 1, 15, 17, 12),
        (20, 19, 11, 16, 27, 21),
        (21, 31, 9, 30, 28, 23),
        (31, 41, 15, 36, 37, 33),
    )
    names = ("Jürgen", "Ωμέγα", "Zoë", "Жанна", "王小明", "Łukasz Żółć")
    return ChipHistory(1, names, 40, totals, winners=(2,))


if __name__ == "__main__":
    main()
