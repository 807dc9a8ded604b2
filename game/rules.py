"""The rules a game is played with: rule dimensions as data, and the editions as presets.

A :class:`Ruleset` is one value for each rule dimension (:data:`DIMENSIONS` names and
documents each once). The published editions are :data:`PRESETS`, each a few dimension
values; they combine, as ``../shared/RULES.md`` says. Everything else in the project reads
the dimensions, never an edition's name, except where it shows the name.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import InitVar, dataclass
from enum import StrEnum
from typing import Any

MIN_PLAYERS = 2
MAX_PLAYERS = 6
HAND_SIZE = 6
DEFAULT_THRESHOLD = 40
MIN_THRESHOLD = 1
MAX_THRESHOLD = 200
MIN_HAND_SIZE = 1
MAX_HAND_SIZE = 12
MAX_COPIES = 12


class RulesetError(ValueError):
    """A ruleset that cannot be played; the message says why."""


class LlamaCost(StrEnum):
    """What the llamas left in a hand cost at the end of a round."""

    ONCE = "once"  # 10 for one or more (the base game)
    EACH = "each"  # 10 for every llama (Lato z Komarami)


class ChipBack(StrEnum):
    """Which chip a player who emptied their hand gives back."""

    LARGEST = "largest"  # any chip, their choice: the engine returns the largest (ruling)
    WHITE = "white"  # one white chip (a larger one changed first): 1 point
    NONE = "none"  # nothing: emptying the hand only saves this round's points


@dataclass(frozen=True, slots=True)
class Dimension:
    """One rule dimension: the :class:`Ruleset` field that holds it, and the values a host
    may pick for it in the lobby (every combination of these is playable)."""

    name: str
    choices: tuple[Any, ...]


#: Every rule dimension, in the order the lobby and the rules text list them. The
#: threshold is a dimension too, chosen as a number rather than from a list.
DIMENSIONS: tuple[Dimension, ...] = (
    # The deck: copies of each number card 1-6, and ordinary llamas.
    Dimension("copies", (8,)),
    Dimension("llamas", (6, 7, 8)),
    # Plus cards 1+..6+, one each: played like their number, then the player goes again.
    Dimension("plus_cards", (False, True)),
    # One pink llama: goes on any card; only a llama or a 1 follows it; costs 20.
    Dimension("pink_llama", (False, True)),
    # Llamas left in a hand cost 10 once, or 10 each.
    Dimension("llama_cost", tuple(LlamaCost)),
    # The No Drama card: the latest quitter holds it and discards a card before scoring.
    Dimension("no_drama_card", (False, True)),
    # Pink chips worth 20 besides white 1s and black 10s.
    Dimension("pink_chips", (False, True)),
    # Cards dealt to each player every round.
    Dimension("hand_size", (4, 5, 6, 7, 8)),
    # Whether the last player left in a round may still draw (the rules say no).
    Dimension("last_player_draws", (False, True)),
    # Which chip an emptied hand gives back.
    Dimension("chip_back", tuple(ChipBack)),
)


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One value for each rule dimension (see :data:`DIMENSIONS`) and the end threshold.

    ``no_drama``, ``party`` and ``komarami`` are switches, not fields: each applies its
    edition's preset (:data:`PRESETS`), so ``Ruleset(party=True)`` is the Party Edition.
    Prefer :meth:`compose` in new code.
    """

    copies: int = 8
    llamas: int = 8
    plus_cards: bool = False
    pink_llama: bool = False
    llama_cost: LlamaCost = LlamaCost.ONCE
    no_drama_card: bool = False
    pink_chips: bool = False
    threshold: int = DEFAULT_THRESHOLD
    hand_size: int = HAND_SIZE
    last_player_draws: bool = False
    chip_back: ChipBack = ChipBack.LARGEST
    no_drama: InitVar[bool] = False
    party: InitVar[bool] = False
    komarami: InitVar[bool] = False

    def __post_init__(self, no_drama: bool, party: bool, komarami: bool) -> None:
        switches = {"no_drama": no_drama, "party": party, "komarami": komarami}
        for key, on in switches.items():
            if not isinstance(on, bool):
                raise RulesetError(f"The option {key} must be true or false.")
            if on:
                for name, value in PRESETS[key].items():
                    if getattr(self, name) != _DEFAULTS[name] and getattr(self, name) != value:
                        raise RulesetError(f"The option {key} sets {name} to {value}.")
                    object.__setattr__(self, name, value)
        self._check()

    def _check(self) -> None:
        for name in (
            "plus_cards",
            "pink_llama",
            "no_drama_card",
            "pink_chips",
            "last_player_draws",
        ):
            if not isinstance(getattr(self, name), bool):
                raise RulesetError(f"The option {name} must be true or false.")
        for name, kind in (("llama_cost", LlamaCost), ("chip_back", ChipBack)):
            try:
                object.__setattr__(self, name, kind(getattr(self, name)))
            except ValueError:
                raise RulesetError(f"The option {name} must be one of {', '.join(kind)}.") from None
        _whole(self.threshold, "The end threshold", MIN_THRESHOLD, MAX_THRESHOLD, "points")
        _whole(self.hand_size, "The hand size", MIN_HAND_SIZE, MAX_HAND_SIZE, "cards")
        _whole(self.copies, "The copies of each number", 1, MAX_COPIES, "cards")
        _whole(self.llamas, "The llamas", 0, MAX_COPIES, "cards")
        # Every player gets a full hand and one card turns up, even at a full table.
        needed = MAX_PLAYERS * self.hand_size + 1
        if self.deck_size < needed:
            raise RulesetError(
                f"A deck of {self.deck_size} cards can't deal {MAX_PLAYERS} hands of "
                f"{self.hand_size}; it needs at least {needed}."
            )

    @classmethod
    def compose(cls, *presets: str, **dimensions: Any) -> Ruleset:
        """The base game, with ``presets`` (keys of :data:`PRESETS`) applied in turn, then
        ``dimensions`` (field names) set. Raises :class:`RulesetError` for an unknown name."""
        values: dict[str, Any] = {}
        for key in presets:
            if key not in PRESETS:
                raise RulesetError(f"There is no edition {key!r}.")
            values.update(PRESETS[key])
        for name in dimensions:
            if name not in _DEFAULTS:
                raise RulesetError(f"There is no rule {name!r}.")
        values.update(dimensions)
        return cls(**values)

    def with_changes(self, **dimensions: Any) -> Ruleset:
        """This ruleset with some dimensions changed (checked like a new one)."""
        for name in dimensions:
            if name not in _DEFAULTS:
                raise RulesetError(f"There is no rule {name!r}.")
        return dataclasses.replace(self, **dimensions)

    @property
    def deck_size(self) -> int:
        return 6 * self.copies + self.llamas + 6 * self.plus_cards + self.pink_llama

    @property
    def presets(self) -> tuple[str, ...]:
        """The editions whose every dimension this ruleset has, in :data:`PRESETS`' order."""
        return tuple(
            key
            for key, changes in PRESETS.items()
            if all(getattr(self, name) == value for name, value in changes.items())
        )

    @property
    def house_rules(self) -> tuple[str, ...]:
        """The dimensions (in :data:`DIMENSIONS`' order) where this ruleset differs from its
        editions (:attr:`presets`) combined; the threshold, a table option of every
        edition, is never one."""
        base = Ruleset.compose(*self.presets)
        return tuple(d.name for d in DIMENSIONS if getattr(self, d.name) != getattr(base, d.name))

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

    def to_json(self) -> dict[str, Any]:
        return {name: _plain(getattr(self, name)) for name in _DEFAULTS}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Ruleset:
        """A stored ruleset. Games stored before the dimensions hold only the edition
        switches (``no_drama``, ``party``, ``komarami``) and the threshold; they read as the
        same rules."""
        if not isinstance(data, dict):
            raise RulesetError(f"The table options must be a mapping, not {type(data).__name__}.")
        known = {k: v for k, v in data.items() if k in _DEFAULTS or k in PRESETS}
        return cls(**known)


#: The editions, each as the dimension values it changes from the base game. The keys
#: are the catalogs' keys (``variant.<key>``, ``rules.<key>``).
PRESETS: Mapping[str, Mapping[str, Any]] = {
    "no_drama": {"no_drama_card": True},
    "party": {"plus_cards": True, "pink_llama": True, "pink_chips": True},
    "komarami": {"llamas": 7, "llama_cost": LlamaCost.EACH},
}

_DEFAULTS: dict[str, Any] = {
    f.name: f.default for f in dataclasses.fields(Ruleset) if f.name in Ruleset.__slots__
}


def _whole(value: object, what: str, low: int, high: int, unit: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesetError(f"{what} must be a whole number.")
    if not low <= value <= high:
        raise RulesetError(f"{what} must be between {low} and {high} {unit}.")


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, StrEnum) else value
