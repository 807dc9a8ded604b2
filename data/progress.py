"""What a stretch of play added to a match, as ``store.games.append_progress`` saves it."""

from __future__ import annotations

from dataclasses import dataclass

from game import Event, Match, RoundResult


@dataclass(frozen=True, slots=True)
class MatchProgress:
    """The events, round results and (when the game is over) the outcome of a
    match since a point of it: the one mapping of a ``Match`` onto
    ``store.games.append_events``."""

    #: The seq of the first of ``events``: ``len(match.events)`` at that point.
    first_seq: int
    #: The events since then, in order.
    events: tuple[Event, ...]
    #: The rounds that ended since then.
    results: tuple[RoundResult, ...]
    #: The winners when the match is over, else None (the game goes on).
    finished: tuple[int, ...] | None
    #: Every seat's final points when the match is over, else None.
    final_points: tuple[int, ...] | None

    @classmethod
    def since(cls, match: Match, first_event: int, first_result: int) -> MatchProgress:
        """What ``match`` added after its first ``first_event`` events and
        ``first_result`` round results (their counts before the move)."""
        over = match.over
        return cls(
            first_seq=first_event,
            events=tuple(match.events[first_event:]),
            results=tuple(match.results[first_result:]),
            finished=match.winners if over else None,
            final_points=tuple(match.points) if over else None,
        )
