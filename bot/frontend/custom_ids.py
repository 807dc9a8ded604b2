"""Typed custom_ids: one frozen dataclass and one parser per button family, and their builders.

Every custom_id holds identifiers only (``lama:<action>:<game>[:<stamp>[:<card>]]``);
the state they act on lives in the game service and the store.  A family is
the buttons one handler answers: the lobby's, the hints', the table's, the
moves of a hand, a seat's card count, the leaderboard's paging and a replay's
steps; the Add AI select has an id of its own (``lama-ai:<game>``), and its pick
is an :class:`AIPick`; so has the house rules select (``lama-rule:<game>``), its pick a
:class:`RulePick`, each option's value ``<dimension>=<value>`` (:func:`rule_value`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, Self, TypeVar, cast, get_args

from data.records import ALL_TIME, HOUSE_RULES, LEADERBOARD_ORDERS
from game import Card
from game.ai import Strength
from game.rules import DIMENSIONS

#: The actions of each family, as the custom_id spells them.
LobbyAction = Literal["join", "leave", "start", "cancel", "rematch", "dropai", "hints", "house"]
HintAction = Literal["hint", "review"]
TableAction = Literal["hand", "rules", "back"]
MoveAction = Literal["play", "draw", "quit"]
#: A replay's buttons; ``open`` (a finished table's, a history row's) sends a new replay.
ReplayAction = Literal["first", "back", "next", "last", "round", "open"]

#: The largest number a custom_id or a command option may carry: the store's integers are
#: 64-bit (SQLite's INTEGER, PostgreSQL's BIGINT), so a bigger one could not be looked up.
MAX_STORED = 2**63 - 1
_NUMBER = r"[0-9]{1,19}"


def fits_store(number: int) -> bool:
    """Whether ``number`` is an id or a count the store can hold: from 0 to MAX_STORED."""
    return 0 <= number <= MAX_STORED


def stored_number(typed: str) -> int | None:
    """A number typed into an option, if it is one the store can hold; else None.

    Counted by its digits first: Python refuses to read more than 4,300 of them, and
    Discord lets a text option hold 6,000.
    """
    if not typed.isdecimal() or len(typed) > len(str(MAX_STORED)):
        return None
    number = int(typed)
    return number if fits_store(number) else None


def _numbers(m: re.Match[str], *names: str) -> list[int] | None:
    """The named groups of ``m`` as numbers, or None if one is too big for the store."""
    numbers = [int(m[name]) for name in names]
    return numbers if all(fits_store(n) for n in numbers) else None


# ---------------------------------------------------------------- the families
A = TypeVar("A", LobbyAction, HintAction, TableAction)


@dataclass(frozen=True, slots=True)
class _GameButton(Generic[A]):
    """A button of one game with no more to it than its action: ``lama:<action>:<game>``."""

    ACTIONS: ClassVar[frozenset[str]] = frozenset()
    PATTERN: ClassVar[re.Pattern[str]] = re.compile(rf"(?P<action>[a-z]+):(?P<game>{_NUMBER})")
    action: A
    game_id: int

    @property
    def custom_id(self) -> str:
        return f"lama:{self.action}:{self.game_id}"

    @classmethod
    def from_match(cls, m: re.Match[str]) -> Self | None:
        numbers = _numbers(m, "game")
        # The action is one of the family's: _FAMILY picked this class by it.
        return None if numbers is None else cls(cast(A, m["action"]), numbers[0])


@dataclass(frozen=True, slots=True)
class LobbyButtonId(_GameButton[LobbyAction]):
    """Join, Leave, Start, Cancel, Remove AI, Hints on/off, House rules (the host's private
    select), and a finished game's Rematch."""

    ACTIONS: ClassVar[frozenset[str]] = frozenset(get_args(LobbyAction))


@dataclass(frozen=True, slots=True)
class HintButtonId(_GameButton[HintAction]):
    """The Hint button of a hand and the review button of a finished game."""

    ACTIONS: ClassVar[frozenset[str]] = frozenset(get_args(HintAction))


@dataclass(frozen=True, slots=True)
class TableButtonId(_GameButton[TableAction]):
    """Show my hand (also a hand's Refresh), Rules and I'm back."""

    ACTIONS: ClassVar[frozenset[str]] = frozenset(get_args(TableAction))


@dataclass(frozen=True, slots=True)
class MoveId:
    """A move on a hand, at the game's ``stamp``: ``lama:play:<game>:<stamp>:<card>``,
    ``lama:draw:<game>:<stamp>``, ``lama:quit:<game>:<stamp>``."""

    ACTIONS: ClassVar[frozenset[str]] = frozenset(get_args(MoveAction))
    PATTERN: ClassVar[re.Pattern[str]] = re.compile(
        rf"(?P<action>play|draw|quit):(?P<game>{_NUMBER}):(?P<stamp>{_NUMBER})"
        r"(?::(?P<card>[0-9]{1,2}))?"
    )
    action: MoveAction
    game_id: int
    stamp: int
    card: Card | None = None

    @property
    def custom_id(self) -> str:
        base = f"lama:{self.action}:{self.game_id}:{self.stamp}"
        return base if self.card is None else f"{base}:{int(self.card)}"

    @classmethod
    def from_match(cls, m: re.Match[str]) -> MoveId | None:
        numbers = _numbers(m, "game", "stamp")
        if numbers is None:
            return None
        (game_id, stamp), action = numbers, cast(MoveAction, m["action"])
        if action != "play":
            return None if m["card"] is not None else cls(action, game_id, stamp)
        if m["card"] is None:
            return None
        try:
            card = Card(int(m["card"]))
        except ValueError:
            return None
        return cls(action, game_id, stamp, card)


@dataclass(frozen=True, slots=True)
class SeatId:
    """A seat's card count beside it on the table, a button no one can press:
    ``lama:seat:<game>:<seat>``."""

    ACTIONS: ClassVar[frozenset[str]] = frozenset({"seat"})
    PATTERN: ClassVar[re.Pattern[str]] = re.compile(
        rf"seat:(?P<game>{_NUMBER}):(?P<seat>[0-9]{{1,2}})"
    )
    game_id: int
    seat: int

    @property
    def custom_id(self) -> str:
        return f"lama:seat:{self.game_id}:{self.seat}"

    @classmethod
    def from_match(cls, m: re.Match[str]) -> SeatId | None:
        numbers = _numbers(m, "game", "seat")
        return None if numbers is None else cls(numbers[0], numbers[1])


#: A leaderboard's orders, by their index in a :class:`BoardId`: the store's old three
#: (all time) first, so the ids made before the ratings keep their meaning, then the rating.
BOARD_ORDERS = (*LEADERBOARD_ORDERS, "rating")


#: The board scopes a :class:`BoardId` spells as words.
_SCOPE_WORDS = {ALL_TIME: "all", HOUSE_RULES: "house"}


@dataclass(frozen=True, slots=True)
class BoardId:
    """A leaderboard's Previous, Next or other board: the server, the page it shows, the
    order and the season (its key, ``all`` for all time, ``house`` for the house-rules
    board, by rating only), ``lama:board:<guild>:<page>:<order index>:<season>``.

    An id from before the seasons (``lama:board:<guild>:<page>:<order index>``, one of the
    three old orders) still means what it meant: that order over all time.
    """

    ACTIONS: ClassVar[frozenset[str]] = frozenset({"board"})
    PATTERN: ClassVar[re.Pattern[str]] = re.compile(
        # The place: a server's id, or minus a group DM's (a place of its own).
        rf"board:(?P<guild>-?{_NUMBER}):(?P<page>{_NUMBER}):(?P<order>[0-9]{{1,2}})"
        rf"(?::(?P<season>all|house|{_NUMBER}))?"
    )
    guild_id: int
    page: int
    order: str
    season: int = ALL_TIME  # a season's key, ALL_TIME or HOUSE_RULES

    @property
    def custom_id(self) -> str:
        season = _SCOPE_WORDS.get(self.season, str(self.season))
        order = BOARD_ORDERS.index(self.order)
        return f"lama:board:{self.guild_id}:{self.page}:{order}:{season}"

    @classmethod
    def from_match(cls, m: re.Match[str]) -> BoardId | None:
        guild = int(m["guild"])
        numbers = _numbers(m, "page") if fits_store(abs(guild)) else None
        order = int(m["order"])
        season = m["season"]
        # The old ids had no season and knew only the old orders.
        known = BOARD_ORDERS if season is not None else LEADERBOARD_ORDERS
        if numbers is None or order >= len(known):
            return None
        if season is None or season == "all":
            key = ALL_TIME
        elif season == "house":
            if known[order] != "rating":  # the house-rules board is one of ratings
                return None
            key = HOUSE_RULES
        elif fits_store(int(season)):
            key = int(season)
        else:
            return None
        return cls(guild, numbers[0], known[order], key)


@dataclass(frozen=True, slots=True)
class ReplayId:
    """A replay's button: the game, the step it shows (0-based) and which button it is,
    ``lama:replay:<game>:<step>:<action>``. The step is the one to show, so the click
    needs nothing kept in memory (and the buttons of one message never share an id)."""

    ACTIONS: ClassVar[frozenset[str]] = frozenset({"replay"})
    PATTERN: ClassVar[re.Pattern[str]] = re.compile(
        rf"replay:(?P<game>{_NUMBER}):(?P<step>{_NUMBER}):"
        rf"(?P<action>{'|'.join(get_args(ReplayAction))})"
    )
    game_id: int
    step: int
    action: ReplayAction

    @property
    def custom_id(self) -> str:
        return f"lama:replay:{self.game_id}:{self.step}:{self.action}"

    @classmethod
    def from_match(cls, m: re.Match[str]) -> ReplayId | None:
        numbers = _numbers(m, "game", "step")
        if numbers is None:
            return None
        return cls(numbers[0], numbers[1], cast(ReplayAction, m["action"]))


@dataclass(frozen=True, slots=True)
class AIPick:
    """What the Add AI select of a lobby picked."""

    game_id: int
    strength: Strength


def add_ai_id(game_id: int) -> str:
    """The Add AI select of a lobby: ``lama-ai:<game>`` (its pick is an :class:`AIPick`)."""
    return f"lama-ai:{game_id}"


@dataclass(frozen=True, slots=True)
class RulePick:
    """What the house rules select of a lobby picked: a rule dimension and its new value."""

    game_id: int
    name: str
    value: Any


def rule_id(game_id: int) -> str:
    """The house rules select of a lobby: ``lama-rule:<game>`` (its pick is a :class:`RulePick`)."""
    return f"lama-rule:{game_id}"


def rule_value(name: str, value: Any) -> str:
    """A house rule select option's value: ``hand_size=7``, ``plus_cards=true``."""
    shown = str(value).lower() if isinstance(value, bool) else str(getattr(value, "value", value))
    return f"{name}={shown}"


#: Each option value the lobby may offer, and the dimension and value it stands for.
_RULE_VALUES: dict[str, tuple[str, Any]] = {
    rule_value(d.name, v): (d.name, v) for d in DIMENSIONS for v in d.choices
}


def parse_rule(value: str) -> tuple[str, Any] | None:
    """The dimension and value an option stands for; None for one the lobby never offers."""
    return _RULE_VALUES.get(value)


#: The id of any ``lama:`` button; every family but the leaderboard's and the replays'
#: is of one game's table, and acts only in the game's channel.
GameButtonId = LobbyButtonId | HintButtonId | TableButtonId | MoveId | SeatId
ButtonId = GameButtonId | BoardId | ReplayId
_Family = (
    type[LobbyButtonId]
    | type[HintButtonId]
    | type[TableButtonId]
    | type[MoveId]
    | type[SeatId]
    | type[BoardId]
    | type[ReplayId]
)
#: Each action's family.
_FAMILY: dict[str, _Family] = {
    action: family
    for family in (LobbyButtonId, HintButtonId, TableButtonId, MoveId, SeatId, BoardId, ReplayId)
    for action in family.ACTIONS
}


def parse(body: str) -> ButtonId | None:
    """The meaning of a custom_id body (after ``lama:``), or None if it is not one we ever made
    (also when a number in it is too big for the store: 19 digits reach past 2**63 - 1)."""
    family = _FAMILY.get(body.partition(":")[0])
    if family is None:
        return None
    m = family.PATTERN.fullmatch(body)
    return None if m is None else family.from_match(m)
