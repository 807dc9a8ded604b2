"""/lama stats with ratings: the rating this season and all time with the rank, and the rating
over time as a picture drawn off the event loop; none without a rated game in sight."""

from __future__ import annotations

import random
import threading
from typing import Any

import discord
import pytest
import simcord

from bot.art.chart import PNG_SIGNATURE
from bot.art.rating_chart import RatingSeries
from bot.frontend.views import player_stats
from bot.frontend.views.player_stats import RATING_FILE
from bot.service.ratings.rating_scale import shown
from bot.service.ratings.seasons import season_at
from data import EVERYTHING
from data.ratings import user_player
from data.records import ALL_TIME
from data.store import Store
from testkit.ratings import Rated, put_change, put_rating
from testkit.simcord_play import (
    components,
    is_components_v2,
    open_lobby,
    table_message,
    texts,
    title,
)
from tests.bot.i18n.conftest import Locales, locales  # noqa: F401  (the fixture)

from .games import insert_random_game

SEEN = discord.PermissionOverwrite(view_channel=True)
NEW = (25.0, 25 / 3)


def gallery_urls(message: object) -> list[str]:
    return [
        str(item["media"]["url"])
        for c in components(message)
        if c.get("type") == 12
        for item in c["items"]
    ]


async def game_of(store: Store, guild_id: int, channel_id: int, user_id: int, seed: int) -> int:
    seats = [(user_id, "alice"), (None, "Bot")]
    await insert_random_game(store, guild_id, seats, random.Random(seed), channel_id=channel_id)
    [row] = await store.stats.history(guild_id, user_id, limit=1, sight=EVERYTHING)
    return row.game_id


class Recorded:
    """The rating charts drawn: their lines, and the thread each was drawn in."""

    def __init__(self) -> None:
        self.series: list[list[RatingSeries]] = []
        self.threads: list[threading.Thread] = []


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> Recorded:
    out = Recorded()
    render = player_stats.render_rating_chart

    def recording(series: list[RatingSeries], **kwargs: Any) -> bytes:
        out.series.append(series)
        out.threads.append(threading.current_thread())
        return render(series, **kwargs)

    monkeypatch.setattr(player_stats, "render_rating_chart", recording)
    return out


@pytest.fixture
async def rated(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> simcord.ChannelHandle:
    """Alice: three rated games all time (the last in #secret, which only she and the
    bot see), the last two this season; rank 1 this season, rank 2 all time (behind
    Hard). Returns #secret."""
    assert guild.me is not None
    secret = guild.create_text_channel(
        "secret",
        overwrites={
            guild.default_role: discord.PermissionOverwrite(view_channel=False),
            guild.me: SEEN,
            alice: SEEN,
        },
    )
    store = simcord_env.bot.store  # type: ignore[attr-defined]
    season = season_at([], simcord_env.now().timestamp()).key
    places = (channel.id, channel.id, secret.id)
    games = [await game_of(store, guild.id, c, alice.id, i) for i, c in enumerate(places)]
    me = user_player(alice.id)
    steps = [NEW, (27.0, 7.0), (29.0, 6.0), (31.0, 5.0)]
    for game, before, after in zip(games, steps[:-1], steps[1:], strict=True):
        await put_change(store, guild.id, ALL_TIME, game, 0, me, before, after)
    season_steps = [NEW, (28.0, 7.0), (30.0, 6.0)]
    for game, before, after in zip(games[1:], season_steps[:-1], season_steps[1:], strict=True):
        await put_change(store, guild.id, season, game, 0, me, before, after)
    await put_rating(store, guild.id, ALL_TIME, Rated("alice", 31.0, 5.0, 3, user_id=alice.id))
    await put_rating(store, guild.id, ALL_TIME, Rated("hard", 40.0, 2.0, 9, ai="hard"))
    await put_rating(store, guild.id, season, Rated("alice", 30.0, 6.0, 2, user_id=alice.id))
    return secret


async def test_stats_show_the_rating_and_its_picture(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    rated: simcord.ChannelHandle,
    recorded: Recorded,
) -> None:
    result = await alice.slash(rated, "lama stats")
    assert result.response is not None and not result.ephemeral
    message = result.response
    assert is_components_v2(message) and not message.embeds and not message.content
    assert title(message) == "📊 alice — L.A.M.A. stats"
    shown_text = texts(message)
    season = f"This season (January 2026): **{shown(30.0, 6.0)}** · rank 1 · 2 games"
    assert season in shown_text
    assert f"All time: **{shown(31.0, 5.0)}** · rank 2 · 3 games" in shown_text
    assert "**Games:** 3" in shown_text  # the numbers of the finished games are there too

    [attachment] = message.attachments
    assert attachment.filename == RATING_FILE
    assert gallery_urls(message) == [attachment.url]
    assert (await attachment.read()).startswith(PNG_SIGNATURE)
    # Drawn in a worker thread: all time from a newcomer's 1000 through each game, and
    # this season beside it from its first game on.
    assert recorded.threads and recorded.threads[0] is not threading.main_thread()
    [lines] = recorded.series
    assert lines[0].label == "All time"
    assert lines[0].points == (
        (0, 1000),
        (1, shown(27.0, 7.0)),
        (2, shown(29.0, 6.0)),
        (3, shown(31.0, 5.0)),
    )
    assert lines[1].label == "This season (January 2026)"
    assert lines[1].points == ((1, 1000), (2, shown(28.0, 7.0)), (3, shown(30.0, 6.0)))


async def test_the_picture_holds_only_the_games_the_asker_sees(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    rated: simcord.ChannelHandle,
    recorded: Recorded,
) -> None:
    bob = guild.add_member(simcord_env.create_user("bob"))  # can't see #secret
    result = await bob.slash(channel, "lama stats", member=alice)
    assert result.response is not None and not result.ephemeral
    assert "**Games:** 2" in texts(result.response)
    [lines] = recorded.series
    assert [game for game, _ in lines[0].points] == [0, 1, 2]  # not #secret's game
    # Alice asking in the open channel sees her #secret game: for her eyes only.
    mine = await alice.slash(channel, "lama stats")
    assert mine.response is not None and mine.ephemeral and mine.response.attachments


async def test_without_a_rated_game_no_picture(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    recorded: Recorded,
    locales: Locales,  # noqa: F811
) -> None:
    store = simcord_env.bot.store  # type: ignore[attr-defined]
    await game_of(store, guild.id, channel.id, alice.id, 7)  # finished, never rated
    result = await alice.slash(channel, "lama stats")
    assert result.response is not None
    assert is_components_v2(result.response) and not result.response.attachments
    assert not gallery_urls(result.response) and not recorded.series
    assert "This season (January 2026): not rated yet" in texts(result.response)
    assert "All time: not rated yet" in texts(result.response)
    german = locales.user(alice, "de")
    result = await german.slash(channel, "lama stats")
    assert result.response is not None
    assert "Gesamte Zeit: noch nicht gewertet" in texts(result.response)
    assert "Diese Saison (Januar 2026): noch nicht gewertet" in texts(result.response)


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_person_rated_only_for_a_game_they_left_sees_that_rating(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, alice: simcord.MemberActor
) -> None:
    """alice left her only game, against an AI: it is rated as her loss, though no game
    of hers finished. /lama stats shows that rating and says why no game is counted,
    instead of telling her she has none."""
    await open_lobby(simcord_env, alice, channel)
    await alice.select(table_message(channel), ["easy"])
    await alice.click(table_message(channel), label="Start")
    await alice.slash(channel, "lama leave")
    result = await alice.slash(channel, "lama stats")
    assert result.response is not None
    shown = texts(result.response) or str(result.response.content)
    assert "You haven't finished" not in shown
    assert "All time: **" in shown, shown
    assert "No finished game here yet: the rating also counts games left" in shown, shown
