"""How far each table message has listed its game's moves, for a restart to go on from.

The front end keeps it after each edit; a table shown after a restart counts the
moves it never listed beyond those it lists (see ``bot.frontend.table_edits``).
"""

from __future__ import annotations

from .database import Database


class ListedRows:
    """How many of its game's move lines each table message has listed."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def set_moves_listed(self, game_id: int, count: int) -> None:
        """The table lists the game's lines up to ``count``: kept, unless a later edit's
        write already kept more (writes going out at once may land out of order)."""
        async with self._db.write() as unit:
            query = """UPDATE games SET moves_listed = ?
                       WHERE id = ? AND (moves_listed IS NULL OR moves_listed < ?)"""
            await unit.execute(query, (count, game_id, count))
