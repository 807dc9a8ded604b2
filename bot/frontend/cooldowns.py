"""A command or button used again too soon by one person: refused in their language."""

from __future__ import annotations

from bot.i18n import text
from bot.service.cooldowns import Cooldowns

from .replies import Interaction, reply


async def too_soon(interaction: Interaction, cooldowns: Cooldowns, action: str) -> bool:
    """True, and the person told how long to wait, if they did ``action`` too recently;
    else False, and their wait starts now."""
    left = cooldowns.take(interaction.user.id, action)
    if left:
        await reply(interaction, text(interaction.locale, "error.cooldown", count=left))
    return bool(left)


async def still_waiting(interaction: Interaction, cooldowns: Cooldowns, action: str) -> bool:
    """As :func:`too_soon`, but the wait starts only once the caller calls
    ``cooldowns.use`` (when the action was done, not merely refused)."""
    left = cooldowns.left(interaction.user.id, action)
    if left:
        await reply(interaction, text(interaction.locale, "error.cooldown", count=left))
    return bool(left)
