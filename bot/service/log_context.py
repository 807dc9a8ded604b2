"""Which game, guild and channel the code running now is about, for the logs.

A context variable: set around a move, a timeout or an AI turn
(:func:`about_table`), it is seen by every log record written in that task and
in the tasks it starts (the front end's notices), and ``bot.logs`` adds it to
each JSON log line.  Nothing here logs by itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from typing import Protocol

#: ``{"game_id": 7, "guild_id": …, "channel_id": …}``, the ids known; empty: none.
LOG_CONTEXT: ContextVar[dict[str, int]] = ContextVar("lama_log_context", default={})  # noqa: B039 (never changed in place)


class _Place(Protocol):
    game_id: int
    guild_id: int
    channel_id: int


@contextmanager
def about(**ids: int | None) -> Iterator[None]:
    """Within the ``with``, log records carry these ids (beside those set around it)."""
    known = {name: value for name, value in ids.items() if value is not None}
    token = LOG_CONTEXT.set({**LOG_CONTEXT.get(), **known})
    try:
        yield
    finally:
        LOG_CONTEXT.reset(token)


def about_table(table: _Place) -> AbstractContextManager[None]:
    """:func:`about` the table's game, guild and channel."""
    return about(game_id=table.game_id, guild_id=table.guild_id, channel_id=table.channel_id)


__all__ = ["LOG_CONTEXT", "about", "about_table"]
