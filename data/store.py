"""The SQLite store: every game, move and result, written before anyone sees it.

One aiosqlite connection in WAL mode.  Each public method is one unit of work
in one transaction, and units never interleave: an ``asyncio.Lock`` serializes
them, writes open with ``BEGIN IMMEDIATE`` and reads with a plain ``BEGIN`` (so
a read sees one consistent snapshot and never another unit's half-done work).
A failure rolls the whole unit back and raises :class:`StoreError`.

Games are stored as their event log (``Match.events``, one row per event, seq
= index in that list) plus the round and game results the stats read.  A game
is rebuilt with ``Match.replay(record.ruleset, len(record.seats), record.events)``.

Every SQL statement is a literal right above its single use; values are always
bound parameters, never formatted into the SQL.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager, suppress
from functools import lru_cache
from importlib.resources.abc import Traversable
from pathlib import Path
from types import TracebackType
from typing import Any

import aiosqlite

from game import Event, RoundDealt, RoundResult, Ruleset, event_from_json

from .records import (
    LEADERBOARD_ORDERS,
    STATUSES,
    ChipHistory,
    GameRecord,
    HistoryRow,
    LeaderboardRow,
    PlayerStats,
    SeatNote,
    SeatRecord,
    StoreError,
)
from .schema import load_migrations, migrate

__all__ = [
    "ChipHistory",
    "GameRecord",
    "HistoryRow",
    "LeaderboardRow",
    "PlayerStats",
    "SeatNote",
    "SeatRecord",
    "Store",
    "StoreError",
]

log = logging.getLogger(__name__)

Row = Any  # a result row (a tuple); its columns are named in the query above it


def _dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


class Store:
    """Persistence for games, guild settings and statistics. Open with :meth:`open`."""

    def __init__(
        self,
        conn: aiosqlite.Connection,
        *,
        path: str,
        clock: Callable[[], float],
        version: int,
    ) -> None:
        self._conn: aiosqlite.Connection | None = conn
        self.path = path
        self._lock = asyncio.Lock()
        self._clock = clock
        self.schema_version = version

    # ------------------------------------------------------------ lifecycle
    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        durable: bool = True,
        migrations: Traversable | Path | None = None,
        clock: Callable[[], float] = time.time,
    ) -> Store:
        """Open (creating if needed) and migrate the database at ``path``.

        ``durable`` makes each commit wait for the disk (``synchronous=FULL``);
        with ``False`` (``NORMAL``) a power cut may lose the last commits, but
        never corrupts the database.  ``migrations`` replaces the bundled
        migrations directory (for tests); ``clock`` gives the unix time.
        """
        plan = load_migrations(migrations)
        try:
            conn = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as error:
            raise StoreError(f"could not open the database {path}: {error}") from error
        try:
            await conn.execute("PRAGMA busy_timeout = 5000")
            rows = list(await conn.execute_fetchall("PRAGMA journal_mode = WAL"))
            if rows[0][0] != "wal" and str(path) != ":memory:":
                raise StoreError(f"could not switch {path} to WAL mode (got {rows[0][0]})")
            await conn.execute("PRAGMA foreign_keys = ON")
            if durable:
                await conn.execute("PRAGMA synchronous = FULL")
            else:
                await conn.execute("PRAGMA synchronous = NORMAL")
            version = await migrate(conn, plan)
        except BaseException as error:
            await conn.close()
            if isinstance(error, sqlite3.Error):
                raise StoreError(f"could not open the database {path}: {error}") from error
            raise
        return cls(conn, path=str(path), clock=clock, version=version)

    async def close(self) -> None:
        """Wait for the running unit of work, then close. Closing twice is fine."""
        async with self._lock:
            if self._conn is not None:
                conn, self._conn = self._conn, None
                with suppress(sqlite3.Error):
                    await conn.execute("PRAGMA optimize")  # refresh planner stats if stale
                await conn.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def pragmas(self) -> dict[str, int | str]:
        """The connection settings, for diagnostics and tests."""
        out: dict[str, int | str] = {}
        async with self._read() as conn:
            for name, query in (
                ("journal_mode", "PRAGMA journal_mode"),
                ("foreign_keys", "PRAGMA foreign_keys"),
                ("synchronous", "PRAGMA synchronous"),
                ("busy_timeout", "PRAGMA busy_timeout"),
                ("user_version", "PRAGMA user_version"),
            ):
                rows = list(await conn.execute_fetchall(query))
                out[name] = rows[0][0]
        return out

    # ------------------------------------------------------------ transactions
    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._unit("BEGIN IMMEDIATE", "could not save") as conn:
            yield conn

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._unit("BEGIN", "could not load") as conn:
            yield conn

    @asynccontextmanager
    async def _unit(self, begin: str, failure: str) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            conn = self._conn
            if conn is None:
                raise StoreError(f"{failure}: the store is closed")
            try:
                await conn.execute(begin)
            except sqlite3.Error as error:
                raise StoreError(f"{failure}: {error}") from error
            try:
                yield conn
                await conn.execute("COMMIT")
            except BaseException as error:
                await _rollback(conn)
                if isinstance(error, sqlite3.Error):
                    raise StoreError(f"{failure}: {error}") from error
                raise

    # ------------------------------------------------------------ lobby
    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        ruleset: Ruleset,
        turn_timer: int,
        seats: Sequence[SeatRecord],
        language: str | None = None,
    ) -> int:
        """Store a new game in the ``lobby`` status and return its id."""
        now = self._clock()
        async with self._write() as conn:
            query = """INSERT INTO games (guild_id, channel_id, host_id, ruleset, status,
                                          turn_timer, language, created_at, updated_at)
                       VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?)
                       RETURNING id
                    """
            rows = await conn.execute_fetchall(
                query,
                (
                    guild_id,
                    channel_id,
                    host_id,
                    _dumps(ruleset.to_json()),
                    turn_timer,
                    language,
                    now,
                    now,
                ),
            )
            game_id = int(next(iter(rows))[0])
            await _insert_seats(conn, game_id, seats)
        return game_id

    async def update_lobby(
        self,
        game_id: int,
        *,
        seats: Sequence[SeatRecord],
        ruleset: Ruleset | None = None,
        host_id: int | None = None,
    ) -> None:
        """Replace the seats (and the ruleset and the host, if given) of a game in the lobby."""
        ruleset_json = None if ruleset is None else _dumps(ruleset.to_json())
        async with self._write() as conn:
            query = """UPDATE games SET ruleset = COALESCE(?, ruleset),
                                        host_id = COALESCE(?, host_id), updated_at = ?
                       WHERE id = ? AND status = 'lobby'
                       RETURNING id
                    """
            params = (ruleset_json, host_id, self._clock(), game_id)
            if not await conn.execute_fetchall(query, params):
                raise await _wrong_status(conn, game_id, "in the lobby")
            await _replace_seats(conn, game_id, seats)

    async def set_ping_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the turn ping standing in the game's channel (None: none stands)."""
        async with self._write() as conn:
            query = "UPDATE games SET ping_message_id = ? WHERE id = ? RETURNING id"
            if not await conn.execute_fetchall(query, (message_id, game_id)):
                raise StoreError(f"could not save: there is no game {game_id}")

    async def set_table_message(self, game_id: int, message_id: int) -> None:
        """Remember the channel message that shows the table."""
        async with self._write() as conn:
            query = """UPDATE games SET table_message_id = ?, updated_at = ? WHERE id = ?
                       RETURNING id
                    """
            if not await conn.execute_fetchall(query, (message_id, self._clock(), game_id)):
                raise StoreError(f"could not save: there is no game {game_id}")

    async def start_game(
        self,
        game_id: int,
        *,
        seats: Sequence[SeatRecord],
        events: Sequence[Event],
        turn_deadline: float | None = None,
    ) -> None:
        """Lobby to ``running``: the final seats and the first events (seq 0, 1, ...)."""
        now = self._clock()
        async with self._write() as conn:
            query = """UPDATE games SET status = 'running', turn_deadline = ?, updated_at = ?
                       WHERE id = ? AND status = 'lobby'
                       RETURNING id
                    """
            if not await conn.execute_fetchall(query, (turn_deadline, now, game_id)):
                raise await _wrong_status(conn, game_id, "in the lobby")
            await _replace_seats(conn, game_id, seats)
            await _insert_events(conn, game_id, 0, events, None, now)

    # ------------------------------------------------------------ play
    async def append_events(
        self,
        game_id: int,
        first_seq: int,
        events: Sequence[Event],
        *,
        meta: Sequence[dict[str, Any] | None] | None = None,
        results: Sequence[RoundResult] = (),
        finished: tuple[int, ...] | None = None,
        final_points: Sequence[int] | None = None,
        turn_deadline: float | None = None,
        seats: Sequence[SeatRecord] | None = None,
        notes: Sequence[SeatNote] = (),
    ) -> None:
        """Save what a move did, all of it or nothing, in one transaction.

        ``events`` go to seq ``first_seq``, ``first_seq + 1``, ... (``first_seq``
        is ``len(match.events)`` before the move).  A seq already stored fails
        on the primary key, so a move can never be saved twice; a seq past the
        end of the log fails too, so none can be skipped.  ``meta`` holds an
        optional JSON object per event (who or what made the move, say); it
        may be shorter than ``events``, the rest get none.
        ``results`` are the rounds the move ended.  ``finished`` (the winners)
        marks the game finished and stores each seat's ``final_points``
        (default: the totals of the last result), winner flag and place.
        ``turn_deadline`` replaces the deadline; ``seats`` rewrites those seats'
        rows (missed turns, away flag); ``notes`` the seat changes that came with
        the move (an AI taking over).  Only a ``running`` game takes events.
        """
        if meta is not None and len(meta) > len(events):
            raise ValueError(f"{len(meta)} meta entries for {len(events)} events")
        if first_seq < 0:
            raise ValueError(f"negative seq {first_seq}")
        points: list[int] | None = None
        if finished is not None:
            if not finished:
                raise ValueError("a finished game needs at least one winner")
            if final_points is not None:
                points = list(final_points)
            elif results:
                points = [row.total for row in results[-1].seats]
            else:
                raise ValueError("a finished game needs final_points or a last round result")
            if not all(0 <= seat < len(points) for seat in finished):
                raise ValueError(f"winners {finished} for {len(points)} seats")
        now = self._clock()
        async with self._write() as conn:
            query = """UPDATE games
                       SET status = ?, turn_deadline = ?, updated_at = ?, finished_at = ?
                       WHERE id = ? AND status = 'running'
                       RETURNING id
                    """
            params = (
                ("finished", None, now, now, game_id)
                if finished is not None
                else ("running", turn_deadline, now, None, game_id)
            )
            if not await conn.execute_fetchall(query, params):
                raise await _wrong_status(conn, game_id, "running")

            # The primary key refuses a seq already taken, a trigger one past the end.
            await _insert_events(conn, game_id, first_seq, events, meta, now)
            await _insert_notes(conn, game_id, notes, now)

            if results:
                query = """INSERT INTO round_results (game_id, round_no, seat, penalty, gained,
                                                      returned, total, emptied, hand, discarded)
                           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """
                await conn.executemany(
                    query,
                    [
                        (
                            game_id,
                            result.round_no,
                            row.seat,
                            row.penalty.total,
                            row.gained,
                            row.returned,
                            row.total,
                            int(row.emptied),
                            _dumps([int(card) for card in row.hand]),
                            None if row.discarded is None else int(row.discarded),
                        )
                        for result in results
                        for row in result.seats
                    ],
                )

            if finished is not None and points is not None:
                query = "SELECT COUNT(*) FROM seats WHERE game_id = ?"
                [(count,)] = await conn.execute_fetchall(query, (game_id,))
                if count != len(points):
                    raise StoreError(
                        f"could not save: {len(points)} final points for {count} seats"
                    )
                query = """INSERT INTO game_results (game_id, seat, points, winner, place)
                           VALUES (?, ?, ?, ?, ?)
                        """
                await conn.executemany(
                    query,
                    [
                        (
                            game_id,
                            seat,
                            own,
                            int(seat in finished),
                            1 + sum(other < own for other in points),
                        )
                        for seat, own in enumerate(points)
                    ],
                )

            if seats is not None:
                await _update_seats(conn, game_id, seats)

    async def update_timer(
        self,
        game_id: int,
        *,
        turn_deadline: float | None,
        seats: Sequence[SeatRecord] | None = None,
        host_id: int | None = None,
        note: SeatNote | None = None,
    ) -> None:
        """Set the turn deadline of a lobby or running game (None: no deadline); with
        ``seats``, ``host_id`` and ``note`` (the seat change behind it), those too."""
        async with self._write() as conn:
            query = """UPDATE games SET turn_deadline = ?, host_id = COALESCE(?, host_id),
                                        updated_at = ?
                       WHERE id = ? AND status IN ('lobby', 'running')
                       RETURNING id
                    """
            params = (turn_deadline, host_id, self._clock(), game_id)
            if not await conn.execute_fetchall(query, params):
                raise await _wrong_status(conn, game_id, "in the lobby or running")
            if seats is not None:
                await _update_seats(conn, game_id, seats)
            if note is not None:
                await _insert_notes(conn, game_id, (note,), self._clock())

    async def set_status(self, game_id: int, status: str) -> None:
        """Move a lobby or running game to ``status`` (``cancelled``, say).

        A finished or cancelled game keeps its status for good.
        """
        if status not in STATUSES:
            raise ValueError(f"unknown status {status!r}")
        now = self._clock()
        async with self._write() as conn:
            query = """UPDATE games
                       SET status = :status,
                           updated_at = :now,
                           finished_at = CASE WHEN :status = 'finished' THEN :now END,
                           turn_deadline = CASE WHEN :status IN ('lobby', 'running')
                                                THEN turn_deadline END
                       WHERE id = :id AND status IN ('lobby', 'running')
                       RETURNING id
                    """
            if not await conn.execute_fetchall(
                query, {"status": status, "now": now, "id": game_id}
            ):
                raise await _wrong_status(conn, game_id, "in the lobby or running")

    # ------------------------------------------------------------ loading
    async def load_game(self, game_id: int) -> GameRecord | None:
        async with self._read() as conn:
            query = """SELECT id, guild_id, channel_id, table_message_id, host_id, ruleset, status,
                              turn_timer, turn_deadline, language, created_at, finished_at,
                              ping_message_id, updated_at
                       FROM games WHERE id = ?
                    """
            games = list(await conn.execute_fetchall(query, (game_id,)))
            if not games:
                return None

            query = """SELECT game_id, seat, user_id, ai, name, missed_turns, away
                       FROM seats WHERE game_id = ? ORDER BY seat
                    """
            seats = await conn.execute_fetchall(query, (game_id,))

            query = """SELECT game_id, kind, payload, meta
                       FROM events WHERE game_id = ? ORDER BY seq
                    """
            events = await conn.execute_fetchall(query, (game_id,))

            query = """SELECT game_id, seq, seat, kind FROM seat_notes
                       WHERE game_id = ? ORDER BY seq, rowid
                    """
            notes = await conn.execute_fetchall(query, (game_id,))
        records, broken = _assemble(games, seats, events, notes)
        if broken:
            raise StoreError(f"could not load game {game_id}: {broken[game_id]}")
        return records[0]

    async def unfinished_games(self) -> list[GameRecord]:
        """Every game in the lobby or running, by id, for resuming after a restart.

        Four queries whatever the number of games.  A game whose stored data
        can't be read is logged and left out (and left alone), so it cannot
        keep every other game from resuming.
        """
        async with self._read() as conn:
            query = """SELECT id, guild_id, channel_id, table_message_id, host_id, ruleset, status,
                              turn_timer, turn_deadline, language, created_at, finished_at,
                              ping_message_id, updated_at
                       FROM games WHERE status IN ('lobby', 'running') ORDER BY id
                    """
            games = list(await conn.execute_fetchall(query))

            # "IN (SELECT ...)" looks each game up by key, in key order: never a scan of
            # every seat or event ever stored, and no sort (see EXPLAIN QUERY PLAN).
            query = """SELECT game_id, seat, user_id, ai, name, missed_turns, away
                       FROM seats
                       WHERE game_id IN (SELECT id FROM games WHERE status IN ('lobby', 'running'))
                       ORDER BY game_id, seat
                    """
            seats = await conn.execute_fetchall(query)

            query = """SELECT game_id, kind, payload, meta
                       FROM events
                       WHERE game_id IN (SELECT id FROM games WHERE status IN ('lobby', 'running'))
                       ORDER BY game_id, seq
                    """
            events = await conn.execute_fetchall(query)

            query = """SELECT game_id, seq, seat, kind
                       FROM seat_notes
                       WHERE game_id IN (SELECT id FROM games WHERE status IN ('lobby', 'running'))
                       ORDER BY game_id, seq, rowid
                    """
            notes = await conn.execute_fetchall(query)
        records, broken = _assemble(games, seats, events, notes)
        for game_id, reason in broken.items():
            log.error(
                "game %s cannot be resumed, its stored data is unreadable: %s", game_id, reason
            )
        return records

    # ------------------------------------------------------------ settings
    async def get_language(self, guild_id: int) -> str | None:
        async with self._read() as conn:
            query = "SELECT language FROM guild_settings WHERE guild_id = ?"
            rows = list(await conn.execute_fetchall(query, (guild_id,)))
        return rows[0][0] if rows else None

    async def set_language(self, guild_id: int, language: str | None) -> None:
        """Set the guild's language; None goes back to the default."""
        async with self._write() as conn:
            query = """INSERT INTO guild_settings (guild_id, language) VALUES (?, ?)
                       ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language
                    """
            await conn.execute(query, (guild_id, language))

    # ------------------------------------------------------------ stats
    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """A person's finished games in a guild; None if they finished none."""
        async with self._read() as conn:
            query = """SELECT COUNT(*), TOTAL(r.winner), AVG(r.points),
                              s.name, MAX(g.finished_at)  -- bare column: name in the latest game
                       FROM games AS g
                       JOIN seats AS s ON s.game_id = g.id
                       JOIN game_results AS r ON r.game_id = s.game_id AND r.seat = s.seat
                       WHERE g.guild_id = ? AND g.status = 'finished' AND s.user_id = ?
                    """
            rows = list(await conn.execute_fetchall(query, (guild_id, user_id)))
            games, wins, average, name, _ = rows[0]
            if not games:
                return None

            query = """SELECT r.points, g.id, g.finished_at
                       FROM games AS g
                       JOIN seats AS s ON s.game_id = g.id
                       JOIN game_results AS r ON r.game_id = s.game_id AND r.seat = s.seat
                       WHERE g.guild_id = ? AND g.status = 'finished' AND s.user_id = ?
                       ORDER BY r.points, g.finished_at, g.id
                       LIMIT 1
                    """
            best = list(await conn.execute_fetchall(query, (guild_id, user_id)))[0]

            query = """SELECT COUNT(*), TOTAL(rr.emptied), TOTAL(rr.returned)
                       FROM games AS g
                       JOIN seats AS s ON s.game_id = g.id
                       JOIN round_results AS rr ON rr.game_id = s.game_id AND rr.seat = s.seat
                       WHERE g.guild_id = ? AND g.status = 'finished' AND s.user_id = ?
                    """
            rounds, emptied, returned = list(
                await conn.execute_fetchall(query, (guild_id, user_id))
            )[0]
        return PlayerStats(
            user_id=user_id,
            name=name,
            games=games,
            wins=int(wins),
            win_rate=wins / games,
            average_points=float(average),
            rounds=rounds,
            rounds_emptied=int(emptied),
            chips_returned=int(returned),
            best_points=best[0],
            best_game_id=best[1],
            best_game_at=best[2],
        )

    async def leaderboard(
        self,
        guild_id: int,
        *,
        order: str = "wins",
        min_games: int = 1,
        limit: int = 10,
        offset: int = 0,
    ) -> list[LeaderboardRow]:
        """People (never AI seats) with at least ``min_games`` finished games, best first.

        ``wins``: most wins; ``win_rate``: highest share of games won;
        ``average``: lowest average final points.  Ties share a rank and are
        listed by games played, then user id.
        """
        if order not in LEADERBOARD_ORDERS:
            raise ValueError(f"unknown leaderboard order {order!r}")
        if limit < 0 or offset < 0:
            raise ValueError("limit and offset cannot be negative")
        params = {
            "guild": guild_id,
            "min_games": min_games,
            "order": order,
            "limit": limit,
            "offset": offset,
        }
        async with self._read() as conn:
            query = """WITH per_user AS (
                           SELECT s.user_id AS user_id,
                                  s.name AS name,  -- bare column: from the row of MAX(g.id)
                                  MAX(g.id) AS last_game,
                                  COUNT(*) AS games,
                                  SUM(r.winner) AS wins,
                                  CAST(SUM(r.winner) AS REAL) / COUNT(*) AS win_rate,
                                  AVG(r.points) AS average
                           FROM games AS g
                           JOIN seats AS s ON s.game_id = g.id
                           JOIN game_results AS r ON r.game_id = s.game_id AND r.seat = s.seat
                           WHERE g.guild_id = :guild AND g.status = 'finished'
                             AND s.user_id IS NOT NULL
                           GROUP BY s.user_id
                           HAVING COUNT(*) >= :min_games
                       )
                       SELECT RANK() OVER ranking AS place, user_id, name, games, wins,
                              win_rate, average
                       FROM per_user
                       WINDOW ranking AS (
                           ORDER BY CASE WHEN :order = 'wins' THEN wins END DESC,
                                    CASE WHEN :order = 'win_rate' THEN win_rate END DESC,
                                    CASE WHEN :order = 'average' THEN average END ASC
                       )
                       ORDER BY place, games DESC, user_id
                       LIMIT :limit OFFSET :offset
                    """
            rows = await conn.execute_fetchall(query, params)
        return [
            LeaderboardRow(
                rank=rank,
                user_id=user,
                name=name,
                games=games,
                wins=wins,
                win_rate=win_rate,
                average_points=average,
            )
            for rank, user, name, games, wins, win_rate, average in rows
        ]

    async def leaderboard_count(self, guild_id: int, *, min_games: int = 1) -> int:
        """How many rows the whole leaderboard has (for paging)."""
        async with self._read() as conn:
            query = """SELECT COUNT(*) FROM (
                           SELECT 1
                           FROM games AS g
                           JOIN seats AS s ON s.game_id = g.id
                           JOIN game_results AS r ON r.game_id = s.game_id AND r.seat = s.seat
                           WHERE g.guild_id = ? AND g.status = 'finished'
                             AND s.user_id IS NOT NULL
                           GROUP BY s.user_id
                           HAVING COUNT(*) >= ?
                       )
                    """
            rows = list(await conn.execute_fetchall(query, (guild_id, min_games)))
        return int(rows[0][0])

    async def history(self, guild_id: int, user_id: int, *, limit: int = 10) -> list[HistoryRow]:
        """A person's most recent finished games in a guild, newest first."""
        async with self._read() as conn:
            query = """SELECT g.id, g.finished_at,
                              (SELECT COUNT(*) FROM seats AS c WHERE c.game_id = g.id),
                              r.points, r.place, r.winner,
                              (SELECT json_group_array(name) FROM (
                                   SELECT w.name AS name
                                   FROM game_results AS wr
                                   JOIN seats AS w ON w.game_id = wr.game_id AND w.seat = wr.seat
                                   WHERE wr.game_id = g.id AND wr.winner = 1
                                   ORDER BY wr.seat
                              ))
                       FROM games AS g
                       JOIN seats AS s ON s.game_id = g.id
                       JOIN game_results AS r ON r.game_id = s.game_id AND r.seat = s.seat
                       WHERE g.guild_id = ? AND g.status = 'finished' AND s.user_id = ?
                       ORDER BY g.finished_at DESC, g.id DESC
                       LIMIT ?
                    """
            rows = await conn.execute_fetchall(query, (guild_id, user_id, limit))
        return [
            HistoryRow(
                game_id=game_id,
                finished_at=finished_at,
                players=players,
                points=points,
                place=place,
                winner=bool(winner),
                winners=tuple(json.loads(winners)),
            )
            for game_id, finished_at, players, points, place, winner, winners in rows
        ]

    async def latest_finished_game(self, guild_id: int) -> int | None:
        """The id of the game that finished last in a guild; None if none has finished."""
        async with self._read() as conn:
            query = """SELECT id FROM games
                       WHERE guild_id = ? AND status = 'finished'
                       ORDER BY finished_at DESC, id DESC
                       LIMIT 1
                    """
            rows = list(await conn.execute_fetchall(query, (guild_id,)))
        return int(rows[0][0]) if rows else None

    async def chip_history(self, game_id: int) -> ChipHistory | None:
        """Every seat's points after every finished round; None if there is no such game."""
        async with self._read() as conn:
            query = "SELECT ruleset FROM games WHERE id = ?"
            games = list(await conn.execute_fetchall(query, (game_id,)))
            if not games:
                return None

            query = "SELECT name FROM seats WHERE game_id = ? ORDER BY seat"
            names = tuple(name for (name,) in await conn.execute_fetchall(query, (game_id,)))

            query = """SELECT round_no, seat, total FROM round_results
                       WHERE game_id = ? ORDER BY round_no, seat
                    """
            rounds: dict[int, list[int]] = {}
            for round_no, seat, total in await conn.execute_fetchall(query, (game_id,)):
                rounds.setdefault(round_no, [0] * len(names))[seat] = total

            query = "SELECT seat FROM game_results WHERE game_id = ? AND winner = 1 ORDER BY seat"
            winners = tuple(seat for (seat,) in await conn.execute_fetchall(query, (game_id,)))
        ruleset = Ruleset.from_json(json.loads(games[0][0]))
        return ChipHistory(
            game_id=game_id,
            names=names,
            threshold=ruleset.threshold,
            totals=tuple(tuple(rounds[r]) for r in sorted(rounds)),
            winners=winners,
        )


# ---------------------------------------------------------------- helpers
async def _rollback(conn: aiosqlite.Connection) -> None:
    # Some failures (a full disk, say) end the transaction themselves.
    with suppress(sqlite3.Error):
        await conn.execute("ROLLBACK")


async def _wrong_status(conn: aiosqlite.Connection, game_id: int, expected: str) -> StoreError:
    query = "SELECT status FROM games WHERE id = ?"
    rows = list(await conn.execute_fetchall(query, (game_id,)))
    if not rows:
        return StoreError(f"could not save: there is no game {game_id}")
    return StoreError(f"could not save: game {game_id} is {rows[0][0]}, not {expected}")


async def _insert_seats(
    conn: aiosqlite.Connection, game_id: int, seats: Sequence[SeatRecord]
) -> None:
    query = """INSERT INTO seats (game_id, seat, user_id, ai, name, missed_turns, away)
               VALUES (?, ?, ?, ?, ?, ?, ?)
            """
    await conn.executemany(
        query,
        [(game_id, s.seat, s.user_id, s.ai, s.name, s.missed_turns, int(s.away)) for s in seats],
    )


async def _replace_seats(
    conn: aiosqlite.Connection, game_id: int, seats: Sequence[SeatRecord]
) -> None:
    query = "DELETE FROM seats WHERE game_id = ?"
    await conn.execute(query, (game_id,))
    await _insert_seats(conn, game_id, seats)


async def _update_seats(
    conn: aiosqlite.Connection, game_id: int, seats: Sequence[SeatRecord]
) -> None:
    query = """UPDATE seats SET user_id = ?, ai = ?, name = ?, missed_turns = ?, away = ?
               WHERE game_id = ? AND seat = ?
            """
    cursor = await conn.executemany(
        query,
        [(s.user_id, s.ai, s.name, s.missed_turns, int(s.away), game_id, s.seat) for s in seats],
    )
    if cursor.rowcount != len(seats):  # the sum over all the rows updated
        raise StoreError(f"could not save: game {game_id} has no such seat")


async def _insert_notes(
    conn: aiosqlite.Connection, game_id: int, notes: Iterable[SeatNote], now: float
) -> None:
    query = "INSERT INTO seat_notes (game_id, seq, seat, kind, created_at) VALUES (?, ?, ?, ?, ?)"
    await conn.executemany(query, [(game_id, n.seq, n.seat, n.kind, now) for n in notes])


async def _insert_events(
    conn: aiosqlite.Connection,
    game_id: int,
    first_seq: int,
    events: Sequence[Event],
    meta: Sequence[dict[str, Any] | None] | None,
    now: float,
) -> None:
    extra = [None if m is None else _dumps(m) for m in meta or ()]
    extra += [None] * (len(events) - len(extra))
    query = """INSERT INTO events (game_id, seq, kind, payload, meta, created_at)
               VALUES (?, ?, ?, ?, ?, ?)
            """
    await conn.executemany(
        query,
        [
            (game_id, first_seq + i, event.kind, _dumps(event.to_json()), extra[i], now)
            for i, event in enumerate(events)
        ],
    )


@lru_cache(maxsize=1024)
def _move(payload: str) -> Event:
    """A move event. The same few moves recur in every game, so each is decoded once."""
    return event_from_json(json.loads(payload))


def _assemble(
    games: Iterable[Row], seats: Iterable[Row], events: Iterable[Row], notes: Iterable[Row] = ()
) -> tuple[list[GameRecord], dict[int, str]]:
    """Records from game rows and their seat, event and note rows (each sorted by game).

    Returns the records, and for each game that could not be decoded, why.
    """
    seats_of: dict[int, list[Row]] = {}
    for row in seats:
        seats_of.setdefault(row[0], []).append(row)
    events_of: dict[int, list[Row]] = {}
    for row in events:
        events_of.setdefault(row[0], []).append(row)
    notes_of: dict[int, list[SeatNote]] = {}
    for game_id, seq, seat, kind in notes:
        notes_of.setdefault(game_id, []).append(SeatNote(seq, seat, kind))
    records: list[GameRecord] = []
    broken: dict[int, str] = {}
    for row in games:
        game_id = row[0]
        try:
            records.append(
                _record(
                    row,
                    seats_of.get(game_id, []),
                    events_of.get(game_id, []),
                    notes_of.get(game_id, []),
                )
            )
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            # Bad JSON, an unknown event kind or card, an impossible ruleset ...
            broken[game_id] = f"{type(error).__name__}: {error}"
    return records, broken


def _record(game: Row, seats: list[Row], events: list[Row], notes: list[SeatNote]) -> GameRecord:
    (
        game_id,
        guild_id,
        channel_id,
        message_id,
        host_id,
        ruleset,
        status,
        turn_timer,
        deadline,
        language,
        created_at,
        finished_at,
        ping_message_id,
        updated_at,
    ) = game
    loads = json.loads
    return GameRecord(
        id=game_id,
        guild_id=guild_id,
        channel_id=channel_id,
        table_message_id=message_id,
        ping_message_id=ping_message_id,
        host_id=host_id,
        ruleset=Ruleset.from_json(loads(ruleset)),
        status=status,
        turn_timer=turn_timer,
        turn_deadline=deadline,
        language=language,
        created_at=created_at,
        updated_at=updated_at,
        seats=tuple(
            SeatRecord(seat, user_id, ai, name, missed_turns=missed, away=bool(away))
            for _, seat, user_id, ai, name, missed, away in seats
        ),
        events=tuple(
            event_from_json(loads(payload)) if kind == RoundDealt.kind else _move(payload)
            for _, kind, payload, _meta in events
        ),
        automatic={
            seq: str(extra["auto"])
            for seq, (_, _kind, _payload, meta) in enumerate(events)
            if meta is not None and "auto" in (extra := loads(meta))
        },
        finished_at=finished_at,
        notes=tuple(notes),
    )
