"""Metrics benchmark: what counting (bot.metrics) adds to a move, against a move's time.

Run from the repository root::

    python -m benchmarks.metrics [--games 20] [--rounds 5]

A move here is the game service's whole move (``service.moves.move``: applied,
saved in one SQLite transaction, shown to a listener that does nothing), all
seats human.  The same games are played with the no-op sink and with
:class:`~bot.metrics.BotMetrics` (moves counted, each unit of work timed), in
alternating rounds; the medians are compared.  The counting alone (the calls a
move makes, without the move) is timed too, since it is below the noise of the
whole move.  The goal is under 2% of a move.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import statistics
import tempfile
import time
import timeit
from pathlib import Path

from bot.metrics import BotMetrics
from bot.service import GameService
from bot.service.metrics import NO_METRICS, ServiceMetrics
from data import Store
from testkit.service_game import ManualClock, RecordingListener, people

GUILD = 1


async def play_games(folder: Path, games: int, metrics: BotMetrics | None) -> tuple[float, int]:
    """Seconds spent in ``service.moves.move`` over ``games`` four-player games, and moves."""
    clock = ManualClock()
    store = await Store.open(folder / f"bench-{time.monotonic_ns()}.db", durable=False, clock=clock)
    sink: ServiceMetrics = NO_METRICS if metrics is None else metrics
    if metrics is not None:
        store.time_units(metrics.unit_done)
    service = GameService(
        store,
        clock=clock,
        seed_source=itertools.count(7).__next__,
        sleep=clock.sleep,
        metrics=sink,
    )
    service.notices.listener = RecordingListener()
    from game import Ruleset
    from game.ai import Strength, choose

    spent, moves = 0.0, 0
    try:
        for game in range(games):
            host, *others = people("a", "b", "c", "d")
            table = await service.lobbies.open_lobby(
                guild_id=GUILD,
                channel_id=10_000 + game,
                host=host,
                ruleset=Ruleset(),
                turn_timer=0,
                locale="en",
            )
            for person in others:
                await service.lobbies.join(table, person)
            await service.lobbies.start(table, host.id)
            while table.match is not None and not table.match.over:
                seat = table.to_move
                assert seat is not None
                user = table.seats[seat].user_id
                assert user is not None
                action = choose(table.match.view(seat), Strength.EASY, table.stamp)
                began = time.perf_counter()
                await service.moves.move(table, user, action, table.stamp)
                spent += time.perf_counter() - began
                moves += 1
    finally:
        await service.close()
        await store.close()
    return spent, moves


def counting_alone() -> float:
    """Seconds the counting of one move takes: the move counted, one write timed."""
    metrics = BotMetrics()

    def one_move() -> None:
        began = time.perf_counter()
        metrics.moved("human")
        metrics.unit_done("write", time.perf_counter() - began)

    runs = 200_000
    return min(timeit.repeat(one_move, number=runs, repeat=5)) / runs


async def main(games: int, rounds: int) -> None:
    per_move: dict[str, list[float]] = {"off": [], "on": []}
    with tempfile.TemporaryDirectory() as folder:
        await play_games(Path(folder), 2, None)  # warm up
        for _ in range(rounds):
            for name in ("off", "on"):
                metrics = BotMetrics() if name == "on" else None
                spent, moves = await play_games(Path(folder), games, metrics)
                per_move[name].append(spent / moves)
    off, on = statistics.median(per_move["off"]), statistics.median(per_move["on"])
    alone = counting_alone()
    print(f"{games} four-player games a round, {rounds} rounds each way (medians)")
    print(f"move without metrics:  {off * 1e6:8.1f} µs")
    print(f"move with metrics:     {on * 1e6:8.1f} µs  ({(on - off) / off:+.1%}, noise included)")
    print(f"the counting alone:    {alone * 1e6:8.2f} µs  ({alone / off:.2%} of a move; goal < 2%)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(main(args.games, args.rounds))
