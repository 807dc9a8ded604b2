"""One bot process of a sharded bot, in its own SimCord, on a shared database.

    python -m tests.process.shard_process DATABASE SHARD_COUNT SHARD_ID MODE

The process runs the bot on shard SHARD_ID of SHARD_COUNT, with a guild on that
shard, a channel and two members (the same ids in every run with the same
SHARD_ID, and other channel ids for each shard).  MODE ``play`` opens a game of
alice, bob and an AI seat there and makes two moves, then prints ``GAME <id>``;
MODE ``resume`` prints ``RESUMED <ids of the games it resumed>`` and makes one
move in each.  Then ``READY``, and it waits for the parent to kill it.  If the
bot refuses to start, the process prints ``lama-bot: <why>`` on stderr and
exits with 1, as ``python -m bot`` does.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from pathlib import Path

import simcord

from bot.client import make_bot
from bot.config import Settings
from bot.frontend.pacing import Pacing
from bot.service.timing import Timing
from data import StoreError
from testkit.simcord_play import enabled, open_lobby, service, table_message
from tests.process.common import open_hand_anywhere
from tests.simcord_fixtures import RENEW_DAILY


def guild_id_on(shard: int, count: int) -> int:
    """A fixed guild id on ``shard`` of ``count``."""
    return ((1000 * count + shard) << 22) | 4242


async def simple_turn(
    player: simcord.MemberActor, channel: simcord.ChannelHandle, *, slash: bool
) -> None:
    """Play the first card that fits, else draw, else quit; from /lama hand with ``slash``
    (this SimCord never saw the table message an earlier process posted)."""
    hand = await open_hand_anywhere(player, channel, slash=slash)
    for prefix in ("lama:play:", "lama:draw:", "lama:quit:"):
        ids = enabled(hand, prefix)
        if ids:
            await player.click(hand, custom_id=ids[0])
            return
    raise AssertionError("no move button enabled")


def say(*parts: object) -> None:
    print(*parts, flush=True)


async def main(database: str, count: int, shard: int, mode: str) -> int:
    postgres = database.startswith("postgresql://")
    settings = Settings(
        token="test-token",
        database_path=Path("unused.db" if postgres else database),
        database_url=database if postgres else None,
        log_level=logging.WARNING,
        turn_timer=0,
        shard_count=count,
        shard_ids=(shard,),
    )
    pacing = Pacing(edit_interval=0.0, debounce=0.0)
    lama = make_bot(settings, timing=Timing(ai_delay=0.0), pacing=pacing, renew_every=RENEW_DAILY)
    # Only the process serving shard 0 syncs the commands; SimCord needn't insist.
    env = simcord.Env(lama, strict_sync=False)
    guild = env.create_guild(f"Shard {shard}", id=guild_id_on(shard, count))
    channels = [guild.create_text_channel(f"table-{n}") for n in range(shard + 1)]
    channel = channels[-1]  # a channel id no other shard's process uses
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    players = {alice.id: alice, bob.id: bob}
    try:
        await env.start()
    except StoreError as error:
        await lama.close()  # as `async with bot` does in python -m bot
        print(f"lama-bot: {error}", file=sys.stderr, flush=True)
        return 1
    with env.time_context():
        if mode == "play":
            table = await open_lobby(env, alice, channel)
            await bob.click(table_message(channel), label="Join")
            await alice.select(table_message(channel), ["normal"])
            await alice.click(table_message(channel), label="Start")
            tables = [table]
            say("GAME", table.game_id)
        else:
            tables = sorted(service(env).registry.tables(), key=lambda t: t.game_id)
            say("RESUMED", *(t.game_id for t in tables))
        for table in tables:
            for _ in range(2 if mode == "play" else 1):
                while (seat := table.to_move) is not None and table.seats[seat].user_id is None:
                    await env.advance_time(1)  # the AI seat's move
                assert seat is not None
                user_id = table.seats[seat].user_id
                assert user_id is not None
                await simple_turn(players[user_id], channel, slash=mode == "resume")
            say("MOVED", table.game_id, len(table.match.events) if table.match else 0)
        say("READY")
        sys.stdin.readline()  # until the parent kills the process
        os._exit(3)


if __name__ == "__main__":
    database, count, shard, mode = sys.argv[1:5]
    raise SystemExit(asyncio.run(main(database, int(count), int(shard), mode)))
