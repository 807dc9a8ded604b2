"""The demo's use of SimCord's internals (``bot/demo_preview.py``), on the SimCord version
it was written against: clicks answered once acknowledged, the bot's timers on time."""

from __future__ import annotations

import asyncio

import pytest
import simcord

from bot.demo_preview import SIMCORD_VERSION, run_like_discord
from testkit.simcord_play import table_message

from .test_hints import said
from .test_shutdown_answers import Gate, finished_game

#: Only a guard against waiting for ever when the hook has stopped working.
GUARD = 60.0


def test_simcord_is_the_version_the_demos_preview_hooks_were_written_against() -> None:
    assert simcord.__version__ == SIMCORD_VERSION, (
        f"SimCord {simcord.__version__} is installed, but bot/demo_preview.py rests on "
        f"SimCord {SIMCORD_VERSION}'s internals (Env._settle_internal and its dispatch "
        "label, Env._advance_task, Env._advance_to, Env._real_advance_task, "
        "Env._register_dispatch_observer, the interaction "
        "record's responded, the Preview's pages, revisions and action entry): read them "
        "again in the new version, then update SIMCORD_VERSION"
    )


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_click_comes_back_once_acknowledged_and_timers_fire_meanwhile(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """The review's click comes back as soon as the bot defers it, its "thinking…"
    shown, while Hard's search is held; a timer of the bot's that comes due meanwhile
    fires (SimCord would first wait for the search, then give up, its clock stopped);
    once the search goes on, the review fills the answer in.  Without the hook the
    click waits for the search until SimCord's settle timeout, and fails."""
    await finished_game(simcord_env, alice, bob, channel)
    gate = Gate(simcord_env)
    # Once let go, Hard's search takes what the machine takes, and the settle with it.
    simcord_env.settle_timeout = GUARD
    stop = run_like_discord(simcord_env)
    try:
        clicked = await alice.click(table_message(channel), label="Your three costliest decisions")
        assert clicked.deferred and clicked.response is not None
        assert clicked.response.flags.loading, "answered while Hard still thinks"
        with simcord_env._bot_scope():  # a timer of the bot's, as the table's next edit
            rang = asyncio.ensure_future(asyncio.sleep(0.05, result="rang"))
        assert await asyncio.wait_for(rang, GUARD) == "rang"
        assert not gate.opened.is_set(), "the search is still held"
        gate.opened.set()
        await simcord_env.settle()  # the rest of the review, still as the demo runs
    finally:
        gate.opened.set()
        stop()
    assert said(clicked).startswith("**🔍 Your three costliest decisions**")


async def test_a_catch_up_that_runs_out_of_time_does_not_stop_the_clock(
    simcord_env: simcord.Env,
) -> None:
    """On a busy machine the clock's catch-up with a timer can outlast SimCord's settle
    timeout.  SimCord then gives up, keeps the failure for the next click to take up
    and, until one comes, holds back every timer of the bot's: after the demo's last
    click (a review thinking, a game ending on its own) nothing the bot waits for came
    due, and the page stood still.  The demo's catch-up takes what the machine takes."""
    stop = run_like_discord(simcord_env)
    patience = simcord_env.settle_timeout
    # A machine so busy that no catch-up is over within the settle timeout.
    simcord_env.settle_timeout = 0.0
    try:
        with simcord_env._bot_scope():  # a timer of the bot's, as the table's next edit
            rang = asyncio.ensure_future(asyncio.sleep(0.05, result="rang"))
        assert await asyncio.wait_for(rang, GUARD) == "rang"
    finally:
        simcord_env.settle_timeout = patience
        stop()
