"""One test per rule of ``shared/RULES.md``, named after the rule.

Positions are set up card by card with ``explicit_deal`` and ``Match.start_round``;
chip totals for later rounds are reached through real play (``quick_round``), never
by setting ``match.points``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import pytest

from game import (
    DRAW,
    FITS,
    PLAY,
    QUIT,
    Card,
    CardDoesNotFit,
    CardNotInHand,
    Chips,
    DrawPileEmpty,
    GameOver,
    IllegalMove,
    LastPlayerCannotDraw,
    Match,
    NotInRound,
    NotYourTurn,
    Play,
    ReplayError,
    RoundOver,
    RoundResult,
    Ruleset,
    RulesetError,
    build_deck,
    explicit_deal,
    penalty,
    penalty_points,
)
from game.actions import Action

C = Card
L = Card.LLAMA
PL = Card.PINK_LLAMA
BASE = Ruleset()
PARTY = Ruleset(party=True)
NO_DRAMA = Ruleset(no_drama=True)
KOMARAMI = Ruleset(komarami=True)


# ---------------------------------------------------------------- helpers
def table(
    hands: Sequence[Sequence[Card]],
    top: Card,
    pile: Sequence[Card] = (),
    starter: int = 0,
    ruleset: Ruleset = BASE,
) -> Match:
    """A match whose first round is dealt exactly as given."""
    match = Match(ruleset, len(hands))
    match.start_round(explicit_deal(hands, top, pile, starter))
    return match


def quick_round(match: Match, winner: int, others: Mapping[int, Sequence[Card]]) -> RoundResult:
    """Deal the next round so that ``winner`` starts and plays their only card at once;
    every other seat ends the round holding ``others[seat]``."""
    hands = [[C.TWO] if seat == winner else list(others[seat]) for seat in range(match.players)]
    match.start_round(
        explicit_deal(hands, C.ONE, [C.THREE] * 5, starter=winner, round_no=len(match.results) + 1)
    )
    match.apply(winner, PLAY[C.TWO])
    assert not match.in_round
    return match.results[-1]


def rejected(match: Match, seat: int, action: Action, message: str | None = None) -> IllegalMove:
    """Assert the move is refused with ``message`` and changes nothing."""
    before = match.snapshot()
    with pytest.raises(IllegalMove) as info:
        match.apply(seat, action)
    if message is not None:
        assert str(info.value) == message
    assert match.snapshot() == before
    assert not match.can(seat, action)
    return info.value


def moves(match: Match) -> list[Action]:
    return match.legal_actions()


# ================================================================ cards and players
def test_base_deck_has_56_cards_eight_of_each_number_and_eight_llamas() -> None:
    deck = build_deck(Ruleset(party=False, komarami=False))
    assert len(deck) == 56
    assert Counter(deck) == {**{c: 8 for c in (C.ONE, C.TWO, C.THREE, C.FOUR, C.FIVE, C.SIX)}, L: 8}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_two_to_six_players_may_play(players: int) -> None:
    match = Match(BASE, players)
    dealt = match.deal(seed=1)
    assert len(dealt.hands) == players


@pytest.mark.parametrize("players", [-1, 0, 1, 7, 10])
def test_fewer_than_two_or_more_than_six_players_are_refused_with_a_readable_message(
    players: int,
) -> None:
    with pytest.raises(
        RulesetError, match=rf"^L\.A\.M\.A\. needs 2 to 6 players, not {players}\.$"
    ):
        Match(BASE, players)


def test_a_deal_for_seven_hands_is_refused() -> None:
    match = Match(BASE, 2)
    with pytest.raises(ReplayError):
        match.start_round(explicit_deal([[C.ONE]] * 7, C.ONE, []))


@pytest.mark.parametrize("players", [2, 6])
def test_each_player_is_dealt_six_cards_and_the_rest_form_the_draw_pile_with_its_top_turned_up(
    players: int,
) -> None:
    match = Match(BASE, players)
    dealt = match.deal(seed="six cards")
    assert all(len(hand) == 6 for hand in dealt.hands)
    assert len(dealt.draw_pile) == 56 - 6 * players - 1
    assert match.round is not None
    assert match.round.discard == [dealt.top]
    assert Counter(match.round.cards()) == Counter(build_deck(Ruleset(party=False, komarami=False)))


def test_first_round_starter_is_chosen_at_random_from_the_deal_seed() -> None:
    starters = set()
    for seed in range(80):
        first = Match(BASE, 4).deal(seed)
        again = Match(BASE, 4).deal(seed)
        assert first.starter == again.starter  # the seed decides
        starters.add(first.starter)
    assert starters == {0, 1, 2, 3}  # and every seat can be chosen


def test_dealing_is_reproducible_from_a_seed() -> None:
    for ruleset in (BASE, Ruleset(party=True, komarami=True, no_drama=True)):
        a, b = Match(ruleset, 5), Match(ruleset, 5)
        assert a.deal("same seed") == b.deal("same seed")
        assert Match(ruleset, 5).deal("other seed") != Match(ruleset, 5).deal("same seed")


# ================================================================ a turn: play
def test_play_a_card_of_the_same_value_or_exactly_one_more() -> None:
    match = table([[C.TWO, C.THREE, C.FOUR, C.FIVE, C.ONE, L], [C.SIX]], C.THREE)
    assert moves(match) == [PLAY[C.THREE], PLAY[C.FOUR], QUIT]
    match.apply(0, PLAY[C.FOUR])
    assert match.round is not None and match.round.top is C.FOUR
    assert match.to_move == 1


def test_same_value_or_one_more_holds_for_every_number() -> None:
    for value in range(1, 6):
        top = Card(value)
        assert {c for c in FITS[top] if c in (*[Card(n) for n in range(1, 7)], L)} == {
            top,
            Card(value + 1),
        }


def test_after_6_comes_llama() -> None:
    match = table([[L, C.ONE], [C.SIX]], C.SIX)
    assert moves(match) == [PLAY[L], QUIT]
    match.apply(0, PLAY[L])
    assert match.round is not None and match.round.top is L


def test_after_llama_comes_1_or_another_llama() -> None:
    match = table([[C.ONE, C.TWO, C.SIX, L, L], [C.SIX]], L)
    assert moves(match) == [PLAY[C.ONE], PLAY[L], QUIT]
    match.apply(0, PLAY[L])
    match.apply(1, QUIT)
    match.apply(0, PLAY[C.ONE])
    assert match.round is not None and match.round.top is C.ONE


def test_a_1_may_not_be_played_on_a_6() -> None:
    match = table([[C.ONE, C.TWO], [C.SIX]], C.SIX)
    error = rejected(match, 0, PLAY[C.ONE], "You can't play a 1 on a 6.")
    assert isinstance(error, CardDoesNotFit)
    assert PLAY[C.ONE] not in moves(match)


def test_a_card_that_does_not_fit_is_refused_with_a_readable_message() -> None:
    match = table([[C.TWO, C.SIX], [C.SIX]], C.FOUR)
    error = rejected(match, 0, PLAY[C.TWO], "You can't play a 2 on a 4.")
    assert isinstance(error, CardDoesNotFit)
    assert error.code == "card_does_not_fit"


def test_a_card_not_in_hand_is_refused() -> None:
    match = table([[C.TWO, C.SIX], [C.FIVE]], C.FOUR)
    error = rejected(match, 0, PLAY[C.FIVE], "You don't have a 5 in your hand.")
    assert isinstance(error, CardNotInHand)


def test_only_the_active_player_moves_its_not_your_turn() -> None:
    match = table([[C.TWO, C.SIX], [C.FOUR, C.FIVE]], C.FOUR)
    for action in (PLAY[C.FOUR], DRAW, QUIT):
        error = rejected(match, 1, action, "It's not your turn.")
        assert isinstance(error, NotYourTurn)


# ================================================================ a turn: draw
def test_draw_takes_the_top_card_of_the_draw_pile_and_nothing_may_be_played_that_turn() -> None:
    match = table([[C.TWO, C.SIX], [C.FIVE, C.SIX]], C.FOUR, pile=[C.FOUR, C.ONE])
    match.apply(0, DRAW)
    assert match.round is not None
    assert sorted(match.round.hands[0]) == [C.TWO, C.FOUR, C.SIX]
    assert match.round.draw_pile() == (C.ONE,)
    assert match.to_move == 1  # the drawn 4 fits, but the turn is over
    rejected(match, 0, PLAY[C.FOUR], "It's not your turn.")


def test_drawing_is_allowed_even_when_a_card_could_be_played() -> None:
    match = table([[C.FOUR, C.FIVE], [C.SIX]], C.FOUR, pile=[C.ONE])
    assert DRAW in moves(match)
    assert match.can(0, DRAW)
    match.apply(0, DRAW)
    assert match.to_move == 1


def test_a_draw_passes_the_turn_to_the_next_player_in_seating_order_who_has_not_quit() -> None:
    hands = [[C.SIX]] * 4
    match = table(hands, C.ONE, pile=[C.ONE] * 7, starter=1)
    match.apply(1, QUIT)  # seat 1 is out
    match.apply(2, DRAW)
    assert match.to_move == 3
    match.apply(3, DRAW)
    assert match.to_move == 0  # wraps around the table
    match.apply(0, DRAW)
    assert match.to_move == 2  # seat 1 is skipped


def test_no_drawing_from_an_empty_draw_pile() -> None:
    match = table([[C.SIX], [C.SIX]], C.ONE, pile=[])
    assert DRAW not in moves(match)
    error = rejected(match, 0, DRAW, "The draw pile is empty.")
    assert isinstance(error, DrawPileEmpty)


def test_the_draw_pile_is_never_reshuffled() -> None:
    match = table([[C.TWO, C.SIX], [C.THREE, C.SIX]], C.ONE, pile=[C.FIVE])
    match.apply(0, PLAY[C.TWO])
    match.apply(1, PLAY[C.THREE])
    match.apply(0, DRAW)  # the last card of the pile
    assert match.round is not None and match.round.discard == [C.ONE, C.TWO, C.THREE]
    rejected(match, 1, DRAW, "The draw pile is empty.")
    assert match.round.discard == [C.ONE, C.TWO, C.THREE]


def test_the_last_player_left_in_the_round_may_not_draw() -> None:
    match = table([[C.SIX], [C.SIX, C.FIVE]], C.ONE, pile=[C.TWO] * 5)
    match.apply(0, QUIT)
    assert moves(match) == [QUIT]
    error = rejected(match, 1, DRAW, "You are the last player in this round, so you can't draw.")
    assert isinstance(error, LastPlayerCannotDraw)


# ================================================================ a turn: quit
def test_quit_at_any_time_even_when_a_card_could_be_played() -> None:
    match = table([[C.ONE, C.TWO], [C.SIX], [C.SIX]], C.ONE, pile=[C.FIVE])
    assert PLAY[C.ONE] in moves(match) and QUIT in moves(match)
    match.apply(0, QUIT)
    assert match.round is not None
    assert match.round.active == [False, True, True]
    assert sorted(match.round.hands[0]) == [C.ONE, C.TWO]  # laid down, kept for scoring
    assert match.to_move == 1


def test_there_is_no_way_back_in_after_quitting() -> None:
    match = table([[C.ONE, C.TWO], [C.SIX], [C.SIX]], C.ONE, pile=[C.FIVE] * 5)
    match.apply(0, QUIT)
    match.apply(1, DRAW)
    match.apply(2, DRAW)
    assert match.to_move == 1  # seat 0 is passed over for good
    for action in (PLAY[C.ONE], DRAW, QUIT):
        error = rejected(
            match, 0, action, "You have quit this round and must wait for the next one."
        )
        assert isinstance(error, NotInRound)


def test_the_last_player_goes_on_alone_plays_what_fits_and_quits_when_nothing_fits() -> None:
    match = table([[C.SIX], [C.SIX], [C.ONE, C.TWO, C.FIVE]], C.ONE, pile=[C.THREE] * 5)
    match.apply(0, QUIT)
    match.apply(1, QUIT)
    assert match.to_move == 2
    match.apply(2, PLAY[C.ONE])
    assert match.to_move == 2  # alone: it is their turn again
    match.apply(2, PLAY[C.TWO])
    assert moves(match) == [QUIT]  # 5 does not fit, no draw
    match.apply(2, QUIT)
    assert not match.in_round
    assert match.results[-1].ended_by == 2


# ================================================================ end of a round
def test_the_round_ends_immediately_when_a_player_plays_their_last_card() -> None:
    match = table([[C.TWO], [C.SIX, C.SIX], [C.THREE]], C.ONE, pile=[C.FIVE])
    match.apply(0, PLAY[C.TWO])
    assert not match.in_round
    assert match.round is not None and match.round.over and match.to_move is None
    assert match.legal_actions() == []
    result = match.results[-1]
    assert result.emptied_by == 0 and result.ended_by == 0
    error = rejected(match, 2, PLAY[C.THREE], "This round is over.")  # seat 2 gets no turn
    assert isinstance(error, RoundOver)


def test_the_round_ends_when_every_player_has_quit() -> None:
    match = table([[C.SIX], [C.SIX], [C.SIX]], C.ONE, pile=[C.FIVE], starter=1)
    match.apply(1, QUIT)
    match.apply(2, QUIT)
    assert match.in_round
    match.apply(0, QUIT)
    assert not match.in_round
    assert match.results[-1].emptied_by is None
    assert match.results[-1].ended_by == 0


def test_every_player_except_the_one_who_emptied_their_hand_scores_their_cards() -> None:
    match = table([[C.TWO], [C.SIX, C.FIVE], [C.THREE, L]], C.ONE, pile=[C.FIVE], starter=1)
    match.apply(1, QUIT)  # a quitter scores the cards laid down
    match.apply(2, DRAW)  # the drawn 5 counts too
    match.apply(0, PLAY[C.TWO])
    rows = match.results[-1].seats
    assert [row.gained for row in rows] == [0, 11, 18]
    assert match.points == [0, 11, 18]
    assert rows[0].emptied and not rows[1].emptied
    assert rows[2].hand == (C.THREE, C.FIVE, L)


def test_each_distinct_number_counts_once_3_3_3_costs_3() -> None:
    assert penalty_points([C.THREE, C.THREE, C.THREE], BASE) == 3


def test_each_distinct_number_counts_once_2_2_6_costs_8() -> None:
    assert penalty_points([C.TWO, C.TWO, C.SIX], BASE) == 8


def test_one_or_more_llamas_cost_10_in_total_2_2_6_llama_llama_costs_18() -> None:
    hand = [C.TWO, C.TWO, C.SIX, L, L]
    assert penalty_points(hand, BASE) == 18
    cost = penalty(hand, BASE)
    assert cost.values == (2, 6) and cost.llamas == 2 and cost.llama_points == 10
    assert penalty_points([L], BASE) == penalty_points([L] * 8, BASE) == 10


def test_worked_examples_are_scored_in_play() -> None:
    match = table(
        [[C.TWO], [C.TWO, C.TWO, C.SIX, L, L], [C.THREE, C.THREE, C.THREE]], C.ONE, pile=[]
    )
    match.apply(0, PLAY[C.TWO])
    assert match.points == [0, 18, 3]


def test_minus_points_are_chips_white_1_black_10() -> None:
    assert Chips.of(14, pink_chips=False) == Chips(white=4, black=1)
    assert Chips(white=4, black=1).points == 14
    assert Chips.of(0, pink_chips=False) == Chips()
    with pytest.raises(ValueError):
        Chips.of(-1, pink_chips=False)


def test_ten_white_chips_are_always_swapped_for_a_black_one() -> None:
    for points in range(300):
        chips = Chips.of(points, pink_chips=False)
        assert chips.points == points
        assert chips.white < 10 and chips.pink == 0


def test_the_player_who_emptied_their_hand_returns_the_largest_chip_14_points_become_4() -> None:
    match = Match(BASE, 2)
    quick_round(match, 0, {1: [L, C.FOUR]})
    assert match.points == [0, 14]
    assert match.chips(1) == Chips(white=4, black=1)  # one black, four white
    # Round 2 (seat 0 starts): seat 0 draws, seat 1 plays their last card.
    match.start_round(explicit_deal([[C.SIX, C.SIX], [C.TWO]], C.ONE, [C.THREE], 0, round_no=2))
    match.apply(0, DRAW)
    match.apply(1, PLAY[C.TWO])
    row = match.results[-1].seats[1]
    assert row.emptied and row.gained == 0 and row.returned == 10
    assert match.points == [9, 4]
    assert match.chips(1) == Chips(white=4)


def test_a_player_with_only_white_chips_returns_a_white_one_4_points_become_3() -> None:
    match = Match(BASE, 2)
    quick_round(match, 0, {1: [C.FOUR]})
    assert match.chips(1) == Chips(white=4)
    match.start_round(explicit_deal([[C.SIX, C.SIX], [C.TWO]], C.ONE, [C.THREE], 0, round_no=2))
    match.apply(0, DRAW)
    match.apply(1, PLAY[C.TWO])
    assert match.results[-1].seats[1].returned == 1
    assert match.points[1] == 3


def test_a_player_with_no_chips_returns_nothing() -> None:
    match = Match(BASE, 2)
    result = quick_round(match, 0, {1: [C.FIVE]})
    assert result.seats[0].returned == 0
    assert match.points == [0, 5]


def test_the_player_who_emptied_their_hand_starts_the_next_round() -> None:
    match = table([[C.SIX], [C.TWO], [C.SIX]], C.ONE, pile=[C.FIVE] * 3)
    match.apply(0, DRAW)
    match.apply(1, PLAY[C.TWO])
    assert match.next_starter == 1
    assert match.deal(seed=123).starter == 1
    assert match.to_move == 1


def test_the_last_player_to_quit_starts_the_next_round() -> None:
    match = table([[C.SIX], [C.SIX], [C.SIX]], C.ONE, pile=[C.FIVE] * 3)
    match.apply(0, QUIT)
    match.apply(1, DRAW)
    match.apply(2, QUIT)
    match.apply(1, QUIT)
    assert match.results[-1].ended_by == 1
    assert match.next_starter == 1
    for seed in range(10):  # whatever the shuffle
        copy = Match.replay(match.ruleset, match.players, match.events)
        assert copy.deal(seed).starter == 1


def test_a_deal_with_another_starter_is_refused_after_round_one() -> None:
    match = Match(BASE, 2)
    quick_round(match, 1, {0: [C.SIX]})
    with pytest.raises(ReplayError):
        match.start_round(explicit_deal([[C.SIX], [C.SIX]], C.ONE, [], starter=0, round_no=2))


def test_all_cards_are_shuffled_and_dealt_anew_each_round() -> None:
    match = Match(Ruleset(party=True), 3)
    first = match.deal("round 1")
    match.apply(first.starter, QUIT)
    match.apply(match.to_move or 0, QUIT)
    match.apply(match.to_move or 0, QUIT)
    second = match.deal("round 2")
    assert second.round_no == 2
    assert match.round is not None
    assert Counter(match.round.cards()) == Counter(build_deck(Ruleset(party=True, komarami=False)))
    assert all(len(hand) == 6 for hand in second.hands)


# ================================================================ end of the game
def test_the_game_ends_after_the_round_in_which_a_player_reaches_40() -> None:
    match = Match(BASE, 2)
    quick_round(match, 0, {1: [L, C.SIX, C.FIVE, C.FOUR, C.THREE, C.TWO]})
    assert match.points == [0, 30] and not match.over
    result = quick_round(match, 0, {1: [C.FOUR, C.SIX]})
    assert match.points == [0, 40]
    assert match.over and result.game_over
    assert match.winners == result.winners == (0,)


def test_the_game_goes_on_below_40_points() -> None:
    match = Match(BASE, 2)
    quick_round(match, 0, {1: [L, C.SIX, C.FIVE, C.FOUR, C.THREE, C.TWO]})
    result = quick_round(match, 0, {1: [C.THREE, C.SIX]})
    assert match.points == [0, 39]
    assert not match.over and not result.game_over and match.winners == ()
    assert match.awaiting_deal


def test_the_game_ends_above_40_points_too() -> None:
    match = Match(BASE, 2)
    quick_round(match, 0, {1: [L, C.SIX, C.FIVE, C.FOUR, C.THREE, C.TWO]})
    quick_round(match, 0, {1: [L, C.ONE]})
    assert match.points == [0, 41] and match.over


def test_the_player_with_the_fewest_points_wins() -> None:
    match = Match(BASE, 3)
    quick_round(match, 0, {1: [L, C.SIX, C.FIVE, C.FOUR, C.THREE, C.TWO], 2: [C.FIVE]})
    quick_round(match, 0, {1: [L], 2: [C.ONE]})
    assert match.points == [0, 40, 6]
    assert match.winners == (0,)
    assert match.results[-1].winners == (0,)


def test_a_tie_for_the_fewest_points_means_several_winners() -> None:
    match = Match(BASE, 3)
    quick_round(match, 0, {1: [L, C.SIX, C.FIVE, C.FOUR, C.THREE, C.TWO], 2: [C.THREE]})
    assert match.points == [0, 30, 3]
    # Round 2 (seat 0 starts): seat 0 quits holding a 2, seat 1 quits holding a Llama,
    # seat 2 plays their last card and returns a white chip.
    match.start_round(explicit_deal([[C.TWO], [L], [C.TWO]], C.ONE, [], 0, round_no=2))
    match.apply(0, QUIT)
    match.apply(1, QUIT)
    match.apply(2, PLAY[C.TWO])
    assert match.points == [2, 40, 2]
    assert match.over
    assert match.winners == (0, 2)


def test_the_end_threshold_is_a_table_option() -> None:
    short = Ruleset(threshold=10)
    match = Match(short, 2)
    quick_round(match, 0, {1: [C.FOUR, C.FIVE]})
    assert match.points == [0, 9] and not match.over
    quick_round(match, 0, {1: [C.ONE]})
    assert match.points == [0, 10] and match.over and match.winners == (0,)
    assert Ruleset().threshold == 40


def test_no_moves_and_no_deals_after_the_game_is_over() -> None:
    match = Match(Ruleset(threshold=5), 2)
    quick_round(match, 0, {1: [C.FIVE]})
    assert match.over and not match.awaiting_deal
    with pytest.raises(GameOver):
        match.deal(seed=1)
    with pytest.raises(GameOver):
        match.start_round(explicit_deal([[C.TWO], [C.TWO]], C.ONE, [], 0, round_no=2))
    error = rejected(match, 0, QUIT, "This game is over.")
    assert isinstance(error, GameOver)


# ================================================================ variant: No Drama
def test_no_drama_the_first_player_to_quit_takes_it_and_each_later_quitter_takes_it_over() -> None:
    match = table([[C.SIX, C.FIVE], [C.SIX, L], [C.TWO, C.THREE]], C.ONE, pile=[], ruleset=NO_DRAMA)
    assert match.round is not None and match.round.no_drama_holder is None
    match.apply(0, QUIT)
    assert match.round.no_drama_holder == 0
    assert match.view(2).no_drama_holder == 0
    match.apply(1, QUIT)
    assert match.round.no_drama_holder == 1
    match.apply(2, PLAY[C.TWO])
    match.apply(2, PLAY[C.THREE])
    result = match.results[-1]
    assert result.no_drama_holder == 1
    assert result.seats[0].discarded is None and result.seats[0].gained == 11
    assert result.seats[1].discarded is L and result.seats[1].gained == 6


def test_no_drama_holder_discards_the_card_that_saves_the_most_points() -> None:
    from game import best_discard

    assert best_discard([C.TWO, C.TWO, C.SIX, L], NO_DRAMA) is L
    assert best_discard([C.SIX, C.SIX, C.FIVE], NO_DRAMA) is C.FIVE  # a 6 would save nothing
    assert best_discard([C.THREE, C.THREE, C.THREE], NO_DRAMA) is C.THREE
    assert best_discard([], NO_DRAMA) is None
    komarami = Ruleset(no_drama=True, komarami=True)
    assert best_discard([L, L, C.SIX], komarami) is L
    party = Ruleset(no_drama=True, party=True)
    assert best_discard([PL, L, C.SIX], party) is PL
    assert best_discard([C.FOUR, C.FOUR_PLUS, C.TWO], party) is C.TWO
    # In play: the most recent quitter throws away the 6 of 2, 2, 6 and pays 2.
    match = table([[C.TWO, C.TWO, C.SIX], [C.TWO]], C.ONE, pile=[], ruleset=NO_DRAMA)
    match.apply(0, QUIT)
    match.apply(1, PLAY[C.TWO])
    row = match.results[-1].seats[0]
    assert row.discarded is C.SIX and row.gained == 2 and row.hand == (C.TWO, C.TWO, C.SIX)


def test_no_drama_holder_left_with_no_card_returns_the_largest_chip() -> None:
    match = Match(NO_DRAMA, 2)
    first = quick_round(match, 0, {1: [L, C.FOUR]})
    assert first.no_drama_holder is None  # nobody quit
    assert match.points == [0, 14]
    # Round 2: both quit; seat 1, the last quitter, holds only a Llama and discards it.
    match.start_round(explicit_deal([[C.SIX, C.SIX], [L]], C.ONE, [C.THREE], 0, round_no=2))
    match.apply(0, QUIT)
    match.apply(1, QUIT)
    row = match.results[-1].seats[1]
    assert row.discarded is L and row.gained == 0 and row.returned == 10
    assert match.points == [6, 4]
    assert match.next_starter == 1


def test_no_drama_holder_left_with_cards_returns_no_chip() -> None:
    match = Match(NO_DRAMA, 2)
    quick_round(match, 0, {1: [L, C.FOUR]})
    match.start_round(explicit_deal([[C.SIX], [L, C.FIVE]], C.ONE, [], 0, round_no=2))
    match.apply(0, QUIT)
    match.apply(1, QUIT)
    row = match.results[-1].seats[1]
    assert row.discarded is L and row.returned == 0 and row.gained == 5
    assert match.points == [6, 19]


def test_no_drama_returns_to_the_middle_every_round() -> None:
    match = table([[C.SIX], [C.SIX]], C.ONE, pile=[C.FIVE], ruleset=NO_DRAMA)
    match.apply(0, QUIT)
    match.apply(1, QUIT)
    assert match.results[-1].no_drama_holder == 1
    match.deal(seed=5)
    assert match.round is not None and match.round.no_drama_holder is None
    assert match.view(0).no_drama_holder is None


def test_without_no_drama_nobody_takes_a_card_or_discards() -> None:
    match = table([[C.SIX, C.FIVE], [C.SIX]], C.ONE, pile=[])
    match.apply(0, QUIT)
    assert match.round is not None and match.round.no_drama_holder is None
    match.apply(1, QUIT)
    result = match.results[-1]
    assert result.no_drama_holder is None
    assert all(row.discarded is None for row in result.seats)
    assert match.points == [11, 6]


# ================================================================ variant: Party Edition
def test_party_edition_adds_six_plus_cards_and_a_pink_llama_63_cards_in_all() -> None:
    deck = build_deck(Ruleset(party=True, komarami=False))
    assert len(deck) == 63
    extra = Counter(deck) - Counter(build_deck(Ruleset(party=False, komarami=False)))
    assert extra == Counter(
        [C.ONE_PLUS, C.TWO_PLUS, C.THREE_PLUS, C.FOUR_PLUS, C.FIVE_PLUS, C.SIX_PLUS, PL]
    )


def test_a_plus_card_is_played_like_its_number() -> None:
    assert C.FOUR_PLUS in FITS[C.THREE] and C.FOUR_PLUS in FITS[C.FOUR]
    assert C.FOUR_PLUS in FITS[C.THREE_PLUS] and C.FOUR_PLUS in FITS[C.FOUR_PLUS]
    assert C.FOUR_PLUS not in FITS[C.FIVE] and C.FOUR_PLUS not in FITS[C.TWO]
    assert C.FOUR in FITS[C.FOUR_PLUS] and C.FIVE in FITS[C.FOUR_PLUS]
    assert C.SIX not in FITS[C.FOUR_PLUS] and C.THREE not in FITS[C.FOUR_PLUS]
    assert L in FITS[C.SIX_PLUS] and C.ONE not in FITS[C.SIX_PLUS]
    assert C.ONE_PLUS in FITS[L] and C.ONE_PLUS not in FITS[C.SIX]
    match = table([[C.FOUR_PLUS, C.SIX], [C.FIVE]], C.THREE, ruleset=PARTY)
    assert moves(match) == [PLAY[C.FOUR_PLUS], QUIT]
    rejected(match, 0, PLAY[C.SIX], "You can't play a 6 on a 3.")
    match.apply(0, PLAY[C.FOUR_PLUS])
    rejected(match, 0, PLAY[C.SIX], "You can't play a 6 on a 4+.")


def test_after_a_plus_card_the_same_player_takes_another_full_turn() -> None:
    for follow_up in (PLAY[C.FIVE], DRAW, QUIT):
        match = table(
            [[C.FOUR_PLUS, C.FIVE, C.ONE], [C.SIX], [C.SIX]], C.THREE, [C.TWO], ruleset=PARTY
        )
        match.apply(0, PLAY[C.FOUR_PLUS])
        assert match.to_move == 0
        assert moves(match) == [PLAY[C.FIVE], DRAW, QUIT]
        rejected(match, 1, QUIT, "It's not your turn.")
        match.apply(0, follow_up)
        assert match.to_move == 1


def test_plus_cards_can_chain() -> None:
    match = table(
        [[C.FOUR_PLUS, C.FIVE_PLUS, C.SIX_PLUS, C.ONE], [C.SIX]], C.FOUR, [C.TWO], ruleset=PARTY
    )
    match.apply(0, PLAY[C.FOUR_PLUS])
    match.apply(0, PLAY[C.FIVE_PLUS])
    match.apply(0, PLAY[C.SIX_PLUS])
    assert match.to_move == 0
    assert moves(match) == [DRAW, QUIT]  # a 1 may not follow a 6+
    match.apply(0, DRAW)
    assert match.to_move == 1


def test_a_plus_card_that_is_the_players_last_card_ends_the_round_at_once() -> None:
    match = table([[C.FOUR_PLUS], [C.SIX, C.FIVE]], C.FOUR, [C.TWO], ruleset=PARTY)
    match.apply(0, PLAY[C.FOUR_PLUS])
    assert not match.in_round and match.to_move is None  # no extra turn
    assert match.legal_actions() == []
    result = match.results[-1]
    assert result.emptied_by == 0 and result.ended_by == 0
    assert match.points == [0, 11]
    assert match.next_starter == 0
    rejected(match, 0, DRAW, "This round is over.")


def test_the_pink_llama_may_be_played_on_any_card() -> None:
    assert all(PL in FITS[top] for top in Card)
    for top in (C.ONE, C.SIX, L, C.THREE_PLUS):
        match = table([[PL, C.SIX], [C.SIX]], top, ruleset=PARTY)
        assert PLAY[PL] in moves(match)
        match.apply(0, PLAY[PL])
        assert match.round is not None and match.round.top is PL


def test_only_a_llama_or_a_1_or_1_plus_may_be_played_on_the_pink_llama() -> None:
    assert FITS[PL] - {PL} == {L, C.ONE, C.ONE_PLUS}
    hand = [C.ONE, C.ONE_PLUS, C.TWO, C.SIX, C.SIX_PLUS, L]
    match = table([[C.SIX], hand], PL, [C.THREE], starter=1, ruleset=PARTY)
    assert moves(match) == [PLAY[C.ONE], PLAY[L], PLAY[C.ONE_PLUS], DRAW, QUIT]
    rejected(match, 1, PLAY[C.SIX], "You can't play a 6 on the Pink Llama.")


def test_a_plus_card_counts_as_its_number_a_4_and_a_4_plus_cost_4_once() -> None:
    assert penalty_points([C.FOUR, C.FOUR_PLUS], PARTY) == 4
    assert penalty_points([C.FOUR_PLUS], PARTY) == 4
    assert penalty_points([C.ONE_PLUS, C.SIX_PLUS, C.SIX], PARTY) == 7


def test_the_pink_llama_costs_20_on_top_of_10_for_ordinary_llamas() -> None:
    assert penalty_points([PL], PARTY) == 20
    assert penalty_points([PL, L, L], PARTY) == 30
    assert penalty_points([PL, L, C.SIX, C.SIX_PLUS], PARTY) == 36
    cost = penalty([PL, L], PARTY)
    assert cost.llama_points == 10 and cost.pink_llama_points == 20


def test_pink_chips_are_worth_20_and_chips_are_swapped_up_to_pink() -> None:
    assert Chips.of(45, pink_chips=True) == Chips(white=5, pink=2)
    assert Chips(pink=1).points == 20
    for points in range(300):
        chips = Chips.of(points, pink_chips=True)
        assert chips.points == points and chips.white < 10 and chips.black < 2


def test_a_round_winner_in_the_party_edition_returns_a_pink_chip() -> None:
    match = Match(PARTY, 2)
    quick_round(match, 0, {1: [PL, C.FIVE]})
    assert match.chips(1) == Chips(white=5, pink=1)
    match.start_round(explicit_deal([[C.SIX, C.SIX], [C.TWO]], C.ONE, [C.THREE], 0, round_no=2))
    match.apply(0, DRAW)
    match.apply(1, PLAY[C.TWO])
    assert match.results[-1].seats[1].returned == 20
    assert match.points[1] == 5


def test_without_the_party_edition_20_points_are_two_black_chips_and_returning_gives_back_10() -> (
    None
):
    match = Match(BASE, 2)
    quick_round(match, 0, {1: [L, C.FOUR, C.SIX]})
    assert match.chips(1) == Chips(black=2)
    match.start_round(explicit_deal([[C.SIX, C.SIX], [C.TWO]], C.ONE, [C.THREE], 0, round_no=2))
    match.apply(0, DRAW)
    match.apply(1, PLAY[C.TWO])
    assert match.results[-1].seats[1].returned == 10
    assert match.points[1] == 10


# ================================================================ variant: Lato z Komarami
def test_komarami_deck_has_one_llama_fewer_seven() -> None:
    deck = build_deck(Ruleset(party=False, komarami=True))
    assert Counter(deck)[L] == 7 and len(deck) == 55
    party = build_deck(Ruleset(party=True, komarami=True))
    assert Counter(party)[L] == 7 and len(party) == 62
    match = Match(KOMARAMI, 2)
    match.deal(seed=9)
    assert match.round is not None and Counter(match.round.cards())[L] == 7


def test_komarami_every_llama_costs_10() -> None:
    assert penalty_points([L, L, C.THREE], KOMARAMI) == 23
    assert penalty_points([L, L, C.THREE], BASE) == 13
    assert penalty_points([L] * 7, KOMARAMI) == 70
    both = Ruleset(komarami=True, party=True)
    assert penalty_points([PL, L, L], both) == 40
    match = table([[C.TWO], [L, L, L, C.THREE]], C.ONE, ruleset=KOMARAMI)
    match.apply(0, PLAY[C.TWO])
    assert match.points == [0, 33]


# ================================================================ table options
def test_variants_are_combinable() -> None:
    for no_drama in (False, True):
        for party in (False, True):
            for komarami in (False, True):
                ruleset = Ruleset(no_drama=no_drama, party=party, komarami=komarami)
                match = Match(ruleset, 3)
                match.deal(seed=1)
                assert match.round is not None
                assert len(match.round.cards()) == 56 + 7 * party - komarami
                assert Ruleset.from_json(ruleset.to_json()) == ruleset


@pytest.mark.parametrize("threshold", [0, -5, 201, 1000])
def test_the_threshold_must_be_between_1_and_200(threshold: int) -> None:
    with pytest.raises(
        RulesetError, match=r"^The end threshold must be between 1 and 200 points\.$"
    ):
        Ruleset(threshold=threshold)


@pytest.mark.parametrize("threshold", [1, 5, 40, 200])
def test_thresholds_from_1_to_200_are_accepted(threshold: int) -> None:
    assert Ruleset(threshold=threshold).threshold == threshold


@pytest.mark.parametrize("threshold", [True, 40.0, "40", None])
def test_the_threshold_must_be_a_whole_number(threshold: object) -> None:
    with pytest.raises(RulesetError, match=r"^The end threshold must be a whole number\.$"):
        Ruleset(threshold=threshold)  # type: ignore[arg-type]


@pytest.mark.parametrize("option", ["no_drama", "party", "komarami"])
@pytest.mark.parametrize("value", [1, 0, "yes", None])
def test_variant_options_must_be_true_or_false(option: str, value: object) -> None:
    with pytest.raises(RulesetError, match=rf"^The option {option} must be true or false\.$"):
        Ruleset(**{option: value})  # type: ignore[arg-type]
    with pytest.raises(RulesetError):
        Ruleset.from_json({option: value})


# ================================================================ illegal moves
def _mid_round() -> Match:
    match = table([[C.TWO, C.SIX], [C.THREE, C.FIVE], [C.SIX]], C.TWO, pile=[C.FOUR], starter=0)
    match.apply(0, PLAY[C.TWO])  # seat 1 to move
    match.apply(1, DRAW)  # seat 2 to move; the pile is now empty
    match.apply(2, QUIT)  # seat 0 to move
    return match


@pytest.mark.parametrize(
    ("seat", "action", "message"),
    [
        (1, PLAY[C.THREE], "It's not your turn."),
        (2, QUIT, "You have quit this round and must wait for the next one."),
        (0, PLAY[C.FIVE], "You don't have a 5 in your hand."),
        (0, PLAY[C.SIX], "You can't play a 6 on a 2."),
        (0, DRAW, "The draw pile is empty."),
        (3, QUIT, "You're not in this game."),
        (-1, QUIT, "You're not in this game."),
    ],
)
def test_a_rejected_move_changes_nothing(seat: int, action: Action, message: str) -> None:
    match = _mid_round()
    rejected(match, seat, action, message)
    assert match.to_move == 0
    match.apply(0, QUIT)  # and the game goes on normally
    assert match.to_move == 1


def test_dealing_while_a_round_is_played_is_refused_without_a_change() -> None:
    match = _mid_round()
    before = match.snapshot()
    with pytest.raises(IllegalMove, match="The round is still being played."):
        match.deal(seed=1)
    with pytest.raises(IllegalMove):
        match.start_round(explicit_deal([[C.ONE]] * 3, C.ONE, [], 0, round_no=2))
    assert match.snapshot() == before


def test_a_move_naming_no_real_card_is_rejected_without_a_change() -> None:
    """Engine bug fixed: ``Play(4)`` with a plain int passed the checks, then crashed
    half-way through the move and left the card on the pile as an int."""
    match = table([[C.FOUR, C.FIVE], [C.ONE]], C.FOUR, [C.TWO])
    for card in (4, 9, "4", None):
        before = match.snapshot()
        with pytest.raises(IllegalMove):
            match.apply(0, Play(card))  # type: ignore[arg-type]
        assert match.snapshot() == before
        assert not match.can(0, Play(card))  # type: ignore[arg-type]
    with pytest.raises(IllegalMove, match="Unknown move"):
        match.apply(0, "draw")  # type: ignore[arg-type]
    match.apply(0, PLAY[C.FOUR])
    assert match.round is not None and match.round.top is C.FOUR


# ================================================================ events and replay
def _played_match(ruleset: Ruleset, players: int, seed: int) -> Match:
    import random

    rng = random.Random(seed)
    match = Match(ruleset, players)
    while not match.over:
        match.deal(rng.getrandbits(32))
        while match.in_round:
            seat = match.to_move
            assert seat is not None
            match.apply(seat, rng.choice(match.legal_actions()))
    return match


def test_events_round_trip_through_json() -> None:
    import json

    from game import CardDrawn, CardPlayed, PlayerQuit, RoundDealt, event_from_json

    dealt = explicit_deal([[C.ONE, PL], [C.SIX_PLUS]], L, [C.TWO, C.THREE], starter=1)
    examples = [dealt, CardPlayed(0, C.FOUR_PLUS), CardDrawn(1), PlayerQuit(2)]
    assert isinstance(dealt, RoundDealt)
    match = _played_match(Ruleset(no_drama=True, party=True, komarami=True, threshold=25), 4, 3)
    for event in [*examples, *match.events]:
        back = event_from_json(json.loads(json.dumps(event.to_json())))
        assert back == event and type(back) is type(event)
    wire = json.loads(json.dumps([event.to_json() for event in match.events]))
    assert Match.replay(match.ruleset, 4, [event_from_json(e) for e in wire]) == match


@pytest.mark.parametrize(
    "data",
    [{}, {"kind": "shuffle"}, {"kind": "play", "seat": 0, "card": 99}, {"kind": "draw"}],
)
def test_malformed_events_are_refused(data: dict[str, object]) -> None:
    from game import event_from_json

    with pytest.raises(ReplayError):
        event_from_json(data)


def test_a_match_is_rebuilt_equal_from_its_events() -> None:
    match = _played_match(Ruleset(party=True), 3, 11)
    assert match.over
    copy = Match.replay(match.ruleset, 3, match.events)
    assert copy == match and copy.winners == match.winners and copy.results == match.results


def test_replaying_an_impossible_event_is_refused() -> None:
    from game import CardPlayed

    match = table([[C.TWO], [C.SIX]], C.ONE)
    with pytest.raises(ReplayError):
        Match.replay(BASE, 2, [*match.events, CardPlayed(1, C.SIX)])


# ================================================================ views
def test_a_seat_view_never_includes_another_seats_cards() -> None:
    """Two deals that differ only in what seat 0 cannot see give seat 0 equal views."""
    mine = [C.TWO, C.THREE, C.FOUR]
    deal_a = explicit_deal([mine, [C.SIX, C.SIX, L]], C.ONE, [C.ONE, C.SIX])
    deal_b = explicit_deal([mine, [C.FIVE, L, C.ONE]], C.ONE, [C.SIX, C.FIVE])
    a, b = Match(BASE, 2), Match(BASE, 2)
    a.start_round(deal_a)
    b.start_round(deal_b)
    script = [(0, PLAY[C.TWO]), (1, DRAW), (0, PLAY[C.THREE]), (1, QUIT)]
    for seat, action in script:
        assert a.view(0) == b.view(0)
        assert a.view(0).hand == tuple(sorted(a.round.hands[0]))  # type: ignore[union-attr]
        a.apply(seat, action)
        b.apply(seat, action)
    assert a.view(0) == b.view(0)
    view = a.view(1)
    assert view.hand == tuple(sorted(a.round.hands[1]))  # type: ignore[union-attr]
    assert view.hand_sizes == (1, 4) and view.legal == ()
    assert a.view(0).legal == (PLAY[C.FOUR], QUIT) and a.view(0).my_turn


# ================================================================ purity
def test_the_engine_imports_only_the_standard_library_and_uses_no_global_random() -> None:
    import ast
    import sys
    from pathlib import Path

    import game

    root = Path(game.__file__).parent
    files = sorted(root.rglob("*.py"))  # game/ai too
    assert files
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    top = alias.name.split(".")[0]
                    assert top in sys.stdlib_module_names, f"{path.name} imports {alias.name}"
            elif isinstance(node, ast.ImportFrom):
                depth = len(path.relative_to(root).parts)  # 1 in game/, 2 in game/ai/
                assert node.level <= depth, f"{path.name} imports from outside game/"
                if node.level == 0:
                    top = (node.module or "").split(".")[0]
                    assert top in sys.stdlib_module_names, f"{path.name} imports {node.module}"
                    if top == "random":
                        names = {alias.name for alias in node.names}
                        assert names <= {"Random"}, f"{path.name} imports random.{names}"
            elif (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
            ):
                assert node.attr == "Random", f"{path.name}:{node.lineno} uses random.{node.attr}"
