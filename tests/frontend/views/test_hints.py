"""The words of hints and reviews (bot.frontend.views.hints): a hint names its move and
the choice it beats, a review the cost of each decision, in each language.

Polish moves in hints and reviews: a card named after a verb or noun that governs
a case ("zagraj", "zagrywasz", "zagranie") takes it through "kartę"/"karty", so a
Llama, a pink Llama or a mosquito is never left in the nominative ("zagranie Lama")."""

from __future__ import annotations

from typing import Any

import pytest

from bot.frontend.views.hints import hint_line, move_text, review_text
from bot.i18n import text
from bot.service.thinking.hints import Hint
from game import DRAW, PLAY, QUIT, Card, Match, Play, Ruleset, explicit_deal
from game.ai.advice import Advice, Decision, Estimate, Review

KOMARAMI = Ruleset(komarami=True)


@pytest.mark.parametrize(
    ("card", "ruleset", "name"),
    [
        (Card.LLAMA, Ruleset(), "Lama"),
        (Card.LLAMA, KOMARAMI, "Komar"),
        (Card.PINK_LLAMA, Ruleset(party=True), "Różowa lama"),
        (Card.THREE, Ruleset(), "3"),
    ],
)
def test_a_card_played_is_named_in_the_case_polish_needs(
    card: Card, ruleset: Ruleset, name: str
) -> None:
    assert move_text("pl", "review.you", Play(card), ruleset) == f"zagrywasz kartę {name}"
    assert move_text("pl", "review.hard", Play(card), ruleset) == f"Hard radzi: zagraj kartę {name}"
    why = text("pl", "hint.why.vs_play", cost="2", card=name, other="3")
    assert f"zagranie karty {name} około 3" in why


def test_the_review_says_the_cost_in_chance_and_points_in_each_language() -> None:
    def lost(chance: float, points: float) -> Review:
        decision = Decision(1, 2, 3, DRAW, QUIT, chance + points, chance, points)
        return Review(Ruleset(), (decision,), checked=4, complete=False)

    # A quit that lost the game: the chance it cost first, then the points it saved.
    quit_lost = review_text("en", lost(12.4, -2.2))
    assert "· −12% chance to win the game, though 2 points saved" in quit_lost
    assert "Ranked by Hard's measure: your chance to win the game plus your points" in quit_lost
    assert "· 1 point lost" in review_text("en", lost(0.2, 1.2))
    assert "· hardly anything lost" in review_text("en", lost(0.3, 0.3))
    assert "· 8 points lost, though +3% chance to win the game" in review_text("en", lost(-3, 8))
    assert "strata 1 punktu" in review_text("pl", lost(0.0, 1.2))
    assert "choć oszczędność 2 punktów" in review_text("pl", lost(30.0, -2.0))
    german = review_text("de", lost(20.0, 5.0))
    assert "Runde 2, Zug 3: du hast gezogen; Hard würde aussteigen · −20 % Gewinnchance" in german
    assert "5 Minuspunkte mehr" in german and "Nach Hards Maß gereiht" in german
    assert "nur deine ersten 4 Entscheidungen" in german
    assert "probabilidad de ganar" in review_text("es", lost(20.0, 0.0))


def test_a_hint_names_the_move_and_the_choice_it_beats() -> None:
    match = Match(Ruleset(), 2)
    match.start_round(
        explicit_deal([[Card.TWO, Card.SIX], [Card.FIVE]], Card.TWO, [Card.ONE] * 8, 0)
    )
    view = match.view(0)
    two, draw, quit_ = PLAY[Card.TWO], Estimate(DRAW, 3.2, -1.0), Estimate(QUIT, 8.0, -6.0)

    def line(locale: str, choice: Any, *estimates: Estimate) -> str:
        return hint_line(locale, Hint(view, Advice(choice, estimates)))

    assert line("en", two, Estimate(two, 2.4, 0.5), draw, quit_) == (
        "💡 **Play 2**: expected to cost about 2; drawing about 3"
    )
    # Whole numbers that would look the same are given to a tenth, as the language writes it.
    assert line("de", two, Estimate(two, 2.8, 0.5), draw, quit_) == (
        "💡 **2 ablegen**: kostet voraussichtlich etwa 2,8; ziehen etwa 3,2"
    )
    assert line("en", DRAW, Estimate(DRAW, 3.2, 1.0), quit_) == (
        "💡 **Draw**: expected to cost about 3; quitting costs 8 now"
    )
    assert line("en", QUIT, quit_) == "💡 **Quit**: it's your only move; your hand costs 8 now"
    assert line("en", two, Estimate(two, 5.0, 0.5), Estimate(DRAW, 3.0, 0.0)) == (
        "💡 **Play 2**: expected to cost about 5; drawing about 3"
        " (more points for you, but a better chance to win the game)"
    )
    # the same chance either way (a game lost whatever the move) is no reason to give
    assert line("en", two, Estimate(two, 5.0, 0.0), Estimate(DRAW, 3.0, 0.0)) == (
        "💡 **Play 2**: expected to cost about 5; drawing about 3"
    )
