"""Shard processes starting at once identify in Discord's order, on one PostgreSQL.

Real processes each call the bot's ``before_identify_hook`` for their shards, with a
short spacing: no two IDENTIFYs of one bucket (``shard_id % max_concurrency``) come
closer than the spacing, whichever processes they are in, while different buckets
go side by side.
"""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.pg import PostgresServer

ROOT = Path(__file__).resolve().parents[2]
SPACING = 1.5
SLACK = 0.2  # clocks and scheduling on a loaded machine; an overlap is a whole spacing


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    yield started
    for child in started:
        if child.poll() is None:
            child.kill()
        child.communicate(timeout=30)


def let_through(
    processes: list[subprocess.Popen[str]],
    url: str,
    count: int,
    shares: list[str],
    concurrency: int,
) -> list[tuple[int, float]]:
    """Start one process per share of the shards, let them all identify at once, and
    return when each shard was let through."""
    for ids in shares:
        child = subprocess.Popen(
            [sys.executable, "-m", "tests.process.identify_process", url, str(count), ids]
            + [str(concurrency), str(SPACING)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        processes.append(child)
    for child in processes:
        assert child.stdout is not None and child.stdout.readline().strip() == "READY"
    for child in processes:  # all at once
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.flush()
    lets: list[tuple[int, float]] = []
    for child, ids in zip(processes, shares, strict=True):
        assert child.stdout is not None
        for _ in ids.split(","):
            word, shard, at = child.stdout.readline().split()
            assert word == "LET"
            lets.append((int(shard), float(at)))
    for child in processes:  # now the turns may end
        assert child.stdin is not None
        child.stdin.write("stop\n")
        child.stdin.flush()
    for child in processes:
        assert child.wait(timeout=60) == 0
    return lets


@pytest.mark.parametrize(
    ("count", "shares", "concurrency"),
    [
        (4, ["0,1", "2,3"], 1),
        (4, ["0,1", "2,3"], 2),
        (8, ["0,1", "2,3", "4,5", "6,7"], 2),
        (8, ["0,4", "1,5", "2,6", "3,7"], 4),
    ],
)
async def test_one_identify_per_bucket_every_spacing_across_processes(
    postgres_server: PostgresServer,
    processes: list[subprocess.Popen[str]],
    count: int,
    shares: list[str],
    concurrency: int,
) -> None:
    url = await postgres_server.new_database()
    lets = let_through(processes, url, count, shares, concurrency)
    assert sorted(shard for shard, _ in lets) == list(range(count))
    buckets: dict[int, list[float]] = {}
    for shard, at in lets:
        buckets.setdefault(shard % concurrency, []).append(at)
    for times in buckets.values():
        times.sort()
        gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
        assert min(gaps) >= SPACING - SLACK, gaps
    if concurrency > 1:  # other buckets did not wait for each other
        firsts = sorted(times[0] for times in buckets.values())
        assert firsts[-1] - firsts[0] < SPACING, firsts
    # Nobody waited for more than its bucket's turns.
    start = min(at for _, at in lets)
    longest = max(len(times) for times in buckets.values())
    assert max(at for _, at in lets) - start < longest * SPACING + 2.0
