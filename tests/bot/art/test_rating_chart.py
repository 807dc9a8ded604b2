"""The rating chart PNG: each scope's line in its colour, a newcomer's 1000 dashed grey."""

from __future__ import annotations

from io import BytesIO

import pytest
from PIL import Image

from bot.art.chart import PNG_SIGNATURE, SEAT_COLORS
from bot.art.rating_chart import NEWCOMER_COLOR, RatingSeries, render_rating_chart

Color = tuple[int, int, int]

ALL_TIME = RatingSeries("All time", ((0, 1000), (1, 1040), (2, 1010), (3, 1120), (4, 1180)))
SEASON = RatingSeries("This season", ((2, 1000), (3, 1060), (4, 1100)))


def colours(png: bytes) -> set[Color]:
    assert png.startswith(PNG_SIGNATURE)
    image = Image.open(BytesIO(png)).convert("RGB")
    return {(r, g, b) for _count, (r, g, b) in image.getcolors(maxcolors=1 << 20) or []}


def near(found: set[Color], wanted: Color, slack: int = 30) -> bool:
    return any(sum(abs(p - q) for p, q in zip(c, wanted, strict=True)) <= slack for c in found)


def test_each_line_in_its_colour_and_the_newcomers_rating_in_grey() -> None:
    png = render_rating_chart([ALL_TIME, SEASON], title="Rating", x_label="Games")
    image = Image.open(BytesIO(png))
    assert image.format == "PNG" and image.size == (800, 360)
    found = colours(png)
    assert near(found, SEAT_COLORS[0]) and near(found, SEAT_COLORS[1])
    assert near(found, NEWCOMER_COLOR)
    alone = colours(render_rating_chart([ALL_TIME]))
    assert not near(alone, SEAT_COLORS[1]), "one scope, one line"


def test_a_single_game_and_a_flat_line_draw_too() -> None:
    for series in (
        RatingSeries("All time", ((0, 1000), (1, 1020))),
        RatingSeries("All time", ((0, 1000), (1, 1000), (2, 1000))),
        RatingSeries("All time", ((0, 1000), (1, 640))),  # below a newcomer
    ):
        assert render_rating_chart([series]).startswith(PNG_SIGNATURE)


def test_nothing_to_draw_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one point"):
        render_rating_chart([])
