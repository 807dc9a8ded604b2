"""A store call held up for a while (a locked database, a slow disk), then let through or failed."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any

from data import StoreError


@contextlib.contextmanager
def held(part: object, method: str, seconds: float, *, fails: bool = False) -> Iterator[None]:
    """While in the block, every call of ``part.<method>`` (``part`` a part of the
    store, as ``store.games``) waits ``seconds`` (of the loop's clock: SimCord's
    virtual one in its tests), then goes through, or with ``fails`` gives up as
    SQLite does on a database locked past its busy timeout."""
    real = getattr(part, method)

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(seconds)
        if fails:
            raise StoreError("could not save: database is locked")
        return await real(*args, **kwargs)

    setattr(part, method, slow)
    try:
        yield
    finally:
        delattr(part, method)  # the class's own method again
