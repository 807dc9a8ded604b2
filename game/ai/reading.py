"""Reading the other players' hands from every move they made this round.

Easy and Normal decide deterministically from their hand and the table, so
each of their moves says something about the hand they held then:

* a play with two or more cards that fit says which one Normal prefers;
* a draw says nothing fit the top card then, and that going on looked
  better than quitting; a quit says nothing fit and the hand looked cheap.

A guess of a player's hand *now* is checked against all of their moves of
this round by walking back through them: a played card goes back into the
hand, a drawn card comes out again.  Which card was drawn is not known; when
exactly one card of the hand fits the top card they drew on, it must be that
one (they held nothing that fit), otherwise it is tried card by card.

Small hands are read exactly (:func:`weigh_hands`): every hand the unseen
cards allow is checked, and the ones that explain the moves are kept with
the number of ways they can be dealt — the exact chance of each hand given
the moves, one player at a time.  Small hands matter most (they end rounds)
and are the cheapest to list.  :func:`combine` then draws one hand per read
player into a deal the unseen cards allow; players with larger hands are
dealt at random within what their draws and quits rule out
(``sim.hints``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import comb

from ..actions import DRAW, PLAY, QUIT, Action
from ..cards import FITS, Card
from ..events import CardDrawn, CardPlayed
from ..round import Round
from ..rules import Ruleset
from ..view import SeatView
from .normal import DEFAULT_PARAMS, NormalParams, decide_core
from .sim import Limit, determinize_informed, remaining_counts

PLAYED, DREW, QUITTED = 0, 1, 2


class Move:
    """One move of another player, with the table as they saw it."""

    __slots__ = ("kind", "card", "top", "can_draw", "opp_sizes", "opp_stuck", "pile", "remaining")

    def __init__(
        self,
        kind: int,
        card: Card | None,
        top: Card,
        can_draw: bool,
        opp_sizes: list[int],
        opp_stuck: list[bool],
        pile: int,
        remaining: list[int],
    ) -> None:
        self.kind = kind
        self.card = card
        self.top = top
        self.can_draw = can_draw
        self.opp_sizes = opp_sizes
        self.opp_stuck = opp_stuck
        self.pile = pile
        self.remaining = remaining


def moves_by_seat(view: SeatView) -> dict[int, list[Move]]:
    """Every other player's moves this round, latest first, with the table they saw.

    The table before each move is rebuilt by undoing the moves after it:
    hand sizes, who was still in, the draw pile, the top card and the cards
    not yet on the discard pile.
    """
    players = view.players
    history = view.history
    # who was stuck (drew, nothing played since) before each move, forwards
    stuck_before: list[list[bool]] = []
    stuck = [False] * players
    for event in history:
        stuck_before.append(list(stuck))
        if type(event) is CardPlayed:
            stuck = [False] * players
        else:
            stuck[event.seat] = type(event) is CardDrawn
    sizes = list(view.hand_sizes)
    active = list(view.in_round)
    pile = view.draw_pile
    discard = list(view.discard)
    remaining = remaining_counts(view.ruleset, discard)
    out: dict[int, list[Move]] = {}
    for index in range(len(history) - 1, -1, -1):
        event = history[index]
        seat = event.seat
        kind = type(event)
        if kind is CardPlayed:
            remaining[discard.pop()] += 1
            sizes[seat] += 1
        elif kind is CardDrawn:
            pile += 1
            sizes[seat] -= 1
        else:
            active[seat] = True
        if seat == view.seat:
            continue
        order = [s for k in range(1, players) if active[s := (seat + k) % players]]
        was_stuck = stuck_before[index]
        out.setdefault(seat, []).append(
            Move(
                PLAYED if kind is CardPlayed else DREW if kind is CardDrawn else QUITTED,
                event.card if kind is CardPlayed else None,  # type: ignore[union-attr]
                discard[-1],
                pile > 0 and (bool(order) or view.ruleset.last_player_draws),
                [sizes[s] for s in order],
                [was_stuck[s] for s in order],
                pile,
                list(remaining),
            )
        )
    return out


def stuck_choice(
    hand: Sequence[Card],
    seat: int,
    m: Move,
    points: Sequence[int],
    rules: Ruleset,
    p: NormalParams,
) -> Action:
    """Normal's draw-or-quit with ``hand`` (nothing fits) at the table of ``m``."""
    unseen = list(m.remaining)  # from that player's seat: not on the discard, not in hand
    for c in hand:
        unseen[c] -= 1
    return decide_core(
        hand, m.top, True, seat, points, m.opp_sizes, m.opp_stuck, m.pile, unseen, sum(unseen),
        rules, p,
    )  # fmt: skip


def explains(
    hand: Sequence[Card],
    seat: int,
    moves: Sequence[Move],
    points: Sequence[int],
    rules: Ruleset,
    rng: random.Random,
    p: NormalParams = DEFAULT_PARAMS,
    budget: int = 64,
) -> bool:
    """Could a Normal player holding ``hand`` now have made ``moves`` (latest first)?

    Which card a draw brought is tried card by card (a depth-first search);
    after ``budget`` such tries the hand is given the benefit of the doubt.
    """
    return _Walk(seat, moves, points, rules, rng, p, budget).walk(0, list(hand))


class _Walk:
    """The search of :func:`explains`.  An object rather than a nested function:
    a function that calls itself through its closure is a reference cycle, left
    for the garbage collector to find, hundreds of times per Hard decision."""

    __slots__ = ("seat", "moves", "points", "rules", "rng", "p", "left")

    def __init__(
        self,
        seat: int,
        moves: Sequence[Move],
        points: Sequence[int],
        rules: Ruleset,
        rng: random.Random,
        p: NormalParams,
        budget: int,
    ) -> None:
        self.seat = seat
        self.moves = moves
        self.points = points
        self.rules = rules
        self.rng = rng
        self.p = p
        self.left = budget

    def walk(self, i: int, held: list[Card]) -> bool:
        moves, seat, points, rules, p = self.moves, self.seat, self.points, self.rules, self.p
        while i < len(moves):
            m = moves[i]
            fitting = FITS[m.top]
            if m.kind == PLAYED:
                assert m.card is not None
                held = [*held, m.card]
                if len(fitting.intersection(held)) >= 2:
                    action = decide_core(
                        held, m.top, m.can_draw, seat, points, m.opp_sizes, m.opp_stuck,
                        m.pile, m.remaining, 0, rules, p,
                    )  # fmt: skip
                    if action != PLAY[m.card]:
                        return False
            elif m.kind == DREW:
                fit = [j for j, c in enumerate(held) if c in fitting]
                if len(fit) > 1:
                    return False  # they drew while holding a card that fit
                if fit:
                    choices = fit
                else:
                    seen: set[Card] = set()
                    choices = []
                    for j, c in enumerate(held):
                        if c not in seen:
                            seen.add(c)
                            choices.append(j)
                    self.rng.shuffle(choices)
                for j in choices:
                    then = held[:j] + held[j + 1 :]
                    if stuck_choice(then, seat, m, points, rules, p) != DRAW:
                        continue
                    if len(choices) == 1:
                        held = then
                        break
                    self.left -= 1
                    if self.left < 0 or self.walk(i + 1, then):
                        return True
                else:
                    return False
                if len(choices) > 1:
                    return False
            else:
                if fitting.intersection(held):
                    return False  # Normal plays when a card fits
                if m.can_draw and stuck_choice(held, seat, m, points, rules, p) != QUIT:
                    return False
            i += 1
        return True


def _multisets(kinds: Sequence[tuple[Card, int]], size: int) -> list[tuple[list[Card], int]]:
    """Every hand of ``size`` cards the unseen ``kinds`` (card, copies) allow,
    with the number of ways to deal it (the product of binomials)."""
    out: list[tuple[list[Card], int]] = []
    _list_multisets(kinds, 0, size, [], 1, out)
    return out


def _list_multisets(
    kinds: Sequence[tuple[Card, int]],
    i: int,
    left: int,
    hand: list[Card],
    ways: int,
    out: list[tuple[list[Card], int]],
) -> None:
    # not a nested function: one calling itself through its closure is a reference cycle
    if left == 0:
        out.append((list(hand), ways))
        return
    if i == len(kinds):
        return
    card, copies = kinds[i]
    _list_multisets(kinds, i + 1, left, hand, ways, out)
    for k in range(1, min(copies, left) + 1):
        hand.extend([card] * k)
        _list_multisets(kinds, i + 1, left - k, hand, ways * comb(copies, k), out)
        del hand[-k:]


def weigh_hands(
    view: SeatView,
    unseen: Sequence[Card],
    moves: dict[int, list[Move]],
    rng: random.Random,
    limit: int,
    total: int,
    p: NormalParams = DEFAULT_PARAMS,
) -> tuple[dict[int, tuple[list[list[Card]], list[int]]], int]:
    """Every hand that explains a player's moves, with its weight, and a bound on
    what the reading cost: the hands checked times their holder's moves (most
    hands fail after a move or two; Hard counts it as work, ``READ_WORK`` each).

    Only players with at most ``limit`` possible hands are read, smallest
    hands first (they end rounds) until ``total`` hands have been checked;
    both bound the time.  The weight is the number of ways the unseen cards
    deal that hand, so drawing by weight samples the exact posterior of that
    player's hand (each player on their own; :func:`combine` fits them
    together).
    """
    counts: dict[Card, int] = {}
    for c in unseen:
        counts[c] = counts.get(c, 0) + 1
    kinds = sorted(counts.items())
    out: dict[int, tuple[list[list[Card]], list[int]]] = {}
    checked = 0
    for s in sorted(moves, key=lambda s: (view.hand_sizes[s], s)):
        size = view.hand_sizes[s]
        possible = _count_multisets(len(kinds), size)
        if not size or possible > limit or possible > total:
            continue
        total -= possible
        checked += possible * len(moves[s])
        hands: list[list[Card]] = []
        weights: list[int] = []
        for hand, ways in _multisets(kinds, size):
            if explains(hand, s, moves[s], view.points, view.ruleset, rng, p):
                hands.append(hand)
                weights.append(ways)
        if hands:
            out[s] = (hands, weights)
    return out, checked


def _count_multisets(kinds: int, size: int) -> int:
    return comb(kinds + size - 1, size)


def combine(
    view: SeatView,
    unseen: Sequence[Card],
    weighed: dict[int, tuple[list[list[Card]], list[int]]],
    limits: dict[int, list[Limit]],
    rng: random.Random,
    tries: int = 4,
) -> Round:
    """A deal with a hand drawn by weight for every read player; the other
    players and the draw pile are dealt as by ``determinize_informed``.

    A combination the unseen cards can't supply (two players given the same
    last card of a kind) is drawn again, up to ``tries`` times; after that
    the clashing players are dealt at random.
    """
    counts: dict[Card, int] = {}
    for c in unseen:
        counts[c] = counts.get(c, 0) + 1
    fixed: dict[int, list[Card]] = {}
    for attempt in range(tries + 1):
        left = dict(counts)
        fixed = {}
        clash = False
        for s in sorted(weighed):
            hands, weights = weighed[s]
            hand = rng.choices(hands, weights)[0]
            for c in hand:
                left[c] -= 1
            if any(left[c] < 0 for c in hand):
                for c in hand:
                    left[c] += 1
                clash = True
                if attempt < tries:
                    break
                continue
            fixed[s] = list(hand)
        if not clash:
            break
    rest = dict(counts)
    for hand in fixed.values():
        for c in hand:
            rest[c] -= 1
    cards = [c for c, n in rest.items() for _ in range(n)]
    sub = {s: lim for s, lim in limits.items() if s not in fixed}
    return determinize_informed(view, cards, sub, rng, fixed)


__all__ = [
    "DREW",
    "PLAYED",
    "QUITTED",
    "Move",
    "combine",
    "explains",
    "moves_by_seat",
    "weigh_hands",
]
