"""Seat changes in a running game: coming back, kicks, leaving, AI takeover."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.service.errors import ServiceError
from bot.service.play.clocks import TableClocks
from bot.service.play.notices import Notices
from bot.service.play.rows import seat_note, seat_records
from bot.service.play.table import (
    MoveLine,
    Seat,
    Status,
    Table,
    all_humans_gone,
    changed_seat,
    everyone_away,
    waiting,
)
from bot.service.saver import Saver
from data import Store
from game.ai import Strength


class SeatChanges:
    """Who plays a seat of a running game: its player, or an AI standing in.

    Each change is made at the table its caller found (a click's or a command's, looked
    up once), who may make it checked once; it is saved with the seat note the review
    and a restart read, then shown through ``after_change`` (the move pipeline's).
    """

    def __init__(
        self,
        store: Store,
        saver: Saver,
        clocks: TableClocks,
        notices: Notices,
        *,
        after_change: Callable[[Table], Awaitable[None]],
    ) -> None:
        self._store = store
        self._saver = saver
        self._clocks = clocks
        self._notices = notices
        self._after_change = after_change

    async def come_back(self, table: Table, user_id: int) -> int:
        """A player an AI stood in for (they missed their turns) plays again at ``table``
        (the click's, as it found it); a game that waited for its people, all away, plays
        on. Returns their seat, for their hand to be shown."""
        seat = table.seat_of(user_id)
        if seat is None:
            raise ServiceError("error.not_a_player")
        async with table.lock:
            # The click may have waited for the game's last move (or its cancelling).
            if table.status is not Status.RUNNING:
                raise ServiceError("error.game_gone")
            player = table.seats[seat]
            if player.ai is not None:
                raise ServiceError("error.kicked")
            if not player.away:
                raise ServiceError("error.not_away")
            seats = changed_seat(table.seats, seat, away=False, missed_turns=0)
            deadline, warned = self._deadline_after(table, seat, seats)
            await self._saver.save(
                self._store.games.update_timer(
                    table.game_id,
                    turn_deadline=deadline,
                    seats=seat_records(seats),
                    note=seat_note(table, seat, "back"),
                    waits_until=None,
                )
            )
            table.seats = seats
            table.turn_deadline, table.warned = deadline, warned
            table.waits_until = None
            table.recent.append(MoveLine(seat=seat, kind="back"))
        await self._after_change(table)
        return seat

    async def kick(self, table: Table, user_id: int, target_id: int, *, can_manage: bool) -> Table:
        """The host (or a member who may manage the channel) hands a player's seat to an AI."""
        if not table.live:
            raise ServiceError("error.game_gone")
        if user_id != table.host_id and not can_manage:
            raise ServiceError("error.kick_not_allowed")
        seat = _seat_in_game(table, target_id, "error.target_not_a_player")
        return await self._hand_to_ai(table, seat, "kicked", "error.already_ai")

    async def leave_game(self, table: Table, user_id: int) -> Table:
        """A player leaves a running game: an AI plays their seat to the end."""
        if not table.live:
            raise ServiceError("error.game_gone")
        seat = _seat_in_game(table, user_id, "error.not_a_player")
        return await self._hand_to_ai(table, seat, "left", "error.kicked")

    def _deadline_after(
        self, table: Table, seat: int, seats: list[Seat]
    ) -> tuple[float | None, bool]:
        """The turn deadline (and whether it was warned) once ``seat`` changed to
        ``seats``: a new one if it is that seat's turn, else the same."""
        if table.to_move == seat and table.match is not None:
            return self._clocks.deadline(table, table.match, seats), False
        return table.turn_deadline, table.warned

    async def _hand_to_ai(self, table: Table, seat: int, kind: str, taken: str) -> Table:
        """A Normal AI plays ``seat`` for the rest of the game; the last human
        gone ends the game.  If those left are all away, it waits for them (until
        when it already did, if it did)."""
        async with table.lock:
            if table.status is not Status.RUNNING:
                raise ServiceError("error.game_gone")
            player = table.seats[seat]
            if player.ai is not None:
                raise ServiceError(taken)
            seats = changed_seat(table.seats, seat, ai=Strength.NORMAL, away=False)
            deadline, warned = self._deadline_after(table, seat, seats)
            until = None
            if everyone_away(seats):
                until = table.waits_until or self._clocks.wait_from_now()
            # A host who is gone can't cancel or kick for the others any more: the
            # next player still at the table takes over.
            playing = [s.user_id for s in seats if s.user_id and s.controller is None]
            host = playing[0] if player.user_id == table.host_id and playing else None
            await self._saver.save(
                self._store.games.update_timer(
                    table.game_id,
                    turn_deadline=deadline,
                    seats=seat_records(seats),
                    host_id=host,
                    note=seat_note(table, seat, kind),
                    waits_until=until,
                )
            )
            table.seats = seats
            table.turn_deadline, table.warned = deadline, warned
            table.waits_until = until
            if host is not None:
                table.host_id = host
            table.recent.append(MoveLine(seat=seat, kind=kind))
            if all_humans_gone(table) and not waiting(table):
                await self._clocks.close_abandoned(table)
                return table
        await self._after_change(table)
        return table


def _seat_in_game(table: Table, user_id: int, not_seated: str) -> int:
    """``user_id``'s seat in the game running at ``table``; refused with ``not_seated``
    (a catalog key) when they have none, and before the game started."""
    if table.status is not Status.RUNNING:
        raise ServiceError("error.not_started")
    seat = table.seat_of(user_id)
    if seat is None:
        raise ServiceError(not_seated)
    return seat
