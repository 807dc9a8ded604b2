"""``python -m bot forget``: a server's data deleted, a person's id and name removed."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import simcord

from bot.bot import discord_clock
from bot.config import Settings
from bot.startup import open_store
from bot.tables import Status
from data.forget import FORMER_PLAYER
from tests.bot.play import one_move_from_the_end, take_simple_turn
from tests.conftest import DEV_GUILD_ID
from tests.persistence.common import rows
from tests.test_config import _run_bot


async def _finished_game(
    env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> simcord.MemberActor:
    bob = guild.add_member(env.create_user("bob"))
    table = await one_move_from_the_end(env, alice, bob, channel)
    await take_simple_turn(alice, channel)
    assert table.status is Status.FINISHED
    await env.shutdown()
    await env.bot.close()
    return bob


async def test_forgetting_a_user_keeps_the_others_results(
    simcord_env: simcord.Env,
    settings: Settings,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    bob = await _finished_game(simcord_env, guild, channel, alice)
    path = Path(settings.database_path)
    folder = path.parent
    (folder / ".env").write_text(f"DATABASE_PATH={path}\n", encoding="utf-8")

    result = _run_bot(folder, "forget", "--user", str(alice.id))

    assert result.returncode == 0, result.stderr
    assert "1 seat(s) made anonymous, 1 game(s) without a host" in result.stdout
    assert rows(path, "SELECT COUNT(*) FROM seats WHERE user_id = ?", (alice.id,)) == [(0,)]
    assert rows(path, "SELECT COUNT(*) FROM games WHERE host_id = ?", (alice.id,)) == [(0,)]
    assert rows(path, "SELECT COUNT(*) FROM seats WHERE name = 'alice'") == [(0,)]
    assert rows(path, "SELECT name FROM seats WHERE seat = 0") == [(FORMER_PLAYER,)]
    store = await open_store(Settings(token="", database_path=path), clock=discord_clock)
    try:
        assert await store.player_stats(DEV_GUILD_ID, alice.id) is None
        stats = await store.player_stats(DEV_GUILD_ID, bob.id)
        assert stats is not None and stats.games == 1 and stats.name == "bob"
    finally:
        await store.close()


async def test_forgetting_a_server_deletes_its_games_and_settings(
    simcord_env: simcord.Env,
    settings: Settings,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    await _finished_game(simcord_env, guild, channel, alice)
    path = Path(settings.database_path)
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute(
            "INSERT INTO guild_settings (guild_id, language) VALUES (?, 'de')", (DEV_GUILD_ID,)
        )
    (path.parent / ".env").write_text(f"DATABASE_PATH={path}\n", encoding="utf-8")

    result = _run_bot(path.parent, "forget", "--guild", str(DEV_GUILD_ID))

    assert result.returncode == 0, result.stderr
    assert "1 game(s) and 1 setting row(s)" in result.stdout
    for table in ("games", "seats", "events", "round_results", "game_results", "guild_settings"):
        assert rows(path, f"SELECT COUNT(*) FROM {table}") == [(0,)], table


def test_forget_without_a_database_deletes_nothing(tmp_path: Path) -> None:
    result = _run_bot(tmp_path, "forget", "--guild", "1")
    assert result.returncode == 2
    assert "nothing was deleted: there is no database" in result.stderr
