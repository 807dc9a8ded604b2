"""The rows a game is written as: its seats, notes, events and lobby's removals.

The games' part of the store (``Games``) writes them, each within the unit of work it
holds; ``wrong_status`` says why a write found the game no longer where it expected.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from game import Event

from .codec import dumps
from .database import Unit
from .records import SeatNote, SeatRecord, StoreError


async def wrong_status(unit: Unit, game_id: int, expected: str) -> StoreError:
    query = "SELECT status FROM games WHERE id = ?"
    rows = await unit.fetch(query, (game_id,))
    if not rows:
        return StoreError(f"could not save: there is no game {game_id}")
    return StoreError(f"could not save: game {game_id} is {rows[0][0]}, not {expected}")


async def insert_seats(unit: Unit, game_id: int, seats: Sequence[SeatRecord]) -> None:
    query = """INSERT INTO seats (game_id, seat, user_id, ai, name, missed_turns, away)
               VALUES (?, ?, ?, ?, ?, ?, ?)
            """
    await unit.executemany(
        query,
        [(game_id, s.seat, s.user_id, s.ai, s.name, s.missed_turns, int(s.away)) for s in seats],
    )


async def forget_removals(unit: Unit, game_id: int) -> None:
    """Whom a lobby's host removed matters only while it is a lobby: once it starts or
    closes, nobody reads it, so it is not kept about them."""
    await unit.execute("DELETE FROM lobby_removals WHERE game_id = ?", (game_id,))


async def replace_seats(unit: Unit, game_id: int, seats: Sequence[SeatRecord]) -> None:
    query = "DELETE FROM seats WHERE game_id = ?"
    await unit.execute(query, (game_id,))
    await insert_seats(unit, game_id, seats)


async def update_seats(unit: Unit, game_id: int, seats: Sequence[SeatRecord]) -> None:
    query = """UPDATE seats SET user_id = ?, ai = ?, name = ?, missed_turns = ?, away = ?
               WHERE game_id = ? AND seat = ?
               RETURNING seat
            """
    for s in seats:
        params = (s.user_id, s.ai, s.name, s.missed_turns, int(s.away), game_id, s.seat)
        if not await unit.fetch(query, params):
            raise StoreError(f"could not save: game {game_id} has no such seat ({s.seat})")


async def insert_notes(unit: Unit, game_id: int, notes: Iterable[SeatNote], now: float) -> None:
    query = "INSERT INTO seat_notes (game_id, seq, seat, kind, created_at) VALUES (?, ?, ?, ?, ?)"
    await unit.executemany(query, [(game_id, n.seq, n.seat, n.kind, now) for n in notes])


async def insert_events(
    unit: Unit,
    game_id: int,
    first_seq: int,
    events: Sequence[Event],
    meta: Sequence[dict[str, Any] | None] | None,
    now: float,
) -> None:
    extra = [None if m is None else dumps(m) for m in meta or ()]
    extra += [None] * (len(events) - len(extra))
    query = """INSERT INTO events (game_id, seq, kind, payload, meta, created_at)
               VALUES (?, ?, ?, ?, ?, ?)
            """
    await unit.executemany(
        query,
        [
            (game_id, first_seq + i, event.kind, dumps(event.to_json()), extra[i], now)
            for i, event in enumerate(events)
        ],
    )
