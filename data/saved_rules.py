"""A server's saved house rules: named rulesets its admins keep for /lama new to offer.

Names are one per server whatever their case ("Summer" and "summer" are one), kept as
typed. They hang on the server's settings row and go with it (migration 0022).
"""

from __future__ import annotations

import json
from collections.abc import Callable

from game import Ruleset

from .database import Database
from .records import SavedRuleset as SavedRuleset
from .records import Saving as Saving
from .settings import settings_row


def folded(name: str) -> str:
    """The key a name is one by, whatever its case."""
    return name.casefold()


class SavedRules:
    """A server's saved rulesets: listed, found by name, saved (up to a cap), deleted."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self._db = db
        self._clock = clock

    async def saved(self, guild_id: int) -> list[SavedRuleset]:
        """The server's saved rulesets, by name (case aside)."""
        query = "SELECT name, ruleset FROM saved_rules WHERE guild_id = ? ORDER BY folded"
        async with self._db.read() as unit:
            rows = await unit.fetch(query, (guild_id,))
        return [_saved(row) for row in rows]

    async def find(self, guild_id: int, name: str) -> SavedRuleset | None:
        """The server's ruleset of that name (case aside), if it has one."""
        query = "SELECT name, ruleset FROM saved_rules WHERE guild_id = ? AND folded = ?"
        async with self._db.read() as unit:
            rows = await unit.fetch(query, (guild_id, folded(name)))
        return _saved(rows[0]) if rows else None

    async def save(self, guild_id: int, name: str, ruleset: Ruleset, *, cap: int) -> Saving:
        """Keep ``ruleset`` under ``name``, unless the name is taken or the server keeps
        ``cap`` already; one unit of work, which holds the server's settings row until it
        is done, so saves at once take turns and none passes the cap."""
        async with self._db.write() as unit:
            await settings_row(unit, guild_id)
            if unit.dialect == "postgres":
                # A write on SQLite has the whole database (BEGIN IMMEDIATE); on PostgreSQL
                # another save would count the list before this one's row is committed.
                query = "SELECT 1 FROM guild_settings WHERE guild_id = ? FOR UPDATE"
                await unit.execute(query, (guild_id,))
            query = "SELECT folded FROM saved_rules WHERE guild_id = ?"
            kept = {key for (key,) in await unit.fetch(query, (guild_id,))}
            if folded(name) in kept:
                return Saving.TAKEN
            if len(kept) >= cap:
                return Saving.FULL
            query = """INSERT INTO saved_rules (guild_id, folded, name, ruleset, created_at)
                       VALUES (?, ?, ?, ?, ?)"""
            rules = json.dumps(ruleset.to_json(), separators=(",", ":"))
            await unit.execute(query, (guild_id, folded(name), name, rules, self._clock()))
        return Saving.SAVED

    async def delete(self, guild_id: int, name: str) -> str | None:
        """Delete the server's ruleset of that name (case aside); its name as saved, or
        None if there was none."""
        query = "DELETE FROM saved_rules WHERE guild_id = ? AND folded = ? RETURNING name"
        async with self._db.write() as unit:
            rows = await unit.fetch(query, (guild_id, folded(name)))
        return str(rows[0][0]) if rows else None


def _saved(row: tuple[object, ...]) -> SavedRuleset:
    name, rules = row
    return SavedRuleset(name=str(name), ruleset=Ruleset.from_json(json.loads(str(rules))))
