"""A command or button used again too soon by one person: refused in their language."""

from __future__ import annotations

from bot.i18n import text
from bot.service.cooldowns import Cooldowns

from .replies import Interaction, reply


async def too_soon(interaction: Interaction, cooldowns: Cooldowns, action: str) -> bool:
    """True, and the person told how long to wait, if they did ``action`` too recently;
    else False, and their wait starts now (``cooldowns.release`` gives it back if the
    action is refused after all)."""
    left = cooldowns.take(interaction.user.id, action)
    if left:
        await reply(interaction, text(interaction.locale, "error.cooldown", count=left))
    return bool(left)
