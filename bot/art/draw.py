"""Draws every card and chip picture of :mod:`bot.art` with Pillow.

Run ``python -m bot.art.draw`` (or ``python -m bot.art.draw OUTDIR``) to
write ``emoji/*.png`` again after changing a design;
``--overview docs/cards.png`` also redraws the picture of them all on the Develop page.

Everything is drawn four times too large and scaled down, which gives smooth
edges (Pillow's shapes have none of their own). The emojis are drawn for the
size Discord shows them at, about 22 pixels in a line of text: a card is one
flat colour with a huge numeral, no corner indices, and every colour differs
from the others in hue or lightness.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFont

from bot.art.fonts import BOLD_FONT
from game import BLACK, NUMBERS, PINK, PLUS_CARDS, WHITE, Card

from . import ALL_NAMES, BACK, CHIP_NAMES, EMOJI_SIZE, FOLDER, NO_DRAMA, card_name

SS = 4  # supersampling factor
RGBA = tuple[int, int, int, int]
Point = tuple[float, float]


def rgb(code: str, alpha: int = 255) -> RGBA:
    value = int(code.lstrip("#"), 16)
    return (value >> 16, (value >> 8) & 0xFF, value & 0xFF, alpha)


INK = rgb("#1b1b2f")
PAPER = rgb("#fffdf7")
GOLD = rgb("#f2b705")


@dataclass(frozen=True, slots=True)
class Style:
    """A card's colours: the card, its rim, and the numeral or picture on it."""

    fill: RGBA
    rim: RGBA
    ink: RGBA = PAPER
    outline: RGBA = INK


#: One hue per number, around the colour wheel, so neighbours never look alike.
NUMBER_STYLES: dict[int, Style] = {
    1: Style(rgb("#e53935"), rgb("#8e1b18")),
    2: Style(rgb("#fb8c00"), rgb("#8f4c00")),
    3: Style(rgb("#fdd835"), rgb("#9a7d00"), ink=INK, outline=PAPER),
    4: Style(rgb("#43a047"), rgb("#1b5e20")),
    5: Style(rgb("#1e88e5"), rgb("#0d3c75")),
    6: Style(rgb("#8e24aa"), rgb("#4a0a5c")),
}
LLAMA_STYLE = Style(rgb("#f3e2c0"), rgb("#7a5230"), ink=rgb("#6d4524"))
PINK_STYLE = Style(rgb("#ff8fc7"), rgb("#a3125d"), ink=rgb("#c2185b"))
NO_DRAMA_STYLE = Style(rgb("#00897b"), rgb("#004d40"))
BACK_STYLE = Style(rgb("#283593"), rgb("#10164d"), ink=rgb("#5c6bc0"))


# ------------------------------------------------------------------ canvas
class Canvas:
    """A transparent RGBA picture drawn at ``SS`` times its size, in final-size units."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.image = Image.new("RGBA", (width * SS, height * SS), (0, 0, 0, 0))
        self.draw = ImageDraw.Draw(self.image)

    @staticmethod
    def _box(box: Sequence[float]) -> list[float]:
        return [v * SS for v in box]

    def rounded(
        self,
        box: Sequence[float],
        radius: float,
        fill: RGBA | None,
        outline: RGBA | None = None,
        width: float = 0,
    ) -> None:
        self.draw.rounded_rectangle(
            self._box(box), radius * SS, fill=fill, outline=outline, width=round(width * SS)
        )

    def ellipse(
        self, box: Sequence[float], fill: RGBA | None, outline: RGBA | None = None, width: float = 0
    ) -> None:
        self.draw.ellipse(self._box(box), fill=fill, outline=outline, width=round(width * SS))

    def polygon(self, points: Sequence[Point], fill: RGBA) -> None:
        self.draw.polygon([(x * SS, y * SS) for x, y in points], fill=fill)

    def line(self, points: Sequence[Point], fill: RGBA, width: float) -> None:
        self.draw.line([(x * SS, y * SS) for x, y in points], fill=fill, width=round(width * SS))

    def text(
        self,
        centre: Point,
        words: str,
        size: float,
        fill: RGBA,
        outline: RGBA | None = None,
        stroke: float = 0,
    ) -> None:
        """``words`` centred by their ink on ``centre``, capitals ``size`` pixels high."""
        font = ImageFont.truetype(str(BOLD_FONT), round(size * SS / 0.73))
        width = round(stroke * SS)
        left, top, right, bottom = self.draw.textbbox((0, 0), words, font=font, stroke_width=width)
        x = centre[0] * SS - (left + right) / 2
        y = centre[1] * SS - (top + bottom) / 2
        self.draw.text((x, y), words, font=font, fill=fill, stroke_width=width, stroke_fill=outline)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        small = self.image.resize((self.width, self.height), Image.Resampling.LANCZOS)
        small.save(path, optimize=True)


Drawing = Callable[[], Canvas]


# ------------------------------------------------------------------ pictures
# The llama, side on and facing right, in a 100x100 box.
_LLAMA_BODY = (17.0, 48.0, 73.0, 73.0)
_LLAMA_PARTS: tuple[tuple[Point, ...], ...] = (
    # neck, long and upright, from the chest up to the head
    ((53, 58), (61, 17), (76, 15), (75, 62)),
    # snout
    ((72, 10), (89, 14), (91, 20), (87, 24), (72, 25)),
    # ears, like bananas
    ((63, 9), (61, 0), (63, -3), (68, 6)),
    ((69, 8), (70, -1), (73, -4), (75, 7)),
    # legs: back pair and front pair, each a little tapered
    ((20, 62), (30, 62), (29, 97), (22, 97)),
    ((32, 64), (41, 64), (40, 96), (34, 96)),
    ((52, 64), (61, 64), (60, 96), (54, 96)),
    ((63, 62), (73, 60), (71, 97), (65, 97)),
    # a short tail, held up
    ((20, 53), (11, 46), (9, 53), (17, 61)),
)
#: The fleece at the chest and on the back, which makes it a llama and not a deer.
_LLAMA_FLEECE = ((55.0, 44.0, 79.0, 66.0), (30.0, 44.0, 56.0, 58.0))
_LLAMA_HEAD = (60.0, 4.0, 80.0, 26.0)
_LLAMA_EYE = (73.0, 10.5, 77.0, 14.5)


def llama(canvas: Canvas, box: Sequence[float], fill: RGBA, eye: RGBA) -> None:
    """A llama filling ``box`` (left, top, right, bottom)."""
    left, top, right, bottom = box
    sx, sy = (right - left) / 100, (bottom - top) / 100

    def at(points: Sequence[Point]) -> list[Point]:
        return [(left + x * sx, top + y * sy) for x, y in points]

    def oval(b: Sequence[float]) -> list[float]:
        return [left + b[0] * sx, top + b[1] * sy, left + b[2] * sx, top + b[3] * sy]

    canvas.ellipse(oval(_LLAMA_BODY), fill)
    for fleece in _LLAMA_FLEECE:
        canvas.ellipse(oval(fleece), fill)
    canvas.ellipse(oval(_LLAMA_HEAD), fill)
    for part in _LLAMA_PARTS:
        canvas.polygon(at(part), fill)
    canvas.ellipse(oval(_LLAMA_EYE), eye)


def plus_badge(canvas: Canvas, centre: Point, radius: float) -> None:
    """The golden "+" disc of a Plus card."""
    x, y = centre
    canvas.ellipse((x - radius, y - radius, x + radius, y + radius), GOLD, INK, radius * 0.16)
    arm, thick = radius * 0.58, radius * 0.3
    canvas.rounded((x - arm, y - thick / 2, x + arm, y + thick / 2), thick / 3, INK)
    canvas.rounded((x - thick / 2, y - arm, x + thick / 2, y + arm), thick / 3, INK)


# ------------------------------------------------------------------ emojis (128x128)
# A card in an emoji: 94x124, centred.
E_CARD = (17.0, 2.0, 111.0, 126.0)
E_RADIUS = 13.0
E_RIM = 6.0


def emoji_card(style: Style, rim: RGBA | None = None) -> Canvas:
    canvas = Canvas(*EMOJI_SIZE)
    canvas.rounded(E_CARD, E_RADIUS, style.fill, rim or style.rim, E_RIM)
    return canvas


def emoji_number(number: int, plus: bool) -> Canvas:
    style = NUMBER_STYLES[number]
    canvas = emoji_card(style, GOLD if plus else None)
    if plus:
        # The rim is gold; a thin dark line keeps it apart from the background.
        canvas.rounded(E_CARD, E_RADIUS, None, INK, 1.5)
        canvas.text((56, 68), str(number), 80, style.ink, style.outline, 5)
        plus_badge(canvas, (92, 27), 19)
    else:
        canvas.text((64, 64), str(number), 88, style.ink, style.outline, 5)
    return canvas


def emoji_llama(style: Style) -> Canvas:
    canvas = emoji_card(style)
    llama(canvas, (21, 22, 107, 108), style.ink, style.fill)
    return canvas


def emoji_no_drama() -> Canvas:
    style = NO_DRAMA_STYLE
    canvas = emoji_card(style)
    canvas.text((64, 46), "NO", 36, style.ink, style.outline, 3)
    canvas.text((64, 92), "DRAMA", 15, style.ink, style.outline, 2)
    return canvas


def emoji_back() -> Canvas:
    style = BACK_STYLE
    canvas = emoji_card(style)
    back_pattern(canvas, E_CARD, 16, E_RIM)
    canvas.ellipse((28, 34, 100, 94), style.fill, PAPER, 4)
    llama(canvas, (38, 40, 90, 90), PAPER, style.fill)
    return canvas


def back_pattern(canvas: Canvas, card: Sequence[float], step: float, rim: float) -> None:
    """Diagonal lines across the inside of the card, like a printed back."""
    left, top, right, bottom = card[0] + rim, card[1] + rim, card[2] - rim, card[3] - rim
    pattern = Canvas(canvas.width, canvas.height)
    height = bottom - top
    x = left - height
    while x < right:
        pattern.line(((x, bottom), (x + height, top)), BACK_STYLE.ink, 2)
        pattern.line(((x, top), (x + height, bottom)), BACK_STYLE.ink, 2)
        x += step
    mask = Image.new("L", canvas.image.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        [left * SS, top * SS, right * SS, bottom * SS], (E_RADIUS - rim / 2) * SS, fill=255
    )
    pattern.image.putalpha(ImageChops.multiply(pattern.image.getchannel("A"), mask))
    canvas.image.alpha_composite(pattern.image)


@dataclass(frozen=True, slots=True)
class ChipStyle:
    fill: RGBA
    stripe: RGBA
    ink: RGBA
    edge: RGBA


CHIP_STYLES: dict[int, ChipStyle] = {
    WHITE: ChipStyle(rgb("#f7f7f2"), rgb("#1e88e5"), INK, rgb("#5f6368")),
    BLACK: ChipStyle(rgb("#222222"), rgb("#f7f7f2"), rgb("#f7f7f2"), rgb("#9e9e9e")),
    PINK: ChipStyle(rgb("#ec407a"), rgb("#f7f7f2"), rgb("#f7f7f2"), rgb("#880e4f")),
}


def emoji_chip(value: int) -> Canvas:
    """A poker-style chip: a disc with six stripes on its edge and its value in the middle."""
    style = CHIP_STYLES[value]
    canvas = Canvas(*EMOJI_SIZE)
    c, r = 64.0, 60.0
    canvas.ellipse((c - r, c - r, c + r, c + r), style.fill, style.edge, 4)
    for i in range(6):
        angle, half = math.radians(i * 60), math.radians(11)
        outer, inner = r - 3, r - 17
        corners = ((outer, -half), (outer, half), (inner, half * 0.8), (inner, -half * 0.8))
        canvas.polygon(
            [(c + d * math.cos(angle + a), c + d * math.sin(angle + a)) for d, a in corners],
            style.stripe,
        )
    inner_r = r - 21
    canvas.ellipse(
        (c - inner_r, c - inner_r, c + inner_r, c + inner_r), style.fill, style.edge, 2.5
    )
    label = str(value)
    canvas.text((c, c), label, 40 if len(label) == 1 else 34, style.ink)
    return canvas


# ------------------------------------------------------------------ all of it
def pictures() -> dict[str, Drawing]:
    """Each name with how to draw its emoji."""
    drawn: dict[str, Drawing] = {}
    for card in (*NUMBERS, *PLUS_CARDS):
        drawn[card_name(card)] = partial(emoji_number, card.number, card.is_plus)
    drawn[card_name(Card.LLAMA)] = partial(emoji_llama, LLAMA_STYLE)
    drawn[card_name(Card.PINK_LLAMA)] = partial(emoji_llama, PINK_STYLE)
    drawn[NO_DRAMA] = emoji_no_drama
    drawn[BACK] = emoji_back
    for value, name in CHIP_NAMES.items():
        drawn[name] = partial(emoji_chip, value)
    return drawn


def draw_all(folder: Path = FOLDER) -> list[Path]:
    """Draw every picture into ``folder``/emoji; the files written."""
    written = []
    for name, emoji in pictures().items():
        path = folder / "emoji" / f"{name}.png"
        emoji().save(path)
        written.append(path)
    return written


#: Discord's dark theme, behind the overview.
DARK = rgb("#313338")


def overview(folder: Path = FOLDER) -> Image.Image:
    """Every emoji on Discord's dark theme: a row at 128 pixels and one at 22, as in a message."""
    names = ALL_NAMES
    big, small, gap = EMOJI_SIZE[0], 22, 8
    sheet = Image.new("RGBA", (len(names) * (big + gap) + gap, big + small + 3 * gap), DARK)
    for i, name in enumerate(names):
        with Image.open(folder / "emoji" / f"{name}.png") as image:
            emoji = image.convert("RGBA")
        x = gap + i * (big + gap)
        sheet.alpha_composite(emoji, (x, gap))
        tiny = emoji.resize((small, small), Image.Resampling.LANCZOS)
        sheet.alpha_composite(tiny, (x + (big - small) // 2, big + 2 * gap))
    return sheet


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Draw the card and chip pictures.")
    parser.add_argument("folder", nargs="?", type=Path, default=FOLDER, help="where to draw")
    parser.add_argument("--overview", type=Path, help="also write an overview PNG here")
    args = parser.parse_args(argv)
    for path in draw_all(args.folder):
        print(path)
    if args.overview is not None:
        overview(args.folder).save(args.overview, optimize=True)
        print(args.overview)


if __name__ == "__main__":
    main()
