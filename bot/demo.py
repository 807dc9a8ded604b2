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
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.config import DEFAULT_TURN_TIMER, Settings
from bot.demo_preview import answer_when_acknowledged
from bot.frontend.pacing import Pacing

if TYPE_CHECKING:
    import simcord
    from simcord.preview import Preview

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


class _Publisher:
    """Shows on the page what the bot did by itself (AI moves, timeouts, turn pings).

    The Preview republishes after the page's own clicks; the bot's background
    work only shows after a publication.  ``Preview.refresh()`` would wait for
    that work to settle while holding the page's clicks off, so this publishes
    the current state directly, only when something changed and no click is
    being handled (SimCord internals: keep ``simcord`` below its next major).

    Each publication is a new revision of the page, and the Preview refuses a
    click sent from an older one ("The published preview revision is stale").
    The bot's turn comes in several edits (the table, a ping, the hand), so a
    quick click on the hand that had just turned green was refused while the
    page had not yet fetched the ping's revision.  Discord has no such window: a
    click reaches the bot, whose buttons carry the turn they were drawn for and
    refuse a move on a turn gone by.  So a click sent from a revision that only
    this publisher replaced is let through as a click on the page now.
    """

    def __init__(self, env: simcord.Env, preview: Preview) -> None:
        self._env = env
        self._preview = preview
        self._seen = len(env.backend.transcript)
        #: By page: the revisions this publisher made (the page's own clicks make the rest).
        self._made: dict[str, set[int]] = {}
        #: By request id: the revision a click was let through on, so a resent request
        #: (the page's retry after a lost answer) is the same request.
        self._rebased: dict[str, int] = {}
        action = preview._action

        async def take_click(context_id: str | None, body: Mapping[str, Any]) -> dict[str, Any]:
            return await action(context_id, self._rebase(context_id, body))

        preview._action = take_click  # type: ignore[method-assign]

    def step(self) -> None:
        now = len(self._env.backend.transcript)
        busy = self._env._operation_task is not None or self._preview._active_action is not None
        if now == self._seen or busy:
            return
        self._seen = now
        self._preview._advance_presentation_time()
        self._preview._publish_message_pages(reason="refresh")
        for page_id, page in self._preview._pages.items():
            made = self._made.setdefault(page_id, set())
            made.add(page.revision)
            # Only revisions after one the page may still show matter.
            made.difference_update({old for old in made if old < page.revision - _KEPT})

    def _rebase(self, context_id: str | None, body: Mapping[str, Any]) -> Mapping[str, Any]:
        """``body``, on the page's current revision if only this publisher replaced its own."""
        if not isinstance(body, Mapping):
            return body
        shown, request = body.get("published_revision"), body.get("request_id")
        page = self._preview._pages.get(context_id) if isinstance(context_id, str) else None
        if page is None or not isinstance(request, str) or type(shown) is not int:
            return body
        if request in self._rebased:
            return {**body, "published_revision": self._rebased[request]}
        made = self._made.get(page.id, set())
        if shown >= page.revision or any(
            later not in made for later in range(shown + 1, page.revision + 1)
        ):
            return body
        if len(self._rebased) >= _KEPT:
            self._rebased.clear()
        self._rebased[request] = page.revision
        return {**body, "published_revision": page.revision}


#: How many of the publisher's revisions, and of the clicks it let through, it remembers.
_KEPT = 64


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
                # A click shows as answered once the bot acknowledged it, as on Discord.
                stop_answering = answer_when_acknowledged(world.env)
                publisher = asyncio.create_task(
                    _publish_forever(_Publisher(world.env, preview).step), name="lama-demo-publish"
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
                    stop_answering()
                    publisher.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await publisher
