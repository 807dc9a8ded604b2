"""The stats' view (bot.frontend.views.stats)."""

from __future__ import annotations

from bot.art.chart import SEAT_COLORS
from bot.frontend.views.stats import SEAT_SQUARES


def test_every_seat_colour_has_its_square() -> None:
    assert len(SEAT_SQUARES) == len(SEAT_COLORS)
