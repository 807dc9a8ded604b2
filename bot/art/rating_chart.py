"""The rating chart: a person's shown rating game by game, drawn as a PNG like the chip chart.

One line per scope (all time, and the current season beside it), on the chip chart's
white ground, grid, axes, fonts and seat colours; a newcomer's rating (1000) is a
dashed grey line, and each line ends in its last rating. The x axis counts the
person's rated games, the first line's point 0 being the start (a newcomer).

Drawing takes a few tens of milliseconds of CPU: call it off the event loop.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from io import BytesIO

from PIL import Image, ImageDraw, ImageFont

from .chart import AXIS, BACKGROUND, GRID, SEAT_COLORS, TEXT
from .fonts import BOLD_FONT, REGULAR_FONT

__all__ = ["NEWCOMER_COLOR", "RatingSeries", "render_rating_chart"]

Color = tuple[int, int, int]

NEWCOMER = 1000  # the shown rating of someone not rated yet
NEWCOMER_COLOR: Color = (150, 150, 150)
MAX_DOTS = 80  # games beyond which the line has no dot per game
_SS = 2  # drawn this many times larger, then scaled down: smooth lines
_STEPS = (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)


@dataclass(frozen=True, slots=True)
class RatingSeries:
    """One line: its legend's label and its (game number, shown rating) points, in order."""

    label: str
    points: tuple[tuple[int, int], ...]


@cache
def _font(bold: bool, size: int) -> ImageFont.FreeTypeFont:
    path = BOLD_FONT if bold else REGULAR_FONT
    return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)


def _step(span: float, most: int) -> int:
    for step in _STEPS:
        if span / step <= most:
            return step
    return math.ceil(span / most)


def _range(series: Sequence[RatingSeries]) -> tuple[int, int, int]:
    """(low, high, step) of the y axis: nice numbers around every rating and 1000."""
    values = [NEWCOMER, *(rating for line in series for _, rating in line.points)]
    low, high = min(values), max(values)
    step = _step(max(high - low, 10), 6)
    low = ((low - 1) // step) * step  # room below, so 1000 is never on the axis
    high = (high // step + 1) * step
    return low, high, step


def render_rating_chart(
    series: Sequence[RatingSeries],
    *,
    width: int = 800,
    height: int = 360,
    title: str = "Rating over time",
    x_label: str = "Rated games",
) -> bytes:
    """The lines as a PNG. The words are the caller's, so they can be translated."""
    if not series or not series[0].points:
        raise ValueError("a rating chart needs at least one point")
    scale = min(width / 800, height / 360)

    def size(base: float) -> int:
        return max(1, round(base * scale * _SS))

    image = Image.new("RGB", (width * _SS, height * _SS), BACKGROUND)
    draw = ImageDraw.Draw(image)
    low, high, step = _range(series)
    games = max(1, max(x for line in series for x, _ in line.points))
    tick = _font(False, size(13))
    left = size(16) + math.ceil(tick.getlength(str(high))) + size(8)
    top, right = size(48), width * _SS - size(70)  # room for the last ratings at the right
    bottom = height * _SS - size(70)  # game numbers, the axis label and the legend

    def x_of(game: float) -> float:
        return left + game * (right - left) / games

    def y_of(rating: float) -> float:
        return bottom - (rating - low) * (bottom - top) / (high - low)

    for rating in range(low, high + 1, step):
        y = y_of(rating)
        draw.line([(left, y), (right, y)], fill=GRID, width=size(1))
        draw.text((left - size(6), y), str(rating), fill=TEXT, font=tick, anchor="rm")
    label_width = tick.getlength(f"{games}  ")
    x_step = max(1, _step(games, max(1, int((right - left) // max(1.0, label_width)))))
    if games <= 10:
        x_step = 1
    for game in range(0, games + 1, x_step):
        x = x_of(game)
        draw.line([(x, top), (x, bottom)], fill=GRID, width=size(1))
        draw.text((x, bottom + size(6)), str(game), fill=TEXT, font=tick, anchor="mt")
    draw.text(((left + right) / 2, bottom + size(24)), x_label, fill=TEXT, font=tick, anchor="mt")
    draw.text((left, size(22)), title, fill=TEXT, font=_font(True, size(18)), anchor="lm")
    draw.line([(left, top), (left, bottom)], fill=AXIS, width=size(1))
    draw.line([(left, bottom), (right, bottom)], fill=AXIS, width=size(1))

    # A newcomer's rating: dashed grey.
    y = y_of(NEWCOMER)
    x = float(left)
    while x < right:
        draw.line([(x, y), (min(x + size(10), right), y)], fill=NEWCOMER_COLOR, width=size(2))
        x += size(15)

    ends: list[tuple[float, float, int]] = []  # (y, x, line) of each line's last point
    legend_x = left
    legend_y = height * _SS - size(14)
    for index, line in enumerate(series):
        color = SEAT_COLORS[index % len(SEAT_COLORS)]
        marks = [(x_of(game), y_of(rating)) for game, rating in line.points]
        thick = size(4 if index == 0 else 3)
        if len(marks) > 1:
            draw.line(marks, fill=color, width=thick, joint="curve")
        radius = size(4)
        # A dot per game while they stay apart; a long history is its line alone.
        dotted = marks[1:] if len(marks) <= MAX_DOTS else marks[-1:]
        for mx, my in dotted or marks:
            draw.ellipse([mx - radius, my - radius, mx + radius, my + radius], fill=color)
        ends.append((marks[-1][1], marks[-1][0], index))
        # The legend: a piece of the line, then its label.
        draw.line([(legend_x, legend_y), (legend_x + size(24), legend_y)], fill=color, width=thick)
        words = _font(False, size(14))
        draw.text((legend_x + size(32), legend_y), line.label, fill=TEXT, font=words, anchor="lm")
        legend_x += size(32) + math.ceil(words.getlength(line.label)) + size(28)

    # Each line's last rating beside its end, pushed apart where lines end close together.
    previous = -float(size(16))
    for y, x, index in sorted(ends):
        y = max(y, previous + size(16))
        previous = y
        value = str(series[index].points[-1][1])
        color = SEAT_COLORS[index % len(SEAT_COLORS)]
        draw.text((x + size(8), y), value, fill=color, font=_font(True, size(13)), anchor="lm")

    out = BytesIO()
    image.resize((width, height), Image.Resampling.LANCZOS).save(out, "PNG", compress_level=6)
    return out.getvalue()
