"""The game service: lobbies, moves, AI turns and turn timers, persisted.

Cogs talk to this and nothing else; it speaks engine types and knows nothing
of Discord.  Each table has one lock, so a double click or two players
clicking at once apply exactly one move.  Every change is written to the
store before anyone is shown it; a failed write leaves the game as it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from data.store import GameRecord, SeatNote, SeatRecord, Store, StoreError
from game import (
    QUIT,
    Action,
    CardPlayed,
    Event,
    IllegalMove,
    Match,
    PlayerQuit,
    RoundDealt,
    RoundResult,
    Ruleset,
)
from game.ai import Strength, choose

from .tables import RECENT_MOVES, MoveLine, Seat, Status, Table

log = logging.getLogger(__name__)

AI_DELAY = 0.8  # seconds between AI moves, so people can follow them
WARNING_BEFORE = 30  # seconds of warning before a turn runs out
MISSES_BEFORE_TAKEOVER = 2
LOBBY_IDLE = 15 * 60
GAME_IDLE = 3 * 24 * 60 * 60  # a game without a turn timer ends after this without a move
SAVE_RETRY = 10  # seconds before a timed-out turn that couldn't be saved is tried again
RESUME_GRACE = 30  # a restart never leaves a player less than this on the clock


class ServiceError(Exception):
    """A refusal a person can read; ``key`` names the message in the catalog."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


@dataclass(frozen=True, slots=True)
class Person:
    id: int
    name: str


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    table: Table
    seat: int
    events: tuple[Event, ...]
    results: tuple[RoundResult, ...]


class TableListener(Protocol):
    async def table_changed(self, table: Table) -> None: ...
    async def turn_started(self, table: Table) -> None: ...
    async def turn_warning(self, table: Table) -> None: ...
    async def table_closed(self, table: Table, reason: str) -> None: ...


def _records(seats: Sequence[Seat]) -> list[SeatRecord]:
    return [
        SeatRecord(
            seat=i,
            user_id=s.user_id,
            ai=s.ai.value if s.ai is not None else None,
            name=s.name,
            missed_turns=s.missed_turns,
            away=s.away,
        )
        for i, s in enumerate(seats)
    ]


class GameService:
    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float],
        seed_source: Callable[[], int] = lambda: secrets.randbits(63),
    ) -> None:
        self.store = store
        self.clock = clock
        self.seed_source = seed_source
        self.listener: TableListener | None = None
        self.by_channel: dict[int, Table] = {}
        self.by_id: dict[int, Table] = {}
        # Deals to use before random ones: for puzzles and tests.
        self.scripted_deals: deque[Callable[[Match], RoundDealt]] = deque()
        self._ai_tasks: dict[int, asyncio.Task[None]] = {}
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._notices: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------ lookup
    def table(self, game_id: int) -> Table | None:
        return self.by_id.get(game_id)

    def table_in(self, channel_id: int) -> Table | None:
        return self.by_channel.get(channel_id)

    def _require(self, game_id: int) -> Table:
        table = self.by_id.get(game_id)
        if table is None or not table.live:
            raise ServiceError("error.game_gone")
        return table

    # ------------------------------------------------------------ language
    async def public_locale(self, guild_id: int, fallback: str) -> str:
        """The language of public messages: the server's setting, else its locale."""
        return await self.store.get_language(guild_id) or fallback

    async def set_language(self, guild_id: int, language: str | None) -> None:
        await self._save(self.store.set_language(guild_id, language))

    # ------------------------------------------------------------ lobby
    async def open_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host: Person,
        ruleset: Ruleset,
        turn_timer: int,
        locale: str,
        seats: Sequence[Seat] | None = None,
    ) -> Table:
        if channel_id in self.by_channel:
            raise ServiceError("error.channel_busy")
        seats = list(seats) if seats else [Seat(user_id=host.id, ai=None, name=host.name)]
        game_id = await self._save(
            self.store.create_game(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host.id,
                ruleset=ruleset,
                turn_timer=turn_timer,
                seats=_records(seats),
                language=locale,
            )
        )
        table = Table(
            game_id=game_id,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host.id,
            ruleset=ruleset,
            turn_timer=turn_timer,
            locale=locale,
            seats=seats,
            opened_at=self.clock(),
        )
        self._register(table)
        self._arm_lobby_timer(table)
        return table

    def _register(self, table: Table) -> None:
        self.by_channel[table.channel_id] = table
        self.by_id[table.game_id] = table

    def _unregister(self, table: Table) -> None:
        if self.by_channel.get(table.channel_id) is table:
            del self.by_channel[table.channel_id]
        self.by_id.pop(table.game_id, None)
        for tasks in (self._ai_tasks, self._timers):
            task = tasks.pop(table.game_id, None)
            if task is not None and task is not asyncio.current_task():
                task.cancel()

    def _lobby(self, game_id: int) -> Table:
        table = self._require(game_id)
        self._still_lobby(table)
        return table

    @staticmethod
    def _still_lobby(table: Table) -> None:
        """Checked again once the lock is held: a click that waited for it may
        find the lobby started or closed by the click before it."""
        if not table.live:
            raise ServiceError("error.game_gone")
        if table.status is not Status.LOBBY:
            raise ServiceError("error.already_started")

    async def set_table_message(self, table: Table, message_id: int) -> None:
        table.table_message_id = message_id
        await self._save(self.store.set_table_message(table.game_id, message_id))

    async def set_ping_message(self, table: Table, message_id: int | None) -> None:
        """Remember the standing turn ping, so that a restarted bot can take it down."""
        table.ping_message_id = message_id
        try:
            await self.store.set_ping_message(table.game_id, message_id)
        except StoreError as error:
            log.warning("game %s: could not save the ping message: %s", table.game_id, error)

    async def join(self, game_id: int, person: Person) -> Table:
        table = self._lobby(game_id)
        async with table.lock:
            self._still_lobby(table)
            if table.seat_of(person.id) is not None:
                raise ServiceError("error.already_joined")
            if len(table.seats) >= table.ruleset.max_players:
                raise ServiceError("error.lobby_full", max=table.ruleset.max_players)
            seats = [*table.seats, Seat(user_id=person.id, ai=None, name=person.name)]
            await self._save(self.store.update_lobby(table.game_id, seats=_records(seats)))
            table.seats = seats
            self._arm_lobby_timer(table)
        return table

    async def leave(self, game_id: int, user_id: int) -> Table:
        """Leave a lobby; the host leaving hands the lobby to the next human, or closes it."""
        table = self._lobby(game_id)
        async with table.lock:
            self._still_lobby(table)
            index = table.seat_of(user_id)
            if index is None:
                raise ServiceError("error.not_in_lobby")
            seats = [s for i, s in enumerate(table.seats) if i != index]
            humans = [s for s in seats if s.human]
            if not humans:
                await self._close(table, Status.CANCELLED, "closed.empty")
                return table
            host = humans[0].user_id if user_id == table.host_id else None
            await self._save(
                self.store.update_lobby(table.game_id, seats=_records(seats), host_id=host)
            )
            table.seats = seats
            if host is not None:
                table.host_id = host
        return table

    async def add_ai(self, game_id: int, user_id: int, strength: Strength) -> Table:
        table = self._lobby(game_id)
        if user_id != table.host_id:
            raise ServiceError("error.host_only")
        async with table.lock:
            self._still_lobby(table)
            if len(table.seats) >= table.ruleset.max_players:
                raise ServiceError("error.lobby_full", max=table.ruleset.max_players)
            number = sum(1 for s in table.seats if s.ai is not None) + 1
            seat = Seat(user_id=None, ai=strength, name=f"AI {number}")
            seats = [*table.seats, seat]
            await self._save(self.store.update_lobby(table.game_id, seats=_records(seats)))
            table.seats = seats
            self._arm_lobby_timer(table)
        return table

    async def remove_ai(self, game_id: int, user_id: int) -> Table:
        """The host frees the seat of the AI added last, e.g. for a friend who turned up."""
        table = self._lobby(game_id)
        if user_id != table.host_id:
            raise ServiceError("error.host_only")
        async with table.lock:
            self._still_lobby(table)
            last = max((i for i, s in enumerate(table.seats) if s.ai is not None), default=None)
            if last is None:
                raise ServiceError("error.no_ai_seat")
            seats = [s for i, s in enumerate(table.seats) if i != last]
            await self._save(self.store.update_lobby(table.game_id, seats=_records(seats)))
            table.seats = seats
            self._arm_lobby_timer(table)
        return table

    async def start(self, game_id: int, user_id: int) -> Table:
        table = self._lobby(game_id)
        if user_id != table.host_id:
            raise ServiceError("error.host_only")
        async with table.lock:
            self._still_lobby(table)
            if len(table.seats) < table.ruleset.min_players:
                raise ServiceError("error.not_enough_players", min=table.ruleset.min_players)
            match = Match(table.ruleset, len(table.seats))
            self._deal(match)
            deadline = self._deadline(table, match)
            await self._save(
                self.store.start_game(
                    table.game_id,
                    seats=_records(table.seats),
                    events=match.events,
                    turn_deadline=deadline,
                )
            )
            table.match = match
            table.status = Status.RUNNING
            table.turn_deadline = deadline
            table.warned = False
            table.recent.append(MoveLine(seat=match.to_move or 0, kind="deal"))
        await self._after_change(table)
        return table

    async def cancel(self, game_id: int, user_id: int, *, can_manage: bool) -> Table:
        table = self._require(game_id)
        if user_id != table.host_id and not can_manage:
            raise ServiceError("error.cancel_not_allowed")
        async with table.lock:
            await self._close(table, Status.CANCELLED, "closed.cancelled")
        return table

    async def rematch(self, game_id: int, person: Person, channel_id: int, guild_id: int) -> Table:
        old = self.by_id.get(game_id) or await self._finished(game_id)
        if old is None:
            raise ServiceError("error.game_gone")
        if old.seat_of(person.id) is None:
            raise ServiceError("error.not_a_player")
        # Everyone comes back as they joined, humans as humans, except a player
        # who was kicked: they come back only by asking for the rematch themselves.
        seats = [
            Seat(user_id=s.user_id, ai=None if s.human else s.ai, name=s.name)
            for s in old.seats
            if not (s.human and s.ai is not None) or s.user_id == person.id
        ]
        # The player who asked hosts the rematch.
        return await self.open_lobby(
            guild_id=guild_id,
            channel_id=channel_id,
            host=person,
            ruleset=old.ruleset,
            turn_timer=old.turn_timer,
            locale=old.locale,
            seats=seats,
        )

    async def _finished(self, game_id: int) -> Table | None:
        record = await self.store.load_game(game_id)
        return self._table_from_record(record) if record is not None else None

    # ------------------------------------------------------------ moves
    async def move(self, game_id: int, user_id: int, action: Action, stamp: int) -> MoveOutcome:
        table = self._require(game_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise ServiceError("error.not_a_player")
        async with table.lock:
            if table.status is not Status.RUNNING or table.match is None:
                raise ServiceError("error.game_gone")
            if stamp != table.stamp:
                raise ServiceError("error.stale")
            if table.seats[seat].controller is not None:
                raise ServiceError("error.seat_is_ai")
            player = table.seats[seat]
            missed = player.missed_turns
            player.missed_turns = 0  # moving yourself ends a run of missed turns
            try:
                outcome = await self._apply(table, seat, action, seats_changed=missed != 0)
            except BaseException:
                player.missed_turns = missed
                raise
        await self._after_change(table)
        return outcome

    async def _apply(
        self,
        table: Table,
        seat: int,
        action: Action,
        kind: str | None = None,
        *,
        seats_changed: bool = False,
        then: str | None = None,
    ) -> MoveOutcome:
        """Apply, deal on if the round ended, persist; on a failed write, undo.

        ``then`` notes a seat change that comes with the move (``takeover``).

        The seats' rows are rewritten only when a move changed them (missed
        turns, a takeover), which keeps an ordinary move to a few statements.
        """
        match = table.match
        assert match is not None
        match.verify(seat, action)  # raises IllegalMove with the player's message
        first = len(match.events)
        done = len(match.results)
        event = match.apply(seat, action)
        if not match.over and match.awaiting_deal:
            self._deal(match)
        events = tuple(match.events[first:])
        results = tuple(match.results[done:])
        over = match.over
        deadline_before = table.turn_deadline
        self._arm_deadline(table, match)
        try:
            await self.store.append_events(
                table.game_id,
                first,
                events,
                meta=[{"auto": kind}] if kind else None,
                results=results,
                finished=match.winners if over else None,
                final_points=list(match.points) if over else None,
                turn_deadline=table.turn_deadline,
                seats=_records(table.seats) if seats_changed else None,
                notes=[SeatNote(len(match.events), seat, then)] if then else (),
            )
        except StoreError as error:
            log.warning("game %s: could not save a move: %s", table.game_id, error)
            table.match = Match.replay(table.ruleset, len(table.seats), match.events[:first])
            table.turn_deadline = deadline_before
            raise ServiceError("error.save_failed") from error
        line_kind = kind or event.kind
        card = int(event.card) if isinstance(event, CardPlayed) else None
        table.recent.append(MoveLine(seat=seat, kind=line_kind, card=card))
        for result in results:
            table.recent.append(MoveLine(seat=result.ended_by, kind="round_end"))
            if not over:
                table.recent.append(MoveLine(seat=result.ended_by, kind="deal"))
        if then:
            table.recent.append(MoveLine(seat=seat, kind=then))
        if over:
            table.status = Status.FINISHED
            table.turn_deadline = None
        return MoveOutcome(table=table, seat=seat, events=events, results=results)

    def _deal(self, match: Match) -> None:
        if self.scripted_deals:
            match.start_round(self.scripted_deals.popleft()(match))
        else:
            match.deal(self.seed_source())

    async def _after_change(self, table: Table) -> None:
        """Tell the front end, then let AI seats and the clock take over.

        The front end's work (the table edit, the turn ping, the next player's
        hand) runs in the background: the click that made the change is
        answered as soon as the change is saved.
        """
        if table.status is Status.FINISHED:
            self._unregister(table)
        if self.listener is not None:
            task = asyncio.create_task(self._notify(table), name=f"lama-notice-{table.game_id}")
            self._notices.add(task)
            task.add_done_callback(self._notices.discard)
        if table.status is Status.RUNNING:
            table.active_at = self.clock()
            self._schedule_ai(table)
            self._arm_turn_timer(table)

    async def notify(self, table: Table) -> None:
        """Show the table as it is now (after a restart, say), in turn with other notices."""
        if self.listener is not None:
            await self._notify(table)

    async def _notify(self, table: Table) -> None:
        assert self.listener is not None
        # The lock is fair: notices go out in the order of the changes, and a
        # ping for an earlier turn never lands after the ping for a later one.
        async with table.notice_lock:
            try:
                await self.listener.table_changed(table)
                if table.status is Status.RUNNING:
                    await self.listener.turn_started(table)
            except Exception:
                log.exception("game %s: could not show a change", table.game_id)

    # ------------------------------------------------------------ AI seats
    def _schedule_ai(self, table: Table) -> None:
        seat = table.to_move
        if seat is None or table.seats[seat].controller is None:
            return
        task = self._ai_tasks.get(table.game_id)
        if task is None or task.done():
            self._ai_tasks[table.game_id] = asyncio.create_task(
                self._ai_turns(table), name=f"lama-ai-{table.game_id}"
            )

    async def _ai_turns(self, table: Table) -> None:
        while table.status is Status.RUNNING:
            await asyncio.sleep(AI_DELAY)
            async with table.lock:
                match = table.match
                seat = table.to_move
                if match is None or seat is None or table.status is not Status.RUNNING:
                    return
                strength = table.seats[seat].controller
                if strength is None:
                    return
                view = match.view(seat)
                seed = f"{table.game_id}:{len(match.events)}"
                try:
                    if strength == Strength.HARD:
                        # Hard searches for up to ~100 ms: off the event loop, so
                        # other tables and the gateway heartbeat keep moving.  The
                        # view is a frozen snapshot and the table lock is held.
                        action = await asyncio.to_thread(choose, view, strength, seed)
                    else:
                        action = choose(view, strength, seed)
                except Exception:
                    # A broken AI must not stall the table: make the plainest legal move.
                    log.exception("game %s: the %s AI failed", table.game_id, strength)
                    action = view.legal[0]
                try:
                    await self._apply(table, seat, action)
                except ServiceError:
                    # The store is failing; try again after the pause.
                    continue
            # This task is still running, so this schedules no second one.
            await self._after_change(table)

    # ------------------------------------------------------------ turn timer
    def _deadline(self, table: Table, match: Match) -> float | None:
        """When the player to move runs out of time; None without a timer or for an AI."""
        seat = match.to_move
        if table.turn_timer <= 0 or seat is None or table.seats[seat].controller is not None:
            return None
        return self.clock() + table.turn_timer

    def _arm_deadline(self, table: Table, match: Match) -> None:
        table.turn_deadline = self._deadline(table, match)
        table.warned = False

    def _arm_turn_timer(self, table: Table) -> None:
        old = self._timers.pop(table.game_id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        if table.turn_deadline is not None:
            clock = self._turn_clock(table, table.stamp)
        elif table.turn_timer <= 0:
            clock = self._idle_clock(table, table.active_at)
        else:
            return  # an AI's turn: it moves by itself
        self._timers[table.game_id] = asyncio.create_task(clock, name=f"lama-timer-{table.game_id}")

    async def _idle_clock(self, table: Table, since: float) -> None:
        """End a game without a turn timer that nobody has moved in for GAME_IDLE,
        so that it doesn't hold its channel for good."""
        await self._close_at(
            table,
            since + GAME_IDLE,
            lambda: table.status is Status.RUNNING and table.active_at == since,
            "closed.idle_game",
        )

    async def _turn_clock(self, table: Table, stamp: int) -> None:
        deadline = table.turn_deadline
        if deadline is None:
            return
        warn_at = deadline - min(WARNING_BEFORE, table.turn_timer / 4)
        if not table.warned and self.clock() < warn_at:
            await asyncio.sleep(warn_at - self.clock())
            if table.stamp != stamp or table.status is not Status.RUNNING:
                return
            table.warned = True
            if self.listener is not None:
                await self.listener.turn_warning(table)
        await asyncio.sleep(max(0.0, deadline - self.clock()))
        while not await self._time_out(table, stamp):
            await asyncio.sleep(SAVE_RETRY)  # the store failed; the turn is still over

    async def _time_out(self, table: Table, stamp: int) -> bool:
        """Quit the player's turn for them; False if that couldn't be saved."""
        async with table.lock:
            match = table.match
            if match is None or table.stamp != stamp or table.status is not Status.RUNNING:
                return True
            seat = match.to_move
            if seat is None:
                return True
            player = table.seats[seat]
            player.missed_turns += 1
            if player.missed_turns >= MISSES_BEFORE_TAKEOVER:
                player.away = True
            try:
                await self._apply(
                    table,
                    seat,
                    QUIT,
                    kind="timeout",
                    seats_changed=True,
                    then="takeover" if player.away else None,
                )
            except ServiceError:
                player.missed_turns -= 1
                player.away = player.missed_turns >= MISSES_BEFORE_TAKEOVER
                return False
            abandoned = self._all_humans_gone(table)
            if abandoned:
                await self._close(table, Status.CANCELLED, "closed.abandoned")
        if abandoned:
            return True
        await self._after_change(table)
        return True

    def _all_humans_gone(self, table: Table) -> bool:
        return table.status is Status.RUNNING and all(s.controller is not None for s in table.seats)

    async def come_back(self, game_id: int, user_id: int) -> Table:
        table = self._require(game_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise ServiceError("error.not_a_player")
        async with table.lock:
            player = table.seats[seat]
            if player.ai is not None:
                raise ServiceError("error.kicked")
            if not player.away:
                raise ServiceError("error.not_away")
            player.away = False
            player.missed_turns = 0
            if table.to_move == seat and table.match is not None:
                self._arm_deadline(table, table.match)
            await self._save(
                self.store.update_timer(
                    table.game_id,
                    turn_deadline=table.turn_deadline,
                    seats=_records(table.seats),
                    note=_note(table, seat, "back"),
                )
            )
            table.recent.append(MoveLine(seat=seat, kind="back"))
        await self._after_change(table)
        return table

    async def kick(self, game_id: int, user_id: int, target_id: int, *, can_manage: bool) -> Table:
        table = self._require(game_id)
        if user_id != table.host_id and not can_manage:
            raise ServiceError("error.kick_not_allowed")
        if table.status is not Status.RUNNING:
            raise ServiceError("error.not_started")
        seat = table.seat_of(target_id)
        if seat is None:
            raise ServiceError("error.target_not_a_player")
        return await self._hand_to_ai(table, seat, "kicked", "error.already_ai")

    async def leave_game(self, game_id: int, user_id: int) -> Table:
        """A player leaves a running game: an AI plays their seat to the end."""
        table = self._require(game_id)
        if table.status is not Status.RUNNING:
            raise ServiceError("error.not_started")
        seat = table.seat_of(user_id)
        if seat is None:
            raise ServiceError("error.not_a_player")
        return await self._hand_to_ai(table, seat, "left", "error.kicked")

    async def _hand_to_ai(self, table: Table, seat: int, kind: str, taken: str) -> Table:
        """A Normal AI plays ``seat`` for the rest of the game; the last human
        gone ends the game."""
        async with table.lock:
            if table.status is not Status.RUNNING:
                raise ServiceError("error.game_gone")
            player = table.seats[seat]
            if player.ai is not None:
                raise ServiceError(taken)
            player.ai = Strength.NORMAL
            away = player.away
            player.away = False
            deadline, warned = table.turn_deadline, table.warned
            if table.to_move == seat and table.match is not None:
                self._arm_deadline(table, table.match)
            # A host who is gone can't cancel or kick for the others any more: the
            # next player still at the table takes over.
            playing = [s.user_id for s in table.seats if s.user_id and s.controller is None]
            host = playing[0] if player.user_id == table.host_id and playing else None
            try:
                await self._save(
                    self.store.update_timer(
                        table.game_id,
                        turn_deadline=table.turn_deadline,
                        seats=_records(table.seats),
                        host_id=host,
                        note=_note(table, seat, kind),
                    )
                )
            except ServiceError:
                player.ai, player.away = None, away
                table.turn_deadline, table.warned = deadline, warned
                raise
            if host is not None:
                table.host_id = host
            table.recent.append(MoveLine(seat=seat, kind=kind))
            if self._all_humans_gone(table):
                await self._close(table, Status.CANCELLED, "closed.abandoned")
                return table
        await self._after_change(table)
        return table

    # ------------------------------------------------------------ lobby timer
    def _arm_lobby_timer(self, table: Table) -> None:
        table.opened_at = self.clock()
        old = self._timers.pop(table.game_id, None)
        if old is not None:
            old.cancel()
        self._timers[table.game_id] = asyncio.create_task(
            self._lobby_clock(table), name=f"lama-lobby-{table.game_id}"
        )

    async def _lobby_clock(self, table: Table) -> None:
        await self._close_at(
            table,
            table.opened_at + LOBBY_IDLE,
            lambda: table.status is Status.LOBBY,
            "closed.idle",
        )

    async def _close_at(
        self, table: Table, when: float, still: Callable[[], bool], reason: str
    ) -> None:
        """At ``when``, cancel the table for ``reason`` if ``still()`` holds then."""
        await asyncio.sleep(max(0.0, when - self.clock()))
        while still():
            async with table.lock:
                if not still():
                    return
                try:
                    await self._close(table, Status.CANCELLED, reason)
                    return
                except ServiceError:
                    pass  # the store failed and logged it; the table stays open for now
            await asyncio.sleep(SAVE_RETRY)

    # ------------------------------------------------------------ closing
    async def _close(self, table: Table, status: Status, reason: str) -> None:
        await self._save(self.store.set_status(table.game_id, status.value))
        table.status = status
        table.turn_deadline = None
        self._unregister(table)
        if self.listener is not None:
            # After any notice still going out: a turn ping sent for this table
            # is then taken down, not left standing under the closed table.
            async with table.notice_lock:
                await self.listener.table_closed(table, reason)

    async def _save(self, write: Awaitable[Any]) -> Any:
        try:
            return await write
        except StoreError as error:
            log.warning("could not save: %s", error)
            raise ServiceError("error.save_failed") from error

    # ------------------------------------------------------------ resume
    async def resume(self) -> list[Table]:
        """Rebuild every unfinished game from its events, with its clock."""
        tables = []
        for record in await self.store.unfinished_games():
            try:
                table = self._table_from_record(record)
            except Exception:
                log.exception("game %s could not be rebuilt; leaving it alone", record.id)
                continue
            self._register(table)
            tables.append(table)
            if table.status is Status.LOBBY:
                self._arm_lobby_timer(table)
                continue
            if table.turn_deadline is not None:
                table.turn_deadline = max(table.turn_deadline, self.clock() + RESUME_GRACE)
            table.active_at = record.updated_at
            self._schedule_ai(table)
            self._arm_turn_timer(table)
        return tables

    def _table_from_record(self, record: GameRecord) -> Table:
        seats = [
            Seat(
                user_id=s.user_id,
                ai=Strength(s.ai) if s.ai else None,
                name=s.name,
                missed_turns=s.missed_turns,
                away=s.away,
            )
            for s in record.seats
        ]
        table = Table(
            game_id=record.id,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            host_id=record.host_id,
            ruleset=record.ruleset,
            turn_timer=record.turn_timer,
            locale=record.language or "en",
            seats=seats,
            status=Status(record.status),
            table_message_id=record.table_message_id,
            ping_message_id=record.ping_message_id,
            turn_deadline=record.turn_deadline,
        )
        if record.events:
            table.match = Match.replay(record.ruleset, len(seats), record.events)
            table.recent.extend(_recent_lines(record, table.match))
        return table

    async def close(self) -> None:
        """Stop every background task (the state is already saved)."""
        tasks = [*self._ai_tasks.values(), *self._timers.values(), *self._notices]
        self._ai_tasks.clear()
        self._timers.clear()
        self._notices.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # ------------------------------------------------------------ reading
    def legal_for(self, table: Table, user_id: int) -> tuple[int | None, bool]:
        seat = table.seat_of(user_id)
        return seat, seat is not None and table.to_move == seat


__all__ = [
    "GameService",
    "IllegalMove",
    "MoveOutcome",
    "Person",
    "ServiceError",
    "TableListener",
]


def _note(table: Table, seat: int, kind: str) -> SeatNote:
    """A seat change at this point of the game's log."""
    return SeatNote(len(table.match.events) if table.match is not None else 0, seat, kind)


def _recent_lines(record: GameRecord, match: Match) -> list[MoveLine]:
    """The table's last moves, rebuilt from the stored events and seat notes as
    ``_apply`` and the seat changes wrote them."""
    notes_at: dict[int, list[MoveLine]] = {}
    for note in record.notes:
        notes_at.setdefault(note.seq, []).append(MoveLine(seat=note.seat, kind=note.kind))
    lines: list[MoveLine] = []
    rounds = 0
    for seq, event in enumerate(record.events):
        lines.extend(notes_at.get(seq, ()))
        if isinstance(event, RoundDealt):
            if rounds:
                lines.append(MoveLine(seat=match.results[rounds - 1].ended_by, kind="round_end"))
            lines.append(MoveLine(seat=event.starter, kind="deal"))
            rounds += 1
            continue
        card = int(event.card) if isinstance(event, CardPlayed) else None
        kind = record.automatic.get(seq) or (
            "quit" if isinstance(event, PlayerQuit) else event.kind
        )
        lines.append(MoveLine(seat=event.seat, kind=kind, card=card))
    lines.extend(notes_at.get(len(record.events), ()))
    return lines[-RECENT_MOVES:]
