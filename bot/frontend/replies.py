"""Answering an interaction: once, privately by default, in the person's language."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable
from typing import Any, TypeVar

import discord

from bot.i18n import text

from .words import error_text

#: Commands and clicks as the cogs and buttons see them (whichever bot runs them).
Interaction = discord.Interaction[Any]

log = logging.getLogger(__name__)

T = TypeVar("T")

#: How long a click's work may run before the click is acknowledged: Discord gives the
#: first answer 3 s, and what follows the work (drawing the hand, a REST call) needs time.
ACK_AFTER = 1.5

#: How long a cog being unloaded (the bot shutting down) waits for the answers it is
#: still sending: one followup each, before the connection to Discord is closed.
ANSWERS_GRACE = 3.0


class Answers:
    """The answers a cog is still working on, for its unload to let them go out."""

    def __init__(self) -> None:
        self._pending: set[asyncio.Future[None]] = set()

    @contextlib.asynccontextmanager
    async def giving(self) -> AsyncIterator[None]:
        done = asyncio.get_running_loop().create_future()
        self._pending.add(done)
        try:
            yield
        finally:
            self._pending.discard(done)
            done.set_result(None)

    async def sent(self, timeout: float = ANSWERS_GRACE) -> None:
        """Wait until every answer begun is given, or ``timeout`` has passed."""
        if self._pending:
            await asyncio.wait(set(self._pending), timeout=timeout)


async def reply(interaction: Interaction, message: str, *, ephemeral: bool = True) -> None:
    """Answer once, whether or not the interaction was deferred."""
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=ephemeral)
    else:
        await interaction.response.send_message(message, ephemeral=ephemeral)


async def send_view(
    interaction: Interaction,
    view: discord.ui.LayoutView,
    *,
    ephemeral: bool,
    file: discord.File | None = None,
) -> None:
    """Answer once with a layout (and ``file``), whether or not it was deferred."""
    files = [] if file is None else [file]
    if interaction.response.is_done():  # acknowledged while the store was slow
        await interaction.followup.send(view=view, ephemeral=ephemeral, files=files)
    else:
        await interaction.response.send_message(view=view, ephemeral=ephemeral, files=files)


async def reply_error(interaction: Interaction, error: Exception) -> None:
    await reply(interaction, error_text(interaction.locale, error))


async def answer_unexpected(interaction: Interaction) -> None:
    """Tell whoever clicked or typed, in their language, that it failed on our side,
    instead of leaving them with Discord's "This interaction failed"."""
    try:
        await reply(interaction, text(interaction.locale, "error.unexpected"))
    except discord.HTTPException as error:
        log.warning("could not answer a failed interaction: %s", error)


async def defer_private(
    interaction: Interaction, *, ephemeral: bool = True, anew: bool = False
) -> None:
    """Answer now (a private "thinking…" for a command, a quiet ack for a button)
    when what follows may wait longer than the 3 s Discord gives an answer;
    :func:`reply` then fills it in. A command whose answer is for the channel passes
    ``ephemeral=False``: a deferred command's answer is as private as its "thinking…".

    A button's quiet ack makes the message clicked the answer to edit; a button whose
    answer is a new private message instead (``anew``: a hand asked for on the table)
    gets a private "thinking…" too, so that its answer never lands on that message."""
    if interaction.response.is_done():
        return
    if interaction.type is discord.InteractionType.component and not anew:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)


def time_left(started: float, *, after: float = ACK_AFTER) -> float:
    """What is left of ``after`` seconds from ``started`` (the loop's clock): for a
    second :func:`in_time` once the first part of the work (who may see it) is done."""
    return max(0.0, after - (asyncio.get_running_loop().time() - started))


async def in_time(
    interaction: Interaction,
    work: Awaitable[T],
    *,
    after: float = ACK_AFTER,
    ephemeral: bool = True,
    anew: bool = False,
) -> T:
    """``work``'s result; if it is not done within ``after`` seconds (a store that is locked
    or slow), the interaction is deferred meanwhile (a command ``ephemeral``-ly, a button
    whose answer is a new private message ``anew``: see :func:`defer_private`), so
    Discord never shows "This interaction failed"; :func:`reply`, :func:`send_view` and
    an edit of the original response then answer.

    ``work`` runs in the caller's task: the answer still goes out before what the work
    started in the background (the next player's ping and hand)."""
    deferring = False

    async def defer_late() -> None:
        nonlocal deferring
        await asyncio.sleep(after)
        if interaction.response.is_done():
            return
        deferring = True
        try:
            await defer_private(interaction, ephemeral=ephemeral, anew=anew)
        except discord.HTTPException as error:  # the answer still goes out, or fails
            log.warning("could not defer a slow interaction: %s", error)

    timer = asyncio.ensure_future(defer_late())
    try:
        return await work
    finally:
        if deferring:  # a defer under way is seen through: half of one answers nothing
            await asyncio.shield(timer)
        else:
            timer.cancel()
