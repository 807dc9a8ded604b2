"""A bot process to kill: plays a game in SimCord and reports every saved move.

    python -m tests.process.bot_process DATABASE MOVES

Sets up the same dev guild, channel and members as ``test_process_kill``'s
fixtures, in the same order and before the bot starts (SimCord hands out the
same ids in every fresh process, and a bot's messages take ids too), opens a
game of alice, bob and an AI seat with seeded deals and plays MOVES clicks.
After each click it prints ``MOVED <k> <events in memory> <digest of them>``;
after the last it prints ``READY`` and waits, between two moves, for the
parent to kill it.  The digest is over the events exactly as the store writes
them, so the parent can compare it with the database file.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import simcord

from bot.client import LamaBot
from bot.config import Settings
from bot.frontend.pacing import Pacing
from bot.service.play.table import Status
from bot.service.timing import Timing
from testkit.simcord_play import open_lobby, table_message, take_simple_turn
from tests.simcord_fixtures import DEV_GUILD_ID, DEV_GUILD_NAME

SEED = 20260101
TABLE_CHANNEL = "lama-table"
THRESHOLD = 40


def settings_for(path: Path) -> Settings:
    """The test fixture's settings, on this database."""
    return Settings(
        token="test-token",
        database_path=path,
        dev_guild_id=DEV_GUILD_ID,
        log_level=logging.WARNING,
        turn_timer=120,
    )


def digest(payloads: Sequence[str]) -> str:
    return hashlib.sha256("\n".join(payloads).encode()).hexdigest()


def payload(event: Any) -> str:
    """An event's JSON as ``data.store`` writes it."""
    return json.dumps(event.to_json(), separators=(",", ":"), ensure_ascii=False)


def say(*parts: object) -> None:
    print(*parts, flush=True)


class Discord(NamedTuple):
    """What is there before the bot starts, as a restarted bot finds it on Discord."""

    channel: simcord.ChannelHandle
    alice: simcord.MemberActor
    bob: simcord.MemberActor


def populate(env: simcord.Env) -> Discord:
    """The table's channel and its two players in the dev guild (ids in this order)."""
    guild = env.guild
    channel = guild.create_text_channel(TABLE_CHANNEL)
    alice = guild.add_member(env.create_user("alice"))
    return Discord(channel, alice, guild.add_member(env.create_user("bob")))


async def started_bot(path: Path) -> tuple[LamaBot, simcord.Env, Discord]:
    """The bot on ``path`` in a fresh SimCord with the dev guild, populated before the bot
    starts (as ``test_process_kill`` does), seeded deals, no pauses."""
    # Don't let SimCord wait for the table edit pacing and the AI pause in real time.
    pacing = Pacing(edit_interval=0.0, debounce=0.0)
    lama = LamaBot(settings_for(path), timing=Timing(ai_delay=0.0), pacing=pacing)
    env = simcord.Env(lama)
    env.create_guild(DEV_GUILD_NAME, id=DEV_GUILD_ID)
    there = populate(env)
    await env.start()
    rng = random.Random(SEED)
    lama.service.dealer.seed_source = lambda: rng.getrandbits(63)
    return lama, env, there


async def main(path: Path, moves: int) -> None:
    lama, env, (channel, alice, bob) = await started_bot(path)
    with env.time_context():
        players = {alice.id: alice, bob.id: bob}
        table = await open_lobby(env, alice, channel, threshold=THRESHOLD)
        await bob.click(table_message(channel), label="Join")
        await alice.select(table_message(channel), ["normal"])
        await alice.click(table_message(channel), label="Start")
        say("IDS", table.game_id, channel.id, alice.id, bob.id)
        for k in range(1, moves + 1):
            assert table.status is Status.RUNNING and table.match is not None, "game over early"
            seat = table.to_move
            assert seat is not None
            user_id = table.seats[seat].user_id
            assert user_id is not None, "the AI seat moves within the clicks"
            await take_simple_turn(players[user_id], channel)
            events = table.match.events
            say("MOVED", k, len(events), digest([payload(e) for e in events]))
        say("READY")
        # Between two moves: block everything until the parent kills the process.
        sys.stdin.readline()
        say("NOT KILLED")
        os._exit(3)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2])))
