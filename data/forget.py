"""Deleting what the bot keeps about a server or a person, on either backend.

A server's data is all of its games (with their moves, seats, results and open
hands), its settings (language, defaults, allowed channels, saved house rules, where
house-rules games are rated) and its ratings, season plans and the boards its games
counted on.  A person's data
is their user id and display name on every seat they held: the seat stays, so
the other players' games and results stay whole, but it becomes an anonymous seat
that counts for nobody's stats (an AI seat named :data:`~data.records.FORMER_PLAYER`), games
they hosted get no host, the hands they had open (with Discord's token to
edit them), the hints they were shown and the lobbies' notes that keep them out are
dropped, and so are their ratings (what their games did to the others' ratings
stays, under the anonymous key :data:`~data.ratings.FORMER`).

Then the touched tables are vacuumed (SQLite: the whole file, and its write-ahead
log emptied), so what was deleted is no longer in the database's free space; a
failed VACUUM leaves the deletion done and says so in ``Forgotten.not_vacuumed``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from .database import Database
from .ratings import FORMER, user_player
from .records import FORMER_PLAYER, StoreError
from .shards import refuse_while_served

log = logging.getLogger(__name__)


#: A game whose host was forgotten is hosted by nobody (no user has id 0).
NO_HOST = 0
#: The tables a server's games live in (the others go with ``games``, ON DELETE CASCADE).
GUILD_TABLES = (
    "games",
    "seats",
    "events",
    "round_results",
    "game_results",
    "open_hands",
    "table_tokens",
    "seat_notes",
    "lobby_removals",
    "hints_shown",
    "pings",
    "guild_settings",
    "guild_channels",
    "saved_rules",
    "season_plans",
    "ratings",
    "rated_games",
    "rating_changes",
    "game_boards",
)
USER_TABLES = (
    "seats",
    "games",
    "open_hands",
    "lobby_removals",
    "hints_shown",
    "ratings",
    "rating_changes",
)


@dataclass(frozen=True, slots=True)
class Forgotten:
    games: int = 0
    seats: int = 0
    settings: int = 0
    #: Why the VACUUM after the deletion failed (the deletion itself is done), if it did.
    not_vacuumed: str | None = None


class Forgetting:
    """Erasing a server's or a person's data, then vacuuming what held it."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self._db = db
        self._clock = clock  # unix time, for the leases of a bot running beside

    async def forget_guild(self, guild_id: int) -> Forgotten:
        """Delete every game and the settings of the server ``guild_id``, in one transaction."""
        async with self._db.write() as unit:
            await refuse_while_served(unit, self._clock())
            # Moves, seats, results, open hands and the boards rated on go with their
            # game, the allowed channels and saved rules with the settings (ON DELETE
            # CASCADE).
            games = await unit.fetch(
                "DELETE FROM games WHERE guild_id = ? RETURNING id", (guild_id,)
            )
            settings = await unit.fetch(
                "DELETE FROM guild_settings WHERE guild_id = ? RETURNING guild_id", (guild_id,)
            )
            # The rated games and their changes went with the games; the ratings and the
            # season plans are the server's own.
            await unit.execute("DELETE FROM ratings WHERE guild_id = ?", (guild_id,))
            await unit.execute("DELETE FROM rating_changes WHERE guild_id = ?", (guild_id,))
            await unit.execute("DELETE FROM rated_games WHERE guild_id = ?", (guild_id,))
            await unit.execute("DELETE FROM season_plans WHERE guild_id = ?", (guild_id,))
        return Forgotten(
            games=len(games), settings=len(settings), not_vacuumed=await self._vacuum(GUILD_TABLES)
        )

    async def forget_user(self, user_id: int) -> Forgotten:
        """Remove ``user_id`` and their name from every seat and game, in one transaction."""
        async with self._db.write() as unit:
            await refuse_while_served(unit, self._clock())
            # The hints shown at their seats only ever served their own review, which
            # nobody can ask for once the seats are anonymous: first, while the seats
            # still say whose they were.
            await unit.execute(
                # By their seats (the seats_by_user index), then each game's hints by key:
                # not a scan of every hint ever shown.
                "DELETE FROM hints_shown WHERE (game_id, seat) IN "
                "(SELECT game_id, seat FROM seats WHERE user_id = ?)",
                (user_id,),
            )
            seats = await unit.fetch(
                "UPDATE seats SET user_id = NULL, ai = COALESCE(ai, 'normal'), name = ?, away = 0 "
                "WHERE user_id = ? RETURNING game_id",
                (FORMER_PLAYER, user_id),
            )
            games = await unit.fetch(
                "UPDATE games SET host_id = ? WHERE host_id = ? RETURNING id", (NO_HOST, user_id)
            )
            await unit.execute("DELETE FROM open_hands WHERE user_id = ?", (user_id,))
            # Forgotten, they are nobody a lobby could keep out any more.
            await unit.execute("DELETE FROM lobby_removals WHERE user_id = ?", (user_id,))
            # Their ratings go; what their games did to them stays for the others' sake,
            # under no name (a recomputation rates the seat as a newcomer, see FORMER).
            await unit.execute("DELETE FROM ratings WHERE user_id = ?", (user_id,))
            await unit.execute(
                "UPDATE rating_changes SET player = ? WHERE player = ?",
                (FORMER, user_player(user_id)),
            )
        return Forgotten(
            games=len(games), seats=len(seats), not_vacuumed=await self._vacuum(USER_TABLES)
        )

    async def _vacuum(self, tables: tuple[str, ...]) -> str | None:
        try:
            await self._db.compact(tables)
        except StoreError as error:
            log.warning("deleted, but %s", error)
            return str(error)
        return None
