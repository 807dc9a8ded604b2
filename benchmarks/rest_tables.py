"""The REST budget's players: one bot in SimCord, many tables at once, in virtual time.

Each table is three humans and one AI, in a server channel where the bot is a member
(``install="server"``) or in a group DM of the three, the app installed to the first
of them (``install="person"``, through :mod:`testkit.anywhere`: the bot token can do
nothing there).  Either way the kit counts what Discord would refuse: 429s of the
webhook bucket (on, in both), 40094s, calls with a dead token, bot-token calls where the
bot is not.  A game's humans keep their hand open, think 3 to 9 s (seeded) and click a
move on it, opening it again (**Show my hand** on the table) only when it offers none.

The tables are played side by side by one driver: each has its next moment (a lobby
to open, a Start to click, a human's think to end, an AI's pause to look after), and
virtual time jumps to the earliest, on a grid of ``TICK`` so the tables due together
are played at one instant.  Every call is put down to the last moment of the table
its channel holds (calls before a game's first move, such as the Start click and the
first ping, to its start; the lobby's to none).
"""

from __future__ import annotations

import dataclasses
import logging
import math
import random
import tempfile
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import simcord
from simcord.results import InteractionResult

from bot.client import LamaBot
from bot.config import Settings
from bot.service.play.table import Status, Table
from game.events import CardDrawn, CardPlayed, PlayerQuit
from testkit.anywhere import WEBHOOK_BUCKET, Anywhere, Place
from testkit.simcord_play import components, shown_at

from .rest_calls import QUARTER_HOUR, Budget, CallTally, channel_of, classify, is_ping
from .simcord_speed import indexed

THINK = (3.0, 9.0)  # seconds a human takes for a move
#: With ``breaks``, that share of human moves come after a break of this long instead (a
#: drink, a chat): whole games run well past a quarter hour, through their tokens' ends,
#: for the price in SimCord of games of 40 points.
BREAK = (30.0, 100.0)  # under the turn timer (120 s): nobody misses a turn
TICK = 0.5  # the grid of virtual time the tables are played on (the AI's pause is 0.5 s)
LONGEST = 20_000  # steps of a table before a game that doesn't end is given up
STAGGER = 60.0  # tables opened together start spread over this many seconds
GUILD_ID = 1100000000000000001
#: SimCord waits in real time, after a click, for a bot timer due within its settle
#: timeout: a short one while people click leaves every pause of the bot (its debounce,
#: an AI's pause, the edit interval) to the virtual clock.  An advance of that clock
#: must settle whole within its timeout: a long one, for many tables at once.
CLICK_SETTLE = 0.2
ADVANCE_SETTLE = 120.0
INSTALLS = ("server", "person")
MOVE_BUTTONS = ("lama:play:", "lama:draw:", "lama:quit:")


def buttons(message: Any) -> list[dict[str, Any]]:
    return [c for c in components(message) if c.get("type") == 2]


def move_buttons(message: Any) -> list[str]:
    """The enabled move buttons of a hand: empty when it isn't its owner's turn on it."""
    return [
        str(c["custom_id"])
        for c in buttons(message)
        if str(c.get("custom_id", "")).startswith(MOVE_BUTTONS) and not c.get("disabled")
    ]


def choose(ids: list[str], rng: random.Random) -> str:
    """A card that fits if any, else mostly a draw, else quitting."""
    plays = [i for i in ids if i.startswith("lama:play:")]
    if plays:
        return rng.choice(plays)
    draws = [i for i in ids if i.startswith("lama:draw:")]
    quits = [i for i in ids if i.startswith("lama:quit:")]
    if draws and (not quits or rng.random() < 0.8):
        return draws[0]
    return quits[0]


def moves(table: Table) -> list[int]:
    """The seats of the moves made so far in a table's game."""
    if table.match is None:
        return []
    kinds = CardPlayed | CardDrawn | PlayerQuit
    return [e.seat for e in table.match.events if isinstance(e, kinds)]


def on_grid(instant: float) -> float:
    return math.ceil(instant / TICK - 1e-9) * TICK


@dataclass(eq=False)
class Game:
    """One table being played: its place, its people, and its next moment."""

    number: int
    rng: random.Random
    due: float  # virtual time of its next moment
    phase: str = "open"  # open, start, play, close
    place: Place | None = None
    table: Table | None = None
    people: dict[int, Any] = field(default_factory=dict)
    hands: dict[int, Any] = field(default_factory=dict)
    owner: list[CallTally] = field(default_factory=list)  # the calls' tallies now
    seen: int = 0  # moves already put down
    turn: tuple[int, int] | None = None  # (seat, moves made) of the think under way
    pause: float = 0.0  # how much longer than a think the one under way takes
    began: float = 0.0
    ended: float = 0.0
    steps: int = 0


class Bench:
    """One bot in SimCord with the kit around it, and the tables it plays."""

    def __init__(self, env: simcord.Env, kit: Anywhere, budget: Budget, install: str) -> None:
        self.env, self.kit, self.budget, self.install = env, kit, budget, install
        self.by_channel: dict[int, Game] = {}
        self.tables: set[int] = set()  # the ids of the table messages
        self.cursor = len(env.http_requests)
        self.at_once = 1
        self.breaks = 0.0
        service = self.service
        service.notices.listener = Observer(service.notices.listener, self)

    @property
    def service(self) -> Any:
        return self.env.bot.service  # type: ignore[attr-defined]

    @property
    def now(self) -> float:
        return float(self.env.backend.clock.elapsed)

    def count(self) -> None:
        """Put the calls made since the last count down to their tables' current owners."""
        backend = self.env.backend
        application_id = self.env.bot.application_id or 0
        for entry in self.env.http_requests[self.cursor :]:
            channel = channel_of(backend, entry.path)
            game = self.by_channel.get(channel) if channel is not None else None
            if game is None:
                continue
            shown = None if game.table is None else shown_at(self.env, game.table)
            if shown is not None:
                self.tables.add(shown)  # posted anew, or again
            interaction, kind = classify(
                entry.method, entry.path, entry.json, application_id, self.tables
            )
            for tally in game.owner:
                if interaction:
                    tally.interaction += 1
                else:
                    tally.bot[kind] += 1
        self.cursor = len(self.env.http_requests)

    def switch(self, game: Game, to: CallTally, *, human: bool) -> None:
        self.count()
        game.owner = [to]
        to.moments += 1
        if game.phase == "play" and self.now - game.began >= QUARTER_HOUR:
            game.owner.append(self.budget.late)
            self.budget.late.moments += human

    def noticed(self, table: Table) -> None:
        """A notice of the service: put the AI moves it shows down to the AI."""
        game = self.by_channel.get(table.channel_id)
        if game is None:
            return
        made = moves(table)
        for seat in made[game.seen :]:
            if table.seats[seat].user_id is None or table.seats[seat].controller is not None:
                self.switch(game, self.budget.ai, human=False)
        game.seen = len(made)

    async def act(self, action: Awaitable[InteractionResult]) -> InteractionResult | None:
        """A person's click or command, settled quickly (see ``CLICK_SETTLE``); when the bot
        is still busy past that (its database, on a loaded machine), its answer is not
        waited for: the bot settles on while the clock stands, and the person reads it
        no more (``slow``)."""
        self.env.settle_timeout = CLICK_SETTLE
        try:
            return await action
        except TimeoutError:
            self.budget.slow += 1
            self.env.settle_timeout = ADVANCE_SETTLE
            await self.advance(0)
            return None
        finally:
            self.env.settle_timeout = ADVANCE_SETTLE

    async def advance(self, seconds: float) -> None:
        """Virtual time on by ``seconds``.  A timer of the bot that SimCord fired in real
        time while a click settled brings its own failure to settle in time here: the
        progress stands, and the clock goes on from where it got to."""
        until = self.now + seconds
        for _ in range(10):
            try:
                await self.env.advance_time(max(0.0, until - self.now))
                return
            except TimeoutError:
                self.budget.slow += 1
        raise RuntimeError("SimCord did not settle ten times in a row")

    # ------------------------------------------------------------------ tables

    def seat_people(self, game: Game) -> list[Any]:
        names = [f"{name}{game.number}" for name in ("ana", "ben", "cai")]
        users = [self.env.create_user(name) for name in names]
        if self.install == "person":
            game.place = self.kit.group_dm(*users, name=f"budget-{game.number}")
            self.kit.install(users[0])  # only the host installed the app
            people: list[Any] = users
        else:
            guild = self.env.guild
            people = [guild.add_member(user) for user in users]
            game.place = self.kit.place(guild.create_text_channel(f"budget-{game.number}"))
        game.people = {p.id: p for p in people}
        self.by_channel[game.place.channel_id] = game
        return people

    async def step(self, game: Game, seed: int, threshold: int, ai: str) -> None:
        game.steps += 1
        if game.steps > LONGEST:
            raise RuntimeError(f"game {game.number} did not end in {LONGEST} steps")
        if game.phase == "open":
            await self.open(game, seed, threshold, ai)
        elif game.phase == "start":
            await self.start(game)
        elif game.phase == "play":
            await self.play(game)
        else:
            self.close(game)

    async def open(self, game: Game, seed: int, threshold: int, ai: str) -> None:
        """The lobby: the host's ``/lama new``, two Joins and an AI seat."""
        if self.at_once == 1:  # its deals follow from the seed and its number alone
            deals = random.Random(f"{seed}:{game.number}:deals")
            self.service.dealer.seed_source = lambda: deals.getrandbits(63)
        host, *others = self.seat_people(game)
        assert game.place is not None
        await self.act(self.kit.slash(host, game.place, "lama new", threshold=threshold))
        table = self.service.registry.table_in(game.place.channel_id)
        assert table is not None, f"game {game.number}: no lobby"
        game.table = table
        lobby = shown_at(self.env, table)
        assert lobby is not None, f"game {game.number}: its lobby was not posted"
        for player in others:
            await self.act(self.kit.click(player, game.place, lobby, label="Join"))
        await self.act(self.kit.select(host, game.place, lobby, [ai]))
        game.owner = [CallTally()]  # the lobby's calls go to no moment: it is not the game
        game.phase, game.due = "start", on_grid(self.now + 5)

    async def start(self, game: Game) -> None:
        assert game.place is not None and game.table is not None
        self.switch(game, self.budget.start, human=False)
        game.phase = "play"
        game.began = game.ended = self.now
        host = next(iter(game.people.values()))
        start = shown_at(self.env, game.table)
        assert start is not None
        await self.act(self.kit.click(host, game.place, start, label="Start"))
        for person in game.people.values():
            game.hands[person.id] = await self.open_hand(game, person)
        game.due = self.now

    async def open_hand(self, game: Game, person: Any) -> Any:
        """Show my hand on the table: its answer, or (the click took the table over in
        place, its token being old) its private followup."""
        assert game.place is not None and game.table is not None
        table = shown_at(self.env, game.table)
        assert table is not None
        shown = await self.act(self.kit.click(person, game.place, table, label="Show my hand"))
        if shown is None:
            return None
        if shown.ephemeral or not shown.followups:
            return shown.response
        return shown.followups[-1]

    async def play(self, game: Game) -> None:
        table = game.table
        assert table is not None and game.place is not None
        if table.status is not Status.RUNNING:
            if table.status is not Status.FINISHED:  # closed on the bot's side: not a game
                raise RuntimeError(f"game {game.number} ended {table.status.value}")
            self.budget.games += 1
            self.budget.seconds += game.ended - game.began
            self.budget.longest = max(self.budget.longest, game.ended - game.began)
            game.phase, game.due = "close", on_grid(self.now + 10)  # the last edits, the chart
            return
        seat = table.to_move
        assert seat is not None
        user_id = table.seats[seat].user_id
        if user_id is None or table.seats[seat].controller is not None:
            game.due = on_grid(self.now + TICK)  # the AI moves after its pause
            return
        turn = (seat, len(moves(table)))
        if game.turn != turn:  # a human's turn came: they think first
            game.turn = turn
            think = game.rng.uniform(*THINK)
            game.pause = 0.0
            if self.breaks and game.rng.random() < self.breaks:
                game.pause = game.rng.uniform(*BREAK) - think
            game.due = on_grid(self.now + think + game.pause)
            return
        game.turn = None
        self.budget.breaks += game.pause
        self.switch(game, self.budget.human, human=True)
        person = game.people[user_id]
        if game.hands.get(user_id) is None or not move_buttons(game.hands[user_id]):
            game.hands[user_id] = await self.open_hand(game, person)  # it was not refreshed
        hand = game.hands[user_id]
        ids = move_buttons(hand) if hand is not None else []
        if ids:
            chosen = choose(ids, game.rng)
            result = await self.act(self.kit.click(person, game.place, hand, custom_id=chosen))
            if result is None:
                game.hands[user_id] = None  # not seen: opened again at their next turn
            elif result.response is not None:
                game.hands[user_id] = result.response
        game.ended = self.now
        game.due = self.now

    def close(self, game: Game) -> None:
        self.count()
        game.owner = []
        game.phase = "done"

    def pings_left(self) -> int:
        """Turn pings still standing in the games' places."""
        standing = 0
        for game in self.by_channel.values():
            assert game.place is not None
            for shown in self.kit.shown(game.place):
                standing += is_ping({"content": shown.content, "components": shown.components})
        return standing

    async def run(
        self,
        numbers: Sequence[int],
        seed: int,
        threshold: int,
        ai: str,
        at_once: int,
        breaks: float = 0.0,
    ) -> None:
        """Play games ``numbers``, ``at_once`` of them side by side, a ``breaks`` share of
        human moves after a break: a game's deals and choices follow from ``seed`` and its
        number alone."""
        self.at_once, self.breaks = at_once, breaks
        if at_once > 1:  # side by side, the deals follow from the seed and the driver's order
            deals = random.Random(f"{seed}:deals")
            self.service.dealer.seed_source = lambda: deals.getrandbits(63)
        waiting = list(numbers)
        running: list[Game] = []
        while waiting or running:
            opened = 0
            while waiting and len(running) < at_once:
                number = waiting.pop(0)
                spread = STAGGER * opened / at_once if at_once > 1 else 0.0
                running.append(Game(number, random.Random(f"{seed}:{number}"), self.now + spread))
                opened += 1
            due = min(game.due for game in running)
            if due > self.now:
                await self.advance(due - self.now)
            for game in [g for g in running if g.due <= self.now + 1e-6]:
                await self.step(game, seed, threshold, ai)
                if game.phase == "done":
                    running.remove(game)
        await self.advance(60)  # pings on their way down
        self.count()
        refusals = self.budget.refusals
        calls = self.kit.calls
        refusals.rate_limited += calls.rate_limited
        refusals.followup_cap += calls.followup_cap
        refusals.dead_token += calls.dead_token
        refusals.refused += calls.refused
        refusals.pings_left += self.pings_left()


class Observer:
    """The service's listener, seen by the bench on its way (every notice goes on)."""

    def __init__(self, listener: Any, bench: Bench) -> None:
        self._listener = listener
        self._bench = bench

    async def table_changed(self, table: Table) -> None:
        self._bench.noticed(table)
        await self._listener.table_changed(table)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._listener, name)


async def measure(
    numbers: Sequence[int],
    seed: int,
    threshold: int,
    ai: str,
    install: str = "server",
    at_once: int = 1,
    breaks: float = 0.0,
) -> Budget:
    """Play games ``numbers`` of the run with one bot, ``at_once`` at a time."""
    budget = Budget()
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(
            token="bench-token",
            database_path=Path(folder) / "lama.db",
            dev_guild_id=GUILD_ID,
            log_level=logging.WARNING,
            turn_timer=120,
        )
        if install == "person":  # a group DM shows global commands only
            bot = LamaBot(dataclasses.replace(settings, dev_guild_id=None), sync_globally=True)
        else:
            bot = LamaBot(settings)
        env = simcord.Env(bot, settle_timeout=ADVANCE_SETTLE)
        env.create_guild("Budget", id=GUILD_ID)
        await env.start()
        try:
            with indexed(), Anywhere(env, webhook_bucket=WEBHOOK_BUCKET) as kit:
                await Bench(env, kit, budget, install).run(
                    numbers, seed, threshold, ai, at_once, breaks
                )
        finally:
            await env.shutdown()
            await bot.service.thinking.close()
            await bot.store.close()
    return budget
