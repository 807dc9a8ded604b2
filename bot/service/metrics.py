"""What the game service reports for monitoring: a sink it is given, a no-op by default.

The service knows nothing of Prometheus.  It calls a :class:`ServiceMetrics` at
the few places worth counting (a move made, the AI done thinking) and the bot
passes one that feeds its Prometheus series (``bot.metrics``); tools and tests
get :data:`NO_METRICS`, which does nothing.
"""

from __future__ import annotations

from typing import Literal, Protocol

#: Who made a move: a player's click, an AI seat, or the turn timer running out.
Mover = Literal["human", "ai", "timer"]
#: What the AI thought about: a seat's move, a hint, one decision of a review.
ThoughtKind = Literal["move", "hint", "review"]


class ServiceMetrics(Protocol):
    """Told of each move saved and each AI answer; must be cheap and never raise."""

    def moved(self, who: Mover) -> None:
        """A move by ``who`` was saved."""

    def thought(self, kind: ThoughtKind, seconds: float) -> None:
        """The AI answered a question of ``kind`` ``seconds`` after it was asked
        (the wait for a worker included)."""


class NoMetrics:
    """Counts nothing: the default sink."""

    def moved(self, who: Mover) -> None:
        return None

    def thought(self, kind: ThoughtKind, seconds: float) -> None:
        return None


NO_METRICS: ServiceMetrics = NoMetrics()

__all__ = ["NO_METRICS", "Mover", "NoMetrics", "ServiceMetrics", "ThoughtKind"]
