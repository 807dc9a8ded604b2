"""``--check-config``: Discord asked whether it accepts DISCORD_TOKEN, and the one line.

The token's question is one ``GET /users/@me`` through discord.py's HTTP client, to
Discord or to the REST proxy ``DISCORD_API_BASE`` names, within :data:`CHECK_TIMEOUT`.
Discord's 401 means the token is wrong; no answer (no network, DNS, a firewall, a proxy
down, Discord's own trouble) means it could not be checked, which the line says plainly
instead of a bare "OK".
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import aiohttp
import discord
import discord.http

from bot.client import shards_of
from bot.config import Settings, token_id
from bot.rest_proxy import route_through
from bot.startup import StartupError
from data.postgres import shown_url

#: What a host is told of a token Discord refused, at a start or a check.
TOKEN_REJECTED = (
    "DISCORD_TOKEN was rejected by Discord; reset the token in the Developer "
    "Portal (Applications → your app → Bot → Reset Token) and update your .env file."
)
#: Seconds to wait for Discord's (or the proxy's) answer before saying it was not checked.
CHECK_TIMEOUT = 10.0


@dataclass(frozen=True, slots=True)
class TokenCheck:
    """What Discord said of the token: ``accepted`` (with the bot's name), ``rejected``,
    or neither (``accepted is None``: not checked, and why)."""

    accepted: bool | None
    #: The bot's name when accepted; why it was not checked otherwise.
    detail: str = ""


def _where(settings: Settings) -> str:
    if settings.api_base is None:
        return "Discord"
    return f"the REST proxy DISCORD_API_BASE={settings.api_base}"


async def check_token(settings: Settings) -> TokenCheck:
    """Ask Discord who the token's bot is; never raises for the network's sake."""
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    route_through(http, settings.api_base)
    where = _where(settings)
    try:
        async with asyncio.timeout(CHECK_TIMEOUT):
            user = await http.static_login(settings.token)
    except discord.LoginFailure:
        return TokenCheck(accepted=False)
    except discord.HTTPException as exc:
        return TokenCheck(None, f"{where} answered {exc.status} {exc.response.reason}")
    except TimeoutError:
        return TokenCheck(None, f"{where} did not answer within {CHECK_TIMEOUT:g} seconds")
    except (aiohttp.ClientError, OSError) as exc:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        return TokenCheck(None, f"{where} could not be reached: {reason}")
    finally:
        await http.close()  # its session, and with it the connector
    return TokenCheck(accepted=True, detail=f"{user['username']} (id {user['id']})")


async def report(settings: Settings) -> str:
    """--check-config's last step, once the database answered: the token asked of Discord,
    then the settings in one line; a token Discord refuses is a :class:`StartupError`."""
    checked = await check_token(settings)
    if checked.accepted is False:
        raise StartupError(TOKEN_REJECTED)
    if checked.accepted:
        token = f"token accepted by Discord for the bot {checked.detail}"
    else:
        token = (
            f"token NOT checked with Discord ({checked.detail}; it has a bot token's form, "
            f"for the bot with id {token_id(settings.token)})"
        )
    guild = settings.dev_guild_id if settings.dev_guild_id is not None else "not set"
    can = "can be reached" if settings.database_url else "can be opened and written"
    via = f"through {settings.api_base}" if settings.api_base else "to Discord"
    return (
        f"Configuration OK: {token}, database {shown_url(settings.database)} ({can}), "
        f"dev guild {guild}, log level {logging.getLevelName(settings.log_level)}, "
        f"turn timer {settings.turn_timer}s, REST {settings.rest_budget:g}/s {via}, "
        f"{shards_of(settings)}."
    )
