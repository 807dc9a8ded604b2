"""Numbers too big for the store, in a custom_id or a slash command's option, get the usual
clear private answer before they reach the store: no "Something went wrong", and at most
one log line, without a traceback."""

from __future__ import annotations

import logging

import pytest
import simcord

from bot.frontend.custom_ids import MAX_STORED
from bot.i18n import text
from testkit.simcord_play import forged, two_player_game
from tests.simcord_fixtures import DEV_GUILD_ID

TOO_BIG = "9999999999999999999"  # 19 digits, past SQLite's and PostgreSQL's 2**63 - 1
JUST_TOO_BIG = str(2**63)


@pytest.mark.parametrize(
    "custom_id",
    [
        f"lama:review:{TOO_BIG}",
        f"lama:hint:{JUST_TOO_BIG}",
        f"lama:rematch:{TOO_BIG}",
        f"lama:join:{TOO_BIG}",
        f"lama:hand:{TOO_BIG}",
        f"lama:draw:{TOO_BIG}:1",
        f"lama:play:1:{TOO_BIG}:3",
        f"lama:seat:{TOO_BIG}:0",
        f"lama:board:{TOO_BIG}:0:0",
        f"lama:board:{DEV_GUILD_ID}:{TOO_BIG}:0",
        f"lama:replay:{TOO_BIG}:0:next",
        f"lama:replay:1:{JUST_TOO_BIG}:open",
    ],
)
@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_an_oversized_number_in_a_custom_id_is_an_unknown_button(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    caplog: pytest.LogCaptureFixture,
    custom_id: str,
) -> None:
    caplog.set_level(logging.INFO)
    result = await alice.click(forged(simcord_env, channel, custom_id), label="Forged")

    assert result.ephemeral and result.response is not None
    assert result.response.content == text("en", "error.unknown_button")
    problems = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(problems) <= 1 and all(r.exc_info is None for r in problems), problems


async def test_an_oversized_id_while_a_game_runs_changes_nothing(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
    caplog: pytest.LogCaptureFixture,
) -> None:
    table = await two_player_game(simcord_env, alice, bob, channel)
    before = table.stamp
    result = await alice.click(
        forged(simcord_env, channel, f"lama:draw:{table.game_id}:{TOO_BIG}"), label="Forged"
    )
    assert result.ephemeral and result.response is not None
    assert "Something went wrong" not in result.response.content
    assert table.stamp == before
    assert not [r for r in caplog.records if r.exc_info is not None]


@pytest.mark.parametrize("game_id", [2**53 - 1, 2**31])  # Discord (and SimCord) refuse more
async def test_the_largest_game_number_for_the_chart_is_answered_privately(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    caplog: pytest.LogCaptureFixture,
    game_id: int,
) -> None:
    result = await alice.slash(channel, "lama chart", game_id=game_id)

    assert result.ephemeral and result.response is not None
    assert result.response.content == text("en", "chart.unknown", game=game_id)
    assert not [r for r in caplog.records if r.exc_info is not None]


@pytest.mark.parametrize("order", [0, 3], ids=["wins", "rating"])
async def test_the_largest_leaderboard_page_shows_the_last_page(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    caplog: pytest.LogCaptureFixture,
    order: int,
) -> None:
    """A page number the store holds, but ten rows a page past it: the board's last page
    (here: that nothing is rated yet), as for any page past the end."""
    custom_id = f"lama:board:{DEV_GUILD_ID}:{MAX_STORED}:{order}:all"
    result = await alice.click(forged(simcord_env, channel, custom_id), label="Forged")

    assert result.response is not None
    assert "Something went wrong" not in str(result.response.content)
    assert not [r for r in caplog.records if r.exc_info is not None]


@pytest.mark.parametrize("season", [MAX_STORED, 10**12], ids=["largest", "year-33658"])
@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_season_key_past_the_calendar_is_an_unknown_season(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    caplog: pytest.LogCaptureFixture,
    season: int,
) -> None:
    """A season key (its start, unix seconds) the store holds but no calendar reaches,
    on a forged Next or typed into /lama leaderboard's season: a season this server
    never had, as any other."""
    custom_id = f"lama:board:{DEV_GUILD_ID}:0:3:{season}"
    clicked = await alice.click(forged(simcord_env, channel, custom_id), label="Forged")
    typed = await alice.slash(channel, "lama leaderboard", season=str(season))

    assert clicked.response is not None
    assert clicked.response.content == text("en", "error.unknown_button")
    assert typed.ephemeral and typed.response is not None
    assert "Something went wrong" not in str(typed.response.content)
    assert not [r for r in caplog.records if r.exc_info is not None]


@pytest.mark.parametrize(
    "typed", ["²", "٣", "1" * 5000], ids=["superscript", "arabic-indic", "5000-digits"]
)
async def test_a_season_typed_in_other_digits_is_answered_as_unknown(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    caplog: pytest.LogCaptureFixture,
    typed: str,
) -> None:
    """Characters Python counts as digits but not as a number ("²"), a number in
    another script, or more digits than Python reads (4,300; Discord lets 6,000 be
    typed): /lama leaderboard's season is one this server never had."""
    result = await alice.slash(channel, "lama leaderboard", season=typed)

    assert result.ephemeral and result.response is not None
    assert "Something went wrong" not in str(result.response.content)
    assert not [r for r in caplog.records if r.exc_info is not None]
