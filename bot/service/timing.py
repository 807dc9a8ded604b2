"""How long things take in the service: pauses, warnings and idle limits, in seconds.

Each :class:`~bot.service.service.GameService` has its own :class:`Timing` (the
defaults unless given one) and hands that one object to the parts that wait, which
read it where they use it: a test or a benchmark that wants AI seats to move at once
gives the service ``Timing(ai_delay=0.0)``, and a change to ``service.timing`` applies
at once to every part of that service and to no other.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Timing:
    """The service's pauses and limits."""

    ai_delay: float = 0.8
    """Before each AI move, so people can follow the game (Hard thinks in it)."""
    warning_before: float = 30.0
    """A player is warned this long before their turn runs out (at most a quarter of it)."""
    misses_before_takeover: int = 2
    """Turns missed in a row before an AI plays the seat until its person is back."""
    away_wait: float = 30 * 60
    """A game whose every person is away (missed their turns) waits this long for one of
    them to be back, its AIs standing still, before it ends as their loss."""
    lobby_idle: float = 15 * 60
    """A lobby nobody starts closes after this."""
    game_idle: float = 3 * 24 * 60 * 60
    """A game without a turn timer ends after this without a move…"""
    alone_game_idle: float = 6 * 60 * 60
    """…one whose only person plays against AIs after this: its channel is shared, and
    nobody else is waiting on them to play it."""
    save_retry: float = 10.0
    """Before a timed-out turn or a close that couldn't be saved is tried again."""
    ai_retry: float = 2.0
    """At least this before an AI move that couldn't be saved is tried again…"""
    ai_retry_max: float = 60.0
    """…doubling with each failure up to this."""
    review_budget: float = 20.0
    """Of thinking for a finished game's review; what is left is not looked at."""
    hint_time: float = 0.3
    """A hint thinks past today's work only until this after it was asked for (and only
    while no AI move or other hint waits), so the player is answered fast."""
    review_decision_time: float = 0.5
    """A review's decision thinks past today's work until this at most (and only while
    nothing else waits, and within its share of the review's budget)."""
    answer_grace: float = 1.0
    """A shutdown lets a hint or review being thought finish within this; the rest are
    cut short, and their players told the bot is restarting."""


__all__ = ["Timing"]
