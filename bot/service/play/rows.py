"""Tables to store rows and back: seat rows, seat notes, tables rebuilt from a game record."""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.play.table import END_REASONS, MoveLine, Seat, Status, Table
from data import GameRecord, SeatNote, SeatRecord
from game import CardPlayed, Match, PlayerQuit, RoundDealt, require_whole_deck
from game.ai import Strength


def seat_records(seats: Sequence[Seat]) -> list[SeatRecord]:
    return [
        SeatRecord(
            seat=i,
            user_id=s.user_id,
            ai=s.ai.value if s.ai is not None else None,
            name=s.name,
            missed_turns=s.missed_turns,
            away=s.away,
        )
        for i, s in enumerate(seats)
    ]


#: The seat notes that are lines of the game's moves: a seat left or kicked, taken over
#: after missed turns, its person back.
LINE_NOTES = frozenset({"left", "kicked", "takeover", "back"})


def seat_note(table: Table, seat: int, kind: str) -> SeatNote:
    """A seat change at this point of the game's log."""
    return SeatNote(len(table.match.events) if table.match is not None else 0, seat, kind)


def table_from_record(record: GameRecord) -> Table:
    seats = [
        Seat(
            user_id=s.user_id,
            ai=Strength(s.ai) if s.ai else None,
            name=s.name,
            missed_turns=s.missed_turns,
            away=s.away,
        )
        for s in record.seats
    ]
    table = Table(
        game_id=record.id,
        guild_id=record.guild_id,
        channel_id=record.channel_id,
        host_id=record.host_id,
        ruleset=record.ruleset,
        turn_timer=record.turn_timer,
        locale=record.language or "en",
        seats=seats,
        status=Status(record.status),
        turn_deadline=record.turn_deadline,
        hints=record.hints,
        removed=set(record.removed),
        end_reason=record.end_reason if record.end_reason in END_REASONS else None,
        waits_until=record.waits_until,
        rated_end=record.status == "cancelled" and record.finished_at is not None,
    )
    if record.events:
        for event in record.events:
            if isinstance(event, RoundDealt):
                require_whole_deck(event, record.ruleset)
        table.match = Match.replay(record.ruleset, len(seats), record.events)
        table.recent.extend(recent_lines(record, table.match))
    return table


def recent_lines(record: GameRecord, match: Match) -> list[MoveLine]:
    """The table's moves, every line of them (the table keeps the last few and
    counts them all), rebuilt from the stored events and seat notes as the move
    pipeline and the seat changes wrote them."""
    notes_at = note_lines(record)
    lines: list[MoveLine] = []
    rounds = 0
    for seq, event in enumerate(record.events):
        lines.extend(notes_at.get(seq, ()))
        if isinstance(event, RoundDealt):
            if rounds:
                lines.append(MoveLine(seat=match.results[rounds - 1].ended_by, kind="round_end"))
            lines.append(MoveLine(seat=event.starter, kind="deal"))
            rounds += 1
            continue
        card = int(event.card) if isinstance(event, CardPlayed) else None
        kind = record.automatic.get(seq) or (
            "quit" if isinstance(event, PlayerQuit) else event.kind
        )
        lines.append(MoveLine(seat=event.seat, kind=kind, card=card))
    if rounds and len(match.results) >= rounds:
        # The last round ended with no deal after it (the game is over): its end is
        # a line too, as the move pipeline wrote it, before a note of that move.
        lines.append(MoveLine(seat=match.results[rounds - 1].ended_by, kind="round_end"))
    lines.extend(notes_at.get(len(record.events), ()))
    return lines


def note_lines(record: GameRecord) -> dict[int, list[MoveLine]]:
    """The game's seat notes that are lines of its moves, by the seq of the move they
    come before.  Who let a game stall or cancelled it is the rater's (the table's end
    says why it ended): no line, as the running bot's table has none; nor has a kind a
    newer version noted (rolled back, this one has no words for it)."""
    notes_at: dict[int, list[MoveLine]] = {}
    for note in record.notes:
        if note.kind in LINE_NOTES:
            notes_at.setdefault(note.seq, []).append(note_line(record, note))
    return notes_at


def note_line(record: GameRecord, note: SeatNote) -> MoveLine:
    """A seat note as a line of the game's moves: a takeover with the turns its seat
    had missed in a row (as its line said when it happened)."""
    if note.kind != "takeover":
        return MoveLine(seat=note.seat, kind=note.kind)
    return MoveLine(seat=note.seat, kind=note.kind, count=missed_in_a_row(record, note))


def missed_in_a_row(record: GameRecord, note: SeatNote) -> int:
    """The turns the timer quit for ``note``'s seat in a row before the note: its moves
    the bot made for it as timeouts, back to its last move of its own (or its coming
    back, which starts the count again), as the move pipeline counted them."""
    # Its comings back before it (a note at the takeover's seq may be one after it).
    before = record.notes[: record.notes.index(note)]
    back = {n.seq for n in before if n.seat == note.seat and n.kind == "back"}
    missed = 0
    for seq in range(min(note.seq, len(record.events)) - 1, -1, -1):
        if seq + 1 in back:
            break
        event = record.events[seq]
        if isinstance(event, RoundDealt) or event.seat != note.seat:
            continue
        if record.automatic.get(seq) != "timeout":
            break
        missed += 1
    return missed
