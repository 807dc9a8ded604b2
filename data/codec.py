"""Rows to records and back: JSON for rulesets, events and meta, rows into GameRecords."""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from game import Event, RoundDealt, Ruleset, event_from_json

from .database import Row
from .records import GameRecord, SeatNote, SeatRecord

#: The columns of a games row, in the order :func:`assemble` reads them.
GAME_COLUMNS = """id, guild_id, channel_id, table_message_id, host_id, ruleset, status,
                  turn_timer, turn_deadline, language, created_at, finished_at,
                  updated_at, hints, end_reason, moves_listed, waits_until"""


def dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


@lru_cache(maxsize=1024)
def _move(payload: str) -> Event:
    """A move event. The same few moves recur in every game, so each is decoded once."""
    return event_from_json(json.loads(payload))


def assemble(
    games: Iterable[Row],
    seats: Iterable[Row],
    events: Iterable[Row],
    notes: Iterable[Row] = (),
    removals: Iterable[Row] = (),
) -> tuple[list[GameRecord], dict[int, str]]:
    """Records from game rows and their seat, event and note rows (each sorted by game),
    and a lobby's removals (``game_id, user_id`` rows, in any order).

    Returns the records, and for each game that could not be decoded, why.
    """
    seats_of: dict[int, list[Row]] = {}
    for row in seats:
        seats_of.setdefault(row[0], []).append(row)
    events_of: dict[int, list[Row]] = {}
    for row in events:
        events_of.setdefault(row[0], []).append(row)
    notes_of: dict[int, list[SeatNote]] = {}
    for game_id, seq, seat, kind in notes:
        notes_of.setdefault(game_id, []).append(SeatNote(seq, seat, kind))
    removed_of: dict[int, set[int]] = {}
    for game_id, user_id in removals:
        removed_of.setdefault(game_id, set()).add(user_id)
    records: list[GameRecord] = []
    broken: dict[int, str] = {}
    for row in games:
        game_id = row[0]
        try:
            records.append(
                _record(
                    row,
                    seats_of.get(game_id, []),
                    events_of.get(game_id, []),
                    notes_of.get(game_id, []),
                    frozenset(removed_of.get(game_id, ())),
                )
            )
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            # Bad JSON, an unknown event kind or card, an impossible ruleset ...
            broken[game_id] = f"{type(error).__name__}: {error}"
    return records, broken


def _record(
    game: Row, seats: list[Row], events: list[Row], notes: list[SeatNote], removed: frozenset[int]
) -> GameRecord:
    (
        game_id,
        guild_id,
        channel_id,
        message_id,
        host_id,
        ruleset,
        status,
        turn_timer,
        deadline,
        language,
        created_at,
        finished_at,
        updated_at,
        hints,
        end_reason,
        moves_listed,
        waits_until,
    ) = game
    loads = json.loads
    return GameRecord(
        id=game_id,
        guild_id=guild_id,
        channel_id=channel_id,
        table_message_id=message_id,
        host_id=host_id,
        ruleset=Ruleset.from_json(loads(ruleset)),
        status=status,
        turn_timer=turn_timer,
        turn_deadline=deadline,
        language=language,
        created_at=created_at,
        updated_at=updated_at,
        seats=tuple(
            SeatRecord(seat, user_id, ai, name, missed_turns=missed, away=bool(away))
            for _, seat, user_id, ai, name, missed, away in seats
        ),
        events=tuple(
            event_from_json(loads(payload)) if kind == RoundDealt.kind else _move(payload)
            for _, kind, payload, _meta in events
        ),
        automatic={
            seq: str(extra["auto"])
            for seq, (_, _kind, _payload, meta) in enumerate(events)
            if meta is not None and "auto" in (extra := loads(meta))
        },
        finished_at=finished_at,
        notes=tuple(notes),
        hints=bool(hints),
        end_reason=end_reason,
        removed=removed,
        moves_listed=moves_listed,
        waits_until=waits_until,
    )
