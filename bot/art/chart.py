"""The chip chart: every seat's points round by round, drawn as a PNG with Pillow.

Names are written with the DejaVu Sans shipped in :mod:`bot.art.fonts`, so
accented Latin, Greek and Cyrillic come out as written. A name the font can't
draw (CJK, emoji …) is never mangled: its legend entry says "Player 3" instead
(in the caller's words) and :func:`seats_named_elsewhere` tells the caller which
names to give in its message, beside the seat's colour.

Every line ends in its player's name, cut short (a seat number there read as a place:
the last-placed player's line ended in "1"); the winners' lines are drawn thicker and
on top, end in a gold star, and their legend entries start with a star; the
threshold is a dashed red line with its label.

Drawing takes a few tens of milliseconds of CPU: call it off the event loop.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from io import BytesIO

from PIL import Image, ImageDraw, ImageFont

from data.records import ChipHistory

from .fonts import BOLD_FONT, REGULAR_FONT, can_draw

__all__ = [
    "AXIS",
    "BACKGROUND",
    "GRID",
    "PNG_SIGNATURE",
    "SEAT_COLORS",
    "TEXT",
    "THRESHOLD_COLOR",
    "WINNER_COLOR",
    "ChartLayout",
    "LegendEntry",
    "chart_layout",
    "render_chip_chart",
    "seats_named_elsewhere",
]

Color = tuple[int, int, int]

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
BACKGROUND: Color = (255, 255, 255)
GRID: Color = (230, 230, 230)
AXIS: Color = (90, 90, 90)
TEXT: Color = (34, 34, 34)
THRESHOLD_COLOR: Color = (214, 39, 40)
WINNER_COLOR: Color = (245, 176, 0)
#: One colour per seat, each matching a coloured square emoji (🟦 🟧 🟩 🟪 🟫 ⬛) so a
#: message can name a seat by its colour; none is close to the threshold's red.
SEAT_COLORS: tuple[Color, ...] = (
    (31, 119, 180),
    (255, 127, 14),
    (44, 160, 44),
    (148, 103, 189),
    (140, 86, 75),
    (0, 0, 0),
)
#: One marker shape per seat too, so lines tell apart without colour.
_MARKERS = ("circle", "square", "diamond", "up", "down", "hexagon")

_SS = 2  # drawn this many times larger, then scaled down: smooth lines
_NICE_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)
_BASE = (800, 400)  # at this size every measure below is in pixels


@cache
def _font(bold: bool, size: int) -> ImageFont.FreeTypeFont:
    # The basic layout everywhere: the same pixels whether or not libraqm is installed.
    path = BOLD_FONT if bold else REGULAR_FONT
    return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)


def seats_named_elsewhere(history: ChipHistory) -> tuple[int, ...]:
    """The seats whose names the chart's font can't draw: their legend says "Player N"."""
    return tuple(
        seat
        for seat, name in enumerate(history.names)
        if not (can_draw(name) and can_draw(name, BOLD_FONT))
    )


# ------------------------------------------------------------------ layout
@dataclass(frozen=True, slots=True)
class LegendEntry:
    seat: int
    label: str  # the name, or the seat label when the font can't draw the name
    winner: bool
    x: int  # where the entry's marker sits (its centre)
    y: int
    text_x: int  # where its text starts


@dataclass(frozen=True, slots=True)
class ChartLayout:
    """Where things go, in the PNG's pixels: the plot box, the axes' ranges, the legend."""

    width: int
    height: int
    scale: float  # font and line sizes relative to an 800x400 chart
    left: int
    top: int
    right: int
    bottom: int
    rounds: int  # the x axis runs from round 0 (the start) to this
    x_step: int  # a label every x_step rounds
    y_max: int  # the y axis runs from 0 to this many points
    y_step: int  # a grid line every y_step points
    legend: tuple[LegendEntry, ...]
    ends: tuple[str, ...]  # each seat's words at its line's end: its name, cut short

    def x(self, round_no: float) -> int:
        return self.left + round(round_no * (self.right - self.left) / self.rounds)

    def y(self, points: float) -> int:
        return self.bottom - round(points * (self.bottom - self.top) / self.y_max)

    def size(self, base: float) -> int:
        return _scaled(base, self.scale)


def _scaled(base: float, scale: float) -> int:
    """A length given for an 800x400 chart, at a chart's scale."""
    return max(1, round(base * scale))


def _nice_step(span: int, most: int) -> int:
    """The smallest nice step that cuts ``span`` into at most ``most`` parts."""
    for step in _NICE_STEPS:
        if span / step <= most:
            return step
    return math.ceil(span / most)


def _labels(history: ChipHistory, seat_label: str) -> list[str]:
    elsewhere = set(seats_named_elsewhere(history))
    return [
        seat_label.format(seat=seat + 1) if seat in elsewhere else name
        for seat, name in enumerate(history.names)
    ]


#: The most characters a line's end says of its player's name.
END_LENGTH = 8


def line_end(label: str) -> str:
    """What a line's end says of its player: the name (or the seat's label, for a name
    the font can't draw), its first word if the whole is too long, cut short if that
    is too: never a bare number, which reads as a place."""
    if len(label) <= END_LENGTH:
        return label
    first = label.split()[0] if label.split() else label
    return first if len(first) <= END_LENGTH else first[: END_LENGTH - 1] + "…"


def _text_width(text: str, bold: bool, size: int) -> int:
    return math.ceil(_font(bold, size).getlength(text))


def chart_layout(
    history: ChipHistory,
    *,
    width: int = 800,
    height: int = 400,
    seat_label: str = "Player {seat}",
) -> ChartLayout:
    if width < 240 or height < 160:
        raise ValueError(f"a chip chart needs at least 240x160 pixels, not {width}x{height}")
    scale = min(width / _BASE[0], height / _BASE[1])

    def size(base: float) -> int:
        return _scaled(base, scale)

    highest = max([history.threshold, 1, *(p for row in history.totals for p in row)])
    y_step = _nice_step(highest, 8)
    y_max = (highest // y_step + 1) * y_step  # always room above the highest line
    rounds = max(1, len(history.totals))

    # The legend, under the plot: as many columns as fit the longest entry.
    labels = _labels(history, seat_label)
    winners = set(history.winners)
    legend_font = size(15)
    row_height = size(24)
    marker_room = size(40)  # the line sample with its marker, and a gap
    entry_widths = [
        marker_room + _text_width(("★ " if seat in winners else "") + label, True, legend_font)
        for seat, label in enumerate(labels)
    ]
    margin = size(16)
    usable = width - 2 * margin
    columns = 1
    for count in (3, 2):
        if len(labels) >= count and max(entry_widths) + size(16) <= usable // count:
            columns = count
            break
    rows = -(-len(labels) // columns) if labels else 0
    legend_top = height - margin // 2 - rows * row_height

    tick_font = size(13)
    left = margin + _text_width(str(y_max), False, tick_font) + size(8)
    top = size(44)
    # Room for the names at the lines' ends (at most a fifth of the chart).
    ends = tuple(line_end(label) for label in labels)
    end_room = max((_text_width(end, True, tick_font) for end in ends), default=0)
    right = width - margin - min(size(12) + end_room, width // 5)
    bottom = legend_top - size(48)  # round numbers and the axis label
    if right - left < 60 or bottom - top < 40:
        raise ValueError(f"{width}x{height} pixels are too small for this chip chart")
    label = _text_width(f"{rounds}  ", False, tick_font)
    x_step = _nice_step(rounds, max(1, (right - left) // max(1, label)))

    column_width = usable // columns
    legend = tuple(
        LegendEntry(
            seat=seat,
            label=labels[seat],
            winner=seat in winners,
            x=margin + (seat % columns) * column_width + size(16),
            y=legend_top + (seat // columns) * row_height + row_height // 2,
            text_x=margin + (seat % columns) * column_width + marker_room,
        )
        for seat in range(len(labels))
    )
    return ChartLayout(
        width=width,
        height=height,
        scale=scale,
        left=left,
        top=top,
        right=right,
        bottom=bottom,
        rounds=rounds,
        x_step=x_step,
        y_max=y_max,
        y_step=y_step,
        legend=legend,
        ends=ends,
    )


# ------------------------------------------------------------------ drawing
class _Pen:
    """Draws in the PNG's coordinates on a canvas ``_SS`` times larger."""

    def __init__(self, layout: ChartLayout) -> None:
        self.layout = layout
        size = (layout.width * _SS, layout.height * _SS)
        self.image = Image.new("RGB", size, BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)

    def rect(self, x0: float, y0: float, x1: float, y1: float, color: Color) -> None:
        self.draw.rectangle([x0 * _SS, y0 * _SS, x1 * _SS - 1, y1 * _SS - 1], fill=color)

    def line(self, points: Sequence[tuple[float, float]], color: Color, width: float) -> None:
        scaled = [(x * _SS, y * _SS) for x, y in points]
        self.draw.line(scaled, fill=color, width=max(1, round(width * _SS)), joint="curve")
        radius = width * _SS / 2  # round caps, so thick segments meet without notches
        for x, y in scaled:
            self.draw.ellipse([x - radius, y - radius, x + radius, y + radius], fill=color)

    def text(
        self,
        x: float,
        y: float,
        words: str,
        color: Color,
        size: int,
        *,
        bold: bool = False,
        anchor: str = "lm",
        backdrop: bool = False,
    ) -> None:
        """``words`` at (x, y) by ``anchor``; ``backdrop`` clears the lines behind them."""
        font = _font(bold, size * _SS)
        where = (x * _SS, y * _SS)
        if backdrop:
            left, top, right, bottom = self.draw.textbbox(where, words, font=font, anchor=anchor)
            pad = size * _SS // 4
            self.draw.rectangle([left - pad, top - pad, right + pad, bottom + pad], BACKGROUND)
        self.draw.text(where, words, fill=color, font=font, anchor=anchor)

    def marker(self, shape: str, x: float, y: float, radius: float, color: Color) -> None:
        """A seat's marker with a white rim, so crossing lines don't hide it."""
        cx, cy, r = x * _SS, y * _SS, radius * _SS
        rim = max(1.0, r * 0.35)
        for extra, fill in ((rim, BACKGROUND), (0.0, color)):
            self._shape(shape, cx, cy, r + extra, fill)

    def _shape(self, shape: str, cx: float, cy: float, r: float, fill: Color) -> None:
        if shape == "circle":
            self.draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fill)
        elif shape == "square":
            s = r * 0.88
            self.draw.rectangle([cx - s, cy - s, cx + s, cy + s], fill=fill)
        elif shape == "diamond":
            self.draw.regular_polygon((cx, cy, r * 1.15), 4, fill=fill)
        elif shape == "up":
            self.draw.regular_polygon((cx, cy, r * 1.25), 3, fill=fill)
        elif shape == "down":
            self.draw.regular_polygon((cx, cy, r * 1.25), 3, rotation=180, fill=fill)
        else:
            self.draw.regular_polygon((cx, cy, r * 1.05), 6, fill=fill)

    def star(self, x: float, y: float, radius: float) -> None:
        """The winner's gold star, with a dark rim."""
        cx, cy, r = x * _SS, y * _SS, radius * _SS
        for outer, fill in ((r + 1.5 * _SS, TEXT), (r, WINNER_COLOR)):
            points = []
            for i in range(10):
                reach = outer if i % 2 == 0 else outer * 0.45
                angle = math.pi / 5 * i - math.pi / 2
                points.append((cx + reach * math.cos(angle), cy + reach * math.sin(angle)))
            self.draw.polygon(points, fill=fill)

    def png(self) -> bytes:
        size = (self.layout.width, self.layout.height)
        out = BytesIO()
        self.image.resize(size, Image.Resampling.LANCZOS).save(out, "PNG", compress_level=6)
        return out.getvalue()


def render_chip_chart(
    history: ChipHistory,
    *,
    width: int = 800,
    height: int = 400,
    title: str = "Points by round",
    x_label: str = "Round",
    threshold_label: str = "End of game: {threshold}",
    seat_label: str = "Player {seat}",
) -> bytes:
    """The chip history as a PNG: one coloured line per seat, the threshold in red.

    Round 0 is the start (everyone at 0 points). The words on the chart are
    the caller's, so they can be translated; ``threshold_label`` gets
    ``{threshold}`` and ``seat_label`` the seat's number as ``{seat}``.
    """
    layout = chart_layout(history, width=width, height=height, seat_label=seat_label)
    pen = _Pen(layout)
    size = layout.size
    tick = size(13)

    # grid, y labels and x labels
    for points in range(0, layout.y_max + 1, layout.y_step):
        y = layout.y(points)
        pen.rect(layout.left, y, layout.right + 1, y + 1, GRID)
        pen.text(layout.left - size(6), y, str(points), TEXT, tick, anchor="rm")
    for round_no in range(0, layout.rounds + 1, layout.x_step):
        x = layout.x(round_no)
        pen.rect(x, layout.top, x + 1, layout.bottom + 1, GRID)
        pen.text(x, layout.bottom + size(6), str(round_no), TEXT, tick, anchor="mt")
    middle = (layout.left + layout.right) / 2
    pen.text(middle, layout.bottom + size(26), x_label, TEXT, tick, anchor="mt")
    pen.text(layout.left, size(20), title, TEXT, size(18), bold=True)

    # axes
    pen.rect(layout.left, layout.top, layout.left + 1, layout.bottom + 1, AXIS)
    pen.rect(layout.left, layout.bottom, layout.right + 1, layout.bottom + 1, AXIS)

    # the threshold: a dashed red line
    ty = layout.y(history.threshold)
    dash, gap = size(10), size(5)
    x = layout.left + 1
    while x < layout.right:
        pen.rect(x, ty - 1, min(x + dash, layout.right + 1), ty + 1, THRESHOLD_COLOR)
        x += dash + gap

    # one line per seat, the winners' last so they lie on top
    winners = set(history.winners)
    order = sorted(range(len(history.names)), key=lambda seat: seat in winners)
    ends: list[tuple[int, int]] = []  # (y of the last point, seat)
    for seat in order:
        color = SEAT_COLORS[seat % len(SEAT_COLORS)]
        series = [0, *(row[seat] for row in history.totals)]
        marks = [(layout.x(r), layout.y(p)) for r, p in enumerate(series)]
        pen.line(marks, color, size(5 if seat in winners else 3))
        for x, y in marks[1:]:
            pen.marker(_MARKERS[seat % len(_MARKERS)], x, y, size(4.5), color)
        if seat in winners and len(marks) > 1:
            pen.star(*marks[-1], size(10))
        ends.append((marks[-1][1], seat))

    # the threshold's label, at the left where the lines are still low, above them all
    words = threshold_label.format(threshold=history.threshold)
    pen.text(
        layout.left + size(8),
        ty - size(6),
        words,
        THRESHOLD_COLOR,
        tick,
        bold=True,
        anchor="ld",
        backdrop=True,
    )

    # each line's name at its end, pushed apart where lines end close together
    gap_y = size(14)
    previous = -gap_y
    for y, seat in sorted(ends):
        y = max(y, previous + gap_y)
        previous = y
        color = SEAT_COLORS[seat % len(SEAT_COLORS)]
        pen.text(layout.right + size(12), y, layout.ends[seat], color, size(13), bold=True)

    # the legend: a piece of each line with its marker, then the name
    for entry in layout.legend:
        color = SEAT_COLORS[entry.seat % len(SEAT_COLORS)]
        half = size(12)
        pen.line([(entry.x - half, entry.y), (entry.x + half, entry.y)], color, size(3))
        pen.marker(_MARKERS[entry.seat % len(_MARKERS)], entry.x, entry.y, size(5), color)
        x = entry.text_x
        if entry.winner:
            pen.star(x + size(7), entry.y, size(7))
            x += size(22)
        pen.text(x, entry.y, entry.label, TEXT, size(15), bold=entry.winner)
    return pen.png()
