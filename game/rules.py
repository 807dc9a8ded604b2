"""The table options a game is played with."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MIN_PLAYERS = 2
MAX_PLAYERS = 6
HAND_SIZE = 6
DEFAULT_THRESHOLD = 40
MIN_THRESHOLD = 1
MAX_THRESHOLD = 200


class RulesetError(ValueError):
    """A ruleset that cannot be played; the message says why."""


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Variants in use and the end threshold. Any combination of variants is valid."""

    no_drama: bool = False
    party: bool = False
    komarami: bool = False
    threshold: int = DEFAULT_THRESHOLD

    def __post_init__(self) -> None:
        for name in ("no_drama", "party", "komarami"):
            if not isinstance(getattr(self, name), bool):
                raise RulesetError(f"The option {name} must be true or false.")
        if isinstance(self.threshold, bool) or not isinstance(self.threshold, int):
            raise RulesetError("The end threshold must be a whole number.")
        if not MIN_THRESHOLD <= self.threshold <= MAX_THRESHOLD:
            raise RulesetError(
                f"The end threshold must be between {MIN_THRESHOLD} and {MAX_THRESHOLD} points."
            )

    @property
    def min_players(self) -> int:
        return MIN_PLAYERS

    @property
    def max_players(self) -> int:
        return MAX_PLAYERS

    def check_players(self, count: int) -> None:
        # Exactly an int: not a bool, a float or a string of digits.
        if type(count) is not int or not MIN_PLAYERS <= count <= MAX_PLAYERS:
            raise RulesetError(
                f"L.A.M.A. needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {count}."
            )

    @property
    def variants(self) -> tuple[str, ...]:
        """The names of the variants in use, in a fixed order."""
        return tuple(n for n in ("no_drama", "party", "komarami") if getattr(self, n))

    def to_json(self) -> dict[str, Any]:
        return {
            "no_drama": self.no_drama,
            "party": self.party,
            "komarami": self.komarami,
            "threshold": self.threshold,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Ruleset:
        if not isinstance(data, dict):
            raise RulesetError(f"The table options must be a mapping, not {type(data).__name__}.")
        return cls(
            no_drama=data.get("no_drama", False),
            party=data.get("party", False),
            komarami=data.get("komarami", False),
            threshold=data.get("threshold", DEFAULT_THRESHOLD),
        )
