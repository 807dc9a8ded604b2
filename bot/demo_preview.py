"""What the demo needs of SimCord's Preview beyond its public API: clicks answered on their ack.

SimCord's Preview answers a click on the page only when the whole bot has settled:
every piece of its work due within the settle timeout (5 s), the AI seats' pauses and
moves that follow a person's move, a review's search, included.  So a move took 1.4 s
to show, and a long action read "Completing action…" for up to 5 s, or "Action was
not completed" when the bot's later work outran the wait.  Discord counts a click
answered when the bot acknowledges it (a response or a defer) and shows the rest as
it lands.  :func:`answer_when_acknowledged` does that for the demo: the settle that
follows a click's dispatch ends as soon as the bot has acknowledged it; what the bot
does after that shows as the demo's publisher publishes it, a moment later.

No public option does this; the SimCord internals it rests on are all in this module:
``Env._settle_internal`` (awaited with ``dispatch="INTERACTION_CREATE"`` right after
an actor's interaction is emitted, the Preview's clicks included),
``Env._register_dispatch_observer`` (handed the interaction's backend record just
before it is emitted, in the dispatching task) and the record's ``responded``.
Written against SimCord :data:`SIMCORD_VERSION`; ``tests/bot/test_demo_preview.py``
fails when another version is installed, to have these read again.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import simcord

#: The SimCord version whose internals this module was written against.
SIMCORD_VERSION = "3.2.1"
#: The dispatch label SimCord's settle carries after an actor's interaction.
INTERACTION_DISPATCH = "INTERACTION_CREATE"
#: How often a click's settle looks whether the bot has acknowledged it.
ACK_POLL = 0.02
#: How long a click may wait for its acknowledgement once SimCord's settle has failed
#: (bot work started earlier ran out its time): Discord's window for the first answer.
ANSWER_WINDOW = 3.0


def answer_when_acknowledged(env: simcord.Env) -> Callable[[], None]:
    """From now on, a click's settle in ``env`` ends once the bot acknowledged the click.

    A click the bot leaves unanswered still waits for the whole settle, and comes
    back unacknowledged as before.  Returns a function that undoes it.
    """
    dispatched: dict[asyncio.Task[Any], Any] = {}
    settle: Callable[..., Awaitable[None]] = env._settle_internal

    def remember(interaction: Any) -> None:
        task = asyncio.current_task()
        if task is not None:
            dispatched[task] = interaction

    async def settle_until_answered(**options: Any) -> None:
        task = asyncio.current_task()
        interaction = dispatched.pop(task, None) if task is not None else None
        if options.get("dispatch") != INTERACTION_DISPATCH or interaction is None:
            await settle(**options)
            return
        await _until_answered(interaction, asyncio.ensure_future(settle(**options)))

    forget = env._register_dispatch_observer(remember)
    env._settle_internal = settle_until_answered  # type: ignore[method-assign]

    def undo() -> None:
        forget()
        with contextlib.suppress(AttributeError):
            del env._settle_internal  # the class's method again
        dispatched.clear()

    return undo


async def _until_answered(interaction: Any, settling: asyncio.Future[None]) -> None:
    """Return once ``interaction`` is acknowledged or ``settling`` is over (raising
    what it raised, unless an acknowledgement comes within the answer window)."""
    loop = asyncio.get_running_loop()
    window = loop.time() + ANSWER_WINDOW
    try:
        while not interaction.responded:
            if settling.done():
                # Settled without an answer, or failed: a failure may be earlier work's
                # (a timer's settle that ran out), so the answer still has its window.
                if settling.exception() is None or loop.time() >= window:
                    settling.result()
                    return
                await asyncio.sleep(ACK_POLL)
            else:
                await asyncio.wait((settling,), timeout=ACK_POLL)
    finally:
        if not settling.done():
            settling.cancel()
        # Whatever the settle still raises concerns work the page shows later.
        settling.add_done_callback(_ignore_outcome)


def _ignore_outcome(settled: asyncio.Future[None]) -> None:
    if not settled.cancelled():
        settled.exception()
