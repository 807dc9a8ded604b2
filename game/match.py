"""A match: rounds dealt, played and scored until someone reaches the threshold."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from functools import cache
from typing import Any

from .actions import DRAW, PLAY, QUIT, Action
from .cards import Card, build_deck, sorted_cards
from .chips import Chips
from .errors import GameOver, IllegalMove, NoSuchSeat, ReplayError, RoundOver
from .events import CardDrawn, CardPlayed, Event, MoveEvent, PlayerQuit, RoundDealt
from .results import RoundResult, SeatResult
from .round import Round
from .rules import Ruleset, RulesetError
from .scoring import best_discard, chip_returned, penalty
from .view import PublicView, SeatView


class Match:
    """The whole game. Chance is explicit: ``deal(seed)`` starts each round.

    Every change goes through an event, so ``Match.replay(ruleset, players,
    match.events)`` rebuilds an equal match.
    """

    def __init__(self, ruleset: Ruleset, players: int) -> None:
        if not isinstance(ruleset, Ruleset):
            raise RulesetError(f"A game needs a Ruleset, not {type(ruleset).__name__}.")
        ruleset.check_players(players)
        self.ruleset = ruleset
        self.players = players
        self.points: list[int] = [0] * players
        self.round: Round | None = None
        self.results: list[RoundResult] = []
        self.next_starter: int | None = None  # None before round 1: the deal picks one
        self.winners: tuple[int, ...] = ()
        self.events: list[Event] = []

    # ------------------------------------------------------------ status
    @property
    def over(self) -> bool:
        return bool(self.winners)

    @property
    def round_no(self) -> int:
        return len(self.results) + (1 if self.in_round else 0)

    @property
    def in_round(self) -> bool:
        return self.round is not None and not self.round.over

    @property
    def awaiting_deal(self) -> bool:
        return not self.over and not self.in_round

    @property
    def to_move(self) -> int | None:
        return self.round.to_move if self.round is not None else None

    def chips(self, seat: int) -> Chips:
        return Chips.of(self.points[seat], pink_chips=self.ruleset.pink_chips)

    # ------------------------------------------------------------ chance
    def deal(self, seed: int | str) -> RoundDealt:
        """Shuffle with a private RNG seeded by ``seed`` and deal the next round."""
        if self.over:
            raise GameOver()
        if self.in_round:
            raise IllegalMove("The round is still being played.")
        rng = random.Random(seed)
        deck = list(_deck(self.ruleset))
        _shuffle(rng, deck)
        starter = self.next_starter
        if starter is None:
            starter = rng.randrange(self.players)
        size = self.ruleset.hand_size
        hands = tuple(tuple(deck[i * size : (i + 1) * size]) for i in range(self.players))
        rest = deck[self.players * size :]
        event = RoundDealt(
            round_no=len(self.results) + 1,
            hands=hands,
            top=rest[0],
            draw_pile=tuple(rest[1:]),
            starter=starter,
        )
        self.start_round(event)
        return event

    def start_round(self, dealt: RoundDealt) -> None:
        """Start a round from a recorded or hand-made deal.

        The deal is checked field by field, and its cards must be the
        ruleset's deck: no card the deck doesn't have, none more often than
        the deck has it (a hand-made deal, a puzzle position, may leave cards
        out).  Anything else is refused with a ReplayError.
        """
        if self.over:
            raise GameOver()
        if self.in_round:
            raise IllegalMove("The round is still being played.")
        _check_deal(dealt, self.ruleset, self.players)
        if dealt.round_no != len(self.results) + 1:
            raise ReplayError(f"deal for round {dealt.round_no}, expected {len(self.results) + 1}")
        if self.next_starter is not None and dealt.starter != self.next_starter:
            raise ReplayError(f"round starts with seat {dealt.starter}, not {self.next_starter}")
        self.round = Round(self.ruleset, dealt)
        self.events.append(dealt)

    # ------------------------------------------------------------ moves
    def legal_actions(self) -> list[Action]:
        return self.round.legal_actions() if self.in_round and self.round else []

    def verify(self, seat: int, action: Action) -> None:
        if type(seat) is not int or not 0 <= seat < self.players:
            raise NoSuchSeat(seat)
        if self.over:
            raise GameOver()
        if self.round is None or self.round.over:
            raise RoundOver()
        self.round.verify(seat, action)

    def can(self, seat: int, action: Action) -> bool:
        try:
            self.verify(seat, action)
        except IllegalMove:
            return False
        return True

    def apply(self, seat: int, action: Action) -> MoveEvent:
        """Check and do ``seat``'s move; a rejected move raises and changes nothing.

        When the move ends the round, the round is scored at once and its
        result is ``self.results[-1]``.
        """
        self.verify(seat, action)
        return self.step(action)

    def step(self, action: Action) -> MoveEvent:
        """Do the move of the player to move, unchecked: ``action`` must come from
        ``legal_actions()``.  The fast path for simulations, like ``Round.step``,
        but it keeps the event list and scores the round when it ends.
        """
        rnd = self.round
        assert rnd is not None
        event = rnd.step(action)
        self.events.append(event)
        if rnd.to_move is None:
            self._score(rnd)
        return event

    def apply_event(self, event: Event) -> None:
        """Replay one recorded event; anything else raises ReplayError."""
        if type(event) is RoundDealt:
            self.start_round(event)
            return
        if type(event) not in (CardPlayed, CardDrawn, PlayerQuit):
            raise ReplayError(f"not an event: {event!r}")
        assert isinstance(event, CardPlayed | CardDrawn | PlayerQuit)
        if isinstance(event, CardPlayed) and type(event.card) is not Card:
            raise ReplayError(f"not a card: {event.card!r}")
        try:
            self.apply(event.seat, _action_of(event))
        except IllegalMove as error:
            raise ReplayError(f"event {event!r} is illegal here: {error}") from error

    @classmethod
    def replay(cls, ruleset: Ruleset, players: int, events: Iterable[Event]) -> Match:
        match = cls(ruleset, players)
        try:
            each = iter(events)
        except TypeError as error:
            raise ReplayError(f"not a list of events: {events!r}") from error
        for event in each:
            match.apply_event(event)
        return match

    # ------------------------------------------------------------ scoring
    def _score(self, rnd: Round) -> None:
        rules = self.ruleset
        holder = rnd.no_drama_holder if rules.no_drama_card else None
        rows: list[SeatResult] = []
        for seat in range(self.players):
            hand = sorted_cards(rnd.hands[seat])
            kept = list(hand)
            discarded = None
            if seat == holder:
                discarded = best_discard(kept, rules)
                if discarded is not None:
                    kept.remove(discarded)
            cost = penalty(kept, rules)
            emptied = seat == rnd.emptied_by
            before = self.points[seat]
            returned = 0
            # An empty hand gives back a chip (``rules.chip_back`` says which); so
            # does a No Drama discard that left nothing but the No Drama card.
            if emptied or (seat == holder and not kept):
                returned = chip_returned(before, rules)
            gained = 0 if emptied else cost.total
            total = before + gained - returned
            self.points[seat] = total
            rows.append(
                SeatResult(
                    seat=seat,
                    hand=hand,
                    discarded=discarded,
                    penalty=cost,
                    emptied=emptied,
                    gained=gained,
                    returned=returned,
                    total=total,
                    chips=Chips.of(total, pink_chips=rules.pink_chips),
                )
            )
        assert rnd.ended_by is not None
        self.next_starter = rnd.ended_by
        game_over = max(self.points) >= rules.threshold
        if game_over:
            low = min(self.points)
            self.winners = tuple(s for s, p in enumerate(self.points) if p == low)
        self.results.append(
            RoundResult(
                round_no=rnd.round_no,
                ended_by=rnd.ended_by,
                emptied_by=rnd.emptied_by,
                no_drama_holder=holder,
                seats=tuple(rows),
                game_over=game_over,
                winners=self.winners,
            )
        )

    # ------------------------------------------------------------ views
    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see: the public view and its own hand and moves."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise NoSuchSeat(seat)
        public = self.public_view()
        rnd = self.round
        live = rnd is not None and public.live
        return SeatView(
            seat=seat,
            ruleset=public.ruleset,
            round_no=public.round_no,
            hand=sorted_cards(rnd.hands[seat]) if rnd is not None and live else (),
            hand_sizes=public.hand_sizes,
            in_round=public.in_round,
            top=public.top,
            discard=public.discard,
            draw_pile=public.draw_pile,
            points=public.points,
            to_move=public.to_move,
            no_drama_holder=public.no_drama_holder,
            history=public.history,
            legal=tuple(rnd.legal_actions()) if rnd is not None and rnd.to_move == seat else (),
            game_over=public.game_over,
        )

    def public_view(self) -> PublicView:
        """What everyone may see: the table with every hand and the pile face down."""
        rnd = self.round
        if rnd is None or rnd.over:
            return PublicView(
                ruleset=self.ruleset,
                round_no=len(self.results),
                hand_sizes=(0,) * self.players,
                in_round=(False,) * self.players,
                top=None,
                discard=(),
                draw_pile=0,
                points=tuple(self.points),
                to_move=None,
                no_drama_holder=None,
                history=(),
                draw_refused=None,
                results=tuple(self.results),
                winners=self.winners,
            )
        refused = None
        if rnd.to_move is not None:
            try:
                rnd.verify(rnd.to_move, DRAW)
            except IllegalMove as error:
                refused = error.code
        return PublicView(
            ruleset=self.ruleset,
            round_no=rnd.round_no,
            hand_sizes=tuple(len(h) for h in rnd.hands),
            in_round=tuple(rnd.active),
            top=rnd.top,
            discard=tuple(rnd.discard),
            draw_pile=len(rnd.pile),
            points=tuple(self.points),
            to_move=rnd.to_move,
            no_drama_holder=rnd.no_drama_holder,
            history=tuple(rnd.history),
            draw_refused=refused,
            results=tuple(self.results),
            winners=self.winners,
        )

    # ------------------------------------------------------------ copies
    def clone(self) -> Match:
        """An independent copy: a move made on it leaves this match as it is.

        Cheap (lists copied, frozen events and results shared), so a move can be
        tried on a copy, saved, and only then take the place of the original.
        """
        other = Match.__new__(Match)
        other.ruleset = self.ruleset
        other.players = self.players
        other.points = list(self.points)
        other.round = self.round.clone() if self.round is not None else None
        other.results = list(self.results)
        other.next_starter = self.next_starter
        other.winners = self.winners
        other.events = list(self.events)
        return other

    # ------------------------------------------------------------ equality
    def snapshot(self) -> dict[str, Any]:
        """Everything that defines the match, as comparable plain data."""
        rnd = self.round
        return {
            "ruleset": self.ruleset,
            "players": self.players,
            "points": tuple(self.points),
            "results": tuple(self.results),
            "next_starter": self.next_starter,
            "winners": self.winners,
            "events": tuple(self.events),
            "round": None
            if rnd is None
            else (
                tuple(tuple(h) for h in rnd.hands),
                tuple(rnd.pile),
                tuple(rnd.discard),
                tuple(rnd.active),
                rnd.to_move,
                rnd.no_drama_holder,
                rnd.ended_by,
                rnd.emptied_by,
            ),
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]


def _shuffle(rng: random.Random, deck: list[Card]) -> None:
    """Exactly ``rng.shuffle(deck)`` — the same order from the same draws of the
    generator — without a method call per card."""
    getrandbits = rng.getrandbits
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]


_DECKS: dict[tuple[int, int, bool, bool], tuple[Card, ...]] = {}


def _deck(ruleset: Ruleset) -> tuple[Card, ...]:
    """The unshuffled deck, built once per deck the rulesets make."""
    key = (ruleset.copies, ruleset.llamas, ruleset.plus_cards, ruleset.pink_llama)
    deck = _DECKS.get(key)
    if deck is None:
        deck = _DECKS[key] = tuple(build_deck(ruleset))
    return deck


def _check_deal(dealt: RoundDealt, ruleset: Ruleset, players: int) -> None:
    """Refuse a deal that isn't one of this game's: every field of its exact type,
    a hand per seat, and only cards of the ruleset's deck."""
    if type(dealt) is not RoundDealt:
        raise ReplayError(f"not a deal: {dealt!r}")
    if type(dealt.round_no) is not int or type(dealt.starter) is not int:
        raise ReplayError(f"a deal with round {dealt.round_no!r}, starter {dealt.starter!r}")
    if not 0 <= dealt.starter < players:
        raise ReplayError(f"a deal started by seat {dealt.starter} in a {players}-seat game")
    hands, pile = dealt.hands, dealt.draw_pile
    if not isinstance(hands, tuple | list) or not isinstance(pile, tuple | list):
        raise ReplayError("a deal's hands and draw pile must be lists of cards")
    if len(hands) != players:
        raise ReplayError(f"a deal for {len(hands)} seats in a {players}-seat game")
    cards: list[Any] = [dealt.top, *pile]
    for hand in hands:
        if not isinstance(hand, tuple | list):
            raise ReplayError(f"a hand that is not a list of cards: {hand!r}")
        cards.extend(hand)
    if any(type(card) is not Card for card in cards):
        raise ReplayError("a deal with something that is not a card")
    if not Counter(cards) <= _deck_count(ruleset):
        raise ReplayError("a deal with cards this game's deck doesn't have")


def require_whole_deck(dealt: RoundDealt, ruleset: Ruleset) -> None:
    """Refuse a deal whose cards are not exactly the ruleset's whole deck.

    :meth:`Match.start_round` lets a hand-made deal (a puzzle) leave cards out;
    a game the bot dealt and stored never does, so one that does was changed
    or corrupted, and playing it on would give its players other odds.
    """
    cards = [dealt.top, *dealt.draw_pile, *(card for hand in dealt.hands for card in hand)]
    if Counter(cards) != _deck_count(ruleset):
        raise ReplayError(f"round {dealt.round_no} was not dealt from this game's whole deck")


@cache
def _deck_count(ruleset: Ruleset) -> Counter[Card]:
    return Counter(_deck(ruleset))


def _action_of(event: MoveEvent) -> Action:
    if isinstance(event, CardPlayed):
        return PLAY[event.card]
    if isinstance(event, CardDrawn):
        return DRAW
    return QUIT
