"""What the store hands out: small frozen records, and the one error it raises."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from game import Event, Ruleset

#: Every status a game can be in; ``lobby`` and ``running`` games are resumed.
STATUSES = ("lobby", "running", "finished", "cancelled")
#: Strengths of an AI seat.
AI_STRENGTHS = ("easy", "normal", "hard")
#: Orders a leaderboard can be sorted by.
LEADERBOARD_ORDERS = ("wins", "win_rate", "average")
#: The season key of the ratings over all time (a season's key is its start, unix seconds).
ALL_TIME = -1
#: The scope key of a server's house-rules board: the games with house rules, over all
#: time, when the server rates them on a board of their own (no season is ever keyed so).
HOUSE_RULES = -2
#: Why a running game was cancelled when no person played at it any more (the last one
#: left, was kicked, or is away): such a game is rated, leavers last, if someone is left to
#: rank ahead of them (an AI seat, a person away who made most of their own moves), and
#: then its ``finished_at`` is when it ended.
ABANDONED = "closed.abandoned"
#: Why a running game was cancelled when every person at it was away (they missed their
#: turns; nobody left) and none was back by the time it waited until (its ``waits_until``):
#: rated as an :data:`ABANDONED` one is, and then its ``finished_at`` is when it ended.
AWAY = "closed.away"
#: Why a running game without a turn timer was cancelled when nobody moved in it for long.
#: One stored with a :data:`STALLED` note (the versions before stored none) is rated, its
#: staller last, and then its ``finished_at`` is when it ended.
IDLE_GAME = "closed.idle_game"
#: The seat note of the person whose turn it was when a game was cancelled as
#: :data:`IDLE_GAME`, who let it stall: rated as having left it.
STALLED = "stalled"
#: Why a game was cancelled by its host or a member who may manage the server.  A running
#: one cancelled once a person other than the canceller made a move (or by its only person
#: still playing after a move of theirs) is rated as it stood, with its ``finished_at``
#: when it ended: a canceller who played it stored with the :data:`CANCELLER` note of
#: their seat, rated as their leaving (the versions before rated only the only person
#: still playing so).
CANCELLED = "closed.cancelled"
#: The seat note of a person playing a running game who cancelled it: rated as having
#: left it (no line of the game's moves: its table says the host cancelled it).
CANCELLER = "cancelled"
#: (status, end reason, note kind) of the games cancelled with the note of the seat whose
#: going rates them (``Games.set_status(gone=)``).
RATED_BY_NOTE = frozenset({("cancelled", IDLE_GAME, STALLED), ("cancelled", CANCELLED, CANCELLER)})
#: The name a forgotten person's seats keep (``forget``), in English, for every reader's
#: language to render as its own.
FORMER_PLAYER = "former player"


def former_player(user_id: int | None, name: str) -> bool:
    """Whether a stored seat is a forgotten person's: kept as a Normal AI's (so the game
    still replays and rates), but to be shown as the former player, not as an AI."""
    return user_id is None and name == FORMER_PLAYER


class StoreError(Exception):
    """A unit of work could not be saved or loaded; nothing of it was written.

    The service shows the player a short "could not save" and logs the message.
    """


class ChannelBusy(StoreError):
    """A new game was refused: its channel already has a lobby or a running game."""


@dataclass(frozen=True, slots=True)
class SeatNote:
    """A seat change no move records: ``kind`` is ``kicked``, ``left``, ``back``,
    ``takeover``, :data:`STALLED` or :data:`CANCELLER`; ``seq`` the number of events
    stored before it."""

    seq: int
    seat: int
    kind: str


@dataclass(frozen=True, slots=True)
class PingRecord:
    """A turn ping the bot sent to ``channel_id`` (in its game's guild), stored until
    it is gone."""

    game_id: int
    guild_id: int
    channel_id: int
    message_id: int
    #: The click's token it was sent with (and its application, and when), if not the
    #: bot token's: the one thing that can take it down where the bot is no member.
    application_id: int | None = None
    token: str | None = None
    sent_at: float | None = None


@dataclass(frozen=True, slots=True)
class OpenHandRecord:
    """A private hand a player has open: the interaction token (with its
    application) that may edit ``message_id`` until 15 minutes after ``opened_at``."""

    game_id: int
    user_id: int
    application_id: int
    token: str
    message_id: int
    locale: str
    warning: str | None
    opened_at: float


@dataclass(frozen=True, slots=True)
class TableTokenRecord:
    """The interaction token (with its application) that edits a game's table message
    ``message_id`` until 15 minutes after ``clicked_at``; whether the bot is a member
    where the game is (``bot_member``)."""

    game_id: int
    application_id: int
    token: str
    message_id: int
    clicked_at: float
    bot_member: bool
    original: bool = False  # the message is the token's own answer (@original)


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat at a table: a person (``user_id``) or an AI (``ai`` strength)."""

    seat: int
    user_id: int | None
    ai: str | None
    name: str
    missed_turns: int = 0
    away: bool = False  # a person's seat temporarily played by an AI stand-in


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A stored game. ``Match.replay(ruleset, len(seats), events)`` rebuilds it."""

    id: int
    guild_id: int
    channel_id: int
    table_message_id: int | None
    host_id: int
    ruleset: Ruleset
    status: str
    turn_timer: int  # seconds, 0 = off
    turn_deadline: float | None  # unix time
    language: str | None
    created_at: float
    updated_at: float  # the last write: a move, a join, a timer ...
    seats: tuple[SeatRecord, ...]
    events: tuple[Event, ...]  # in seq order: events[i] was stored at seq i
    #: moves the bot made for a player, by seq: "timeout" (the clock quit for them) ...
    automatic: dict[int, str] = field(default_factory=dict)
    notes: tuple[SeatNote, ...] = ()  # in seq order
    finished_at: float | None = None
    hints: bool = True  # the table allows hints (the host may turn them off in the lobby)
    #: A lobby's people removed by its host (or a manager): they may not join it again.
    removed: frozenset[int] = frozenset()
    #: Why it was cancelled (an i18n key such as ``closed.idle_game``), if it was and
    #: that was stored (not for games stored before, nor for a place gone).
    end_reason: str | None = None
    #: How many of its move lines its table message has listed; None if not known.
    moves_listed: int | None = None
    #: Until when a running game whose every person is away waits for one of them to be
    #: back (unix time; None while someone plays). A cancelled game keeps it: the time
    #: it waited until.
    waits_until: float | None = None


@dataclass(frozen=True, slots=True)
class Sight:
    """The finished games someone may be shown: all but those in the ``hidden`` channels
    (or threads), except the games ``viewer`` sat at, which are always theirs to see."""

    viewer: int | None = None
    hidden: frozenset[int] = frozenset()


#: Every finished game, none hidden: for what no person is shown (a game's own channel,
#: the bot's own work, a person's own games); an answer to a person reads in their sight.
EVERYTHING: Final = Sight()


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One person's finished games in one guild."""

    user_id: int
    name: str  # the name used in their latest game
    games: int
    wins: int
    win_rate: float  # wins / games
    average_points: float  # final points per game, lower is better
    rounds: int  # rounds played
    rounds_emptied: int  # rounds won by playing the last card
    chips_returned: int  # points given back, summed over all rounds
    best_points: int  # the lowest final points ...
    best_game_id: int  # ... in this game (the earliest on a tie) ...
    best_game_at: float  # ... finished at this unix time


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int  # 1-based; equal values of the ordering metric share a rank
    user_id: int
    name: str
    games: int
    wins: int
    win_rate: float
    average_points: float


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """One finished game as seen by one of its players."""

    game_id: int
    finished_at: float
    players: int
    points: int  # the player's final points
    place: int  # 1 + the number of seats with fewer points
    winner: bool
    winners: tuple[str, ...]  # the winners' names, by seat


@dataclass(frozen=True, slots=True)
class ChipHistory:
    """The points of every seat after every round of one game."""

    game_id: int
    names: tuple[str, ...]  # by seat
    threshold: int
    totals: tuple[tuple[int, ...], ...]  # totals[r][seat]: points after round r + 1
    winners: tuple[int, ...] = ()  # seats, once the game is finished


@dataclass(frozen=True, slots=True)
class SeasonPlan:
    """From ``started_at`` (unix seconds) on, a server's seasons last ``days`` days each;
    None: calendar months (UTC), the first one ending where the next month starts."""

    started_at: int
    days: int | None


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One rated player on a server's board in one scope (a season, or :data:`ALL_TIME`):
    a person (``user_id``) or an AI strength (``ai``)."""

    rank: int  # 1-based, by mu - 3 sigma; equal ones share a rank
    user_id: int | None
    ai: str | None
    name: str  # the name in their latest rated game (an AI: its strength)
    mu: float
    sigma: float
    games: int  # rated games in this scope


@dataclass(frozen=True, slots=True)
class RatingPage:
    """One page of a server's rating board and the board's size."""

    total: int  # rows on the whole board (in the sight it was read with)
    page: int  # which page this is, 0-based (the last one when a later one was asked)
    rows: list[RatingRow]  # this page's rows, best first


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What one finished game did to one seat's rating in one scope."""

    game_id: int
    seat: int
    season: int  # the season's key, or ALL_TIME
    user_id: int | None  # None for an AI seat or a forgotten player
    ai: str | None  # the AI strength rated for the seat, if it was an AI's
    rank: int  # the seat's place in the game's rated order (winners 1; leavers last)
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A person's rating in one scope right after one of their rated games."""

    game_id: int
    finished_at: float
    mu: float
    sigma: float


class AlreadyRated(StoreError):
    """A game's ratings were refused: the game is rated already (every game counts once)."""


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game as the rater reads it: the game and each seat's final result."""

    record: GameRecord
    points: tuple[int, ...]  # final points, by seat
    winners: frozenset[int]  # the winning seats
    #: The board a game with house rules was rated on before (kept through a
    #: recomputation); None: never rated, or a game without house rules.
    board: str | None = None


@dataclass(frozen=True, slots=True)
class Skill:
    """A rated player's skill in one scope, as openskill keeps it, and their games there."""

    mu: float
    sigma: float
    games: int


@dataclass(frozen=True, slots=True)
class SeatRating:
    """What rating one game did to one seat in one scope (a ``rating_changes`` row)."""

    seat: int
    season: int  # the season's key, or ALL_TIME
    player: str  # 'user:<id>', 'ai:<strength>', or a key whose rating is not kept
    rank: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A rated player's rating in one scope once a game is rated (a ``ratings`` row)."""

    season: int
    player: str
    user_id: int | None
    ai: str | None
    name: str
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True, slots=True)
class GameRating:
    """Everything rating one finished game writes, in one unit of work."""

    game_id: int
    guild_id: int
    finished_at: float
    season: int  # the season the game counts for
    changes: tuple[SeatRating, ...] = ()
    players: tuple[PlayerRating, ...] = ()
    #: The board a game with house rules counts on, kept for recomputations; None for
    #: a game without house rules (always on the server's board).
    board: str | None = None


@dataclass(frozen=True, slots=True)
class SavedRuleset:
    """A ruleset a server saved, under its name."""

    name: str
    ruleset: Ruleset


class Saving(StrEnum):
    """What saving a ruleset under a name did."""

    SAVED = "saved"
    TAKEN = "taken"  # the server has a ruleset of that name already
    FULL = "full"  # the server has as many as it may keep
