"""Deleting what the bot keeps about a server or a person, on either backend.

A server's data is all of its games (with their moves, seats, results and open
hands) and its settings.  A person's data is their user id and display name on
every seat they held: the seat stays, so the other players' games and results
stay whole, but it becomes an anonymous seat that counts for nobody's stats (an
AI seat named :data:`FORMER_PLAYER`), games they hosted get no host, and the
hands they had open (with Discord's token to edit them) are dropped.
"""

from __future__ import annotations

from dataclasses import dataclass

from .database import Part

FORMER_PLAYER = "former player"
#: A game whose host was forgotten is hosted by nobody (no user has id 0).
NO_HOST = 0


@dataclass(frozen=True, slots=True)
class Forgotten:
    games: int = 0
    seats: int = 0
    settings: int = 0


class Forgetting(Part):
    async def forget_guild(self, guild_id: int) -> Forgotten:
        """Delete every game and the settings of the server ``guild_id``, in one transaction."""
        async with self._db.write() as unit:
            # Moves, seats, results and open hands go with their game (ON DELETE CASCADE).
            games = await unit.fetch(
                "DELETE FROM games WHERE guild_id = ? RETURNING id", (guild_id,)
            )
            settings = await unit.fetch(
                "DELETE FROM guild_settings WHERE guild_id = ? RETURNING guild_id", (guild_id,)
            )
        return Forgotten(games=len(games), settings=len(settings))

    async def forget_user(self, user_id: int) -> Forgotten:
        """Remove ``user_id`` and their name from every seat and game, in one transaction."""
        async with self._db.write() as unit:
            seats = await unit.fetch(
                "UPDATE seats SET user_id = NULL, ai = COALESCE(ai, 'normal'), name = ?, away = 0 "
                "WHERE user_id = ? RETURNING game_id",
                (FORMER_PLAYER, user_id),
            )
            games = await unit.fetch(
                "UPDATE games SET host_id = ? WHERE host_id = ? RETURNING id", (NO_HOST, user_id)
            )
            await unit.execute("DELETE FROM open_hands WHERE user_id = ?", (user_id,))
        return Forgotten(games=len(games), seats=len(seats))
