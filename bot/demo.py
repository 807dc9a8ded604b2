"""``python -m bot demo``: the real bot in a browser, without a Discord token.

The unmodified :class:`~bot.client.LamaBot` logs in to SimCord, an offline
Discord, with a demo server, a channel and two members.  SimCord's Preview
serves that channel as a local web page where you play as one member (and can
switch to the other, for a duel at one screen).  Timers and the AI's pauses run
in real time, as on Discord.  Needs ``pip install -e ".[demo]"``.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import os
import tempfile
import webbrowser
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bot.config import DEFAULT_TURN_TIMER, Settings
from bot.demo_preview import Publisher, run_like_discord
from bot.frontend.pacing import Pacing

if TYPE_CHECKING:
    import simcord

log = logging.getLogger(__name__)

DEMO_GUILD_ID = 1200000000000000001
DEMO_GUILD_NAME = "L.A.M.A. demo"
DEMO_CHANNEL = "lama"
#: The members you can play as; the page's viewer picker switches between them.
DEMO_PLAYERS = ("Ana", "Ben")
#: How often the page is brought up to date with what the bot did on its own.
PUBLISH_EVERY = 0.25
#: The table is edited as soon as it changes: SimCord has no REST budget to spare, and
#: the table's next edit, 2 s after its last on Discord, would show each move as late.
DEMO_PACING = Pacing(edit_interval=0.0)


class DemoUnavailable(Exception):
    """SimCord's Preview is not installed; the message says how to install it."""


@dataclass(frozen=True, slots=True)
class DemoWorld:
    env: simcord.Env
    channel: simcord.ChannelHandle
    players: tuple[simcord.MemberActor, ...]


def _import_simcord() -> None:
    try:
        import simcord  # noqa: F401
        from simcord.preview import Preview  # noqa: F401
    except ImportError as exc:
        raise DemoUnavailable(
            'the demo needs SimCord with its Preview; install it with pip install -e ".[demo]" '
            "in the repository folder."
        ) from exc


@contextlib.asynccontextmanager
async def demo_world(database: Path) -> AsyncIterator[DemoWorld]:
    """The bot, logged in to SimCord, with a demo server and an open lobby."""
    import simcord

    from bot.client import LamaBot

    settings = Settings(
        token="demo",
        database_path=database,
        dev_guild_id=None,
        log_level=logging.WARNING,
        turn_timer=DEFAULT_TURN_TIMER,
    )
    bot = LamaBot(settings, sync_globally=True, pacing=DEMO_PACING)
    # A failing interaction should show as it does on Discord, not stop the demo.
    env = simcord.Env(bot, check_errors=False)
    guild = env.create_guild(DEMO_GUILD_NAME, id=DEMO_GUILD_ID)
    await env.start()
    try:
        with env.time_context():
            channel = guild.create_text_channel(DEMO_CHANNEL)
            players = tuple(guild.add_member(env.create_user(name)) for name in DEMO_PLAYERS)
            # The first thing on the page: a lobby to join, fill with AI players and start.
            await players[0].slash(channel, "lama new")
            yield DemoWorld(env, channel, players)
    finally:
        await env.shutdown()
        await bot.close()


def emoji_assets(env: simcord.Env) -> dict[str, tuple[str, bytes]]:
    """The card pictures for the page: the bot's application emojis, by every URL they have.

    SimCord keeps no bytes for uploaded application emojis, so the page gets them
    from the art files, under SimCord's CDN address (emojis in text and on buttons)
    and Discord's (the thumbnails the bot links).
    """
    from simcord.backend.cdn import CDN_BASE

    from bot import art

    assets: dict[str, tuple[str, bytes]] = {}
    for emoji in env.backend.application_emojis.values():
        if emoji.name not in art.ALL_NAMES:
            continue
        image = art.read_emoji(emoji.name)
        for base in (CDN_BASE, "https://cdn.discordapp.com"):
            assets[f"{base}/emojis/{emoji.id}.png"] = (f"{emoji.name}.png", image)
    return assets


def _leading_page(folder: Path, url: str) -> Path:
    """A page only this user may read that leads the browser on to ``url``.

    The address's secret (after its ``#``) must not go on the browser's command line,
    which any local user can read in ``/proc``; the browser opens this file instead, as
    Jupyter does.
    """
    quoted = html.escape(url, quote=True)
    text = (
        '<!DOCTYPE html><html><head><meta charset="utf-8">'
        f'<meta http-equiv="refresh" content="0;url={quoted}">'
        "<title>L.A.M.A. demo</title></head>"
        f'<body><a href="{quoted}">Open the L.A.M.A. demo</a></body></html>\n'
    )
    page = folder / "lama-demo.html"
    handle = os.open(page, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        out.write(text)
    return page


async def _publish_forever(step: Callable[[], None]) -> None:
    while True:
        await asyncio.sleep(PUBLISH_EVERY)
        step()


async def run_demo(
    *,
    port: int,
    open_browser: bool,
    database: Path | None,
    on_url: Callable[[str], None] = print,
) -> None:
    """Serve the demo until Ctrl-C, SIGTERM or the page's End session."""
    _import_simcord()
    from bot.lifecycle import serve

    with contextlib.ExitStack() as stack:
        if database is None:
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="lama-demo-"))
            database = Path(folder) / "demo.db"
        async with demo_world(database) as world:
            preview = world.env.preview(
                world.channel,
                viewers=world.players,
                layout="channel",
                port=port,
                assets=emoji_assets(world.env),
            )
            async with preview:
                # A click shows as answered once the bot acknowledged it, and the bot's
                # timers fire at their time whatever else it does, as on Discord.
                stop_settling = run_like_discord(world.env)
                publisher = asyncio.create_task(
                    _publish_forever(Publisher(world.env, preview).step), name="lama-demo-publish"
                )
                serving = asyncio.create_task(serve(world.env.bot, preview.wait_closed()))
                await asyncio.sleep(0)  # serve() has its signal handlers: Ctrl-C works now
                on_url(preview.url)
                if open_browser:
                    folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="lama-open-"))
                    page = _leading_page(Path(folder), preview.url)
                    # webbrowser waits for the browser command: never on the loop.
                    await asyncio.to_thread(webbrowser.open, page.as_uri())
                try:
                    await serving
                finally:
                    stop_settling()
                    publisher.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await publisher
