"""The games' part of the store: lobbies, moves, timers and statuses, and loading them back.

Every method is one unit of work on the games' connection.  Games are stored as
their event log (``Match.events``, one row per event, seq = index in that list)
plus the round and game results the stats read.  A game is rebuilt with
``Match.replay(record.ruleset, len(record.seats), record.events)``.

Every SQL statement is written right above its single use, from literals only;
values are always bound parameters, never formatted into the SQL.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from game import Event, RoundResult, Ruleset

from .codec import GAME_COLUMNS, assemble, dumps
from .database import Database
from .game_rows import (
    forget_removals,
    insert_events,
    insert_notes,
    insert_seats,
    replace_seats,
    update_seats,
    wrong_status,
)
from .progress import MatchProgress
from .records import (
    ABANDONED,
    AWAY,
    CANCELLED,
    RATED_BY_NOTE,
    STATUSES,
    ChannelBusy,
    GameRecord,
    SeatNote,
    SeatRecord,
    StoreError,
)
from .shards import Leases, served

log = logging.getLogger(__name__)


class Games:
    """Lobbies, moves, resuming: the games of the shards ``leases`` serves."""

    def __init__(self, db: Database, clock: Callable[[], float], leases: Leases) -> None:
        self._db = db
        self._clock = clock  # unix time
        self._leases = leases  # which games are this process's to resume

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
        hints: bool = True,
    ) -> int:
        """Store a new game in the ``lobby`` status and return its id."""
        now = self._clock()
        async with self._db.write() as unit:
            # The unique index of migration 0005 refuses a second open game in the
            # channel, even from two units at once on PostgreSQL; a refusal returns no id.
            query = """INSERT INTO games (guild_id, channel_id, host_id, ruleset, status,
                                          turn_timer, language, created_at, updated_at,
                                          hints)
                       VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?)
                       ON CONFLICT (channel_id) WHERE status IN ('lobby', 'running') DO NOTHING
                       RETURNING id
                    """
            rows = await unit.fetch(
                query,
                (
                    guild_id,
                    channel_id,
                    host_id,
                    dumps(ruleset.to_json()),
                    turn_timer,
                    language,
                    now,
                    now,
                    int(hints),
                ),
            )
            if not rows:
                raise ChannelBusy(f"could not save: channel {channel_id} already has a game open")
            game_id = int(rows[0][0])
            await insert_seats(unit, game_id, seats)
        return game_id

    async def update_lobby(
        self,
        game_id: int,
        *,
        seats: Sequence[SeatRecord],
        ruleset: Ruleset | None = None,
        host_id: int | None = None,
        hints: bool | None = None,
        removed: int | None = None,
    ) -> None:
        """Replace the seats (and the ruleset, the host and whether hints are allowed,
        if given) of a game in the lobby; ``removed`` is a person the host took out of
        it, who may not join it again (kept for good, like the seats)."""
        ruleset_json = None if ruleset is None else dumps(ruleset.to_json())
        async with self._db.write() as unit:
            query = """UPDATE games SET ruleset = COALESCE(?, ruleset),
                                        host_id = COALESCE(?, host_id),
                                        hints = COALESCE(?, hints), updated_at = ?
                       WHERE id = ? AND status = 'lobby'
                       RETURNING id
                    """
            hints_flag = None if hints is None else int(hints)
            params = (ruleset_json, host_id, hints_flag, self._clock(), game_id)
            if not await unit.fetch(query, params):
                raise await wrong_status(unit, game_id, "in the lobby")
            await replace_seats(unit, game_id, seats)
            if removed is not None:
                query = """INSERT INTO lobby_removals (game_id, user_id) VALUES (?, ?)
                           ON CONFLICT (game_id, user_id) DO NOTHING
                        """
                await unit.execute(query, (game_id, removed))

    async def discard_lobby(self, game_id: int) -> None:
        """Delete a lobby, seats and all, as if it was never opened: one whose message
        Discord refused to post, so nobody saw it (it must use up no Rematch)."""
        async with self._db.write() as unit:
            query = "DELETE FROM games WHERE id = ? AND status = 'lobby' RETURNING id"
            if not await unit.fetch(query, (game_id,)):
                raise await wrong_status(unit, game_id, "in the lobby")

    async def set_table_message(self, game_id: int, message_id: int) -> None:
        """Remember the channel message that shows the table."""
        async with self._db.write() as unit:
            query = """UPDATE games SET table_message_id = ?, updated_at = ? WHERE id = ?
                       RETURNING id
                    """
            if not await unit.fetch(query, (message_id, self._clock(), game_id)):
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
        async with self._db.write() as unit:
            query = """UPDATE games SET status = 'running', turn_deadline = ?, updated_at = ?
                       WHERE id = ? AND status = 'lobby'
                       RETURNING id
                    """
            if not await unit.fetch(query, (turn_deadline, now, game_id)):
                raise await wrong_status(unit, game_id, "in the lobby")
            await replace_seats(unit, game_id, seats)
            await insert_events(unit, game_id, 0, events, None, now)
            await forget_removals(unit, game_id)

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
        waits_until: float | None = None,
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
        the move (an AI taking over); ``waits_until`` replaces when the game stops
        waiting for its people, every one of them away (None: it doesn't wait).  Only a
        ``running`` game takes events.
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
        async with self._db.write() as unit:
            # A game that ends here has its end to show and its chart to post
            # (``end_shown``, ``chart_posted``: data.endings).
            query = """UPDATE games
                       SET status = ?, turn_deadline = ?, updated_at = ?, finished_at = ?,
                           end_shown = ?, chart_posted = ?, waits_until = ?
                       WHERE id = ? AND status = 'running'
                       RETURNING id
                    """
            params = (
                ("finished", None, now, now, 0, 0, None, game_id)
                if finished is not None
                else ("running", turn_deadline, now, None, 1, 1, waits_until, game_id)
            )
            if not await unit.fetch(query, params):
                raise await wrong_status(unit, game_id, "running")

            # The primary key refuses a seq already taken, a trigger one past the end.
            await insert_events(unit, game_id, first_seq, events, meta, now)
            await insert_notes(unit, game_id, notes, now)

            if results:
                query = """INSERT INTO round_results (game_id, round_no, seat, penalty, gained,
                                                      returned, total, emptied, hand, discarded)
                           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """
                await unit.executemany(
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
                            dumps([int(card) for card in row.hand]),
                            None if row.discarded is None else int(row.discarded),
                        )
                        for result in results
                        for row in result.seats
                    ],
                )

            if finished is not None and points is not None:
                query = "SELECT COUNT(*) FROM seats WHERE game_id = ?"
                [(count,)] = await unit.fetch(query, (game_id,))
                if count != len(points):
                    raise StoreError(
                        f"could not save: {len(points)} final points for {count} seats"
                    )
                query = """INSERT INTO game_results (game_id, seat, points, winner, place)
                           VALUES (?, ?, ?, ?, ?)
                        """
                await unit.executemany(
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
                await update_seats(unit, game_id, seats)

    async def append_progress(
        self,
        game_id: int,
        progress: MatchProgress,
        *,
        meta: Sequence[dict[str, Any] | None] | None = None,
        turn_deadline: float | None = None,
        seats: Sequence[SeatRecord] | None = None,
        notes: Sequence[SeatNote] = (),
        waits_until: float | None = None,
    ) -> None:
        """``append_events`` with what ``progress`` took from the match: its events
        from ``first_seq``, the rounds they ended and, when it is over, the winners
        and final points.  The other arguments are ``append_events``'s."""
        await self.append_events(
            game_id,
            progress.first_seq,
            progress.events,
            meta=meta,
            results=progress.results,
            finished=progress.finished,
            final_points=progress.final_points,
            turn_deadline=turn_deadline,
            seats=seats,
            notes=notes,
            waits_until=waits_until,
        )

    async def update_timer(
        self,
        game_id: int,
        *,
        turn_deadline: float | None,
        seats: Sequence[SeatRecord] | None = None,
        host_id: int | None = None,
        note: SeatNote | None = None,
        waits_until: float | None = None,
    ) -> None:
        """Set the turn deadline of a lobby or running game (None: no deadline) and when
        it stops waiting for its people away (None: it doesn't wait); with ``seats``,
        ``host_id`` and ``note`` (the seat change behind it), those too."""
        async with self._db.write() as unit:
            query = """UPDATE games SET turn_deadline = ?, host_id = COALESCE(?, host_id),
                                        updated_at = ?, waits_until = ?
                       WHERE id = ? AND status IN ('lobby', 'running')
                       RETURNING id
                    """
            params = (turn_deadline, host_id, self._clock(), waits_until, game_id)
            if not await unit.fetch(query, params):
                raise await wrong_status(unit, game_id, "in the lobby or running")
            if seats is not None:
                await update_seats(unit, game_id, seats)
            if note is not None:
                await insert_notes(unit, game_id, (note,), self._clock())

    async def set_status(
        self,
        game_id: int,
        status: str,
        *,
        shown: bool = False,
        reason: str | None = None,
        rated: bool = False,
        gone: SeatNote | None = None,
    ) -> None:
        """Move a lobby or running game to ``status`` (``cancelled``, say), for ``reason``
        (kept as the record's ``end_reason``, for what shows the end later to say why).

        A finished or cancelled game keeps its status for good; its end is to be shown
        on its table (see :class:`~data.endings.EndingRows`) unless ``shown`` (its place is gone).
        The games to rate keep the time they ended (``finished_at``), the rater's order:
        a finished one, one cancelled as :data:`~data.records.ABANDONED` (or
        :data:`~data.records.AWAY`) and ``rated``
        (someone who did not leave is left to rank ahead of those who did), one cancelled
        as :data:`~data.records.CANCELLED` and ``rated`` (rated as it stood: a person other
        than the canceller had made a move), and one cancelled
        with ``gone``, the note of the seat whose going rates it, written with it (the rater
        ranks that seat last): as :data:`~data.records.IDLE_GAME`, the
        :data:`~data.records.STALLED` note of the seat that let it stall; as
        :data:`~data.records.CANCELLED`, the :data:`~data.records.CANCELLER` note of the only
        person who cancelled it while playing it.
        """
        if status not in STATUSES:
            raise ValueError(f"unknown status {status!r}")
        if gone is not None and (status, reason, gone.kind) not in RATED_BY_NOTE:
            raise ValueError(f"a {gone.kind!r} note for a game {status} for {reason!r}")
        if rated and (status, reason) not in (
            ("cancelled", ABANDONED),
            ("cancelled", AWAY),
            ("cancelled", CANCELLED),
        ):
            raise ValueError(f"a game {status} for {reason!r} is not rated so")
        now = self._clock()
        finished_at = now if status == "finished" or rated or gone is not None else None
        keeps_deadline = int(status in ("lobby", "running"))
        async with self._db.write() as unit:
            query = """UPDATE games
                       SET status = ?, updated_at = ?, finished_at = ?,
                           turn_deadline = CASE WHEN ? = 1 THEN turn_deadline END,
                           end_shown = ?, end_reason = ?, chart_posted = ?
                       WHERE id = ? AND status IN ('lobby', 'running')
                       RETURNING id
                    """
            end_shown = int(shown or status in ("lobby", "running"))
            chart_posted = int(shown or status != "finished")
            shows = (end_shown, reason, chart_posted)
            params = (status, now, finished_at, keeps_deadline, *shows, game_id)
            if not await unit.fetch(query, params):
                raise await wrong_status(unit, game_id, "in the lobby or running")
            if gone is not None:
                await insert_notes(unit, game_id, (gone,), now)
            await forget_removals(unit, game_id)

    # ------------------------------------------------------------ loading
    async def opened_after(self, channel_id: int, game_id: int) -> bool:
        """Whether a game was opened in ``channel_id`` after ``game_id`` (a rematch, say),
        whatever became of it: a finished table's Rematch works only until then."""
        async with self._db.read() as unit:
            # The ids after game_id, by key: only the games newer than that one.
            query = "SELECT id FROM games WHERE id > ? AND channel_id = ? LIMIT 1"
            return bool(await unit.fetch(query, (game_id, channel_id)))

    async def load_game(self, game_id: int) -> GameRecord | None:
        async with self._db.read() as unit:
            query = f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?"
            games = await unit.fetch(query, (game_id,))
            if not games:
                return None

            query = """SELECT game_id, seat, user_id, ai, name, missed_turns, away
                       FROM seats WHERE game_id = ? ORDER BY seat
                    """
            seats = await unit.fetch(query, (game_id,))

            query = """SELECT game_id, kind, payload, meta
                       FROM events WHERE game_id = ? ORDER BY seq
                    """
            events = await unit.fetch(query, (game_id,))

            if unit.dialect == "postgres":
                query = """SELECT game_id, seq, seat, kind FROM seat_notes
                           WHERE game_id = ? ORDER BY seq, id
                        """
            else:
                query = """SELECT game_id, seq, seat, kind FROM seat_notes
                           WHERE game_id = ? ORDER BY seq, rowid
                        """
            notes = await unit.fetch(query, (game_id,))

            query = "SELECT game_id, user_id FROM lobby_removals WHERE game_id = ?"
            removals = await unit.fetch(query, (game_id,))
        records, broken = assemble(games, seats, events, notes, removals)
        if broken:
            raise StoreError(f"could not load game {game_id}: {broken[game_id]}")
        return records[0]

    async def unfinished_games(self) -> list[GameRecord]:
        """Every game in the lobby or running, by id, for resuming after a restart;
        once this process has claimed its shards, only the games of their guilds.

        Five queries whatever the number of games.  A game whose stored data
        can't be read is logged and left out (and left alone), so it cannot
        keep every other game from resuming.
        """
        where, params = served(self._leases.shards)
        unfinished = f"SELECT id FROM games WHERE status IN ('lobby', 'running') AND {where}"
        async with self._db.read() as unit:
            query = f"SELECT {GAME_COLUMNS} FROM games WHERE id IN ({unfinished}) ORDER BY id"
            games = await unit.fetch(query, params)

            # "IN (SELECT ...)" looks each game up by key, in key order: never a scan of
            # every seat or event ever stored, and no sort (see EXPLAIN QUERY PLAN).
            query = f"""SELECT game_id, seat, user_id, ai, name, missed_turns, away
                        FROM seats WHERE game_id IN ({unfinished})
                        ORDER BY game_id, seat
                     """
            seats = await unit.fetch(query, params)

            query = f"""SELECT game_id, kind, payload, meta
                        FROM events WHERE game_id IN ({unfinished})
                        ORDER BY game_id, seq
                     """
            events = await unit.fetch(query, params)

            if unit.dialect == "postgres":
                query = f"""SELECT game_id, seq, seat, kind
                            FROM seat_notes WHERE game_id IN ({unfinished})
                            ORDER BY game_id, seq, id
                         """
            else:
                query = f"""SELECT game_id, seq, seat, kind
                            FROM seat_notes WHERE game_id IN ({unfinished})
                            ORDER BY game_id, seq, rowid
                         """
            notes = await unit.fetch(query, params)

            query = f"""SELECT game_id, user_id FROM lobby_removals
                        WHERE game_id IN ({unfinished})
                     """
            removals = await unit.fetch(query, params)
        records, broken = assemble(games, seats, events, notes, removals)
        for game_id, reason in broken.items():
            log.error(
                "game %s cannot be resumed, its stored data is unreadable: %s", game_id, reason
            )
        return records
