"""The bot's tests: no cooldowns, unless a test is about them (``@pytest.mark.cooldowns``)."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "cooldowns: keep the production per-person cooldowns")


@pytest.fixture(autouse=True)
def no_cooldowns(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests click and ask as fast as they like: a person waits between two tables,
    hints or stats only in the tests that check so."""
    if not request.node.get_closest_marker("cooldowns"):
        monkeypatch.setattr("bot.service.cooldowns.DEFAULTS", {})
