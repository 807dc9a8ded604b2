"""When the bot can't have its own card emojis, it plays on with the plain ones."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
import simcord

from bot.client import LamaBot
from game import Card as C
from testkit.simcord_play import (
    components,
    is_components_v2,
    open_hand,
    play_to_the_end,
    rig,
    table_message,
    texts,
    two_player_game,
)
from tests.simcord_fixtures import DEV_GUILD_ID, DEV_GUILD_NAME

FAILURES = {
    "upload refused": ("POST", 403, 50013, "Missing Permissions"),
    "emoji limit": ("POST", 400, 30056, "Maximum number of emojis reached"),
    "listing fails": ("GET", 500, 0, "Internal Server Error"),
}


@pytest.fixture(params=sorted(FAILURES))
def failure(request: pytest.FixtureRequest) -> tuple[str, int, int, str]:
    return FAILURES[request.param]


@pytest_asyncio.fixture
async def simcord_env(
    simcord_bot: LamaBot, failure: tuple[str, int, int, str]
) -> AsyncIterator[simcord.Env]:
    """The usual environment, but Discord refuses the bot's emojis from the start."""
    method, status, code, message = failure
    env = simcord.Env(simcord_bot)
    env.create_guild(DEV_GUILD_NAME, id=DEV_GUILD_ID)
    env.inject_error(
        method, "/applications/*/emojis", status=status, code=code, message=message, times=None
    )
    await env.start()
    try:
        yield env
    finally:
        await env.shutdown()
        await simcord_bot.store.close()
        if env.check_errors:
            env._raise_errors_since(env._errors_acknowledged)


async def test_without_its_emojis_the_bot_says_so_once_and_plays_a_whole_game_plainly(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    caplog: pytest.LogCaptureFixture,
) -> None:
    said = [r for r in caplog.get_records("setup") if r.name == "cogs.emojis"]
    assert len(said) == 1 and said[0].levelno == logging.WARNING
    assert "using plain emojis" in said[0].getMessage()
    assert not simcord_env.backend.application_emojis

    bob = guild.add_member(simcord_env.create_user("bob"))
    rig(simcord_env, [[C.TWO, C.FOUR], [C.THREE, C.SIX, C.SIX]], C.ONE, [], starter=0)
    table = await two_player_game(simcord_env, alice, bob, channel, threshold=1)
    shown = table_message(channel)
    assert is_components_v2(shown) and "# 1️⃣ 1" in texts(shown)
    assert not [c for c in components(shown) if c.get("type") == 11], "no picture to show"
    hand = await open_hand(alice, channel)
    assert is_components_v2(hand) and "2️⃣ 4️⃣" in texts(hand)
    play = next(c for c in components(hand) if c.get("label") == "Play 2")
    assert play["emoji"]["name"] == "2️⃣" and not play["emoji"].get("id")

    await play_to_the_end(table, [alice, bob], channel)
    await simcord_env.advance_time(3)
    assert "game over" in texts(table_message(channel))
    assert len([r for r in caplog.records if r.name == "cogs.emojis"]) == 0, "said once"
