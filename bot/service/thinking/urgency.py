"""How urgent each piece of the AI's work is: the order of its gates.

Not the REST requests' ``bot.limiter.Priority``: that orders calls to Discord.
"""

from __future__ import annotations

from enum import IntEnum


class Urgency(IntEnum):
    """What the work is for, the most urgent first."""

    MOVE = 0  # an AI seat's move: a table waits for it
    HINT = 1  # a player waits for it
    REVIEW = 2  # one decision of a finished game's review


__all__ = ["Urgency"]
