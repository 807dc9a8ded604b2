"""The kit across a restart of the bot, for clicks by people who never installed the app, and
gone once left: SimCord as it was for every other test."""

from __future__ import annotations

import simcord
import simcord.actors
import simcord.interactions
from simcord.http import router

from testkit.anywhere import Anywhere

from .places import app_of, contents, server_without_bot
from .tiny_app import TinyApp


async def test_a_restarted_bot_still_never_hears_of_the_places_and_answers_their_buttons(
    simcord_env: simcord.Env, anywhere: Anywhere
) -> None:
    ann, ben = simcord_env.create_user("ann"), simcord_env.create_user("ben")
    anywhere.install(ann)
    group = anywhere.group_dm(ann, ben)
    server = anywhere.botless_server()
    cat = anywhere.guild(server).add_member(simcord_env.create_user("cat"))
    anywhere.install(cat)
    await anywhere.slash(ann, group, "play open")
    await anywhere.slash(cat, server, "play open")

    fresh = TinyApp()
    await simcord_env.restart_bot(fresh)

    assert fresh.get_guild(server.guild_id or 0) is None
    assert fresh.get_channel(group.channel_id) is None
    await anywhere.click(ben, group, anywhere.shown(group)[0].id, label="Move")
    await anywhere.click(cat, server, anywhere.shown(server)[0].id, label="Move")
    assert contents(anywhere, group) == ["moved by ben"]
    assert contents(anywhere, server) == ["moved by cat"]
    assert anywhere.calls.at(group)[0] == anywhere.calls.at(server)[0] == 0


async def test_a_member_who_never_installed_presses_the_installers_button(
    simcord_env: simcord.Env, anywhere: Anywhere
) -> None:
    app = app_of(simcord_env)
    place, (ann, ben) = server_without_bot(simcord_env, anywhere, "ann", "ben")
    anywhere.install(ann)
    await anywhere.slash(ann, place, "play open")

    click = await anywhere.click(ben, place, anywhere.shown(place)[0].id, label="Move")

    assert anywhere.owners(click) == {"1": str(ann.id)}
    assert not app.seen[-1].is_user_integration()
    assert len(anywhere.live(place)) == 1


async def test_once_left_the_kit_leaves_simcord_as_it_was(simcord_env: simcord.Env) -> None:
    routes = {method: list(entries) for method, entries in router._ROUTES.items()}
    base_payload = simcord.interactions.base_payload
    with Anywhere(simcord_env) as kit:
        assert routes != router._ROUTES
        kit.group_dm(simcord_env.create_user("ann"), simcord_env.create_user("ben"))
    assert routes == router._ROUTES
    assert simcord.interactions.base_payload is base_payload
    guild = simcord_env.create_guild("Lounge")
    ann = guild.add_member(simcord_env.create_user("ann"))
    opened = await ann.slash(guild.create_text_channel("games"), "play open")
    assert opened.acknowledged
