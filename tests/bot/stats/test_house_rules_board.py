"""/lama leaderboard and the house-rules board: a rating board says where games with house
rules count, switches to the other board and back (ids that round-trip, forged ones
refused), and the season option offers it."""

from __future__ import annotations

import pytest
import simcord

from bot.frontend.custom_ids import BoardId, parse
from bot.i18n import text
from bot.service.ratings.rating_scale import shown
from data.records import HOUSE_RULES
from data.settings import SERVER
from testkit.ratings import Rated
from testkit.simcord_play import forged, service, texts

from .test_leaderboard import buttons, current, rows
from .test_leaderboard_seasons import people, rate, this_season


@pytest.fixture
async def rated(
    simcord_env: simcord.Env, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> tuple[list[Rated], list[Rated]]:
    """Three people rated this season on the server's board, two on the house-rules board."""
    store = simcord_env.bot.store  # type: ignore[attr-defined]
    season = people(3, 40.0)
    house = people(2, 45.0, start=10)
    for one in season:
        await rate(store, guild.id, channel.id, this_season(simcord_env).key, one)
    for one in house:
        await rate(store, guild.id, channel.id, HOUSE_RULES, one)
    return season, house


def names(shown: list[Rated]) -> list[tuple[int, str]]:
    return [(rank, r.name) for rank, r in enumerate(shown, 1)]


def test_the_house_rules_boards_id_round_trips_and_is_one_of_ratings() -> None:
    house = BoardId(123, 2, "rating", HOUSE_RULES)
    assert house.custom_id == "lama:board:123:2:3:house"
    assert parse(house.custom_id.removeprefix("lama:")) == house
    assert parse("board:123:0:0:house") is None  # wins over all time have no such board


async def test_the_server_board_says_house_rules_count_apart_and_switches_to_theirs(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    rated: tuple[list[Rated], list[Rated]],
) -> None:
    season, house = rated
    result = await alice.slash(channel, "lama leaderboard")
    assert result.response is not None
    message = current(channel, result.response.id)
    assert rows(message) == names(season)
    assert text("en", "board.house_apart") in texts(message)
    switch, disabled = buttons(message)["House rules board"]
    assert switch == BoardId(guild.id, 0, "rating", HOUSE_RULES).custom_id and not disabled

    await alice.click(message, label="House rules board")
    message = current(channel, result.response.id)  # edited in place
    assert rows(message) == names(house)
    assert "Skill ratings · House rules, all time" in texts(message)
    assert text("en", "board.house_note") in texts(message)
    back = buttons(message)["Server board"][0]
    assert back == BoardId(guild.id, 0, "rating", this_season(simcord_env).key).custom_id

    await alice.click(message, label="Server board")
    assert rows(current(channel, result.response.id)) == names(season)


async def test_a_server_counting_house_rules_with_every_game_says_so(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    rated: tuple[list[Rated], list[Rated]],
) -> None:
    await service(simcord_env).house_rules.set_board(guild.id, SERVER)
    result = await alice.slash(channel, "lama leaderboard")
    assert result.response is not None
    message = current(channel, result.response.id)
    # The games rated apart before stay on their board, which is still offered, and the
    # server's board says so rather than claiming every house-rules game counts here.
    together = texts(message)
    assert text("en", "board.house_together_earlier") in together
    assert text("en", "board.house_together") not in together
    assert "House rules board" in buttons(message)

    # The house-rules board no longer says the server's board leaves such games out.
    await alice.click(message, label="House rules board")
    message = current(channel, result.response.id)
    assert rows(message) == names(rated[1])
    assert text("en", "board.house_note_before") in texts(message)
    assert text("en", "board.house_note") not in texts(message)


async def test_a_server_counting_house_rules_without_earlier_ones_says_only_that(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    store = simcord_env.bot.store  # type: ignore[attr-defined]
    for one in people(2, 40.0):
        await rate(store, guild.id, channel.id, this_season(simcord_env).key, one)
    await service(simcord_env).house_rules.set_board(guild.id, SERVER)
    result = await alice.slash(channel, "lama leaderboard")
    assert result.response is not None
    message = current(channel, result.response.id)
    assert text("en", "board.house_together") in texts(message)
    assert buttons(message) == {}


async def test_a_server_without_a_house_rules_board_offers_none(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    store = simcord_env.bot.store  # type: ignore[attr-defined]
    for one in people(2, 40.0):
        await rate(store, guild.id, channel.id, this_season(simcord_env).key, one)
    result = await alice.slash(channel, "lama leaderboard")
    assert result.response is not None
    message = current(channel, result.response.id)
    assert text("en", "board.house_apart") in texts(message)
    assert buttons(message) == {}
    choices = await alice.autocomplete(channel, "lama leaderboard", "season", "")
    assert "house" not in [c["value"] for c in choices]


async def test_the_season_option_offers_the_house_rules_board(
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    rated: tuple[list[Rated], list[Rated]],
) -> None:
    _, house = rated
    choices = await alice.autocomplete(channel, "lama leaderboard", "season", "")
    assert {"name": "House rules, all time", "value": "house"} in choices
    result = await alice.slash(channel, "lama leaderboard", season="house")
    assert result.response is not None
    assert rows(result.response) == names(house)


async def test_a_forged_house_board_of_an_old_order_is_refused(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    rated: tuple[list[Rated], list[Rated]],
) -> None:
    cid = f"lama:board:{guild.id}:0:1:house"
    clicked = await alice.click(forged(simcord_env, channel, cid), label="Forged")
    assert clicked.ephemeral and clicked.response is not None
    assert clicked.response.content == text("en", "error.unknown_button")


async def test_stats_show_the_house_rules_rating_beside_the_others(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    store = simcord_env.bot.store  # type: ignore[attr-defined]
    mine = Rated("alice", mu=30.0, sigma=2.0, games=1, user_id=alice.id)
    await rate(store, guild.id, channel.id, HOUSE_RULES, mine)
    result = await alice.slash(channel, "lama stats")
    assert result.response is not None
    shown_here = texts(result.response)
    assert "All time: not rated yet" in shown_here
    assert f"House rules, all time: **{shown(30.0, 2.0)}** · rank 1 · 1 game" in shown_here
