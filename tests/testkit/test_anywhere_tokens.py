"""The kit's REST: the bot token refused where the bot is not, interaction tokens that die after
15 minutes (or earlier), 5 followups where the app is only user-installed, a webhook bucket,
and replies forced ephemeral where Use External Apps is off."""

from __future__ import annotations

import simcord

from testkit.anywhere import WEBHOOK_BUCKET, Anywhere, Place

from .places import app_of, contents, server_with_bot, server_without_bot
from .tiny_app import TinyApp


def codes(app: TinyApp) -> list[tuple[int, int]]:
    return [(failure.status, failure.code) for failure in app.failures]


async def opened_in_group_dm(
    env: simcord.Env, kit: Anywhere
) -> tuple[Place, simcord.UserHandle, int]:
    """Ann (who installed the app) opens a table in a group DM with Ben: place, Ben, table."""
    ann, ben = env.create_user("ann"), env.create_user("ben")
    kit.install(ann)
    place = kit.group_dm(ann, ben)
    await kit.slash(ann, place, "play open")
    return place, ben, kit.shown(place)[0].id


async def test_the_bot_token_is_refused_where_the_bot_is_not(
    simcord_env: simcord.Env, anywhere: Anywhere
) -> None:
    app = app_of(simcord_env)
    place, ben, table = await opened_in_group_dm(simcord_env, anywhere)

    await anywhere.click(ben, place, table, label="Shout")

    assert codes(app) == [(403, 50001)]
    assert anywhere.calls.refused == 1
    assert anywhere.calls.at(place) == (1, 2)  # the shout; the open's and the click's callbacks
    assert contents(anywhere, place) == ["the table"]


async def test_a_bot_token_call_in_a_server_with_the_bot_is_counted_and_served(
    simcord_env: simcord.Env, anywhere: Anywhere
) -> None:
    app = app_of(simcord_env)
    place, (ann,) = server_with_bot(simcord_env, anywhere, "ann")
    await anywhere.slash(ann, place, "play open")

    await anywhere.click(ann, place, anywhere.shown(place)[0].id, label="Shout")

    assert app.failures == []
    assert anywhere.calls.at(place) == (1, 2)
    assert anywhere.calls.refused == 0


async def test_a_token_works_for_15_minutes_of_virtual_time_then_answers_401(
    simcord_env: simcord.Env, anywhere: Anywhere
) -> None:
    app = app_of(simcord_env)
    place, ben, table = await opened_in_group_dm(simcord_env, anywhere)

    await simcord_env.advance_time(14 * 60 + 59)
    await anywhere.click(ben, place, table, label="Refresh")
    await anywhere.click(ben, place, table, label="Ping")
    assert app.failures == []
    assert contents(anywhere, place) == ["refreshed", "your turn"]

    await simcord_env.advance_time(1)
    await anywhere.click(ben, place, table, label="Refresh")
    await anywhere.click(ben, place, table, label="Ping")

    assert codes(app) == [(401, 50027), (401, 50027)]
    assert (anywhere.calls.dead_token, anywhere.calls.unauthorized) == (2, 2)
    assert contents(anywhere, place) == ["refreshed", "your turn"]


async def test_a_token_killed_early_answers_as_told(
    simcord_env: simcord.Env, anywhere: Anywhere
) -> None:
    app = app_of(simcord_env)
    place, ben, table = await opened_in_group_dm(simcord_env, anywhere)

    anywhere.kill(anywhere.token_of(app.opener()), 404)
    await anywhere.click(ben, place, table, label="Refresh")
    anywhere.kill(anywhere.token_of(app.opener()), 401)
    await anywhere.click(ben, place, table, label="Ping")

    assert codes(app) == [(404, 10015), (401, 50027)]
    assert (anywhere.calls.dead_token, anywhere.calls.unauthorized) == (2, 1)


async def test_five_followups_where_the_app_is_only_user_installed_edits_uncounted(
    simcord_env: simcord.Env, anywhere: Anywhere
) -> None:
    app = app_of(simcord_env)
    ann, ben = simcord_env.create_user("ann"), simcord_env.create_user("ben")
    anywhere.install(ann)
    place = anywhere.group_dm(ann, ben)

    await anywhere.slash(ann, place, "play followups", count=6)

    assert codes(app) == [(400, 40094)]
    assert anywhere.calls.followup_cap == 1
    assert contents(anywhere, place) == ["answer, edited"] + [f"followup {n}" for n in range(1, 6)]


async def test_no_followup_cap_where_the_app_is_installed_to_the_server(
    simcord_env: simcord.Env, anywhere: Anywhere
) -> None:
    app = app_of(simcord_env)
    place, (ann,) = server_with_bot(simcord_env, anywhere, "ann")
    anywhere.install(ann)

    await anywhere.slash(ann, place, "play followups", count=7)

    assert app.failures == [] and anywhere.calls.followup_cap == 0
    assert len(anywhere.shown(place)) == 8


async def test_a_token_calling_its_webhooks_too_fast_gets_429_in_virtual_time(
    simcord_env: simcord.Env, anywhere: Anywhere
) -> None:
    app = app_of(simcord_env)
    anywhere.state.webhook_bucket = WEBHOOK_BUCKET
    place, (ann,) = server_with_bot(simcord_env, anywhere, "ann")
    await anywhere.slash(ann, place, "play open")
    table = anywhere.shown(place)[0].id

    for _ in range(6):  # each a followup on the opener's token, in the same virtual instant
        await anywhere.click(ann, place, table, label="Ping")

    assert codes(app) == [(429, 0)]
    assert anywhere.calls.rate_limited == 1
    assert 0 < anywhere.calls.retry_after[-1] <= 2.0
    await simcord_env.advance_time(anywhere.calls.retry_after[-1])
    await anywhere.click(ann, place, table, label="Ping")
    assert len(app.failures) == 1
    assert len(anywhere.shown(place)) == 1 + 6


async def test_replies_are_forced_ephemeral_where_use_external_apps_is_off(
    simcord_env: simcord.Env, anywhere: Anywhere
) -> None:
    place, (ann, ben) = server_without_bot(simcord_env, anywhere, "ann", "ben")
    anywhere.install(ann, ben)
    anywhere.deny_external_apps(place, ann)

    by_ann = await anywhere.slash(ann, place, "play open")
    assert by_ann.ephemeral and anywhere.shown(place) == []
    by_ben = await anywhere.slash(ben, place, "play open")
    assert not by_ben.ephemeral and len(anywhere.shown(place)) == 1
