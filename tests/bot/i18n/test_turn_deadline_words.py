"""A turn's deadline reads as its end ("time runs out in 2 minutes"), never as when the
turn starts ("it's your turn in 2 minutes"), in every language."""

from __future__ import annotations

import pytest

from bot.i18n import CATALOGS, text

WHEN = "<t:1767225660:R>"  # Discord shows it as "in 2 minutes"
#: What says the time is the turn's end, in each language's timed-turn ping and status.
ENDS = {
    "en": ("time runs out " + WHEN, "ends " + WHEN),
    "de": (f"deine Zeit läuft {WHEN} ab", "endet " + WHEN),
    "es": ("tu tiempo se acaba " + WHEN, "termina " + WHEN),
    "pl": ("czas mija " + WHEN, "koniec " + WHEN),
}


@pytest.mark.parametrize("language", sorted(CATALOGS))
def test_a_timed_turn_says_when_it_ends(language: str) -> None:
    ping, status = ENDS[language]
    assert ping in text(language, "ping.turn_until", mention="@ana", when=WHEN)
    assert text(language, "status.to_move_until", when=WHEN).endswith(status)
