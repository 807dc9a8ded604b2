"""Command-line entry point: ``python -m bot`` (or the ``lama-bot`` script)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Sequence

import aiohttp
import discord

from bot.config import ConfigError, Settings

log = logging.getLogger(__name__)

EXIT_CONFIG = 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="lama-bot",
        description="Run the L.A.M.A. Discord bot. Settings come from the environment "
        "and a .env file in the current directory (see .env.example).",
    )
    parser.add_argument(
        "--sync",
        action="store_true",
        help="sync slash commands globally once at start (otherwise they are only synced "
        "to DEV_GUILD_ID when it is set)",
    )
    parser.add_argument(
        "--check-config",
        action="store_true",
        help="validate the settings and exit without connecting to Discord",
    )
    return parser


async def _run(settings: Settings, *, sync_globally: bool) -> None:
    from bot.bot import LamaBot

    bot = LamaBot(settings, sync_globally=sync_globally)
    async with bot:
        await bot.start(settings.token)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        settings = Settings.from_env()
    except ConfigError as exc:
        print(f"lama-bot: {exc}", file=sys.stderr)
        sys.exit(EXIT_CONFIG)

    if args.check_config:
        guild = settings.dev_guild_id if settings.dev_guild_id is not None else "not set"
        print(
            f"Configuration OK: database {settings.database_path}, dev guild {guild}, "
            f"log level {logging.getLevelName(settings.log_level)}, "
            f"turn timer {settings.turn_timer}s."
        )
        return 0

    discord.utils.setup_logging(level=settings.log_level)
    try:
        asyncio.run(_run(settings, sync_globally=args.sync))
    except discord.LoginFailure:
        print(
            "lama-bot: DISCORD_TOKEN was rejected by Discord; reset the token in the Developer "
            "Portal (Applications → your app → Bot → Reset Token) and update your .env file.",
            file=sys.stderr,
        )
        sys.exit(EXIT_CONFIG)
    except discord.PrivilegedIntentsRequired:
        # Should not happen (the bot requests no privileged intents), but keep it readable.
        print(
            "lama-bot: Discord refused a privileged intent; this bot needs none, so check "
            "that you are running an unmodified copy.",
            file=sys.stderr,
        )
        sys.exit(EXIT_CONFIG)
    except (aiohttp.ClientConnectionError, TimeoutError) as exc:
        print(
            f"lama-bot: could not reach Discord ({exc}); check the internet connection, "
            "DNS and any firewall or proxy, then start the bot again.",
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:
        log.info("Interrupted, shutting down")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
