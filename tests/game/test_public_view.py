"""The public view: the table as anyone may see it, with no card from a hand or the pile."""

from __future__ import annotations

import copy
import dataclasses
import random
from typing import Any

import pytest
from hypothesis import given

from game import DRAW, QUIT, Card, Match, PublicView, Ruleset, explicit_deal
from game.results import RoundResult
from tests.game.test_engine_properties import (
    SETTINGS,
    play_match,
    players,
    quit_biases,
    rulesets,
    seeds,
)

PUBLIC_FIELDS = {
    "ruleset",
    "round_no",
    "hand_sizes",
    "in_round",
    "top",
    "discard",
    "draw_pile",
    "points",
    "to_move",
    "no_drama_holder",
    "history",
    "draw_refused",
    "results",
    "winners",
}


def cards_in(value: Any) -> list[Card]:
    """Every card anywhere inside ``value`` (dataclasses, tuples), scored rounds left out."""
    if isinstance(value, Card):
        return [value]
    if isinstance(value, RoundResult):
        return []  # a scored round shows every hand by the rules
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [c for f in dataclasses.fields(value) for c in cards_in(getattr(value, f.name))]
    if isinstance(value, tuple):
        return [c for item in value for c in cards_in(item)]
    return []


def _public_view_hides_every_hand(match: Match, rng: random.Random) -> None:
    # A new field in PublicView must be checked here before it can pass.
    assert {f.name for f in dataclasses.fields(PublicView)} == PUBLIC_FIELDS
    view = match.public_view()
    rnd = match.round
    assert rnd is not None
    # The only cards it names are on the discard pile (the moves played them there).
    discard = list(view.discard)
    for card in cards_in(view):
        assert card in discard
    assert view.results == tuple(match.results) and view.winners == match.winners
    if not match.in_round:
        assert view.top is None and view.hand_sizes == (0,) * match.players
        return
    assert view.hand_sizes == tuple(len(hand) for hand in rnd.hands)
    assert view.draw_pile == len(rnd.pile)
    assert view.may_draw == (DRAW in match.legal_actions())
    # Every seat's own view agrees with it.
    for seat in range(match.players):
        own = match.view(seat)
        assert (own.top, own.hand_sizes, own.in_round, own.draw_pile, own.to_move) == (
            view.top,
            view.hand_sizes,
            view.in_round,
            view.draw_pile,
            view.to_move,
        )
    # Deal every hidden card (all hands and the pile) out differently: nothing changes.
    other = copy.copy(match)
    other.round = rnd.clone()
    hidden = [*rnd.pile, *(card for hand in rnd.hands for card in hand)]
    rng.shuffle(hidden)
    other.round.pile = hidden[: len(rnd.pile)]
    del hidden[: len(rnd.pile)]
    for seat, hand in enumerate(rnd.hands):
        other.round.hands[seat] = hidden[: len(hand)]
        del hidden[: len(hand)]
    assert other.public_view() == view


@SETTINGS
@given(ruleset=rulesets, seats=players, seed=seeds, quit_bias=quit_biases)
@pytest.mark.slow  # over a quarter second on a quiet machine
def test_the_public_view_never_holds_a_card_from_a_hand_or_the_pile(
    ruleset: Ruleset, seats: int, seed: int, quit_bias: float
) -> None:
    play_match(ruleset, seats, seed, quit_bias, after_move=_public_view_hides_every_hand)


def test_the_public_view_says_why_the_player_to_move_may_not_draw() -> None:
    match = Match(Ruleset(), 2)
    match.start_round(
        explicit_deal([[Card.ONE] * 6, [Card.TWO] * 6], Card.THREE, [Card.FOUR], starter=0)
    )
    assert match.public_view().may_draw
    match.apply(0, DRAW)
    assert match.public_view().draw_refused == "draw_pile_empty"
    assert not match.public_view().may_draw
    match.apply(1, QUIT)
    view = match.public_view()
    assert view.to_move == 0 and view.draw_refused == "last_player_cannot_draw"
