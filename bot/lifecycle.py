"""Running the bot until it is told to stop: SIGTERM and SIGINT close it cleanly.

The handlers are installed on the event loop rather than left to Python's
defaults: as PID 1 in a container the kernel drops a SIGTERM that has no
handler, and ``docker stop`` would have to kill the bot after its grace period.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable

import discord

log = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
#: How long ``serve`` lets the gateway wind down after ``close()`` before it gives up waiting.
CLOSE_GRACE = 3.0


async def serve(client: discord.Client, running: Awaitable[None]) -> signal.Signals | None:
    """Await ``running`` (``client.start(token)``, say) until it ends or a stop signal comes.

    On SIGTERM or SIGINT the client is closed, which saves nothing new and waits
    for a save in progress, and the signal is returned.  Errors from ``running``
    propagate as they are.
    """
    loop = asyncio.get_running_loop()
    received: list[signal.Signals] = []
    stopped = asyncio.Event()

    def stop(signum: signal.Signals) -> None:
        received.append(signum)
        stopped.set()

    installed = []
    for signum in STOP_SIGNALS:
        # Not every platform has loop signal handlers (Windows); there Ctrl-C
        # still raises KeyboardInterrupt, which the caller handles.
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, stop, signum)
            installed.append(signum)
    main = asyncio.ensure_future(running)
    waiter = asyncio.ensure_future(stopped.wait())
    try:
        await asyncio.wait({main, waiter}, return_when=asyncio.FIRST_COMPLETED)
        if main.done():
            main.result()  # re-raise what stopped it
            return None
        log.info("Received %s, shutting down", received[0].name)
        await client.close()
        # start() returns once the gateway is closed; don't wait on it forever.
        await asyncio.wait({main}, timeout=CLOSE_GRACE)
        if main.done() and not main.cancelled() and main.exception() is not None:
            log.debug("The client ended with an error while closing", exc_info=main.exception())
        return received[0]
    finally:
        for signum in installed:
            loop.remove_signal_handler(signum)
        for task in (main, waiter):
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
