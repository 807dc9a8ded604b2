"""The Discord side of the tests: a LamaBot running inside SimCord's offline Discord.

For ``tests/bot`` and ``tests/process``, whose conftests import them.

Ordering matters for guild-scoped command sync. ``LamaBot.setup_hook`` syncs the
slash commands to ``DEV_GUILD_ID`` during login, exactly like production. On real
Discord that only works for a guild the application is already in, so the
``simcord_env`` fixture below (which overrides the one from SimCord's pytest
plugin) creates the dev guild in the backend *before* starting the bot. The bot
then logs in, syncs to an existing guild, gets READY and a GUILD_CREATE for it,
and ``strict_sync`` can stay on.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import discord
import pytest
import pytest_asyncio
import simcord

from bot.client import LamaBot
from bot.config import Settings
from bot.frontend.pacing import Pacing
from bot.service.timing import Timing

DEV_GUILD_ID = 1100000000000000001
DEV_GUILD_NAME = "Llama Lounge"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(
        token="test-token",
        database_path=tmp_path / "lama.db",
        dev_guild_id=DEV_GUILD_ID,
        log_level=logging.WARNING,
        turn_timer=120,
    )


#: Seconds between two renewals of a test bot's shard leases: once a day. SimCord runs
#: every timer a jump in time passes, and a renewal (a durable write) every 10 s of a
#: three-day jump would keep the bot from settling.  The bot's own pauses are ``timing``
#: and ``pacing`` below.
RENEW_DAILY = 86400.0


@pytest.fixture
def cooldowns(request: pytest.FixtureRequest) -> dict[str, float] | None:
    """Tests click and ask as fast as they like: a person waits between two tables,
    hints or stats only in the tests that check so (``@pytest.mark.cooldowns``: the
    bot's own waits)."""
    return None if request.node.get_closest_marker("cooldowns") else {}


@pytest.fixture
def timing(request: pytest.FixtureRequest) -> Timing:
    """The game service's pauses: AI seats move at once, unless the test measures the
    pauses (``@pytest.mark.real_pacing``); a test that needs its own parametrizes this
    (``@pytest.mark.parametrize("timing", [...])``).  SimCord lets short sleeps of the
    bot run out in real time, so the bot's 0.8 s per AI move (and ``pacing``'s 2 s
    between table edits) would make every test wait for real.  Hints and reviews think
    today's work exactly (no time past it): what they show then depends on the position
    alone, not on how fast the machine running the test is."""
    if request.node.get_closest_marker("real_pacing"):
        return Timing()
    return Timing(ai_delay=0.0, hint_time=0.0, review_decision_time=0.0)


#: The first retry of a failed call in tests marked ``parked_retries``: past SimCord's
#: settle window (``simcord.Env.settle_timeout``, 5 s), within which SimCord lets a timer
#: run out in real time. Such a retry waits until the test moves SimCord's clock, so a
#: test whose Discord fails many calls in a row waits on no backoff in real time.
PARKED_RETRY = 6.0


@pytest.fixture
def pacing(request: pytest.FixtureRequest) -> Pacing:
    """The front end's pacing: every table edit at once, and a failed call tried again
    after 0.05 s (doubling from there as ever), unless the test measures the pacing
    (``@pytest.mark.real_pacing``) or moves the clock to each retry
    (``@pytest.mark.parked_retries``: the first after ``PARKED_RETRY``)."""
    if request.node.get_closest_marker("real_pacing"):
        return Pacing()
    if request.node.get_closest_marker("parked_retries"):
        return Pacing(edit_interval=0.0, debounce=0.0, ai_hold=0.0, retry_first=PARKED_RETRY)
    return Pacing(edit_interval=0.0, debounce=0.0, ai_hold=0.0, retry_first=0.05)


@pytest.fixture
def simcord_bot(
    settings: Settings,
    timing: Timing,
    pacing: Pacing,
    cooldowns: dict[str, float] | None,
    migrated_sqlite: Callable[[Path], Path],
) -> LamaBot:
    """The bot a test starts, on a database the migrations ran on (as after its first
    start: what a start does on a new file is tests/process's)."""
    migrated_sqlite(settings.database_path)
    return LamaBot(
        settings, timing=timing, pacing=pacing, cooldowns=cooldowns, renew_every=RENEW_DAILY
    )


def globally_synced_bot(
    settings: Settings, timing: Timing, pacing: Pacing, cooldowns: dict[str, float] | None
) -> LamaBot:
    """A bot that syncs its commands globally, as production publishes them (``python -m
    bot sync``): DMs and group DMs show global commands only."""
    return LamaBot(
        dataclasses.replace(settings, dev_guild_id=None),
        sync_globally=True,
        timing=timing,
        pacing=pacing,
        cooldowns=cooldowns,
        renew_every=RENEW_DAILY,
    )


def fresh_bot(settings: Settings, old: LamaBot) -> LamaBot:
    """A new bot on ``settings``, for a restart: with the old one's pauses, cooldowns and
    lease renewals."""
    return LamaBot(
        settings,
        timing=old.timing,
        pacing=old.pacing,
        cooldowns=old.service.cooldowns.seconds,
        renew_every=old.renew_every,
    )


@pytest.fixture
def before_start() -> Callable[[simcord.Env], object]:
    """What is in SimCord before the bot starts, besides the dev guild: nothing (a test
    module whose bot must find a channel already there overrides this)."""
    return lambda env: None


@pytest_asyncio.fixture
async def simcord_env(
    simcord_bot: LamaBot,
    before_start: Callable[[simcord.Env], object],
    request: pytest.FixtureRequest,
) -> AsyncIterator[simcord.Env]:
    """SimCord's ``simcord_env``, but with the dev guild created before the bot starts.

    Options from ``@pytest.mark.simcord(...)`` are forwarded to :class:`simcord.Env`
    like in the stock fixture; teardown re-raises errors the bot captured.

    Keep ``settle_timeout`` below the bot's timers that are pending while a test steps
    (a retry after 10 s, a lease renewed every 10 s): SimCord waits in real time for a
    timer due within it, and its advance of the virtual clock to that timer then fails
    with "bot did not settle while advancing time". ``tests.process.bot_process`` with
    ``settle_timeout=10`` and its store's renewal every 10 s fails so at its first step.
    """
    marker = request.node.get_closest_marker("simcord")
    options = marker.kwargs if marker else {}
    env = simcord.Env(simcord_bot, **options)
    env.create_guild(DEV_GUILD_NAME, id=DEV_GUILD_ID)
    before_start(env)
    await env.start()
    try:
        yield env
    finally:
        await env.shutdown()
        # SimCord's shutdown doesn't close the client; stop the AI's worker
        # processes and close the database ourselves.
        thinking = getattr(env.bot, "thinking", None)
        if thinking is not None:
            await thinking.close()
        store = getattr(env.bot, "store", None)
        if store is not None:
            await store.close()
        if env.check_errors:
            env._raise_errors_since(env._errors_acknowledged)


@pytest.fixture
def guild(simcord_env: simcord.Env) -> simcord.GuildHandle:
    """The dev guild ("Llama Lounge", id DEV_GUILD_ID) the bot synced its commands to."""
    return simcord_env.guild


@pytest.fixture
def channel(guild: simcord.GuildHandle) -> simcord.ChannelHandle:
    return guild.create_text_channel("lama-table")


@pytest.fixture
def alice(simcord_env: simcord.Env, guild: simcord.GuildHandle) -> simcord.MemberActor:
    return guild.add_member(simcord_env.create_user("alice"))


@pytest.fixture
def bob(simcord_env: simcord.Env, guild: simcord.GuildHandle) -> simcord.MemberActor:
    return guild.add_member(simcord_env.create_user("bob"))


@pytest.fixture
def mod(simcord_env: simcord.Env, guild: simcord.GuildHandle) -> simcord.MemberActor:
    """A member whose role has Manage Server: one who may change the server's settings."""
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(simcord_env.create_user("mod"), roles=[mods])
