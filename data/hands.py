"""Open hands: the private hands a restarted bot keeps refreshing.

They are the hands players opened before the bot went down (their messages
stay editable for 15 minutes).
"""

from __future__ import annotations

from collections.abc import Callable

from .database import Database
from .records import OpenHandRecord
from .shards import Leases, served

#: Discord lets an interaction token edit its messages this long (seconds).
TOKEN_LIFETIME = 15 * 60


class OpenHandRows:
    """The players' open hands, kept so a restart can still edit them."""

    def __init__(self, db: Database, clock: Callable[[], float], leases: Leases) -> None:
        self._db = db
        self._clock = clock  # unix time
        self._leases = leases  # only the hands of games this process serves come back

    async def save_open_hand(self, hand: OpenHandRecord) -> None:
        """Remember (or replace) a player's open hand; forget every expired one."""
        async with self._db.write() as unit:
            query = """INSERT INTO open_hands (game_id, user_id, application_id, token,
                                               message_id, locale, warning, opened_at)
                       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                       ON CONFLICT (game_id, user_id) DO UPDATE SET
                           application_id = excluded.application_id, token = excluded.token,
                           message_id = excluded.message_id, locale = excluded.locale,
                           warning = excluded.warning, opened_at = excluded.opened_at
                    """
            await unit.execute(
                query,
                (
                    hand.game_id,
                    hand.user_id,
                    hand.application_id,
                    hand.token,
                    hand.message_id,
                    hand.locale,
                    hand.warning,
                    hand.opened_at,
                ),
            )
            query = "DELETE FROM open_hands WHERE opened_at < ?"
            await unit.execute(query, (hand.opened_at - TOKEN_LIFETIME,))

    async def open_hands(self) -> list[OpenHandRecord]:
        """The open hands Discord still lets the bot edit; once this process has
        claimed its shards, only those of games in their guilds."""
        where, params = served(self._leases.shards, column="g.guild_id")
        async with self._db.read() as unit:
            query = f"""SELECT h.game_id, h.user_id, h.application_id, h.token, h.message_id,
                               h.locale, h.warning, h.opened_at
                        FROM open_hands h JOIN games g ON g.id = h.game_id
                        WHERE h.opened_at >= ? AND {where}
                        ORDER BY h.opened_at
                     """
            rows = await unit.fetch(query, (self._clock() - TOKEN_LIFETIME, *params))
        return [OpenHandRecord(*row) for row in rows]
