"""DISCORD_API_BASE: every REST call of the bot goes to the proxy, and its 429s are waited on."""

from __future__ import annotations

import io
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import discord.http
import pytest
from aiohttp import web

from bot.client import make_bot
from bot.config import Settings
from bot.rest_proxy import use_api_base
from tests.process.cli import TOKEN, TOKEN_ID
from tests.process.fake_discord import APPLICATION, USER, answer

APP_ID = TOKEN_ID
CHANNEL_ID = 222222222222222222
RETRY_AFTER = 0.3
GATEWAY = {
    "url": "wss://gateway.invalid",
    "shards": 1,
    "session_start_limit": {
        "total": 1000,
        "remaining": 999,
        "reset_after": 0,
        "max_concurrency": 1,
    },
}


LIMITED = {"message": "You are being rate limited.", "retry_after": RETRY_AFTER, "global": False}
#: Discord's 429, passed on by the proxy: with Via (Cloudflare's own ban has none).
DISCORDS_429 = {"Via": "1.1 google", "Retry-After": "1", "X-RateLimit-Scope": "user"}
#: nirn-proxy's own 429 (a node of its cluster failed): marked, and without Via.
PROXYS_429 = {"generated-by-proxy": "true", "Retry-After": str(RETRY_AFTER)}


class Proxy:
    """A loopback stand-in for nirn-proxy: records each call and answers as Discord would."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, float]] = []
        self.bodies: list[bytes] = []
        self.limited: set[str] = set()  # paths answered once with a 429 already
        #: The first call of each of these paths gets a 429 with these headers.
        self.first_429: dict[str, dict[str, str]] = {
            "GET /api/v10/gateway/bot": DISCORDS_429,
            f"PUT /api/v10/applications/{APP_ID}/commands": PROXYS_429,
            f"POST /api/v10/channels/{CHANNEL_ID}/messages": PROXYS_429,
        }

    async def handle(self, request: web.Request) -> web.StreamResponse:
        self.calls.append((request.method, request.path, time.monotonic()))
        self.bodies.append(await request.read())
        key = f"{request.method} {request.path}"
        if key in self.first_429 and key not in self.limited:
            self.limited.add(key)
            return answer(LIMITED, status=429, headers=self.first_429[key])
        answers: dict[str, object] = {
            "GET /api/v10/users/@me": USER,
            "GET /api/v10/oauth2/applications/@me": APPLICATION,
            "GET /api/v10/gateway/bot": GATEWAY,
            f"PUT /api/v10/applications/{APP_ID}/commands": [],
            f"POST /api/v10/channels/{CHANNEL_ID}/messages": {},
        }
        if key in answers:
            return answer(answers[key])
        if re.fullmatch(rf"POST /api/v10/webhooks/{APP_ID}/[^/]+", key):
            return web.Response(status=204)
        return answer({"message": "Unknown", "code": 0}, status=404)


@pytest.fixture
async def proxy() -> AsyncIterator[tuple[Proxy, str]]:
    stand_in = Proxy()
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", stand_in.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        yield stand_in, f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()
        use_api_base(None)


@pytest.mark.slow  # waits out the 429s' Retry-After in real time
@pytest.mark.parametrize("sharded", [False, True])
async def test_every_rest_call_goes_to_the_proxy(
    proxy: tuple[Proxy, str], tmp_path: Path, sharded: bool
) -> None:
    stand_in, base = proxy
    shards = {"SHARD_COUNT": "2", "SHARD_IDS": "1"} if sharded else {}
    environ = {"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE": base, **shards}
    environ["DATABASE_PATH"] = str(tmp_path / "lama.db")
    settings = Settings.from_env(environ)
    assert settings.rest_budget == 50.0  # the proxy holds the token's limits for everybody
    bot = make_bot(settings)
    route = discord.http.Route("GET", "/users/@me")
    assert route.url == f"{base}/api/v10/users/@me"

    async def no_setup() -> None:  # the store, the cogs: not this test's business
        return None

    bot.setup_hook = no_setup  # type: ignore[method-assign]
    art = discord.File(io.BytesIO(b"card-art " * 100), "card.png")
    try:
        await bot.login(settings.token)  # the bot user and the application
        assert bot.application_id == APP_ID
        await bot.tree.sync()  # the proxy's own 429 first
        await bot.http.get_bot_gateway()  # Discord's 429, passed on, first
        with discord.http.handle_message_parameters(file=art) as params:
            await bot.http.send_message(CHANNEL_ID, params=params)  # an upload, tried twice
        await bot.interaction_webhook(APP_ID, "interaction-token").send("a followup")
    finally:
        await bot.close()
    paths = [f"{method} {path}" for method, path, _ in stand_in.calls]
    assert paths == [
        "GET /api/v10/users/@me",
        "GET /api/v10/oauth2/applications/@me",
        f"PUT /api/v10/applications/{APP_ID}/commands",
        f"PUT /api/v10/applications/{APP_ID}/commands",
        "GET /api/v10/gateway/bot",
        "GET /api/v10/gateway/bot",
        f"POST /api/v10/channels/{CHANNEL_ID}/messages",
        f"POST /api/v10/channels/{CHANNEL_ID}/messages",
        f"POST /api/v10/webhooks/{APP_ID}/interaction-token",
    ]
    for limited in stand_in.first_429:  # each 429 was waited on before the call went again
        first, second = (at for method, path, at in stand_in.calls if f"{method} {path}" == limited)
        assert second - first >= RETRY_AFTER - 0.05, limited
    uploads = [body for body in stand_in.bodies if b"card-art" in body]
    assert len(uploads) == 2 and uploads[0].count(b"card-art") == uploads[1].count(b"card-art")


async def test_a_429_neither_discord_nor_the_proxy_made_is_not_retried(
    proxy: tuple[Proxy, str], tmp_path: Path
) -> None:
    """Without Via and without the proxy's mark, a 429 is Cloudflare's ban: no retry loop."""
    stand_in, base = proxy
    commands = f"/api/v10/applications/{APP_ID}/commands"
    stand_in.first_429 = {f"PUT {commands}": {"Retry-After": "0"}}
    environ = {"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE": base}
    settings = Settings.from_env({**environ, "DATABASE_PATH": str(tmp_path / "lama.db")})
    bot = make_bot(settings)
    try:
        await bot.http.static_login(settings.token)
        with pytest.raises(discord.HTTPException) as info:
            await bot.http.bulk_upsert_global_commands(APP_ID, [])
        assert info.value.status == 429
    finally:
        await bot.close()
    assert [path for _, path, _ in stand_in.calls].count(commands) == 1


def test_without_a_proxy_the_calls_go_to_discord(tmp_path: Path) -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(tmp_path / "db")})
    use_api_base("http://127.0.0.1:1")
    make_bot(settings)
    route = discord.http.Route("GET", "/users/@me")
    assert route.url == "https://discord.com/api/v10/users/@me"
    assert settings.rest_budget == 40.0


def test_the_bot_makes_no_rest_call_of_its_own() -> None:
    """Every call goes through discord.py's Route, so DISCORD_API_BASE reaches it: no module
    opens its own HTTP session or writes Discord's address."""
    root = Path(__file__).resolve().parents[2]
    for folder in ("bot", "cogs"):
        for path in (root / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            for own in ("ClientSession(", "discord.com/api", "Route(", "Route.BASE ="):
                if path.name == "rest_proxy.py" and own == "Route.BASE =":
                    continue
                assert own not in text, f"{path.relative_to(root)} uses {own}"
