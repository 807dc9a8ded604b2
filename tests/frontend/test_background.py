"""The front end's background work: a task that fails is logged with its name (a host
reads why a ping stayed up), one cancelled because its work is moot is not."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.frontend.background import Background


async def test_a_failing_background_task_is_logged_and_a_cancelled_one_is_not(
    caplog: pytest.LogCaptureFixture,
) -> None:
    background = Background()
    asleep = asyncio.Event()

    async def fails() -> None:
        raise RuntimeError("the store went away")

    async def sleeps() -> None:
        asleep.set()
        await asyncio.Event().wait()

    failing = background.spawn(fails(), "lama-ping-end-7")
    watch = background.spawn(sleeps(), "lama-ping-end-8")
    await asyncio.wait([failing])
    await asleep.wait()
    watch.cancel()
    await asyncio.wait([watch])
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r.getMessage() for r in failures] == ["lama-ping-end-7 failed"]
    assert "the store went away" in caplog.text
    assert background.take_all() == []  # neither is kept once done
