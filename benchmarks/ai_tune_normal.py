"""Normal with changed parameters against Normal, in duplicate play, one row each.

    python -m benchmarks.ai_tune_normal --seed tune-29-a margin=0.5 c.fit=-2 margin=1,c.pile=-0.5

Each candidate (``normal_params``' spec, as ``ai_duplicate``'s ``normal:`` takes
it) is played by ``ai_duplicate`` in the focus seat against three Normal players,
on the same seeds as every other candidate, so the rows compare (a search over
Normal's knobs: issue #28 looked for a Normal' to play Hard's own seat in its
playouts, ``HardParams.own_policy``).  Runs in one process; run it under ``nice``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import time
from collections.abc import Sequence

from benchmarks.ai_duplicate import main as duplicate
from benchmarks.ai_duplicate import normal_params


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("candidates", nargs="+", help="Normal's changed parameters, k=v,...")
    parser.add_argument("--seed", required=True, help="seed prefix (use one never used before)")
    parser.add_argument("--rounds", type=int, default=4000, help="rounds a candidate (4000)")
    parser.add_argument("--players", type=int, default=4, choices=range(2, 7))
    args = parser.parse_args(argv)
    for spec in args.candidates:
        normal_params(spec)  # a bad spec fails before the first run
    print(f"# Normal' vs Normal, other seats Normal, seeds {args.seed!r}, {args.players} players")
    print()
    print("| Normal' | Rounds | A - B | 95% CI | Played differently | Seconds |")
    print("| --- | ---: | ---: | --- | ---: | ---: |", flush=True)
    for spec in args.candidates:
        out = io.StringIO()
        t0 = time.perf_counter()
        with contextlib.redirect_stdout(out):
            duplicate(
                [
                    *("--a", f"normal:{spec}", "--b", "normal", "--workers", "1"),
                    *("--rounds", str(args.rounds), "--players", str(args.players)),
                    *("--seed", args.seed),
                ]
            )
        row = next(
            line for line in out.getvalue().splitlines() if line.startswith(f"| {args.players} |")
        )
        cells = [c.strip() for c in row.strip("|").split("|")]
        rounds, diff, ci, differs = cells[2], cells[5], cells[6], cells[7]
        print(
            f"| `{spec}` | {rounds} | {diff} | {ci} | {differs} | {time.perf_counter() - t0:.0f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
