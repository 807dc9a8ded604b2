"""The AI under house rules: every strength plays every ruleset the lobby can compose,
and Hard's fast model of the round (playouts, reading) follows the engine under each.

The presets' AI is checked in ``test_players.py``; here the dimensions the presets
never change (hand size, the last player's draw, the chip given back, the llamas)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game import (
    DRAW,
    QUIT,
    Card,
    ChipBack,
    Match,
    RoundDealt,
    Ruleset,
    build_deck,
    explicit_deal,
)
from game.ai import EasyPlayer, HardPlayer, NormalPlayer, Player
from game.ai.knowledge import STEP
from game.ai.normal import _CODE
from game.ai.playout import _KEY, _SHIFTS
from game.rules import MAX_COPIES
from testkit.arena import play_game

from ..test_house_rules import house_rulesets
from . import test_players
from .test_players import setup

#: A Hard with the smallest useful work: enough to run the whole search every move.
QUICK_HARD = HardPlayer(samples=2)


@settings(max_examples=25, deadline=None)
@given(ruleset=house_rulesets(), players=st.integers(2, 6), seed=st.integers(0, 2**32))
@pytest.mark.slow  # over a quarter second on a quiet machine
def test_easy_normal_and_hard_play_whole_games_of_any_ruleset_legally(
    ruleset: Ruleset, players: int, seed: int
) -> None:
    """``play_game`` makes each move through ``Match.apply``, which refuses an
    illegal one; every game ends (the arena stops one that doesn't)."""
    pool: list[Player] = [EasyPlayer(), NormalPlayer(), QUICK_HARD]
    lineup = [pool[(seed + s) % 3] for s in range(players)]
    match = play_game(lineup, ruleset, seed)
    assert match.over and match.winners
    dealt = [e for e in match.events if isinstance(e, RoundDealt)]
    assert all(len(h) == ruleset.hand_size for e in dealt for h in e.hands)


#: House rules the presets never have, each with a dimension or two changed.
HOUSE = [
    Ruleset(hand_size=7, chip_back=ChipBack.WHITE),
    Ruleset.compose("party", chip_back=ChipBack.NONE, last_player_draws=True),
    Ruleset(hand_size=5, llamas=6, last_player_draws=True),
    Ruleset.compose("komarami", "no_drama", hand_size=8, chip_back=ChipBack.WHITE),
    Ruleset.compose("no_drama", hand_size=4, last_player_draws=True, chip_back=ChipBack.NONE),
]
HOUSE_IDS = ["7-white", "party-none-draws", "5-six-llamas-draws", "komarami-drama-8", "4-drama"]


# The checks ``test_players`` makes under each preset, under each house rule.
@pytest.mark.parametrize("ruleset", HOUSE, ids=HOUSE_IDS)
def test_playout_settles_like_the_match_under_house_rules(ruleset: Ruleset) -> None:
    test_players.test_playout_settles_like_the_match(ruleset)


@pytest.mark.parametrize("ruleset", HOUSE, ids=HOUSE_IDS)
@pytest.mark.slow  # over a quarter second on a quiet machine
def test_playouts_end_the_round_as_normal_does_through_the_engine_under_house_rules(
    ruleset: Ruleset,
) -> None:
    test_players.test_playouts_end_the_round_as_normal_does_through_the_engine(ruleset)


@pytest.mark.parametrize("ruleset", HOUSE, ids=HOUSE_IDS)
@pytest.mark.slow  # over a quarter second on a quiet machine
def test_reading_every_move_never_rules_out_the_true_hands_under_house_rules(
    ruleset: Ruleset,
) -> None:
    test_players.test_reading_every_move_never_rules_out_the_true_hands(ruleset)


# ---------------------------------------------------------------- sensible, alone
def alone_on_a_one(ruleset: Ruleset, pile: list[Card]) -> Match:
    """Seat 0 quits; seat 1 holds a 6 and a 5 on a 1, alone."""
    match = setup(ruleset, [[Card.SIX], [Card.SIX, Card.FIVE]], Card.ONE, pile)
    match.apply(0, QUIT)
    return match


def test_normal_alone_draws_through_a_long_pile_when_the_house_rule_lets_it() -> None:
    rules = Ruleset(last_player_draws=True)
    match = alone_on_a_one(rules, [])
    view = match.view(1)
    assert DRAW in view.legal and view.draw_pile > 40
    assert NormalPlayer().decide(view, random.Random(0)) == DRAW
    assert QUICK_HARD.decide(view, random.Random(0)) in (DRAW, QUIT)


def test_normal_alone_quits_when_the_pile_is_too_short_to_reach_its_cards() -> None:
    rules = Ruleset(last_player_draws=True)
    rest = Counter(build_deck(rules))
    rest.subtract([Card.SIX, Card.SIX, Card.FIVE, Card.ONE, Card.THREE, Card.FOUR])
    # seat 0 holds the rest of the deck, so two cards are left to draw
    hands = [[Card.SIX, *sorted(rest.elements())], [Card.SIX, Card.FIVE]]
    match = Match(rules, 2)
    match.start_round(explicit_deal(hands, Card.ONE, [Card.THREE, Card.FOUR]))
    match.apply(0, QUIT)
    view = match.view(1)
    assert DRAW in view.legal and view.draw_pile == 2
    assert NormalPlayer().decide(view, random.Random(0)) == QUIT


def test_normal_alone_by_the_rules_quits_when_nothing_fits() -> None:
    view = alone_on_a_one(Ruleset(), []).view(1)
    assert view.legal == (QUIT,)
    assert NormalPlayer().decide(view, random.Random(0)) == QUIT


def test_the_ais_packed_hands_hold_every_card_of_the_largest_deck_the_rules_allow() -> None:
    """Hard's playouts pack a hand by card (4 bits a kind) and Normal by step (5 bits a
    step): a hand holding every copy of a kind of the largest deck still reads back."""
    largest = Ruleset.compose("party", copies=MAX_COPIES, llamas=MAX_COPIES)
    deck = Counter(build_deck(largest))
    for card, copies in deck.items():
        hand = [int(card)] * copies
        key = sum(_KEY[c] for c in hand)
        assert {c: key >> at & 15 for c, at in _SHIFTS if key >> at & 15} == {int(card): copies}
    for step in range(1, 8):  # every card of a step, its Plus card too
        hand = [c for c, n in deck.items() for _ in range(n) if STEP[c] == step and c != 20]
        code = sum(_CODE[c] for c in hand)
        assert code >> (5 * step) & 31 == len(hand)
