"""Each game's table message as the front end keeps it: one :class:`TableScreen` per game.

The presenter owns the :class:`Screens`; the table edits, the tokens and the cogs read
and write a game's screen through it. The service's ``Table`` holds the game only: the
message that shows it, how far that message listed its moves and the messages it was
before are the front end's. The store keeps the message and the count for a restart,
and the front end reads them back (:meth:`Screens.of` takes what the service read
with the game, once).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from bot.limiter import Priority

from .listing import Listing

#: What the store kept of a game's table message before a restart, asked once per game
#: (the service's ``front.stored_table_message``): its id, and how many of the game's lines it
#: had listed; (None, None) if nothing was kept.
Stored = Callable[[int], tuple[int | None, int | None]]


@dataclass
class TableScreen:
    """One game's table message: which it is, what it shows, and the edit that will
    bring it up to date."""

    message_id: int | None = None  # the message that shows the table now
    former: set[int] = field(default_factory=set)  # its messages before it was posted anew
    #: How many of the game's lines it had listed before a restart, as stored (how far,
    #: not which lines); None if not known.
    listed_before: int | None = None
    shown: str | None = None  # the signature of what it shows
    edited: float = 0.0  # monotonic time of its last edit
    pending: asyncio.Task[None] | None = None  # the task that edits it
    stale: bool = False  # it lags behind the game
    priority: Priority | None = None  # of the edit waiting
    reason: str | None = None  # why the game closed, once it did
    listed: Listing | None = None  # the moves it lists (by this run)
    watch: asyncio.Task[None] | None = None  # looks after its token's end


class Screens:
    """Every game's :class:`TableScreen`, by game id: made when first needed, with
    what the store kept of its message (``stored``), and let go of with the game."""

    def __init__(self, stored: Stored) -> None:
        self._stored = stored
        self._screens: dict[int, TableScreen] = {}

    def of(self, game_id: int) -> TableScreen:
        """The game's screen; the first time, as the store kept it before a restart."""
        screen = self._screens.get(game_id)
        if screen is None:
            message_id, listed = self._stored(game_id)
            screen = self._screens[game_id] = TableScreen(message_id, listed_before=listed)
        return screen

    def get(self, game_id: int) -> TableScreen | None:
        """The game's screen if this run made one (nothing is read for it)."""
        return self._screens.get(game_id)

    def message_id(self, game_id: int) -> int | None:
        """The message that shows the game's table, if any."""
        return self.of(game_id).message_id

    def forget(self, game_id: int) -> TableScreen | None:
        return self._screens.pop(game_id, None)

    def __iter__(self) -> Iterator[int]:
        return iter(self._screens)

    def values(self) -> list[TableScreen]:
        return list(self._screens.values())
