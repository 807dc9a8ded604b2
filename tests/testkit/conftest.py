"""The kit's tests run a tiny discord.py app (``tiny_app``) in SimCord, with the kit around it."""

from __future__ import annotations

import pytest

from tests.anywhere_fixtures import anywhere  # noqa: F401  (a fixture, found by name)

from .tiny_app import TinyApp


@pytest.fixture
def simcord_bot() -> TinyApp:
    return TinyApp()
