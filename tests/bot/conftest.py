"""The Discord fixtures for the front end's tests: a LamaBot inside SimCord, and the kit that
plays it anywhere (``anywhere``: group DMs, servers without the bot, interaction tokens)."""

from tests.anywhere_fixtures import anywhere  # noqa: F401  (a fixture, found by name)
from tests.simcord_fixtures import (  # noqa: F401  (fixtures, found by name)
    alice,
    before_start,
    bob,
    channel,
    cooldowns,
    guild,
    mod,
    pacing,
    settings,
    simcord_bot,
    simcord_env,
    timing,
)
