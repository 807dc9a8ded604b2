"""The Discord fixtures for the process tests: a LamaBot inside SimCord."""

from tests.simcord_fixtures import (  # noqa: F401  (fixtures, found by name)
    alice,
    before_start,
    bob,
    channel,
    cooldowns,
    guild,
    pacing,
    settings,
    simcord_bot,
    simcord_env,
    timing,
)
