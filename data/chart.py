"""The chip chart: every seat's points round by round, drawn as a PNG.

Pure Python, standard library only: an RGB canvas in a ``bytearray``, lines
drawn with Bresenham's algorithm, a 5x7 bitmap font for the labels, and a
minimal PNG encoder (``zlib`` + ``struct``).
"""

from __future__ import annotations

import math
import struct
import unicodedata
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

from .records import ChipHistory

__all__ = [
    "PNG_SIGNATURE",
    "SEAT_COLORS",
    "THRESHOLD_COLOR",
    "ChartLayout",
    "chart_layout",
    "encode_png",
    "render_chip_chart",
]

Color = tuple[int, int, int]

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
BACKGROUND: Color = (255, 255, 255)
GRID: Color = (228, 228, 228)
AXIS: Color = (70, 70, 70)
TEXT: Color = (40, 40, 40)
THRESHOLD_COLOR: Color = (214, 39, 40)
#: One color per seat, none of them close to the threshold red.
SEAT_COLORS: tuple[Color, ...] = (
    (31, 119, 180),
    (255, 127, 14),
    (44, 160, 44),
    (148, 103, 189),
    (140, 86, 75),
    (227, 119, 194),
)

_NICE_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)
_NAME_CHARS = 10  # legend names are cut to this many characters
_LINE = 3  # thickness of a seat's line, in pixels
_MARK = 7  # side of the square marking each round

# ------------------------------------------------------------------ font
# 5x7 glyphs, one string of seven 5-pixel rows each.  Text is upper-cased and
# accents are dropped (é -> E); anything else without a glyph prints as "?".
_FONT_ROWS = {
    "0": "01110 10001 10011 10101 11001 10001 01110",
    "1": "00100 01100 00100 00100 00100 00100 01110",
    "2": "01110 10001 00001 00010 00100 01000 11111",
    "3": "11111 00010 00100 00010 00001 10001 01110",
    "4": "00010 00110 01010 10010 11111 00010 00010",
    "5": "11111 10000 11110 00001 00001 10001 01110",
    "6": "00110 01000 10000 11110 10001 10001 01110",
    "7": "11111 00001 00010 00100 01000 01000 01000",
    "8": "01110 10001 10001 01110 10001 10001 01110",
    "9": "01110 10001 10001 01111 00001 00010 01100",
    "A": "01110 10001 10001 11111 10001 10001 10001",
    "B": "11110 10001 10001 11110 10001 10001 11110",
    "C": "01110 10001 10000 10000 10000 10001 01110",
    "D": "11100 10010 10001 10001 10001 10010 11100",
    "E": "11111 10000 10000 11110 10000 10000 11111",
    "F": "11111 10000 10000 11110 10000 10000 10000",
    "G": "01110 10001 10000 10111 10001 10001 01111",
    "H": "10001 10001 10001 11111 10001 10001 10001",
    "I": "01110 00100 00100 00100 00100 00100 01110",
    "J": "00111 00010 00010 00010 00010 10010 01100",
    "K": "10001 10010 10100 11000 10100 10010 10001",
    "L": "10000 10000 10000 10000 10000 10000 11111",
    "M": "10001 11011 10101 10101 10001 10001 10001",
    "N": "10001 10001 11001 10101 10011 10001 10001",
    "O": "01110 10001 10001 10001 10001 10001 01110",
    "P": "11110 10001 10001 11110 10000 10000 10000",
    "Q": "01110 10001 10001 10001 10101 10010 01101",
    "R": "11110 10001 10001 11110 10100 10010 10001",
    "S": "01111 10000 10000 01110 00001 00001 11110",
    "T": "11111 00100 00100 00100 00100 00100 00100",
    "U": "10001 10001 10001 10001 10001 10001 01110",
    "V": "10001 10001 10001 10001 10001 01010 00100",
    "W": "10001 10001 10001 10101 10101 10101 01010",
    "X": "10001 10001 01010 00100 01010 10001 10001",
    "Y": "10001 10001 10001 01010 00100 00100 00100",
    "Z": "11111 00001 00010 00100 01000 10000 11111",
    " ": "00000 00000 00000 00000 00000 00000 00000",
    "-": "00000 00000 00000 11111 00000 00000 00000",
    "+": "00000 00100 00100 11111 00100 00100 00000",
    ".": "00000 00000 00000 00000 00000 01100 01100",
    ",": "00000 00000 00000 00000 01100 00100 01000",
    ":": "00000 01100 01100 00000 01100 01100 00000",
    ";": "00000 01100 01100 00000 01100 00100 01000",
    "=": "00000 00000 11111 00000 11111 00000 00000",
    "*": "00000 00100 10101 01110 10101 00100 00000",
    "_": "00000 00000 00000 00000 00000 00000 11111",
    "'": "00100 00100 01000 00000 00000 00000 00000",
    "!": "00100 00100 00100 00100 00100 00000 00100",
    "?": "01110 10001 00001 00010 00100 00000 00100",
    "#": "01010 01010 11111 01010 11111 01010 01010",
    "(": "00010 00100 01000 01000 01000 00100 00010",
    ")": "01000 00100 00010 00010 00010 00100 01000",
    "/": "00000 00001 00010 00100 01000 10000 00000",
    "&": "01100 10010 10100 01000 10101 10010 01101",
}
#: For each character, the (dx, dy) of its lit pixels.
_FONT: dict[str, tuple[tuple[int, int], ...]] = {
    char: tuple(
        (x, y) for y, row in enumerate(rows.split()) for x, bit in enumerate(row) if bit == "1"
    )
    for char, rows in _FONT_ROWS.items()
}
GLYPH_WIDTH = 5
GLYPH_HEIGHT = 7


def _printable(text: str) -> str:
    """``text`` in the characters the font has."""
    plain = unicodedata.normalize("NFKD", text).upper()
    out = [c for c in plain if not unicodedata.combining(c)]
    return "".join(c if c in _FONT else "?" for c in out)


def text_width(text: str, scale: int) -> int:
    count = len(_printable(text))
    return max(0, count * (GLYPH_WIDTH + 1) * scale - scale)


# ------------------------------------------------------------------ canvas
class Canvas:
    """An RGB image, 3 bytes a pixel, row by row from the top."""

    def __init__(self, width: int, height: int, background: Color = BACKGROUND) -> None:
        self.width = width
        self.height = height
        self.pixels = bytearray(bytes(background) * (width * height))

    def pixel(self, x: int, y: int) -> Color:
        i = (y * self.width + x) * 3
        return (self.pixels[i], self.pixels[i + 1], self.pixels[i + 2])

    def fill(self, x0: int, y0: int, x1: int, y1: int, color: Color) -> None:
        """Fill the rectangle x0 <= x < x1, y0 <= y < y1 (clipped to the canvas)."""
        x0, x1 = max(0, x0), min(self.width, x1)
        y0, y1 = max(0, y0), min(self.height, y1)
        if x0 >= x1 or y0 >= y1:
            return
        run = bytes(color) * (x1 - x0)
        for y in range(y0, y1):
            start = (y * self.width + x0) * 3
            self.pixels[start : start + len(run)] = run

    def line(self, x0: int, y0: int, x1: int, y1: int, color: Color, thickness: int = 1) -> None:
        """A straight line (Bresenham), drawn as squares of side ``thickness``."""
        half = thickness // 2
        dx, dy = abs(x1 - x0), -abs(y1 - y0)
        sx = 1 if x0 < x1 else -1
        sy = 1 if y0 < y1 else -1
        err = dx + dy
        while True:
            self.fill(x0 - half, y0 - half, x0 - half + thickness, y0 - half + thickness, color)
            if x0 == x1 and y0 == y1:
                return
            e2 = 2 * err
            if e2 >= dy:
                err += dy
                x0 += sx
            if e2 <= dx:
                err += dx
                y0 += sy

    def text(self, x: int, y: int, text: str, color: Color, scale: int = 1) -> None:
        """Draw ``text`` with its top-left corner at (x, y)."""
        for char in _printable(text):
            for dx, dy in _FONT[char]:
                px, py = x + dx * scale, y + dy * scale
                self.fill(px, py, px + scale, py + scale, color)
            x += (GLYPH_WIDTH + 1) * scale

    def png(self) -> bytes:
        return encode_png(self.width, self.height, bytes(self.pixels))


def encode_png(width: int, height: int, rgb: bytes) -> bytes:
    """An 8-bit truecolor PNG of ``rgb`` (3 bytes a pixel, rows from the top)."""
    stride = width * 3
    if len(rgb) != stride * height:
        raise ValueError(f"{len(rgb)} bytes are not a {width}x{height} RGB image")
    # Each scanline starts with its filter type; 0 (None) keeps the encoder trivial,
    # and zlib still squeezes the large flat areas of a chart very well.
    raw = b"".join(b"\x00" + rgb[y * stride : (y + 1) * stride] for y in range(height))

    def chunk(tag: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(tag + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8 bit RGB
    return (
        PNG_SIGNATURE
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


# ------------------------------------------------------------------ layout
@dataclass(frozen=True, slots=True)
class ChartLayout:
    """Where things go: the plot box (``left`` <= x <= ``right``, ``top`` <= y <= ``bottom``)."""

    width: int
    height: int
    scale: int  # text size: each font pixel is scale x scale
    left: int
    top: int
    right: int
    bottom: int
    rounds: int  # the x axis runs from round 0 (the start) to this
    x_step: int  # a label every x_step rounds
    y_max: int  # the y axis runs from 0 to this many points
    y_step: int  # a grid line every y_step points
    legend_x: int

    def x(self, round_no: float) -> int:
        return self.left + round(round_no * (self.right - self.left) / self.rounds)

    def y(self, points: float) -> int:
        return self.bottom - round(points * (self.bottom - self.top) / self.y_max)


def _nice_step(span: int, most: int) -> int:
    """The smallest nice step that cuts ``span`` into at most ``most`` parts."""
    for step in _NICE_STEPS:
        if span / step <= most:
            return step
    return math.ceil(span / most)


def chart_layout(history: ChipHistory, *, width: int = 800, height: int = 400) -> ChartLayout:
    if width < 240 or height < 160:
        raise ValueError(f"a chip chart needs at least 240x160 pixels, not {width}x{height}")
    scale = 2 if height >= 300 and width >= 600 else 1
    char = (GLYPH_WIDTH + 1) * scale
    line = (GLYPH_HEIGHT + 4) * scale

    highest = max([history.threshold, 1, *(p for row in history.totals for p in row)])
    y_step = _nice_step(highest, 8)
    y_max = (highest // y_step + 1) * y_step  # always room above the highest line
    rounds = max(1, len(history.totals))

    longest = max((len(_printable(n[:_NAME_CHARS])) for n in history.names), default=0)
    legend_width = 4 * scale + _MARK + 3 * scale + longest * char + 6 * scale
    legend_x = width - legend_width
    left = 6 * scale + len(str(y_max)) * char + 4 * scale
    top = line + 6 * scale
    right = legend_x - 8 * scale
    bottom = height - 2 * line - 4 * scale
    if right - left < 60 or bottom - top < 40:
        raise ValueError(f"{width}x{height} pixels are too small for this chip chart")
    label = (len(str(rounds)) + 1) * char
    x_step = _nice_step(rounds, max(1, (right - left) // label))
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
        legend_x=legend_x,
    )


# ------------------------------------------------------------------ chart
def render_chip_chart(
    history: ChipHistory,
    *,
    width: int = 800,
    height: int = 400,
    title: str = "Points by round",
    x_label: str = "Round",
) -> bytes:
    """The chip history as a PNG: one colored line per seat, the threshold in red.

    Round 0 is the start (everyone at 0 points).  ``title`` and ``x_label``
    let the caller translate the two words on the chart.
    """
    layout = chart_layout(history, width=width, height=height)
    canvas = Canvas(width, height)
    s = layout.scale
    char_h = GLYPH_HEIGHT * s

    # grid, y labels and x labels
    for points in range(0, layout.y_max + 1, layout.y_step):
        y = layout.y(points)
        canvas.fill(layout.left, y, layout.right + 1, y + 1, GRID)
        label = str(points)
        canvas.text(layout.left - 4 * s - text_width(label, s), y - char_h // 2, label, TEXT, s)
    for round_no in range(0, layout.rounds + 1, layout.x_step):
        x = layout.x(round_no)
        canvas.fill(x, layout.top, x + 1, layout.bottom + 1, GRID)
        label = str(round_no)
        canvas.text(x - text_width(label, s) // 2, layout.bottom + 4 * s, label, TEXT, s)
    axis_label_y = layout.bottom + 4 * s + char_h + 4 * s
    middle = (layout.left + layout.right) // 2
    canvas.text(middle - text_width(x_label, s) // 2, axis_label_y, x_label, TEXT, s)
    canvas.text(layout.left, 3 * s, title, TEXT, s)

    # axes
    canvas.fill(layout.left, layout.top, layout.left + 1, layout.bottom + 1, AXIS)
    canvas.fill(layout.left, layout.bottom, layout.right + 1, layout.bottom + 1, AXIS)

    # the threshold: two pixel rows, from y(threshold) down, labelled above at the left
    ty = layout.y(history.threshold)
    canvas.fill(layout.left + 1, ty, layout.right + 1, ty + 2, THRESHOLD_COLOR)
    label = str(history.threshold)
    canvas.text(layout.left + 4 * s, ty - char_h - 2 * s, label, THRESHOLD_COLOR, s)

    # one line per seat
    for seat in range(len(history.names)):
        color = SEAT_COLORS[seat % len(SEAT_COLORS)]
        series = _series(history.totals, seat)
        marks = [(layout.x(r), layout.y(p)) for r, p in enumerate(series)]
        for (x0, y0), (x1, y1) in zip(marks, marks[1:], strict=False):
            canvas.line(x0, y0, x1, y1, color, _LINE)
        half = _MARK // 2
        for x, y in marks[1:]:
            canvas.fill(x - half, y - half, x - half + _MARK, y - half + _MARK, color)

    # legend: a colored square and the name of each seat
    y = layout.top
    for seat, name in enumerate(history.names):
        color = SEAT_COLORS[seat % len(SEAT_COLORS)]
        x = layout.legend_x + 4 * s
        mark_y = y + (char_h - _MARK) // 2
        canvas.fill(x, mark_y, x + _MARK, mark_y + _MARK, color)
        canvas.text(x + _MARK + 3 * s, y, name[:_NAME_CHARS], TEXT, s)
        y += char_h + 5 * s
    return canvas.png()


def _series(totals: Sequence[Sequence[int]], seat: int) -> list[int]:
    return [0, *(row[seat] for row in totals)]
