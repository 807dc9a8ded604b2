"""The AI players: legal, reproducible, blind to hidden cards, and sensible.

Strength itself (Normal beats Easy, Hard beats Normal) is measured by
``benchmarks/ai_tournament.py``, not here: a small sample would be flaky.
"""

from __future__ import annotations

import dataclasses
import gc
import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence

import pytest

from game import (
    DRAW,
    FITS,
    PLAY,
    QUIT,
    Card,
    Match,
    Play,
    Ruleset,
    SeatView,
    best_discard,
    build_deck,
    explicit_deal,
    penalty_points,
)
from game.ai import (
    EasyPlayer,
    HardPlayer,
    NormalParams,
    NormalPlayer,
    Player,
    RandomPlayer,
    Strength,
    choose,
    player_for,
    playout,
    standing,
)
from game.ai.hard import DEFAULT_HARD, beaten, candidates
from game.ai.knowledge import discard_saving, hand_cost, unseen_cards
from game.ai.normal import _MEMO, forget_oldest, opponents_stuck
from game.ai.playout import Playout, play_out
from game.ai.reading import DREW, QUITTED, combine, explains, moves_by_seat, weigh_hands
from game.ai.sim import build_round, determinize, determinize_informed, hints, remaining_counts
from game.ai.standing import win_chance
from game.round import Round
from game.rules import LlamaCost
from testkit.arena import play_game, win_shares

RULESETS = [
    Ruleset(no_drama=nd, party=pa, komarami=ko)
    for nd, pa, ko in itertools.product((False, True), repeat=3)
]
RULESET_IDS = [",".join(r.presets) or "base" for r in RULESETS]

#: A Hard player with a tiny budget, to cover many positions quickly; the real
#: budget is exercised on fewer positions below.
QUICK_HARD = HardPlayer(samples=3)


def positions(ruleset: Ruleset, players: int, seed: int, every: int = 1) -> list[SeatView]:
    """Views of the player to move, from a game of mixed random and Easy players."""
    rng = random.Random(seed)
    lineup: list[Player] = [
        RandomPlayer() if rng.random() < 0.5 else EasyPlayer() for _ in range(players)
    ]
    views: list[SeatView] = []
    count = 0

    def record(seat: int, view: SeatView) -> None:
        nonlocal count
        if count % every == 0:
            views.append(view)
        count += 1

    play_game(lineup, ruleset, seed, on_decision=record)
    return views


def setup(
    ruleset: Ruleset,
    hands: list[list[Card]],
    top: Card,
    pile: list[Card],
    starter: int = 0,
) -> Match:
    """A round dealt by hand: the given hands and top card; the draw pile starts
    with ``pile`` and holds the rest of the deck after it (the deck stays whole)."""
    rest = Counter(build_deck(ruleset))
    rest.subtract([c for hand in hands for c in hand] + [top] + pile)
    assert min(rest.values()) >= 0, "more cards than the deck has"
    match = Match(ruleset, len(hands))
    match.start_round(explicit_deal(hands, top, pile + sorted(rest.elements()), starter=starter))
    return match


# ---------------------------------------------------------------- legality


@pytest.mark.parametrize("ruleset", RULESETS, ids=RULESET_IDS)
@pytest.mark.slow  # over a quarter second on a quiet machine
def test_every_strength_returns_a_legal_move(ruleset: Ruleset) -> None:
    players: list[Player] = [EasyPlayer(), NormalPlayer(), QUICK_HARD, RandomPlayer()]
    checked = 0
    for n in range(2, 7):
        seed = 100 * n + len(ruleset.presets)
        for view in positions(ruleset, n, seed, every=3) + positions(ruleset, n, -seed, every=5):
            for i, player in enumerate(players):
                action = player.decide(view, random.Random(i))
                assert action in view.legal, (player, view, action)
            checked += 1
    assert checked > 40


@pytest.mark.slow  # Hard's search at its real work
@pytest.mark.parametrize("ruleset", [RULESETS[0], RULESETS[-1]], ids=["base", "all-variants"])
def test_choose_with_the_real_budget_is_legal(ruleset: Ruleset) -> None:
    for n in (2, 4, 6):
        views = positions(ruleset, n, seed=7 + n, every=1)
        hard_views = [v for v in views if len(candidates(v)) > 1][:2]
        assert hard_views
        for view in views[:6] + hard_views:
            for strength in Strength:
                assert choose(view, strength, seed="t") in view.legal


def test_whole_games_between_the_strengths_finish() -> None:
    for n, ruleset in zip((2, 3, 5), (RULESETS[0], RULESETS[3], RULESETS[7]), strict=True):
        lineup: list[Player] = [EasyPlayer(), NormalPlayer(), HardPlayer(samples=4), RandomPlayer()]
        match = play_game(lineup[:n] if n <= 4 else lineup + [NormalPlayer()], ruleset, n)
        assert match.over
        assert sum(win_shares(match)) == pytest.approx(1.0)


def test_choose_refuses_when_not_to_move() -> None:
    match = setup(Ruleset(), [[Card.ONE], [Card.TWO]], Card.THREE, [Card.FOUR])
    with pytest.raises(ValueError):
        choose(match.view(1), Strength.NORMAL, seed=1)


def test_strength_names_and_lookup() -> None:
    assert [s.value for s in Strength] == ["easy", "normal", "hard"]
    assert isinstance(player_for("easy"), EasyPlayer)
    assert isinstance(player_for(Strength.NORMAL), NormalPlayer)
    assert isinstance(player_for("hard"), HardPlayer)


# ---------------------------------------------------------------- reproducibility


@pytest.mark.slow  # over a quarter second on a quiet machine
def test_decisions_are_reproducible_from_the_seed() -> None:
    views = positions(Ruleset(party=True), 4, seed=3)
    hard_views = [v for v in views if len(candidates(v)) > 1][:3]
    assert hard_views
    for view in views[:30]:
        for strength in (Strength.EASY, Strength.NORMAL):
            assert choose(view, strength, seed=1) == choose(view, strength, seed=1)
    for view in hard_views:  # Hard samples: the seed fixes its guesses
        assert choose(view, Strength.HARD, seed="s") == choose(view, Strength.HARD, seed="s")


def test_whole_games_are_reproducible() -> None:
    def game() -> Match:
        lineup: list[Player] = [HardPlayer(samples=4), NormalPlayer(), EasyPlayer()]
        return play_game(lineup, Ruleset(no_drama=True), seed="repro")

    assert game() == game()


def test_easy_and_normal_ignore_the_seed() -> None:
    for view in positions(Ruleset(), 3, seed=11)[:60]:
        for strength in (Strength.EASY, Strength.NORMAL):
            assert len({choose(view, strength, seed=s) for s in range(4)}) == 1


# ---------------------------------------------------------------- hidden information


def reshuffled(match: Match, seat: int, rng: random.Random) -> Match:
    """The same match with the cards ``seat`` can't see dealt differently (same counts)."""
    twin = Match.replay(match.ruleset, match.players, match.events)
    rnd = twin.round
    assert rnd is not None
    hidden = list(rnd.pile)
    for s, hand in enumerate(rnd.hands):
        if s != seat:
            hidden.extend(hand)
    rng.shuffle(hidden)
    at = 0
    for s, hand in enumerate(rnd.hands):
        if s != seat:
            rnd.hands[s] = hidden[at : at + len(hand)]
            at += len(hand)
    rnd.pile = hidden[at:]
    return twin


@pytest.mark.slow  # over a quarter second on a quiet machine
def test_decisions_depend_only_on_what_the_seat_can_see() -> None:
    rng = random.Random(5)
    tried = 0
    for ruleset in (RULESETS[0], RULESETS[7]):
        for n in (2, 4, 6):
            match = Match(ruleset, n)
            match.deal(seed=n)
            normal = NormalPlayer()
            # Play into the round a little, so that there is history.
            for _ in range(rng.randrange(3, 12)):
                if not match.in_round:
                    break
                seat = match.to_move
                assert seat is not None
                match.apply(seat, normal.decide(match.view(seat), rng))
            if not match.in_round:
                continue
            seat = match.to_move
            assert seat is not None
            view = match.view(seat)
            for _ in range(3):
                twin = reshuffled(match, seat, rng)
                assert twin.round is not None and match.round is not None
                assert twin.round.hands != match.round.hands or twin.round.pile != match.round.pile
                assert twin.view(seat) == view
                for strength in Strength:
                    assert choose(twin.view(seat), strength, seed=9) == choose(
                        view, strength, seed=9
                    )
                tried += 1
    assert tried >= 12


def test_unseen_cards_are_the_other_hands_and_the_pile() -> None:
    for view in positions(Ruleset(party=True, komarami=True), 5, seed=2)[:50]:
        match_cards = Counter(build_deck(Ruleset(party=True, komarami=True)))
        unseen = Counter(unseen_cards(view))
        assert unseen + Counter(view.hand) + Counter(view.discard) == match_cards


def test_determinizations_keep_the_public_state() -> None:
    rng = random.Random(1)
    for view in positions(Ruleset(no_drama=True, party=True), 4, seed=4)[:40]:
        rnd = determinize(view, unseen_cards(view), rng)
        assert rnd.hands[view.seat] == list(view.hand)
        assert tuple(len(h) for h in rnd.hands) == view.hand_sizes
        assert len(rnd.pile) == view.draw_pile
        assert tuple(rnd.discard) == view.discard
        assert tuple(rnd.active) == view.in_round
        assert rnd.to_move == view.to_move
        assert rnd.no_drama_holder == view.no_drama_holder
        assert Counter(rnd.cards()) == Counter(build_deck(Ruleset(party=True, komarami=False)))
        assert rnd.legal_actions() == list(view.legal)


def test_hints_read_draws_and_quits() -> None:
    hands = [[Card.TWO, Card.THREE], [Card.SIX, Card.SIX], [Card.ONE, Card.ONE]]
    match = setup(Ruleset(), hands, Card.TWO, [Card.LLAMA] * 6)
    match.apply(0, PLAY[Card.THREE])  # top 3
    match.apply(1, DRAW)  # seat 1 had nothing for a 3
    match.apply(2, QUIT)  # seat 2 neither
    view = match.view(0)
    assert hints(view) == {1: [(FITS[Card.THREE], 1)], 2: [(FITS[Card.THREE], 0)]}
    rng = random.Random(0)
    unseen = unseen_cards(view)
    for _ in range(50):
        rnd = determinize_informed(view, unseen, hints(view), rng)
        assert Counter(rnd.cards()) == Counter(build_deck(Ruleset(party=False, komarami=False)))
        assert not FITS[Card.THREE].intersection(rnd.hands[2])
        assert sum(c in FITS[Card.THREE] for c in rnd.hands[1]) <= 1
        assert [len(h) for h in rnd.hands] == list(view.hand_sizes)


def test_reading_every_move_rules_out_a_quit_with_a_card_to_play() -> None:
    hands = [[Card.TWO, Card.THREE], [Card.ONE, Card.ONE], [Card.SIX, Card.SIX]]
    match = setup(Ruleset(), hands, Card.THREE, [Card.LLAMA] * 6, starter=1)
    match.apply(1, QUIT)
    view = match.view(2)
    moves = moves_by_seat(view)
    assert [(m.kind, m.top) for m in moves[1]] == [(QUITTED, Card.THREE)]
    rng = random.Random(0)
    assert explains(hands[1], 1, moves[1], view.points, view.ruleset, rng)
    # a 4 fits the 3: Normal would have played it
    assert not explains([Card.FOUR, Card.ONE], 1, moves[1], view.points, view.ruleset, rng)


# ---------------------------------------------------------------- simulation helpers


def copies_during(ruleset: Ruleset, players: int, seed: int, every: int) -> list[Match]:
    """Copies of a game of mixed random and Easy players, taken every ``every`` events."""
    live: list[Match] = []
    copies: list[Match] = []

    def keep(seat: int, view: SeatView) -> None:
        if len(live[0].events) % every == 0:
            copies.append(Match.replay(ruleset, players, live[0].events))

    lineup: list[Player] = [RandomPlayer() if s % 2 else EasyPlayer() for s in range(players)]
    play_game(lineup, ruleset, seed, on_decision=keep, on_start=live.append)
    return copies


def playout_of(match: Match) -> Playout:
    """The playout state of ``match``'s round, with the public facts of its view."""
    rnd = match.round
    assert rnd is not None
    view = match.view(0)
    return Playout.of(rnd, remaining_counts(view.ruleset, view.discard), opponents_stuck(view))


@pytest.mark.parametrize("ruleset", RULESETS, ids=RULESET_IDS)
def test_playout_settles_like_the_match(ruleset: Ruleset) -> None:
    rng = random.Random(len(ruleset.presets))
    for game in range(25):
        match = Match(ruleset, rng.randrange(2, 7))
        normal = NormalPlayer()
        while not match.over:
            before = list(match.points)
            match.deal(seed=rng.getrandbits(32))
            while match.in_round:
                seat = match.to_move
                assert seat is not None
                view = match.view(seat)
                player: Player = normal if rng.random() < 0.7 else RandomPlayer()
                match.apply(seat, player.decide(view, rng))
            assert playout_of(match).settle(before) == match.points, game


@pytest.mark.parametrize("ruleset", RULESETS, ids=RULESET_IDS)
def test_playouts_end_the_round_as_normal_does_through_the_engine(ruleset: Ruleset) -> None:
    """From positions of real games, a playout makes the moves the Normal player
    makes through ``Match.apply`` (which checks every one): the same hands and
    draw pile at the end, and the same points."""
    normal = NormalPlayer()
    compared = 0
    for n in range(2, 7):
        for start in copies_during(ruleset, n, seed=40 + n, every=4):
            engine = Match.replay(start.ruleset, n, start.events)
            before = list(engine.points)
            while engine.in_round:
                seat = engine.to_move
                assert seat is not None
                engine.apply(seat, normal.decide(engine.view(seat), random.Random(0)))
            fast = playout_of(start)
            play_out(fast, before)
            assert engine.round is not None
            assert [fast.hand(s) for s in range(n)] == [sorted(h) for h in engine.round.hands]
            assert fast.pile == list(engine.round.pile)
            assert fast.settle(before) == engine.points
            compared += 1
    assert compared > 40


#: Parameters far enough from Normal's to change many moves.
OTHER_PARAMS = NormalParams(margin=2.0, run_bonus=0.0, stuck_opponent=3, empty_bonus=3.0)


@pytest.mark.parametrize("ruleset", RULESETS, ids=RULESET_IDS)
def test_a_playout_plays_one_seat_with_its_own_parameters(ruleset: Ruleset) -> None:
    """``play_out(..., own=(seat, params))``: that seat makes the moves
    ``NormalPlayer(params)`` makes through ``Match.apply``, the others Normal's
    (Hard's own seat with ``HardParams.own_policy``)."""
    normal, other = NormalPlayer(), NormalPlayer(OTHER_PARAMS)
    compared = differ = 0
    for n in (2, 4, 6):
        for start in copies_during(ruleset, n, seed=60 + n, every=4):
            own = len(start.events) % n
            engine = Match.replay(start.ruleset, n, start.events)
            before = list(engine.points)
            while engine.in_round:
                seat = engine.to_move
                assert seat is not None
                player = other if seat == own else normal
                engine.apply(seat, player.decide(engine.view(seat), random.Random(0)))
            fast, plain = playout_of(start), playout_of(start)
            play_out(fast, before, own=(own, OTHER_PARAMS))
            play_out(plain, before)
            assert engine.round is not None
            assert [fast.hand(s) for s in range(n)] == [sorted(h) for h in engine.round.hands]
            assert fast.pile == list(engine.round.pile)
            assert fast.settle(before) == engine.points
            differ += fast.settle(before) != plain.settle(before)
            compared += 1
    assert compared > 20
    assert differ > 0  # the parameters changed moves: the test tells the seats apart


@pytest.mark.parametrize("ruleset", RULESETS, ids=RULESET_IDS)
def test_fast_hand_cost_matches_the_engine(ruleset: Ruleset) -> None:
    rng = random.Random(3)
    deck = build_deck(ruleset)
    for _ in range(300):
        hand = rng.sample(deck, rng.randrange(1, 10))
        assert hand_cost(hand, ruleset.llama_cost is LlamaCost.EACH) == penalty_points(
            hand, ruleset
        )
        card = best_discard(hand, ruleset)
        assert card is not None
        rest = list(hand)
        rest.remove(card)
        saving = penalty_points(hand, ruleset) - penalty_points(rest, ruleset)
        assert discard_saving(hand, ruleset.llama_cost is LlamaCost.EACH) == saving


# ---------------------------------------------------------------- Easy


def test_easy_plays_the_lowest_card_that_fits() -> None:
    match = setup(
        Ruleset(), [[Card.THREE, Card.FOUR, Card.LLAMA], [Card.ONE]], Card.THREE, [Card.TWO] * 5
    )
    assert choose(match.view(0), Strength.EASY, seed=0) == PLAY[Card.THREE]


def test_easy_draws_with_an_expensive_hand_and_quits_with_a_cheap_one() -> None:
    costly = setup(Ruleset(), [[Card.SIX, Card.LLAMA], [Card.ONE]], Card.TWO, [Card.TWO] * 5)
    assert choose(costly.view(0), Strength.EASY, seed=0) == DRAW
    cheap = setup(Ruleset(), [[Card.ONE, Card.FIVE], [Card.ONE]], Card.TWO, [Card.TWO] * 5)
    assert choose(cheap.view(0), Strength.EASY, seed=0) == QUIT


def test_easy_quits_when_it_can_neither_play_nor_draw() -> None:
    match = setup(Ruleset(), [[Card.SIX, Card.LLAMA], [Card.ONE]], Card.TWO, [], starter=1)
    match.apply(1, QUIT)  # alone in the round: no drawing
    assert match.view(0).legal == (QUIT,)
    assert choose(match.view(0), Strength.EASY, seed=0) == QUIT


def test_easy_is_not_a_random_player() -> None:
    """Over many real positions Easy always plays when a card fits, never quits an
    expensive hand while it may draw, and answers the same whatever the seed."""
    easy = EasyPlayer()
    seen = Counter[str]()
    for n in (2, 4, 6):
        for view in positions(Ruleset(), n, seed=50 + n):
            action = easy.decide(view, random.Random(0))
            assert all(easy.decide(view, random.Random(s)) == action for s in (1, 2))
            fitting = [a for a in view.legal if isinstance(a, Play)]
            if fitting:
                assert action == fitting[0]
                seen["play"] += 1
            elif DRAW in view.legal and hand_cost(view.hand, False) > 6:
                assert action == DRAW
                seen["draw"] += 1
            else:
                assert action == QUIT
                seen["quit"] += 1
    assert min(seen.values()) >= 10, seen


# ---------------------------------------------------------------- Normal and Hard


def test_normal_and_hard_always_play_when_a_card_fits_without_no_drama() -> None:
    hard = HardPlayer(samples=4)
    for view in positions(Ruleset(party=True), 4, seed=21):
        if any(isinstance(a, Play) for a in view.legal):
            assert isinstance(NormalPlayer().decide(view, random.Random(0)), Play)
            assert isinstance(hard.decide(view, random.Random(0)), Play)


def test_plus_card_first_when_it_empties_the_hand() -> None:
    ruleset = Ruleset(party=True)
    match = setup(ruleset, [[Card.FOUR_PLUS, Card.FIVE], [Card.ONE] * 3], Card.FOUR, [Card.TWO] * 5)
    view = match.view(0)
    assert set(view.legal) >= {PLAY[Card.FOUR_PLUS], PLAY[Card.FIVE]}
    for strength in (Strength.NORMAL, Strength.HARD):
        assert choose(view, strength, seed=0) == PLAY[Card.FOUR_PLUS]


def test_normal_keeps_its_run_going() -> None:
    """On a 3, holding 3 3 4 5: playing a 3 keeps the whole hand one run."""
    match = setup(
        Ruleset(), [[Card.THREE, Card.THREE, Card.FOUR, Card.FIVE], [Card.ONE] * 6], Card.THREE, []
    )
    assert choose(match.view(0), Strength.NORMAL, seed=0) == PLAY[Card.THREE]


def test_normal_quits_a_cheap_hand_when_an_opponent_is_about_to_empty() -> None:
    hands = [[Card.ONE, Card.TWO], [Card.SIX]]
    match = setup(Ruleset(), hands, Card.FOUR, [Card.LLAMA] * 4 + [Card.FIVE] * 4)
    assert choose(match.view(0), Strength.NORMAL, seed=0) == QUIT


def test_normal_draws_with_a_costly_hand_and_a_long_round_ahead() -> None:
    hands = [[Card.LLAMA, Card.THREE], [Card.ONE] * 6, [Card.TWO] * 6]
    match = setup(Ruleset(), hands, Card.FIVE, [])
    assert choose(match.view(0), Strength.NORMAL, seed=0) == DRAW


def test_hard_quits_a_one_when_the_opponent_holds_a_single_card() -> None:
    """Drawing can only add cost: the 1 is far from playable and the round may end."""
    hands = [[Card.ONE], [Card.FIVE]]
    match = setup(Ruleset(), hands, Card.FOUR, [])
    assert choose(match.view(0), Strength.HARD, seed=0) == QUIT


def test_hard_behind_at_the_end_plays_on_for_its_only_chance_to_win() -> None:
    """At 36 points against 25, quitting with a 2 and a 6 on a 4 takes Hard to
    44: the game ends and Hard has almost surely lost.  Drawing costs more points on average
    but keeps the chance to go out (a black chip back, and the game goes on).
    Scored by relative points Hard gave the game up; scored by the chance of
    winning it draws."""
    hands = [[Card.TWO, Card.SIX], [Card.ONE, Card.TWO, Card.THREE, Card.SIX, Card.LLAMA]]
    match = setup(Ruleset(), hands, Card.FOUR, [])
    view = dataclasses.replace(match.view(0), points=(36, 25))
    points = HardPlayer(dataclasses.replace(DEFAULT_HARD, win_model=False))
    assert points.decide(view, random.Random(0)) == QUIT
    assert HardPlayer().decide(view, random.Random(0)) == DRAW
    # far from the end the same hand is simply quit
    early = dataclasses.replace(view, points=(5, 5))
    assert HardPlayer().decide(early, random.Random(0)) == QUIT


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_chance_of_winning_is_even_at_the_start_and_exact_at_the_end(players: int) -> None:
    even = [win_chance([0] * players, s, 40) for s in range(players)]
    assert even == pytest.approx([1 / players] * players, abs=0.002)
    # a finished game pays the share of the win, ties split
    ended = [12, 41] + [12] * (players - 2)
    assert win_chance(ended, 0, 40) == pytest.approx(1 / (players - 1))
    assert win_chance(ended, 1, 40) == 0.0
    # fewer points are better, and the same lead is worth more near the end
    lead = [20] + [30] * (players - 1)
    late = [28] + [38] * (players - 1)
    assert win_chance(lead, 0, 40) < win_chance(late, 0, 40) < 1.0
    assert win_chance(lead, 1, 40) > win_chance(late, 1, 40) > 0.0
    chances = [win_chance(lead, s, 40) for s in range(players)]
    assert sum(chances) == pytest.approx(1.0, abs=0.05)


def test_two_players_win_with_the_chance_that_the_gap_survives_the_points_to_come() -> None:
    """With two players the model is exact in closed form: each one's points to
    come spread by ``s``, so the gap's by ``s * sqrt 2``."""
    slope, base = standing.SPREAD[2]
    s = math.sqrt(slope * (40 - 20) + base)
    expected = 0.5 * (1 + math.erf(10 / (s * math.sqrt(2)) / math.sqrt(2)))
    assert win_chance([10, 20], 0, 40) == pytest.approx(expected, abs=1e-4)
    assert win_chance([10, 20], 1, 40) == pytest.approx(1 - expected, abs=1e-4)


def test_unseen_counts_check_the_view() -> None:
    match = setup(Ruleset(), [[Card.ONE], [Card.TWO]], Card.THREE, [Card.FOUR])
    view = match.view(0)
    broken = dataclasses.replace(view, draw_pile=view.draw_pile + 5)
    with pytest.raises(ValueError):
        unseen_cards(broken)


# ---------------------------------------------------------------- reading every move


@pytest.mark.parametrize("ruleset", [RULESETS[0], RULESETS[-1]], ids=["base", "all-variants"])
def test_reading_every_move_never_rules_out_the_true_hands(ruleset: Ruleset) -> None:
    """Against Normal players, each real hand explains all of its player's moves."""
    normal = NormalPlayer()
    checked = 0
    for game in range(3):
        match = Match(ruleset, 3 + game)
        rng = random.Random(game)
        while not match.over:
            match.deal(rng.getrandbits(32))
            while match.in_round:
                seat = match.to_move
                assert seat is not None and match.round is not None
                view = match.view(seat)
                for other, moves in moves_by_seat(view).items():
                    hand = match.round.hands[other]
                    assert explains(hand, other, moves, view.points, ruleset, random.Random(0))
                    checked += 1
                match.apply(seat, normal.decide(view, rng))
    assert checked > 300


def test_reading_every_move_rules_out_hands_that_contradict_an_early_draw() -> None:
    # Seat 1 drew on a 3, so it held nothing for a 3 then: a hand now with
    # two cards that fit the 3 (one more than one draw explains) is ruled out.
    hands = [[Card.THREE, Card.FOUR, Card.ONE], [Card.SIX, Card.LLAMA], [Card.SIX, Card.TWO]]
    match = setup(Ruleset(), hands, Card.TWO, [Card.FIVE, Card.LLAMA, Card.LLAMA])
    match.apply(0, PLAY[Card.THREE])  # top 3
    match.apply(1, DRAW)  # had nothing for a 3: drew a llama
    match.apply(2, DRAW)
    match.apply(0, PLAY[Card.FOUR])  # top 4
    view = match.view(0)
    moves = moves_by_seat(view)
    assert [m.kind for m in moves[1]] == [DREW]
    assert match.round is not None
    rng = random.Random(0)
    assert explains(match.round.hands[1], 1, moves[1], view.points, view.ruleset, rng)
    points, rules = view.points, view.ruleset
    assert not explains([Card.THREE, Card.FOUR, Card.SIX], 1, moves[1], points, rules, rng)
    assert explains([Card.THREE, Card.SIX, Card.LLAMA], 1, moves[1], points, rules, rng)


def test_weighed_hands_are_every_hand_that_explains_the_moves() -> None:
    hands = [[Card.THREE, Card.FOUR, Card.ONE], [Card.ONE], [Card.SIX, Card.SIX, Card.TWO]]
    match = setup(Ruleset(), hands, Card.TWO, [Card.LLAMA] * 3)
    match.apply(0, PLAY[Card.THREE])  # top 3
    match.apply(1, DRAW)  # seat 1 had one card, nothing for a 3; now holds two
    view = match.view(2)
    unseen = unseen_cards(view)
    weighed, _checked = weigh_hands(view, unseen, moves_by_seat(view), random.Random(0), 100, 1000)
    got, weights = weighed[1]
    # Every two-card hand whose other card doesn't fit the 3, weighed by the
    # ways the unseen cards deal it.
    assert all(sum(c in FITS[Card.THREE] for c in hand) <= 1 for hand in got)
    assert sorted(hands[1] + [Card.LLAMA]) in [sorted(h) for h in got]
    copies = Counter(unseen)
    for hand, ways in zip(got, weights, strict=True):
        a, b = sorted(hand)
        assert ways == (copies[a] * (copies[a] - 1) // 2 if a == b else copies[a] * copies[b])
    rng = random.Random(3)
    for _ in range(30):
        rnd = combine(view, unseen, weighed, hints(view), rng)
        assert sorted(rnd.hands[1]) in [sorted(h) for h in got]
        assert Counter(rnd.cards()) == Counter(build_deck(Ruleset(party=False, komarami=False)))
        assert tuple(len(h) for h in rnd.hands) == view.hand_sizes


@pytest.mark.parametrize(("last", "blocking"), [(Card.THREE, Card.FOUR), (Card.FIVE, Card.THREE)])
def test_hard_that_sees_the_hands_blocks_the_last_card(last: Card, blocking: Card) -> None:
    """On a 3, holding a 3 and a 4: a next player down to a 3 is stopped by the 4,
    one down to a 5 by the 3.  The seat's view is the same in both, so only a
    dealer that peeks (how ``benchmarks/ai_information.py`` prices information)
    can find both."""
    hands = [[Card.THREE, Card.FOUR, Card.SIX, Card.LLAMA], [last]]
    match = setup(Ruleset(), hands, Card.THREE, [])
    real = match.round
    assert real is not None

    def peek(view: SeatView, unseen: Sequence[Card], rng: random.Random) -> Round:
        pile = list(real.pile)
        rng.shuffle(pile)
        return build_round(view, [list(h) for h in real.hands], pile)

    assert HardPlayer(dealer=peek).decide(match.view(0), random.Random(0)) == PLAY[blocking]


# ---------------------------------------------------------------- spending the samples


def test_a_move_clearly_beaten_is_no_longer_played_out() -> None:
    rng = random.Random(1)
    # option 1 is worse by 3 points each time, give or take 1; option 2 is
    # worse by about half a point in a spread of 8: not told apart yet
    rows = []
    for _ in range(24):
        base = rng.gauss(0, 5)
        rows.append([base, base - 3 + rng.uniform(-1, 1), base - 0.5 + rng.uniform(-8, 8)])
    assert beaten(rows, [0, 1, 2], 3.0) == [1]
    # the same outcome every time: nothing left to tell apart
    assert beaten([[1.0, 1.0], [2.0, 2.0]], [0, 1], 3.0) == [1]
    assert beaten(rows, [0, 2], 3.0) == []


@pytest.mark.slow  # Hard's every determinization
def test_hard_stops_early_on_a_clear_choice_and_searches_close_ones_fully() -> None:
    """From real positions, a Hard that stops early makes the choice the Hard
    that plays every determinization makes whenever it stopped early, and
    spends fewer playouts overall."""
    unbounded = dataclasses.replace(DEFAULT_HARD, work=(0,) * 7)  # every stop is an early stop
    full = HardPlayer(dataclasses.replace(unbounded, stop_z=0.0))
    early = HardPlayer(unbounded)
    stopped = searched = 0
    for view in positions(Ruleset(), 4, seed=5, every=2):
        options = candidates(view)
        if len(options) < 2:
            continue
        rows = early.simulate(view, options, random.Random(9))
        budget = early.budget(view.players)
        assert DEFAULT_HARD.stop_after <= len(rows) <= budget
        searched += 1
        if len(rows) < budget:
            stopped += 1
            assert early.decide(view, random.Random(9)) == full.decide(view, random.Random(9))
    assert searched >= 5
    assert stopped >= 1


@pytest.mark.slow  # 120 determinizations a position, twice
def test_hard_deals_determinizations_until_its_work_budget_is_spent() -> None:
    """A decision's time follows the moves it plays out: early in a round a
    playout is long, late in it short.  So Hard deals determinizations until
    the moves played out (plus ``ROW_WORK`` a determinization) reach its
    budget: the same determinizations as without one, cut short where
    playouts are long, all of them where they are short."""
    samples = dataclasses.replace(DEFAULT_HARD, samples=(120,) * 7, stop_z=0.0)
    bounded = HardPlayer(dataclasses.replace(samples, work=(6000,) * 7))
    unbounded = HardPlayer(dataclasses.replace(samples, work=(0,) * 7))
    cut = whole = 0
    for view in positions(Ruleset(), 4, seed=5, every=2):
        options = candidates(view)
        if len(options) < 2:
            continue
        rows = bounded.simulate(view, options, random.Random(3))
        every = unbounded.simulate(view, options, random.Random(3))
        assert len(every) == 120
        assert rows == every[: len(rows)]
        cut += len(rows) < 120
        whole += len(rows) == 120
    assert cut and whole


def test_a_full_memo_forgets_its_older_half() -> None:
    memo = {k: k * k for k in range(10)}
    forget_oldest(memo)
    assert memo == {k: k * k for k in range(5, 10)}


@pytest.mark.slow  # over a quarter second on a quiet machine
def test_hard_decides_without_work_for_the_garbage_collector() -> None:
    """A warm Hard worker spent 10-95 ms of some decisions in the garbage
    collector (a decision's p99 was 125-135 ms at 4 players, 105 with the
    collector off): every collection that met a memo with tuple keys walked it
    entry by entry, and each hand read from the moves left a reference cycle
    (a nested function calling itself).  Now the memos are never tracked and
    a decision leaves nothing for the collector to find."""
    views = [
        v
        for players, seed in ((4, 11), (3, 12), (5, 13))
        for v in positions(Ruleset(), players, seed=seed, every=2)
        if len(candidates(v)) > 1
    ]
    gc.collect()
    gc.disable()
    try:
        for view in views[:30]:
            HardPlayer(samples=8).decide(view, random.Random(1))
        memos = [*playout._PLAYS.values(), *playout._DRAWS.values(), *playout._COSTS, _MEMO]
        memos.append(standing._MEMO)
        assert sum(len(m) for m in memos) > 1000
        assert [m for m in memos if gc.is_tracked(m)] == []
        assert gc.collect() == 0  # no cycles left behind
    finally:
        gc.enable()


@pytest.mark.slow  # over a quarter second on a quiet machine
def test_hard_memos_leave_the_garbage_collector_nothing_to_scan() -> None:
    """A full collection walks every tracked object; memos of lists took one to
    over 100 ms in a worker that had made a few hundred decisions (in the
    middle of a decision).  Entries of numbers only are untracked once the
    collector has seen them (a tuple in a tuple: in its second pass)."""
    for view in positions(Ruleset(), 4, seed=3, every=3)[:10]:
        options = candidates(view)
        if len(options) > 1:
            HardPlayer(samples=8).simulate(view, options, random.Random(0))
    gc.collect()
    gc.collect()
    entries = [e for memo in playout._DRAWS.values() for e in memo.values()]
    entries += [k for memo in playout._PLAYS.values() for k in memo]
    assert entries
    assert not any(gc.is_tracked(e) for e in entries)
