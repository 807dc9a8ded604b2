"""Chips: minus points as white (1), black (10) and pink (20) tokens."""

from __future__ import annotations

from dataclasses import dataclass

WHITE = 1
BLACK = 10
PINK = 20


@dataclass(frozen=True, slots=True)
class Chips:
    """A seat's chips, always exchanged up (ruling: larger chips are never worse).

    Because swaps always go up, the chips are exactly the greedy split of the
    points, so the points are the single source of truth.
    """

    white: int = 0
    black: int = 0
    pink: int = 0

    @property
    def points(self) -> int:
        return self.white * WHITE + self.black * BLACK + self.pink * PINK

    @classmethod
    def of(cls, points: int, *, pink_chips: bool) -> Chips:
        if points < 0:
            raise ValueError("points cannot be negative")
        pink, rest = divmod(points, PINK) if pink_chips else (0, points)
        black, white = divmod(rest, BLACK)
        return cls(white=white, black=black, pink=pink)

    def largest(self) -> int:
        """The value of the largest chip held, 0 with no chips."""
        if self.pink:
            return PINK
        if self.black:
            return BLACK
        return WHITE if self.white else 0
