"""The demo's use of SimCord's internals (``bot/demo_preview.py``): on the SimCord
version it was written against, clicks answered once the bot acknowledges them."""

from __future__ import annotations

import simcord

from bot.demo_preview import SIMCORD_VERSION, answer_when_acknowledged
from testkit.simcord_play import table_message

from .test_hints import said
from .test_shutdown_answers import Gate, finished_game


def test_simcord_is_the_version_the_demos_preview_hooks_were_written_against() -> None:
    assert simcord.__version__ == SIMCORD_VERSION, (
        f"SimCord {simcord.__version__} is installed, but bot/demo_preview.py rests on "
        f"SimCord {SIMCORD_VERSION}'s internals (Env._settle_internal and its dispatch "
        "label, Env._register_dispatch_observer, the interaction record's responded, the "
        "Preview's pages, revisions and action entry): read them again in the new version, "
        "then update SIMCORD_VERSION"
    )


async def test_a_click_comes_back_once_acknowledged_while_the_bot_works_on(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """The review's click comes back as soon as the bot defers it, its "thinking…"
    shown, while Hard's search is held; once the search goes on, the review fills the
    answer in.  Without the hook the click waits for the search (SimCord's settle)
    until its settle timeout, and fails."""
    await finished_game(simcord_env, alice, bob, channel)
    gate = Gate(simcord_env)
    stop = answer_when_acknowledged(simcord_env)
    try:
        clicked = await alice.click(table_message(channel), label="Your three costliest decisions")
        assert clicked.deferred and clicked.response is not None
        assert clicked.response.flags.loading, "answered while Hard still thinks"
        assert not gate.opened.is_set()
    finally:
        gate.opened.set()
        stop()
    await simcord_env.settle()
    assert said(clicked).startswith("**🔍 Your three costliest decisions**")
