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
    """The characters of the best Unicode subtable: format 12 (all planes), else format 4."""
    _version, subtables = struct.unpack_from(">HH", data, cmap)
    found: dict[int, int] = {}  # subtable format -> its offset
    for i in range(subtables):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        if (platform, encoding) in {(3, 1), (3, 10), (0, 3), (0, 4)}:
            (form,) = struct.unpack_from(">H", data, cmap + offset)
            found.setdefault(form, cmap + offset)
    chars: set[int] = set()
    if 12 in found:
        start = found[12]
        (groups,) = struct.unpack_from(">I", data, start + 12)
        for g in range(groups):
            first, last, glyph = struct.unpack_from(">III", data, start + 16 + 12 * g)
            chars.update(c for c in range(first, last + 1) if glyph + c - first)
        return frozenset(chars)
    if 4 in found:
        start = found[4]
        (double_segments,) = struct.unpack_from(">H", data, start + 6)
        segments = double_segments // 2
        ends = struct.unpack_from(f">{segments}H", data, start + 14)
        starts = struct.unpack_from(f">{segments}H", data, start + 16 + double_segments)
        for first, last in zip(starts, ends, strict=True):
            # Glyph ids aren't needed: a segment maps its range (0xFFFF is the end marker).
            chars.update(c for c in range(first, last + 1) if c != 0xFFFF)
        return frozenset(chars)
    raise ValueError("the font has no Unicode character map")


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
