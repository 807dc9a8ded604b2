"""A server's house rules: the rulesets saved for /lama new, and where such games are rated.

A game with house rules is rated on a board of their own, or on the server's with every
other game, as the server chooses."""

from __future__ import annotations

import asyncio
import logging
import unicodedata
from collections.abc import Awaitable, Callable
from typing import TypeVar

from bot.service.errors import ServiceError
from bot.service.saver import Saver
from data import Store, StoreError
from data.saved_rules import SavedRuleset, Saving
from data.settings import OWN as OWN
from data.settings import SERVER as SERVER
from game import Ruleset

log = logging.getLogger(__name__)

T = TypeVar("T")

#: The rulesets a server may keep (its admins delete one to save another).
MAX_SAVED = 10
#: The longest name a saved ruleset may have (it shows in /lama new's list and the lobby).
MAX_NAME = 40
#: The boards a server may rate its games with house rules on.
BOARDS = (OWN, SERVER)


def tidy_name(name: str) -> str:
    """A ruleset's name as kept and as looked up: its runs of spaces (and line breaks,
    tabs) one space, no invisible characters."""
    # Tabs and line breaks are control characters too: they part words, as spaces do.
    shown = "".join(c for c in name if c.isspace() or unicodedata.category(c) not in ("Cc", "Cf"))
    return " ".join(shown.split())


def clean_name(name: str) -> str:
    """A ruleset's name as kept (:func:`tidy_name`); ``house.name_length`` if nothing or
    too much is left."""
    shown = tidy_name(name)
    if not 1 <= len(shown) <= MAX_NAME:
        raise ServiceError("house.name_length", max=MAX_NAME)
    return shown


class HouseRules:
    """Saves, lists and deletes a server's named rulesets; reads and sets where its games
    with house rules are rated (saved under the ratings' lock, as a season plan is: a
    pass of the rater never rates with the setting from before a change)."""

    def __init__(
        self, store: Store, saver: Saver, rating_lock: Callable[[int], asyncio.Lock]
    ) -> None:
        self._store = store
        self._saver = saver
        self._rating_lock = rating_lock

    async def saved(self, guild_id: int) -> list[SavedRuleset]:
        """The server's saved rulesets, by name; ``error.settings_unread`` if the store
        can't say."""
        return await self._read(self._store.saved_rules.saved(guild_id), guild_id)

    async def ruleset(self, guild_id: int, name: str, *, threshold: int) -> Ruleset:
        """The server's ruleset saved as ``name`` (case aside), to be played to
        ``threshold`` (a table's option, never part of the saved rules);
        ``house.unknown`` if it has none of that name (tidied as when saved; a name too
        long to save is simply unknown)."""
        name = tidy_name(name)
        found = await self._read(self._store.saved_rules.find(guild_id, name), guild_id)
        if found is None:
            raise ServiceError("house.unknown", name=name)
        return found.ruleset.with_changes(threshold=threshold)

    async def save(self, guild_id: int, name: str, ruleset: Ruleset) -> str:
        """Keep ``ruleset`` as ``name``; the name as kept. ``house.name_length``,
        ``house.taken`` (that name, in any case) or ``house.full`` (:data:`MAX_SAVED`)."""
        name = clean_name(name)
        saving = self._store.saved_rules.save(guild_id, name, ruleset, cap=MAX_SAVED)
        done = await self._saver.save(saving, f"guild {guild_id}: could not save house rules")
        if done is Saving.TAKEN:
            raise ServiceError("house.taken", name=name)
        if done is Saving.FULL:
            raise ServiceError("house.full", max=MAX_SAVED)
        return name

    async def delete(self, guild_id: int, name: str) -> str:
        """Delete the ruleset saved as ``name`` (case aside); its name as it was kept.
        ``house.unknown`` if there is none (the name tidied as when saved)."""
        name = tidy_name(name)
        deleting = self._store.saved_rules.delete(guild_id, name)
        gone = await self._saver.save(deleting, f"guild {guild_id}: could not delete house rules")
        if gone is None:
            raise ServiceError("house.unknown", name=name)
        return gone

    async def board(self, guild_id: int) -> str:
        """Where the server rates its games with house rules now: ``OWN`` or ``SERVER``."""
        settings = await self._read(self._store.settings.guild_settings(guild_id), guild_id)
        return settings.house_rules_board or OWN

    async def set_board(self, guild_id: int, board: str) -> None:
        """Rate the server's games with house rules that are rated from now on (never one
        rated before) on ``board``: ``OWN`` or ``SERVER``."""
        if board not in BOARDS:
            raise ValueError(f"no board {board!r}")
        async with self._rating_lock(guild_id):
            await self._saver.save(
                self._store.settings.set_house_rules_board(guild_id, board),
                f"guild {guild_id}: could not save its house rules' board",
            )

    @staticmethod
    async def _read(reading: Awaitable[T], guild_id: int) -> T:
        try:
            return await reading
        except StoreError as error:
            log.warning("guild %s: could not read its house rules: %s", guild_id, error)
            raise ServiceError("error.settings_unread") from error
