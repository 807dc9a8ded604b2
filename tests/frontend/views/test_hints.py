"""Polish moves in hints and reviews: a card named after a verb or noun that governs
a case ("zagraj", "zagrywasz", "zagranie") takes it through "kartę"/"karty", so a
Llama, a pink Llama or a mosquito is never left in the nominative ("zagranie Lama")."""

from __future__ import annotations

import pytest

from bot.frontend.views.hints import move_text
from bot.i18n import text
from game import Card, Play, Ruleset

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
