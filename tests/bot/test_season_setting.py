"""Through SimCord: /lama settings season, a new length, a new season now, monthly again,
lengths out of range refused with the range, members without Manage Server refused."""

from __future__ import annotations

import math

import pytest
import simcord

from bot.service.ratings.seasons import DAY
from testkit.simcord_play import private, service

from .i18n.conftest import Locales, locales  # noqa: F401  (a fixture, found by name)


async def test_a_member_without_manage_server_is_refused(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    answer = private(
        await alice.slash(channel, "lama settings season", length="14", start_now=True)
    )
    assert "Manage Server" in answer
    assert await service(simcord_env).store.ratings.season_plans(guild.id) == []


async def test_without_options_the_season_in_force_is_shown(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    mod: simcord.MemberActor,
) -> None:
    answer = private(await mod.slash(channel, "lama settings season"))
    season = await service(simcord_env).seasons.current(guild.id)
    assert answer == (
        "Rating seasons in this server last a calendar month (UTC). The season under way "
        f"began <t:{season.start}:f> and ends <t:{season.end}:f>."
    )
    assert await service(simcord_env).store.ratings.season_plans(guild.id) == []


async def test_a_new_length_keeps_the_season_under_way_and_start_now_begins_one(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    mod: simcord.MemberActor,
) -> None:
    month = await service(simcord_env).seasons.current(guild.id)
    answer = private(await mod.slash(channel, "lama settings season", length="90"))
    season = await service(simcord_env).seasons.current(guild.id)
    assert season.start == month.start and season.end == month.start + 90 * DAY
    assert answer == (
        "The season setting is saved.\nRating seasons in this server last 90 days. The season "
        f"under way began <t:{season.start}:f> and ends <t:{season.end}:f>."
    )

    now = service(simcord_env).clock()  # SimCord's clock
    answer = private(await mod.slash(channel, "lama settings season", start_now=True))
    started = await service(simcord_env).seasons.current(guild.id)
    assert started.start == math.ceil(now)
    assert started.days == 90, "a new season now keeps the length in force"
    assert answer.startswith("A new season started just now;")
    assert f"<t:{started.start}:f>" in answer

    answer = private(await mod.slash(channel, "lama settings season", length="Monthly"))
    assert "last a calendar month (UTC)" in answer
    assert (await service(simcord_env).seasons.current(guild.id)).days is None


@pytest.mark.parametrize(
    ("locale", "typed", "said"),
    [
        ("en-US", "Monthly", "last a calendar month (UTC)"),
        ("en-US", "month", "last a calendar month (UTC)"),
        ("de", "monatlich", "dauern einen Kalendermonat (UTC)"),
        ("de", " Monatlich ", "dauern einen Kalendermonat (UTC)"),
        ("es-ES", "mensual", "duran un mes natural (UTC)"),
        ("pl", "miesięcznie", "trwają miesiąc kalendarzowy (UTC)"),
        ("pl", "co miesiąc", "trwają miesiąc kalendarzowy (UTC)"),
        ("pl", "Co miesiac", "trwają miesiąc kalendarzowy (UTC)"),  # typed without ą
        ("en-US", "monatlich", "last a calendar month (UTC)"),  # any of the four languages
    ],
)
async def test_monthly_may_be_typed_in_the_persons_language(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    mod: simcord.MemberActor,
    locales: Locales,  # noqa: F811
    locale: str,
    typed: str,
    said: str,
) -> None:
    """The refusal names the word in the person's language: that word is taken too."""
    await mod.slash(channel, "lama settings season", length="14")
    locales.user(mod, locale)
    answer = private(await mod.slash(channel, "lama settings season", length=typed))
    assert said in answer
    assert (await service(simcord_env).seasons.current(guild.id)).days is None


@pytest.mark.parametrize("locale", ["en-US", "de", "es-ES", "pl"])
async def test_the_word_the_refusal_names_for_monthly_is_taken(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    mod: simcord.MemberActor,
    locales: Locales,  # noqa: F811
    locale: str,
) -> None:
    await mod.slash(channel, "lama settings season", length="14")
    locales.user(mod, locale)
    refused = private(await mod.slash(channel, "lama settings season", length="weekly"))
    named = refused.rsplit("(", 1)[1].rstrip(").")  # "… einen Kalendermonat (monatlich)."
    assert named != "monthly" or locale == "en-US", "named in the person's language"
    private(await mod.slash(channel, "lama settings season", length=named))
    assert (await service(simcord_env).seasons.current(guild.id)).days is None


@pytest.mark.parametrize("length", ["6", "366", "0", "-7", "weekly"])
async def test_a_length_out_of_range_is_refused_with_the_range(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    mod: simcord.MemberActor,
    locales: Locales,  # noqa: F811
    length: str,
) -> None:
    answer = private(await mod.slash(channel, "lama settings season", length=length))
    assert answer == "A season lasts from 7 to 365 days, or a calendar month (monthly)."
    locales.user(mod, "de")
    answer = private(
        await mod.slash(channel, "lama settings season", length=length, start_now=True)
    )
    assert answer == "Eine Saison dauert 7 bis 365 Tage oder einen Kalendermonat (monatlich)."
    assert await service(simcord_env).store.ratings.season_plans(guild.id) == []


async def test_the_answer_follows_the_persons_language(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    mod: simcord.MemberActor,
    locales: Locales,  # noqa: F811
) -> None:
    locales.user(mod, "pl")
    answer = private(await mod.slash(channel, "lama settings season", length="22"))
    assert answer.startswith("Ustawienie sezonów zostało zapisane.\nSezony rankingowe")
    assert "trwają 22 dni." in answer


async def test_typing_a_length_suggests_it_with_monthly_and_the_usual_ones(
    channel: simcord.ChannelHandle, mod: simcord.MemberActor
) -> None:
    choices = await mod.autocomplete(channel, "lama settings season", "length", "45")
    assert [c["value"] for c in choices] == ["monthly", "45", "7", "14", "30", "90", "365"]
    assert choices[0]["name"] == "Monthly (calendar months, UTC)"
    assert choices[1]["name"] == "45 days"


@pytest.mark.parametrize("typed", ["3", "0", "366", "100000", "²"])
async def test_a_length_out_of_range_is_not_suggested(
    channel: simcord.ChannelHandle, mod: simcord.MemberActor, typed: str
) -> None:
    """The suggestions are lengths the command takes: one out of 7 to 365 would be
    offered, picked and then refused."""
    choices = await mod.autocomplete(channel, "lama settings season", "length", typed)
    assert [c["value"] for c in choices] == ["monthly", "7", "14", "30", "90", "365"]
