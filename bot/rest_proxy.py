"""Where discord.py sends every REST call: Discord itself, or a shared REST proxy.

Big bots run several processes on one token behind a proxy such as ``nirn-proxy`` or
``twilight-http-proxy``: it holds the token's limits for all of them, so each
process may use the whole REST budget.  ``DISCORD_API_BASE`` is the proxy's
address; every call (bot token, webhooks, interaction followups, the gateway's
address) is built on :attr:`discord.http.Route.BASE`, which :func:`route_through`
points at it.  A 429 the proxy passes on from Discord is waited on by discord.py
as ever; one the proxy makes itself (nirn-proxy's, when a node of its cluster
fails, carries ``generated-by-proxy`` and no ``Via`` header, which discord.py
takes for Cloudflare's ban and raises) is waited on and tried again here.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence
from typing import Any

import discord
import discord.http

log = logging.getLogger(__name__)

DISCORD = "https://discord.com"
#: The header nirn-proxy (and proxies like it) marks its own answers with.
PROXY_MARK = "generated-by-proxy"
PROXY_RETRIES = 5  # tries of one call the proxy itself answers with 429
DEFAULT_PROXY_WAIT = 1.0  # nirn-proxy's own 429s ask for one second


def api_url(base: str | None) -> str:
    """The API's root under ``base`` (None: Discord's own), in discord.py's API version."""
    return f"{base or DISCORD}/api/v{discord.http.INTERNAL_API_VERSION}"


def use_api_base(base: str | None) -> None:
    """Send every REST call of this process to ``base`` (None: straight to Discord)."""
    discord.http.Route.BASE = api_url(base)


def route_through(http: discord.http.HTTPClient, base: str | None) -> None:
    """Send this process's calls to ``base``; behind a proxy, ``http`` also waits on the
    proxy's own 429s."""
    use_api_base(base)
    if base is not None:
        http.__class__ = ProxiedHTTPClient


def proxy_wait(error: discord.HTTPException) -> float | None:
    """How long to wait on a 429 the proxy made itself; None for any other error."""
    response = error.response
    if error.status != 429 or PROXY_MARK not in response.headers:
        return None
    try:
        return max(0.0, float(response.headers.get("Retry-After", DEFAULT_PROXY_WAIT)))
    except ValueError:
        return DEFAULT_PROXY_WAIT


class ProxiedHTTPClient(discord.http.HTTPClient):
    """discord.py's HTTP client behind a REST proxy: a 429 of the proxy's own is waited on
    and the call tried again, as discord.py does with Discord's."""

    async def request(
        self,
        route: discord.http.Route,
        *,
        files: Sequence[discord.File] | None = None,
        form: Iterable[dict[str, Any]] | None = None,
        **kwargs: Any,
    ) -> Any:
        for attempt in range(1, PROXY_RETRIES + 1):
            try:
                return await super().request(route, files=files, form=form, **kwargs)
            except discord.HTTPException as error:
                wait = proxy_wait(error)
                if wait is None or attempt == PROXY_RETRIES:
                    raise
            log.warning(
                "The REST proxy answered %s %s with its own 429; retrying in %.2f seconds",
                route.method,
                route.path,
                wait,
            )
            await asyncio.sleep(wait)
            for file in files or ():
                file.reset(seek=True)  # discord.py's own retries start again from 0
        raise AssertionError("unreachable")
