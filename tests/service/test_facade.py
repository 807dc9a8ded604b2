"""The facade: its parts are reached by name (the listener and the seed source set on them),
and nothing of Discord is imported."""

from __future__ import annotations

import subprocess
import sys

import pytest

from testkit.service_game import RecordingListener, ServiceGame, eventually, people

ANN, BOB = people("Ann", "Bob")


async def test_setting_the_listener_reaches_the_notices(game: ServiceGame) -> None:
    game.service.notices.listener = None
    table = await game.lobby([ANN, BOB])
    await game.play(table)
    assert game.listener.notices == []
    other = RecordingListener()
    game.service.notices.listener = other
    assert game.service.notices.listener is other
    await game.play(table)
    await eventually(lambda: other.kinds(table.game_id)[:1] == ["changed"])


async def test_the_seed_source_can_be_replaced(game: ServiceGame) -> None:
    game.service.dealer.seed_source = lambda: 5
    first = await game.lobby([ANN, BOB])
    second = await game.lobby([ANN, BOB])
    assert first.match is not None and second.match is not None
    assert first.match.view(0).hand == second.match.view(0).hand
    assert game.service.registry.tables() == [first, second]


@pytest.mark.slow  # over a quarter second on a quiet machine
def test_the_service_imports_nothing_of_discord() -> None:
    code = "import bot.service, sys; print('discord' in sys.modules)"
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert shown.stdout.strip() == "False", shown.stderr
