"""The REST budget: Discord calls per move, and how many tables one bot token carries.

    python -m benchmarks.rest_budget                  # 8 games, seed 1, 4 at a time
    python -m benchmarks.rest_budget --games 10 --seed 7 --threshold 40 --jobs 4

Whole games are played through SimCord (an offline Discord) by the real bot at
its real pacing (the AI's pause between moves, the table's edit interval), in
virtual time: tables of three humans and one AI.  Each human keeps their hand
open, thinks 3 to 9 seconds (seeded) and clicks a move on it, opening it again
(**Show my hand**) only when it doesn't offer their moves; they play a card
that fits, else mostly draw, else quit.  ``--jobs`` bots, each in its own process,
play the games side by side (a game's deals and choices follow from the seed
and its number alone).

Every REST call the bot makes is counted.  Calls with an *interaction token*
(``/interactions/{id}/{token}/callback`` and ``/webhooks/{application}/{token}/...``:
a click's answer, its followups, an open hand's refresh) don't count against
the bot token's ~50 requests per second; every other call does.  A call is put
down to the move made last before it (calls before a game's first move, such as
the Start click and the first ping, to its start).

The figure the budget is about is all bot-token calls of the games (start, AI
moves and the end included) per human move, and the active tables one token
carries at that human pace: 50 / (bot-token calls per second of one table).
Results go to ``benchmarks/results/rest_budget.txt`` (``--out``).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import multiprocessing
import random
import re
import tempfile
from collections import Counter
from collections.abc import Collection, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import simcord

from bot.client import LamaBot
from bot.config import Settings
from bot.service.table import Status, Table
from game.events import CardDrawn, CardPlayed, PlayerQuit
from testkit.simcord_play import components

BUDGET = 50.0  # requests per second Discord allows one bot token, across every process
THINK = (3.0, 9.0)  # seconds a human takes for a move
LONGEST = 20_000  # steps of the driver before a game that doesn't end is given up
GUILD_ID = 1100000000000000001
RESULTS = Path(__file__).resolve().parent / "results" / "rest_budget.txt"

KINDS = ("table edit", "ping POST", "ping DELETE", "other")
MOVE_BUTTONS = ("lama:play:", "lama:draw:", "lama:quit:")
MESSAGE = re.compile(r"^/channels/(\d+)/messages/(\d+)$")
MESSAGES = re.compile(r"^/channels/(\d+)/messages$")


@dataclass
class CallTally:
    """Calls put down to one kind of moment (human moves, AI moves, starts)."""

    moments: int = 0
    interaction: int = 0
    bot: Counter[str] = field(default_factory=Counter)

    def add(self, other: CallTally) -> None:
        self.moments += other.moments
        self.interaction += other.interaction
        self.bot.update(other.bot)

    @property
    def bot_calls(self) -> int:
        return sum(self.bot.values())


@dataclass
class Budget:
    """What the games cost: calls per kind of moment, and the virtual time played."""

    games: int = 0
    seconds: float = 0.0  # from each Start click to the game's end
    human: CallTally = field(default_factory=CallTally)
    ai: CallTally = field(default_factory=CallTally)
    start: CallTally = field(default_factory=CallTally)

    def add(self, other: Budget) -> None:
        self.games += other.games
        self.seconds += other.seconds
        self.human.add(other.human)
        self.ai.add(other.ai)
        self.start.add(other.start)

    def total(self) -> CallTally:
        whole = CallTally()
        for part in (self.human, self.ai, self.start):
            whole.add(part)
        return whole

    def bot_per_human_move(self) -> float:
        return self.total().bot_calls / max(1, self.human.moments)

    def tables_per_token(self) -> float:
        per_second = self.total().bot_calls / self.seconds if self.seconds else 0.0
        return BUDGET / per_second if per_second else float("inf")


def classify(
    method: str, path: str, body: Any, application_id: int, tables: Collection[int] = ()
) -> tuple[bool, str]:
    """(made with an interaction token, kind) of one REST call; ``tables`` are the ids
    of the table messages."""
    parts = path.split("/")
    if path.startswith("/interactions/") and path.endswith("/callback"):
        return True, "answer"
    if len(parts) > 3 and parts[1] == "webhooks" and parts[2] == str(application_id):
        return True, "followup"
    message = MESSAGE.match(path)
    if method == "PATCH" and message and int(message[2]) in tables:
        return False, "table edit"
    if method == "DELETE" and message:
        return False, "ping DELETE"  # the bot deletes only its pings
    if method == "POST" and MESSAGES.match(path) and is_ping(body):
        return False, "ping POST"
    return False, "other"


def is_ping(body: Any) -> bool:
    """A ping is a short text mentioning a player, without a layout."""
    if not isinstance(body, dict):
        return False
    content = body.get("content") or ""
    return "<@" in content and not body.get("components")


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


class Bench:
    """One bot in SimCord, the humans of its tables, and the counting of its calls.

    Calls are put down to the moment (``owner``) they came after: the driver
    switches to a human move just before its click; AI moves are seen in the
    service's notices, which go out in the order of the changes.
    """

    def __init__(self, env: simcord.Env, budget: Budget) -> None:
        self.env = env
        self.rng = random.Random()
        self.budget = budget
        self.owner = CallTally()  # the lobby's calls go nowhere
        self.seen: dict[int, int] = {}  # game -> moves already put down
        self.table: Table | None = None  # the table being played
        self.tables: set[int] = set()  # the ids of the table messages
        self.cursor = len(env.http_requests)
        self.guild = env.guild
        self.humans = [self.guild.add_member(env.create_user(n)) for n in ("ana", "ben", "cai")]
        service = self.service
        service.listener = Observer(service.listener, self)

    @property
    def service(self) -> Any:
        return self.env.bot.service  # type: ignore[attr-defined]

    def count(self) -> None:
        """Put the calls made since the last count down to the current owner."""
        application_id = self.env.bot.application_id or 0
        if self.table is not None and self.table.table_message_id is not None:
            self.tables.add(self.table.table_message_id)  # posted again if it was deleted
        for entry in self.env.http_requests[self.cursor :]:
            body = entry.json
            interaction, kind = classify(
                entry.method, entry.path, body, application_id, self.tables
            )
            if interaction:
                self.owner.interaction += 1
            else:
                self.owner.bot[kind] += 1
        self.cursor = len(self.env.http_requests)

    def switch(self, to: CallTally) -> None:
        self.count()
        self.owner = to
        to.moments += 1

    def noticed(self, table: Table) -> None:
        """A notice of the service: put the AI moves it shows down to the AI."""
        made = moves(table)
        for seat in made[self.seen.get(table.game_id, 0) :]:
            if table.seats[seat].user_id is None or table.seats[seat].controller is not None:
                self.switch(self.budget.ai)
        self.seen[table.game_id] = len(made)

    def table_message(self, channel: simcord.ChannelHandle, table: Table) -> Any:
        return next(m for m in channel.history() if m.id == table.table_message_id)

    async def open_hand(
        self, player: simcord.MemberActor, channel: simcord.ChannelHandle, table: Table
    ) -> Any:
        shown = await player.click(self.table_message(channel, table), label="Show my hand")
        return shown.response

    async def play(self, number: int, seed: int, threshold: int, ai: str) -> None:
        """Game ``number`` of the run: its deals and its humans' choices follow from
        ``seed`` and ``number`` alone, whichever process plays it."""
        env, budget = self.env, self.budget
        self.rng = random.Random(f"{seed}:{number}")
        deals = random.Random(f"{seed}:{number}:deals")
        self.service.seed_source = lambda: deals.getrandbits(63)
        channel = self.guild.create_text_channel(f"budget-{number}")
        host, *others = self.humans
        await host.slash(channel, "lama new", threshold=threshold)
        table = self.service.table_in(channel.id)
        assert table is not None
        self.table = table
        for player in others:
            await player.click(self.table_message(channel, table), label="Join")
        await host.select(self.table_message(channel, table), [ai])
        await env.advance_time(5)
        self.switch(budget.start)  # the lobby's calls go to no moment: it is not the game
        began = env.backend.clock.elapsed
        await host.click(self.table_message(channel, table), label="Start")
        people = {p.id: p for p in self.humans}
        hands = {p.id: await self.open_hand(p, channel, table) for p in self.humans}
        ended = began
        for _ in range(LONGEST):
            if table.status is not Status.RUNNING:
                break
            seat = table.to_move
            assert seat is not None
            user_id = table.seats[seat].user_id
            if user_id is None or table.seats[seat].controller is not None:
                await env.advance_time(0.5)  # the AI moves after its pause
                continue
            await env.advance_time(self.rng.uniform(*THINK))
            if table.to_move != seat or table.status is not Status.RUNNING:
                continue
            self.switch(budget.human)
            player = people[user_id]
            if not move_buttons(hands[user_id]):  # Discord no longer lets it be edited
                hands[user_id] = await self.open_hand(player, channel, table)
            hand = hands[user_id]
            result = await player.click(hand, custom_id=choose(move_buttons(hand), self.rng))
            if result.response is not None:
                hands[user_id] = result.response
            ended = env.backend.clock.elapsed
        else:
            raise RuntimeError(f"game {number} did not end in {LONGEST} steps")
        if table.status is not Status.FINISHED:  # closed on the bot's side: not a game
            raise RuntimeError(f"game {number} ended {table.status.value}, not played out")
        await env.advance_time(10)  # the last edits and the chart go out
        self.count()
        self.owner = CallTally()
        budget.games += 1
        budget.seconds += ended - began


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


async def measure(numbers: Sequence[int], seed: int, threshold: int, ai: str) -> Budget:
    """Play games ``numbers`` of the run, one after another, with one bot."""
    budget = Budget()
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(
            token="bench-token",
            database_path=Path(folder) / "lama.db",
            dev_guild_id=GUILD_ID,
            log_level=logging.WARNING,
            turn_timer=120,
        )
        bot = LamaBot(settings)
        env = simcord.Env(bot)
        env.create_guild("Budget", id=GUILD_ID)
        await env.start()
        try:
            bench = Bench(env, budget)
            for number in numbers:
                await bench.play(number, seed, threshold, ai)
        finally:
            await env.shutdown()
            await bot.service.thinking.close()
            await bot.store.close()
    return budget


def measure_in_process(numbers: Sequence[int], seed: int, threshold: int, ai: str) -> Budget:
    return asyncio.run(measure(numbers, seed, threshold, ai))


def run(games: int, seed: int, threshold: int, ai: str, jobs: int) -> Budget:
    """All games, on ``jobs`` bots in as many processes: the bot mostly waits for its
    pacing in real time, so bots side by side finish sooner on any machine."""
    parts = [list(range(j, games, jobs)) for j in range(min(jobs, games))]
    if len(parts) == 1:
        return measure_in_process(parts[0], seed, threshold, ai)
    budget = Budget()
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(len(parts), mp_context=spawn) as pool:
        n = len(parts)
        for part in pool.map(measure_in_process, parts, [seed] * n, [threshold] * n, [ai] * n):
            budget.add(part)
    return budget


def report(budget: Budget, seed: int, threshold: int, ai: str) -> str:
    whole = budget.total()
    lines = [
        "# REST budget: Discord calls per move (SimCord, real pacing, virtual time)",
        "",
        f"{budget.games} games (seed {seed}, threshold {threshold}), 3 humans thinking "
        f"{THINK[0]:.0f}-{THINK[1]:.0f} s and 1 {ai} AI per table: "
        f"{budget.human.moments} human moves, {budget.ai.moments} AI moves, "
        f"{budget.seconds / 60:.1f} minutes of play.",
        "",
        "| calls | interaction token | bot token | table edit | ping POST | ping DELETE | other |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    rows = [
        ("per human move", budget.human, budget.human.moments),
        ("per AI move", budget.ai, budget.ai.moments),
        ("per game start", budget.start, budget.start.moments),
        ("**all, per human move**", whole, budget.human.moments),
    ]
    for name, tally, moments in rows:
        n = max(1, moments)
        kinds = " | ".join(f"{tally.bot[k] / n:.2f}" for k in KINDS)
        lines.append(
            f"| {name} | {tally.interaction / n:.2f} | {tally.bot_calls / n:.2f} | {kinds} |"
        )
    per_second = whole.bot_calls / budget.seconds if budget.seconds else 0.0
    tables = budget.tables_per_token()
    carried = f"{tables:.0f}" if tables != float("inf") else "any number of"
    lines += [
        "",
        f"Bot-token calls per human move (AI moves, starts and ends counted): "
        f"**{budget.bot_per_human_move():.2f}** (goal: at most 1.0).",
        f"Bot-token calls per second of one active table: {per_second:.3f}; "
        f"one token at {BUDGET:.0f} requests/s carries **{carried} "
        f"active tables** (goal: at least 300).",
    ]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--games", type=int, default=8, help="games (default 8)")
    parser.add_argument("--seed", type=int, default=1, help="seed of deals and humans (default 1)")
    parser.add_argument("--threshold", type=int, default=40, help="points ending a game (40)")
    parser.add_argument("--ai", default="normal", choices=("easy", "normal", "hard"))
    parser.add_argument("--jobs", type=int, default=4, help="bots side by side (default 4)")
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"results file ({RESULTS})")
    args = parser.parse_args(argv)
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    budget = run(args.games, args.seed, args.threshold, args.ai, args.jobs)
    shown = report(budget, args.seed, args.threshold, args.ai)
    print(shown, end="")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(shown, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
