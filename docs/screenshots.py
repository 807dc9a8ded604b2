"""Draw the README's screenshots of the table and a hand: a rigged game in SimCord,
shown by SimCord's preview in headless Chromium.

    python docs/screenshots.py      (needs simcord[preview] and chromium on PATH)

The application's card emojis are served from ``cogs/art``: SimCord keeps no
bytes of an uploaded emoji.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import simcord

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.bot import LamaBot  # noqa: E402
from bot.config import Settings  # noqa: E402
from cogs import art  # noqa: E402
from game import Card as C  # noqa: E402
from tests.bot.play import enabled, open_hand, rig, started_game  # noqa: E402

OUT = Path(__file__).resolve().parent
GUILD = 1100000000000000001
CDNS = ("https://cdn.discordapp.com", "https://cdn.simcord.invalid")


async def shoot(
    env: simcord.Env, channel: Any, viewer: Any, path: Path, width: int, height: int, **options: Any
) -> None:
    assets = {
        f"{cdn}/emojis/{e.id}.png": (f"{e.name}.png", art.read_emoji(e.name))
        for e in env.backend.application_emojis.values()
        for cdn in CDNS
    }
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    assert chromium, "no chromium on PATH"
    async with env.preview(
        channel,
        viewers=[viewer],
        display="fixed",
        width=width,
        height=height,
        assets=assets,
        **options,
    ) as preview:
        # Twice: the first visit has the preview fetch and check every picture.
        for _ in range(2):
            process = await asyncio.create_subprocess_exec(
                chromium,
                "--headless",
                "--no-sandbox",
                "--hide-scrollbars",
                f"--window-size={width},{height}",
                "--virtual-time-budget=8000",
                f"--screenshot={path}",
                preview.url,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.DEVNULL,
            )
            await process.wait()
    print("wrote", path.relative_to(ROOT))


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(
            token="screenshots",
            database_path=Path(folder) / "lama.db",
            dev_guild_id=GUILD,
            log_level=logging.WARNING,
            turn_timer=120,
        )
        env = simcord.Env(LamaBot(settings))
        guild = env.create_guild("Llama Lounge", id=GUILD)
        await env.start()
        try:
            channel = guild.create_text_channel("lama-table")
            alice = guild.add_member(env.create_user("alice"), nick="Alice")
            bob = guild.add_member(env.create_user("bob"), nick="Bob")
            carol = guild.add_member(env.create_user("carol"), nick="Carol")
            hands = [
                [C.TWO, C.THREE, C.THREE, C.FIVE, C.LLAMA, C.THREE_PLUS],
                [C.FOUR, C.SIX, C.SIX, C.THREE, C.ONE_PLUS, C.PINK_LLAMA],
                [C.ONE, C.ONE, C.FOUR, C.LLAMA, C.LLAMA, C.SIX],
            ]
            rig(env, hands, C.TWO, [C.ONE], starter=0, party=True, no_drama=True)
            await started_game(env, alice, [bob, carol], channel, party=True, no_drama=True)
            for player in (alice, bob):
                hand = await open_hand(player, channel)
                await player.click(hand, custom_id=enabled(hand, "lama:play:")[0])
            await env.advance_time(3)
            await shoot(env, channel, carol, OUT / "table.png", 720, 880, layout="channel")
            await open_hand(carol, channel)
            await shoot(env, channel, carol, OUT / "hand.png", 720, 600)
        finally:
            await env.shutdown()
            await env.bot.store.close()  # type: ignore[attr-defined]


if __name__ == "__main__":
    asyncio.run(main())
