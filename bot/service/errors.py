"""A refusal a person can read: what every part of the service raises instead of a failure."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A refusal a person can read; ``key`` names the message in the catalog."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params
