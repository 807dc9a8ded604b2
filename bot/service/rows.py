"""Tables to store rows and back: seat rows, seat notes, tables rebuilt from a game record."""

from __future__ import annotations

from collections.abc import Sequence

from data.store import GameRecord, SeatNote, SeatRecord
from game import CardPlayed, Match, PlayerQuit, RoundDealt, require_whole_deck
from game.ai import Strength

from .table import RECENT_MOVES, MoveLine, Seat, Status, Table


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
        table_message_id=record.table_message_id,
        turn_deadline=record.turn_deadline,
        hints=record.hints,
        removed=set(record.removed),
    )
    if record.events:
        for event in record.events:
            if isinstance(event, RoundDealt):
                require_whole_deck(event, record.ruleset)
        table.match = Match.replay(record.ruleset, len(seats), record.events)
        table.recent.extend(recent_lines(record, table.match))
    return table


def recent_lines(record: GameRecord, match: Match) -> list[MoveLine]:
    """The table's last moves, rebuilt from the stored events and seat notes as
    the move pipeline and the seat changes wrote them."""
    notes_at: dict[int, list[MoveLine]] = {}
    for note in record.notes:
        notes_at.setdefault(note.seq, []).append(MoveLine(seat=note.seat, kind=note.kind))
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
    lines.extend(notes_at.get(len(record.events), ()))
    return lines[-RECENT_MOVES:]
