"""Property tests: random legal play over seeds, 2–6 players, every variant combination
and thresholds 5–60, checking the engine's invariants after every move."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game import (
    ALL_CARDS,
    DRAW,
    PLAY,
    QUIT,
    CardDrawn,
    CardPlayed,
    IllegalMove,
    Match,
    Play,
    PlayerQuit,
    Ruleset,
    SeatView,
    build_deck,
    event_from_json,
    sorted_cards,
)
from game.actions import Action

SETTINGS = settings(max_examples=60, deadline=None)
MAX_ROUNDS = 400

rulesets = st.builds(
    Ruleset,
    no_drama=st.booleans(),
    party=st.booleans(),
    komarami=st.booleans(),
    threshold=st.integers(5, 60),
)
players = st.integers(2, 6)
seeds = st.integers(0, 2**64 - 1)
# How often a player quits when something else is possible: from "never" to "uniform".
quit_biases = st.sampled_from([0.0, 0.05, 0.3, 1.0])

EVERY_ACTION: list[Action] = [PLAY[card] for card in sorted(ALL_CARDS)] + [DRAW, QUIT]

Check = Callable[[Match, random.Random], None]


def choose(rng: random.Random, actions: list[Action], quit_bias: float) -> Action:
    if len(actions) > 1 and rng.random() >= quit_bias:
        return rng.choice(actions[:-1])  # QUIT is always last
    return rng.choice(actions)


def play_match(
    ruleset: Ruleset,
    seats: int,
    seed: int,
    quit_bias: float,
    after_move: Check | None = None,
    after_round: Check | None = None,
) -> Match:
    """Play a whole match with seeded random legal moves, checking termination."""
    rng = random.Random(seed)
    match = Match(ruleset, seats)
    deck_size = len(build_deck(ruleset))
    for _ in range(MAX_ROUNDS):
        if match.over:
            return match
        previous_end = match.next_starter
        dealt = match.deal(rng.getrandbits(32))
        if previous_end is not None:
            assert dealt.starter == previous_end
        if after_move is not None:
            after_move(match, rng)
        # Each move plays a card (dealt or drawn), draws one or takes a player out.
        bound = 6 * seats + 2 * (deck_size - 6 * seats - 1) + seats
        moves = 0
        while match.in_round:
            assert moves < bound
            seat = match.to_move
            assert seat is not None
            match.apply(seat, choose(rng, match.legal_actions(), quit_bias))
            moves += 1
            if after_move is not None:
                after_move(match, rng)
        if after_round is not None:
            after_round(match, rng)
    raise AssertionError(f"match not over after {MAX_ROUNDS} rounds")


# ---------------------------------------------------------------- termination, scoring
@SETTINGS
@given(ruleset=rulesets, seats=players, seed=seeds, quit_bias=quit_biases)
def test_every_round_and_every_match_ends(
    ruleset: Ruleset, seats: int, seed: int, quit_bias: float
) -> None:
    match = play_match(ruleset, seats, seed, quit_bias)
    assert match.over and not match.in_round and match.legal_actions() == []
    # The game ends in the first round in which somebody reaches the threshold.
    for result in match.results[:-1]:
        assert not result.game_over
        assert max(row.total for row in result.seats) < ruleset.threshold
    last = match.results[-1]
    assert last.game_over and max(match.points) >= ruleset.threshold
    low = min(match.points)
    assert match.winners == last.winners == tuple(s for s, p in enumerate(match.points) if p == low)
    # Totals add up round by round, and chips always say the same number.
    totals = [0] * seats
    for result in match.results:
        for row in result.seats:
            assert row.total == totals[row.seat] + row.gained - row.returned >= 0
            assert row.chips.points == row.total
            assert row.returned in (0, 1, 10, 20) and row.returned <= totals[row.seat]
            assert not (row.emptied and row.gained)
            totals[row.seat] = row.total
        assert (result.emptied_by is None) or result.ended_by == result.emptied_by
    assert totals == match.points


# ---------------------------------------------------------------- conservation
def _every_card_in_one_place(match: Match, rng: random.Random) -> None:
    rnd = match.round
    assert rnd is not None
    deck = build_deck(match.ruleset)
    assert Counter(rnd.cards()) == Counter(deck)
    assert len(rnd.cards()) == len(deck)


@SETTINGS
@given(ruleset=rulesets, seats=players, seed=seeds, quit_bias=quit_biases)
def test_every_card_of_the_deck_is_in_exactly_one_place_after_every_move(
    ruleset: Ruleset, seats: int, seed: int, quit_bias: float
) -> None:
    play_match(ruleset, seats, seed, quit_bias, after_move=_every_card_in_one_place)


# ---------------------------------------------------------------- views
VIEW_FIELDS = {
    "seat",
    "ruleset",
    "round_no",
    "hand",
    "hand_sizes",
    "in_round",
    "top",
    "discard",
    "draw_pile",
    "points",
    "to_move",
    "no_drama_holder",
    "history",
    "legal",
    "game_over",
}


def _views_hide_other_hands(match: Match, rng: random.Random) -> None:
    rnd = match.round
    assert rnd is not None
    # A new field in SeatView must be checked here before it can pass.
    assert {f.name for f in dataclasses.fields(SeatView)} == VIEW_FIELDS
    legal = tuple(match.legal_actions())
    for seat in range(match.players):
        view = match.view(seat)
        if not match.in_round:
            assert view.hand == () and view.legal == ()
            continue
        assert view.hand == sorted_cards(rnd.hands[seat])
        assert view.hand_sizes == tuple(len(hand) for hand in rnd.hands)
        assert view.draw_pile == len(rnd.pile) and isinstance(view.draw_pile, int)
        assert view.discard == tuple(rnd.discard)
        assert view.legal == (legal if seat == match.to_move else ())
        for event in view.history:
            assert type(event) in (CardPlayed, CardDrawn, PlayerQuit)
            if type(event) is CardDrawn:
                assert dataclasses.fields(event) == dataclasses.fields(CardDrawn(0))
        # Deal the hidden cards (other hands and the pile) out differently:
        # the view must not change.
        other = copy.copy(match)
        other.round = rnd.clone()
        hidden = list(rnd.pile)
        for s, hand in enumerate(rnd.hands):
            if s != seat:
                hidden += hand
        rng.shuffle(hidden)
        other.round.pile = hidden[: len(rnd.pile)]
        del hidden[: len(rnd.pile)]
        for s, hand in enumerate(rnd.hands):
            if s != seat:
                other.round.hands[s] = hidden[: len(hand)]
                del hidden[: len(hand)]
        assert not hidden
        assert other.view(seat) == view


@SETTINGS
@given(ruleset=rulesets, seats=players, seed=seeds, quit_bias=quit_biases)
@pytest.mark.slow  # over a quarter second on a quiet machine
def test_no_seat_view_ever_holds_a_card_hidden_from_it(
    ruleset: Ruleset, seats: int, seed: int, quit_bias: float
) -> None:
    play_match(ruleset, seats, seed, quit_bias, after_move=_views_hide_other_hands)


# ---------------------------------------------------------------- replay
def _replays_equal(match: Match, rng: random.Random) -> None:
    assert Match.replay(match.ruleset, match.players, match.events) == match
    wire = json.dumps([event.to_json() for event in match.events])
    events = [event_from_json(data) for data in json.loads(wire)]
    assert events == match.events
    assert Match.replay(match.ruleset, match.players, events) == match


@SETTINGS
@given(ruleset=rulesets, seats=players, seed=seeds, quit_bias=quit_biases)
@pytest.mark.slow  # over a quarter second on a quiet machine
def test_replaying_the_events_also_through_json_reproduces_the_state(
    ruleset: Ruleset, seats: int, seed: int, quit_bias: float
) -> None:
    def sometimes(match: Match, rng: random.Random) -> None:
        if rng.random() < 0.1:  # also in the middle of rounds
            _replays_equal(match, rng)

    match = play_match(
        ruleset, seats, seed, quit_bias, after_move=sometimes, after_round=_replays_equal
    )
    copy_ = Match.replay(match.ruleset, match.players, match.events)
    assert copy_.results == match.results and copy_.winners == match.winners


# ---------------------------------------------------------------- illegal moves
def _illegal_moves(match: Match, rng: random.Random) -> list[tuple[int, Action]]:
    seats = match.players
    to_move = match.to_move
    candidates: list[tuple[int, Action]] = [
        (seats, QUIT),
        (-1, DRAW),
        (seats + 3, PLAY[ALL_CARDS[0]]),
    ]
    if to_move is None:  # between rounds or after the game: nothing is legal
        return candidates + [(s, a) for s in range(seats) for a in rng.sample(EVERY_ACTION, 3)]
    rnd = match.round
    assert rnd is not None
    legal = match.legal_actions()
    # Anything, by anybody else (still in the round or not).
    for seat in range(seats):
        if seat != to_move:
            candidates.append((seat, rng.choice(EVERY_ACTION)))
            candidates.append((seat, rng.choice(legal)))
    hand = set(rnd.hands[to_move])
    # Cards not in the hand, and cards in the hand that don't fit.
    candidates += [(to_move, PLAY[c]) for c in ALL_CARDS if c not in hand]
    candidates += [(to_move, PLAY[c]) for c in hand if PLAY[c] not in legal]
    if DRAW not in legal:
        candidates.append((to_move, DRAW))
    candidates.append((to_move, Play(int(rng.choice(ALL_CARDS)))))  # type: ignore[arg-type]
    return candidates


def _illegal_moves_change_nothing(match: Match, rng: random.Random) -> None:
    # legal_actions and verify agree on every possible move of the player to move.
    if match.to_move is not None:
        allowed = [a for a in EVERY_ACTION if match.can(match.to_move, a)]
        assert allowed == match.legal_actions()
    before = match.snapshot()
    for seat, action in _illegal_moves(match, rng):
        try:
            match.apply(seat, action)
        except IllegalMove as error:
            assert str(error)
        else:
            raise AssertionError(f"illegal move {seat}: {action} was accepted")
        assert not match.can(seat, action)
        assert match.snapshot() == before


@SETTINGS
@given(ruleset=rulesets, seats=players, seed=seeds, quit_bias=quit_biases)
@pytest.mark.slow  # over a quarter second on a quiet machine
def test_an_illegal_move_is_always_rejected_without_a_change(
    ruleset: Ruleset, seats: int, seed: int, quit_bias: float
) -> None:
    match = play_match(
        ruleset,
        seats,
        seed,
        quit_bias,
        after_move=_illegal_moves_change_nothing,
        after_round=_illegal_moves_change_nothing,
    )
    _illegal_moves_change_nothing(match, random.Random(seed))


# ---------------------------------------------------------------- copies
def _a_move_on_a_clone_leaves_the_match_alone(match: Match, rng: random.Random) -> None:
    seat = match.to_move
    if seat is None:
        return
    before = match.snapshot()
    clone = match.clone()
    assert clone == match
    clone.apply(seat, rng.choice(clone.legal_actions()))
    if clone.awaiting_deal and not clone.over:
        clone.deal(rng.getrandbits(32))
    assert match.snapshot() == before, "a move on the clone changed the match"
    assert Match.replay(clone.ruleset, clone.players, clone.events) == clone


@SETTINGS
@given(ruleset=rulesets, seats=players, seed=seeds, quit_bias=quit_biases)
@pytest.mark.slow  # over a quarter second on a quiet machine
def test_a_move_tried_on_a_clone_changes_nothing_of_the_match(
    ruleset: Ruleset, seats: int, seed: int, quit_bias: float
) -> None:
    play_match(
        ruleset, seats, seed, quit_bias, after_move=_a_move_on_a_clone_leaves_the_match_alone
    )
