"""Lobbies: opening (and rematches), joining, leaving, removing, AI seats, hints, rules, start."""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from itertools import count
from typing import Any, NotRequired, TypedDict, Unpack

from bot.service.errors import ServiceError
from bot.service.person import Person
from bot.service.play.clocks import TableClocks
from bot.service.play.dealer import Dealer
from bot.service.play.notices import Notices
from bot.service.play.registry import TableRegistry
from bot.service.play.rows import seat_records, table_from_record
from bot.service.play.table import (
    MoveLine,
    Seat,
    Status,
    Table,
    ai_name,
    ai_number,
    all_humans_gone,
    changed_seat,
    ended_away,
    only_person,
    unconfirmed,
)
from bot.service.ratings.closing import Closer
from bot.service.saver import Saver
from data import Store
from data.records import ABANDONED, CANCELLED, former_player
from game import Match, Ruleset, RulesetError
from game.ai import Strength
from game.rules import DIMENSIONS

#: Channels (and threads) one person may keep busy at once in one server: the lobbies they
#: host and the games they play as its only person (against AIs) count alike.
CHANNELS_PER_PERSON = 3


class LobbyOptions(TypedDict):
    """What a lobby is opened with, from /lama new or a Rematch."""

    guild_id: int
    channel_id: int
    host: Person  # hosts it, and sits first unless ``seats`` say otherwise
    ruleset: Ruleset
    turn_timer: int  # seconds a turn; 0: no timer
    locale: str  # the language of its public messages
    seats: NotRequired[Sequence[Seat] | None]  # a Rematch's; else the host alone
    hints: NotRequired[bool]  # whether hints are allowed at the table (default on)


class Lobbies:
    """A table from its lobby to its first deal, or to its cancelling.

    Each change is made at the table its caller found (a click's, looked up once by its
    place check), who may make it checked once. Every change is checked again under the
    table's lock (a click that waited for it may find the lobby started or closed),
    saved, then made, and starts the lobby's idle clock again (as a restart counts it:
    from the lobby's last save). ``prepare_ai`` readies the AI for a Hard seat added;
    ``after_change`` (the move pipeline's) shows the game started and sets its first
    turn going.
    A person keeps at most ``channels_per_person`` channels busy at once in a server:
    the lobbies they host and the games they play alone against AIs.
    """

    def __init__(
        self,
        store: Store,
        saver: Saver,
        registry: TableRegistry,
        clocks: TableClocks,
        dealer: Dealer,
        notices: Notices,
        clock: Callable[[], float],
        *,
        prepare_ai: Callable[[Table], None],
        after_change: Callable[[Table], Awaitable[None]],
        closer: Closer,
        channels_per_person: int = CHANNELS_PER_PERSON,
    ) -> None:
        self._store = store
        self._saver = saver
        self._registry = registry
        self._clocks = clocks
        self._dealer = dealer
        self._notices = notices
        self._clock = clock
        self._prepare_ai = prepare_ai
        self._after_change = after_change
        self._closer = closer  # a cancel that is its person's leaving is rated so
        self._per_host = channels_per_person
        self._opening: Counter[tuple[int, int]] = Counter()  # (guild, host): lobbies on the way

    @contextmanager
    def _hosting(self, guild_id: int, host_id: int) -> Iterator[None]:
        """Count a lobby being opened by ``host_id`` in ``guild_id``, or refuse it if
        they keep as many channels busy as they may there already (counted before the
        first await)."""
        if not self._may_host(guild_id, host_id):
            hours = self._clocks.alone_idle_hours
            raise ServiceError("error.too_many_channels", max=self._per_host, hours=hours)
        with self._on_the_way(guild_id, host_id):
            yield

    @contextmanager
    def _on_the_way(self, guild_id: int, host_id: int) -> Iterator[None]:
        """Count a lobby ``host_id`` is about to host (opened, or handed on) while it is
        saved: until its host is set, no other check may hand them one more."""
        self._opening[guild_id, host_id] += 1
        try:
            yield
        finally:
            self._opening[guild_id, host_id] -= 1
            if not self._opening[guild_id, host_id]:
                del self._opening[guild_id, host_id]

    def _may_host(self, guild_id: int, user_id: int) -> bool:
        """Whether ``user_id`` keeps fewer channels busy than they may in ``guild_id``
        (the lobbies they host or are opening, the games they play as its only person):
        for a lobby opened, and for one handed on by a host leaving."""
        hosted = sum(
            1
            for t in self._registry.tables()
            if t.guild_id == guild_id
            and (
                (t.status is Status.LOBBY and t.host_id == user_id)
                or (t.status is Status.RUNNING and only_person(t) == user_id)
            )
        )
        return hosted + self._opening[guild_id, user_id] < self._per_host

    async def open_lobby(self, **options: Unpack[LobbyOptions]) -> Table:
        """Open a lobby: its channel claimed and its host counted while it is saved."""
        claimed = self._registry.claim(options["channel_id"])
        with claimed, self._hosting(options["guild_id"], options["host"].id):
            return await self._open(**options)

    async def _open(self, **options: Unpack[LobbyOptions]) -> Table:
        """Open a lobby in a channel claimed by the caller."""
        guild_id, channel_id, host = options["guild_id"], options["channel_id"], options["host"]
        ruleset, turn_timer, locale = options["ruleset"], options["turn_timer"], options["locale"]
        hints = options.get("hints", True)
        given = options.get("seats")
        seats = list(given) if given else [Seat(user_id=host.id, ai=None, name=host.name)]
        game_id = await self._saver.save(
            self._store.games.create_game(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host.id,
                ruleset=ruleset,
                turn_timer=turn_timer,
                seats=seat_records(seats),
                language=locale,
                hints=hints,
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
            opened_at=self._clock(),
            hints=hints,
        )
        self._registry.register(table)
        self._clocks.arm_lobby(table)
        return table

    async def _save_seats(self, table: Table, seats: list[Seat]) -> None:
        """Save the lobby's seats as ``seats``; the caller then makes them the table's."""
        await self._saver.save(
            self._store.games.update_lobby(table.game_id, seats=seat_records(seats))
        )

    @classmethod
    def _hosted(cls, table: Table, user_id: int, *, can_manage: bool = False) -> None:
        """``table`` is a lobby, and ``user_id`` its host (or someone who may manage the
        server): the one check of who may change it."""
        cls._still_lobby(table)
        if user_id != table.host_id and not can_manage:
            raise ServiceError("error.host_only")

    @staticmethod
    def _still_lobby(table: Table) -> None:
        """Checked again once the lock is held: a click that waited for it may
        find the lobby started or closed by the click before it."""
        if not table.live:
            raise ServiceError("error.game_gone")
        if table.status is not Status.LOBBY:
            raise ServiceError("error.already_started")

    @classmethod
    def _seats_but(cls, table: Table, user_id: int, not_seated: str) -> list[Seat]:
        """The lobby's seats but ``user_id``'s; ``not_seated`` when they have none."""
        cls._still_lobby(table)
        index = table.seat_of(user_id)
        if index is None:
            raise ServiceError(not_seated)
        return [s for i, s in enumerate(table.seats) if i != index]

    async def join(self, table: Table, person: Person) -> Table:
        """Take a seat, or confirm the one a Rematch kept for you."""
        self._still_lobby(table)
        async with table.lock:
            self._still_lobby(table)
            index = table.seat_of(person.id)
            if index is not None and unconfirmed(table.seats[index]):
                seats = changed_seat(table.seats, index, away=False)
                await self._save_seats(table, seats)
                table.seats = seats
                self._clocks.arm_lobby(table)
                return table
            if index is not None:
                raise ServiceError("error.already_joined")
            if person.id in table.removed:
                raise ServiceError("error.removed_from_lobby")
            if len(table.seats) >= table.ruleset.max_players:
                raise ServiceError("error.lobby_full", max=table.ruleset.max_players)
            seats = [*table.seats, Seat(user_id=person.id, ai=None, name=person.name)]
            await self._save_seats(table, seats)
            table.seats = seats
            self._clocks.arm_lobby(table)
        return table

    async def leave(self, table: Table, user_id: int) -> Table:
        """Leave a lobby; the host leaving hands the lobby to the next human who may host
        one more in the server, or closes it when there is none."""
        self._still_lobby(table)
        async with table.lock:
            seats = self._seats_but(table, user_id, "error.not_in_lobby")
            # Only someone who joined themselves keeps it open, or hosts it.
            humans = [s.user_id for s in seats if s.user_id is not None and not unconfirmed(s)]
            if not humans:
                await self._notices.close_table(table, Status.CANCELLED, "closed.empty")
                return table
            host = None
            if user_id == table.host_id:
                # Inheriting a lobby must not take anyone past the lobbies one may host.
                host = next((h for h in humans if self._may_host(table.guild_id, h)), None)
                if host is None:
                    await self._notices.close_table(table, Status.CANCELLED, "closed.no_host")
                    return table
            # The heir counts as hosting it while it is saved, so a second lobby handed
            # on (or opened) meanwhile can't take them past the limit too.
            heir = self._on_the_way(table.guild_id, host) if host is not None else nullcontext()
            with heir:
                await self._saver.save(
                    self._store.games.update_lobby(
                        table.game_id, seats=seat_records(seats), host_id=host
                    )
                )
                table.seats = seats
                if host is not None:
                    table.host_id = host
            self._clocks.arm_lobby(table)
        return table

    async def remove(
        self, table: Table, user_id: int, target_id: int, *, can_manage: bool
    ) -> Table:
        """The host (or a manager) takes a joiner's seat away; they may not join again."""
        self._hosted(table, user_id, can_manage=can_manage)
        if target_id == table.host_id:
            raise ServiceError("error.remove_host")
        async with table.lock:
            seats = self._seats_but(table, target_id, "error.target_not_a_player")
            # Saved with the seats, so that a restart keeps them out too.
            await self._saver.save(
                self._store.games.update_lobby(
                    table.game_id, seats=seat_records(seats), removed=target_id
                )
            )
            table.seats = seats
            table.removed.add(target_id)
            self._clocks.arm_lobby(table)
        return table

    async def add_ai(self, table: Table, user_id: int, strength: Strength) -> Table:
        self._hosted(table, user_id)
        async with table.lock:
            self._still_lobby(table)
            if len(table.seats) >= table.ruleset.max_players:
                raise ServiceError("error.lobby_full", max=table.ruleset.max_players)
            number = sum(1 for s in table.seats if s.ai is not None) + 1
            seat = Seat(user_id=None, ai=strength, name=ai_name(number))
            seats = [*table.seats, seat]
            await self._save_seats(table, seats)
            table.seats = seats
            self._clocks.arm_lobby(table)
            self._prepare_ai(table)
        return table

    async def remove_ai(self, table: Table, user_id: int) -> Table:
        """The host frees the seat of the AI added last, e.g. for a friend who turned up."""
        self._hosted(table, user_id)
        async with table.lock:
            self._still_lobby(table)
            last = max((i for i, s in enumerate(table.seats) if s.ai is not None), default=None)
            if last is None:
                raise ServiceError("error.no_ai_seat")
            seats = [s for i, s in enumerate(table.seats) if i != last]
            await self._save_seats(table, seats)
            table.seats = seats
            self._clocks.arm_lobby(table)
        return table

    async def toggle_hints(self, table: Table, user_id: int) -> Table:
        """The host turns hints at the table off, or on again, before the start.

        Flipped under the table's lock: two quick clicks turn them off and on
        again, not off twice."""
        self._hosted(table, user_id)
        async with table.lock:
            self._still_lobby(table)
            allowed = not table.hints
            await self._saver.save(
                self._store.games.update_lobby(
                    table.game_id, seats=seat_records(table.seats), hints=allowed
                )
            )
            table.hints = allowed
            self._clocks.arm_lobby(table)
        return table

    async def change_rules(self, table: Table, user_id: int, **dimensions: Any) -> Table:
        """The host changes rule dimensions (house rules) before the start, each to a value
        the lobby offers (:data:`~game.rules.DIMENSIONS`); applied to the rules as they are
        once the lock is held (two quick changes both stay), saved before shown."""
        offered = {d.name: d.choices for d in DIMENSIONS}
        if any(value not in offered.get(name, ()) for name, value in dimensions.items()):
            raise ServiceError("error.house_rule_unknown")
        self._still_lobby(table)
        if user_id != table.host_id:
            raise ServiceError("error.rules_host_only")
        async with table.lock:
            self._still_lobby(table)
            try:
                ruleset = table.ruleset.with_changes(**dimensions)
            except RulesetError:  # a value of the wrong type: 1 for True, say
                raise ServiceError("error.house_rule_unknown") from None
            seats = seat_records(table.seats)
            await self._saver.save(
                self._store.games.update_lobby(table.game_id, seats=seats, ruleset=ruleset)
            )
            table.ruleset = ruleset
            self._clocks.arm_lobby(table)
        return table

    async def start(self, table: Table, user_id: int) -> Table:
        """Start the game with the seats taken by those who joined (and the AI seats): the
        people a Rematch asked who didn't confirm are left out."""
        self._hosted(table, user_id)
        async with table.lock:
            self._still_lobby(table)
            seats = [s for s in table.seats if not unconfirmed(s)]
            least = table.ruleset.min_players
            if len(seats) < least:
                short = "error.not_enough_confirmed" if len(seats) < len(table.seats) else None
                raise ServiceError(short or "error.not_enough_players", min=least)
            match = Match(table.ruleset, len(seats))
            self._dealer.deal(match)
            deadline = self._clocks.deadline(table, match, seats)
            await self._saver.save(
                self._store.games.start_game(
                    table.game_id,
                    seats=seat_records(seats),
                    events=match.events,
                    turn_deadline=deadline,
                )
            )
            table.seats = seats
            table.match = match
            table.status = Status.RUNNING
            table.turn_deadline = deadline
            table.warned = False
            table.recent.append(MoveLine(seat=match.to_move or 0, kind="deal"))
        await self._after_change(table)
        return table

    async def cancel(self, table: Table, user_id: int, *, can_manage: bool) -> Table:
        """The host (or a member who may manage the server) cancels a lobby or a running
        game.  The only person still playing a game who cancels it leaves it, as far as
        the rating goes: it is rated as an abandoned one (:class:`~.closing.Closer`), lest
        cancelling dodge the loss leaving would be; one nobody plays any more (its last
        person left, the store failing to end it) ends as abandoned, as the clock would
        end it.  A store that can't read the game to say so leaves it open."""
        if not table.live:
            raise ServiceError("error.game_gone")
        if user_id != table.host_id and not can_manage:
            raise ServiceError("error.cancel_not_allowed")
        async with table.lock:
            # A second Cancel (the host and an admin at once) or one racing the
            # last move finds the table closed once it holds the lock.
            if not table.live:
                raise ServiceError("error.game_gone")
            # Its last person left while the store failed to end it (the clock tries
            # again): it ends as abandoned, as the clock would end it, lest the cancel
            # of the host who left dodge the loss.
            reason = ABANDONED if all_humans_gone(table) else CANCELLED
            await self._closer.close(table, Status.CANCELLED, reason, by=user_id)
        return table

    async def withdraw(self, game_id: int) -> None:
        """Take back a lobby whose message Discord refused to post: nobody saw it, so it
        is deleted as if never opened. It holds no channel, counts for no host, and the
        Rematch that opened it may be pressed again. A lobby started or closed meanwhile
        is left as it is."""
        table = self._registry.table(game_id)
        if table is None:
            return
        async with table.lock:
            if table.status is not Status.LOBBY:
                return
            await self._saver.save(self._store.games.discard_lobby(game_id))
            await self._notices.forget_table(table)

    async def rematch(
        self,
        finished: Table | int,
        person: Person,
        channel_id: int,
        guild_id: int,
        *,
        locale: str | None = None,
    ) -> Table:
        """A finished game's players, rules and AI seats in a new lobby, hosted by ``person``,
        in ``locale`` (the server's language now; None: the old table's). ``finished`` is
        its table as the click found it, or the id of one the service holds no more."""
        game_id = finished if isinstance(finished, int) else finished.game_id
        with self._registry.claim(channel_id), self._hosting(guild_id, person.id):
            old = await self._finished(game_id) if isinstance(finished, int) else finished
            if old is None:
                raise ServiceError("error.game_gone")
            # A copied or crafted Rematch button must not seat one channel's (or
            # server's) players somewhere else, nor copy a game still going on.
            if (old.guild_id, old.channel_id) != (guild_id, channel_id):
                raise ServiceError("error.wrong_place")
            # A game that ended because nobody came back from being away is over too.
            if old.status is not Status.FINISHED and not ended_away(old):
                raise ServiceError("error.not_finished")
            if old.seat_of(person.id) is None:
                raise ServiceError("error.not_a_player")
            # Once: a second Rematch of the table (after the first was cancelled, or
            # after a restart) finds the game opened after it in the store.
            if await self.opened_after(game_id, channel_id):
                raise ServiceError("error.rematch_used")
            # Everyone comes back as they joined, humans as humans, except a player
            # who was kicked: they come back only by asking for the rematch themselves.
            # The others are asked, not seated: each plays only once they confirm
            # (unconfirmed), lest a Rematch drag someone absent into a rated game.
            seats = [
                Seat(
                    user_id=s.user_id,
                    ai=None if s.human else s.ai,
                    name=s.name,
                    away=s.human and s.user_id != person.id,
                )
                for s in old.seats
                if not (s.human and s.ai is not None) or s.user_id == person.id
            ]
            # A forgotten person's seat, an AI's since, comes back as an AI seat of its
            # own: under the name it kept, the rating and the views would take that AI
            # for a forgotten person in a game they never played.
            fresh = count(1 + max((ai_number(s.name) or 0 for s in seats), default=0))
            seats = [
                Seat(user_id=None, ai=s.ai or Strength.NORMAL, name=ai_name(next(fresh)))
                if former_player(s.user_id, s.name)
                else s
                for s in seats
            ]
            # The player who asked hosts the rematch.
            return await self._open(
                guild_id=guild_id,
                channel_id=channel_id,
                host=person,
                ruleset=old.ruleset,
                turn_timer=old.turn_timer,
                locale=locale or old.locale,
                seats=seats,
                hints=old.hints,
            )

    async def opened_after(self, game_id: int, channel_id: int) -> bool:
        """Whether a game was opened in the channel after ``game_id`` (its Rematch, say),
        whatever became of it; a store that can't say raises :class:`ServiceError`."""
        return await self._saver.save(self._store.games.opened_after(channel_id, game_id))

    async def _finished(self, game_id: int) -> Table | None:
        record = await self._store.games.load_game(game_id)
        return table_from_record(record) if record is not None else None
