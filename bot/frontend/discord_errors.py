"""How a call to Discord failed: worth trying again, refused where it is, or for good.

A table edit, ping or ping deletion that Discord answers with 429 or a 5xx, or that
gets no answer (a dropped connection, a timeout), is tried again, waiting twice as
long after each failure (``Pacing.backoff``, ``pacing.py``).
"""

from __future__ import annotations

from enum import Enum

import aiohttp
import discord

UNKNOWN_CHANNEL = 10003  # Discord's error code for a channel that no longer exists
UNKNOWN_MESSAGE = 10008
ARCHIVED_THREAD = 50083  # "Thread is archived": refused until a message unarchives it

#: No answer at all: the connection dropped or timed out.  discord.py raises these
#: as they are, not as an HTTPException; like a 5xx, they are worth trying again.
NETWORK: tuple[type[Exception], ...] = (aiohttp.ClientError, TimeoutError, OSError)
#: Every way a call to Discord can fail that the front end handles.
FAILURES: tuple[type[Exception], ...] = (discord.HTTPException, discord.RateLimited, *NETWORK)
#: Failures that are always tried again (an HTTPException only with 429 or a 5xx).
RETRIED: tuple[type[Exception], ...] = (discord.RateLimited, *NETWORK)


def transient(error: Exception) -> bool:
    """Worth trying again: Discord was busy (429), failed on its side (5xx), or the
    call got no answer (a dropped connection, a timeout)."""
    if isinstance(error, RETRIED):
        return True
    return isinstance(error, discord.HTTPException) and (error.status == 429 or error.status >= 500)


def refused_here(error: Exception) -> bool:
    """Discord refuses the call because of where it is: a thread archived, a channel or
    thread hidden from the bot (Missing Access, Missing Permissions)."""
    return isinstance(error, discord.HTTPException) and (
        error.status == 403 or error.code == ARCHIVED_THREAD
    )


class Deletion(Enum):
    """How taking a ping down went."""

    DONE = "done"  # gone (or gone already, or refused for good: logged)
    RETRY = "retry"  # refused for now (429, 5xx, no answer): tried again soon
    # Refused where it stands: an archived thread (50083, until a message there
    # unarchives it), a place hidden from the bot (403, until it is shown again).  It
    # stays stored, for the game's next ping there or a restart to take down.
    LATER = "later"
