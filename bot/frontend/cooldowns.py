"""A command or button used again too soon by one person: refused in their language."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from bot.i18n import text
from bot.service.cooldowns import Cooldowns

from .replies import Interaction, reply

T = TypeVar("T")


async def too_soon(interaction: Interaction, cooldowns: Cooldowns, action: str) -> bool:
    """True, and the person told how long to wait, if they did ``action`` too recently;
    else False, and their wait starts now (``cooldowns.release`` gives it back if the
    action is refused after all)."""
    left = cooldowns.take(interaction.user.id, action)
    if left:
        await reply(interaction, text(interaction.locale, "error.cooldown", count=left))
    return bool(left)


async def reserved(
    interaction: Interaction,
    cooldowns: Cooldowns,
    action: str,
    work: Callable[[], Awaitable[T | None]],
) -> T | None:
    """``work`` (None once it told the person why not) with the person's wait for
    ``action`` reserved first; None, and the person told, if it is too soon.

    Reserved before ``work`` awaits anything, so a double submit arriving meanwhile is
    refused; ``work`` refused after all (the turn moved on, the bot is restarting) or
    failed on the way (Discord took no answer) gives the wait back, so the person may
    ask again at once.
    """
    if await too_soon(interaction, cooldowns, action):
        return None
    reserved_until = cooldowns.until(interaction.user.id, action)  # this one's wait only
    done: T | None = None
    try:
        done = await work()
    finally:
        if done is None:
            cooldowns.release(interaction.user.id, action, reserved_until)
    return done
