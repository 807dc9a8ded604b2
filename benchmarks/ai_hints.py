"""How long a hint and a finished game's review take (``game.ai.advice``).

    python -m benchmarks.ai_hints                  # 4 players, 6 games
    python -m benchmarks.ai_hints --players 2 6 --games 10
    python -m benchmarks.ai_hints --games 2 --anytime   # hints as the bot thinks them

Whole games are played by Normal players (base rules unless variants are
given).  **Hint**: every view of seat 0 with two or more moves is advised on
its own, one after another in this process, as ``/lama hint`` asks the worker
(Hard's decision, then the estimates of every legal move): the wall time per
hint.  With ``--anytime`` a hint is thought as the bot does on an idle pool
(``bot.service.thinking.anytime.think_hint``: today's work, then the estimates on
until ``Timing.hint_time`` after the ask, up to ``advice.HINT_FACTOR`` times
it), and its work is printed as a share of today's.  **Review**: seat 0's
review of each whole game (``costliest``, at today's work), the wall time per
game and the decisions it looked at.  The bot runs both in its AI workers, so
neither holds the event loop; the review is also cut off by its budget
(``bot.service.Timing.review_budget``).
"""

from __future__ import annotations

import argparse
import statistics
import time

from bot.service import Timing
from bot.service.thinking.anytime import think_hint
from game import Ruleset, SeatView
from game.ai import NormalPlayer
from game.ai.advice import advise, costliest, think_advice
from testkit.arena import play_game


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[4])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument(
        "--variants", nargs="*", default=[], choices=["no_drama", "party", "komarami"]
    )
    parser.add_argument("--anytime", action="store_true", help="hints as the bot thinks them")
    args = parser.parse_args()
    ruleset = Ruleset.compose(*args.variants)
    print(f"rules: {', '.join(ruleset.presets) or 'base'}; Normal players; seat 0 advised")
    print(
        f"{'players':>7} {'hints':>6} {'hint p50':>9} {'p95':>7} {'max':>7}"
        f" {'games':>6} {'review p50':>11} {'max':>7} {'decisions':>10}"
        + (f" {'hint work':>10}" if args.anytime else "")
    )
    for players in args.players:
        hint_ms: list[float] = []
        review_s: list[float] = []
        checked: list[int] = []
        work = [0, 0]  # the hints' estimates' determinizations, and today's
        for game in range(args.games):
            seen: list[tuple[int, SeatView]] = []
            match = play_game(
                [NormalPlayer()] * players,
                ruleset,
                f"hints:{game}",
                lambda seat, view, into=seen: into.append((seat, view)),  # type: ignore[misc]
            )
            for view in (v for seat, v in seen if seat == 0 and len(v.legal) > 1):
                start = time.perf_counter()
                if args.anytime:
                    work[0] += think_hint(view, time.monotonic() + Timing().hint_time)[1]
                else:
                    advise(view)
                hint_ms.append(1000 * (time.perf_counter() - start))
                if args.anytime:
                    work[1] += think_advice(view, lambda search: False)[1]
            start = time.perf_counter()
            review = costliest(ruleset, players, match.events, 0)
            review_s.append(time.perf_counter() - start)
            checked.append(review.checked)
        print(
            f"{players:>7} {len(hint_ms):>6} {statistics.median(hint_ms):>7.0f}ms"
            f" {percentile(hint_ms, 0.95):>5.0f}ms {max(hint_ms):>5.0f}ms"
            f" {len(review_s):>6} {statistics.median(review_s):>10.2f}s {max(review_s):>6.2f}s"
            f" {statistics.mean(checked):>10.0f}"
            + (f" {work[0] / max(1, work[1]):>9.2f}x" if args.anytime else "")
        )


if __name__ == "__main__":
    main()
