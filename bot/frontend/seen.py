"""A read of finished games answered in time, as privately as what it shows, or refused.

Every command and button that shows finished games (stats, boards, charts, histories,
replays, the export) reads them through :func:`read_in_sight`::

    async def read(seen: Audience) -> PlayerStats | None:
        return await service.stats.player_stats(guild_id, who.id, sight=seen.sight)

    done = await read_in_sight(interaction, service, read, cooldown="stats", failed="stats.failed")
    if done is None:
        return  # too soon, or the store failed: the person was told
    seen, stats = done
    await send_view(interaction, stats_view(...), ephemeral=seen.private)
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

from bot.i18n import text
from bot.service import GameService, ServiceError

from .cooldowns import too_soon
from .replies import Interaction, in_time, reply, time_left
from .views.stats import Audience, audience

T = TypeVar("T")


async def read_in_sight(
    interaction: Interaction,
    service: GameService,
    work: Callable[[Audience], Awaitable[T]],
    *,
    cooldown: str | None,
    failed: str,
    private: bool = False,
) -> tuple[Audience, T] | None:
    """Who asks, what they may see (:func:`audience`), and what ``work`` read in that;
    None once the person was told why not: the wait for ``cooldown`` (None: no wait, or
    one the caller took) is not over, or the service refused (the words of ``failed``,
    a catalog key).

    A slow store must not lose the interaction (Discord gives the first answer 3 s): it
    is acknowledged meanwhile, as privately as the answer will be once who may see it is
    known; always privately with ``private`` (a replay, an export)."""
    if cooldown is not None and await too_soon(interaction, service.cooldowns, cooldown):
        return None
    try:
        started = asyncio.get_running_loop().time()
        seen = await in_time(interaction, audience(service.stats, interaction))
        done = await in_time(
            interaction, work(seen), after=time_left(started), ephemeral=private or seen.private
        )
    except ServiceError:  # the store failed (logged where it was read) or refused
        await reply(interaction, text(interaction.locale, failed))
        return None
    return seen, done
