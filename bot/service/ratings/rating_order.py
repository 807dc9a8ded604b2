"""Who ranks where in a rated game: the winners, the others by points, the leavers last.

A person who left, or whose seat an AI (or the turn clock) played for more than half of
its moves, is ranked last, behind every seat that finished, the leavers sharing the last
rank; the AI that played on for them is not rated for that seat.  Being a leaver follows
only from a person's own absence, never from someone else's decision: a person kicked
while they were at the table (not away) is *spared*: their seat keeps its place in the
order by what it scored (nobody climbs over it by the kick), the others are rated against
it as against them, and their own rating doesn't change (it was not their play that
finished it).  One kicked while away (they had missed their turns) is counted as still
away: the stand-in rule above decides, as if nobody had kicked them.  A
game cancelled because no person played at it any more
(:data:`~data.records.ABANDONED`), one without a turn timer nobody moved in for
long (:data:`~data.records.IDLE_GAME`, the person whose turn it was noted
:data:`~data.records.STALLED`, as having left), or one cancelled by the only person still
playing it (:data:`~data.records.CANCELLED`, noted :data:`~data.records.CANCELLER`),
is ranked the same way, lest the one who went dodge the loss: nobody won, the others by
their points then, the leavers last; it is rated only if someone other than the leavers
is left to rank ahead of them.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from data.ratings import FORMER, ai_player, user_player
from data.records import (
    CANCELLER,
    FORMER_PLAYER,
    STALLED,
    FinishedGame,
    GameRecord,
    SeatNote,
    SeatRecord,
)
from game import IllegalMove, Match, RoundDealt

log = logging.getLogger(__name__)

#: Seat notes of a person handing their seat to an AI for the rest of the game, or
#: letting the game stall at their turn until it was ended (a kick is none: see
#: :func:`seat_fates`).
GONE = frozenset({"left", STALLED, CANCELLER})


@dataclass(frozen=True, slots=True)
class Standing:
    """A seat as the rater sees it: who is rated for it, and its place in the order."""

    seat: int
    player: str
    user_id: int | None
    ai: str | None
    name: str
    rank: int
    #: Whether the result changes their rating: not for a person kicked while present
    #: (their seat is still ranked, for the others).
    counts: bool = True

    @property
    def kept(self) -> bool:
        """Its rating is kept (a forgotten person's is not)."""
        return self.player != FORMER


def is_person(seat: SeatRecord) -> bool:
    """The seat was a person's (maybe one forgotten since, or one an AI played on for)."""
    return seat.user_id is not None or seat.name == FORMER_PLAYER


def leavers(record: GameRecord) -> set[int]:
    """The people's seats rated last: they left, or the AI standing in and the turn clock
    made more than half of the seat's moves (see :func:`seat_fates`)."""
    return seat_fates(record)[0]


def spared(record: GameRecord) -> set[int]:
    """The people's seats kicked while they were at the table, no leavers: ranked by what
    the seat scored, their rating left as it was (see :func:`seat_fates`)."""
    return seat_fates(record)[1]


def seat_fates(record: GameRecord) -> tuple[set[int], set[int]]:
    """The leavers and the spared seats of the game.

    A kick is no leaving: a seat kicked while its person played it (not away) is spared,
    its moves after the kick counted for nobody; one kicked while away stays away (the
    stand-in's moves count against them as before, as if nobody had kicked them), and
    the stand-in rule decides.  A spared seat that was a leaver by then (it left first,
    or was stood in for mostly before the kick) is a leaver."""
    people = {s.seat for s in record.seats if is_person(s)}
    gone = {n.seat for n in record.notes if n.kind in GONE}
    notes_at: dict[int, list[tuple[int, str]]] = {}
    for note in record.notes:
        notes_at.setdefault(note.seq, []).append((note.seat, note.kind))
    away: set[int] = set()
    kicked: set[int] = set()  # kicked while present: their seat's moves count no more
    own: Counter[int] = Counter()
    others: Counter[int] = Counter()
    for seq, event in enumerate(record.events):
        _note(notes_at.get(seq, ()), away, kicked)
        if isinstance(event, RoundDealt) or event.seat in kicked:
            continue
        if event.seat in away or seq in record.automatic:
            others[event.seat] += 1
        else:
            own[event.seat] += 1
    _note(notes_at.get(len(record.events), ()), away, kicked)
    stood_in = {seat for seat in people if 2 * others[seat] > own[seat] + others[seat]}
    last = people & (gone | stood_in)
    return last, (people & kicked) - last


def _note(notes: Sequence[tuple[int, str]], away: set[int], kicked: set[int]) -> None:
    """Follow the seat notes made before an event: who is away, who was kicked present."""
    for seat, kind in notes:
        if kind == "takeover":
            away.add(seat)
        elif kind == "back":
            away.discard(seat)
        elif kind == "kicked" and seat not in away:
            kicked.add(seat)


def going_note(record: GameRecord, seat: int, kind: str) -> SeatNote | None:
    """The note that rates a running game, as it is ended, as the loss of the person at
    ``seat``, who went: :data:`~data.records.STALLED` for one nobody moved in for long
    (:data:`~data.records.IDLE_GAME`), whose turn it was; :data:`~data.records.CANCELLER`
    for one they cancelled as the only person still playing it
    (:data:`~data.records.CANCELLED`).  None if
    nobody but leavers would be ranked ahead of them (or the seat is no person's): then
    the game stays unrated, as all of them would share one rank."""
    if not is_person(record.seats[seat]):
        return None
    note = SeatNote(len(record.events), seat, kind)
    return note if someone_ahead(replace(record, notes=(*record.notes, note))) else None


def moved(record: GameRecord, seat: int) -> bool:
    """Whether ``seat`` made a move of the game (not one the turn clock made for it)."""
    return any(
        not isinstance(event, RoundDealt) and event.seat == seat and seq not in record.automatic
        for seq, event in enumerate(record.events)
    )


def someone_ahead(record: GameRecord) -> bool:
    """Whether a seat of the game is no leaver's, someone to rank ahead of the leavers:
    a game cancelled with none is not rated (all of them would share one rank)."""
    return len(leavers(record)) < len(record.seats)


def result(game: FinishedGame) -> tuple[Sequence[int], frozenset[int]]:
    """Each seat's points and the winning seats: a finished game's final ones; for a
    game cancelled because no person played at it any more, or because nobody moved in it
    for long, the points it stood at then and no winner (none at all if nobody stayed to
    be ranked ahead of the leavers, or if its moves don't replay)."""
    record = game.record
    if record.status != "cancelled":
        return game.points, game.winners
    if not someone_ahead(record):
        return (), frozenset()
    try:
        match = Match.replay(record.ruleset, len(record.seats), record.events)
    except (IllegalMove, ValueError) as error:
        log.error("game %s cannot be rated, its moves don't replay: %s", record.id, error)
        return (), frozenset()
    return tuple(match.points), frozenset()


def standings(game: FinishedGame) -> list[Standing]:
    """Every seat's rated player and rank; empty if the game has no full result."""
    record = game.record
    points, winners = result(game)
    if len(points) != len(record.seats):
        return []
    last, kept_out = seat_fates(record)
    order = {
        s.seat: (0 if s.seat in winners else 1, points[s.seat])
        for s in record.seats
        if s.seat not in last
    }
    finished = sorted(order.values())
    placed = []
    for s in record.seats:
        if s.seat in last:
            rank = len(finished) + 1
        else:
            rank = 1 + sum(other < order[s.seat] for other in finished)
        if s.user_id is not None:
            player, user, ai, name = user_player(s.user_id), s.user_id, None, s.name
        elif is_person(s):
            player, user, ai, name = FORMER, None, None, s.name
        else:
            assert s.ai is not None
            player, user, ai, name = ai_player(s.ai), None, s.ai, s.ai
        placed.append(Standing(s.seat, player, user, ai, name, rank, s.seat not in kept_out))
    return placed
