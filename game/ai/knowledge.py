"""What a seat can work out from its view: card tables, hand costs, unseen cards.

Everything here is plain ints and lists so the simulations in ``hard`` can
call it on their hot path.  Cards are ``Card`` (an ``IntEnum``): 1–6, 7 for
the Llama, 11–16 for the Plus cards and 20 for the pink Llama.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..actions import Action
from ..cards import Card, build_deck
from ..rules import Ruleset
from ..view import SeatView

LLAMA = Card.LLAMA
PINK_LLAMA = Card.PINK_LLAMA


def legal_moves(view: SeatView) -> tuple[Action, ...]:
    """The seat's legal moves; ``ValueError`` when it isn't its turn (there are none)."""
    if not view.legal:
        raise ValueError("It's not this seat's turn.")
    return view.legal


#: Step on the 1..6, Llama cycle (both llamas are 7), indexed by ``int(card)``.
STEP: tuple[int, ...] = tuple(
    (7 if c in (7, 20) else c % 10) if c in set(int(x) for x in Card) else 0 for c in range(21)
)
#: ``MASK_SUM[m]`` is the sum of the numbers whose bit ``1 << n`` is set in ``m``.
MASK_SUM: tuple[int, ...] = tuple(sum(n for n in range(1, 7) if m >> n & 1) for m in range(128))


def hand_cost(hand: Iterable[int], each_llama: bool) -> int:
    """The penalty of a hand (same as ``game.penalty_points``, but fast); ``each_llama``:
    every llama costs 10 (``LlamaCost.EACH``), else 10 for one or more."""
    mask = 0
    llamas = 0
    pink = 0
    for c in hand:
        if c == 7:
            llamas += 1
        elif c == 20:
            pink = 20
        else:
            mask |= 1 << (c % 10)
    if llamas:
        return MASK_SUM[mask] + pink + (10 * llamas if each_llama else 10)
    return MASK_SUM[mask] + pink


def discard_saving(hand: Sequence[int], each_llama: bool) -> int:
    """Points the No Drama holder saves by discarding the best card of ``hand``."""
    if not hand:
        return 0
    base = hand_cost(hand, each_llama)
    best = 0
    for c in set(hand):
        rest = list(hand)
        rest.remove(c)
        saving = base - hand_cost(rest, each_llama)
        if saving > best:
            best = saving
    return best


def full_deck(ruleset: Ruleset) -> list[Card]:
    return build_deck(ruleset)


def unseen_cards(view: SeatView) -> list[Card]:
    """Cards this seat has not seen: the deck minus its hand minus the discard pile.

    They are exactly the other hands (active or laid down) and the draw pile,
    in an order the seat cannot know.  Sorted, so the result depends only on
    the view.
    """
    counts: dict[Card, int] = {}
    for c in full_deck(view.ruleset):
        counts[c] = counts.get(c, 0) + 1
    for c in view.hand:
        counts[c] -= 1
    for c in view.discard:
        counts[c] -= 1
    out: list[Card] = []
    for c in sorted(counts):
        n = counts[c]
        if n < 0:
            raise ValueError(f"the view shows more {c.label} cards than the deck has")
        out.extend([c] * n)
    hidden = sum(n for s, n in enumerate(view.hand_sizes) if s != view.seat) + view.draw_pile
    if hidden != len(out):
        raise ValueError(f"the view hides {hidden} cards but {len(out)} are unseen")
    return out
