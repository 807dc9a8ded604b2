"""Shared helpers for the store tests: play real matches and persist them move by move."""

from __future__ import annotations

import itertools
import random
import sqlite3
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass
from typing import Any

from data import MatchProgress, SeatRecord, Store, shard_of
from game import Action, Match, RoundDealt, Ruleset


@dataclass(frozen=True)
class Backend:
    """Where a test's store lives: ``name`` is ``sqlite`` or ``postgres``, ``target`` what
    ``Store.open`` takes (a file path or a URL)."""

    name: str
    target: str

    async def rows(self, query: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run ``query`` (``?`` placeholders) the way another program would: a fresh
        connection of the database's own driver, outside the store."""
        if self.name == "sqlite":
            with closing(sqlite3.connect(self.target, isolation_level=None)) as raw:
                raw.execute("PRAGMA foreign_keys = ON")
                return raw.execute(query, params).fetchall()
        import asyncpg

        from data.postgres import numbered

        conn = await asyncpg.connect(self.target)
        try:
            return [tuple(row) for row in await conn.fetch(numbered(query), *params)]
        finally:
            await conn.close()


#: What each backend says when a CHECK constraint refuses a row.
CHECK_FAILED = "CHECK constraint failed|violates check constraint"


def unique_failed(table: str) -> str:
    """What each backend says when a row would repeat a key of ``table``."""
    return f'UNIQUE constraint failed: {table}|violates unique constraint "{table}_'


def guild_on(shard: int, count: int, n: int = 0) -> int:
    """A guild id Discord puts on ``shard`` of ``count``."""
    guild_id = ((n * count + shard) << 22) | 12345
    assert shard_of(guild_id, count) == shard
    return guild_id


def counter_clock(start: float = 1_000.0) -> Callable[[], float]:
    """A clock that ticks one second per call, so every timestamp differs."""
    ticks = itertools.count()
    return lambda: start + next(ticks)


#: A channel of its own for every game: a channel holds one open game at a time.
_channels = itertools.count(10_000)


def humans(*people: tuple[int, str]) -> list[SeatRecord]:
    return [SeatRecord(seat, user_id, None, name) for seat, (user_id, name) in enumerate(people)]


def random_seats(players: int) -> list[SeatRecord]:
    """Seat 0 a person, the others alternate people and AIs."""
    seats = []
    for seat in range(players):
        if seat % 2:
            seats.append(SeatRecord(seat, None, "normal", f"Bot {seat}"))
        else:
            seats.append(SeatRecord(seat, 500 + seat, None, f"Player {seat}"))
    return seats


async def new_running_game(
    store: Store,
    match: Match,
    seats: Sequence[SeatRecord],
    *,
    guild_id: int = 1,
    first_deal: RoundDealt | int = 0,
) -> int:
    """A game in the store, started with ``match``'s first deal (dealt here)."""
    game_id = await store.games.create_game(
        guild_id=guild_id,
        channel_id=next(_channels),
        host_id=seats[0].user_id or 0,
        ruleset=match.ruleset,
        turn_timer=60,
        seats=seats,
    )
    if isinstance(first_deal, RoundDealt):
        match.start_round(first_deal)
    else:
        match.deal(first_deal)
    await store.games.start_game(game_id, seats=seats, events=match.events)
    return game_id


async def play_move(
    store: Store,
    game_id: int,
    match: Match,
    action: Action,
    *,
    next_deal: RoundDealt | int | None = None,
    turn_deadline: float | None = None,
) -> None:
    """Apply ``action`` for the seat to move and save it, the way the service does.

    A move that ends a round is saved together with its result and the next
    deal (``next_deal``: a hand-made deal or a seed); the last move also
    finishes the game.
    """
    seat = match.to_move
    assert seat is not None
    first = len(match.events)
    done = len(match.results)
    match.apply(seat, action)
    if match.awaiting_deal:
        if isinstance(next_deal, RoundDealt):
            match.start_round(next_deal)
        elif next_deal is not None:
            match.deal(next_deal)
    await store.games.append_progress(
        game_id, MatchProgress.since(match, first, done), turn_deadline=turn_deadline
    )


async def play_random_game(
    store: Store,
    ruleset: Ruleset,
    players: int,
    seed: int,
    *,
    guild_id: int = 1,
    stop_after: int | None = None,
) -> tuple[int, Match]:
    """A whole random game (or its first ``stop_after`` moves), saved move by move."""
    rng = random.Random(seed)
    match = Match(ruleset, players)
    game_id = await new_running_game(
        store, match, random_seats(players), guild_id=guild_id, first_deal=rng.randrange(1 << 30)
    )
    moves = 0
    while not match.over and (stop_after is None or moves < stop_after):
        action = rng.choice(match.legal_actions())
        await play_move(store, game_id, match, action, next_deal=rng.randrange(1 << 30))
        moves += 1
    return game_id, match
