"""A game that ended just before the bot stopped: its table shows the end after the restart."""

from __future__ import annotations

from typing import Any

import simcord

from bot.client import LamaBot
from bot.config import Settings
from bot.service.table import Status
from game import Card as C
from testkit.simcord_play import (
    enabled,
    open_hand,
    rig,
    table_message,
    texts,
    title,
    two_player_game,
)
from tests.simcord_fixtures import fresh_bot

JUNK = [C.ONE, C.ONE, C.TWO, C.TWO, C.SIX, C.SIX]


async def stop(env: simcord.Env) -> LamaBot:
    """The bot stops (what it had not shown by now, it never shows)."""
    old = env.bot
    assert isinstance(old, LamaBot)
    await old.close()
    return old


async def test_a_game_that_ended_just_before_a_restart_shows_its_end_after_it(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """alice's last card ends the game; the bot stops while Discord still fails the
    table's edit (or before it went out at all). The restarted bot shows the result,
    the table's last word, instead of a round still being played."""
    rig(simcord_env, [[C.FIVE], JUNK], C.FOUR, [C.LLAMA] * 8)
    table = await two_player_game(simcord_env, alice, bob, channel, threshold=1)
    await simcord_env.advance_time(3)
    hand: Any = await open_hand(alice, channel)
    for path in (f"*/messages/{table.table_message_id}", "*/messages/@original"):
        simcord_env.inject_error("PATCH", path, status=503, times=None)
    await alice.click(hand, custom_id=enabled(hand, "lama:play:")[0])
    assert table.status is Status.FINISHED
    assert "game over" not in title(table_message(channel))  # not shown yet
    old = await stop(simcord_env)
    simcord_env.backend.faults.clear()  # Discord is back
    await simcord_env.restart_bot(fresh_bot(settings, old))
    await simcord_env.advance_time(10)
    shown = table_message(channel)
    assert "game over" in title(shown)
    assert "The winner is **alice**" in texts(shown)
    # As the table would have shown it: with what the game did to each rating.
    assert texts(shown).count("· rating **") == 2
    # Shown once: a second restart leaves the finished table alone.
    before = len(simcord_env.http_requests)
    await simcord_env.restart_bot(fresh_bot(settings, await stop(simcord_env)))
    await simcord_env.advance_time(10)
    edits = [
        r
        for r in simcord_env.http_requests[before:]
        if r.method == "PATCH" and r.path.endswith(f"/messages/{table.table_message_id}")
    ]
    assert edits == []
