"""A sharded bot: AutoShardedBot on exactly SHARD_IDS, commands synced by shard 0's process."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import simcord

from bot import art
from bot.client import LamaBot, ShardedLamaBot, make_bot
from bot.config import Settings
from bot.frontend.faces import PLAIN
from cogs.emojis import RELIST_FIRST
from data import Shards
from tests.simcord_fixtures import DEV_GUILD_ID, DEV_GUILD_NAME


def command_syncs(env: simcord.Env) -> list[str]:
    return [r.path for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]


def emoji_uploads(env: simcord.Env) -> list[str]:
    return [r.path for r in env.http_requests if r.method == "POST" and r.path.endswith("/emojis")]


@pytest.mark.parametrize(("shard_ids", "syncs"), [((0, 1), True), ((1,), False)])
async def test_only_the_process_serving_shard_0_syncs_the_commands_and_uploads_emojis(
    settings: Settings, shard_ids: tuple[int, ...], syncs: bool
) -> None:
    sharded = dataclasses.replace(settings, shard_count=2, shard_ids=shard_ids)
    bot = make_bot(sharded)
    assert isinstance(bot, ShardedLamaBot)
    env = simcord.Env(bot, strict_sync=False)
    env.create_guild(DEV_GUILD_NAME, id=DEV_GUILD_ID)
    await env.start()
    try:
        assert bot.shard_count == 2 and bot.shard_ids == list(shard_ids)
        assert sorted(bot.shards) == list(shard_ids)  # connected on exactly those shards
        assert bot.store.leases.shards == Shards(2, shard_ids)
        assert bool(command_syncs(env)) is syncs
        assert len(emoji_uploads(env)) == (len(art.ALL_NAMES) if syncs else 0), "emojis too"
    finally:
        await env.shutdown()
        await bot.store.close()


def test_without_shard_settings_one_plain_client(tmp_path: Path) -> None:
    bot = make_bot(Settings(token="t", database_path=tmp_path / "lama.db"))
    assert type(bot) is LamaBot


async def test_only_the_process_serving_shard_0_uploads_the_emojis_the_others_wait_for_them(
    settings: Settings,
) -> None:
    # Processes starting at once would each upload the 19 emojis the application
    # lacks: one process uploads, the others list again until the emojis are there.
    sharded = dataclasses.replace(settings, shard_count=2, shard_ids=(1,))
    bot = make_bot(sharded)
    env = simcord.Env(bot, strict_sync=False)
    env.create_guild(DEV_GUILD_NAME, id=DEV_GUILD_ID)
    await env.start()
    try:
        await env.advance_time(1)
        assert emoji_uploads(env) == [] and not env.backend.application_emojis
        assert bot.faces is PLAIN, "plain emojis until the application has its own"

        # The process serving shard 0 uploads them meanwhile.
        uploaded = {n: env.backend.create_application_emoji(n).id for n in art.ALL_NAMES}
        await env.advance_time(RELIST_FIRST + 1)

        assert {n: e.id for n, e in bot.faces.emojis.items()} == uploaded
        assert emoji_uploads(env) == []
    finally:
        await env.shutdown()
        await bot.store.close()


async def test_the_uploading_process_tries_again_after_discord_failed_once(
    settings: Settings,
) -> None:
    # One 503 on the first upload must not leave every process on plain emojis.
    sharded = dataclasses.replace(settings, shard_count=2, shard_ids=(0, 1))
    bot = make_bot(sharded)
    env = simcord.Env(bot, strict_sync=False)
    env.create_guild(DEV_GUILD_NAME, id=DEV_GUILD_ID)
    env.inject_error("POST", "/applications/*/emojis", status=503, message="Service Unavailable")
    await env.start()
    try:
        await env.advance_time(1)
        assert bot.faces is PLAIN, "plain emojis while the upload failed"

        await env.advance_time(RELIST_FIRST + 1)

        assert len(env.backend.application_emojis) == len(art.ALL_NAMES)
        assert set(bot.faces.emojis) == set(art.ALL_NAMES)
        assert len(emoji_uploads(env)) == len(art.ALL_NAMES) + 1, "the failed one, then all"
    finally:
        await env.shutdown()
        await bot.store.close()
