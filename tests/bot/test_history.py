"""/lama history through SimCord: a V2 layout of the latest finished games, a Replay beside each."""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from bot.frontend.views.layout import MAX_COMPONENTS
from bot.service.play.table import Table
from testkit.simcord_play import components, is_components_v2, texts, title
from tests.bot.i18n.conftest import Locales, locales  # noqa: F401  (the fixture)
from tests.bot.stats.games import C, Round, play_rigged_game

# Alice empties round 1 (bob keeps a 4); in round 2 alice quits and bob empties, giving a
# 1-point chip back; alice's 6 ends the game. Bob wins 3 to 6.
GAME_A = [
    Round(hands=[[C.THREE], [C.FOUR]], moves=[(0, C.THREE)]),
    Round(hands=[[C.SIX], [C.THREE]], moves=[(0, "quit"), (1, C.THREE)]),
]
# Alice empties at once; bob's Llama costs 10. Alice wins 0 to 10.
GAME_B = [Round(hands=[[C.THREE], [C.LLAMA]], moves=[(0, C.THREE)])]
# Three players: alice empties; bob pays 2, carol 6. Alice wins.
GAME_C = [Round(hands=[[C.THREE], [C.TWO], [C.SIX]], moves=[(0, C.THREE)])]


def rows(message: Any) -> list[tuple[str, str]]:
    """Each listed game: its line, and the id of the button beside it."""
    return [
        (str(c["components"][0]["content"]), str(c["accessory"]["custom_id"]))
        for c in components(message)
        if c.get("type") == 9 and c["accessory"].get("type") == 2
    ]


def llama_picture(env: simcord.Env) -> str:
    """The llama card's picture, the application's own emoji, as the header shows it."""
    [llama] = [e for e in env.backend.application_emojis.values() if e.name == "lama_llama"]
    return f"https://cdn.discordapp.com/emojis/{llama.id}.png"


def header_picture(message: Any) -> str | None:
    """The picture beside a layout's first text (its title), if there is one."""
    first = next(c for c in components(message) if c.get("type") in (9, 10))
    if first.get("type") == 9 and first["accessory"].get("type") == 11:
        return str(first["accessory"]["media"]["url"])
    return None


async def three_games(
    env: simcord.Env,
    channel: simcord.ChannelHandle,
    players: list[simcord.MemberActor],
) -> list[Table]:
    alice, bob, carol = players
    tables = [
        await play_rigged_game(env, channel, [alice, bob], GAME_A),
        await play_rigged_game(env, channel, [alice, bob], GAME_B),
        await play_rigged_game(env, channel, [alice, bob, carol], GAME_C),
    ]
    await env.advance_time(3)
    return tables


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_history_lists_the_games_newest_first_each_with_its_replay(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    carol = guild.add_member(simcord_env.create_user("carol"))
    tables = await three_games(simcord_env, channel, [alice, bob, carol])
    result = await alice.slash(channel, "lama history")
    assert result.response is not None and not result.ephemeral
    assert is_components_v2(result.response) and not result.response.embeds
    assert title(result.response) == "🕑 alice — recent L.A.M.A. games"
    listed = rows(result.response)
    assert len(listed) == 3
    for (line, replay), table in zip(listed, reversed(tables), strict=True):
        assert f"game #{table.game_id}" in line
        assert replay == f"lama:replay:{table.game_id}:0:open"
        match = table.match
        assert match is not None
        seat = table.seat_of(alice.id)
        assert seat is not None
        assert f"**{match.points[seat]}** point" in line
        assert f"{len(table.seats)} players" in line
        winners = ", ".join(table.seats[w].name for w in match.winners)
        assert line.endswith(f"won by {winners}")
        assert line.startswith("🏆 ") == (seat in match.winners)
    assert "place 1" in listed[0][0] and "place 2" in listed[2][0]
    assert "🎬 Replay" in texts(result.response).splitlines()[-1], "the footer says so"

    theirs = await alice.slash(channel, "lama history", member=carol)
    assert theirs.response is not None
    [(line, _replay)] = rows(theirs.response)
    assert f"game #{tables[2].game_id}" in line and "place 3" in line

    # A row's Replay opens that game's replay, for the clicker alone.
    shown = await bob.click(result.response, custom_id=listed[1][1])
    assert shown.response is not None and shown.ephemeral
    assert f"🎬 Replay of game #{tables[1].game_id}" in texts(shown.response)


@pytest.mark.slow  # ten whole games
async def test_ten_games_fit_discords_limits_in_the_askers_language(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
    locales: Locales,  # noqa: F811
) -> None:
    for _ in range(11):
        await play_rigged_game(simcord_env, channel, [alice, bob], GAME_B)
    german = locales.user(alice, "de")
    result = await german.slash(channel, "lama history")
    assert result.response is not None
    listed = rows(result.response)
    assert len(listed) == 10, "the latest ten"
    assert len(components(result.response)) <= MAX_COMPONENTS
    assert title(result.response) == "🕑 alice — letzte L.A.M.A.-Spiele"
    assert all("Spiel #" in line and "Platz 1" in line for line, _ in listed)
    assert {c.get("label") for c in components(result.response) if c.get("type") == 2} == {
        "Wiederholung"
    }


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_history_has_the_llama_card_beside_its_title_as_stats_do(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    carol = guild.add_member(simcord_env.create_user("carol"))
    await three_games(simcord_env, channel, [alice, bob, carol])
    stats = await alice.slash(channel, "lama stats")
    history = await alice.slash(channel, "lama history")
    assert stats.response is not None and history.response is not None
    assert header_picture(stats.response) == llama_picture(simcord_env)
    assert header_picture(history.response) == llama_picture(simcord_env)
