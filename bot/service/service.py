"""The game service: one facade over the parts, all the front end talks to."""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import Unpack

from bot.service.cooldowns import Cooldowns
from bot.service.errors import ServiceError
from bot.service.front_store import FrontStore
from bot.service.history.replay import Replay, Replays
from bot.service.listener import TableListener
from bot.service.metrics import NO_METRICS, ServiceMetrics
from bot.service.person import Person
from bot.service.play.clocks import TableClocks
from bot.service.play.dealer import Dealer, random_seed
from bot.service.play.lobbies import Lobbies, LobbyOptions
from bot.service.play.moves import MoveOutcome, MovePipeline
from bot.service.play.notices import Notices
from bot.service.play.registry import TableRegistry
from bot.service.play.resume import Resumer
from bot.service.play.scheduler import Scheduler
from bot.service.play.seat_changes import SeatChanges
from bot.service.play.table import Status, Table, all_humans_gone
from bot.service.ratings.closing import Closer
from bot.service.ratings.rater import Rated, Rater
from bot.service.ratings.season_plans import SeasonPlans
from bot.service.ratings.seasons import Season
from bot.service.saver import Saver
from bot.service.thinking.ai_turns import AITurns
from bot.service.thinking.hints import Hint, HintDesk
from bot.service.thinking.pool import Thinking
from bot.service.timing import Timing
from data import ChipHistory, OpenHandRecord, PingRecord, ServerSettings, Store, TableTokenRecord
from data.export import ExportReads
from data.ratings import RatingReads
from data.stats import StatsReads
from game import Action, Match, RoundDealt, Ruleset, SeatView
from game.ai import Strength
from game.ai.advice import Review


class GameService:
    """Lobbies, moves, AI turns and turn timers, persisted.

    Cogs talk to this and nothing else; it speaks engine types and knows
    nothing of Discord.  Each table has one lock, so a double click or two
    players clicking at once apply exactly one move.  Every change is written
    to the store before anyone is shown it; a failed write leaves the game as
    it was.  The work is done by the parts this builds, one job each.
    """

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float],
        seed_source: Callable[[], int] = random_seed,
        thinking: Thinking | None = None,
        sleep: Callable[[float], Awaitable[None]] | None = None,
        cooldowns: Cooldowns | None = None,
        metrics: ServiceMetrics = NO_METRICS,
        timing: Timing | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        #: The pauses and limits every part below waits by: one object, read where used.
        self.timing = timing if timing is not None else Timing()
        #: How soon each person may open a table, ask a hint… again: the front end asks.
        self.cooldowns = cooldowns if cooldowns is not None else Cooldowns(clock)
        # Where AI moves are decided: the bot passes its process pool; without
        # one, Hard thinks in a thread.
        self.thinking = thinking if thinking is not None else Thinking(workers=0, metrics=metrics)
        # Every clock of every table: turns, warnings, idle tables, AI moves.  ``sleep``
        # waits for a delay of ``clock``: asyncio's by default; a clock that tests move
        # by hand (``testkit.service_game.ManualClock``) brings its own.
        self._scheduler = Scheduler(clock, sleep=sleep)
        self._saver = Saver()
        self._dealer = Dealer(seed_source)
        # The move pipeline is built last, from the parts before it; the
        # callbacks that lead back to it (an AI move, a turn timing out) reach
        # it through these lambdas once it is there.
        self._ai = AITurns(
            self._scheduler,
            clock,
            self.thinking,
            apply=self._ai_move,
            after_change=lambda table: self._moves.after_change(table),
            metrics=metrics,
            timing=self.timing,
        )
        self._registry = TableRegistry(on_register=self._ai.prepare, on_unregister=self._forget)
        self._notices = Notices(store, self._saver, self._registry)
        self._rater = Rater(store)
        closer = Closer(self._saver, self._notices, self._rater)
        self._clocks = TableClocks(
            self._scheduler,
            clock,
            time_out=lambda table, stamp: self._moves.time_out(table, stamp),
            warn=self._notices.warn,
            close=closer.close,
            timing=self.timing,
        )
        self._moves = MovePipeline(
            store,
            self._saver,
            self._registry,
            self._dealer,
            self._clocks,
            self._notices,
            clock,
            schedule_ai=self._ai.schedule,
            rate=self._rater.rate_table,
            metrics=metrics,
            timing=self.timing,
        )
        after_change = self._moves.after_change
        self._seats = SeatChanges(
            store,
            self._saver,
            self._registry,
            self._clocks,
            self._notices,
            after_change=after_change,
        )
        self._lobbies = Lobbies(
            store,
            self._saver,
            self._registry,
            self._clocks,
            self._dealer,
            self._notices,
            clock,
            prepare_ai=self._ai.prepare,
            after_change=after_change,
            closer=closer,
        )
        self._hints = HintDesk(self._registry, store, self.thinking, timing=self.timing)
        self._resumer = Resumer(store, self._registry, self._clocks, self._ai)
        self._front = FrontStore(store, self._saver)
        self._seasons = SeasonPlans(store, self._saver, clock, self._rater.lock)
        self._replays = Replays(store, clock=clock)

    async def _ai_move(self, table: Table, seat: int, action: Action) -> MoveOutcome:
        """An AI seat's move, unless nobody is left to play for: a game whose last
        person left while the store failed to end it is being closed, not played out
        (the AI's turn tries again later, and stops once the game is closed)."""
        if all_humans_gone(table):
            raise ServiceError("error.game_gone")
        return await self._moves.apply(table, seat, action)

    def _forget(self, table: Table) -> None:
        """A table left the registry: its clocks stop, and its AI's failures are forgotten."""
        self._scheduler.cancel_game(table.game_id)
        self._ai.forget(table)

    # ------------------------------------------------------------ settable parts
    @property
    def listener(self) -> TableListener | None:
        """The front end told of every change; None until it is connected."""
        return self._notices.listener

    @listener.setter
    def listener(self, listener: TableListener | None) -> None:
        self._notices.listener = listener

    @property
    def seed_source(self) -> Callable[[], int]:
        """Where the seeds of random deals come from (a benchmark replays its own)."""
        return self._dealer.seed_source

    @seed_source.setter
    def seed_source(self, source: Callable[[], int]) -> None:
        self._dealer.seed_source = source

    @property
    def scripted_deals(self) -> deque[Callable[[Match], RoundDealt]]:
        """Deals to use before random ones: for puzzles and tests."""
        return self._dealer.scripted

    # ------------------------------------------------------------ tables
    def table(self, game_id: int) -> Table | None:
        return self._registry.table(game_id)

    def table_in(self, channel_id: int) -> Table | None:
        return self._registry.table_in(channel_id)

    def tables(self) -> list[Table]:
        """Every open table (lobbies and running games)."""
        return self._registry.tables()

    # ------------------------------------------------------------ lobbies
    async def open_lobby(self, **options: Unpack[LobbyOptions]) -> Table:
        return await self._lobbies.open_lobby(**options)

    async def join(self, game_id: int, person: Person) -> Table:
        return await self._lobbies.join(game_id, person)

    async def leave(self, game_id: int, user_id: int) -> Table:
        return await self._lobbies.leave(game_id, user_id)

    async def remove_from_lobby(
        self, game_id: int, user_id: int, target_id: int, *, can_manage: bool
    ) -> Table:
        return await self._lobbies.remove(game_id, user_id, target_id, can_manage=can_manage)

    async def add_ai(self, game_id: int, user_id: int, strength: Strength) -> Table:
        return await self._lobbies.add_ai(game_id, user_id, strength)

    async def remove_ai(self, game_id: int, user_id: int) -> Table:
        return await self._lobbies.remove_ai(game_id, user_id)

    async def toggle_hints(self, game_id: int, user_id: int) -> Table:
        return await self._lobbies.toggle_hints(game_id, user_id)

    async def start(self, game_id: int, user_id: int) -> Table:
        return await self._lobbies.start(game_id, user_id)

    async def cancel(self, game_id: int, user_id: int, *, can_manage: bool) -> Table:
        return await self._lobbies.cancel(game_id, user_id, can_manage=can_manage)

    async def opened_after(self, game_id: int, channel_id: int) -> bool:
        """Whether a game was opened in the channel after ``game_id``: its Rematch is used."""
        return await self._lobbies.opened_after(game_id, channel_id)

    async def rematch(
        self,
        game_id: int,
        person: Person,
        channel_id: int,
        guild_id: int,
        *,
        locale: str | None = None,
    ) -> Table:
        return await self._lobbies.rematch(game_id, person, channel_id, guild_id, locale=locale)

    async def withdraw_lobby(self, game_id: int) -> None:
        await self._lobbies.withdraw(game_id)

    # ------------------------------------------------------------ play and seats
    async def move(self, game_id: int, user_id: int, action: Action, stamp: int) -> MoveOutcome:
        return await self._moves.move(game_id, user_id, action, stamp)

    async def come_back(self, game_id: int, user_id: int) -> Table:
        return await self._seats.come_back(game_id, user_id)

    async def kick(self, game_id: int, user_id: int, target_id: int, *, can_manage: bool) -> Table:
        return await self._seats.kick(game_id, user_id, target_id, can_manage=can_manage)

    async def leave_game(self, game_id: int, user_id: int) -> Table:
        return await self._seats.leave_game(game_id, user_id)

    # ------------------------------------------------------------ hints and reviews
    def hint_view(self, game_id: int, user_id: int) -> SeatView:
        return self._hints.hint_view(game_id, user_id)

    async def hint(self, game_id: int, user_id: int) -> Hint:
        return await self._hints.hint(game_id, user_id)

    async def review(
        self,
        game_id: int,
        user_id: int,
        *,
        guild_id: int,
        on_queued: Callable[[int], Awaitable[None]] | None = None,
    ) -> Review:
        return await self._hints.review(game_id, user_id, guild_id=guild_id, on_queued=on_queued)

    async def latest_review(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        *,
        on_queued: Callable[[int], Awaitable[None]] | None = None,
    ) -> Review:
        return await self._hints.latest_review(guild_id, channel_id, user_id, on_queued=on_queued)

    # ------------------------------------------------------------ replays
    async def replay(self, game_id: int, *, guild_id: int, person: int) -> Replay | None:
        """A finished game of ``guild_id`` step by step, every hand open, for ``person``
        (whose rebuilds take turns); None if there is no such game there. Kept for a
        while: paging through it reads the store once."""
        return await self._replays.replay(game_id, guild_id=guild_id, person=person)

    # ------------------------------------------------------------ restarts
    async def resume(self) -> list[Table]:
        """Rebuild the unfinished games, then rate the finished games not yet rated (a
        stop between saving and rating, or a database from before the ratings) in the
        background: :meth:`caught_up` says when that is done."""
        tables = await self._resumer.resume()
        self._rater.catch_up_later()
        return tables

    async def caught_up(self) -> Rated:
        return await self._rater.caught_up()

    async def rate_unrated(self) -> Rated:
        return await self._rater.rate_all()

    async def rerate(self, guild_ids: Sequence[int] | None = None) -> Rated:
        return await self._rater.rerate_every(guild_ids)

    def resumed_tables(self) -> list[Table]:
        return self._resumer.resumed_tables()

    async def endings_unshown(self) -> list[Table]:
        """The games that ended before a restart whose table may not show it yet; a
        finished one with the rating changes its table shows (rated now if it wasn't)."""
        tables = await self._front.endings_unshown()
        for table in tables:
            if table.status is Status.FINISHED:
                await self._rater.rate_table(table)
        return tables

    async def ended_table(self, game_id: int, *, channel_id: int) -> Table | None:
        """A game of ``channel_id`` that is over, with what it did to each rating if it
        finished: what an old hand of it clicked now shows. None for any other game."""
        held = self._registry.table(game_id)
        if held is not None and not held.live:  # closed this moment, not yet let go of
            table = held if held.channel_id == channel_id else None
        else:
            table = await self._front.ended_table(game_id, channel_id=channel_id)
        if table is not None and table.status is Status.FINISHED and not table.rating_changes:
            await self._rater.rate_table(table)
        return table

    async def end_shown(self, game_id: int) -> None:
        await self._front.end_shown(game_id)

    async def charts_unposted(self) -> list[Table]:
        """The games that finished before a restart whose chart may not have gone out."""
        return await self._front.charts_unposted()

    async def chart_posted(self, game_id: int) -> None:
        await self._front.chart_posted(game_id)

    async def moves_listed(self, game_id: int, count: int) -> None:
        await self._front.moves_listed(game_id, count)

    # ------------------------------------------------------------ notices, places gone
    async def notify(self, table: Table) -> None:
        await self._notices.notify(table)

    async def abandon_where(
        self, *, channel_id: int | None = None, guild_id: int | None = None
    ) -> list[Table]:
        return await self._notices.abandon_where(channel_id=channel_id, guild_id=guild_id)

    # ------------------------------------------------------------ the front end's store
    @property
    def stats(self) -> StatsReads:
        """The stats reads (on their own connection): all that /lama stats and its kin
        may ask of the store."""
        return self.store.stats

    @property
    def ratings(self) -> RatingReads:
        """The ratings' reads (on the stats' connection): boards, a person's rating over
        time, what a game did to its seats' ratings."""
        return self.store.ratings

    @property
    def exports(self) -> ExportReads:
        """The export's reads (on the stats' connection): a server's finished games, a
        page at a time, for ``/lama export``."""
        return self.store.export

    async def set_table_message(self, table: Table, message_id: int) -> None:
        await self._front.set_table_message(table, message_id)

    async def public_locale(self, guild_id: int, fallback: str) -> str:
        return await self._front.public_locale(guild_id, fallback)

    async def set_language(self, guild_id: int, language: str | None) -> None:
        await self._front.set_language(guild_id, language)

    async def server_settings(self, guild_id: int) -> ServerSettings:
        return await self._front.server_settings(guild_id)

    async def set_default_timer(self, guild_id: int, seconds: int | None) -> None:
        await self._front.set_default_timer(guild_id, seconds)

    async def set_default_hints(self, guild_id: int, hints: bool | None) -> None:
        await self._front.set_default_hints(guild_id, hints)

    async def allow_channel(self, guild_id: int, channel_id: int, allowed: bool) -> tuple[int, ...]:
        return await self._front.allow_channel(guild_id, channel_id, allowed)

    async def allow_every_channel(self, guild_id: int) -> None:
        await self._front.allow_every_channel(guild_id)

    # ------------------------------------------------------------ seasons
    async def current_season(self, guild_id: int) -> Season:
        return await self._seasons.current(guild_id)

    async def season_of_key(self, guild_id: int, key: int) -> Season:
        return await self._seasons.of_key(guild_id, key)

    async def seasons_of_keys(self, guild_id: int, keys: Sequence[int]) -> list[Season]:
        """The seasons starting at ``keys`` (one read of the plans); others left out."""
        return await self._seasons.of_keys(guild_id, keys)

    async def set_season(self, guild_id: int, *, days: int | None, start_now: bool) -> Season:
        return await self._seasons.set(guild_id, days=days, start_now=start_now)

    async def finished_chips(
        self, game_id: int, *, guild_id: int | None = None
    ) -> ChipHistory | None:
        return await self._front.finished_chips(game_id, guild_id=guild_id)

    async def finished_ruleset(self, game_id: int, *, channel_id: int) -> Ruleset | None:
        return await self._front.finished_ruleset(game_id, channel_id=channel_id)

    async def remember_hand(self, hand: OpenHandRecord) -> None:
        await self._front.remember_hand(hand)

    async def open_hands(self) -> list[OpenHandRecord]:
        return await self._front.open_hands()

    async def remember_table_token(self, record: TableTokenRecord) -> None:
        await self._front.remember_table_token(record)

    async def table_tokens(self) -> list[TableTokenRecord]:
        return await self._front.table_tokens()

    async def remember_ping(self, ping: PingRecord) -> None:
        await self._front.remember_ping(ping)

    async def forget_ping(self, ping: PingRecord) -> None:
        await self._front.forget_ping(ping)

    async def standing_pings(self) -> list[PingRecord]:
        return await self._front.standing_pings()

    # ------------------------------------------------------------ shutdown
    @property
    def closing(self) -> bool:
        """The shutdown began: hints and reviews are refused from now on."""
        return self._hints.closing

    async def close(self) -> None:
        """Let the hints and reviews under way finish within ``Timing.answer_grace``,
        cut the rest short, then stop every clock and notice (the state is saved)."""
        await self._rater.close()
        await self._hints.close()
        await self._scheduler.close()
        await self._notices.close()
