"""The REST budget: Discord calls per move, and how many tables one bot token carries.

    python -m benchmarks.rest_budget                  # 8 games, seed 1, 4 at a time
    python -m benchmarks.rest_budget --games 10 --seed 7 --threshold 40 --jobs 4
    python -m benchmarks.rest_budget --install person # the same, in group DMs
    python -m benchmarks.rest_budget --tables 10,40,200 --install server,person

Whole games are played through SimCord (an offline Discord) by the real bot at
its real pacing (the AI's pause between moves, the table's edit interval), in
virtual time: tables of three humans and one AI (:mod:`benchmarks.rest_tables`).
Each human keeps their hand open, thinks 3 to 9 seconds (seeded) and clicks a move
on it, opening it again (**Show my hand**) only when it doesn't offer their moves;
they play a card that fits, else mostly draw, else quit.  Discord is SimCord with
the play-anywhere kit (:mod:`testkit.anywhere`): tokens that live 15 minutes, the
followup cap, a webhook bucket per token, and, with ``--install person``, group DMs
where the app is installed to the host alone and the bot token can do nothing.

Without ``--tables``, ``--jobs`` bots, each in its own process, play ``--games``
games one after another (a game's deals and choices follow from the seed and its
number alone).  With ``--tables N,M,...``, for each install and each N one bot
plays N whole games at once, one per table, to 40 points with 30 % of the human
moves after a break of 30-100 s (``--threshold``, ``--breaks``): games of about
half an hour, well past their first tokens' quarter hour.

Every REST call the bot makes is counted (:mod:`benchmarks.rest_calls`).  Calls
with an *interaction token* (a click's answer, its followups, an open hand's
refresh) don't count against the bot token's ~50 requests per second; every other
call does.  A call is put down to the move made last before it at its table (calls
before a game's first move, such as the Start click and the first ping, to its
start).  The figure the budget is about is all bot-token calls of the games (start,
AI moves and the end included) per human move, and the active tables one token
carries at the humans' pace: 50 / (bot-token calls per second of one table, the
breaks' time left out).  What Discord would refuse is counted too (429, 40094, calls
with a dead token, bot-token calls where the bot is no member) and so are turn pings
left standing: each must be 0.  Results go to ``benchmarks/results/rest_budget.txt``
(``--out``).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from .rest_calls import BUDGET, KINDS, Budget, CallTally, classify, is_ping
from .rest_tables import INSTALLS, THINK, measure
from .results import write_report

__all__ = ["BUDGET", "Budget", "CallTally", "classify", "is_ping", "main", "report", "run"]

RESULTS = Path(__file__).resolve().parent / "results" / "rest_budget.txt"
WHOLE_GAMES = 40  # points ending a game with --tables…
BREAKS = 0.3  # …and the share of human moves after a break: games of about half an hour


def measure_in_process(*args: Any) -> Budget:
    """``measure`` (its arguments in its order) in a process's own event loop."""
    return asyncio.run(measure(*args))


def run(
    games: int, seed: int, threshold: int, ai: str, jobs: int, install: str = "server"
) -> Budget:
    """All games, on ``jobs`` bots in as many processes, each playing its games one after
    another: the bot mostly waits for its pacing in real time, so bots side by side
    finish sooner on any machine."""
    parts = [list(range(j, games, jobs)) for j in range(min(jobs, games))]
    if len(parts) == 1:
        return measure_in_process(parts[0], seed, threshold, ai, install)
    budget = Budget()
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(len(parts), mp_context=spawn) as pool:
        n = len(parts)
        for part in pool.map(
            measure_in_process, parts, [seed] * n, [threshold] * n, [ai] * n, [install] * n
        ):
            budget.add(part)
    return budget


def run_tables(
    sizes: Sequence[int],
    installs: Sequence[str],
    seed: int,
    threshold: int,
    ai: str,
    jobs: int,
    breaks: float = BREAKS,
) -> dict[tuple[str, int], Budget]:
    """For each install and each size N: N games at once, one per table, on one bot
    (each figure in a process of its own, ``jobs`` of them side by side)."""
    configs = [(install, size) for install in installs for size in sizes]
    n = len(configs)
    args = (
        [list(range(size)) for _, size in configs],
        [seed] * n,
        [threshold] * n,
        [ai] * n,
        [install for install, _ in configs],
        [size for _, size in configs],
        [breaks] * n,
    )
    if jobs == 1 or n == 1:
        return dict(zip(configs, map(measure_in_process, *args), strict=True))
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(min(jobs, n), mp_context=spawn) as pool:
        return dict(zip(configs, pool.map(measure_in_process, *args), strict=True))


def breakdown(budget: Budget) -> list[str]:
    """The calls per kind of moment, split by token and, for the bot token, by kind."""
    lines = [
        "| calls | interaction token | bot token | table edit | ping POST | ping DELETE | other |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    rows = [
        ("per human move", budget.human, budget.human.moments),
        ("per AI move", budget.ai, budget.ai.moments),
        ("per game start", budget.start, budget.start.moments),
        ("**all, per human move**", budget.total(), budget.human.moments),
        ("after 15 min, per human move", budget.late, budget.late.moments),
    ]
    for name, tally, moments in rows:
        n = max(1, moments)
        kinds = " | ".join(f"{tally.bot[k] / n:.2f}" for k in KINDS)
        lines.append(
            f"| {name} | {tally.interaction / n:.2f} | {tally.bot_calls / n:.2f} | {kinds} |"
        )
    return lines


def refusals_line(budget: Budget) -> str:
    r = budget.refusals
    return (
        f"Refused by Discord (each must be 0): {r.rate_limited} × 429 on the interaction "
        f"webhooks, {r.followup_cap} × 40094, {r.dead_token} calls with a dead token, "
        f"{r.refused} bot-token calls where the bot is no member; {r.pings_left} turn pings "
        f"left standing."
    )


def carried(budget: Budget) -> str:
    tables = budget.tables_per_token()
    return f"{tables:.0f}" if tables != float("inf") else "any number of"


def report(budget: Budget, seed: int, threshold: int, ai: str, install: str = "server") -> str:
    whole = budget.total()
    lines = [
        "# REST budget: Discord calls per move (SimCord, real pacing, virtual time)",
        "",
        f"{budget.games} games (seed {seed}, threshold {threshold}, app installed to the "
        f"{install}), 3 humans thinking {THINK[0]:.0f}-{THINK[1]:.0f} s and 1 {ai} AI per "
        f"table: {budget.human.moments} human moves, {budget.ai.moments} AI moves, "
        f"{budget.seconds / 60:.1f} minutes of play.",
        "",
        *breakdown(budget),
    ]
    paced = budget.paced_seconds()
    per_second = whole.bot_calls / paced if paced > 0 else 0.0
    lines += [
        "",
        f"Bot-token calls per human move (AI moves, starts and ends counted): "
        f"**{budget.bot_per_human_move():.2f}** (goal: at most 0.1).",
        f"Bot-token calls per second of one active table: {per_second:.3f}; "
        f"one token at {BUDGET:.0f} requests/s carries **{carried(budget)} "
        f"active tables** (goal: at least 3000).",
        refusals_line(budget),
    ]
    return "\n".join(lines) + "\n"


def report_tables(
    results: dict[tuple[str, int], Budget], seed: int, threshold: int, ai: str, breaks: float = 0.0
) -> str:
    """The figures at each install and number of tables played at once by one bot."""
    lines = [
        "# REST budget over whole games, N tables at once on one bot "
        "(SimCord, real pacing, virtual time)",
        "",
        f"Each table: 3 humans thinking {THINK[0]:.0f}-{THINK[1]:.0f} s and 1 {ai} AI, one "
        f"whole game to {threshold} points (seed {seed}), the tables started over the first "
        f"minute; {breaks:.0%} of human moves come after a break of 30-100 s, so games run "
        f"past their first tokens' quarter hour (tables per token are figured without the "
        f"breaks' time: at the 3-9 s pace). *server*: the app installed to the server, "
        f"the bot a member; *person*: "
        f"a group DM of the three, the app installed to the host only (the bot token "
        f"can do nothing there). Discord as the kit models it (testkit.anywhere): "
        f"tokens live 15 minutes, 5 followups per click where user-installed, a webhook "
        f"bucket of 5 calls per 2 s per token (on in both).",
        "",
        "| install | tables | human moves | game min (mean / longest) | moves after 15 min "
        "| bot-token / human move | after 15 min | interaction / human move "
        "| 429 | 40094 | dead token | 403 | pings left | tables per token |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for (install, size), budget in results.items():
        r = budget.refusals
        mean = budget.seconds / max(1, budget.games) / 60
        late = budget.late
        lines.append(
            f"| {install} | {size} | {budget.human.moments} | {mean:.1f} / "
            f"{budget.longest / 60:.1f} | {late.moments} | {budget.bot_per_human_move():.3f} | "
            f"{late.bot_calls / max(1, late.moments):.3f} | "
            f"{budget.interaction_per_human_move():.2f} | {r.rate_limited} | {r.followup_cap} | "
            f"{r.dead_token} | {r.refused} | {r.pings_left} | {carried(budget)} |"
        )
    for (install, size), budget in results.items():
        lines += ["", f"## {install}, {size} tables at once ({budget.games} games)", ""]
        lines += breakdown(budget)
        if budget.slow:
            lines += ["", f"{budget.slow} clicks' answers were not waited for (SimCord)."]
    return "\n".join(lines) + "\n"


def sizes(value: str) -> list[int]:
    found = [int(part) for part in value.split(",") if part.strip()]
    if not found or min(found) < 1:
        raise argparse.ArgumentTypeError("table counts are positive integers, e.g. 10,40,200")
    return found


def installs(value: str) -> list[str]:
    found = [part.strip() for part in value.split(",") if part.strip()]
    if not found or not set(found) <= set(INSTALLS):
        raise argparse.ArgumentTypeError(f"installs are {', '.join(INSTALLS)}")
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--games", type=int, default=8, help="games (default 8)")
    parser.add_argument("--seed", type=int, default=1, help="seed of deals and humans (default 1)")
    parser.add_argument(
        "--threshold",
        type=int,
        default=None,
        help=f"points ending a game (40; {WHOLE_GAMES} with --tables)",
    )
    parser.add_argument("--ai", default="normal", choices=("easy", "normal", "hard"))
    parser.add_argument("--jobs", type=int, default=4, help="bots side by side (default 4)")
    parser.add_argument(
        "--install",
        type=installs,
        default=["server"],
        help="server, person or server,person: the app installed to the server (the bot a "
        "member) or to a person (group DMs; default server)",
    )
    parser.add_argument(
        "--tables",
        type=sizes,
        default=None,
        help="e.g. 10,40,200: for each, that many whole games at once on one bot "
        "(--games is not used then)",
    )
    parser.add_argument(
        "--breaks",
        type=float,
        default=None,
        help=f"share of human moves after a break of 30-100 s (0; {BREAKS} with --tables)",
    )
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"results file ({RESULTS})")
    args = parser.parse_args(argv)
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    if args.tables is None:
        threshold = 40 if args.threshold is None else args.threshold
        if len(args.install) == 1:
            budget = run(args.games, args.seed, threshold, args.ai, args.jobs, args.install[0])
            shown = report(budget, args.seed, threshold, args.ai, args.install[0])
        else:
            results = {
                (install, 1): run(args.games, args.seed, threshold, args.ai, args.jobs, install)
                for install in args.install
            }
            shown = report_tables(results, args.seed, threshold, args.ai)
    else:
        threshold = WHOLE_GAMES if args.threshold is None else args.threshold
        breaks = BREAKS if args.breaks is None else args.breaks
        results = run_tables(
            args.tables, args.install, args.seed, threshold, args.ai, args.jobs, breaks
        )
        shown = report_tables(results, args.seed, threshold, args.ai, breaks)
    print(shown, end="")
    write_report(args.out, shown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
