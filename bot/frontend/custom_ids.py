"""Typed custom_ids: one frozen dataclass and one parser per button family, and their builders.

Every custom_id holds identifiers only (``lama:<action>:<game>[:<stamp>[:<card>]]``);
the state they act on lives in the game service and the store.  A family is
the buttons one handler answers: the lobby's, the hints', the table's, the
moves of a hand, a seat's card count and the leaderboard's paging; the Add AI
select has an id of its own (``lama-ai:<game>``), and its pick is an
:class:`AIPick`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Self

from data.records import LEADERBOARD_ORDERS
from game import Card
from game.ai import Strength

#: A seat's card count on the table: ``lama:seat:<game>:<seat>``, a button no one can press.
SEAT_ACTION = "seat"
#: Leaderboard paging: ``lama:board:<guild>:<page>:<order index>``.
BOARD_ACTION = "board"


# ---------------------------------------------------------------- builders
def table_id(action: str, game_id: int) -> str:
    return f"lama:{action}:{game_id}"


def hand_id(game_id: int) -> str:
    return table_id("hand", game_id)


def seat_id(game_id: int, seat: int) -> str:
    return f"lama:{SEAT_ACTION}:{game_id}:{seat}"


def move_id(action: str, game_id: int, stamp: int, card: int | None = None) -> str:
    base = f"lama:{action}:{game_id}:{stamp}"
    return base if card is None else f"{base}:{card}"


def board_id(guild_id: int, page: int, order: str) -> str:
    return f"lama:{BOARD_ACTION}:{guild_id}:{page}:{LEADERBOARD_ORDERS.index(order)}"


def add_ai_id(game_id: int) -> str:
    return f"lama-ai:{game_id}"


# ---------------------------------------------------------------- the families
@dataclass(frozen=True, slots=True)
class _TableAction:
    """A button of one game with no more to it than its action: ``lama:<action>:<game>``."""

    ACTIONS: ClassVar[frozenset[str]] = frozenset()
    action: str
    game_id: int

    @property
    def custom_id(self) -> str:
        return table_id(self.action, self.game_id)

    @classmethod
    def from_match(cls, m: re.Match[str]) -> Self | None:
        return None if m["stamp"] is not None else cls(m["action"], int(m["game"]))


@dataclass(frozen=True, slots=True)
class LobbyButtonId(_TableAction):
    """Join, Leave, Start, Cancel, Remove AI, Hints on/off, and a finished game's Rematch."""

    ACTIONS: ClassVar[frozenset[str]] = frozenset(
        {"join", "leave", "start", "cancel", "rematch", "dropai", "hints"}
    )


@dataclass(frozen=True, slots=True)
class HintButtonId(_TableAction):
    """The Hint button of a hand and the review button of a finished game."""

    ACTIONS: ClassVar[frozenset[str]] = frozenset({"hint", "review"})


@dataclass(frozen=True, slots=True)
class TableButtonId(_TableAction):
    """Show my hand (also a hand's Refresh), Rules and I'm back."""

    ACTIONS: ClassVar[frozenset[str]] = frozenset({"hand", "rules", "back"})


@dataclass(frozen=True, slots=True)
class MoveId:
    """A move on a hand, at the game's ``stamp``: ``lama:play:<game>:<stamp>:<card>``,
    ``lama:draw:<game>:<stamp>``, ``lama:quit:<game>:<stamp>``."""

    ACTIONS: ClassVar[frozenset[str]] = frozenset({"play", "draw", "quit"})
    action: str
    game_id: int
    stamp: int
    card: Card | None = None

    @property
    def custom_id(self) -> str:
        card = None if self.card is None else int(self.card)
        return move_id(self.action, self.game_id, self.stamp, card)

    @classmethod
    def from_match(cls, m: re.Match[str]) -> MoveId | None:
        if m["stamp"] is None:
            return None
        action, game_id, stamp = m["action"], int(m["game"]), int(m["stamp"])
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
    """A seat's card count beside it on the table."""

    game_id: int
    seat: int

    @property
    def custom_id(self) -> str:
        return seat_id(self.game_id, self.seat)

    @classmethod
    def from_match(cls, m: re.Match[str]) -> SeatId | None:
        if m["stamp"] is None or m["card"] is not None:
            return None
        return cls(int(m["game"]), int(m["stamp"]))


@dataclass(frozen=True, slots=True)
class BoardId:
    """A leaderboard's Previous or Next: the server, the page it shows and the order."""

    guild_id: int
    page: int
    order: str

    @property
    def custom_id(self) -> str:
        return board_id(self.guild_id, self.page, self.order)

    @classmethod
    def from_match(cls, m: re.Match[str]) -> BoardId | None:
        if m["stamp"] is None or m["card"] is None:
            return None
        order = int(m["card"])
        if order >= len(LEADERBOARD_ORDERS):
            return None
        return cls(int(m["game"]), int(m["stamp"]), LEADERBOARD_ORDERS[order])


@dataclass(frozen=True, slots=True)
class AIPick:
    """What the Add AI select of a lobby picked."""

    game_id: int
    strength: Strength


#: The id of any ``lama:`` button; every family but the leaderboard's is of one game.
GameButtonId = LobbyButtonId | HintButtonId | TableButtonId | MoveId | SeatId
ButtonId = GameButtonId | BoardId

_NUMBER = r"[0-9]{1,19}"
_BODY = re.compile(
    rf"(?P<action>[a-z]{{2,10}}):(?P<game>{_NUMBER})(?::(?P<stamp>{_NUMBER}))?(?::(?P<card>[0-9]{{1,2}}))?"
)
#: Each action's parser: its family's.
_PARSER: dict[str, Callable[[re.Match[str]], ButtonId | None]] = {
    **dict.fromkeys(LobbyButtonId.ACTIONS, LobbyButtonId.from_match),
    **dict.fromkeys(HintButtonId.ACTIONS, HintButtonId.from_match),
    **dict.fromkeys(TableButtonId.ACTIONS, TableButtonId.from_match),
    **dict.fromkeys(MoveId.ACTIONS, MoveId.from_match),
    SEAT_ACTION: SeatId.from_match,
    BOARD_ACTION: BoardId.from_match,
}


#: The largest number a custom_id or a command option may carry: the store's integers are
#: 64-bit (SQLite's INTEGER, PostgreSQL's BIGINT), so a bigger one could not be looked up.
MAX_STORED = 2**63 - 1


def fits_store(number: int) -> bool:
    """Whether ``number`` is an id or a count the store can hold: from 0 to MAX_STORED."""
    return 0 <= number <= MAX_STORED


def parse(body: str) -> ButtonId | None:
    """The meaning of a custom_id body (after ``lama:``), or None if it is not one we ever made
    (also when a number in it is too big for the store: 19 digits reach past 2**63 - 1)."""
    m = _BODY.fullmatch(body)
    if m is None or not all(fits_store(int(n)) for n in (m["game"], m["stamp"]) if n):
        return None
    parser = _PARSER.get(m["action"])
    return None if parser is None else parser(m)
