"""``python -m bot sync``'s client: the running bot's slash commands published, and nothing
else done (issue 42: ``--sync`` started the whole bot, refused beside a running one)."""

from __future__ import annotations

import simcord

from bot.client import LamaBot
from bot.config import Settings
from bot.sync import CommandSync
from tests.simcord_fixtures import DEV_GUILD_ID, DEV_GUILD_NAME, RENEW_DAILY


async def in_simcord(bot: LamaBot) -> list[simcord.types.HttpLogEntry]:
    """Every REST call ``bot`` made in a SimCord with the dev guild, until it settled."""
    env = simcord.Env(bot)
    env.create_guild(DEV_GUILD_NAME, id=DEV_GUILD_ID)
    await env.start()
    try:
        return list(env.http_requests)
    finally:
        await env.shutdown()
        await bot.close()


def global_puts(calls: list[simcord.types.HttpLogEntry]) -> list[object]:
    return [
        call.json
        for call in calls
        if call.method == "PUT" and call.path.endswith("/commands") and "/guilds/" not in call.path
    ]


async def test_sync_publishes_the_running_bots_commands_globally(settings: Settings) -> None:
    synced = CommandSync(settings)
    [published] = global_puts(await in_simcord(synced))
    assert synced.published == ["lama-about", "lama"]
    assert isinstance(published, list) and len(published) == 2

    bot = LamaBot(settings, sync_globally=True, renew_every=RENEW_DAILY)  # python -m bot --sync
    [started] = global_puts(await in_simcord(bot))
    assert published == started  # the same commands, words and translations


async def test_sync_opens_no_database_and_only_asks_discord(settings: Settings) -> None:
    """No store: no shard lease claimed, no game resumed, whatever runs beside it."""
    calls = await in_simcord(CommandSync(settings))
    assert not settings.database_path.exists()
    assert not settings.database_path.parent.joinpath("lama.db-wal").exists()
    # Nothing shown, sent or uploaded: asked who it is and where, then the one PUT.
    assert {call.method for call in calls} == {"GET", "PUT"}
    assert len([call for call in calls if call.method == "PUT"]) == 1
