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
from data.records import StoreError

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
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    move = commands.add_parser(
        "migrate-to-postgres",
        help="copy the SQLite database DATABASE_PATH into an empty PostgreSQL database",
        description="Copy every game, event, seat, setting and stat from the SQLite file "
        "DATABASE_PATH into the empty PostgreSQL database at URL, in one transaction, and "
        "check that both hold the same rows. Stop the bot first.",
    )
    move.add_argument("url", metavar="URL", help="postgresql://user:password@host/database")
    return parser


def _migrate_to_postgres(settings: Settings, url: str) -> int:
    from data.postgres import is_postgres_url, shown_url
    from data.transfer import copy_to_postgres

    if not is_postgres_url(url):
        print(f"lama-bot: {url.split('@')[-1]!r} is not a postgresql:// URL.", file=sys.stderr)
        return EXIT_CONFIG
    try:
        copied = asyncio.run(copy_to_postgres(settings.database_path, url))
    except StoreError as exc:
        print(f"lama-bot: {exc}", file=sys.stderr)
        return 1
    print(
        f"Copied {settings.database_path} to {shown_url(url)} and compared both: "
        f"{copied.summary()}."
    )
    return 0


async def _run(settings: Settings, *, sync_globally: bool) -> None:
    from bot.bot import make_bot

    bot = make_bot(settings, sync_globally=sync_globally)
    async with bot:
        await bot.start(settings.token)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        settings = Settings.from_env(require_token=args.command is None)
    except ConfigError as exc:
        print(f"lama-bot: {exc}", file=sys.stderr)
        sys.exit(EXIT_CONFIG)

    if args.command == "migrate-to-postgres":
        return _migrate_to_postgres(settings, args.url)

    if args.check_config:
        from bot.bot import shards_of
        from data.postgres import shown_url

        guild = settings.dev_guild_id if settings.dev_guild_id is not None else "not set"
        print(
            f"Configuration OK: database {shown_url(settings.database)}, dev guild {guild}, "
            f"log level {logging.getLevelName(settings.log_level)}, "
            f"turn timer {settings.turn_timer}s, {shards_of(settings)}."
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
    except StoreError as exc:
        # The database can't be opened: unreachable, wrong login, a newer schema ...
        print(f"lama-bot: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        log.info("Interrupted, shutting down")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
