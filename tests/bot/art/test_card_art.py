"""The card and chip pictures: one for every card and chip, the sizes Discord takes, and the
committed PNGs are what ``python -m bot.art.draw`` draws."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.art import (
    ALL_NAMES,
    BACK,
    CHIP_NAMES,
    EMOJI_SIZE,
    FACE_NAMES,
    NO_DRAMA,
    card_name,
    emoji_path,
    read_emoji,
)
from bot.art.draw import DARK, draw_all, overview
from game import BLACK, PINK, WHITE, Card

#: Discord's rule for an emoji's name.
EMOJI_NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
#: Discord refuses emoji images larger than this.
EMOJI_LIMIT = 256 * 1024
#: How Discord shows an emoji in a line of text.
INLINE = (22, 22)


def test_every_card_and_chip_has_a_picture() -> None:
    assert {card_name(card) for card in Card} | {NO_DRAMA, BACK} == set(FACE_NAMES)
    assert set(CHIP_NAMES) == {WHITE, BLACK, PINK}
    assert set(ALL_NAMES) == set(FACE_NAMES) | set(CHIP_NAMES.values())
    assert len(ALL_NAMES) == len(set(ALL_NAMES)) == 19
    assert card_name(Card.FOUR_PLUS) == "lama_4p"
    assert card_name(Card.PINK_LLAMA) == "lama_pink_llama"


@pytest.mark.parametrize("name", ALL_NAMES)
def test_emoji_is_a_valid_discord_emoji(name: str) -> None:
    assert EMOJI_NAME.fullmatch(name)
    data = read_emoji(name)
    assert len(data) < EMOJI_LIMIT
    with Image.open(emoji_path(name)) as image:
        assert image.format == "PNG"
        assert image.size == EMOJI_SIZE
        assert image.mode == "RGBA"
        # Transparent around the card or chip, so it sits on any Discord theme.
        assert image.getpixel((0, 0))[3] == 0  # type: ignore[index]


def test_unknown_names_are_refused() -> None:
    with pytest.raises(KeyError, match="lama_7"):
        emoji_path("lama_7")


def _inline(path: Path) -> Image.Image:
    """The picture as Discord shows it in text, on its dark theme."""
    with Image.open(path) as image:
        small = image.convert("RGBA").resize(INLINE, Image.Resampling.LANCZOS)
    background = Image.new("RGBA", INLINE, (49, 51, 56, 255))
    return Image.alpha_composite(background, small).convert("RGB")


def _difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference per channel, 0 (same) to 255."""
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def test_pictures_tell_apart_at_inline_size() -> None:
    small = {name: _inline(emoji_path(name)) for name in ALL_NAMES}
    for a, b in itertools.combinations(ALL_NAMES, 2):
        assert _difference(small[a], small[b]) > 15, f"{a} and {b} look alike at 22 pixels"


@pytest.mark.slow  # over a quarter second on a quiet machine
def test_committed_pictures_are_what_the_drawer_draws(tmp_path: Path) -> None:
    written = draw_all(tmp_path)
    expected = {emoji_path(n) for n in ALL_NAMES}
    assert {p.relative_to(tmp_path) for p in written} == {
        p.relative_to(emoji_path(BACK).parent.parent) for p in expected
    }
    for path in written:
        committed = emoji_path(BACK).parent.parent / path.relative_to(tmp_path)
        with Image.open(path) as new, Image.open(committed) as old:
            # A little leeway for another Pillow or FreeType's anti-aliasing.
            assert _difference(new.convert("RGBA"), old.convert("RGBA")) < 2, (
                f"{committed} is out of date: run python -m bot.art.draw"
            )


def test_the_overview_shows_every_emoji_big_and_small() -> None:
    sheet = overview().convert("RGB")
    assert sheet.size == (8 + len(ALL_NAMES) * 136, 128 + 22 + 24)
    dark = DARK[:3]
    for i in range(len(ALL_NAMES)):
        x = 8 + i * 136 + 64
        assert sheet.getpixel((x, 8 + 64)) != dark  # the 128-pixel emoji
        assert sheet.getpixel((x, 128 + 16 + 11)) != dark  # and the 22-pixel one
