"""Measure the AI strengths: whole games between them, seats rotated.

    python -m benchmarks.ai_tournament                      # every pairing, 2000 games each
    python -m benchmarks.ai_tournament --games 200 --pairings hard-3normal
    python -m benchmarks.ai_tournament --no-drama --party   # variants
    python -m benchmarks.ai_tournament --hard-budget 16     # a cheaper Hard, to measure
    python -m benchmarks.ai_tournament --pairings hard-3normal --deals-by-round \
        --paired-with hard-points                           # Hard against its points objective

Each pairing puts one *focus* player against copies of another strength.
Game ``i`` is dealt from seed ``i`` and the focus player sits at seat
``i % players``, so every seat (and so every first-round starter) is used
equally.  A game's winner scores 1; a win shared by ``k`` tied players scores
``1/k`` for each of them, so the shares of all seats add up to 1.  The table
gives the focus player's share with a 95% Wilson score interval (computed on
the share as the success rate over the games), next to the even share
``1/players``, and the average of each opponent seat.

``--deals-by-round`` seeds each round's deal from the game and the round,
and each decision from the round and the move.  ``--paired-with B`` then
plays every game again with strength ``B`` in the focus seat: the two plays
of a game get the same deals and part only where the focus seats choose
differently, and the table adds the paired difference of the focus win
shares with a 95% CI (normal approximation over the games).  Strengths:
``hard`` (the bot's at today's work), ``hard-idle`` (with the work an idle
machine gives it, ``HardParams.idle()``), ``hard-points`` (Hard scoring a simulated round by
relative points instead of the chance of winning the game), ``normal``,
``easy``, ``random``.

Games run in worker processes (``--workers``, default 2).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from multiprocessing import Pool
from multiprocessing.pool import Pool as ProcessPool

from game import Ruleset
from game.ai import EasyPlayer, HardParams, HardPlayer, NormalPlayer, Player, RandomPlayer
from game.ai.hard import DEFAULT_HARD
from game.match import Match
from testkit.arena import play_game, win_shares


@dataclass(frozen=True)
class Pairing:
    key: str
    focus: str
    opponent: str
    players: int

    @property
    def label(self) -> str:
        others = self.players - 1
        return f"{self.focus.capitalize()} vs {others} {self.opponent.capitalize()}"


PAIRINGS: tuple[Pairing, ...] = (
    Pairing("hard-3normal", "hard", "normal", 4),
    Pairing("hard-idle-3normal", "hard-idle", "normal", 4),
    Pairing("normal-3easy", "normal", "easy", 4),
    Pairing("easy-3random", "easy", "random", 4),
    Pairing("hard-1normal", "hard", "normal", 2),
    Pairing("hard-5normal", "hard", "normal", 6),
)


STRENGTHS = ("hard", "hard-idle", "hard-points", "normal", "easy", "random")


def make_player(kind: str, hard_budget: int | None) -> Player:
    if kind == "hard":
        return HardPlayer(samples=hard_budget)
    if kind == "hard-idle":  # the work an idle machine gives the bot's Hard
        return HardPlayer(HardParams.idle())
    if kind == "hard-points":
        return HardPlayer(replace(DEFAULT_HARD, win_model=False), samples=hard_budget)
    if kind == "normal":
        return NormalPlayer()
    if kind == "easy":
        return EasyPlayer()
    if kind == "random":
        return RandomPlayer()
    raise ValueError(kind)


@dataclass(frozen=True)
class Chunk:
    pairing: Pairing
    ruleset: Ruleset
    start: int
    stop: int
    hard_budget: int | None
    by_round: bool = False


@dataclass(frozen=True)
class Tally:
    games: int
    shares: tuple[float, ...]  # the focus player's share of each game, in game order
    focus_wins: float
    opponent_wins: float
    focus_points: int  # points added over all rounds (after refunds)
    opponent_points: int
    rounds: int
    seconds: float


def points_of(match: Match, seat: int) -> tuple[int, int]:
    """Points added over the game (after refunds): ``seat``'s, and all the others' together."""
    mine = theirs = 0
    for result in match.results:
        for row in result.seats:
            change = row.gained - row.returned
            if row.seat == seat:
                mine += change
            else:
                theirs += change
    return mine, theirs


def run_chunk(chunk: Chunk) -> Tally:
    t0 = time.perf_counter()
    p = chunk.pairing
    focus = make_player(p.focus, chunk.hard_budget)
    opponent = make_player(p.opponent, chunk.hard_budget)
    focus_wins = opponent_wins = 0.0
    focus_points = opponent_points = rounds = 0
    per_game: list[float] = []
    for game in range(chunk.start, chunk.stop):
        seat = game % p.players
        players: list[Player] = [opponent] * p.players
        players[seat] = focus
        match = play_game(players, chunk.ruleset, game, by_round=chunk.by_round)
        shares = win_shares(match)
        per_game.append(shares[seat])
        focus_wins += shares[seat]
        opponent_wins += sum(shares) - shares[seat]
        rounds += len(match.results)
        mine, theirs = points_of(match, seat)
        focus_points += mine
        opponent_points += theirs
    return Tally(
        games=chunk.stop - chunk.start,
        shares=tuple(per_game),
        focus_wins=focus_wins,
        opponent_wins=opponent_wins,
        focus_points=focus_points,
        opponent_points=opponent_points,
        rounds=rounds,
        seconds=time.perf_counter() - t0,
    )


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a success rate ``share`` over ``n`` trials."""
    if n == 0:
        return (0.0, 1.0)
    denom = 1 + z * z / n
    centre = (share + z * z / (2 * n)) / denom
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def run_pairing(
    pool: ProcessPool,
    pairing: Pairing,
    ruleset: Ruleset,
    games: int,
    hard_budget: int | None,
    chunk: int,
    by_round: bool = False,
) -> tuple[Tally, float]:
    chunks = [
        Chunk(pairing, ruleset, start, min(games, start + chunk), hard_budget, by_round)
        for start in range(0, games, chunk)
    ]
    t0 = time.perf_counter()
    tallies: list[Tally] = []
    for tally in pool.imap(run_chunk, chunks, chunksize=1):
        tallies.append(tally)
        # a running share on stderr, for a long run that may be cut short
        done = sum(t.games for t in tallies)
        share = sum(t.focus_wins for t in tallies) / done
        low, high = wilson(share, done)
        print(
            f"progress: {pairing.key} {done} games {pct(share)} ({pct(low)} – {pct(high)})",
            file=sys.stderr,
            flush=True,
        )
    wall = time.perf_counter() - t0
    total = Tally(
        games=sum(t.games for t in tallies),
        shares=tuple(x for t in tallies for x in t.shares),
        focus_wins=sum(t.focus_wins for t in tallies),
        opponent_wins=sum(t.opponent_wins for t in tallies),
        focus_points=sum(t.focus_points for t in tallies),
        opponent_points=sum(t.opponent_points for t in tallies),
        rounds=sum(t.rounds for t in tallies),
        seconds=sum(t.seconds for t in tallies),
    )
    return total, wall


def paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``a - b`` game by game, with its 95% CI (normal approximation)."""
    n = len(a)
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def row(pairing: Pairing, tally: Tally, wall: float) -> str:
    n = tally.games
    share = tally.focus_wins / n
    low, high = wilson(share, n)
    others = pairing.players - 1
    opp_share = tally.opponent_wins / n / others
    focus_ppr = tally.focus_points / tally.rounds
    opp_ppr = tally.opponent_points / tally.rounds / others
    return (
        f"| {pairing.label} | {n} | **{pct(share)}** | {pct(low)} – {pct(high)} "
        f"| {pct(1 / pairing.players)} | {pct(opp_share)} | {focus_ppr:.2f} | {opp_ppr:.2f} "
        f"| {tally.rounds / n:.1f} | {n / wall:.1f} |"
    )


HEADER = (
    "| Pairing | Games | Focus win share | 95% CI (Wilson) | Even share "
    "| Each opponent | Focus pts/round | Opponent pts/round | Rounds/game | Games/s |\n"
    "| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--games", type=int, default=2000, help="games per pairing (default 2000)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--chunk", type=int, default=20, help="games per work unit (default 20)")
    parser.add_argument(
        "--pairings",
        nargs="*",
        choices=[p.key for p in PAIRINGS],
        default=[p.key for p in PAIRINGS if p.focus != "hard-idle"],
        help="which pairings to run (default all but the slow hard-idle-3normal)",
    )
    parser.add_argument(
        "--hard-budget",
        type=int,
        default=None,
        help="determinizations per Hard decision (default: the real budget by table size)",
    )
    parser.add_argument(
        "--focus", choices=STRENGTHS, default=None, help="the focus player of every pairing"
    )
    parser.add_argument(
        "--paired-with",
        choices=STRENGTHS,
        default=None,
        help="play every game again with this focus player and compare (implies --deals-by-round)",
    )
    parser.add_argument(
        "--deals-by-round",
        action="store_true",
        help="seed each deal from the game and the round, each decision from the move",
    )
    parser.add_argument("--no-drama", action="store_true", help="play with the No Drama card")
    parser.add_argument("--party", action="store_true", help="play the Party Edition")
    parser.add_argument("--komarami", action="store_true", help="play Lato z Komarami")
    parser.add_argument("--threshold", type=int, default=40, help="end threshold (default 40)")
    args = parser.parse_args(argv)
    by_round = args.deals_by_round or args.paired_with is not None

    ruleset = Ruleset(
        no_drama=args.no_drama, party=args.party, komarami=args.komarami, threshold=args.threshold
    )
    variants = ", ".join(ruleset.presets) or "base game"
    budget = "real budget" if args.hard_budget is None else f"{args.hard_budget} per decision"
    print(f"# AI tournament: {variants}, threshold {ruleset.threshold}")
    print()
    print(
        f"{args.games} games per pairing, seats rotated, {args.workers} workers, "
        f"Hard determinizations: {budget}."
    )
    print("A shared win counts 1/k for each of k tied winners; CI = 95% Wilson interval.")
    if by_round:
        print("Deals seeded by game and round, decisions by round and move.")
    print()
    print(HEADER, flush=True)
    wanted = [p for p in PAIRINGS if p.key in args.pairings]
    if args.focus is not None:
        wanted = [replace(p, focus=args.focus) for p in wanted]
    differences: list[str] = []
    with Pool(args.workers) as pool:
        for pairing in wanted:
            tally, wall = run_pairing(
                pool, pairing, ruleset, args.games, args.hard_budget, args.chunk, by_round
            )
            print(row(pairing, tally, wall), flush=True)
            if args.paired_with is None:
                continue
            other = replace(pairing, focus=args.paired_with)
            other_tally, other_wall = run_pairing(
                pool, other, ruleset, args.games, args.hard_budget, args.chunk, by_round
            )
            print(row(other, other_tally, other_wall), flush=True)
            mean, low, high = paired(tally.shares, other_tally.shares)
            same = sum(x == y for x, y in zip(tally.shares, other_tally.shares, strict=True))
            differences.append(
                f"- {pairing.focus} − {other.focus} against {pairing.opponent}, "
                f"{pairing.players} players: **{100 * mean:+.1f} points of win share** "
                f"(95% CI {100 * low:+.1f} – {100 * high:+.1f}, paired over {tally.games} games; "
                f"the same result in {same})"
            )
    if differences:
        print()
        print("Paired differences of the focus win share:")
        print("\n".join(differences))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
