"""A hint or a review being thought when the bot shuts down: the player is told, in
their language, that the bot is restarting, and the shutdown isn't held up by it."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import simcord

from bot.service.play.table import Status
from testkit.simcord_play import open_hand, service, table_message, take_simple_turn
from tests.bot.i18n.conftest import Locales, locales  # noqa: F401 (the fixture)

from .test_hints import hint_button, quit_or_draw_game, said

RESTARTING = "The bot is restarting, so I couldn't finish that. Please ask again in a minute."


class Gate:
    """Holds the AI's next piece of thinking (as a long search would take) until opened."""

    def __init__(self, env: simcord.Env) -> None:
        self.entered = threading.Event()
        self.opened = threading.Event()
        thinking = service(env).thinking
        real_run = thinking.run

        async def held(work: Any, *args: Any, **options: Any) -> Any:
            self.entered.set()
            await asyncio.to_thread(self.opened.wait)
            return await real_run(work, *args, **options)

        thinking.run = held  # type: ignore[method-assign]

    async def reached(self) -> None:
        for _ in range(2000):
            if self.entered.is_set():
                return
            await asyncio.sleep(0.01)
        raise AssertionError("the AI was never asked")


async def shut_down_while(
    env: simcord.Env, asking: Callable[[], Awaitable[Any]], *, opened_at_close: bool = False
) -> Any:
    """``asking`` (a click, a command) until the AI thinks for it, then the bot's
    shutdown; the AI's thinking ends once the shutdown began (``opened_at_close``)
    or never before the shutdown is over.  What the player was answered."""
    gate = Gate(env)
    asked = asyncio.create_task(asking())
    try:
        await gate.reached()
        closing = asyncio.create_task(env.bot.close())
        if opened_at_close:
            while not service(env).hints.closing:  # the shutdown is waiting for the searches
                await asyncio.sleep(0.01)
            gate.opened.set()
        await asyncio.wait_for(closing, timeout=60)
        gate.opened.set()
        return await asked
    finally:
        gate.opened.set()


async def finished_game(
    env: simcord.Env, alice: simcord.MemberActor, bob: simcord.MemberActor, channel: Any
) -> Any:
    table = await quit_or_draw_game(env, alice, bob, channel)
    await take_simple_turn(alice, channel)  # draws, where Hard would quit
    await take_simple_turn(bob, channel)  # plays his last card: the game is over
    assert table.status is Status.FINISHED
    return table


@pytest.mark.slow  # waits the shutdown's grace in real time
async def test_a_review_cut_short_by_a_shutdown_says_the_bot_is_restarting(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    await finished_game(simcord_env, alice, bob, channel)
    final = table_message(channel)
    clicked = await shut_down_while(
        simcord_env, lambda: alice.click(final, label="Your three costliest decisions")
    )
    assert said(clicked) == RESTARTING


@pytest.mark.slow  # waits the shutdown's grace in real time
async def test_lama_review_cut_short_by_a_shutdown_says_so_in_the_players_language(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
    locales: Locales,  # noqa: F811
) -> None:
    await finished_game(simcord_env, alice, bob, channel)
    locales.user(alice, "de")
    typed = await shut_down_while(simcord_env, lambda: alice.slash(channel, "lama review"))
    assert said(typed) == (
        "Der Bot startet gerade neu, deshalb konnte ich das nicht zu Ende bringen. "
        "Frag bitte in einer Minute noch einmal."
    )


@pytest.mark.slow  # waits the shutdown's grace in real time
async def test_a_hint_cut_short_by_a_shutdown_says_the_bot_is_restarting(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    await quit_or_draw_game(simcord_env, alice, bob, channel)
    hand = await open_hand(alice, channel)
    clicked = await shut_down_while(
        simcord_env, lambda: alice.click(hand, custom_id=hint_button(hand)[0])
    )
    assert said(clicked) == RESTARTING


@pytest.mark.slow  # the AI's real worker processes
async def test_a_hint_done_within_the_shutdowns_grace_is_still_given(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    service(simcord_env).timing.answer_grace = 60.0  # however slow the machine is
    await quit_or_draw_game(simcord_env, alice, bob, channel)
    typed = await shut_down_while(
        simcord_env, lambda: alice.slash(channel, "lama hint"), opened_at_close=True
    )
    assert said(typed).startswith("💡 **Quit**: your hand costs 1 now")
