"""Alone in a round: the last player left, whom nobody else moves the top card for.

Normal's choices there (``normal.decide_core``), shared with Hard's playouts
(``playout``) so both decide alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import FITS, Card
from .knowledge import STEP

DRAWS = -1  # the playout loop's code for drawing (cards are 1..20, quitting 0)


def alone_play(hand: Sequence[int], plays: Sequence[Card]) -> Card:
    """Alone in the round: play along the longest own run (no one else moves the top)."""
    best = plays[0]
    best_left = 1 << 30
    for c in plays:
        rest = list(hand)
        rest.remove(c)
        top: int = c
        while True:  # greedy: same step first, then the next
            fit = sorted(
                FITS[Card(top)].intersection(rest), key=lambda x: (STEP[x] != STEP[top], x)
            )
            if not fit:
                break
            top = fit[0]
            rest.remove(top)
        left = len(rest)
        if left < best_left:
            best, best_left = c, left
    return best


def alone_draws(hand: Sequence[int], top: Card, unseen: Sequence[int], pile: int) -> bool:
    """Alone in the round with nothing that fits, and allowed to draw (the house rule
    ``last_player_draws``): whether to draw rather than quit.

    Alone, the top moves only with my own cards, so drawing on can empty the whole
    hand (0 points and a chip back) if the pile holds the cards I lack on the way
    from the top to my furthest value.  Each value missing on that way takes about
    ``unseen / unseen of that value`` draws (cards drawn on the way that fill a
    later gap only shorten it); Normal draws when the pile is at least that long.
    ``unseen[c]`` counts the cards by ``int(card)`` in the pile and the other hands.
    """
    if not pile:
        return False
    top_step = STEP[top]
    held = {STEP[c] for c in hand}
    by_step = [0] * 8
    for c, n in enumerate(unseen):
        if n:
            by_step[STEP[c]] += n
    total = sum(by_step)
    furthest = max((s - top_step) % 7 for s in held)
    needed = 0.0
    for distance in range(1, furthest):
        step = (top_step + distance - 1) % 7 + 1
        if step not in held:
            if not by_step[step]:
                return False  # no card left to bridge this gap
            needed += total / by_step[step]
    return needed <= pile


def alone_move(
    hand: list[int], counts: Sequence[int], fit: Sequence[int], top: int, remaining: Sequence[int],
    pile: int,
) -> int:  # fmt: skip
    """Hard's playouts: what the last player left does with ``fit`` (the cards held
    that fit, two or more, or none when they may draw): a card to play, ``DRAWS``
    or 0 to quit; ``counts`` is ``hand`` by card, ``remaining`` the cards by card
    not on the discard pile."""
    if fit:
        return int(alone_play(hand, [Card(c) for c in fit]))
    unseen = [r - c for r, c in zip(remaining, counts, strict=True)]
    return DRAWS if alone_draws(hand, Card(top), unseen, pile) else 0
