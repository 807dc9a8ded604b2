"""Helpers for the persistence tests: restart the bot, read the database file directly."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.client import LamaBot
from bot.config import Settings
from bot.service.play.table import Status, Table
from data import Store, StoreError
from game import Card, Match
from testkit.deals import whole_deal
from testkit.simcord_play import enabled, service, table_message
from tests.simcord_fixtures import fresh_bot

FAIL_TRIGGER = "fail_events"
ROOT = Path(__file__).resolve().parents[2]


#: How long a child process may take to reach its kill point: a bound for a loaded
#: machine, not a speed goal; past it the test fails instead of hanging.
KILL_POINT_TIMEOUT = 300.0


def killed_at(
    module: str, args: list[str], log: Path, mark: str, *, timeout: float = KILL_POINT_TIMEOUT
) -> list[list[str]]:
    """Run ``python -m module *args`` and SIGKILL it once it prints a line starting with
    ``mark``; the words of every line it printed (its stderr goes to ``log``).  A child
    that prints ``NOT KILLED``, ends, or has not printed ``mark`` within ``timeout``
    seconds fails the test."""
    with log.open("w") as stderr:
        child = subprocess.Popen(
            [sys.executable, "-m", module, *args],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        )
        assert child.stdout is not None
        # Killing the child ends its stdout, which ends the loop below.
        watchdog = threading.Timer(timeout, child.kill)
        watchdog.start()
        lines: list[list[str]] = []
        reached = False
        try:
            for line in child.stdout:
                lines.append(line.split())
                if line.startswith(mark):
                    reached = True
                    child.send_signal(signal.SIGKILL)
                    break
                if line.startswith("NOT KILLED"):
                    break  # it went past the kill point
        finally:
            watchdog.cancel()
            if child.poll() is None:
                child.kill()
            child.communicate(timeout=30)
    errors = log.read_text()
    assert reached, f"{module} never printed {mark}:\n{lines}\n{errors}"
    assert child.returncode == -signal.SIGKILL, f"{module} ended by itself:\n{lines}\n{errors}"
    return lines


def rows(path: Path, query: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Read the database the way another program would: a fresh stdlib connection."""
    with closing(sqlite3.connect(path)) as conn:
        return conn.execute(query, params).fetchall()


def event_seqs(path: Path, game_id: int) -> list[int]:
    return [
        seq
        for (seq,) in rows(
            path, "SELECT seq FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
        )
    ]


def count(path: Path, table: str, game_id: int) -> int:
    [(n,)] = rows(path, f"SELECT COUNT(*) FROM {table} WHERE game_id = ?", (game_id,))
    return int(n)


def refuse_event_writes(path: Path, from_seq: int = 0) -> None:
    """Make the database itself refuse new events from ``from_seq`` on, as a broken disk would."""
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute(
            f"CREATE TRIGGER {FAIL_TRIGGER} BEFORE INSERT ON events WHEN NEW.seq >= {from_seq} "
            "BEGIN SELECT RAISE(ABORT, 'disk on fire'); END"
        )


def allow_event_writes(path: Path) -> None:
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute(f"DROP TRIGGER {FAIL_TRIGGER}")


async def replayed(store: Store, game_id: int) -> Match:
    """The game as the database alone says it is."""
    record = await store.games.load_game(game_id)
    assert record is not None
    return Match.replay(record.ruleset, len(record.seats), record.events)


async def assert_saved(store: Store, table: Table) -> None:
    """The table in memory is exactly the replay of its stored events, without gaps."""
    assert table.match is not None
    assert event_seqs(Path(store.path), table.game_id) == list(range(len(table.match.events)))
    assert await replayed(store, table.game_id) == table.match


async def restart(
    env: simcord.Env, settings: Settings, *, while_down: Callable[[], object] | None = None
) -> LamaBot:
    """Stop the bot the way a shutdown does, then start a fresh one on the same database;
    ``while_down`` changes Discord in between, while no bot is there to see it."""
    old = env.bot
    assert isinstance(old, LamaBot)
    await old.close()  # SimCord's restart_bot only detaches the old client; a shutdown closes it
    with pytest.raises(StoreError, match="closed"):
        await old.store.pragmas()  # LamaBot.close closed its store
    if while_down is not None:
        while_down()
    bot = fresh_bot(settings, old)
    await env.restart_bot(bot)
    return bot


async def open_hand_anywhere(
    player: simcord.MemberActor, channel: simcord.ChannelHandle, *, slash: bool = False
) -> Any:
    """A private hand: from the table message, or with /lama hand when there is none."""
    if slash:
        result = await player.slash(channel, "lama hand")
    else:
        result = await player.click(table_message(channel), label="Show my hand")
    assert result.ephemeral and result.response is not None
    return result.response


def settle_state(env: simcord.Env) -> str:
    """What SimCord was doing when a step did not settle: the clocks and the advances of
    virtual time under way, for a failure seen only on CI's busy machine (SimCord's
    own message says only "bot did not settle while advancing time")."""

    def state(task: Any) -> str:
        if task is None:
            return "none"
        if not task.done():
            return "running"
        return "cancelled" if task.cancelled() else f"done ({task.exception()!r})"

    work = env._work  # noqa: SLF001 - SimCord's internals, for the failure's note only
    labels = sorted(record.label for task, record in work.tasks.items() if not task.done())
    return (
        f"monotonic {time.monotonic():.3f}, virtual {env._virtual_time:.3f}, "  # noqa: SLF001
        f"settle_timeout {env.settle_timeout}, "
        f"real advance {state(env._real_advance_task)}, "  # noqa: SLF001
        f"advance {state(env._advance_task)}, bot tasks {labels}"  # noqa: SLF001
    )


async def quit_until_over(
    env: simcord.Env,
    channel: simcord.ChannelHandle,
    players: dict[int, simcord.MemberActor],
    table: Table,
    *,
    slash: bool = False,
    limit: int = 200,
) -> None:
    """Play on to the end, fast: every human quits each round, AI seats move on their own."""
    for _ in range(limit):
        if table.status is not Status.RUNNING:
            return
        seat = table.to_move
        assert seat is not None
        user_id = table.seats[seat].user_id
        if user_id is None or table.seats[seat].controller is not None:
            await env.advance_time(1)
            continue
        try:
            hand = await open_hand_anywhere(players[user_id], channel, slash=slash)
            [quit_id] = enabled(hand, "lama:quit:")
            result = await players[user_id].click(hand, custom_id=quit_id)
        except TimeoutError as error:
            error.add_note(settle_state(env))
            raise
        assert result.response is not None and not result.response.content, "the quit failed"
    raise AssertionError(f"game {table.game_id} still running after {limit} steps")


def deal_next(
    env: simcord.Env,
    hands: list[list[Card]],
    top: Card,
    pile: list[Card],
    *,
    first_starter: int = 0,
) -> None:
    """Script the next deal like ``rig``, started by whoever the rules say starts it.

    Round 1 has no such rule; ``first_starter`` starts it.
    """
    deal = whole_deal(hands, top, pile, first_starter, starter_by_rules=True)
    service(env).dealer.scripted.append(deal)


# Nobody can play on a 3 with these, and the first eight cards drawn are a 1 or a 2, so
# every move is a draw or a quit, and whoever quits pays 1 + 2 + 5 + 6 = 14 points.
STUCK_HAND = [Card.ONE, Card.TWO, Card.FIVE, Card.FIVE, Card.SIX, Card.SIX]
STUCK_PILE = [Card.ONE] * 4 + [Card.TWO] * 4


def deal_stuck(env: simcord.Env, seats: int, *, first_starter: int = 0) -> None:
    """Script a next round where nobody can play a card."""
    deal_next(env, [STUCK_HAND] * seats, Card.THREE, STUCK_PILE, first_starter=first_starter)


def running(env: simcord.Env, game_id: int) -> Table:
    table = service(env).registry.table(game_id)
    assert table is not None and table.status is Status.RUNNING
    return table
