"""What /lama settings rules and /lama new offer as one types: saved names, editions, rules."""

from __future__ import annotations

import logging
from typing import cast

from discord import app_commands

from bot.service import ServiceError

from .cog_host import CogHost
from .replies import Interaction
from .views.house_rules import edition_options, rule_options, saved_options

log = logging.getLogger(__name__)


def _choices(pairs: list[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=name, value=value) for name, value in pairs]


async def saved_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The server's saved house rules whose names hold what was typed (none outside a
    server, or if the store can't say: a refusal at the submit then says why)."""
    if interaction.guild_id is None:
        return []
    service = cast(CogHost, interaction.client).service
    try:
        saved = await service.house_rules.saved(interaction.guild_id)
    except ServiceError as error:
        log.warning("saved house rules could not be read: %s", error)
        return []
    return _choices(saved_options(saved, current))


async def edition_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    return _choices(edition_options(interaction.locale, current))


async def rule_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    return _choices(rule_options(interaction.locale, current))
