"""Whole games between AI players, for tests and benchmarks.

Not part of the bot: it lives with the benchmarks that use it (the tests use it too).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from game.ai import Player
from game.match import Match
from game.rules import Ruleset
from game.view import SeatView

#: A game that has not ended after this many rounds is a bug somewhere.
MAX_ROUNDS = 500


def play_game(
    players: Sequence[Player],
    ruleset: Ruleset,
    seed: int | str,
    on_decision: Callable[[int, SeatView], None] | None = None,
    on_start: Callable[[Match], None] | None = None,
    by_round: bool = False,
) -> Match:
    """Play one game to its end; every deal and every decision is seeded from ``seed``.

    ``on_decision(seat, view)`` is called before each move (for sampling positions),
    ``on_start(match)`` once before the first deal (for experiments that peek).
    With ``by_round`` each deal is seeded from the game and the round, and each
    decision from the round and the move: two lineups that differ in one seat
    get the same deals, and play the same until that seat chooses differently
    (paired comparisons, ``ai_tournament.py --paired-with``).
    """
    match = Match(ruleset, len(players))
    if on_start is not None:
        on_start(match)
    rng = random.Random(f"game:{seed}")
    while not match.over:
        if match.round_no >= MAX_ROUNDS:
            raise RuntimeError(f"game {seed!r} did not end after {MAX_ROUNDS} rounds")
        r = match.round_no
        deal = random.Random(f"game:{seed}:{r}") if by_round else rng
        match.deal(seed=deal.getrandbits(64))
        move = 0
        while match.in_round:
            seat = match.to_move
            assert seat is not None
            view = match.view(seat)
            if on_decision is not None:
                on_decision(seat, view)
            decision = (
                random.Random(f"game:{seed}:{r}:{move}")
                if by_round
                else random.Random(rng.getrandbits(64))
            )
            action = players[seat].decide(view, decision)
            match.apply(seat, action)
            move += 1
    return match


def win_shares(match: Match) -> list[float]:
    """Each seat's share of the win: 1/k for each of k tied winners, else 0."""
    shares = [0.0] * match.players
    for s in match.winners:
        shares[s] = 1.0 / len(match.winners)
    return shares
