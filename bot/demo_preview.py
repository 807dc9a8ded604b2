"""The demo's hooks into SimCord's Preview beyond its public API: clicks answered on their ack.

SimCord's Preview answers a click on the page only when the whole bot has settled:
every piece of its work due within the settle timeout (5 s), the AI seats' pauses and
moves that follow a person's move, a review's search, included.  So a move took 1.4 s
to show, and a long action read "Completing action…" for up to 5 s, or "Action was
not completed" when the bot's later work outran the wait.  Discord counts a click
answered when the bot acknowledges it (a response or a defer) and shows the rest as
it lands.  :func:`run_like_discord` does that for the demo: the settle that follows
a click's dispatch ends as soon as the bot has acknowledged it, and the bot's timers
fire at their time however long its other work takes; what the bot does after its
answer shows as the :class:`Publisher` publishes it, a moment later.

No public option does either, so both rest on SimCord internals, all in this module:
``Env._settle_internal`` (awaited with ``dispatch="INTERACTION_CREATE"`` right after
an actor's interaction is emitted, the Preview's clicks included, and in
``Env._advance_task`` while the clock catches up with a timer),
``Env._advance_to`` (the clock's catch-up, which the one started for a timer,
``Env._real_advance_task``, runs without its deadline),
``Env._register_dispatch_observer`` (handed the interaction's backend record just
before it is emitted, in the dispatching task), the record's ``responded``, and the
Preview's pages, revisions, publishing and action entry (see :class:`Publisher`).
Written against SimCord :data:`SIMCORD_VERSION`; ``tests/bot/test_demo_preview.py``
fails when another version is installed, to have these read again.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import simcord
    from simcord.preview import Preview

#: The SimCord version whose internals this module was written against.
SIMCORD_VERSION = "3.2.1"
#: The dispatch label SimCord's settle carries after an actor's interaction.
INTERACTION_DISPATCH = "INTERACTION_CREATE"
#: How often a click's settle looks whether the bot has acknowledged it.
ACK_POLL = 0.02
#: How long the clock's catch-up with a timer lets the bot's work run on each step.
CATCH_UP = 0.05
#: How long a click may wait for its acknowledgement once SimCord's settle has failed
#: (bot work started earlier ran out its time): Discord's window for the first answer.
ANSWER_WINDOW = 3.0


def run_like_discord(env: simcord.Env) -> Callable[[], None]:
    """From now on, ``env`` settles the bot as the demo needs, in real time, like Discord.

    A click's settle ends once the bot acknowledged the click; one the bot leaves
    unanswered still waits for the whole settle, and comes back unacknowledged as
    before.  The clock's catch-up with a timer of the bot's (SimCord's advance, started
    when the timer's real time comes) no longer waits for the rest of the bot's work:
    SimCord settles the whole bot before it moves its clock, and gives up after its
    settle timeout, which a review's search can outlast; the clock then stood still
    (no timer of the bot's fired, the finished table's last edit never came) until a
    click's settle took up the failure.  Nor does it give up when the machine is slow:
    it goes on through the timers due by now however long that takes (SimCord's own
    deadline, its settle timeout, stopped the clock the same way on a busy machine).
    Returns a function that undoes it, for when the
    bot has settled or is shutting down: a catch-up under way when it is undone may wait
    for the bot for as long as it works.
    """
    dispatched: dict[asyncio.Task[Any], Any] = {}
    settle: Callable[..., Awaitable[None]] = env._settle_internal

    def remember(interaction: Any) -> None:
        task = asyncio.current_task()
        if task is not None:
            dispatched[task] = interaction

    async def settle_in_real_time(**options: Any) -> None:
        task = asyncio.current_task()
        interaction = dispatched.pop(task, None) if task is not None else None
        if task is not None and task is env._advance_task:
            # What came due runs, and the bot gets a moment: a timer that comes due
            # while the bot thinks still fires at its time, as on Discord.
            with contextlib.suppress(TimeoutError):
                await settle(**{**options, "_deadline": None, "timeout": CATCH_UP})
        elif options.get("dispatch") == INTERACTION_DISPATCH and interaction is not None:
            await _until_answered(interaction, asyncio.ensure_future(settle(**options)))
        else:
            await settle(**options)

    advance_to: Callable[[float, float], Awaitable[None]] = env._advance_to

    async def catch_up_however_long(target: float, deadline: float) -> None:
        if asyncio.current_task() is env._real_advance_task:
            # A catch-up with the timers due by now takes what the machine takes.
            # SimCord gives up after its settle timeout, which a busy machine can
            # outlast, and then holds every timer of the bot's back until a click
            # takes the failure up; after the page's last click (a review thinking,
            # a game ending by itself) none may come, and the page stood still.
            deadline = math.inf
        await advance_to(target, deadline)

    forget = env._register_dispatch_observer(remember)
    env._settle_internal = settle_in_real_time  # type: ignore[method-assign]
    env._advance_to = catch_up_however_long  # type: ignore[method-assign]

    def undo() -> None:
        forget()
        for hook in ("_settle_internal", "_advance_to"):
            with contextlib.suppress(AttributeError):
                delattr(env, hook)  # the class's method again
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


class Publisher:
    """Shows on the page what the bot did by itself (AI moves, timeouts, turn pings).

    The Preview republishes after the page's own clicks; the bot's background
    work only shows after a publication.  ``Preview.refresh()`` would wait for
    that work to settle while holding the page's clicks off, so this publishes
    the current state directly, only when something changed and no click is
    being handled.

    Each publication is a new revision of the page, and the Preview refuses a
    click sent from an older one ("The published preview revision is stale").
    The bot's turn comes in several edits (the table, a ping, the hand), so a
    quick click on the hand that had just turned green was refused while the
    page had not yet fetched the ping's revision.  Discord has no such window: a
    click reaches the bot, whose buttons carry the turn they were drawn for and
    refuse a move on a turn gone by.  So a click sent from a revision that only
    this publisher replaced is let through as a click on the page now.
    """

    def __init__(self, env: simcord.Env, preview: Preview) -> None:
        self._env = env
        self._preview = preview
        self._seen = len(env.backend.transcript)
        #: By page: the revisions this publisher made (the page's own clicks make the rest).
        self._made: dict[str, set[int]] = {}
        #: By request id: the revision a click was let through on, so a resent request
        #: (the page's retry after a lost answer) is the same request.
        self._rebased: dict[str, int] = {}
        action = preview._action

        async def take_click(context_id: str | None, body: Mapping[str, Any]) -> dict[str, Any]:
            return await action(context_id, self._rebase(context_id, body))

        preview._action = take_click  # type: ignore[method-assign]

    def step(self) -> None:
        now = len(self._env.backend.transcript)
        busy = self._env._operation_task is not None or self._preview._active_action is not None
        if now == self._seen or busy:
            return
        self._seen = now
        self._preview._advance_presentation_time()
        self._preview._publish_message_pages(reason="refresh")
        for page_id, page in self._preview._pages.items():
            made = self._made.setdefault(page_id, set())
            made.add(page.revision)
            # Only revisions after one the page may still show matter.
            made.difference_update({old for old in made if old < page.revision - _KEPT})

    def _rebase(self, context_id: str | None, body: Mapping[str, Any]) -> Mapping[str, Any]:
        """``body``, on the page's current revision if only this publisher replaced its own."""
        if not isinstance(body, Mapping):
            return body
        shown, request = body.get("published_revision"), body.get("request_id")
        page = self._preview._pages.get(context_id) if isinstance(context_id, str) else None
        if page is None or not isinstance(request, str) or type(shown) is not int:
            return body
        if request in self._rebased:
            return {**body, "published_revision": self._rebased[request]}
        made = self._made.get(page.id, set())
        if shown >= page.revision or any(
            later not in made for later in range(shown + 1, page.revision + 1)
        ):
            return body
        if len(self._rebased) >= _KEPT:
            self._rebased.clear()
        self._rebased[request] = page.revision
        return {**body, "published_revision": page.revision}


#: How many of the publisher's revisions, and of the clicks it let through, it remembers.
_KEPT = 64
