"""The game service: builds its parts, which the front end calls by name; what spans them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.service.cooldowns import Cooldowns
from bot.service.errors import ServiceError
from bot.service.front_store import FrontStore
from bot.service.history.export import Exports
from bot.service.history.replay import Replays
from bot.service.history.stats import Stats
from bot.service.house_rules import HouseRules
from bot.service.metrics import NO_METRICS, ServiceMetrics
from bot.service.play.clocks import TableClocks
from bot.service.play.dealer import Dealer, random_seed
from bot.service.play.lobbies import Lobbies
from bot.service.play.moves import MoveOutcome, MovePipeline
from bot.service.play.notices import Notices
from bot.service.play.registry import TableRegistry
from bot.service.play.resume import Resumer
from bot.service.play.scheduler import Scheduler
from bot.service.play.seat_changes import SeatChanges
from bot.service.play.table import Status, Table, all_humans_gone
from bot.service.ratings.boards import RatingBoards
from bot.service.ratings.closing import Closer
from bot.service.ratings.rater import Rater
from bot.service.ratings.season_plans import SeasonPlans
from bot.service.saver import Saver
from bot.service.thinking.ai_turns import AITurns
from bot.service.thinking.hints import HintDesk
from bot.service.thinking.pool import Thinking
from bot.service.timing import Timing
from data import Store
from game import Action


class GameService:
    """Lobbies, moves, AI turns and turn timers, persisted.

    It speaks engine types and knows nothing of Discord.  Each table has one lock,
    so a double click or two players clicking at once apply exactly one move.  Every
    change is written to the store before anyone is shown it; a failed write leaves
    the game as it was.

    The work is done by the parts this builds, one job each, and the front end calls
    them by name, as the store's callers call ``store.games``:
    ``service.lobbies.join(...)``, ``service.moves.move(...)``,
    ``service.seasons.current(...)``.  What is left here spans several parts: building
    them, resuming after a restart, what an ended game shows, and the stop.

    Every part refuses with a :class:`ServiceError` (a store that fails becomes a refusal
    the person can read), so the front end catches one error type; the reads of finished
    games (``stats``, ``ratings``, ``exports``, ``replays``) too.
    """

    #: The live tables, by game and by channel.
    registry: TableRegistry
    #: Opening (and rematches), joining, AI seats, starting, cancelling.
    lobbies: Lobbies
    #: A player's move, applied, saved, then shown.
    moves: MovePipeline
    #: Coming back, kicks, leaving a game under way.
    seats: SeatChanges
    #: Hints and reviews, thought in the AI pool.
    hints: HintDesk
    #: Finished games step by step.
    replays: Replays
    #: The finished games' numbers, boards and histories, in a sight.
    stats: Stats
    #: The rating boards, a person's rating and its history, in a sight.
    ratings: RatingBoards
    #: ``/lama export``'s file, in a sight.
    exports: Exports
    #: Every rated game rated once, in order; rerating from scratch.
    rater: Rater
    #: A server's seasons: the one now, one by key, a new plan.
    seasons: SeasonPlans
    #: A server's saved house rules and the board its house-rules games count on.
    house_rules: HouseRules
    #: The front end's own rows: settings, table messages, open hands, pings, endings.
    front: FrontStore
    #: Tells the listener (the front end, once set) of each change, in order per table.
    notices: Notices
    #: Deals rounds: its ``seed_source`` and ``scripted`` deals may be replaced.
    dealer: Dealer
    #: The unfinished games rebuilt after a restart.
    resumer: Resumer

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
        self.dealer = Dealer(seed_source)
        # The move pipeline is built last, from the parts before it; the
        # callbacks that lead back to it (an AI move, a turn timing out) reach
        # it through these lambdas once it is there.
        self._ai = AITurns(
            self._scheduler,
            clock,
            self.thinking,
            apply=self._ai_move,
            after_change=lambda table: self.moves.after_change(table),
            metrics=metrics,
            timing=self.timing,
        )
        self.registry = TableRegistry(on_register=self._ai.prepare, on_unregister=self._forget)
        self.notices = Notices(store, self._saver, self.registry)
        self.rater = Rater(store)
        closer = Closer(self._saver, self.notices, self.rater)
        self._clocks = TableClocks(
            self._scheduler,
            clock,
            time_out=lambda table, stamp: self.moves.time_out(table, stamp),
            warn=self.notices.warn,
            close=closer.close,
            timing=self.timing,
        )
        self.moves = MovePipeline(
            store,
            self._saver,
            self.registry,
            self.dealer,
            self._clocks,
            self.notices,
            clock,
            schedule_ai=self._ai.schedule,
            rate=self.rater.rate_table,
            metrics=metrics,
            timing=self.timing,
        )
        after_change = self.moves.after_change
        self.seats = SeatChanges(
            store,
            self._saver,
            self._clocks,
            self.notices,
            after_change=after_change,
        )
        self.lobbies = Lobbies(
            store,
            self._saver,
            self.registry,
            self._clocks,
            self.dealer,
            self.notices,
            clock,
            prepare_ai=self._ai.prepare,
            after_change=after_change,
            closer=closer,
        )
        self.hints = HintDesk(self.registry, store, self.thinking, timing=self.timing)
        self.front = FrontStore(store, self._saver)
        self.resumer = Resumer(
            store, self.registry, self._clocks, self._ai, kept=self.front.keep_table_message
        )
        self.seasons = SeasonPlans(store, self._saver, clock, self.rater.lock)
        self.replays = Replays(store, clock=clock)
        self.stats = Stats(store)
        self.ratings = RatingBoards(store)
        self.exports = Exports(store)
        self.house_rules = HouseRules(store, self._saver, self.rater.lock)

    async def _ai_move(self, table: Table, seat: int, action: Action) -> MoveOutcome:
        """An AI seat's move, unless nobody is left to play for: a game whose last
        person left while the store failed to end it is being closed, not played out
        (the AI's turn tries again later, and stops once the game is closed)."""
        if all_humans_gone(table):
            raise ServiceError("error.game_gone")
        return await self.moves.apply(table, seat, action)

    def _forget(self, table: Table) -> None:
        """A table left the registry: its clocks stop, and its AI's failures are forgotten."""
        self._scheduler.cancel_game(table.game_id)
        self._ai.forget(table)

    # ------------------------------------------------------------ restarts and endings
    async def resume(self) -> list[Table]:
        """Rebuild the unfinished games, then rate the finished games not yet rated (a
        stop between saving and rating, or a database from before the ratings) in the
        background: ``rater.caught_up()`` says when that is done."""
        tables = await self.resumer.resume()
        self.rater.catch_up_later()
        return tables

    async def endings_unshown(self) -> list[Table]:
        """The games that ended before a restart whose table may not show it yet; a
        finished one with the rating changes its table shows (rated now if it wasn't)."""
        tables = await self.front.endings_unshown()
        for table in tables:
            if table.status is Status.FINISHED:
                await self.rater.rate_table(table)
        return tables

    async def ended_table(self, game_id: int, *, channel_id: int) -> Table | None:
        """A game of ``channel_id`` that is over, with what it did to each rating if it
        finished: what an old hand of it clicked now shows. None for any other game."""
        held = self.registry.table(game_id)
        if held is not None and not held.live:  # closed this moment, not yet let go of
            table = held if held.channel_id == channel_id else None
        else:
            table = await self.front.ended_table(game_id, channel_id=channel_id)
        if table is not None and table.status is Status.FINISHED and not table.rating_changes:
            await self.rater.rate_table(table)
        return table

    # ------------------------------------------------------------ shutdown
    async def close(self) -> None:
        """Let the hints and reviews under way finish within ``Timing.answer_grace``,
        cut the rest short, then stop every clock and notice (the state is saved)."""
        await self.rater.close()
        await self.hints.close()
        await self._scheduler.close()
        await self.notices.close()
