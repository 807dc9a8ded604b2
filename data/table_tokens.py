"""Table tokens: the interaction token that edits each running game's table message.

Every public message of a game rides on its players' clicks' tokens; a restarted bot
edits the table on with the token stored here while Discord still takes it (15 minutes).
"""

from __future__ import annotations

from collections.abc import Callable

from .database import Database
from .records import TableTokenRecord
from .shards import Leases, served


class TableTokenRows:
    """The token of each game's table message, kept so a restart can still edit it."""

    def __init__(self, db: Database, clock: Callable[[], float], leases: Leases) -> None:
        self._db = db
        self._clock = clock  # unix time
        self._leases = leases  # only the tokens of games this process serves come back

    async def save(self, record: TableTokenRecord) -> None:
        """Remember (or replace) a game's table token."""
        async with self._db.write() as unit:
            query = """INSERT INTO table_tokens (game_id, application_id, token, message_id,
                                                 clicked_at, bot_member, original)
                       VALUES (?, ?, ?, ?, ?, ?, ?)
                       ON CONFLICT (game_id) DO UPDATE SET
                           application_id = excluded.application_id, token = excluded.token,
                           message_id = excluded.message_id, clicked_at = excluded.clicked_at,
                           bot_member = excluded.bot_member, original = excluded.original
                    """
            await unit.execute(
                query,
                (
                    record.game_id,
                    record.application_id,
                    record.token,
                    record.message_id,
                    record.clicked_at,
                    int(record.bot_member),
                    int(record.original),
                ),
            )

    async def table_tokens(self) -> list[TableTokenRecord]:
        """The table tokens of the unfinished games this process serves, expired ones
        too (a table whose token expired while the bot was down waits for a click; the
        row still says whether the bot is a member there)."""
        where, params = served(self._leases.shards, column="g.guild_id")
        async with self._db.read() as unit:
            query = f"""SELECT t.game_id, t.application_id, t.token, t.message_id,
                               t.clicked_at, t.bot_member, t.original
                        FROM table_tokens t JOIN games g ON g.id = t.game_id
                        WHERE g.status IN ('lobby', 'running') AND {where}
                        ORDER BY t.game_id
                     """
            rows = await unit.fetch(query, params)
        return [
            TableTokenRecord(
                game_id=row[0],
                application_id=row[1],
                token=row[2],
                message_id=row[3],
                clicked_at=row[4],
                bot_member=bool(row[5]),
                original=bool(row[6]),
            )
            for row in rows
        ]
