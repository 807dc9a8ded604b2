"""The fonts shipped with the package: DejaVu Sans and DejaVu Sans Bold (see ``LICENSE``).

They cover Latin with its accents, Greek and Cyrillic, so names in those
scripts are drawn as written; :func:`covers` tells whether a text needs
glyphs they lack (CJK, emoji, …).
"""

from __future__ import annotations

from pathlib import Path

FOLDER = Path(__file__).parent
REGULAR_FONT = FOLDER / "DejaVuSans.ttf"
BOLD_FONT = FOLDER / "DejaVuSans-Bold.ttf"
