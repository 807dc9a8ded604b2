"""A loopback stand-in for Discord's REST API, for ``python -m bot`` run as a process.

It answers the calls a login and a command sync make (``GET /users/@me``, the
application, ``PUT`` the commands), as Discord does, and records each; a test points
the process at it with ``DISCORD_API_BASE``.  ``login`` says how it answers the token:
``"ok"``, ``"401"`` (a wrong token), ``"503"`` or ``"hang"`` (never, until it stops).
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

from tests.process.cli import TOKEN_ID, bot_environ

API = "/api/v10"
USER = {
    "id": str(TOKEN_ID),
    "username": "lama",
    "discriminator": "0",
    "global_name": None,
    "avatar": None,
    "bot": True,
}
APPLICATION = {
    "id": str(TOKEN_ID),
    "name": "lama",
    "description": "",
    "icon": None,
    "bot_public": True,
    "bot_require_code_grant": False,
    "owner": USER,
    "verify_key": "00",
    "flags": 0,
}
COMMANDS = f"{API}/applications/{TOKEN_ID}/commands"
RUN_TIMEOUT = 120.0


def answer(
    body: object, *, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """JSON as Discord sends it: discord.py reads a body as JSON only under exactly
    ``Content-Type: application/json`` (no charset)."""
    headers = {**(headers or {}), "Content-Type": "application/json"}
    return web.Response(body=json.dumps(body).encode(), status=status, headers=headers)


@dataclass
class FakeDiscord:
    """The stand-in's state: how it answers a login, and every call it had."""

    login: str = "ok"
    calls: list[str] = field(default_factory=list)
    #: The bodies of the ``PUT`` of the global commands, decoded.
    published: list[list[dict[str, Any]]] = field(default_factory=list)
    base: str = ""
    _stopped: asyncio.Event = field(default_factory=asyncio.Event)

    async def handle(self, request: web.Request) -> web.StreamResponse:
        key = f"{request.method} {request.path}"
        self.calls.append(key)
        if key == f"GET {API}/users/@me":
            if self.login == "hang":
                await self._stopped.wait()
            if self.login in ("401", "503"):
                return answer({"message": "no", "code": 0}, status=int(self.login))
            return answer(USER)
        if key == f"GET {API}/oauth2/applications/@me":
            return answer(APPLICATION)
        if key == f"PUT {COMMANDS}":
            sent: list[dict[str, Any]] = await request.json()
            self.published.append(sent)
            made = [
                {**command, "id": str(TOKEN_ID + n), "application_id": str(TOKEN_ID)}
                for n, command in enumerate(sent, start=1)
            ]
            return answer([{"version": "1", "type": 1, **c} for c in made])
        return answer({"message": "Unknown", "code": 0}, status=404)


@asynccontextmanager
async def fake_discord(login: str = "ok") -> AsyncIterator[FakeDiscord]:
    """The stand-in serving on 127.0.0.1, its address in ``.base``."""
    fake = FakeDiscord(login=login)
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", fake.handle)
    runner = web.AppRunner(app, shutdown_timeout=0.1)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    fake.base = f"http://127.0.0.1:{port}"
    try:
        yield fake
    finally:
        fake._stopped.set()
        await runner.cleanup()


@dataclass(frozen=True)
class Ran:
    """A finished ``python -m bot``: its exit code and what it printed."""

    returncode: int
    stdout: str
    stderr: str


async def run_bot_beside(
    cwd: Path, *args: str, launcher: str | None = None, module: str = "bot"
) -> Ran:
    """``python -m module *args`` in ``cwd`` (or ``python -c launcher *args``), awaited,
    so that a server of this test's loop answers it meanwhile."""
    command = ["-m", module] if launcher is None else ["-c", launcher]
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        *command,
        *args,
        cwd=cwd,
        env=bot_environ(),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    # A bound for a loaded machine, as run_bot's: past it the test fails instead of hanging.
    out, err = await asyncio.wait_for(child.communicate(), RUN_TIMEOUT)
    assert child.returncode is not None
    return Ran(child.returncode, out.decode(), err.decode())
