"""Store benchmark: durable moves per second, resuming 1,000 games, bytes per finished game.

Run from the repository root (or anywhere)::

    python -m benchmarks.store [--moves 2000] [--games 1000] [--events 60] [--finished 200]
                               [--postgres postgresql://user:password@host/empty_db]

Everything happens in a temporary folder (``--dir`` picks where: the disk
matters, since durable commits wait for it).  With ``--postgres`` the moves and
the resume are measured on that (empty) PostgreSQL database too.  Moves are saved the way the game
service saves them: one ``append_progress`` transaction per move with the seat
rows, the turn deadline, the round result and the next deal when a round ends.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

from data import MatchProgress, SeatRecord, Store
from game import DRAW, QUIT, Action, Draw, Match, Play, Ruleset

PLAYERS = 4
SEATS = [
    SeatRecord(0, 1000, None, "Ann"),
    SeatRecord(1, 1001, None, "Ben"),
    SeatRecord(2, None, "normal", "Bot (normal)"),
    SeatRecord(3, 1003, None, "Dan"),
]


def choose(match: Match, rng: random.Random) -> Action:
    """A plausible player: play a fitting card if any, else mostly draw, else quit."""
    actions = match.legal_actions()
    plays = [a for a in actions if isinstance(a, Play)]
    if plays:
        return rng.choice(plays)
    if any(isinstance(a, Draw) for a in actions) and rng.random() < 0.8:
        return DRAW
    return QUIT


async def new_game(store: Store, match: Match, rng: random.Random, guild_id: int = 1) -> int:
    game_id = await store.games.create_game(
        guild_id=guild_id,
        channel_id=rng.randrange(1 << 40),
        host_id=1000,
        ruleset=match.ruleset,
        turn_timer=120,
        seats=SEATS,
        language="en",
    )
    match.deal(rng.randrange(1 << 30))
    await store.games.start_game(
        game_id, seats=SEATS, events=match.events, turn_deadline=time.time()
    )
    return game_id


async def save_move(store: Store, game_id: int, match: Match, rng: random.Random) -> None:
    """One move, saved exactly as the service does it."""
    seat = match.to_move
    assert seat is not None
    first, done = len(match.events), len(match.results)
    match.apply(seat, choose(match, rng))
    if match.awaiting_deal:
        match.deal(rng.randrange(1 << 30))
    await store.games.append_progress(
        game_id,
        MatchProgress.since(match, first, done),
        turn_deadline=None if match.over else time.time() + 120,
        seats=SEATS,
    )


async def moves_per_second(target: str, moves: int, *, durable: bool) -> float:
    store = await Store.open(target, durable=durable)
    rng = random.Random(1)
    match = Match(Ruleset(), PLAYERS)
    game_id = await new_game(store, match, rng)
    started = time.perf_counter()
    for _ in range(moves):
        if match.over:
            match = Match(Ruleset(), PLAYERS)
            game_id = await new_game(store, match, rng)
        await save_move(store, game_id, match, rng)
    elapsed = time.perf_counter() - started
    for record in await store.games.unfinished_games():  # leave nothing for resume() to find
        await store.games.set_status(record.id, "cancelled")
    await store.close()
    return moves / elapsed


async def resume(target: str, games: int, events: int) -> tuple[float, float, int]:
    """Seconds to load all unfinished games, and to replay them all; total events."""
    store = await Store.open(target, durable=False)
    rng = random.Random(2)
    live: dict[int, Match] = {}
    for _ in range(games):
        match = Match(Ruleset(threshold=200), PLAYERS)  # never over within `events` events
        game_id = await new_game(store, match, rng)
        while len(match.events) < events:
            seat = match.to_move
            assert seat is not None
            match.apply(seat, choose(match, rng))
            if match.awaiting_deal:
                match.deal(rng.randrange(1 << 30))
        await store.games.append_progress(game_id, MatchProgress.since(match, 1, 0))
        live[game_id] = match
    await store.close()

    store = await Store.open(target)
    started = time.perf_counter()
    records = await store.games.unfinished_games()
    loaded = time.perf_counter()
    rebuilt = [Match.replay(r.ruleset, len(r.seats), r.events) for r in records]
    replayed = time.perf_counter()
    await store.close()
    assert len(records) == games
    assert all(m == live[r.id] for r, m in zip(records, rebuilt, strict=True))
    return loaded - started, replayed - loaded, sum(len(r.events) for r in records)


async def bytes_per_finished_game(folder: Path, games: int) -> tuple[float, float]:
    """Database bytes per finished game (after the WAL is checkpointed), events per game."""
    path = folder / "size.db"
    store = await Store.open(path, durable=False)
    await store.close()
    empty = path.stat().st_size
    store = await Store.open(path, durable=False)
    rng = random.Random(3)
    events = 0
    for _ in range(games):
        match = Match(Ruleset(), PLAYERS)
        game_id = await new_game(store, match, rng)
        while not match.over:
            await save_move(store, game_id, match, rng)
        events += len(match.events)
    await store.close()  # the last connection checkpoints the WAL into the file
    return (path.stat().st_size - empty) / games, events / games


async def report_resume(target: str, games: int, events: int, label: str = "") -> None:
    load, replay, total = await resume(target, games, events)
    print(
        f"{label}resume {games} running games ({total} events): "
        f"unfinished_games() {load * 1000:.0f} ms + replay {replay * 1000:.0f} ms "
        f"= {(load + replay) * 1000:.0f} ms"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--events", type=int, default=60)
    parser.add_argument("--finished", type=int, default=200)
    parser.add_argument("--dir", type=Path, default=None, help="where the databases go")
    parser.add_argument("--postgres", metavar="URL", help="an empty PostgreSQL database, too")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        folder = Path(tmp)
        print(f"databases in {folder}")
        durable = await moves_per_second(str(folder / "moves.db"), args.moves, durable=True)
        print(f"moves saved per second, durable (synchronous=FULL): {durable:8.0f}")
        fast = await moves_per_second(str(folder / "fast.db"), args.moves, durable=False)
        print(f"moves saved per second, synchronous=NORMAL:         {fast:8.0f}")
        await report_resume(str(folder / "resume.db"), args.games, args.events)

        if args.postgres:
            durable = await moves_per_second(args.postgres, args.moves, durable=True)
            print(f"PostgreSQL: moves saved per second, durable:        {durable:8.0f}")
            await report_resume(args.postgres, args.games, args.events, "PostgreSQL: ")

        size, per_game = await bytes_per_finished_game(folder, args.finished)
        print(
            f"database size per finished game: {size:,.0f} bytes "
            f"({per_game:.0f} events per game, {PLAYERS} players, {args.finished} games)"
        )


if __name__ == "__main__":
    asyncio.run(main())
