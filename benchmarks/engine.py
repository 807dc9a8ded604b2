"""Rules engine benchmark: random legal games per second and moves per second.

Plays whole matches (dealing, playing and scoring every round until the
threshold) with moves picked by a seeded ``random.Random`` from
``legal_actions``, for 2, 4 and 6 players, the base game and every variant.

Two ways of making a move are timed:

- ``checked``: ``Match.apply(seat, action)`` — what the bot does; every move is
  verified once and then done.
- ``fast``: ``Match.step(action)`` — the unchecked path for simulations that
  take their moves from ``legal_actions`` (it still scores rounds and keeps
  the event list).

Only real moves (play, draw, quit) are counted; deals are not.

Run from the repository root or anywhere::

    python -m benchmarks.engine            # the full table
    python -m benchmarks.engine --quick    # fewer games
    python -m benchmarks.engine --profile  # cProfile of the fast path
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from game import Match, Ruleset

RULESETS: dict[str, Ruleset] = {
    "base": Ruleset(),
    "no_drama": Ruleset(no_drama=True),
    "party": Ruleset(party=True),
    "komarami": Ruleset(komarami=True),
    "all variants": Ruleset(no_drama=True, party=True, komarami=True),
}
PLAYER_COUNTS = (2, 4, 6)


def play_checked(ruleset: Ruleset, players: int, rng: random.Random) -> int:
    """One match through ``Match.apply``; returns the number of moves."""
    match = Match(ruleset, players)
    moves = 0
    randrange = rng.randrange
    while not match.over:
        match.deal(rng.getrandbits(64))
        rnd = match.round
        assert rnd is not None
        while rnd.to_move is not None:
            actions = rnd.legal_actions()
            match.apply(rnd.to_move, actions[randrange(len(actions))])
            moves += 1
    return moves


def play_fast(ruleset: Ruleset, players: int, rng: random.Random) -> int:
    """One match through ``Match.step`` (unchecked); returns the number of moves."""
    match = Match(ruleset, players)
    moves = 0
    randrange = rng.randrange
    step = match.step
    while not match.over:
        match.deal(rng.getrandbits(64))
        rnd = match.round
        assert rnd is not None
        legal_actions = rnd.legal_actions
        while rnd.to_move is not None:
            actions = legal_actions()
            step(actions[randrange(len(actions))])
            moves += 1
    return moves


PLAYERS = {"checked": play_checked, "fast": play_fast}


def measure(
    mode: str, ruleset: Ruleset, players: int, seconds: float, seed: int, repeat: int = 5
) -> tuple[float, float, float]:
    """Games/s and moves/s of the best of ``repeat`` batches (timeit-style: the
    best batch is the one least disturbed by other load), and moves per game."""
    play = PLAYERS[mode]
    rng = random.Random(seed)
    best_games = best_moves = 0.0
    all_games = all_moves = 0
    for _ in range(repeat):
        games = moves = 0
        start = time.perf_counter()
        deadline = start + seconds / repeat
        while True:
            for _ in range(10):
                moves += play(ruleset, players, rng)
                games += 1
            now = time.perf_counter()
            if now >= deadline:
                break
        elapsed = now - start
        if games / elapsed > best_games:
            best_games, best_moves = games / elapsed, moves / elapsed
        all_games += games
        all_moves += moves
    return best_games, best_moves, all_moves / all_games


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per cell (default 1)")
    parser.add_argument("--quick", action="store_true", help="0.2 s per cell")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--repeat", type=int, default=5, help="batches per cell; the best counts")
    parser.add_argument("--mode", choices=["checked", "fast", "both"], default="both")
    parser.add_argument("--profile", action="store_true", help="profile the fast path instead")
    args = parser.parse_args(argv)
    seconds = 0.2 if args.quick else args.seconds

    if args.profile:
        import cProfile
        import pstats

        rng = random.Random(args.seed)
        ruleset = RULESETS["all variants"]
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(2000):
            play_fast(ruleset, 4, rng)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
        return

    modes = ["checked", "fast"] if args.mode == "both" else [args.mode]
    print(
        f"Python {sys.version.split()[0]}, {seconds:g} s per cell, "
        f"best of {args.repeat} batches, seed {args.seed}"
    )
    print()
    print("| ruleset | players | mode | games/s | moves/s | moves/game |")
    print("|---|---:|---|---:|---:|---:|")
    for name, ruleset in RULESETS.items():
        for players in PLAYER_COUNTS:
            for mode in modes:
                games, moves, per_game = measure(
                    mode, ruleset, players, seconds, args.seed, args.repeat
                )
                print(
                    f"| {name} | {players} | {mode} | {games:,.0f} | {moves:,.0f} "
                    f"| {per_game:.1f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
