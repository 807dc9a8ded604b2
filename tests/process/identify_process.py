"""A sharded bot process that only identifies: its hook is called as discord.py would.

``python -m tests.process.identify_process URL SHARD_COUNT SHARD_IDS MAX_CONCURRENCY
SPACING`` builds the bot on the PostgreSQL ``URL`` with a short identify spacing and
Discord's ``max_concurrency`` answered without Discord, prints READY, waits for a line
on stdin, then calls ``before_identify_hook`` for each shard in turn (the first one
``initial``, as discord.py's launch does) and prints ``LET shard monotonic-time`` as
each is let through; then waits for another line before it gives its turns back, so its last turn
is held as long as a running bot's would be.
"""

from __future__ import annotations

import asyncio
import sys
import time

from bot.client import make_bot
from bot.config import Settings
from tests.process.cli import TOKEN


async def main(url: str, count: str, ids: str, concurrency: int, spacing: float) -> None:
    environ = {"DISCORD_TOKEN": TOKEN, "DATABASE_URL": url}
    settings = Settings.from_env({**environ, "SHARD_COUNT": count, "SHARD_IDS": ids})
    bot = make_bot(settings, identify_spacing=spacing)
    limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": concurrency}

    async def gateway() -> tuple[int, str, dict[str, int]]:
        return int(count), "wss://gateway.invalid", limit

    bot.http.get_bot_gateway = gateway  # type: ignore[assignment,method-assign]
    loop = asyncio.get_running_loop()
    print("READY", flush=True)
    await loop.run_in_executor(None, sys.stdin.readline)
    for index, shard in enumerate(settings.shard_ids or ()):
        await bot.before_identify_hook(shard, initial=index == 0)
        print("LET", shard, repr(time.monotonic()), flush=True)
    await loop.run_in_executor(None, sys.stdin.readline)
    if bot._identify is not None:  # the bot never logged in: close only what identifying opened
        await bot._identify.close()


if __name__ == "__main__":
    url, count, ids, concurrency, spacing = sys.argv[1:]
    asyncio.run(main(url, count, ids, int(concurrency), float(spacing)))
