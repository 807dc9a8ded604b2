"""A bot process killed while it takes its last turn ping down.

    python -m tests.process.ping_process DATABASE

Opens a two-player game that the host ends with her first move (as
``testkit.simcord_play.one_move_from_the_end``), with her turn ping standing, and
prints ``PING <message id>``.  The moment the bot asks Discord to delete the
ping, before Discord has done it, it prints ``DELETING <message id>`` and the
whole process stops there for the parent to kill it: the ping stands, as it
does when Discord refuses a deletion (429, 5xx) and the bot dies before it
could try again.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any

from testkit.simcord_play import enabled, one_move_from_the_end, open_hand

from .bot_process import say, started_bot


class Watched(list[Any]):
    """SimCord's log of REST calls, which stops the process at the ping's deletion."""

    ping_id = 0

    def append(self, entry: Any) -> None:
        super().append(entry)
        if entry.method == "DELETE" and entry.path.endswith(f"/messages/{self.ping_id}"):
            say("DELETING", self.ping_id)
            time.sleep(600)  # everything stops: the parent kills the process now


async def main(path: Path) -> None:
    lama, env, (channel, alice, bob) = await started_bot(path)
    with env.time_context():
        table = await one_move_from_the_end(env, alice, bob, channel)
        [ping] = [m for m in channel.history() if m.content.startswith(f"<@{alice.id}>")]
        say("IDS", table.game_id, channel.id, alice.id, bob.id)
        say("PING", ping.id)
        watched = Watched(env.backend.http_requests)
        watched.ping_id = ping.id
        env.backend.http_requests = watched
        hand = await open_hand(alice, channel)
        [four] = enabled(hand, "lama:play:")
        await alice.click(hand, custom_id=four)  # the game is over: its ping goes
        say("NOT KILLED", table.status.value)  # the deletion never came: the test fails
        os._exit(3)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
