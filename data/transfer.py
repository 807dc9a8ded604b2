"""Moving to PostgreSQL: copy a SQLite database into an empty PostgreSQL one, then check it.

``python -m bot migrate-to-postgres URL`` runs :func:`copy_to_postgres` with the
bot's ``DATABASE_PATH``.  Both sides are first brought to the newest schema,
every table is copied in one transaction (all of it or nothing), and then both
databases are read back and compared row by row.  Stop the bot while it runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .database import Row, Unit
from .records import StoreError
from .store import Store

#: Every table and the columns that make it up, in the order they are copied
#: (parents first); each is read back in key order to compare.
TABLES: tuple[tuple[str, str, str], ...] = (
    (
        "games",
        "id, guild_id, channel_id, table_message_id, host_id, ruleset, status, turn_timer, "
        "turn_deadline, created_at, updated_at, finished_at, language, hints, end_shown, "
        "end_reason, chart_posted, moves_listed, waits_until",
        "id",
    ),
    ("seats", "game_id, seat, user_id, ai, name, missed_turns, away", "game_id, seat"),
    ("events", "game_id, seq, kind, payload, meta, created_at", "game_id, seq"),
    (
        "round_results",
        "game_id, round_no, seat, penalty, gained, returned, total, emptied, hand, discarded",
        "game_id, round_no, seat",
    ),
    ("game_results", "game_id, seat, points, winner, place", "game_id, seat"),
    # The notes at one seq keep their order: rowid in SQLite, id in PostgreSQL.
    ("seat_notes", "game_id, seq, seat, kind, created_at", "game_id, seq, {order}"),
    ("lobby_removals", "game_id, user_id", "game_id, user_id"),
    ("hints_shown", "game_id, seq, seat, kind, card", "game_id, seq, kind, card"),
    ("guild_settings", "guild_id, language, turn_timer, hints, house_rules_board", "guild_id"),
    ("guild_channels", "guild_id, channel_id", "guild_id, channel_id"),
    ("saved_rules", "guild_id, folded, name, ruleset, created_at", "guild_id, folded"),
    (
        "pings",
        "message_id, game_id, channel_id, application_id, token, sent_at",
        "message_id",
    ),  # still to take down
    # The ratings: the seasons' plans cannot be worked out again, the rest could be.
    ("season_plans", "guild_id, started_at, days", "guild_id, started_at"),
    (
        "ratings",
        "guild_id, season, player, user_id, ai, name, mu, sigma, ordinal, games, last_game",
        "guild_id, season, player",
    ),
    ("rated_games", "game_id, guild_id, finished_at, season", "game_id"),
    # The board each game with house rules counts on: a recomputation keeps it.
    ("game_boards", "game_id, guild_id, board", "game_id"),
    (
        "rating_changes",
        "game_id, seat, season, guild_id, player, channel_id, rank, mu_before, sigma_before, "
        "mu_after, sigma_after",
        "game_id, seat, season",
    ),
)


@dataclass(frozen=True, slots=True)
class Copied:
    """How many rows of each table were copied (and found equal on both sides)."""

    rows: dict[str, int]

    def summary(self) -> str:
        return ", ".join(f"{count} {table}" for table, count in self.rows.items())


async def copy_to_postgres(source: str | Path, url: str) -> Copied:
    """Copy the SQLite database ``source`` into the empty PostgreSQL database at ``url``."""
    if not Path(source).is_file():
        raise StoreError(f"there is no SQLite database at {source}")
    async with await Store.open(source) as old, await Store.open(url) as new:
        async with new._db.write() as target:
            [(games,)] = await target.fetch("SELECT COUNT(*) FROM games")
            [(guilds,)] = await target.fetch("SELECT COUNT(*) FROM guild_settings")
            if games or guilds:
                raise StoreError(
                    f"{new.path} already holds {games} games and {guilds} guild settings; "
                    "copy into an empty database"
                )
            async with old._db.read() as origin:
                for table, columns, _ in TABLES:
                    rows = await _all(origin, table, columns)
                    marks = ", ".join("?" for _ in columns.split(","))
                    query = f"INSERT INTO {table} ({columns}) VALUES ({marks})"
                    await target.executemany(query, rows)
            # New games go on from the highest id copied.
            query = """SELECT setval(pg_get_serial_sequence('games', 'id'),
                                     COALESCE(MAX(id), 0) + 1, false) FROM games"""
            await target.fetch(query)
        return await _compare(old, new)


async def _all(unit: Unit, table: str, columns: str) -> list[Row]:
    order = next(key for name, _, key in TABLES if name == table)
    order = order.format(order="id" if unit.dialect == "postgres" else "rowid")
    return await unit.fetch(f"SELECT {columns} FROM {table} ORDER BY {order}")


async def _compare(old: Store, new: Store) -> Copied:
    counts: dict[str, int] = {}
    async with old._db.read() as origin, new._db.read() as target:
        for table, columns, _ in TABLES:
            before = await _all(origin, table, columns)
            after = await _all(target, table, columns)
            if before != after:
                differ = next(
                    (i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b),
                    min(len(before), len(after)),
                )
                raise StoreError(
                    f"the copy of {table} differs from the original ({len(before)} rows, "
                    f"{len(after)} copied, first difference at row {differ + 1})"
                )
            counts[table] = len(before)
    return Copied(counts)
