"""Writing to and reading from the store: a store error becomes a refusal the player can read."""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import TypeVar

from bot.service.errors import ServiceError
from data import ChannelBusy, StoreError

log = logging.getLogger(__name__)

T = TypeVar("T")


class Saver:
    """Awaits a store write and turns whatever it raises into a :class:`ServiceError`.

    The caller changes the table only after this returns, so a refused write
    leaves the table as it was.
    """

    async def save(self, write: Awaitable[T], failed: str = "could not save") -> T:
        """What ``write`` returns; ``error.channel_busy`` or ``error.save_failed`` if it
        fails, logged as ``failed`` (e.g. ``"game 7: could not save a move"``)."""
        try:
            return await write
        except ChannelBusy as error:
            # Another lobby got the channel first (in another process, say).
            raise ServiceError("error.channel_busy") from error
        except StoreError as error:
            log.warning("%s: %s", failed, error)
            raise ServiceError("error.save_failed") from error
        except Exception as error:
            # Whatever else went wrong under the store, nothing was saved.
            log.exception(failed)
            raise ServiceError("error.save_failed") from error


async def read(reading: Awaitable[T], refusal: str, failed: str) -> T:
    """What ``reading`` returns; the refusal ``refusal`` (a catalog key, e.g.
    ``stats.failed``) if the store fails, logged as ``failed`` (e.g. ``"guild 5: the
    leaderboard"``). Only a store error is a refusal: anything else is a defect, and
    goes on up as one."""
    try:
        return await reading
    except StoreError as error:
        log.warning("%s could not be read: %s", failed, error)
        raise ServiceError(refusal) from error
