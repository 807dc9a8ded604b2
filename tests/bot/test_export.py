"""Through SimCord: /lama export gives a server's admin a CSV of its finished games,
privately; everyone else is refused; a server without games, and one with more games than
a file may hold, get told so; games in a channel the admin can't see are left out."""

from __future__ import annotations

import csv
import io
import random

import discord
import pytest
import simcord

from bot.client import LamaBot
from bot.service.history.export import BOM, COLUMNS
from bot.service.ratings.rating_scale import shown
from cogs.export import ExportCommands
from data import EVERYTHING, Store
from data.records import ALL_TIME
from testkit.simcord_play import service

from .i18n.conftest import Locales, locales  # noqa: F401  (a fixture, found by name)
from .stats.games import C, Round, insert_random_game, play_rigged_game


def store_of(env: simcord.Env) -> Store:
    return service(env).store


async def exported(result: simcord.InteractionResult) -> tuple[str, list[list[str]]]:
    """The private answer's words and the attached file's rows (the header first)."""
    assert result.ephemeral and result.response is not None, "an export is private"
    [attachment] = result.response.attachments
    assert attachment.filename.startswith("lama-game") and attachment.filename.endswith(".csv")
    data = await attachment.read()
    assert data.startswith(BOM)
    rows = list(csv.reader(io.StringIO(data[len(BOM) :].decode("utf-8"), newline="")))
    assert rows[0] == list(COLUMNS)
    return result.response.content, rows


async def test_an_admin_gets_the_servers_games_privately(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
    mod: simcord.MemberActor,
) -> None:
    # Alice empties her hand at once; Bob's Llama costs 10: over at threshold 5.
    quick = [Round(hands=[[C.THREE], [C.LLAMA]], moves=[(0, C.THREE)])]
    table = await play_rigged_game(simcord_env, channel, [alice, bob], quick)
    result = await mod.slash(channel, "lama export")
    assert result.response is not None
    assert result.response.attachments[0].filename.startswith(f"lama-games-{channel.guild.id}-")
    note, rows = await exported(result)
    assert note == "This server's 1 finished game, one row per player and game."
    by_seat = {row[3]: row for row in rows[1:]}
    assert len(rows) == 3
    alice_row, bob_row = by_seat["0"], by_seat["1"]
    assert alice_row[0] == str(table.game_id) and alice_row[2] == str(channel.id)
    assert (alice_row[4], alice_row[7], alice_row[11]) == (str(alice.id), "0", "1")
    assert (bob_row[4], bob_row[7], bob_row[8:11], bob_row[11]) == (
        str(bob.id),
        "10",
        ["0", "1", "0"],  # one black chip
        "2",
    )
    assert alice_row[1].endswith("Z") and "T" in alice_row[1], "ISO 8601, UTC"
    # Rated once it finished: both newcomers (1000) before; after, the season's rating.
    changes = await store_of(simcord_env).ratings.rating_changes(table.game_id)
    season = {c.seat: c for c in changes if c.season != ALL_TIME}
    assert set(season) == {0, 1}
    for row, seat in ((alice_row, 0), (bob_row, 1)):
        assert row[12] == "1000"
        assert row[13] == str(shown(season[seat].mu_after, season[seat].sigma_after))
    assert int(alice_row[13]) > int(bob_row[13]), "the winner's rating climbed more"


async def test_a_member_without_manage_server_is_refused(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    locales: Locales,  # noqa: F811
) -> None:
    await insert_random_game(
        store_of(simcord_env),
        channel.guild.id,
        [(alice.id, "Alice"), (None, "Bot")],
        random.Random(3),
        channel_id=channel.id,
    )
    result = await alice.slash(channel, "lama export")
    assert result.ephemeral and result.response is not None
    assert not result.response.attachments
    assert result.response.content == (
        "Only members with the Manage Server permission can export this server's games."
    )
    locales.user(alice, "de")
    result = await alice.slash(channel, "lama export")
    assert result.response is not None and "„Server verwalten“" in result.response.content


async def test_a_server_without_finished_games_is_told_so(
    channel: simcord.ChannelHandle,
    mod: simcord.MemberActor,
    locales: Locales,  # noqa: F811
) -> None:
    result = await mod.slash(channel, "lama export")
    assert result.ephemeral and result.response is not None
    assert not result.response.attachments
    assert "no finished L.A.M.A. games in this server that you can see" in result.response.content
    locales.user(mod, "pl")
    result = await mod.slash(channel, "lama export")
    assert result.response is not None and "nie ma czego eksportować" in result.response.content


async def test_more_games_than_a_file_holds_the_most_recent_and_says_so(
    simcord_env: simcord.Env,
    simcord_bot: LamaBot,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    mod: simcord.MemberActor,
) -> None:
    store, rng = store_of(simcord_env), random.Random(7)
    players = [(alice.id, "Alice"), (None, "Bot")]
    for _ in range(6):
        await insert_random_game(store, channel.guild.id, players, rng, channel_id=channel.id)
    _, every = await exported(await mod.slash(channel, "lama export"))
    assert len(every) == 1 + 2 * 6
    # The same bot with room for about three games in a file.
    whole = sum(len(",".join(row)) + 2 for row in every) + len(BOM)
    per_game = (whole - len(",".join(COLUMNS)) - 2 - len(BOM)) // 6
    await simcord_bot.remove_cog("Export")
    await simcord_bot.add_cog(ExportCommands(simcord_bot, cap=whole - 3 * per_game))
    note, rows = await exported(await mod.slash(channel, "lama export"))
    shown = (len(rows) - 1) // 2
    assert 0 < shown < 6
    assert note == (
        f"The {shown} most recent of this server's 6 finished games, one row per player "
        "and game: all of them would not fit in one file."
    )
    newest = [row[0] for row in every[1::2]][:shown]
    assert [row[0] for row in rows[1::2]] == newest, "the newest games, each whole"


async def test_games_in_a_channel_the_admin_cannot_see_are_left_out(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    mod: simcord.MemberActor,
) -> None:
    assert guild.me is not None
    seen = discord.PermissionOverwrite(view_channel=True)
    secret = guild.create_text_channel(
        "secret",
        overwrites={
            guild.default_role: discord.PermissionOverwrite(view_channel=False),
            guild.me: seen,
            alice: seen,
        },
    )
    store, rng = store_of(simcord_env), random.Random(11)
    players = [(alice.id, "Alice"), (None, "Bot")]
    await insert_random_game(store, guild.id, players, rng, channel_id=secret.id)
    await insert_random_game(store, guild.id, players, rng, channel_id=channel.id)
    note, rows = await exported(await mod.slash(channel, "lama export"))
    assert {row[2] for row in rows[1:]} == {str(channel.id)}
    assert note.startswith("This server's 1 finished game")
    # Alice sees both channels, but has no Manage Server: refused all the same.
    refused = await alice.slash(channel, "lama export")
    assert refused.response is not None and not refused.response.attachments


async def test_one_game_and_games_that_are_not_there_for_the_asker(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    mod: simcord.MemberActor,
    locales: Locales,  # noqa: F811
) -> None:
    assert guild.me is not None
    secret = guild.create_text_channel(
        "secret",
        overwrites={
            guild.default_role: discord.PermissionOverwrite(view_channel=False),
            guild.me: discord.PermissionOverwrite(view_channel=True),
        },
    )
    store, rng = store_of(simcord_env), random.Random(5)
    players = [(alice.id, "Alice"), (None, "Bot")]
    await insert_random_game(store, guild.id, players, rng, channel_id=channel.id)
    await insert_random_game(store, guild.id, players, rng, channel_id=channel.id)
    [latest] = await store.stats.history(guild.id, alice.id, limit=1, sight=EVERYTHING)
    one = await mod.slash(channel, "lama export", game_id=latest.game_id)
    assert one.response is not None
    assert one.response.attachments[0].filename == f"lama-game-{latest.game_id}.csv"
    note, rows = await exported(one)
    assert note == "This server's 1 finished game, one row per player and game."
    assert {row[0] for row in rows[1:]} == {str(latest.game_id)} and len(rows) == 3

    await insert_random_game(store, guild.id + 1, players, rng)  # another server's
    await insert_random_game(store, guild.id, players, rng, channel_id=secret.id)
    foreign = (await store.stats.history(guild.id + 1, alice.id, limit=1, sight=EVERYTHING))[
        0
    ].game_id
    hidden = (await store.stats.history(guild.id, alice.id, limit=1, sight=EVERYTHING))[0].game_id
    for game_id in (foreign, hidden, 999_999, 2**53 - 1):
        result = await mod.slash(channel, "lama export", game_id=game_id)
        assert result.ephemeral and result.response is not None
        assert not result.response.attachments
        assert result.response.content == (
            f"There's no finished game #{game_id} in this server that you can see. "
            "/lama history lists games with their numbers."
        )
    locales.user(mod, "es")
    result = await mod.slash(channel, "lama export", game_id=hidden)
    assert result.response is not None
    assert result.response.content.startswith(f"No hay ninguna partida terminada #{hidden}")


@pytest.mark.cooldowns
async def test_an_admin_exports_once_a_minute(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, mod: simcord.MemberActor
) -> None:
    first = await mod.slash(channel, "lama export")
    assert first.response is not None and "nothing to export" in first.response.content
    again = await mod.slash(channel, "lama export")
    assert again.ephemeral and again.response is not None
    assert again.response.content == "You're doing that too often. Please try again in 60 seconds."
    await simcord_env.advance_time(60)
    later = await mod.slash(channel, "lama export")
    assert later.response is not None and "nothing to export" in later.response.content
