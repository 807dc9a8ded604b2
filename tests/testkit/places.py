"""Where the kit's tests play: the tiny app, a server with or without it, what a place shows."""

from __future__ import annotations

import simcord

from testkit.anywhere import Anywhere, Place

from .tiny_app import TinyApp


def app_of(env: simcord.Env) -> TinyApp:
    assert isinstance(env.bot, TinyApp)
    return env.bot


def server_with_bot(
    env: simcord.Env, kit: Anywhere, *names: str
) -> tuple[Place, list[simcord.MemberActor]]:
    """A server with the bot, a text channel and these members (none installed the app)."""
    guild = env.create_guild("Lounge")
    place = kit.place(guild.create_text_channel("games"))
    return place, [guild.add_member(env.create_user(name)) for name in names]


def server_without_bot(
    env: simcord.Env, kit: Anywhere, *names: str
) -> tuple[Place, list[simcord.MemberActor]]:
    """A server of people only, its text channel and these members (none installed the app)."""
    place = kit.botless_server("Friends")
    guild = kit.guild(place)
    return place, [guild.add_member(env.create_user(name)) for name in names]


def contents(kit: Anywhere, place: Place) -> list[str | None]:
    """The texts of the public messages the place shows, oldest first."""
    return [shown.content for shown in kit.shown(place)]
