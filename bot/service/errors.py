"""A refusal a person can read: what every part of the service raises instead of a failure."""

from __future__ import annotations

from typing import Any

from game import IllegalMove


class ServiceError(Exception):
    """A refusal a person can read; ``key`` names the message in the catalog."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class MoveRefused(ServiceError):
    """A player's move not taken, their seat found: the button was stale (``reason`` is
    ``error.stale``) or the rules don't allow it (``reason`` is the rules' own
    :class:`IllegalMove`). ``seat`` is theirs, for their hand to be shown again with why."""

    def __init__(self, seat: int, reason: ServiceError | IllegalMove) -> None:
        key = reason.key if isinstance(reason, ServiceError) else f"illegal.{reason.code}"
        super().__init__(key)
        self.seat = seat
        self.reason = reason
