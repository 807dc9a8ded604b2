"""The card and chip pictures, drawn for this project and shipped as PNGs.

``python -m bot.art.draw`` draws them all again (with Pillow); the PNGs are
committed, so reading them needs nothing but this module.

Every picture has a name that is also its application emoji's name (2–32
letters, digits or underscores, as Discord wants; the ``lama_`` prefix keeps
them apart from any other emoji the application owns):

========================  =====================================
``lama_1`` … ``lama_6``   the number cards
``lama_llama``            the Llama
``lama_1p`` … ``lama_6p`` the Plus cards 1+ … 6+ (Party Edition)
``lama_pink_llama``       the pink Llama (Party Edition)
``lama_no_drama``         the No Drama card
``lama_back``             a card's back
``lama_chip_white``       the white chip (1 point)
``lama_chip_black``       the black chip (10 points)
``lama_chip_pink``        the pink chip (20 points, Party Edition)
========================  =====================================

Each name has ``emoji/<name>.png``: 128x128 pixels on a transparent
background, well under Discord's 256 KB limit for emojis. The same picture is
the big top card beside the table and the hand (a thumbnail of the emoji's
address: Discord shows a thumbnail at most about 85 pixels wide, and an
attached picture would have to be uploaded again with every edit).
"""

from __future__ import annotations

from pathlib import Path

from game import BLACK, NUMBERS, PINK, PLUS_CARDS, WHITE, Card

__all__ = [
    "ALL_NAMES",
    "BACK",
    "CARD_NAMES",
    "CHIP_NAMES",
    "EMOJI_SIZE",
    "FACE_NAMES",
    "NO_DRAMA",
    "card_name",
    "emoji_path",
    "read_emoji",
]

FOLDER = Path(__file__).parent
EMOJI_SIZE = (128, 128)

#: Each card's picture.
CARD_NAMES: dict[Card, str] = {
    **{card: f"lama_{card.number}" for card in NUMBERS},
    Card.LLAMA: "lama_llama",
    **{card: f"lama_{card.number}p" for card in PLUS_CARDS},
    Card.PINK_LLAMA: "lama_pink_llama",
}
NO_DRAMA = "lama_no_drama"
BACK = "lama_back"
#: Each chip's picture, by the chip's value in points (game.WHITE, BLACK, PINK).
CHIP_NAMES: dict[int, str] = {
    WHITE: "lama_chip_white",
    BLACK: "lama_chip_black",
    PINK: "lama_chip_pink",
}
#: Every card's picture: the cards, the No Drama card and the back.
FACE_NAMES: tuple[str, ...] = (*CARD_NAMES.values(), NO_DRAMA, BACK)
#: Every emoji, in the order they are drawn (and best uploaded).
ALL_NAMES: tuple[str, ...] = (*FACE_NAMES, *CHIP_NAMES.values())


def card_name(card: Card) -> str:
    return CARD_NAMES[card]


def emoji_path(name: str) -> Path:
    """The 128x128 PNG of ``name`` (one of :data:`ALL_NAMES`)."""
    if name not in ALL_NAMES:
        raise KeyError(f"no card art is called {name!r}")
    return FOLDER / "emoji" / f"{name}.png"


def read_emoji(name: str) -> bytes:
    """The PNG bytes to upload as the application emoji ``name``."""
    return emoji_path(name).read_bytes()
