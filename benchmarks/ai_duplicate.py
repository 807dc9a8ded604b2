"""Duplicate play: the same deals played twice, strength A or B in the focus seat.

    python -m benchmarks.ai_duplicate                                # Hard vs Normal, 4,000 rounds
    python -m benchmarks.ai_duplicate --rounds 1000 --players 2 4 6 --variants base all
    python -m benchmarks.ai_duplicate --a hard:96 --b hard          # 3x the samples vs Hard
    python -m benchmarks.ai_duplicate --a normal --b easy --opponents normal
    python -m benchmarks.ai_duplicate --rounds 1000 --rules base party hand_size=7,llama_cost=each

``--rules`` takes rulesets as house rules are composed: presets (``game.rules.PRESETS``:
``no_drama``, ``party``, ``komarami``) and dimension changes (``name=value``, the names and
values of ``game.rules.DIMENSIONS``), comma-separated; ``base`` is the base game.

Win shares hardly move between good players (the deal decides most games),
so this measures strength where it shows.  Reference games are played with
every seat on the ``--opponents`` strength; each of their rounds is then
played twice from the same points and the same deal, once with A in the
focus seat and once with B, the other seats unchanged.  Every decision is
seeded from the round and the move number, so the two plays of a round only
part where the focus seat chooses differently.  The focus seat rotates with
the round.

For each play of a round the focus seat's *relative points* are the
opponents' mean point change minus its own (points are bad, so higher is
better).  The table reports their mean for A and for B, the paired
difference A - B with a 95% confidence interval (normal approximation over
the rounds), and how many rounds were played differently at all.

Strengths: ``random``, ``easy``, ``normal``, ``hard``, ``hard:N`` (Hard
with at most N determinizations per decision), ``hard-idle`` (Hard with
the work an idle machine gives it, ``HardParams.idle()``) and
``hard-idle-read`` (the idle work reading hands of up to 6 cards exactly:
an experiment of #28 that measured no gain), ``normal:k=v,...`` (Normal
with some parameters changed, e.g. ``normal:margin=0.5,c.pile=-0.5``: see
``normal_params``), and ``hard-own`` / ``hard-idle-own`` (today's or the idle
work with Hard's own seat played out by ``OWN_POLICY``, or by the Normal
given after a colon, ``hard-own:margin=1``: an experiment of #28), and ``hard-sees:K`` /
``hard-sees-all`` (today's Hard dealt the real hands of the opponents holding at most K
cards, or all of them: the most that reading the others' moves could ever win, in
this measure; ``benchmarks/ai_information.py``) and ``hard-blind`` (today's Hard dealing
the hidden cards at random, reading nothing into the others' moves), and ``normal-quits-alone``
(Normal never drawing as the last player left, for the house rule ``last_player_draws``).
Rounds run in worker processes (``--workers``, default 2); run it under ``nice`` on a shared
machine.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from multiprocessing import Pool
from multiprocessing.pool import Pool as WorkerPool
from typing import Any

from benchmarks.ai_information import Peek
from game import DIMENSIONS, DRAW, PRESETS, QUIT, Action, Ruleset, SeatView
from game.ai import EasyPlayer, HardParams, HardPlayer, NormalPlayer, Player, RandomPlayer
from game.ai.normal import DEFAULT_PARAMS, NormalParams
from game.events import RoundDealt
from game.match import Match
from testkit.arena import play_game

#: The ``--variants`` of earlier runs, as ``--rules`` specs.
VARIANTS: dict[str, str] = {
    "base": "base",
    "no-drama": "no_drama",
    "party": "party",
    "komarami": "komarami",
    "all": "no_drama,party,komarami",
}


def ruleset_of(spec: str) -> Ruleset:
    """The ruleset of a ``--rules`` spec: ``party,chip_back=none,last_player_draws=true``
    (presets in turn, then dimensions set to one of the values the lobby offers)."""
    presets: list[str] = []
    changes: dict[str, Any] = {}
    choices = {d.name: d.choices for d in DIMENSIONS}
    for item in spec.split(","):
        name, eq, value = item.strip().partition("=")
        if not eq:
            if name != "base":
                presets.append(name)
            continue
        if name == "threshold":
            changes[name] = int(value)
            continue
        offered = {str(c).lower(): c for c in choices.get(name, ())}
        if value.lower() not in offered:
            known = ", ".join(offered) or "none: not a dimension"
            raise ValueError(f"{name}={value}: the values of {name} are {known}")
        changes[name] = offered[value.lower()]
    unknown = [key for key in presets if key not in PRESETS]
    if unknown:
        raise ValueError(f"not a preset: {', '.join(unknown)} (presets: {', '.join(PRESETS)})")
    return Ruleset.compose(*presets, **changes)


#: Normal' for ``hard-own``: the parameters that beat Normal in duplicate play
#: (``normal:`` + this; README, AI strength).
OWN_POLICY = "margin=0.75,catch_up=0,endgame=5"


def normal_params(spec: str) -> NormalParams:
    """Normal's parameters with some changed: ``margin=-1,run_bonus=0.8,c.fit=2``
    (the names of ``NormalParams``' number fields, ``c.`` before those of its
    ``DrawCorrection``; the others keep their defaults)."""
    # the values are the fields' own types (checked below), which mypy can't follow
    changes: dict[str, Any] = {}
    corrections: dict[str, Any] = {}
    for item in spec.split(","):
        key, _, value = item.partition("=")
        base: object = DEFAULT_PARAMS
        field, into = key, changes
        if key.startswith("c."):
            field, into, base = key[2:], corrections, DEFAULT_PARAMS.correction
        default = getattr(base, field, None)
        if isinstance(default, bool) or not isinstance(default, int | float) or not value:
            raise ValueError(f"not a number parameter of Normal: {item!r}")
        into[field] = type(default)(value)
    correction = replace(DEFAULT_PARAMS.correction, **corrections)
    return replace(DEFAULT_PARAMS, **changes, correction=correction)


class QuitsAlone:
    """Normal, but never drawing as the last player left (what ``alone_draws`` is worth
    under the house rule ``last_player_draws``): ``normal-quits-alone``."""

    def __init__(self) -> None:
        self.normal = NormalPlayer()

    def decide(self, view: SeatView, rng: random.Random) -> Action:
        action = self.normal.decide(view, rng)
        return QUIT if action == DRAW and view.in_round.count(True) == 1 else action


def make_player(name: str) -> Player:
    """A player from its name: ``random``, ``easy``, ``normal``, ``normal:k=v,...``
    (Normal with some parameters changed), ``hard``, ``hard:N`` or ``hard-idle``."""
    kind, _, samples = name.partition(":")
    if kind == "normal" and samples:
        return NormalPlayer(normal_params(samples))
    if kind == "hard-idle" and not samples:
        return HardPlayer(HardParams.idle())
    if kind == "hard-idle-read" and not samples:  # an experiment: the idle work reading more
        return HardPlayer(replace(HardParams.idle(), read_limit=924, read_total=2000))
    if kind in ("hard-own", "hard-idle-own"):  # an experiment: Hard's own seat on Normal'
        base = HardParams.idle() if kind == "hard-idle-own" else HardParams()
        return HardPlayer(replace(base, own_policy=normal_params(samples or OWN_POLICY)))
    if kind == "hard":
        return HardPlayer(samples=int(samples) if samples else None)
    if kind == "hard-sees" and samples:  # an upper bound: real hands of up to K cards
        return HardPlayer(dealer=Peek(int(samples)))
    if kind == "hard-sees-all" and not samples:
        return HardPlayer(dealer=Peek(None))
    if kind == "hard-blind" and not samples:  # reads nothing into the others' moves
        return HardPlayer(replace(HardParams(), infer=False, read=False))
    if samples:
        raise ValueError(f"only Hard takes a sample count: {name!r}")
    players: dict[str, Player] = {
        "random": RandomPlayer(),
        "easy": EasyPlayer(),
        "normal": NormalPlayer(),
        "normal-quits-alone": QuitsAlone(),
    }
    if kind not in players:
        raise ValueError(f"unknown strength {name!r}")
    return players[kind]


@dataclass(frozen=True)
class Job:
    variant: str  # the row's name, part of the seeds (an old ``--variants`` name or a spec)
    rules: str  # its ``--rules`` spec
    players: int
    a: str
    b: str
    opponents: str
    games: range
    seed: str


#: One round played twice: (A's relative points, B's, whether the plays differ).
Outcome = tuple[float, float, bool]


def play_round(
    prefix: Match, dealt: RoundDealt, lineup: Sequence[Player], seed: str
) -> tuple[list[int], list[object]]:
    """Play one round from ``prefix`` (a copy of the game before the deal); the
    points change of every seat and the moves made."""
    match = Match.replay(prefix.ruleset, prefix.players, prefix.events)
    for player in lineup:
        dealer = getattr(player, "dealer", None)
        if isinstance(dealer, Peek):
            dealer.watch(match)  # a peeking Hard looks at this match's real hands
    before = list(match.points)
    match.start_round(dealt)
    start = len(match.events)
    while match.in_round:
        seat = match.to_move
        assert seat is not None
        rng = random.Random(f"{seed}:{len(match.events)}")
        match.apply(seat, lineup[seat].decide(match.view(seat), rng))
    change = [after - b for after, b in zip(match.points, before, strict=True)]
    return change, list(match.events[start:])


def relative(change: Sequence[int], focus: int) -> float:
    others = [c for s, c in enumerate(change) if s != focus]
    return sum(others) / len(others) - change[focus]


def run_job(job: Job) -> list[Outcome]:
    ruleset = ruleset_of(job.rules)
    n = job.players
    a, b, opponent = make_player(job.a), make_player(job.b), make_player(job.opponents)
    out: list[Outcome] = []
    for game in job.games:
        seed = f"{job.seed}:{job.variant}:{n}:{game}"
        reference = play_game([opponent] * n, ruleset, seed)
        events = reference.events
        deals = [i for i, e in enumerate(events) if isinstance(e, RoundDealt)]
        for r, at in enumerate(deals):
            prefix = Match.replay(ruleset, n, events[:at])
            dealt = events[at]
            assert isinstance(dealt, RoundDealt)
            focus = (game + r) % n
            plays = []
            for player in (a, b):
                lineup = [opponent] * n
                lineup[focus] = player
                plays.append(play_round(prefix, dealt, lineup, f"{seed}:{r}"))
            (change_a, moves_a), (change_b, moves_b) = plays
            out.append((relative(change_a, focus), relative(change_b, focus), moves_a != moves_b))
    return out


def summary(outcomes: Sequence[Outcome]) -> tuple[float, float, float, float, int]:
    """Mean relative points of A and of B, the mean paired difference, its 95%
    half-width, and the rounds played differently."""
    n = len(outcomes)
    diffs = [x - y for x, y, _ in outcomes]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    return (
        sum(x for x, _, _ in outcomes) / n,
        sum(y for _, y, _ in outcomes) / n,
        mean,
        1.96 * math.sqrt(var / n),
        sum(1 for *_, differs in outcomes if differs),
    )


#: Rounds a reference game is first taken to have (most have fewer: 5.5 at 4 players).
FIRST_GUESS = 7.0


def measure(
    pool: WorkerPool, variant: str, spec: str, players: int, args: argparse.Namespace
) -> tuple[list[Outcome], float]:
    """Enough reference games for ``args.rounds`` rounds (about 5.5 rounds a game
    with 4 players), run in chunks of ``args.chunk`` games, cut to the rounds wanted.

    The games are played in order and the first ``args.rounds`` rounds kept, so how
    many are asked for at a time changes the time, never the figures: first as if a
    game had ``FIRST_GUESS`` rounds (more than most), then at the rate seen so far.
    """
    t0 = time.perf_counter()
    outcomes: list[Outcome] = []
    next_game = 0
    while len(outcomes) < args.rounds:
        missing = args.rounds - len(outcomes)
        per_game = len(outcomes) / next_game if outcomes else FIRST_GUESS
        games = max(1, math.ceil(missing / per_game))
        jobs = [
            Job(
                variant,
                spec,
                players,
                args.a,
                args.b,
                args.opponents,
                range(start, min(next_game + games, start + args.chunk)),
                args.seed,
            )
            for start in range(next_game, next_game + games, args.chunk)
        ]
        next_game += games
        for part in pool.imap(run_job, jobs, chunksize=1):
            before = len(outcomes)
            outcomes.extend(part)
            if args.progress and len(outcomes) // args.progress > before // args.progress:
                # a running figure on stderr, for a run that may be cut short
                _, _, diff, half, _ = summary(outcomes)
                print(
                    f"progress: {players}p {variant} {len(outcomes)} rounds "
                    f"A - B {diff:+.3f} ± {half:.3f} "
                    f"({time.perf_counter() - t0:.0f} s)",
                    file=sys.stderr,
                    flush=True,
                )
    return outcomes[: args.rounds], time.perf_counter() - t0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--a", default="hard", help="strength A (default hard)")
    parser.add_argument("--b", default="normal", help="strength B (default normal)")
    parser.add_argument("--opponents", default="normal", help="the other seats (default normal)")
    parser.add_argument("--rounds", type=int, default=4000, help="rounds per row (default 4000)")
    parser.add_argument("--players", type=int, nargs="*", default=[4], choices=range(2, 7))
    parser.add_argument("--variants", nargs="*", default=[], choices=list(VARIANTS))
    parser.add_argument(
        "--rules",
        nargs="*",
        default=[],
        help="rulesets: presets and dimension=value, comma-separated (default base)",
    )
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--chunk", type=int, default=10, help="games per work unit (default 10)")
    parser.add_argument(
        "--seed", default="duplicate", help="seed prefix of the reference games (held out)"
    )
    parser.add_argument(
        "--progress",
        type=int,
        default=0,
        help="print the running A - B to stderr every this many rounds (0: never)",
    )
    args = parser.parse_args(argv)
    for name in (args.a, args.b, args.opponents):
        make_player(name)  # a bad name fails here, not in a worker
    # (row name, spec): the old variants keep their names, so their seeds stay the same
    rows = [(v, VARIANTS[v]) for v in args.variants] + [(r, r) for r in args.rules]
    rows = rows or [("base", "base")]
    for _, spec in rows:
        ruleset_of(spec)  # likewise a bad ruleset

    print(f"# Duplicate play: {args.a} (A) vs {args.b} (B), other seats {args.opponents}")
    print()
    print(
        f"{args.rounds} rounds per row, focus seat rotated, seeds {args.seed!r}, "
        f"{args.workers} workers. Relative points = opponents' mean point change minus "
        "the focus seat's (higher is better); CI = 95%, paired over the rounds."
    )
    print()
    print(
        "| Players | Rules | Rounds | A rel. pts/round | B rel. pts/round "
        "| A - B | 95% CI | Played differently | Seconds |"
    )
    print("| ---: | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |", flush=True)
    with Pool(args.workers) as pool:
        for variant, spec in rows:
            for players in args.players:
                outcomes, wall = measure(pool, variant, spec, players, args)
                rel_a, rel_b, diff, half, differs = summary(outcomes)
                print(
                    f"| {players} | {variant} | {len(outcomes)} | {rel_a:+.3f} | {rel_b:+.3f} "
                    f"| **{diff:+.3f}** | {diff - half:+.3f} – {diff + half:+.3f} "
                    f"| {differs} ({100 * differs / len(outcomes):.0f}%) | {wall:.0f} |",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
