"""/lama stats and chart through SimCord, checked against the finished matches."""

from __future__ import annotations

import random
import re
import threading
from typing import Any

import discord
import pytest
import simcord

from bot.art.chart import PNG_SIGNATURE
from bot.frontend.views.stats import CHART_FILE
from bot.i18n import text
from bot.service.play.table import Table
from data import EVERYTHING
from testkit.simcord_play import (
    components,
    is_components_v2,
    open_lobby,
    text_blocks,
    texts,
    title,
)
from tests.bot.i18n.conftest import Locales, locales  # noqa: F401  (the fixture)
from tests.bot.test_history import header_picture, llama_picture

from .games import C, Round, insert_random_game, play_rigged_game

# Game A: alice empties round 1 (bob keeps a 4); in round 2 alice quits and bob empties,
# giving a 1-point chip back; alice's 6 ends the game. Bob wins 3 to 6.
GAME_A = [
    Round(hands=[[C.THREE], [C.FOUR]], moves=[(0, C.THREE)]),
    Round(hands=[[C.SIX], [C.THREE]], moves=[(0, "quit"), (1, C.THREE)]),
]
# Game B: alice empties at once; bob's Llama costs 10. Alice wins 0 to 10.
GAME_B = [Round(hands=[[C.THREE], [C.LLAMA]], moves=[(0, C.THREE)])]
# Game C, three players: alice empties; bob pays 2, carol 6. Alice wins.
GAME_C = [Round(hands=[[C.THREE], [C.TWO], [C.SIX]], moves=[(0, C.THREE)])]


FIELD = re.compile(r"\*\*(?P<name>[^*]+):\*\* (?P<value>.+)")


class Played:
    def __init__(
        self,
        env: simcord.Env,
        channel: simcord.ChannelHandle,
        players: dict[str, simcord.MemberActor],
    ) -> None:
        self.env = env
        self.channel = channel
        self.players = players
        self.tables: list[Table] = []


@pytest.fixture
async def played(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> Played:
    bob = guild.add_member(simcord_env.create_user("bob"))
    carol = guild.add_member(simcord_env.create_user("carol"))
    out = Played(simcord_env, channel, {"alice": alice, "bob": bob, "carol": carol})
    for players, rounds in (([alice, bob], GAME_A), ([alice, bob], GAME_B)):
        out.tables.append(await play_rigged_game(simcord_env, channel, players, rounds))
    out.tables.append(await play_rigged_game(simcord_env, channel, [alice, bob, carol], GAME_C))
    await simcord_env.advance_time(3)
    return out


def expected(tables: list[Table], user_id: int) -> dict[str, object]:
    """Stats computed from the finished matches themselves."""
    games = wins = points = rounds = emptied = returned = 0
    best: tuple[int, int] | None = None
    for table in tables:
        seat = table.seat_of(user_id)
        match = table.match
        if seat is None or match is None:
            continue
        games += 1
        wins += seat in match.winners
        points += match.points[seat]
        rounds += len(match.results)
        emptied += sum(r.seats[seat].emptied for r in match.results)
        returned += sum(r.seats[seat].returned for r in match.results)
        if best is None or match.points[seat] < best[0]:
            best = (match.points[seat], table.game_id)
    assert best is not None
    return {
        "games": games,
        "wins": wins,
        "win_rate": wins / games,
        "average": points / games,
        "rounds": rounds,
        "emptied": emptied,
        "returned": returned,
        "best": best,
    }


def fields(message: object) -> dict[str, str]:
    """The stats' "**Name:** value" lines."""
    found = (FIELD.fullmatch(line) for line in texts(message).splitlines())
    return {m["name"]: m["value"] for m in found if m}


def gallery_urls(message: object) -> list[str]:
    """The pictures of a layout's media galleries."""
    return [
        str(item["media"]["url"])
        for c in components(message)
        if c.get("type") == 12
        for item in c["items"]
    ]


async def chart_messages(channel: simcord.ChannelHandle) -> list[discord.Message]:
    return [m for m in channel.history() if any(a.filename == CHART_FILE for a in m.attachments)]


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_stats_match_the_finished_games(played: Played) -> None:
    alice, bob = played.players["alice"], played.players["bob"]
    want = {user.id: expected(played.tables, user.id) for user in (alice, bob)}
    # The scripted deals give these numbers (a check on the scripts themselves).
    assert [want[alice.id][k] for k in ("games", "wins", "average", "emptied", "rounds")] == [
        3,
        2,
        2.0,
        3,
        4,
    ]
    assert [want[bob.id][k] for k in ("games", "wins", "average", "emptied", "returned")] == [
        3,
        1,
        5.0,
        1,
        1,
    ]
    for user, asker in ((alice, alice), (bob, alice)):
        options = {} if user is asker else {"member": user}
        result = await asker.slash(played.channel, "lama stats", **options)
        assert result.response is not None and not result.ephemeral, "stats are shared"
        assert is_components_v2(result.response) and not result.response.embeds
        assert user.name in title(result.response)
        want_user = want[user.id]
        shown = fields(result.response)
        assert shown["Games"] == str(want_user["games"])
        assert shown["Wins"] == str(want_user["wins"])
        assert shown["Win rate"] == f"{want_user['win_rate'] * 100:.0f}%"  # type: ignore[operator]
        assert shown["Average final score"] == f"{want_user['average']:.1f}"
        assert shown["Rounds won by emptying the hand"] == (
            f"{want_user['emptied']} of {want_user['rounds']}"
        )
        assert shown["Points given back with chips"] == str(want_user["returned"])
        points, game_id = want_user["best"]  # type: ignore[misc]
        unit = "point" if points == 1 else "points"
        assert shown["Best game"].startswith(f"{points} {unit} in game #{game_id}, <t:")
        assert shown["Best game"].endswith(":d>")


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_stats_in_the_askers_language(played: Played, locales: Locales) -> None:  # noqa: F811
    bob = locales.user(played.players["bob"], "de")
    result = await bob.slash(played.channel, "lama stats")
    assert result.response is not None
    shown = fields(result.response)
    assert shown["Spiele"] == "3"
    assert shown["Siege"] == "1"
    assert shown["Siegquote"] == "33 %"
    assert shown["Durchschnitt der Endpunkte"] == "5,0"


async def test_a_member_without_games_gets_a_friendly_message(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    dave = guild.add_member(simcord_env.create_user("dave"))
    mine = await alice.slash(channel, "lama stats")
    assert mine.response is not None
    assert mine.response.content == text("en", "stats.none_self")
    theirs = await alice.slash(channel, "lama stats", member=dave)
    assert theirs.response is not None
    assert theirs.response.content == text("en", "stats.none_member", name="dave")
    history = await alice.slash(channel, "lama history")
    assert history.response is not None
    assert history.response.content == text("en", "stats.none_self")
    chart = await alice.slash(channel, "lama chart")
    assert chart.response is not None
    assert chart.response.content == text("en", "chart.none")


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_the_chart_is_posted_once_when_a_game_ends(played: Played) -> None:
    charts = await chart_messages(played.channel)
    assert len(charts) == 3  # one per finished game
    for message, table in zip(charts, played.tables, strict=True):
        assert is_components_v2(message) and not message.embeds
        assert f"Game #{table.game_id}" in title(message)
        data = await message.attachments[0].read()
        assert data.startswith(PNG_SIGNATURE)
    # Another change notice for a finished game posts nothing more.
    presenter = played.env.bot.get_cog("Gameplay").presenter  # type: ignore[attr-defined]
    await presenter.table_changed(played.tables[0])
    await played.env.advance_time(3)
    assert len(await chart_messages(played.channel)) == 3


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_lama_chart_returns_a_png(played: Played) -> None:
    alice, carol = played.players["alice"], played.players["carol"]
    first = played.tables[0].game_id
    result = await alice.slash(played.channel, "lama chart", game_id=first)
    assert result.response is not None and not result.ephemeral
    assert is_components_v2(result.response) and not result.response.embeds
    assert f"Game #{first}" in title(result.response)
    assert "5 points" in texts(result.response)
    assert gallery_urls(result.response) == [result.response.attachments[0].url]
    [attachment] = result.response.attachments
    assert attachment.filename == CHART_FILE
    assert (await attachment.read()).startswith(PNG_SIGNATURE)

    # Without a number: the asker's latest finished game.
    latest = await carol.slash(played.channel, "lama chart")
    assert latest.response is not None
    assert f"Game #{played.tables[2].game_id}" in title(latest.response)
    assert latest.response.attachments


async def test_lama_chart_of_an_unknown_or_foreign_game(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    missing = await alice.slash(channel, "lama chart", game_id=999999)
    assert missing.response is not None and missing.ephemeral
    assert missing.response.content == text("en", "chart.unknown", game=999999)
    assert not missing.response.attachments

    store = simcord_env.bot.store  # type: ignore[attr-defined]
    await insert_random_game(store, 4242, [(1, "x"), (2, "y")], random.Random(1))
    elsewhere = await store.stats.history(4242, 1, limit=1, sight=EVERYTHING)
    game_id = elsewhere[0].game_id
    foreign = await alice.slash(channel, "lama chart", game_id=game_id)
    assert foreign.response is not None
    assert foreign.response.content == text("en", "chart.unknown", game=game_id)


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_lama_chart_falls_back_to_the_servers_latest_game(
    played: Played,
    guild: simcord.GuildHandle,
    locales: Locales,  # noqa: F811
) -> None:
    carol = played.players["carol"]
    dave = guild.add_member(played.env.create_user("dave"))
    store = played.env.bot.store  # type: ignore[attr-defined]
    last_played = played.tables[2].game_id
    hint = "You haven't finished a game in this server yet, so here is the server's latest one."

    # Dave has never played: the server's latest finished game, saying it isn't his.
    result = await dave.slash(played.channel, "lama chart")
    assert result.response is not None and not result.ephemeral
    assert f"\n-# {hint}" in texts(result.response)
    assert title(result.response).startswith(f"📈 Game #{last_played} ")
    [attachment] = result.response.attachments
    assert (await attachment.read()).startswith(PNG_SIGNATURE)

    # The hint is only for the fallback: not on carol's own game, nor on a game asked by number.
    own = await carol.slash(played.channel, "lama chart")
    by_number = await dave.slash(played.channel, "lama chart", game_id=last_played)
    for shown in (own, by_number):
        assert shown.response is not None and shown.response.attachments
        assert title(shown.response).startswith(f"📈 Game #{last_played} ")
        assert hint not in texts(shown.response)

    # In the asker's language.
    erik = locales.user(guild.add_member(played.env.create_user("erik")), "de")
    german = await erik.slash(played.channel, "lama chart")
    assert german.response is not None and german.response.attachments
    assert f"-# {text('de', 'chart.server_latest')}" in texts(german.response)
    assert "-# Du hast auf diesem Server noch kein Spiel" in texts(german.response)

    # A newer game here that carol sat out, then one in another guild (dave's, even),
    # newer still: dave gets the newer game of this server, carol still her own latest.
    here = played.channel.id
    await insert_random_game(
        store, guild.id, [(9001, "erin"), (None, "Bot")], random.Random(2), channel_id=here
    )
    [newer] = await store.stats.history(guild.id, 9001, limit=1, sight=EVERYTHING)
    await insert_random_game(store, 4242, [(dave.id, "dave"), (None, "Bot")], random.Random(3))
    [foreign] = await store.stats.history(4242, dave.id, limit=1, sight=EVERYTHING)
    assert last_played < newer.game_id < foreign.game_id
    for asker, shown, content in ((dave, newer.game_id, hint), (carol, last_played, None)):
        result = await asker.slash(played.channel, "lama chart")
        assert result.response is not None, asker.name
        assert title(result.response).startswith(f"📈 Game #{shown} "), asker.name
        assert result.response.attachments
        assert (hint in texts(result.response)) == (content is not None), asker.name


async def test_lama_chart_without_a_finished_game_in_the_server(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    locales: Locales,  # noqa: F811
) -> None:
    # Alice finished a game in another guild and has a lobby open here: neither counts.
    store = simcord_env.bot.store  # type: ignore[attr-defined]
    await insert_random_game(store, 4242, [(alice.id, "alice"), (None, "Bot")], random.Random(4))
    await open_lobby(simcord_env, alice, channel)

    result = await alice.slash(channel, "lama chart")
    assert result.response is not None and result.ephemeral
    assert result.response.content == (
        "Nobody has finished a L.A.M.A. game in this server yet, so there's no chart to show. "
        "Open a table with /lama new and play one! 🦙"
    )
    assert not result.response.attachments and not result.response.embeds

    bob = locales.user(guild.add_member(simcord_env.create_user("bob")), "de")
    german = await bob.slash(channel, "lama chart")
    assert german.response is not None
    assert (german.response.content or "").startswith(
        "Auf diesem Server hat noch niemand ein L.A.M.A.-Spiel beendet, deshalb gibt es kein "
        "Diagramm."
    )


async def test_lama_chart_names_what_its_font_lacks_beside_the_colours(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """CJK and emoji names are listed in the message beside their line's colour; the chart
    draws the others itself. The PNG is drawn in a worker thread, not on the event loop."""
    store = simcord_env.bot.store  # type: ignore[attr-defined]
    names = [(alice.id, "王小明"), (None, "Жанна"), (None, "Zoë 🦙")]
    await insert_random_game(store, guild.id, names, random.Random(4), channel_id=channel.id)
    [row] = await store.stats.history(guild.id, alice.id, limit=1, sight=EVERYTHING)
    threads: list[threading.Thread] = []
    # The chart is drawn by the stats views, for the command and the game's end alike.
    from bot.frontend.views import stats

    render = stats.render_chip_chart

    def recording(*args: Any, **kwargs: Any) -> bytes:
        threads.append(threading.current_thread())
        png: bytes = render(*args, **kwargs)
        return png

    monkeypatch.setattr(stats, "render_chip_chart", recording)
    result = await alice.slash(channel, "lama chart", game_id=row.game_id)
    assert result.response is not None and result.response.attachments
    lines = text_blocks(result.response)[1].splitlines()
    assert lines[1:] == ["🟦 Player 1: 王小明", "🟩 Player 3: Zoë 🦙"]
    assert threads and threads[0] is not threading.main_thread()


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_the_chart_has_the_llama_card_beside_its_title_as_stats_do(
    played: Played,
) -> None:
    alice = played.players["alice"]
    chart = await alice.slash(played.channel, "lama chart")
    assert chart.response is not None
    assert header_picture(chart.response) == llama_picture(played.env)
    [posted, *_] = await chart_messages(played.channel)
    assert header_picture(posted) == llama_picture(played.env), "the chart posted at the end too"
