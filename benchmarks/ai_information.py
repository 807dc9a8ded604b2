"""What Hard's information is worth: Hard against 3 Normal, peeking or not.

    python -m benchmarks.ai_information                 # 400 games per row
    python -m benchmarks.ai_information --games 2000 --rows honest sees-all

Hard's one weakness is what it cannot see.  This runs the same seeded games
(``benchmarks/ai_tournament.py``'s seats and seeds) with Hard dealing its
determinizations

* ``honest``: as in the bot, from its own view and the public moves;
* ``sees-1``: like that, but with the real hand of every opponent down to
  one card;
* ``sees-all``: with every opponent's real hand (the draw pile's order stays
  hidden: it is shuffled per determinization).

Everything else — budget, rollouts, scoring — is Hard's own, so the gap
between the rows is the value of the information alone, an upper bound for
what better guessing of the hidden cards could win.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from multiprocessing import Pool

from benchmarks.ai_tournament import pct, points_of, wilson
from game import Ruleset
from game.ai import HardPlayer, NormalPlayer, Player
from game.ai.sim import build_round, determinize_informed, hints
from game.cards import Card
from game.match import Match
from game.round import Round
from game.view import SeatView
from testkit.arena import play_game, win_shares

ROWS = ("honest", "sees-1", "sees-all")
PLAYERS = 4


class Peek:
    """A Hard dealer that looks at the real round of the game it ``watch``es."""

    def __init__(self, up_to: int | None) -> None:
        self.up_to = up_to  # real hands of opponents holding at most this many; None: all
        self.match: Match | None = None

    def watch(self, match: Match) -> None:
        self.match = match

    def __call__(self, view: SeatView, unseen: Sequence[Card], rng: random.Random) -> Round:
        assert self.match is not None and self.match.round is not None
        real = self.match.round
        if self.up_to is None:
            pile = list(real.pile)
            rng.shuffle(pile)
            return build_round(view, [list(h) for h in real.hands], pile)
        fixed = {
            s: list(h) for s, h in enumerate(real.hands) if s != view.seat and len(h) <= self.up_to
        }
        rest = list(unseen)
        for hand in fixed.values():
            for card in hand:
                rest.remove(card)
        known = {s: lims for s, lims in hints(view).items() if s not in fixed}
        return determinize_informed(view, rest, known, rng, fixed=fixed)


def run(args: tuple[str, int, int]) -> tuple[float, int, int, int, float]:
    """Wins, focus points, opponent points, rounds and seconds for games start..stop."""
    kind, start, stop = args
    t0 = time.perf_counter()
    peek = None if kind == "honest" else Peek(1 if kind == "sees-1" else None)
    hard = HardPlayer(dealer=peek)
    normal = NormalPlayer()
    wins = 0.0
    focus_points = opponent_points = rounds = 0
    for game in range(start, stop):
        seat = game % PLAYERS
        players: list[Player] = [normal] * PLAYERS
        players[seat] = hard
        match = play_game(players, Ruleset(), game, on_start=peek.watch if peek else None)
        wins += win_shares(match)[seat]
        rounds += len(match.results)
        mine, theirs = points_of(match, seat)
        focus_points += mine
        opponent_points += theirs
    return wins, focus_points, opponent_points, rounds, time.perf_counter() - t0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--games", type=int, default=400, help="games per row (default 400)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--rows", nargs="*", choices=ROWS, default=list(ROWS))
    args = parser.parse_args(argv)
    print("# What Hard's information is worth: Hard vs 3 Normal, base game, threshold 40")
    print()
    print(f"{args.games} games per row, seeds 0..{args.games - 1}, seats rotated.")
    print()
    print(
        "| Hard deals its guesses | Games | Win share | 95% CI (Wilson) | Hard pts/round "
        "| Opponent pts/round |"
    )
    print("| --- | ---: | ---: | --- | ---: | ---: |", flush=True)
    chunk = 20
    with Pool(args.workers) as pool:
        for kind in args.rows:
            parts = [(kind, s, min(args.games, s + chunk)) for s in range(0, args.games, chunk)]
            results = pool.map(run, parts, chunksize=1)
            wins = sum(r[0] for r in results)
            rounds = sum(r[3] for r in results)
            share = wins / args.games
            low, high = wilson(share, args.games)
            print(
                f"| {kind} | {args.games} | **{pct(share)}** | {pct(low)} – {pct(high)} "
                f"| {sum(r[1] for r in results) / rounds:.2f} "
                f"| {sum(r[2] for r in results) / rounds / (PLAYERS - 1):.2f} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
