"""Who sees what: a game in a channel the asker can't see is in none of their answers.

Alice and bob play in ``#secret`` (only they and erin may see it); alice and carol play
in the open ``#lama-table``. Carol and dave can't see ``#secret``; erin can, and never
played. An answer that holds a game not everyone reading the channel may see is private.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord
import pytest
import simcord

from bot.i18n import text
from bot.service.play.table import Status
from testkit.simcord_play import forged, lock, open_lobby, table_message, texts, title

from .games import C, Round, play_rigged_game
from .test_leaderboard import Player, current, footer, players, rows  # noqa: F401  (the fixture)

# Seat 0 empties at once; seat 1's Llama costs 10. Seat 0 wins 0 to 10.
QUICK = [Round(hands=[[C.THREE], [C.LLAMA]], moves=[(0, C.THREE)])]
SEEN = discord.PermissionOverwrite(view_channel=True)


def hidden_channel(
    guild: simcord.GuildHandle, name: str, *members: simcord.MemberActor
) -> simcord.ChannelHandle:
    """A text channel only the bot and ``members`` may see."""
    assert guild.me is not None
    overwrites: dict[Any, discord.PermissionOverwrite] = {
        guild.default_role: discord.PermissionOverwrite(view_channel=False)
    }
    overwrites.update((member, SEEN) for member in (guild.me, *members))
    return guild.create_text_channel(name, overwrites=overwrites)


@dataclass
class World:
    env: simcord.Env
    open: simcord.ChannelHandle
    secret: simcord.ChannelHandle
    open_game: int
    secret_game: int
    alice: simcord.MemberActor
    bob: simcord.MemberActor
    carol: simcord.MemberActor  # can't see #secret, played in the open channel
    dave: simcord.MemberActor  # can't see #secret, never played
    erin: simcord.MemberActor  # sees #secret, never played


@pytest.fixture
async def world(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> World:
    bob, carol, dave, erin = (
        guild.add_member(simcord_env.create_user(name)) for name in ("bob", "carol", "dave", "erin")
    )
    secret = hidden_channel(guild, "secret", alice, bob, erin)
    opened = await play_rigged_game(simcord_env, channel, [alice, carol], QUICK)
    hidden = await play_rigged_game(simcord_env, secret, [alice, bob], QUICK)
    await simcord_env.advance_time(3)
    return World(
        simcord_env, channel, secret, opened.game_id, hidden.game_id, alice, bob, carol, dave, erin
    )


def game_ids(result: simcord.InteractionResult) -> set[int]:
    """The games a /lama history answer lists."""
    assert result.response is not None
    return {int(n) for n in re.findall(r"#(\d+)", texts(result.response))}


def games_field(result: simcord.InteractionResult) -> str:
    assert result.response is not None
    [games] = [
        line for line in texts(result.response).splitlines() if line.startswith("**Games:**")
    ]
    return games.removeprefix("**Games:** ")


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_hidden_game_has_no_chart_for_those_who_cant_see_it(world: World) -> None:
    missing = 999_999
    for asker in (world.carol, world.dave):
        hidden = await asker.slash(world.open, "lama chart", game_id=world.secret_game)
        nothing = await asker.slash(world.open, "lama chart", game_id=missing)
        for result, game in ((hidden, world.secret_game), (nothing, missing)):
            assert result.response is not None and result.ephemeral, asker.name
            assert result.response.content == text("en", "chart.unknown", game=game)
            assert not result.response.attachments and not result.response.embeds
        # Without a number, dave gets the server's latest game he may see: not #secret's.
    latest = await world.dave.slash(world.open, "lama chart")
    assert latest.response is not None and latest.response.attachments
    assert f"Game #{world.open_game} " in title(latest.response)

    # Erin may see #secret: she gets its chart there, and as the server's latest.
    for options in ({"game_id": world.secret_game}, {}):
        shown = await world.erin.slash(world.secret, "lama chart", **options)
        assert shown.response is not None and not shown.ephemeral
        assert f"Game #{world.secret_game} " in title(shown.response)


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_history_and_stats_leave_out_a_hidden_game(world: World) -> None:
    # Carol sees alice's open game only, and nothing of bob's.
    history = await world.carol.slash(world.open, "lama history", member=world.alice)
    assert game_ids(history) == {world.open_game}
    assert not history.ephemeral
    stats = await world.carol.slash(world.open, "lama stats", member=world.alice)
    assert games_field(stats) == "1"
    for command in ("lama history", "lama stats"):
        bobs = await world.carol.slash(world.open, command, member=world.bob)
        assert bobs.response is not None and bobs.ephemeral
        assert bobs.response.content == text("en", "stats.none_member", name="bob")

    # Erin, in #secret, sees both of alice's games, and bob's.
    history = await world.erin.slash(world.secret, "lama history", member=world.alice)
    assert game_ids(history) == {world.open_game, world.secret_game}
    assert not history.ephemeral
    stats = await world.erin.slash(world.secret, "lama stats", member=world.bob)
    assert games_field(stats) == "1" and not stats.ephemeral


#: The answers that hold games (the leaderboard by wins: these games are rated by nobody).
ASKED: list[tuple[str, dict[str, str]]] = [
    ("lama history", {}),
    ("lama stats", {}),
    ("lama leaderboard", {"order": "wins"}),
]


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_an_answer_with_a_hidden_game_is_private_where_others_read(world: World) -> None:
    # Alice asks in the open channel: her #secret game is there, for her eyes only.
    for command, options in ASKED:
        result = await world.alice.slash(world.open, command, **options)
        assert result.response is not None and result.ephemeral, command
    assert game_ids(await world.alice.slash(world.open, "lama history")) == {
        world.open_game,
        world.secret_game,
    }
    chart = await world.alice.slash(world.open, "lama chart", game_id=world.secret_game)
    assert chart.response is not None and chart.response.attachments and chart.ephemeral
    # The open game's chart is for everyone; in #secret everything is.
    chart = await world.alice.slash(world.open, "lama chart", game_id=world.open_game)
    assert chart.response is not None and chart.response.attachments and not chart.ephemeral
    for command, options in ASKED:
        result = await world.alice.slash(world.secret, command, **options)
        assert result.response is not None and not result.ephemeral, command


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_an_answer_where_the_asker_may_not_write_is_theirs_alone(
    world: World, guild: simcord.GuildHandle
) -> None:
    """In a read-only channel (announcements, one locked by a moderator) a member's
    stats, history, board or chart would be a message of theirs where they can't write:
    they get it privately."""
    lock(world.env, guild, world.open)
    chart: tuple[str, dict[str, object]] = ("lama chart", {"game_id": world.open_game})
    for command, options in [*ASKED, chart]:
        result = await world.carol.slash(world.open, command, **options)
        assert result.response is not None and result.ephemeral, command
        assert result.response.content != text("en", "stats.failed"), command
    # A board posted before the lock: a page she turns is hers, the board stays as it was.
    board = forged(world.env, world.open, f"lama:board:{guild.id}:0:0:all")
    turned = await world.carol.click(board, label="Forged")
    assert turned.ephemeral and turned.response is not None and "carol" in texts(turned.response)


def board_names(result: simcord.InteractionResult) -> list[str]:
    assert result.response is not None
    return [name for _rank, name in rows(result.response)]


async def test_the_leaderboard_counts_only_the_games_the_asker_sees(world: World) -> None:
    carols = await world.carol.slash(world.open, "lama leaderboard", order="wins")
    assert board_names(carols) == ["alice", "carol"]
    assert carols.response is not None
    assert "1 game" in texts(carols.response)
    assert "2 games" not in texts(carols.response)
    assert not carols.ephemeral
    erins = await world.erin.slash(world.secret, "lama leaderboard", order="wins")
    assert board_names(erins) == ["alice", "bob", "carol"]
    assert erins.response is not None
    assert "2 wins · 2 games" in texts(erins.response)


async def test_a_deleted_channels_games_stay_with_their_players(world: World) -> None:
    world.env.backend.delete_channel(world.secret.id)
    await world.env.advance_time(1)
    # Bob played there: his game is still his. Erin, who only watched, no longer sees it.
    mine = await world.bob.slash(world.open, "lama history")
    assert game_ids(mine) == {world.secret_game} and mine.ephemeral
    theirs = await world.erin.slash(world.open, "lama history", member=world.bob)
    assert theirs.response is not None
    assert theirs.response.content == text("en", "stats.none_member", name="bob")
    chart = await world.erin.slash(world.open, "lama chart", game_id=world.secret_game)
    assert chart.response is not None and chart.ephemeral
    assert chart.response.content == text("en", "chart.unknown", game=world.secret_game)


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_page_turned_by_someone_who_sees_more_is_theirs_alone(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    players: list[Player],  # noqa: F811
) -> None:
    """Fifteen people's games in the open channel, and alice's and bob's in #secret."""
    bob, carol = (guild.add_member(simcord_env.create_user(name)) for name in ("bob", "carol"))
    secret = hidden_channel(guild, "secret", alice, bob)
    await play_rigged_game(simcord_env, secret, [alice, bob], QUICK)
    await simcord_env.advance_time(3)
    shared = await carol.slash(channel, "lama leaderboard", order="wins")
    assert shared.response is not None and not shared.ephemeral
    first = current(channel, shared.response.id)
    assert "alice" not in texts(first)

    # Alice's next page would count #secret: she gets it privately, the shared one stays.
    turned = await alice.click(first, label="Next")
    assert turned.response is not None and turned.ephemeral
    assert footer(turned.response).startswith("Page 2/2 ·")
    assert texts(current(channel, shared.response.id)) == texts(first)
    # Carol's own turn edits the shared message, still without #secret's game.
    await carol.click(first, label="Next")
    second = current(channel, shared.response.id)
    assert footer(second).startswith("Page 2/2 ·")
    assert "alice" not in texts(second)


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_the_rating_board_lists_only_those_the_asker_sees_play(world: World) -> None:
    """Bob's only rated game is in #secret: carol's board has no bob, erin's has."""
    carols = await world.carol.slash(world.open, "lama leaderboard")
    assert carols.response is not None and not carols.ephemeral
    assert sorted(board_names(carols)) == ["alice", "carol"]
    erins = await world.erin.slash(world.secret, "lama leaderboard")
    assert erins.response is not None and not erins.ephemeral
    assert sorted(board_names(erins)) == ["alice", "bob", "carol"]
    # Alice's #secret game counts on her board: in the open channel it is hers alone.
    alices = await world.alice.slash(world.open, "lama leaderboard")
    assert alices.response is not None and alices.ephemeral
    assert "bob" in board_names(alices)


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_game_every_person_left_in_a_hidden_channel_is_hidden_on_the_rating_board(
    world: World, guild: simcord.GuildHandle
) -> None:
    """Frank's only rated game is one he left against an AI in #vault (only he sees it):
    rated, it is a game of that channel like a finished one, so carol's board has no
    frank, and frank's own board in the open channel is his alone."""
    frank = guild.add_member(world.env.create_user("frank"))
    vault = hidden_channel(guild, "vault", frank)
    table = await open_lobby(world.env, frank, vault)
    await frank.select(table_message(vault), ["normal"])
    await frank.click(table_message(vault), label="Start")
    await frank.slash(vault, "lama leave")
    assert table.status is Status.CANCELLED
    await world.env.advance_time(3)
    carols = await world.carol.slash(world.open, "lama leaderboard")
    assert carols.response is not None and not carols.ephemeral
    assert "frank" not in board_names(carols)
    franks = await frank.slash(world.open, "lama leaderboard")
    assert franks.response is not None and franks.ephemeral
    assert "frank" in board_names(franks)
