"""A round made for Hard's playouts: value counts per hand, no events, no checks.

Hard plays the rest of the round out thousands of times per decision, every
seat on the Normal heuristic.  ``Round`` is made for the game: hands are
lists, every move writes an event and ``apply`` checks it.  A playout needs
none of that.  :class:`Playout` keeps each hand as counts by ``int(card)``,
plus two packed codes kept up to date move by move (by card, and by step on
the 1..6, Llama cycle as ``normal`` packs hands), and plays the moves the
Normal policy picks without checking them: the policy only picks legal ones.

Normal's two costly questions are memoized on those codes:

* which card to play when several fit, by (hand, top, table context, refund);
* what drawing is expected to cost, by (hand's steps, top's step, table
  context, refund): the cost of the hand with each kind of card added, so
  only the weighting by the unseen cards is left to do per decision.

Both answers are pure functions of the key, computed on a miss by Normal's
own code (``decide_core``, ``_Estimate.cost``), so a playout makes exactly
the moves ``sim.rollout`` makes on a ``Round`` and Normal makes through
``Match.apply`` (``tests/game/ai/test_players.py`` checks it position by position).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

from ..actions import DRAW, QUIT, Action, Play
from ..cards import FITS, PLUS_CARDS, Card
from ..round import Round
from ..rules import LlamaCost, Ruleset
from ..scoring import chip_returned
from .alone import DRAWS, alone_move
from .knowledge import STEP, discard_saving, hand_cost
from .normal import (
    _CODE,
    _DRAW_KINDS,
    DEFAULT_PARAMS,
    NormalParams,
    _Estimate,
    decide_core,
    draw_or_quit,
    forget_oldest,
)
from .normal_layout import OPP_MIN, OPPONENTS

KINDS: tuple[int, ...] = tuple(int(c) for c in Card)
#: ``FIT[top]``: the cards that may go on ``top``, ascending (``int(card)`` indexes).
FIT: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(int(c) for c in FITS[Card(t)])) if t in KINDS else () for t in range(21)
)
_PLUS = frozenset(int(c) for c in PLUS_CARDS)
_CARD: dict[int, Card] = {int(c): c for c in Card}
#: ``_TURN_ORDER[players][seat]``: the other seats in turn order from the next one.
_TURN_ORDER: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple((seat + k) % n for k in range(1, n)) for seat in range(n)) for n in range(7)
)
#: ``normal._DRAW_KINDS`` as (index, card kinds), and without the Party Edition's cards.
_DRAW_INDEXED: tuple[tuple[int, tuple[int, ...]], ...] = tuple(
    (k, kinds) for k, (_card, kinds) in enumerate(_DRAW_KINDS)
)
_DRAW_KINDS_PLAIN: tuple[tuple[int, tuple[int, ...]], ...] = tuple(
    (k, tuple(c for c in kinds if c <= 7)) for k, kinds in _DRAW_INDEXED if kinds[0] <= 7
)
#: A hand packed by card: four bits per kind (a deck has at most ``MAX_COPIES`` = 12 of a kind).
_KEY: tuple[int, ...] = tuple((1 << (4 * KINDS.index(c))) if c in KINDS else 0 for c in range(21))
#: ``_FIT_MASK[top]``: the fields of ``_KEY`` of the cards that may go on ``top``.
_FIT_MASK: tuple[int, ...] = tuple(sum(15 * _KEY[c] for c in FIT[t]) for t in range(21))
#: The cards of a packed hand (``_KEY``), ascending, by the packed value (filled as met).
_FITS_HELD: dict[int, tuple[int, ...]] = {}
_SHIFTS: tuple[tuple[int, int], ...] = tuple((c, 4 * KINDS.index(c)) for c in KINDS)


_MEMO_LIMIT = 200_000
# Memos per (Normal parameters, llamas each, No Drama card): the answers depend on them.
_Memo = tuple[NormalParams, bool, bool]
# Every memo has int keys and values that hold no Python objects (ints, bytes), so the
# garbage collector never tracks one: a memo of tuples is walked entry by entry by every
# collection that meets it, tens of ms in a warm decision (``tests/game/ai/test_players.py``).
_PLAYS: dict[_Memo, dict[int, int]] = {}
#: ``hand_cost`` by the hand packed by card (``_KEY``), without and with llamas each
_COSTS: tuple[dict[int, int], dict[int, int]] = ({}, {})
#: For drawing or quitting: see ``_draw_costs``.
_DRAWS: dict[_Memo, dict[int, bytes]] = {}
#: The last two memos asked for (see ``_memos``).
_last: list[tuple[NormalParams, bool, bool, dict[int, int], dict[int, bytes]]] = []


def _memos(
    p: NormalParams, each_llama: bool, no_drama_card: bool
) -> tuple[dict[int, int], dict[int, bytes]]:
    """The memos for these rules and parameters (the last two asked for, the
    others' and Hard's own with ``HardParams.own_policy``, are found without
    hashing the parameters: that alone cost 5% of a playout)."""
    for lp, lk, ln, plays, draws in _last:
        if lp is p and lk == each_llama and ln == no_drama_card:
            if len(plays) > _MEMO_LIMIT:
                forget_oldest(plays)
            if len(draws) > _MEMO_LIMIT:
                forget_oldest(draws)
            return plays, draws
    key = (p, each_llama, no_drama_card)
    plays = _PLAYS.setdefault(key, {})
    draws = _DRAWS.setdefault(key, {})
    _last[:] = [(p, each_llama, no_drama_card, plays, draws), *_last[:1]]
    return _memos(p, each_llama, no_drama_card)


def _hand(counts: Sequence[int]) -> list[int]:
    return [c for c in KINDS for _ in range(counts[c])]


class Playout:
    """The state of a round for playing it out fast (see the module doc).

    ``remaining`` counts the cards not on the discard pile and ``stuck`` says
    who drew on the current top (``normal.opponents_stuck``): the public facts
    Normal uses, kept up to date by :meth:`move`.
    """

    __slots__ = (
        "rules",
        "counts",
        "codes",
        "keys",
        "sizes",
        "pile",
        "top",
        "active",
        "active_count",
        "to_move",
        "holder",
        "emptied_by",
        "remaining",
        "stuck",
    )

    rules: Ruleset
    counts: list[list[int]]
    codes: list[int]
    keys: list[int]
    sizes: list[int]
    pile: list[int]
    top: int
    active: list[bool]
    active_count: int
    to_move: int | None
    holder: int | None
    emptied_by: int | None
    remaining: list[int]
    stuck: list[bool]

    @classmethod
    def of(cls, rnd: Round, remaining: Sequence[int], stuck: Sequence[bool]) -> Playout:
        """The playout state of an unfinished ``rnd`` (which it leaves alone)."""
        st = cls.__new__(cls)
        st.rules = rnd.ruleset
        st.counts = []
        st.codes = []
        st.keys = []
        for hand in rnd.hands:
            counts = [0] * 21
            code = key = 0
            for c in hand:
                counts[c] += 1
                code += _CODE[c]
                key += _KEY[c]
            st.counts.append(counts)
            st.codes.append(code)
            st.keys.append(key)
        st.sizes = [len(h) for h in rnd.hands]
        st.pile = [int(c) for c in rnd.pile]
        st.top = int(rnd.discard[-1])
        st.active = list(rnd.active)
        st.active_count = rnd.active_count
        st.to_move = rnd.to_move
        st.holder = rnd.no_drama_holder
        st.emptied_by = rnd.emptied_by
        st.remaining = list(remaining)
        st.stuck = list(stuck)
        return st

    def clone(self) -> Playout:
        st = Playout.__new__(Playout)
        st.rules = self.rules
        st.counts = [list(c) for c in self.counts]
        st.codes = list(self.codes)
        st.keys = list(self.keys)
        st.sizes = list(self.sizes)
        st.pile = list(self.pile)
        st.top = self.top
        st.active = list(self.active)
        st.active_count = self.active_count
        st.to_move = self.to_move
        st.holder = self.holder
        st.emptied_by = self.emptied_by
        st.remaining = list(self.remaining)
        st.stuck = list(self.stuck)
        return st

    def hand(self, seat: int) -> list[int]:
        """``seat``'s cards, ascending."""
        return _hand(self.counts[seat])

    # ------------------------------------------------------------ moves
    def move(self, action: Action) -> None:
        """Do ``action`` for the player to move, unchecked: it must be legal."""
        if type(action) is Play:
            self.play(int(action.card))
        elif action == DRAW:
            self.draw()
        else:
            self.quit()

    def play(self, card: int) -> None:
        seat = self.to_move
        assert seat is not None
        self.counts[seat][card] -= 1
        self.codes[seat] -= _CODE[card]
        self.keys[seat] -= _KEY[card]
        self.sizes[seat] -= 1
        self.top = card
        self.remaining[card] -= 1
        stuck = self.stuck
        for s in range(len(stuck)):
            stuck[s] = False
        if not self.sizes[seat]:
            self.emptied_by = seat
            self.to_move = None
        elif card not in _PLUS:  # a Plus card keeps the turn
            self.to_move = self._next(seat)

    def draw(self) -> None:
        seat = self.to_move
        assert seat is not None
        card = self.pile.pop()
        self.counts[seat][card] += 1
        self.codes[seat] += _CODE[card]
        self.keys[seat] += _KEY[card]
        self.sizes[seat] += 1
        self.stuck[seat] = True
        self.to_move = self._next(seat)

    def quit(self) -> None:
        seat = self.to_move
        assert seat is not None
        self.active[seat] = False
        self.active_count -= 1
        if self.rules.no_drama_card:
            self.holder = seat
        self.to_move = self._next(seat) if self.active_count else None

    def _next(self, seat: int) -> int:
        active = self.active
        players = len(active)
        for k in range(1, players + 1):
            nxt = (seat + k) % players
            if active[nxt]:
                return nxt
        raise AssertionError("no active player left")  # callers check active_count

    # ------------------------------------------------------------ scoring
    def settle(self, points: Sequence[int]) -> list[int]:
        """Everybody's points after the finished round (the rules of ``Match._score``)."""
        rules = self.rules
        each_llama = rules.llama_cost is LlamaCost.EACH
        holder = self.holder if rules.no_drama_card else None
        costs = _COSTS[each_llama]
        if len(costs) > _MEMO_LIMIT:
            forget_oldest(costs)
        out: list[int] = []
        for seat, counts in enumerate(self.counts):
            before = points[seat]
            if seat == self.emptied_by:
                out.append(before - chip_returned(before, rules))
                continue
            if seat != holder:
                key = self.keys[seat]
                cost = costs.get(key)
                if cost is None:
                    cost = costs[key] = hand_cost(_hand(counts), each_llama)
                out.append(before + cost)
                continue
            hand = _hand(counts)  # the No Drama holder discards their best card
            if len(hand) == 1:
                out.append(before - chip_returned(before, rules))
                continue
            out.append(before + hand_cost(hand, each_llama) - discard_saving(hand, each_llama))
        return out


def play_out(
    st: Playout,
    points: Sequence[int],
    p: NormalParams = DEFAULT_PARAMS,
    own: tuple[int, NormalParams] | None = None,
) -> None:
    """Play ``st`` to the end of the round with every seat on the Normal heuristic.

    Each seat decides from its own hand and the public facts only, as Normal
    does through ``Match.apply``; with ``own`` (a seat, parameters) that seat
    plays Normal with those parameters instead of ``p`` (Hard's own later moves:
    ``HardParams.own_policy``).  The moves are :meth:`Playout.play`,
    ``draw`` and ``quit`` written out in the loop (this is the hot path).
    """
    rules = st.rules
    each_llama = rules.llama_cost is LlamaCost.EACH
    drama_card = rules.no_drama_card
    last_draws = rules.last_player_draws
    own_seat = -1
    if own is not None and own[1] is not p:  # (parameters, memos, stuck size, fit correction)
        own_seat, q = own
        own_state = (
            q,
            *_memos(q, each_llama, drama_card),
            q.stuck_opponent,
            bool(q.correction.fit),
        )
    plays_memo, draws_memo = _memos(p, each_llama, drama_card)
    fit_masks = _FIT_MASK
    fits_held = _FITS_HELD
    unpack_costs = _COSTS_PACKED.unpack
    counts_of = st.counts
    codes = st.codes
    keys = st.keys
    sizes = st.sizes
    active = st.active
    stuck = st.stuck
    remaining = st.remaining
    pile = st.pile
    players = len(counts_of)
    cleared = [False] * players
    turn_order = _TURN_ORDER[players]
    draw_kinds = _DRAW_INDEXED if rules.plus_cards or rules.pink_llama else _DRAW_KINDS_PLAIN
    refunds = [chip_returned(pt, rules) for pt in points]
    low = min(points)  # the lowest points of the others, for each seat:
    lows = [low] * players
    if points.count(low) == 1:  # the lowest seat's is the second lowest
        at = points.index(low)
        lows[at] = min(pt for s, pt in enumerate(points) if s != at)
    high = max(points)
    fit_corr = bool(p.correction.fit)
    stuck_size = p.stuck_opponent
    base_state = (p, plays_memo, draws_memo, stuck_size, fit_corr)
    unseen_all = sum(remaining)  # cards not on the discard pile: hands and draw pile
    top = st.top
    active_count = st.active_count
    holder = st.holder
    seat = st.to_move
    while seat is not None:
        counts = counts_of[seat]
        fitting = keys[seat] & fit_masks[top]  # the fitting cards held, packed
        fit = fits_held.get(fitting)
        if fit is None:
            fit = fits_held[fitting] = tuple(c for c, at in _SHIFTS if fitting >> at & 15)
        card = 0  # what the seat does: a card to play, DRAWS or 0 to quit
        if len(fit) == 1:
            card = fit[0]
        elif fit or (pile and (active_count > 1 or last_draws)):
            if own_seat >= 0:  # the seat's own parameters (one int compared when not)
                state = own_state if seat == own_seat else base_state
                p, plays_memo, draws_memo, stuck_size, fit_corr = state
            # ``normal._ctx`` written out: the opponents still in, and the
            # smallest hand among them (one who drew on this top counts larger)
            nopp = 0
            low = 99
            for s in turn_order[seat]:
                if active[s]:
                    nopp += 1
                    size = sizes[s] + stuck_size if stuck[s] else sizes[s]
                    if size < low:
                        low = size
            if not nopp:  # alone: two or more cards fit, or none and the house rule lets me draw
                card = alone_move(_hand(counts), counts, fit, top, remaining, len(pile))
            else:
                npile = len(pile)
                if npile <= nopp and low > 1:
                    low -= 1
                ctx = (nopp if nopp < OPPONENTS else OPPONENTS) - 1  # ``normal_layout.context``
                ctx = ctx * OPP_MIN + min(low, OPP_MIN) - 1
                refund = refunds[seat]
                if fit:
                    # (hand, top, ctx, refund): the hand's packed counts above five
                    # bits each for top (< 21), ctx (< 30) and refund (a chip: < 21)
                    key = (keys[seat] << 15) | (top << 10) | (ctx << 5) | refund
                    memo = plays_memo.get(key)
                    if memo is None:
                        order = [s for s in turn_order[seat] if active[s]]
                        opp_sizes = [sizes[s] for s in order]
                        opp_stuck = [stuck[s] for s in order]
                        action = decide_core(
                            _hand(counts), _CARD[top], True, seat, points, opp_sizes, opp_stuck,
                            len(pile), remaining, 0, rules, p,
                        )  # fmt: skip
                        assert type(action) is Play
                        memo = plays_memo[key] = int(action.card)
                    card = memo
                else:  # nothing fits: draw or quit, as decide_core decides it
                    top_step = STEP[top]
                    size = sizes[seat]
                    # (hand's steps, top's step, ctx, refund), packed as the plays' key
                    dkey = (codes[seat] << 13) | (top_step << 10) | (ctx << 5) | refund
                    packed = draws_memo.get(dkey)
                    if packed is None:
                        packed = draws_memo[dkey] = _draw_costs(
                            _hand(counts), top_step, ctx, refund + p.empty_bonus, each_llama,
                            drama_card,
                        )  # fmt: skip
                    costs = unpack_costs(packed)  # a tuple, freed at once
                    total = unseen_all - size  # not on the discard pile, not in my hand
                    if total:
                        go_on = 0.0
                        for k, kinds in draw_kinds:
                            m = 0
                            for kind in kinds:
                                m += remaining[kind] - counts[kind]
                            if m:
                                go_on += m * costs[k]
                        go_on /= total
                    else:
                        go_on = costs[_PLAIN]
                    # ``unseen`` is read only by a correction for the share of fitting cards
                    unseen = (
                        [r - c for r, c in zip(remaining, counts, strict=True)]
                        if fit_corr
                        else remaining
                    )
                    opp_sizes = [sizes[s] for s in turn_order[seat] if active[s]]
                    choice = draw_or_quit(
                        go_on, int(costs[_NOW]), int(costs[_SAVING]), size, _CARD[top],
                        points[seat], lows[seat],
                        high, opp_sizes, len(pile), unseen, total, refund, rules, p,
                    )  # fmt: skip
                    card = DRAWS if choice == DRAW else 0
        if card > 0:  # play it
            counts[card] -= 1
            codes[seat] -= _CODE[card]
            keys[seat] -= _KEY[card]
            sizes[seat] -= 1
            top = card
            remaining[card] -= 1
            unseen_all -= 1
            stuck[:] = cleared
            if not sizes[seat]:
                st.emptied_by = seat
                seat = None
                break
            if card in _PLUS:
                continue  # a Plus card keeps the turn
        elif card:  # draw
            drawn = pile.pop()
            counts[drawn] += 1
            codes[seat] += _CODE[drawn]
            keys[seat] += _KEY[drawn]
            sizes[seat] += 1
            stuck[seat] = True
        else:  # quit
            active[seat] = False
            active_count -= 1
            if drama_card:
                holder = seat
            if not active_count:
                seat = None
                break
        for nxt in turn_order[seat]:
            if active[nxt]:
                seat = nxt
                break
    st.top = top
    st.active_count = active_count
    st.holder = holder
    st.to_move = seat


#: Where ``_draw_costs`` puts the estimate without a card, the cost now and the saving.
_PLAIN, _NOW, _SAVING = len(_DRAW_KINDS), len(_DRAW_KINDS) + 1, len(_DRAW_KINDS) + 2
_COSTS_PACKED = struct.Struct(f"{_SAVING + 1}d")


def _draw_costs(
    hand: list[int], top_step: int, ctx: int, refund: float, each_llama: bool, no_drama_card: bool
) -> bytes:
    """For drawing or quitting with ``hand``: the estimate with each kind of card
    drawn (``normal._DRAW_KINDS`` order), then without one (``_PLAIN``), the
    cost now (``_NOW``) and what the No Drama card would save (``_SAVING``)."""
    est = _Estimate(ctx, each_llama, refund)
    n = len(hand) + 1
    grown = [*hand, 0]
    costs: list[float] = []
    for card, _kinds in _DRAW_KINDS:
        grown[-1] = card
        costs.append(est.cost(grown, top_step, n))
    saving = discard_saving(hand, each_llama) if no_drama_card else 0
    costs += (est.cost(hand, top_step, n), hand_cost(hand, each_llama), saving)
    return _COSTS_PACKED.pack(*costs)  # bytes, not objects: never tracked by the collector


__all__ = ["FIT", "QUIT", "Playout", "play_out"]
