"""The play-anywhere kit as a pytest fixture: ``anywhere``, around the test's ``simcord_env``.

A conftest imports it beside the SimCord fixtures (``tests/testkit/conftest.py`` does); the kit
is entered once the bot runs and left before SimCord shuts down, so other tests never see it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import simcord

from testkit.anywhere import Anywhere


@pytest.fixture
def anywhere(simcord_env: simcord.Env) -> Iterator[Anywhere]:
    with Anywhere(simcord_env) as kit:
        yield kit
