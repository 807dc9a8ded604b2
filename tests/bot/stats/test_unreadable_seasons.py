"""The stats, the leaderboard and its pages while the server's seasons can't be read (the
database failing): the person is told the stats couldn't be loaded, in their language."""

from __future__ import annotations

import simcord

from bot.frontend.custom_ids import BoardId
from bot.i18n import text
from bot.service.ratings.seasons import season_at
from testkit.simcord_play import forged, service
from testkit.slow_store import held

from .games import play_rigged_game
from .test_rating_change import QUICK


def seasons_unread(env: simcord.Env) -> object:
    """Every read of the server's season plans fails, as on a database that is down."""
    return held(service(env).store.ratings, "season_plans", 0, fails=True)


async def test_stats_asked_while_the_seasons_cannot_be_read_say_so(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    await play_rigged_game(simcord_env, channel, [alice, bob], QUICK)
    await simcord_env.advance_time(3)
    with seasons_unread(simcord_env):  # type: ignore[attr-defined]
        result = await alice.slash(channel, "lama stats")
    assert result.response is not None and result.ephemeral
    assert result.response.content == text("en", "stats.failed")


async def test_a_leaderboard_asked_while_the_seasons_cannot_be_read_says_so(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, alice: simcord.MemberActor
) -> None:
    with seasons_unread(simcord_env):  # type: ignore[attr-defined]
        result = await alice.slash(channel, "lama leaderboard")
    assert result.response is not None and result.ephemeral
    assert result.response.content == text("en", "stats.failed")


async def test_a_leaderboard_page_turned_while_the_seasons_cannot_be_read_says_so(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    season = season_at([], simcord_env.now().timestamp()).key
    board = forged(simcord_env, channel, BoardId(guild.id, 1, "rating", season).custom_id)
    with seasons_unread(simcord_env):  # type: ignore[attr-defined]
        result = await alice.click(board, label="Forged")
    assert result.response is not None and result.ephemeral
    assert result.response.content == text("en", "stats.failed"), "not an invalid button"
