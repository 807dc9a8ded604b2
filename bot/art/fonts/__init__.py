"""The fonts shipped with the package: DejaVu Sans and DejaVu Sans Bold (see ``LICENSE``).

They cover Latin with its accents, Greek and Cyrillic, so names in those
scripts are drawn as written. :func:`can_draw` tells whether a text can be:
whether the font has a glyph for every character (read from the font's own
character map, so nothing is guessed) and the text needs no shaping that a
plain left-to-right layout can't do.
"""

from __future__ import annotations

import struct
import unicodedata
from functools import cache
from pathlib import Path

__all__ = ["BOLD_FONT", "REGULAR_FONT", "can_draw", "codepoints"]

FOLDER = Path(__file__).parent
REGULAR_FONT = FOLDER / "DejaVuSans.ttf"
BOLD_FONT = FOLDER / "DejaVuSans-Bold.ttf"

# Right-to-left scripts (Hebrew, Arabic …) need a bidi layout the chart doesn't do.
_RIGHT_TO_LEFT = frozenset({"R", "AL"})


@cache
def codepoints(font: Path = REGULAR_FONT) -> frozenset[int]:
    """Every character ``font`` has a glyph for, from its Unicode character map."""
    data = font.read_bytes()
    (tables,) = struct.unpack_from(">H", data, 4)
    for i in range(tables):
        tag, _checksum, offset, _length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            return _read_cmap(data, offset)
    raise ValueError(f"{font.name} has no character map")


def _read_cmap(data: bytes, cmap: int) -> frozenset[int]:
    """The characters of the font's format 12 Unicode subtable (all planes; DejaVu has one)."""
    _version, subtables = struct.unpack_from(">HH", data, cmap)
    for i in range(subtables):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        (form,) = struct.unpack_from(">H", data, cmap + offset)
        if form == 12 and (platform, encoding) in {(3, 10), (0, 4)}:
            start = cmap + offset
            (groups,) = struct.unpack_from(">I", data, start + 12)
            chars: set[int] = set()
            for g in range(groups):
                first, last, glyph = struct.unpack_from(">III", data, start + 16 + 12 * g)
                # Glyph 0 is the missing-glyph box: a character mapped to it has no glyph.
                chars.update(c for c in range(first, last + 1) if glyph + c - first)
            return frozenset(chars)
    raise ValueError("the font has no full Unicode character map (format 12)")


def can_draw(text: str, font: Path = REGULAR_FONT) -> bool:
    """Whether ``text`` (NFC) can be drawn as written in ``font`` by a left-to-right layout."""
    have = codepoints(font)
    for char in unicodedata.normalize("NFC", text):
        if ord(char) not in have:
            return False
        if unicodedata.bidirectional(char) in _RIGHT_TO_LEFT:
            return False
        if unicodedata.category(char) in {"Mn", "Me", "Cf", "Cc"}:
            # A mark left over after NFC (or a joiner) needs shaping to sit right.
            return False
    return True
