"""An old table message, once the table was posted anew: one line pointing to the new one.

Edited with the token that posted it while that works, else with the bot token where the
bot is a member; else it stays, and a click on it is told where the game is.
"""

from __future__ import annotations

import logging

from bot.limiter import Priority
from bot.service.play.table import Table

from .discord_errors import FAILURES, transient
from .host import Host
from .places import bot_present
from .tokens import Token, Tokens
from .views.payloads import moved_payload

log = logging.getLogger(__name__)


async def point_to_new(
    host: Host, tokens: Tokens, table: Table, old_id: int, old: Token | None
) -> None:
    """The old table message becomes one line pointing to the new one: with the
    token that posted it while it works, else with the bot token where the bot is a
    member; else it stays, and a click on it is told where the game is."""
    new_id = tokens.screens.message_id(table.game_id)
    if new_id is None:
        return
    payload = moved_payload(table, new_id)
    try:
        if old is not None and tokens.fresh(old):
            try:
                await old.editor(old_id)(**payload)
                return
            except FAILURES as error:
                if not transient(error):
                    tokens.failed(old)
                log.info("game %s: the old table's token failed: %s", table.game_id, error)
        if bot_present(host, table.guild_id):
            await host.limiter.acquire(Priority.COSMETIC)
            channel = host.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
            await channel.get_partial_message(old_id).edit(**payload)
    except FAILURES as error:
        log.info("game %s: the old table could not point to the new: %s", table.game_id, error)
    except Exception:  # a background task: log it and carry on
        log.exception("game %s: pointing the old table to the new failed", table.game_id)
