"""Games played through the game service alone, without Discord: for tests and benchmarks.

A :class:`ServiceGame` is a :class:`~bot.service.GameService` over a real store,
with a :class:`ManualClock` that moves only when told to and a
:class:`RecordingListener` in place of the Discord front end.
"""

from __future__ import annotations

import asyncio
import inspect
import itertools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

from bot.service import GameService, Person
from bot.service.play.rows import seat_records
from bot.service.play.table import Seat, Status, Table
from bot.service.timing import Timing
from data import Store
from data.records import RatingChange
from game import Ruleset
from game.ai import Strength, choose

GUILD = 1  # the guild of every table opened here, unless told otherwise


class ManualClock:
    """A unix clock that stands still until :meth:`advance` moves it.

    The service's clocks sleep by it (its :meth:`sleep`), so moving it past a
    turn's deadline rings that turn's clock at once, however far it is.
    """

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now
        # Who sleeps until when: the task too, so :func:`settled` can tell a task
        # waiting for a later time from one still at work.
        self._sleepers: list[tuple[float, asyncio.Future[None], asyncio.Task[Any] | None]] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, delay: float) -> None:
        """Wait until the clock has moved ``delay`` seconds on."""
        if delay <= 0:
            await asyncio.sleep(0)
            return
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((self.now + delay, woken, asyncio.current_task()))
        await woken

    def asleep(self) -> set[asyncio.Task[Any]]:
        """The tasks sleeping until a time the clock has not reached yet."""
        return {task for _, woken, task in self._sleepers if task is not None and not woken.done()}

    def advance(self, seconds: float) -> None:
        """Move the clock on, waking whoever sleeps until then."""
        self.now += seconds
        waiting = []
        for until, woken, task in self._sleepers:
            if woken.done():
                continue
            if until <= self.now:
                woken.set_result(None)
            else:
                waiting.append((until, woken, task))
        self._sleepers = waiting


class WatchedLock(asyncio.Lock):
    """An :class:`asyncio.Lock` that counts the tasks held up waiting for it: put in
    place of a table's lock, it lets a test wait until the service is held up there."""

    def __init__(self) -> None:
        super().__init__()
        self.waiting = 0

    async def acquire(self) -> Literal[True]:
        self.waiting += 1
        try:
            return await super().acquire()
        finally:
            self.waiting -= 1


def watch_locks(table: Table) -> tuple[WatchedLock, WatchedLock]:
    """Put watched locks in place of ``table``'s lock and notice lock (neither held)."""
    assert not (table.lock.locked() or table.notice_lock.locked()), "a lock is held"
    table.lock, table.notice_lock = WatchedLock(), WatchedLock()
    return table.lock, table.notice_lock


class RecordingListener:
    """A :class:`~bot.service.TableListener` that writes down what it is told.

    Each notice is a tuple of its kind (``changed``, ``turn``, ``warning``,
    ``closed``, ``gone``), the game id and, for ``changed`` and ``turn``, the
    table's stamp then (for ``closed``, the reason).  ``on_notice`` runs with
    each, for a test that checks what is true when a notice goes out.
    """

    def __init__(self, on_notice: Callable[[str, Table], Any] | None = None) -> None:
        self.notices: list[tuple[str, int, Any]] = []
        self.on_notice = on_notice

    async def _note(self, kind: str, table: Table, detail: Any) -> None:
        self.notices.append((kind, table.game_id, detail))
        if self.on_notice is not None:
            outcome = self.on_notice(kind, table)
            if asyncio.iscoroutine(outcome):
                await outcome

    async def table_changed(self, table: Table) -> None:
        await self._note("changed", table, table.stamp)

    async def turn_started(self, table: Table) -> None:
        await self._note("turn", table, table.stamp)

    async def turn_warning(self, table: Table) -> None:
        await self._note("warning", table, table.stamp)

    async def table_closed(self, table: Table, reason: str) -> None:
        await self._note("closed", table, reason)

    async def table_gone(self, table: Table) -> None:
        await self._note("gone", table, None)

    def kinds(self, game_id: int) -> list[str]:
        """The kinds of notice of game ``game_id``, in order."""
        return [kind for kind, game, _ in self.notices if game == game_id]


def people(*names: str, first_id: int = 101) -> list[Person]:
    """Players with these names and ids counting up from ``first_id``."""
    return [Person(first_id + i, name) for i, name in enumerate(names)]


class ServiceGame:
    """A game service with its store, clock and listener, and ways to play at it."""

    def __init__(self, service: GameService, clock: ManualClock, listener: RecordingListener):
        self.service = service
        self.clock = clock
        self.listener = listener
        self._channels = itertools.count(1_000)

    @classmethod
    async def open(
        cls,
        path: Path,
        *,
        clock: ManualClock | None = None,
        store: Store | None = None,
        timing: Timing | None = None,
    ) -> ServiceGame:
        """A service over a new SQLite store at ``path`` (or over ``store``), with the
        service's pauses and limits (``timing``) the defaults unless given."""
        clock = clock or ManualClock()
        if store is None:
            store = await Store.open(path, durable=False, clock=clock)
        service = GameService(
            store,
            clock=clock,
            seed_source=itertools.count(7).__next__,
            sleep=clock.sleep,
            timing=timing,
        )
        listener = RecordingListener()
        service.notices.listener = listener
        return cls(service, clock, listener)

    @property
    def store(self) -> Store:
        return self.service.store

    async def lobby(
        self,
        players: Sequence[Person],
        ais: Sequence[Strength] = (),
        *,
        start: bool = True,
        turn_timer: int = 0,
        ruleset: Ruleset | None = None,
        channel_id: int | None = None,
        guild_id: int = GUILD,
    ) -> Table:
        """The first player opens a lobby (in ``guild_id``), the others join, AI seats are
        added, and (with ``start``) the host starts the game."""
        host, *others = players
        table = await self.service.lobbies.open_lobby(
            guild_id=guild_id,
            channel_id=channel_id if channel_id is not None else next(self._channels),
            host=host,
            ruleset=ruleset or Ruleset(),
            turn_timer=turn_timer,
            locale="en",
        )
        for person in others:
            await self.service.lobbies.join(table, person)
        for strength in ais:
            await self.service.lobbies.add_ai(table, host.id, strength)
        if start:
            await self.service.lobbies.start(table, host.id)
        return table

    async def play(self, table: Table) -> None:
        """The human to move makes the move a Normal AI would, on the current stamp."""
        seat = table.to_move
        assert table.match is not None and seat is not None, "nobody is to move"
        user_id = table.seats[seat].user_id
        assert user_id is not None, "an AI is to move"
        action = choose(table.match.view(seat), Strength.NORMAL, table.stamp)
        await self.service.moves.move(table, user_id, action, table.stamp)

    async def play_out(self, table: Table, *, timeout: float = 30.0) -> None:
        """Play the humans' moves (the AIs make their own) until the game is over."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while table.status is Status.RUNNING:
            if loop.time() > deadline:
                raise AssertionError(f"game {table.game_id} did not end in {timeout} s")
            seat = table.to_move
            if seat is not None and table.seats[seat].controller is None:
                await self.play(table)
            else:
                await asyncio.sleep(0.001)  # an AI's move is on its way

    async def settled(self, *, timeout: float = 30.0) -> None:
        """Wait until the service has done all it has to do by the clock's time now
        (see :func:`settled`)."""
        await settled(self.clock, timeout=timeout)

    async def close(self) -> None:
        await self.service.close()
        await self.service.store.close()


async def stored_game(
    store: Store, seats: Sequence[Seat], *, guild_id: int, channel_id: int, ruleset: Ruleset
) -> int:
    """The id of a game stored with ``seats`` (in the lobby, as far as the store knows),
    for a table a test builds by hand: what the service stores about a table (a hint
    shown at it) needs its game there."""
    return await store.games.create_game(
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=seats[0].user_id or 0,
        ruleset=ruleset,
        turn_timer=0,
        seats=seat_records(seats),
    )


async def settled(clock: ManualClock, *, timeout: float = 30.0) -> None:
    """Wait until every other task has finished or sleeps by ``clock`` until a time it
    has not reached: the notices have gone out, the clocks due by now have rung, the
    AI turns due by now have been thought and played, the games closed have been rated.

    After it, what has not happened will not happen until the clock moves on: a test
    that something did not happen waits for this, then looks.  ``timeout`` bounds a
    loaded machine's wait (a task waiting for the test itself never settles), not a
    speed goal; it fails naming the tasks still at work."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    me = asyncio.current_task()
    while True:
        # A task just woken by the clock, or by another's result, is not done: it is
        # counted as at work until it has run up to its next wait.
        busy = {t for t in asyncio.all_tasks() if t is not me and not t.done()} - clock.asleep()
        if not busy:
            return
        if loop.time() > deadline:
            names = sorted(task.get_name() for task in busy)
            raise AssertionError(f"the service never settled: still at work {names}")
        await asyncio.sleep(0.001)


def _what(check: Callable[[], object]) -> str:
    """The source of ``check`` (a lambda's line), to say what never happened."""
    try:
        return inspect.getsource(check).strip()
    except (OSError, TypeError):
        return repr(check)


async def eventually(
    check: Callable[[], bool], *, what: str | None = None, timeout: float = 30.0
) -> None:
    """Wait until ``check()`` holds: for what the service does in the background.

    ``timeout`` bounds a loaded machine's wait (CI's two busy workers), not a speed goal:
    it returns as soon as ``check()`` holds.  If it never does, the failure says what
    never happened: ``what``, or else ``check``'s source."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        if loop.time() > deadline:
            raise AssertionError(f"never happened in {timeout} s: {what or _what(check)}")
        await asyncio.sleep(0.005)


async def rated(game: ServiceGame, game_id: int, *, timeout: float = 30.0) -> list[RatingChange]:
    """The game's rating changes, once its close has rated it (in the clock's task, after
    the close). ``timeout`` bounds a loaded machine's wait, as in :func:`eventually`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not (changes := await game.store.ratings.rating_changes(game_id)):
        if loop.time() > deadline:
            raise AssertionError(f"game {game_id} was never rated")
        await asyncio.sleep(0.01)
    return changes


async def finished(game: ServiceGame, table: Table) -> Table:
    """Play the game out and wait until its finished table is shown (rated by then)."""
    await game.play_out(table)
    assert table.status is Status.FINISHED
    shown = ("changed", table.game_id, table.stamp)
    await eventually(lambda: shown in game.listener.notices)
    return table
