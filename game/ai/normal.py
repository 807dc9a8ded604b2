"""Normal: a heuristic player that weighs its hand against the table.

Its core is an estimate of what a hand will cost at the end of the round if
the player goes on: every distinct value held costs its points times the
chance of still holding it when the round ends.  That chance depends on

* how far the value lies ahead of the top card on the 1..6, Llama cycle —
  the top only moves forward, so a value just behind it needs a full lap,
  and one equal to the top is passed as soon as somebody plays the next value;
* how many copies are held (all of them have to be played);
* the table: the number of opponents still in and the smallest hand among
  them (an opponent close to empty will end the round soon), and my own
  hand size.

The chances come from ``normal_tables.py``, measured from self-play by
``python -m benchmarks.calibrate``, so the estimate is what Normal's own play
really achieves.  An opponent who just drew on this very top card had nothing
that fit, so counts as a card further from empty; a draw pile too small for
another lap of draws brings the end closer.

Decisions:

* **Which card** when several fit: the one whose remaining hand is cheapest by
  that estimate, from the new top card.  A Plus card gives another turn at
  once, so it is scored by its best follow-up (and pays a little when it has
  none).  The pink Llama fits anything, so it counts like a value that can be
  played next turn.
* **Draw or quit** when nothing fits.  Quitting costs the hand now, less what
  the No Drama card saves if it stays with me.  Going on costs the estimate for
  the hand plus the drawn card, averaged over the unseen cards (deck minus own
  hand minus discard pile), less the chance of emptying the hand times the chip
  it would return (a 10 or 20 chip makes chasing an empty hand worth more).
  Near the end threshold a player who would lose the game by quitting gambles
  on, and one who would win plays safe.
* With a card that fits it always plays: playing never raises the hand's cost
  and quitting stays open for the next turn.

House rules (``game/rules.py``'s dimensions): Normal reads the llamas' cost, the
No Drama card, the chip an emptied hand gives back (``chip_back``: the refund it
weighs) and the unseen cards from the ruleset's own deck, so those are exact.  The
tables were measured on deals of 6 cards from the 56 (or 63) card decks; for other
hand sizes and decks Normal *assumes* the same chances, looked up by the hand sizes
it sees (its own hand 1-4, 5-6, 7 or more; the smallest opponent hand up to 6 or
more), which holds as far as a value's chance of staying in a hand depends on how
many cards are left rather than how many were dealt.  Alone in the round with nothing
that fits and allowed to draw (``last_player_draws``), it draws when the pile is
long enough to bring the values it lacks (``alone_draws``).

Normal never plays at random; ``rng`` is accepted for the common interface.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import count, islice
from typing import Any

from ..actions import DRAW, PLAY, QUIT, Action
from ..cards import FITS, Card
from ..events import CardDrawn, CardPlayed, MoveEvent
from ..rules import LlamaCost, Ruleset
from ..scoring import chip_returned
from ..view import SeatView
from .alone import alone_draws, alone_play
from .knowledge import STEP, discard_saving, hand_cost, legal_moves, unseen_cards
from .normal_layout import (
    COPY_STRIDE,
    DISTANCE_STRIDE,
    PINK_OFFSET,
    context,
    empty_index,
    run_steps,
    size_bucket,
    stuck_base,
)
from .normal_tables import EMPTY, STUCK

WIN = 1e6  # the score of emptying the hand: always taken
_KINDS: tuple[int, ...] = tuple(int(c) for c in Card)

# A hand's step counts packed into one int (5 bits per step; a hand never
# holds 32 cards of one step), the pink llama in its own field.
_CODE: tuple[int, ...] = tuple(
    (1 << 40) if c == 20 else (1 << (5 * STEP[c])) if STEP[c] else 0 for c in range(21)
)
# The memo of ``_Estimate.cost``.  Its keys are ints and its values floats, so
# the garbage collector never tracks it: a memo with tuple keys is walked entry
# by entry by every collection that meets it, 10-30 ms with a warm memo, in
# the middle of a Hard decision (``tests/game/ai/test_players.py``).
_MEMO: dict[int, float] = {}
_MEMO_LIMIT = 200_000  # about 35 MB at most
#: A small number for each refund ``_Estimate`` is asked with (its memo key's top bits).
_REFUNDS: dict[float, int] = {}
_REFUND_IDS = count()  # ``next`` on it never gives two threads the same number


@dataclass(frozen=True, slots=True)
class DrawCorrection:
    """Points added to the gain of drawing (over quitting) beyond the table estimate.

    The tables average over all situations; these terms add what they miss,
    with weights fitted by least squares to Monte Carlo evaluations of real
    draw-or-quit decisions (Hard's simulations with Normal play):
    ``bias + fit * (share of unseen cards that fit the top now) + pile * (draw
    pile / 10) + opp_min * (smallest opponent hand) + opponents * (opponents
    still in) + next_hand * (hand size of the next player) + refund * (chip an
    empty hand returns) + scale * (table gain)``.
    """

    bias: float = 0.0
    scale: float = 1.0
    fit: float = 0.0
    pile: float = 0.0
    opp_min: float = 0.0
    opponents: float = 0.0
    next_hand: float = 0.0
    refund: float = 0.0


DEFAULT_CORRECTION = DrawCorrection()


@dataclass(frozen=True, slots=True)
class NormalParams:
    """The few knobs on top of the calibrated tables."""

    #: bias towards quitting (positive) or drawing (negative), in points
    margin: float = 0.0
    #: cost of a Plus card with no follow-up (a draw or quit without a new top)
    plus_no_follow: float = 1.0
    #: an opponent who just drew on this top counts as this many cards further from empty
    stuck_opponent: int = 1
    #: chance of still holding No Drama at the end, per opponent still in
    keep_no_drama: float = 0.5
    #: bias towards drawing when quitting would lose the game at the threshold
    gamble: float = 4.0
    #: bias towards quitting when quitting keeps a winning lead near the threshold
    safe: float = 2.0
    #: "near the threshold": the leader is within this many points of it
    endgame: int = 10
    #: bias towards drawing near the threshold when this many points behind the best
    catch_up: float = 3.0
    behind: int = 5
    #: points counted for emptying the hand on top of the chip it returns (the
    #: others pay for their hands at once)
    empty_bonus: float = 0.0
    #: card choice: bonus per card of my own run from the new top
    run_bonus: float = 0.6
    #: card choice: extra cost per point of a value equal to the new top
    same_cost: float = 0.0
    #: draw or quit: a correction to the gain of drawing, fitted against Monte Carlo
    #: evaluations (see ``DrawCorrection``)
    correction: DrawCorrection = DEFAULT_CORRECTION


DEFAULT_PARAMS = NormalParams()


def _ctx(opp_sizes: Sequence[int], opp_stuck: Sequence[bool], pile: int, p: NormalParams) -> int:
    nopp = len(opp_sizes)
    low = 99
    for size, stuck in zip(opp_sizes, opp_stuck, strict=True):
        if stuck:
            size += p.stuck_opponent
        if size < low:
            low = size
    if pile <= nopp and low > 1:
        low -= 1  # hardly any draws left: players will have to quit soon
    return context(nopp, low)


def forget_oldest(memo: dict[Any, Any]) -> None:
    """Drop the older half of a full memo (dicts keep insertion order).

    Emptying it instead made every decision after it start cold, two or three
    times slower than with the memo warm: the spikes in Hard's latency.
    """
    for key in list(islice(memo, len(memo) // 2)):
        del memo[key]


class _Estimate:
    """Expected end-of-round cost of hands, in one table context."""

    __slots__ = ("ctx", "each_llama", "refund", "tag")

    def __init__(self, ctx: int, each_llama: bool, refund: float) -> None:
        self.ctx = ctx
        self.each_llama = each_llama
        self.refund = refund
        rid = _REFUNDS.get(refund)
        if rid is None:  # the first time: racing threads agree on the one setdefault kept
            rid = _REFUNDS.setdefault(refund, next(_REFUND_IDS))
        # the memo key's fields: refund | hand code (< 2**42) | size | top step | ctx | each_llama
        assert 0 <= ctx < 64
        self.tag = (rid << 72) | (ctx << 1) | each_llama

    def cost(self, hand: Sequence[int], top_step: int, size: int) -> float:
        """Expected cost of ``hand`` from ``top_step``, less the expected refund.

        ``size`` is the hand size the tables are looked up with (a hand about
        to get one more card uses the larger size).  Results are memoized: the
        simulations of ``hard`` ask about the same hands over and over.
        """
        code = 0
        for c in hand:
            code += _CODE[c]
        key = (((code << 10) | (size << 3) | top_step) << 7) | self.tag
        cached = _MEMO.get(key)
        if cached is not None:
            return cached
        if len(_MEMO) > _MEMO_LIMIT:
            forget_oldest(_MEMO)
        value = self._cost(hand, top_step, size)
        _MEMO[key] = value
        return value

    def _cost(self, hand: Sequence[int], top_step: int, size: int) -> float:
        counts = [0] * 8
        pink = False
        for c in hand:
            if c == 20:
                pink = True
            else:
                counts[STEP[c]] += 1
        run = run_steps(counts, top_step)
        base = stuck_base(self.ctx, size_bucket(size))
        total = 0.0
        gap = 0
        for step in range(1, 8):
            k = counts[step]
            if k:
                in_run = run >> step & 1
                if not in_run:
                    gap += k
                value = (10 * k if self.each_llama else 10) if step == 7 else step
                cell = (  # ``normal_layout.stuck_index`` written out
                    base
                    + ((step - top_step) % 7) * DISTANCE_STRIDE
                    + (COPY_STRIDE if k > 1 else 0)
                    + in_run
                )
                total += value * STUCK[cell]
        if pink:
            total += 20 * STUCK[base + PINK_OFFSET]
        if self.refund:
            total -= self.refund * EMPTY[empty_index(self.ctx, size, gap)]
        return total

    def after_play(self, hand: Sequence[int], card: int, p: NormalParams) -> float:
        """Expected cost after playing ``card`` (lower is better); -WIN for an empty hand."""
        rest = list(hand)
        rest.remove(card)
        if not rest:
            return -WIN
        if 11 <= card <= 16:  # a Plus card: I move again at once
            follow = set(rest).intersection(FITS[Card(card)])
            if follow:
                return min(self.after_play(rest, c, p) for c in sorted(follow))
            return self.cost(rest, STEP[card], len(rest)) + p.plus_no_follow
        cost = self.cost(rest, STEP[card], len(rest))
        if p.run_bonus or p.same_cost:
            top_step = STEP[card]
            counts = [0] * 8
            for c in rest:
                if c != 20:
                    counts[STEP[c]] += 1
            run = counts[top_step]
            step = top_step
            for _ in range(6):
                step = 1 if step == 7 else step + 1
                if not counts[step]:
                    break
                run += counts[step]
            value = (10 if top_step == 7 else top_step) if counts[top_step] else 0
            cost += p.same_cost * value - p.run_bonus * run
        return cost


# One representative card per step for the drawn-card average (a Plus card
# costs like its number; the pink llama is its own kind).
_DRAW_KINDS: tuple[tuple[int, tuple[int, ...]], ...] = (
    (1, (1, 11)),
    (2, (2, 12)),
    (3, (3, 13)),
    (4, (4, 14)),
    (5, (5, 15)),
    (6, (6, 16)),
    (7, (7,)),
    (20, (20,)),
)


def decide_core(
    hand: Sequence[int],
    top: Card,
    can_draw: bool,
    seat: int,
    points: Sequence[int],
    opp_sizes: Sequence[int],
    opp_stuck: Sequence[bool],
    pile: int,
    unseen: Sequence[int],
    unseen_total: int,
    rules: Ruleset,
    p: NormalParams = DEFAULT_PARAMS,
) -> Action:
    """The Normal decision from plain facts a seat knows.

    ``opp_sizes``/``opp_stuck`` describe the opponents still in the round, in
    turn order from the next player;
    ``unseen[c]`` counts unseen cards by ``int(card)`` (``unseen_total`` of them;
    only needed when nothing fits).
    """
    plays = sorted(FITS[top].intersection(hand))
    if len(plays) == 1:
        return PLAY[plays[0]]
    if not opp_sizes:
        if plays:
            return PLAY[alone_play(hand, plays)]
        return DRAW if can_draw and alone_draws(hand, top, unseen, pile) else QUIT
    each_llama = rules.llama_cost is LlamaCost.EACH
    my_points = points[seat]
    refund = chip_returned(my_points, rules)
    est = _Estimate(_ctx(opp_sizes, opp_stuck, pile, p), each_llama, refund + p.empty_bonus)
    if plays:
        best = plays[0]
        best_cost = 1e18
        for c in plays:
            cost = est.after_play(hand, c, p)
            if cost < best_cost:
                best, best_cost = c, cost
        return PLAY[best]
    if not can_draw:
        return QUIT

    # Nothing fits: draw or quit.  Going on: the hand plus the drawn card,
    # averaged over the unseen cards.
    n = len(hand) + 1
    top_step = STEP[top]
    if unseen_total:
        go_on = 0.0
        grown = [*hand, 0]
        for card, kinds in _DRAW_KINDS:
            m = 0
            for kind in kinds:
                m += unseen[kind]
            if m:
                grown[-1] = card
                go_on += m * est.cost(grown, top_step, n)
        go_on /= unseen_total
    else:
        go_on = est.cost(hand, top_step, n)

    saving = discard_saving(hand, each_llama) if rules.no_drama_card else 0
    low_other = min(pt for s, pt in enumerate(points) if s != seat)
    return draw_or_quit(
        go_on, hand_cost(hand, each_llama), saving, len(hand), top, my_points, low_other,
        max(points), opp_sizes, pile, unseen, unseen_total, refund, rules, p,
    )  # fmt: skip


def draw_or_quit(
    go_on: float,
    cost_now: int,
    saving: int,
    size: int,
    top: Card,
    my_points: int,
    low_other: int,
    high: int,
    opp_sizes: Sequence[int],
    pile: int,
    unseen: Sequence[int],
    unseen_total: int,
    refund: int,
    rules: Ruleset,
    p: NormalParams,
) -> Action:
    """Normal's choice when nothing fits, given ``go_on`` (the expected cost of
    drawing), the hand's cost now, what the No Drama card would save (``saving``)
    and the hand's size; ``low_other`` and ``high`` are the lowest points of
    the others and the highest of all.  Shared with the playouts (``playout``),
    which get ``go_on`` from their own memo, so both decide alike to the last bit.
    """
    quit_cost = float(cost_now)
    if rules.no_drama_card:
        if size == 1:
            saving += refund
        quit_cost -= saving * p.keep_no_drama ** len(opp_sizes)

    corr = p.correction
    if corr is DEFAULT_CORRECTION:
        # every term below is 0.0 and the scale 1.0: the same number, sooner
        gain = quit_cost - go_on
    else:
        fit_share = 0.0
        if unseen_total and corr.fit:
            fit_share = sum(unseen[f] for f in FITS[top]) / unseen_total
        gain = (
            corr.scale * (quit_cost - go_on)
            + corr.bias
            + corr.fit * fit_share
            + corr.pile * pile / 10
            + corr.opp_min * min(opp_sizes)
            + corr.opponents * len(opp_sizes)
            + corr.next_hand * opp_sizes[0]
            + corr.refund * refund
        )
    margin = p.margin
    after_quit = my_points + cost_now
    if after_quit >= rules.threshold:
        if after_quit > low_other:
            margin -= p.gamble  # quitting would lose the game: go on
    elif high >= rules.threshold - p.endgame:
        if after_quit < low_other:
            margin += p.safe  # the game may end soon and I'm ahead: bank it
        elif my_points > low_other + p.behind:
            margin -= p.catch_up  # the game may end soon and I'm behind: chase the empty
    return DRAW if gain > margin else QUIT


def opponents_stuck(view: SeatView) -> list[bool]:
    """For each seat: its last move was a draw and no card was played since.

    Such a player most likely had nothing that fits the current top card.
    """
    return stuck_after(view.players, view.history)


def stuck_after(players: int, history: Sequence[MoveEvent]) -> list[bool]:
    """``opponents_stuck`` for the table after the moves ``history``."""
    stuck = [False] * players
    decided = [False] * players
    played_since = False
    for event in reversed(history):
        s = event.seat
        if not decided[s]:
            decided[s] = True
            if isinstance(event, CardDrawn) and not played_since:
                stuck[s] = True
        if isinstance(event, CardPlayed):
            played_since = True
    return stuck


def unseen_counts(view: SeatView) -> tuple[list[int], int]:
    counts = [0] * 21
    cards = unseen_cards(view)
    for c in cards:
        counts[c] += 1
    return counts, len(cards)


class NormalPlayer:
    """A heuristic player; deterministic for a given view."""

    name = "normal"

    def __init__(self, params: NormalParams = DEFAULT_PARAMS) -> None:
        self.params = params

    def decide(self, view: SeatView, rng: random.Random) -> Action:
        legal = legal_moves(view)
        if len(legal) == 1:
            return legal[0]
        assert view.top is not None
        stuck = opponents_stuck(view)
        # opponents still in, in turn order from the next player
        opp = [
            s for k in range(1, view.players) if view.in_round[s := (view.seat + k) % view.players]
        ]
        counts, total = unseen_counts(view)
        action = decide_core(
            view.hand,
            view.top,
            DRAW in legal,
            view.seat,
            view.points,
            [view.hand_sizes[s] for s in opp],
            [stuck[s] for s in opp],
            view.draw_pile,
            counts,
            total,
            view.ruleset,
            self.params,
        )
        return action if action in legal else legal[0]
