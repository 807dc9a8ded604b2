"""The chip chart PNG: names as written, the winner and the threshold marked."""

from __future__ import annotations

import unicodedata
from io import BytesIO

import pytest
from PIL import Image, ImageChops, ImageFont

from bot.art.chart import (
    BACKGROUND,
    PNG_SIGNATURE,
    SEAT_COLORS,
    THRESHOLD_COLOR,
    WINNER_COLOR,
    ChartLayout,
    chart_layout,
    render_chip_chart,
    seats_named_elsewhere,
)
from bot.art.fonts import BOLD_FONT, REGULAR_FONT, can_draw, codepoints
from data import ChipHistory

Color = tuple[int, int, int]

HISTORY = ChipHistory(
    game_id=1,
    names=("Ann", "Ben", "Zoë", "x'); DROP TABLE games;--"),
    threshold=40,
    totals=((3, 10, 0, 5), (13, 9, 1, 15), (20, 22, 1, 16), (21, 41, 0, 30)),
    winners=(2,),
)
#: Latin with accents, Greek and Cyrillic, long and short: all drawn as written.
WRITTEN = ("Jürgen Müller-Lüdenscheidt", "Łukasz Żółć", "Ωμέγα Παπαδόπουλος", "Жанна", "Øyvind")
#: CJK and emoji: the font has none of them.
ELSEWHERE = ("王小明", "Ann 🦙")


def decode(png: bytes) -> Image.Image:
    assert png.startswith(PNG_SIGNATURE)
    image = Image.open(BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def pixel(image: Image.Image, x: int, y: int) -> Color:
    value = image.getpixel((x, y))
    assert isinstance(value, tuple)
    return (value[0], value[1], value[2])


def near(a: Color, b: Color, slack: int = 40) -> bool:
    return sum(abs(p - q) for p, q in zip(a, b, strict=True)) <= slack


def history(names: tuple[str, ...], winners: tuple[int, ...] = (0,)) -> ChipHistory:
    totals = tuple(tuple(3 * r + 7 * s for s in range(len(names))) for r in range(1, 5))
    return ChipHistory(game_id=7, names=names, threshold=40, totals=totals, winners=winners)


def differ(a: bytes, b: bytes) -> bool:
    return ImageChops.difference(decode(a), decode(b)).getbbox() is not None


@pytest.mark.parametrize(("width", "height"), [(800, 400), (640, 320), (400, 200)])
def test_chart_is_a_png_of_the_asked_size(width: int, height: int) -> None:
    png = render_chip_chart(HISTORY, width=width, height=height)
    assert decode(png).size == (width, height)


def question_marks(name: str) -> str:
    """``name`` with "?" for every letter outside ASCII."""
    return "".join("?" if c.isalpha() and not c.isascii() else c for c in name)


def folded(name: str) -> str:
    """``name`` in capitals without its accents: "Jürgen" -> "JURGEN"."""
    plain = unicodedata.normalize("NFKD", name).upper()
    return "".join(c for c in plain if not unicodedata.combining(c))


@pytest.mark.parametrize("name", WRITTEN)
def test_names_are_drawn_as_written_never_as_question_marks(name: str) -> None:
    """The chart with the name differs from the chart with "?" for its non-ASCII letters,
    from the one with the name in accentless capitals, and from the name cut at ten."""
    drawn = render_chip_chart(history(("Ann", name)))
    for mangled in {question_marks(name), folded(name), name[:10]} - {name}:
        assert differ(drawn, render_chip_chart(history(("Ann", mangled)))), mangled


def test_legend_carries_every_name_whole() -> None:
    names = (*WRITTEN, "Ann")
    layout = chart_layout(history(names[:6]))
    assert [entry.label for entry in layout.legend] == list(names[:6])
    assert seats_named_elsewhere(history(names[:6])) == ()


def test_the_font_really_has_the_glyphs_it_claims() -> None:
    """Each letter of the names renders as its own glyph, not as the font's missing-glyph box."""
    for path in (REGULAR_FONT, BOLD_FONT):
        font = ImageFont.truetype(str(path), 20, layout_engine=ImageFont.Layout.BASIC)
        missing = bytes(font.getmask(chr(0x10FFFD)))
        for char in set("".join(WRITTEN)) - {" ", "-"}:
            assert ord(char) in codepoints(path), char
            assert bytes(font.getmask(char)) != missing, f"{char!r} in {path.name}"
        for char in "王🦙":
            assert ord(char) not in codepoints(path)
            assert bytes(font.getmask(char)) == missing


def test_names_the_font_lacks_are_labelled_by_seat() -> None:
    names = ("Ann", *ELSEWHERE, "Жанна")
    chart = history(names)
    assert seats_named_elsewhere(chart) == (1, 2)
    labels = [e.label for e in chart_layout(chart, seat_label="Gracz {seat}").legend]
    assert labels == ["Ann", "Gracz 2", "Gracz 3", "Жанна"]
    assert not can_draw("שלום")  # right to left: not drawn by a left-to-right layout either


def test_threshold_is_a_red_line_with_its_label() -> None:
    image = decode(render_chip_chart(HISTORY, threshold_label="End: {threshold}"))
    layout: ChartLayout = chart_layout(HISTORY)
    y = layout.y(HISTORY.threshold)
    assert layout.top < y < layout.bottom
    inside = range(layout.left + 2, layout.right)
    red = sum(near(pixel(image, x, y), THRESHOLD_COLOR) for x in inside)
    assert red >= 0.55 * len(inside)  # dashed, and crossed by the seats' lines here and there
    # Nothing else is red: well below the line, no red at all; its label is just above it.
    assert not any(near(pixel(image, x, y + 12), THRESHOLD_COLOR) for x in inside)
    label = [pixel(image, x, y - 12) for x in range(layout.left, layout.left + 120)]
    assert any(near(p, THRESHOLD_COLOR) for p in label)


def test_winner_is_marked_with_a_star_on_the_chart_and_in_the_legend() -> None:
    image = decode(render_chip_chart(HISTORY))
    layout = chart_layout(HISTORY)
    # The star sits on the winner's last point.
    last = len(HISTORY.totals)
    assert near(pixel(image, layout.x(last), layout.y(HISTORY.totals[-1][2])), WINNER_COLOR)
    # ... and before the winner's name, nowhere else in the legend.
    stars = [e for e in layout.legend if e.winner]
    assert [e.seat for e in stars] == [2]
    for entry in layout.legend:
        row = [pixel(image, x, entry.y) for x in range(entry.text_x, entry.text_x + 14)]
        assert any(near(p, WINNER_COLOR) for p in row) == entry.winner, entry.label
    # Without winners, no star at all.
    unfinished = ChipHistory(1, HISTORY.names, 40, HISTORY.totals)
    plain = decode(render_chip_chart(unfinished))
    assert not any(
        near(pixel(plain, x, y), WINNER_COLOR, 20)
        for x in range(0, 800, 2)
        for y in range(0, 400, 2)
    )


def test_each_seat_has_its_color_and_a_point_each_round() -> None:
    image = decode(render_chip_chart(HISTORY))
    layout = chart_layout(HISTORY)
    for round_no, totals in enumerate(HISTORY.totals[:-1], start=1):
        # The last seat is drawn last of the non-winners, so it is on top at its own point.
        x, y = layout.x(round_no), layout.y(totals[3])
        assert near(pixel(image, x, y), SEAT_COLORS[3])
    for entry in layout.legend:  # the legend's marker in the seat's colour
        assert near(pixel(image, entry.x, entry.y), SEAT_COLORS[entry.seat])


def test_axis_reaches_above_the_highest_total_and_the_threshold() -> None:
    layout = chart_layout(HISTORY)
    assert layout.y_max > 41 and layout.y_max % layout.y_step == 0
    assert layout.rounds == 4
    tall = ChipHistory(1, ("A", "B"), 40, ((120, 0),))
    assert chart_layout(tall).y_max > 120


def test_six_long_names_fit_without_overlap() -> None:
    names = tuple(f"{n} Wolfeschlegelsteinhausen"[:32] for n in WRITTEN + ("Zoë",))
    layout = chart_layout(history(names))
    assert len(layout.legend) == 6
    spots = {(e.x, e.y) for e in layout.legend}
    assert len(spots) == 6
    assert all(e.y > layout.bottom for e in layout.legend)


def test_a_game_without_rounds_still_draws() -> None:
    empty = ChipHistory(game_id=2, names=("Ann", "Ben"), threshold=40, totals=())
    image = decode(render_chip_chart(empty))
    assert image.size == (800, 400)
    assert pixel(image, 1, 1) == BACKGROUND
    y = chart_layout(empty).y(40)
    assert any(near(pixel(image, x, y), THRESHOLD_COLOR) for x in range(100, 300))


def test_too_small_is_refused() -> None:
    with pytest.raises(ValueError, match="at least"):
        render_chip_chart(HISTORY, width=100, height=50)


def test_each_line_ends_in_its_players_name_not_a_seat_number() -> None:
    """A seat number at a line's end read as a place: the last-placed player's line
    ended in "1". The line ends in the player's name, cut short, within the chart."""
    layout = chart_layout(history(("Ann", "Jürgen Müller-Lüdenscheidt", "Bartholomew", "王小明")))
    assert layout.ends == ("Ann", "Jürgen", "Barthol…", "Player 4")
    widest = max(
        layout.size(12) + ImageFont.truetype(str(BOLD_FONT), 13).getlength(end)
        for end in layout.ends
    )
    assert layout.right + widest <= layout.width
    assert decode(render_chip_chart(history(("Ann", "Ben")))).size == (800, 400)
