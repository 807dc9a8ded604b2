"""The start-up's own REST calls (the dev guild's check, the command sync, the card
emojis' listing and uploads) wait their turn at the bot token's budget, as every
other bot-token call does: a restart loop or many processes starting at once stay
within REST_BUDGET."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import simcord

from bot.client import LamaBot
from bot.frontend.faces import PLAIN
from bot.limiter import Limiter, Priority


class Counted(Limiter):
    """The bot's limiter, noting for each call it lets through how many REST calls
    SimCord had seen by then: the next one is the call it was for."""

    def __init__(self, rate: float) -> None:
        super().__init__(rate)
        self.calls: list[Any] = []
        self.granted: list[tuple[int, Priority]] = []

    async def acquire(self, priority: Priority = Priority.TABLE) -> None:
        await super().acquire(priority)
        self.granted.append((len(self.calls), priority))


@pytest.fixture
def simcord_bot(simcord_bot: LamaBot) -> LamaBot:
    simcord_bot.limiter = Counted(simcord_bot.settings.rest_budget)
    return simcord_bot


@pytest.fixture
def before_start() -> Callable[[simcord.Env], object]:
    def watch(env: simcord.Env) -> None:
        limiter = env.bot.limiter  # type: ignore[attr-defined]
        assert isinstance(limiter, Counted)
        limiter.calls = env.backend.http_requests

    return watch


async def test_the_start_ups_calls_wait_their_turn_at_the_rest_budget(
    simcord_env: simcord.Env,
) -> None:
    await simcord_env.settle()
    lama = simcord_env.bot
    assert isinstance(lama, LamaBot) and lama.faces is not PLAIN, "the emojis are uploaded"
    limiter = lama.limiter
    assert isinstance(limiter, Counted)
    app = simcord_env.backend.application_id
    start_up = {
        i: f"{r.method} {r.path}"
        for i, r in enumerate(simcord_env.http_requests)
        if r.path.startswith((f"/applications/{app}/", "/guilds/"))
    }
    kinds = sorted(set(start_up.values()))
    assert kinds == [
        f"GET /applications/{app}/emojis",
        f"GET /guilds/{simcord_env.guild.id}",
        f"POST /applications/{app}/emojis",
        f"PUT /applications/{app}/guilds/{simcord_env.guild.id}/commands",
    ], kinds
    # Nothing else asks the budget here (no game yet): each call had its turn before it,
    # the k-th call no sooner than the k-th turn, whichever task made it.
    bypassed = [
        call
        for k, (i, call) in enumerate(sorted(start_up.items()), 1)
        if sum(1 for at, _ in limiter.granted if at <= i) < k
    ]
    assert not bypassed, f"{len(bypassed)} start-up calls bypassed the budget: {bypassed[:3]}"
    assert len(limiter.granted) == len(start_up)
    # The emojis are cosmetic (plain ones stand in until they are there): last in line.
    emojis = sum(1 for call in start_up.values() if "/emojis" in call)
    cosmetic = sum(1 for _, priority in limiter.granted if priority is Priority.COSMETIC)
    assert cosmetic == emojis
