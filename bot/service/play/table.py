"""The in-memory state of one channel's table: a lobby or a running game."""

from __future__ import annotations

import asyncio
import re
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from data.records import ABANDONED, AWAY, CANCELLED, IDLE_GAME
from game import Match, Ruleset
from game.ai import Strength

# Lines of recent moves kept: the table lists every line it hasn't shown yet (an
# edit held for AI moves shows them all), at least its last six; those it could not
# list before they fell off (its edits failing for long) it counts.
RECENT_MOVES = 24

#: How an AI seat's name is stored: its number at the table, in one fixed form the
#: front end turns into the reader's language ("KI 1", "IA 1"). Games saved before
#: the names were translated hold this very form, so they read the same way.
_AI_NAME = "AI {number}"
_AI_NUMBER = re.compile(r"AI ([1-9][0-9]?)")


def ai_name(number: int) -> str:
    """The stored name of the table's ``number``-th AI seat."""
    return _AI_NAME.format(number=number)


def ai_number(name: str) -> int | None:
    """The number in an AI seat's stored name (see :func:`ai_name`), else None."""
    found = _AI_NUMBER.fullmatch(name)
    return int(found[1]) if found else None


class Status(StrEnum):
    LOBBY = "lobby"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass
class Seat:
    user_id: int | None  # None for an AI seat
    ai: Strength | None
    name: str
    missed_turns: int = 0
    away: bool = False  # a human seat played by a stand-in AI until they come back

    @property
    def human(self) -> bool:
        return self.user_id is not None

    @property
    def controller(self) -> Strength | None:
        """The AI that moves for this seat now, if any."""
        if self.ai is not None:
            return self.ai
        return Strength.NORMAL if self.away else None


def unconfirmed(seat: Seat) -> bool:
    """A lobby seat a Rematch gave a person of the old game who hasn't confirmed it (with
    Join) yet: kept as ``away`` (they aren't here), left out at the start, so nobody
    plays, is pinged or is rated in a game they didn't join themselves."""
    return seat.human and seat.away


def ai_seat_error(seat: Seat) -> str:
    """Why a player whose seat an AI plays can't move or ask a hint: away (their
    "I'm back" gives it back), or kicked or gone for the rest of the game."""
    return "error.kicked" if seat.ai is not None else "error.seat_is_ai"


def all_humans_gone(table: Table) -> bool:
    """Every seat of a running game is played by an AI: nobody is left to play for."""
    return table.status is Status.RUNNING and all(s.controller is not None for s in table.seats)


def everyone_away(seats: Sequence[Seat]) -> bool:
    """Every seat is played by an AI, and some only because its person is away (missed
    their turns, not left): the game waits for them to be back."""
    return all(s.controller is not None for s in seats) and any(s.away for s in seats)


def waiting(table: Table) -> bool:
    """A running game stands still until a person away is back (or ``waits_until``)."""
    return table.status is Status.RUNNING and table.waits_until is not None


def ended_away(table: Table) -> bool:
    """The game ended because none of its people, all away, was back in time: its
    players may have a rematch, as of a finished game."""
    return table.status is Status.CANCELLED and table.end_reason == AWAY


def only_person(table: Table) -> int | None:
    """The one person at a table whose other seats are AIs' (or people's who left or were
    kicked): a game against AIs keeps its channel for them alone.  None otherwise."""
    people = [s.user_id for s in table.seats if s.user_id is not None and s.ai is None]
    return people[0] if len(people) == 1 else None


def persons_turn(table: Table, stamp: int) -> int | None:
    """The seat to move at turn ``stamp`` of a running game while its person plays it:
    None once that turn is over, or once an AI plays the seat (kicked, left or away),
    though it is still the same turn. What a turn's clock does for its person, it does
    only then."""
    match = table.match
    if match is None or table.stamp != stamp or table.status is not Status.RUNNING:
        return None
    seat = match.to_move
    if seat is None or table.seats[seat].controller is not None:
        return None
    return seat


def changed_seat(seats: Sequence[Seat], index: int, **changes: Any) -> list[Seat]:
    """The seats with seat ``index`` changed, as a new list: the table's own
    stay as they are until the change is saved."""
    return [replace(s, **changes) if i == index else s for i, s in enumerate(seats)]


@dataclass(frozen=True, slots=True)
class MoveLine:
    """One line of the table's recent moves."""

    seat: int
    kind: str  # play | draw | quit | timeout | deal | kicked | left | back | takeover
    card: int | None = None
    #: A takeover's turns missed in a row (the service's Timing.misses_before_takeover
    #: when it happened): the line says how many, as the service counted them.
    count: int | None = None


class MoveLog(deque[MoveLine]):
    """The table's last ``RECENT_MOVES`` lines, and how many lines its game has had
    in all: a table that could not be edited for a while can count the lines that
    fell off before it listed them."""

    def __init__(self, lines: Iterable[MoveLine] = (), maxlen: int | None = RECENT_MOVES) -> None:
        super().__init__(lines, maxlen)
        self.total = len(self)

    def append(self, line: MoveLine) -> None:
        super().append(line)
        self.total += 1

    def extend(self, lines: Iterable[MoveLine]) -> None:
        for line in lines:
            self.append(line)

    @property
    def start(self) -> int:
        """The place of the oldest line kept among all the game's lines (0 for its first)."""
        return self.total - len(self)


#: Why the service ends a game or closes a lobby (kept as games.end_reason, the key of
#: what its table and its old hands say): the host cancelled it, it closed empty or
#: without its host, nobody changed the lobby or moved in the game for long, every seat
#: was left to an AI, nobody came back in time from being away.  A reason a newer
#: version stored is none of these: rolled back, the bot says just that the game was
#: cancelled.
END_REASONS = frozenset(
    {CANCELLED, "closed.empty", "closed.no_host", "closed.idle", IDLE_GAME, ABANDONED, AWAY}
)


@dataclass
class Table:
    game_id: int
    guild_id: int
    channel_id: int
    host_id: int
    ruleset: Ruleset
    turn_timer: int  # seconds, 0 = off
    locale: str  # language of the public messages
    seats: list[Seat]
    status: Status = Status.LOBBY
    hints: bool = True  # players may ask Hard for a hint (the host may turn it off)
    match: Match | None = None
    turn_deadline: float | None = None  # unix time
    warned: bool = False
    opened_at: float = 0.0
    active_at: float = 0.0  # unix time of the last change of a running game
    recent: MoveLog = field(default_factory=MoveLog)
    #: Once finished and rated: each person's seat's rating change in the game's season,
    #: on the shown scale (seat: +18); empty while not rated.
    rating_changes: dict[int, int] = field(default_factory=dict)
    #: …and each such seat's rating after the game in that season, as shown (seat: 1018).
    ratings_after: dict[int, int] = field(default_factory=dict)
    #: A lobby's people removed by its host (or a manager), stored: they may not join again.
    removed: set[int] = field(default_factory=set)
    #: Why it was cancelled, once it was (an i18n key: ``closed.idle_game``…), stored.
    end_reason: str | None = None
    #: A cancelled game that is rated all the same (as it stood, or as its leavers' loss).
    rated_end: bool = False
    #: Until when a game whose every person is away waits for one to be back (unix
    #: time, stored; None while someone plays): its AIs stand still meanwhile. Kept
    #: once it ended so (``ended_away``): the time it waited until.
    waits_until: float | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    notice_lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)

    @property
    def stamp(self) -> int:
        """Changes with every event: a button drawn for an older stamp is stale."""
        return len(self.match.events) if self.match is not None else 0

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    @property
    def humans(self) -> list[int]:
        return [s.user_id for s in self.seats if s.user_id is not None]

    @property
    def to_move(self) -> int | None:
        return self.match.to_move if self.match is not None else None

    @property
    def live(self) -> bool:
        return self.status in (Status.LOBBY, Status.RUNNING)
