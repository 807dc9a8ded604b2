"""Rating chart benchmark: milliseconds to draw one /lama stats rating picture, and its bytes.

Run from the repository root (or anywhere)::

    python -m benchmarks.rating_chart [--repeat 10] [--example docs/rating.png]

The picture is drawn in a worker thread (``asyncio.to_thread``), so these milliseconds
are CPU time taken from the bot's other threads, not a pause of its event loop.
"""

from __future__ import annotations

import argparse
import random
from functools import partial
from pathlib import Path

from benchmarks.chart import median_render
from bot.art.rating_chart import RatingSeries, render_rating_chart


def lines(games: int, rng: random.Random) -> list[RatingSeries]:
    """All time over ``games`` rated games, and a season over the last third of them."""
    rating, points = 1000, [(0, 1000)]
    for game in range(1, games + 1):
        rating += rng.randint(-25, 35)
        points.append((game, rating))
    start = games - games // 3
    season, season_points = 1000, [(start, 1000)]
    for game in range(start + 1, games + 1):
        season += rng.randint(-25, 40)
        season_points.append((game, season))
    return [
        RatingSeries("All time", tuple(points)),
        RatingSeries("This season", tuple(season_points)),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--example", type=Path, help="write a 60-game picture here")
    args = parser.parse_args()
    rng = random.Random(1)
    render_rating_chart(lines(3, rng))  # fonts loaded once, as in the bot
    print("games   ms (median)   bytes")
    for games in (3, 60, 1000):
        series = lines(games, rng)
        ms, png = median_render(partial(render_rating_chart, series), args.repeat)
        print(f"{games:5} {ms:13.1f} {len(png):7}")
    if args.example is not None:
        args.example.write_bytes(render_rating_chart(lines(60, random.Random(2))))


if __name__ == "__main__":
    main()
