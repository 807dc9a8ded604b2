"""/lama leaderboard by rating: the current season by default, all time, a past season picked
by its dates, the AI strengths among the rated, paging that keeps the season, and the
season option's refusals."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
import simcord

from bot.frontend.custom_ids import BoardId
from bot.frontend.words import season_label
from bot.i18n import text
from bot.service.ratings.rating_scale import shown
from bot.service.ratings.seasons import Season, month_start, season_at
from data import EVERYTHING
from data.records import ALL_TIME, SeasonPlan
from testkit.ratings import Rated, put_change, put_rating
from testkit.simcord_play import forged, is_components_v2, texts, title
from tests.bot.i18n.conftest import Locales, locales  # noqa: F401  (the fixture)
from tests.service.test_seasons import utc

from .games import insert_random_game
from .test_leaderboard import buttons, current, footer, rows

SIGMA = 2.0


def this_season(env: simcord.Env) -> Season:
    """The season under way in SimCord's Discord (the bot's clock is its clock)."""
    return season_at([], env.now().timestamp())


@dataclass
class Boards:
    current: int  # the current season's key
    past: int  # last month's
    season: list[Rated]  # best first
    all_time: list[Rated]
    old: list[Rated]


def people(count: int, base: float, start: int = 0) -> list[Rated]:
    """``count`` people, best first, each a little below the one before."""
    return [
        Rated(f"p{i + 1:02d}", mu=base - i, sigma=SIGMA, games=1 + i % 4, user_id=7001 + i)
        for i in range(start, start + count)
    ]


async def rate(store: object, guild_id: int, channel_id: int, season: int, rated: Rated) -> None:
    """``rated`` on the board of ``season``, with a rated game of theirs in ``channel_id``."""
    seats = [(rated.user_id, rated.name), (None, "Bot")]
    rng = random.Random(rated.player + str(season))
    await insert_random_game(store, guild_id, seats, rng, channel_id=channel_id)  # type: ignore[arg-type]
    [game] = await store.stats.history(guild_id, rated.user_id, limit=1, sight=EVERYTHING)  # type: ignore[attr-defined]
    await put_rating(store, guild_id, season, rated)  # type: ignore[arg-type]
    before, after = (25.0, 25 / 3), (rated.mu, rated.sigma)
    await put_change(store, guild_id, season, game.game_id, 0, rated.player, before, after)  # type: ignore[arg-type]


@pytest.fixture
async def boards(
    simcord_env: simcord.Env, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> Boards:
    """12 people and Hard rated this season (p01 best, Hard between p02 and p03), 3 people
    all time, 2 last month."""
    store = simcord_env.bot.store  # type: ignore[attr-defined]
    now = this_season(simcord_env)
    past = month_start(now.start - 1)
    season = people(12, 40.0)
    hard = Rated("hard", mu=38.5, sigma=SIGMA, games=7, ai="hard")
    for rated in season:
        await rate(store, guild.id, channel.id, now.key, rated)
    await put_rating(store, guild.id, now.key, hard)
    all_time = people(3, 30.0)
    for rated in all_time:
        await put_rating(store, guild.id, ALL_TIME, rated)
    old = people(2, 50.0, start=20)
    for rated in old:
        await rate(store, guild.id, channel.id, past, rated)
    ranked = sorted([*season, hard], key=lambda r: -(r.mu - 3 * r.sigma))
    return Boards(now.key, past, ranked, all_time, old)


def expected(rated: list[Rated]) -> list[tuple[int, str]]:
    return [(rank, r.name if r.ai is None else "🤖 Hard AI") for rank, r in enumerate(rated, 1)]


def ratings_shown(message: object) -> list[int]:
    return [int(line.split("**")[-2]) for line in texts(message).splitlines() if " — **" in line]


async def test_the_current_season_by_rating_is_the_default(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    boards: Boards,
) -> None:
    result = await alice.slash(channel, "lama leaderboard")
    assert result.response is not None and not result.ephemeral
    message = current(channel, result.response.id)
    assert is_components_v2(message) and not message.embeds
    assert title(message) == "🏆 L.A.M.A. leaderboard — rating"
    now = this_season(simcord_env)
    assert f"Skill ratings · {season_label('en', now.start, now.end)}" in texts(message)
    assert season_label("en", now.start, now.end) == "January 2026"  # SimCord's calendar
    assert rows(message) == expected(boards.season)[:10]
    assert ratings_shown(message) == [shown(r.mu, r.sigma) for r in boards.season][:10]
    assert "🤖 Hard AI — **" in texts(message), "the AI strengths are rated players"
    assert "🥇 p01 — **" in texts(message)
    assert footer(message).startswith("Page 1/2 ·")

    # Paging keeps the order and the season, in the ids.
    cid = buttons(message)["Next"][0]
    assert cid == BoardId(guild.id, 1, "rating", boards.current).custom_id
    await alice.click(message, label="Next")
    turned = current(channel, result.response.id)
    assert rows(turned) == expected(boards.season)[10:]
    assert footer(turned).startswith("Page 2/2 ·")


async def test_all_time_and_a_past_season(
    channel: simcord.ChannelHandle, alice: simcord.MemberActor, boards: Boards
) -> None:
    result = await alice.slash(channel, "lama leaderboard", season="all")
    assert result.response is not None
    assert rows(result.response) == expected(boards.all_time)
    assert "Skill ratings · All time" in texts(result.response)

    past = await alice.slash(channel, "lama leaderboard", season=str(boards.past))
    assert past.response is not None
    assert rows(past.response) == expected(boards.old)
    assert ratings_shown(past.response) == [shown(r.mu, r.sigma) for r in boards.old]
    assert "Skill ratings · December 2025" in texts(past.response)


async def test_the_season_option_offers_the_rated_seasons_by_their_dates(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    boards: Boards,
    locales: Locales,  # noqa: F811
) -> None:
    now = this_season(simcord_env)
    choices = await alice.autocomplete(channel, "lama leaderboard", "season", "")
    values = [c["value"] for c in choices]
    assert values == ["current", "all", str(boards.past)]
    names = [c["name"] for c in choices]
    assert names[0] == f"This season ({season_label('en', now.start, now.end)})"
    assert names[1] == "All time"
    assert names[2] == season_label("en", boards.past, now.start) == "December 2025"

    # Typing narrows them; in Polish, the month's own name.
    typed = await alice.autocomplete(channel, "lama leaderboard", "season", "all")
    assert [c["value"] for c in typed] == ["all"]
    pasted = await alice.autocomplete(channel, "lama leaderboard", "season", str(boards.past))
    assert [c["value"] for c in pasted] == [str(boards.past)]
    polish = locales.user(alice, "pl")
    choices = await polish.autocomplete(channel, "lama leaderboard", "season", "")
    assert [c["name"] for c in choices] == [
        "Ten sezon (styczeń 2026)",
        "Cały czas",
        "grudzień 2025",
    ]


async def test_a_season_that_is_not_one_is_refused(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    boards: Boards,
) -> None:
    for typed in ("yesterday", str(boards.past + 1)):
        result = await alice.slash(channel, "lama leaderboard", season=typed)
        assert result.response is not None and result.ephemeral
        assert result.response.content == text("en", "season.unknown")
    # A forged page of a season that never was: an unknown button, no board.
    forged_id = BoardId(guild.id, 0, "rating", boards.past + 1).custom_id
    clicked = await alice.click(forged(simcord_env, channel, forged_id), label="Forged")
    assert clicked.ephemeral and clicked.response is not None
    assert clicked.response.content == text("en", "error.unknown_button")


async def test_the_old_orders_count_all_time_only(
    channel: simcord.ChannelHandle, alice: simcord.MemberActor, boards: Boards
) -> None:
    refused = await alice.slash(channel, "lama leaderboard", order="wins", season="current")
    assert refused.response is not None and refused.ephemeral
    assert refused.response.content == text("en", "board.season_old_order")
    refused = await alice.slash(
        channel, "lama leaderboard", order="average", season=str(boards.past)
    )
    assert refused.response is not None and refused.ephemeral
    allowed = await alice.slash(channel, "lama leaderboard", order="wins", season="all")
    assert allowed.response is not None and not allowed.ephemeral
    assert title(allowed.response) == "🏆 L.A.M.A. leaderboard — most wins"


async def test_an_empty_season_says_so(
    channel: simcord.ChannelHandle, alice: simcord.MemberActor
) -> None:
    result = await alice.slash(channel, "lama leaderboard")
    assert result.response is not None and result.ephemeral
    assert (result.response.content or "").startswith("Nobody is rated yet (")


async def test_the_board_in_german(
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    boards: Boards,
    locales: Locales,  # noqa: F811
) -> None:
    german = locales.user(alice, "de")
    result = await german.slash(channel, "lama leaderboard", season=str(boards.past))
    assert result.response is not None
    assert title(result.response).endswith("— Wertung")
    assert "Spielstärke-Wertung · Dezember 2025" in texts(result.response)
    assert "🥇 p21 — **" in texts(result.response) and "· 2 Spiele" in texts(result.response)


async def test_a_rated_season_that_starts_no_season_leaves_the_others_offered(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    boards: Boards,
) -> None:
    """A season key the plans don't start (a store edited by hand, a plan gone) is left
    out, and the seasons that are there are still offered."""
    store = simcord_env.bot.store  # type: ignore[attr-defined]
    now = this_season(simcord_env)
    await rate(store, guild.id, channel.id, now.key + 5, people(1, 20.0, start=90)[0])
    assert now.key + 5 in await store.ratings.rated_seasons(guild.id)
    choices = await alice.autocomplete(channel, "lama leaderboard", "season", "")
    assert [c["value"] for c in choices] == ["current", "all", str(boards.past)]


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_season_that_ends_during_a_day_is_named_up_to_that_day(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    """A season whose end is not at midnight runs into the day it ends on: its last day
    is that one, not the day before, and ending at noon on the 1st it is no calendar
    month."""
    store = simcord_env.bot.store  # type: ignore[attr-defined]
    # 30 days from noon on 1 November; cut short at 14:30 on 15 December by calendar months.
    await store.rating_writes.add_season_plan(guild.id, SeasonPlan(utc(2025, 11, 1, 12), 30))
    await store.rating_writes.add_season_plan(guild.id, SeasonPlan(utc(2025, 12, 15, 14, 30), None))
    dash = "\u2009–\u2009"  # Babel's, between thin spaces
    named = {
        utc(2025, 11, 1, 12): f"Nov 1{dash}Dec 1, 2025",  # not "November 2025"
        utc(2025, 12, 1, 12): f"Dec 1{dash}15, 2025",  # not "Dec 1 – 14, 2025"
        utc(2025, 12, 15, 14, 30): f"Dec 15{dash}31, 2025",  # ends at midnight: the day before
    }
    for i, key in enumerate(named):
        await rate(store, guild.id, channel.id, key, people(1, 30.0, start=40 + i)[0])

    choices = await alice.autocomplete(channel, "lama leaderboard", "season", "")
    offered = {c["value"]: c["name"] for c in choices}
    assert {key: offered.get(str(key)) for key in named} == named
    for key, name in named.items():
        board = await alice.slash(channel, "lama leaderboard", season=str(key))
        assert board.response is not None and not board.ephemeral
        assert f"Skill ratings · {name}" in texts(board.response)
