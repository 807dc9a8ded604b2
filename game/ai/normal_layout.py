"""The layout of Normal's calibration tables: their dimensions and how a situation indexes them.

``normal_tables.py`` (``STUCK``, ``EMPTY``) is written by ``benchmarks/calibrate.py``
in this layout and read by ``normal.py`` in it; both take it from here, so the
two cannot drift apart.

* ``STUCK[stuck_index(ctx, size, distance, copies, in_run)]`` — the chance a
  value is still held at the end of the round;
* ``EMPTY[empty_index(ctx, n, gap)]`` — the chance of emptying the hand.

``ctx`` is the table context (``context``: the opponents still in and the
smallest hand among them), ``size`` the bucket of my own hand size
(``size_bucket``), ``distance`` how far the value lies ahead of the top card on
the 1..6, Llama cycle, ``copies`` 0 for one copy and 1 for several, ``in_run``
whether the value is part of my own run from the top, ``n`` my hand size and
``gap`` the cards outside that run.
"""

from __future__ import annotations

from collections.abc import Sequence

OPPONENTS = 5  # opponents still in: 1..5 (5 = 5 or more)
OPP_MIN = 6  # smallest opponent hand: 1..5, 6 = 6 or more
SIZES = 6  # own hand: 1, 2, 3, 4, 5-6, 7+
DISTANCES = 7  # how far ahead of the top: 0..6
COPIES = 2  # 1, 2 or more
RUN = 2  # the value is (1) or is not (0) part of my own run from the top
EMPTY_SIZES = 8  # own hand 1..7, 8 = 8 or more
GAPS = 4  # cards outside that run: 0, 1, 2, 3 or more

#: ``STUCK`` strides: the next copies bucket, the next distance, the next size bucket.
COPY_STRIDE = RUN
DISTANCE_STRIDE = COPIES * COPY_STRIDE
SIZE_STRIDE = DISTANCES * DISTANCE_STRIDE  # 28 cells per table context and size bucket

#: ``SIZE_BUCKET[n]``: the size bucket of an own hand of ``n`` cards (0..7; 8 and up are 5).
SIZE_BUCKET: tuple[int, ...] = (0, 0, 1, 2, 3, 4, 4, 5)


def size_bucket(n: int) -> int:
    """Own hand size -> its size bucket, 0..5."""
    return SIZE_BUCKET[n] if n < len(SIZE_BUCKET) else SIZES - 1


def context(nopp: int, opp_min: int) -> int:
    """The table context of ``nopp`` opponents still in, the smallest holding ``opp_min``."""
    return (min(nopp, OPPONENTS) - 1) * OPP_MIN + min(opp_min, OPP_MIN) - 1


def stuck_base(ctx: int, size: int) -> int:
    """The first ``STUCK`` cell of table context ``ctx`` and size bucket ``size``."""
    return (ctx * SIZES + size) * SIZE_STRIDE


def stuck_index(ctx: int, size: int, distance: int, copies: int, in_run: int) -> int:
    """The ``STUCK`` cell of a value (see the module's docstring).

    ``normal`` writes out the part after ``stuck_base`` (a call per value held
    would cost it too much), in these strides.
    """
    return stuck_base(ctx, size) + distance * DISTANCE_STRIDE + copies * COPY_STRIDE + in_run


def empty_index(ctx: int, n: int, gap: int) -> int:
    """The ``EMPTY`` cell of a hand of ``n`` cards with ``gap`` cards outside my run."""
    return (ctx * EMPTY_SIZES + min(n, EMPTY_SIZES) - 1) * GAPS + min(gap, GAPS - 1)


def run_steps(counts: Sequence[int], top_step: int) -> int:
    """Bit-mask of the steps in my own run from ``top_step``: the steps I could play
    one after another with nobody in between (``top_step`` itself, then the next...)."""
    mask = 0
    step = top_step
    if counts[step]:
        mask |= 1 << step
    for _ in range(6):
        step = 1 if step == 7 else step + 1
        if not counts[step]:
            break
        mask |= 1 << step
    return mask


#: The ``STUCK`` cell (after ``stuck_base``) the pink Llama is looked up with:
#: it fits anything, like a single value just ahead that is in my run.
PINK_OFFSET = stuck_index(0, 0, 1, 0, 1)
