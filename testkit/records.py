"""A finished game's stored record, made without a store.

For the tests and benchmarks of what reads one (the rater, the review, the replay): they
name only the fields they care about."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from data.records import GameRecord, SeatRecord
from game import Event, Ruleset


def finished_record(
    seats: Iterable[SeatRecord], events: Iterable[Event] = (), **fields: Any
) -> GameRecord:
    """A finished game of ``seats`` that took ``events``: game 1 of server 1's channel 1,
    hosted by user 1 under the base rules, untimed; ``fields`` set any other field."""
    base: dict[str, Any] = dict(
        id=1,
        guild_id=1,
        channel_id=1,
        table_message_id=None,
        host_id=1,
        ruleset=Ruleset(),
        status="finished",
        turn_timer=0,
        turn_deadline=None,
        language=None,
        created_at=0.0,
        updated_at=0.0,
        seats=tuple(seats),
        events=tuple(events),
    )
    base.update(fields)
    return GameRecord(**base)
