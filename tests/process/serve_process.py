"""A bot process to stop with a signal: it serves in SimCord as ``python -m bot`` does.

    python -m tests.process.serve_process DATABASE

Plays a few moves of a game (like ``bot_process``), prints ``PID <pid>`` and
``READY``, then waits in :func:`bot.lifecycle.serve`, the loop the real entry
point runs, until SIGTERM or SIGINT.  It prints ``STOPPED <signal>`` and exits
0 once the bot is closed.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from bot.lifecycle import serve
from testkit.simcord_play import started_game, take_simple_turn

from .bot_process import say, started_bot


async def main(path: Path) -> int:
    lama, env, (channel, alice, bob) = await started_bot(path)
    with env.time_context():
        table = await started_game(env, alice, [bob], channel)
        for _ in range(3):
            seat = table.to_move
            assert seat is not None
            player = alice if table.seats[seat].user_id == alice.id else bob
            await take_simple_turn(player, channel)
        say("GAME", table.game_id, table.stamp)

        async def until_closed() -> None:
            # Stands for client.start(token), which returns once the client is closed.
            while not lama.is_closed():
                await asyncio.sleep(0.05)

        serving = asyncio.create_task(serve(lama, until_closed()))
        await asyncio.sleep(0)  # serve() has installed its signal handlers
        say("PID", os.getpid())
        say("READY")
        stopped = await serving
        say("STOPPED", stopped.name if stopped else None, lama.is_closed())
    await env.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(Path(sys.argv[1]))))
