"""Discord locales for SimCord interactions.

SimCord builds every INTERACTION_CREATE in ``simcord.interactions.base_payload``
and writes ``"locale": "en-US"`` and ``"guild_locale": "en-US"`` into it.  The
``locales`` fixture wraps that one function (looked up by SimCord's actors as
``interactions.base_payload`` at call time, so patching the module attribute is
enough) and fills in what Discord would send: the clicking user's client
language and the guild's preferred locale.
"""

from __future__ import annotations

from typing import Any

import pytest
import simcord
import simcord.interactions


class Locales:
    """Per-user client languages and per-guild locales, as Discord would report them."""

    def __init__(self) -> None:
        self.users: dict[int, str] = {}
        self.guilds: dict[int, str] = {}

    def user(self, member: simcord.MemberActor, locale: str) -> simcord.MemberActor:
        self.users[member.id] = locale
        return member

    def guild(self, guild: simcord.GuildHandle, locale: str) -> None:
        self.guilds[guild.id] = locale


@pytest.fixture
def locales(monkeypatch: pytest.MonkeyPatch) -> Locales:
    chosen = Locales()
    original = simcord.interactions.base_payload

    def base_payload(backend: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = original(backend, **kwargs)
        payload["locale"] = chosen.users.get(kwargs["user_id"], "en-US")
        guild_id = kwargs.get("guild_id")
        if guild_id is not None:
            # Discord's guild_locale is the guild's preferred locale.
            default = backend.get_guild(guild_id).preferred_locale
            payload["guild_locale"] = chosen.guilds.get(guild_id, default)
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", base_payload)
    return chosen
