"""How the front end paces its calls to Discord: table edits and the retries of failed calls.

Each bot has its own :class:`Pacing` (the defaults unless given one: ``LamaBot(pacing=...)``)
and the parts that call Discord read it from their host where they use it, so a test that
wants every edit at once gives its bot ``Pacing(edit_interval=0.0, ...)`` and no other bot
is touched.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Pacing:
    """The front end's waits, in seconds."""

    edit_interval: float = 2.0
    """Between two edits of one table message (the REST budget)."""
    debounce: float = 0.25
    """Before an edit: lets an interaction answer first, so its own edit isn't repeated."""
    ai_hold: float = 4.0
    """At most this long a table edit waits for the AI seats' moves."""
    retry_first: float = 1.0
    """Before a failed call (429, 5xx, no answer) is tried again, doubling…"""
    retry_max: float = 60.0
    """…up to this."""

    def backoff(self, failures: int) -> float:
        """Seconds to wait after the ``failures``-th failure in a row."""
        return float(min(self.retry_max, self.retry_first * 2 ** (failures - 1)))


__all__ = ["Pacing"]
