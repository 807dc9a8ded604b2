"""A person as the service knows them: a Discord user's id and the name shown for them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Person:
    id: int
    name: str
