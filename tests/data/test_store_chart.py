"""The chip chart PNG: decoded by hand here, so the test needs no image library either."""

from __future__ import annotations

import struct
import zlib

import pytest

from data import ChipHistory, Store, render_chip_chart
from data.chart import (
    BACKGROUND,
    PNG_SIGNATURE,
    SEAT_COLORS,
    THRESHOLD_COLOR,
    ChartLayout,
    chart_layout,
    encode_png,
)
from game import Ruleset

from ._helpers import play_random_game

HISTORY = ChipHistory(
    game_id=1,
    names=("Ann", "Ben", "Zoë", "x'); DROP TABLE games;--"),
    threshold=40,
    totals=((3, 10, 0, 5), (13, 9, 1, 15), (20, 22, 1, 16), (21, 41, 0, 30)),
    winners=(2,),
)


def decode(png: bytes) -> tuple[int, int, list[bytes]]:
    """(width, height, RGB rows) of an 8-bit RGB PNG with filter type 0 on every row."""
    assert png.startswith(PNG_SIGNATURE)
    pos = len(PNG_SIGNATURE)
    chunks: list[tuple[bytes, bytes]] = []
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        tag = png[pos + 4 : pos + 8]
        data = png[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", png[pos + 8 + length : pos + 12 + length])
        assert crc == zlib.crc32(tag + data) & 0xFFFFFFFF
        chunks.append((tag, data))
        pos += 12 + length
    assert [tag for tag, _ in chunks][0] == b"IHDR" and chunks[-1] == (b"IEND", b"")
    width, height, depth, color, compression, filtering, interlace = struct.unpack(
        ">IIBBBBB", chunks[0][1]
    )
    assert (depth, color, compression, filtering, interlace) == (8, 2, 0, 0, 0)
    raw = zlib.decompress(b"".join(data for tag, data in chunks if tag == b"IDAT"))
    stride = 1 + width * 3
    assert len(raw) == height * stride
    rows = [raw[y * stride : (y + 1) * stride] for y in range(height)]
    assert all(row[0] == 0 for row in rows)
    return width, height, [row[1:] for row in rows]


def pixel(rows: list[bytes], x: int, y: int) -> tuple[int, int, int]:
    r, g, b = rows[y][x * 3 : x * 3 + 3]
    return (r, g, b)


def colors(rows: list[bytes]) -> set[tuple[int, int, int]]:
    return {pixel(rows, x, y) for y in range(len(rows)) for x in range(len(rows[0]) // 3)}


@pytest.mark.parametrize(("width", "height"), [(800, 400), (640, 320), (400, 200)])
def test_chart_is_a_png_of_the_asked_size(width: int, height: int) -> None:
    png = render_chip_chart(HISTORY, width=width, height=height)
    assert decode(png)[:2] == (width, height)


def test_threshold_line_is_drawn_at_the_threshold() -> None:
    _, _, rows = decode(render_chip_chart(HISTORY))
    layout: ChartLayout = chart_layout(HISTORY)
    y = layout.y(HISTORY.threshold)
    assert layout.top < y < layout.bottom
    inside = range(layout.left + 1, layout.right + 1)
    red = sum(pixel(rows, x, y) == THRESHOLD_COLOR for x in inside)
    assert red >= 0.9 * len(inside)  # the seats' lines cross it here and there
    # Only that line (and its label) is red: well below it, no red at all.
    assert all(pixel(rows, x, y + 10) != THRESHOLD_COLOR for x in inside)


def test_each_seat_has_its_color_and_a_point_each_round() -> None:
    _, _, rows = decode(render_chip_chart(HISTORY))
    layout = chart_layout(HISTORY)
    assert {*SEAT_COLORS[:4], THRESHOLD_COLOR, BACKGROUND} <= colors(rows)
    assert SEAT_COLORS[4] not in colors(rows)  # no fifth seat
    for round_no, totals in enumerate(HISTORY.totals, start=1):
        # The last seat's marker is drawn last, so it is on top at its own point.
        x, y = layout.x(round_no), layout.y(totals[3])
        assert pixel(rows, x, y) == SEAT_COLORS[3]


def test_axis_reaches_above_the_highest_total_and_the_threshold() -> None:
    layout = chart_layout(HISTORY)
    assert layout.y_max > 41 and layout.y_max % layout.y_step == 0
    assert layout.rounds == 4
    tall = ChipHistory(1, ("A", "B"), 40, ((120, 0),))
    assert chart_layout(tall).y_max > 120


def test_a_game_without_rounds_still_draws() -> None:
    empty = ChipHistory(game_id=2, names=("Ann", "Ben"), threshold=40, totals=())
    width, height, rows = decode(render_chip_chart(empty))
    assert (width, height) == (800, 400)
    assert THRESHOLD_COLOR in colors(rows)


def test_too_small_is_refused() -> None:
    with pytest.raises(ValueError, match="at least"):
        render_chip_chart(HISTORY, width=100, height=50)


def test_encode_png_checks_the_pixel_count() -> None:
    assert decode(encode_png(2, 1, bytes([1, 2, 3, 4, 5, 6])))[2] == [bytes([1, 2, 3, 4, 5, 6])]
    with pytest.raises(ValueError, match="not a 2x2 RGB image"):
        encode_png(2, 2, b"\x00" * 6)


async def test_chart_from_a_stored_game(store: Store) -> None:
    game_id, match = await play_random_game(store, Ruleset(threshold=30), 5, seed=9)
    history = await store.chip_history(game_id)
    assert history is not None and len(history.totals) == len(match.results)
    width, height, _ = decode(render_chip_chart(history))
    assert (width, height) == (800, 400)
