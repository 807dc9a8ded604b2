"""Command-line entry point: ``python -m bot`` (or the ``lama-bot`` script)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import sys
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import aiohttp
import discord

from bot.check_config import TOKEN_REJECTED, report
from bot.client import LamaBot, discord_clock, make_bot
from bot.config import ConfigError, Settings
from bot.lifecycle import serve
from bot.logs import setup_logging
from bot.service.ratings.rater import Rated, Rater
from bot.startup import StartupError, check_database, check_postgres, open_store
from bot.sync import CommandSync
from data import StoreError
from data.backup import BackupError, backup
from data.forget import Forgotten
from data.shards import BotRunning
from data.store import Store

log = logging.getLogger(__name__)

T = TypeVar("T")

EXIT_CONFIG = 2
#: Seconds to wait for Discord's first answer before saying the network is down.
CONNECT_TIMEOUT = 30.0
#: The gateway's close code for "this bot must connect with shards".
SHARDING_REQUIRED = 4011


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="lama-bot",
        description="Run the L.A.M.A. Discord bot. Settings come from the environment "
        "and a .env file in the current directory (see .env.example).",
    )
    parser.add_argument(
        "--sync",
        action="store_true",
        help="start the bot and publish the slash commands globally as it starts, also when "
        "DEV_GUILD_ID is set; to publish them without starting (also beside a running bot), "
        "run the sync command instead",
    )
    parser.add_argument(
        "--check-config",
        action="store_true",
        help="validate the settings, that the database can be opened and written and that "
        "Discord accepts the token (said plainly when Discord cannot be reached), then exit "
        "without connecting to the gateway",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo_cmd = commands.add_parser(
        "demo",
        help="play in your browser against AI players, no Discord token needed",
        description="Run the bot in SimCord, an offline Discord, and open a page that shows "
        "its channel: play as Ana (switch to Ben for a duel) against AI players. "
        'Needs pip install -e ".[demo]". Ctrl-C stops it.',
    )
    demo_cmd.add_argument(
        "--port", type=int, default=0, help="serve the page on this local port (default: any)"
    )
    demo_cmd.add_argument(
        "--no-browser", action="store_true", help="print the page's address, open no browser"
    )
    demo_cmd.add_argument(
        "--database",
        type=Path,
        help="keep the demo's games in this SQLite file (default: a throw-away one)",
    )
    commands.add_parser(
        "sync",
        help="publish the slash commands to every server, then exit (safe while the bot runs)",
        description="Log in to Discord over REST only and publish the bot's slash commands "
        "globally, also when DEV_GUILD_ID is set, then exit. It opens no database and "
        "connects no gateway, so it runs beside the running bot. Run it once after "
        "installing and after an update that changed the commands. Settings as the bot's "
        "(DISCORD_TOKEN, DISCORD_API_BASE, DEV_GUILD_ID) from the environment and .env.",
    )
    commands.add_parser(
        "healthcheck",
        help="ask the running bot's /healthz (METRICS_PORT): exit 0 if healthy, else 1",
        description="Ask the /healthz the bot serves with these settings (METRICS_PORT on "
        "METRICS_HOST) and say what it answers: exit 0 when healthy, 1 and why when not; "
        "without METRICS_PORT it says nothing is checked and exits 0. The Docker image "
        "runs it as python -m bot.healthcheck, which loads less.",
    )
    backup_cmd = commands.add_parser(
        "backup",
        help="write a consistent copy of the database (also while the bot runs)",
        description="Copy DATABASE_PATH to FILE with SQLite's online backup, so that what is "
        "still in the write-ahead log is included; safe while the bot is running.",
    )
    backup_cmd.add_argument("file", type=Path, metavar="FILE", help="where to write the copy")
    forget_cmd = commands.add_parser(
        "forget",
        help="delete a server's data, or a person's id and name (stop the bot first)",
        description="Delete what the bot keeps about one server (all its games and settings) "
        "or one person (their user id and display name on every seat and game they hosted; "
        "the seats stay, anonymous, so the other players' results stay whole). Stop the bot "
        "first. Old backups still hold the data: delete or redo them too.",
    )
    whom = forget_cmd.add_mutually_exclusive_group(required=True)
    whom.add_argument("--guild", type=int, metavar="SERVER_ID", help="the server's id")
    whom.add_argument("--user", type=int, metavar="USER_ID", help="the person's user id")
    rerate_cmd = commands.add_parser(
        "rerate",
        help="recompute the skill ratings from the stored games (stop the bot first)",
        description="Delete the skill ratings of every server (or of one) and rate all its "
        "finished games again, one by one in the order they finished, in their seasons and "
        "over all time: the same ratings the games gave as they finished. Stop the bot first.",
    )
    rerate_cmd.add_argument("--guild", type=int, metavar="SERVER_ID", help="only this server")
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


async def _start(bot: LamaBot, token: str) -> None:
    """Log in (giving up when Discord does not answer in time), then stay connected."""
    await _log_in(bot, token)
    await bot.connect()


async def _log_in(bot: LamaBot, token: str) -> None:
    """Log in over REST and run the bot's setup_hook; a Discord that does not answer
    within CONNECT_TIMEOUT is a :class:`StartupError`."""
    login = asyncio.ensure_future(bot.login(token))
    answered = asyncio.ensure_future(bot.logged_in.wait())
    try:
        await asyncio.wait(
            {login, answered}, timeout=CONNECT_TIMEOUT, return_when=asyncio.FIRST_COMPLETED
        )
    finally:
        answered.cancel()
    if not login.done() and not bot.logged_in.is_set():
        login.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await login
        proxy = bot.settings.api_base
        who = "Discord" if proxy is None else f"the REST proxy DISCORD_API_BASE={proxy}"
        raise StartupError(
            f"{who} did not answer within {CONNECT_TIMEOUT:.0f} seconds; check the internet "
            "connection, DNS and any firewall or proxy, then start the bot again."
        )
    await login  # the rest of the login: setup_hook (resuming the games, or a sync)


async def _publish(settings: Settings) -> None:
    """``sync``: the slash commands published globally by a client that only logs in."""
    bot = CommandSync(settings)
    async with bot:
        await _log_in(bot, settings.token)
    names = ", ".join(f"/{name}" for name in bot.published)
    print(
        f"Published the slash commands {names} to every server the bot is in; Discord may "
        "take a few minutes to show them.",
        flush=True,
    )


async def _run(settings: Settings, *, sync_globally: bool) -> None:
    store = await open_store(settings, clock=discord_clock)
    bot = make_bot(settings, sync_globally=sync_globally, store=store)
    async with bot:
        await serve(bot, _start(bot, settings.token))


def _fail(message: str) -> NoReturn:
    print(f"lama-bot: {message}", file=sys.stderr)
    sys.exit(EXIT_CONFIG)


def _backup(settings: Settings, target: Path) -> int:
    try:
        backup(settings.database_path, target)
    except BackupError as exc:
        _fail(f"backup failed: {exc}.")
    print(f"Backed up {settings.database_path} to {target}.")
    return 0


def _demo(args: argparse.Namespace) -> int:
    from bot.demo import DemoUnavailable, run_demo

    if not 0 <= args.port <= 65535:
        _fail(f"--port must be from 1 to 65535, or 0 for any free port (got {args.port}).")
    if args.database is not None:
        try:
            check_database(args.database)
        except StartupError as exc:
            _fail(str(exc))
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    # SimCord is no real gateway: discord.py's warnings about it are noise here.
    logging.getLogger("discord").setLevel(logging.ERROR)

    def show(url: str) -> None:
        print(f"The L.A.M.A. demo is at {url}", flush=True)
        print("(the address works only on this computer; Ctrl-C stops the demo)", flush=True)

    try:
        asyncio.run(
            run_demo(
                port=args.port,
                open_browser=not args.no_browser,
                database=args.database,
                on_url=show,
            )
        )
    except DemoUnavailable as exc:
        _fail(str(exc))
    except OSError as exc:
        _fail(f"the demo could not serve its page on port {args.port} ({exc.strerror}).")
    except KeyboardInterrupt:
        pass
    print("Demo stopped.", flush=True)
    return 0


def _forget(settings: Settings, args: argparse.Namespace) -> int:
    if settings.database_url is None and not settings.database_path.is_file():
        _fail(f"nothing was deleted: there is no database at {str(settings.database_path)!r}.")
    unrated: dict[int, StoreError] = {}  # a person's servers that could not be rated again
    try:
        if args.guild is not None:
            done = asyncio.run(
                _forgetting(settings, lambda store: store.forget.forget_guild(args.guild))
            )
            print(
                f"Deleted server {args.guild}: {done.games} game(s) and "
                f"{done.settings} setting row(s)."
            )
        else:
            done, unrated = asyncio.run(
                _forgetting(settings, lambda store: _forget_user(store, args.user))
            )
            print(
                f"Forgot user {args.user}: {done.seats} seat(s) made anonymous, "
                f"{done.games} game(s) without a host."
            )
    except StartupError as exc:
        _fail(f"nothing was deleted: {exc}")
    except StoreError as exc:
        _fail(f"nothing was deleted: {exc}.")
    code = 0
    if done.not_vacuumed is not None:
        print(
            f"lama-bot: the rows are deleted, but {done.not_vacuumed}; their bytes may stay in "
            "the database's free space until it is vacuumed (run forget again).",
            file=sys.stderr,
        )
        code = 1
    if unrated:
        print(_not_rated_again(args.user, unrated), file=sys.stderr)
        code = 1
    return code


async def _forget_user(store: Store, user_id: int) -> tuple[Forgotten, dict[int, StoreError]]:
    """Forget the person, then rate the servers they were rated in again from the games
    (their seats now a newcomer's), so the ratings are what a ``rerate`` would give; with
    the servers that could not be (by id, and why).  The person is forgotten by then
    (one transaction), so a server that fails leaves the others to be rated still."""
    guilds = await store.rating_writes.rated_guilds_of(user_id)
    done = await store.forget.forget_user(user_id)
    rater = Rater(store)
    games = 0
    unrated: dict[int, StoreError] = {}
    for guild_id in guilds:
        try:
            games += await rater.rerate(guild_id)
        except StoreError as error:
            unrated[guild_id] = error
    if len(unrated) < len(guilds):
        print(f"Rated {games} game(s) in {len(guilds) - len(unrated)} server(s) again.")
    return done, unrated


def _not_rated_again(user_id: int, unrated: dict[int, StoreError]) -> str:
    """What a person forgotten is told of the servers that could not be rated again."""
    servers = ", ".join(str(guild_id) for guild_id in unrated)
    retry = "; ".join(f"python -m bot rerate --guild {guild_id}" for guild_id in unrated)
    if len(unrated) == 1:
        [error] = unrated.values()
        said = f"server {servers} could not be rated again ({error}), so its ratings are"
    else:
        why = "; ".join(f"{guild_id}: {error}" for guild_id, error in unrated.items())
        said = f"servers {servers} could not be rated again ({why}), so their ratings are"
    return (
        f"lama-bot: user {user_id} is forgotten, but {said} not yet the ones the games now "
        f"give. Once the database takes writes again, with the bot stopped, run: {retry}"
    )


def _rerate(settings: Settings, guild: int | None) -> int:
    if settings.database_url is None and not settings.database_path.is_file():
        _fail(f"nothing was rated: there is no database at {str(settings.database_path)!r}.")

    async def rerate() -> Rated:
        store = await open_store(settings, clock=discord_clock, migrating=False)
        try:
            await store.leases.refuse_while_served()
            return await Rater(store).rerate_every(None if guild is None else [guild])
        finally:
            await store.close()

    try:
        rated = asyncio.run(rerate())
    except (StartupError, BotRunning) as exc:
        _fail(f"nothing was rated: {exc}")
    except StoreError as exc:
        print(f"lama-bot: the ratings could not be recomputed: {exc}.", file=sys.stderr)
        return 1
    print(f"Rated {rated.games} game(s) in {rated.guilds} server(s) from the stored games.")
    return 0


async def _forgetting(settings: Settings, erase: Callable[[Store], Awaitable[T]]) -> T:
    """Open the store the settings name, ``erase`` in it (one transaction), close it.

    Not migrated: a running bot of another version may be using the database."""
    store = await open_store(settings, clock=discord_clock, migrating=False)
    try:
        return await erase(store)
    finally:
        await store.close()


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "demo":
        return _demo(args)
    if args.command == "healthcheck":
        from bot.healthcheck import main as healthcheck

        return healthcheck()
    try:
        settings = Settings.from_env(require_token=args.command in (None, "sync"))
    except ConfigError as exc:
        _fail(str(exc))

    if args.command == "migrate-to-postgres":
        return _migrate_to_postgres(settings, args.url)
    if args.command == "backup":
        return _backup(settings, args.file)
    if args.command == "forget":
        return _forget(settings, args)
    if args.command == "rerate":
        return _rerate(settings, args.guild)
    if args.command == "sync":  # no database: it runs beside the bot, which holds it
        if args.check_config or args.sync:
            _fail("sync takes neither --check-config nor --sync; run it alone.")
        setup_logging(settings.log_level, secrets=settings.secrets, log_format=settings.log_format)
        return _with_discord(settings, lambda: _publish(settings))

    try:
        if settings.database_url is None:
            check_database(settings.database_path)
        elif args.check_config:  # a start finds out when it opens the store
            asyncio.run(check_postgres(settings.database_url))
    except StartupError as exc:
        _fail(str(exc))
    if args.check_config:
        try:
            print(asyncio.run(report(settings)))
        except StartupError as exc:
            _fail(str(exc))
        return 0

    setup_logging(settings.log_level, secrets=settings.secrets, log_format=settings.log_format)
    return _with_discord(settings, lambda: _run(settings, sync_globally=args.sync))


def _with_discord(settings: Settings, work: Callable[[], Coroutine[Any, Any, None]]) -> int:
    """Run ``work``, which talks to Discord; its failures are one line and exit code 2."""
    try:
        asyncio.run(work())
    except StartupError as exc:
        _fail(str(exc))
    except discord.LoginFailure:
        _fail(TOKEN_REJECTED)
    except discord.PrivilegedIntentsRequired:
        # Should not happen (the bot requests no privileged intents), but keep it readable.
        _fail(
            "Discord refused a privileged intent; this bot needs none, so check "
            "that you are running an unmodified copy."
        )
    except discord.ConnectionClosed as exc:
        if exc.code == SHARDING_REQUIRED:
            _fail(
                "Discord asks this bot to connect in shards, which it needs once it is in more "
                "than 2,500 servers; set SHARD_COUNT and SHARD_IDS (docs/host/scale.md)."
            )
        _fail(f"Discord closed the connection (code {exc.code}: {exc.reason or 'no reason'}).")
    except (aiohttp.ClientConnectionError, TimeoutError) as exc:
        reason = str(exc) or type(exc).__name__
        if settings.api_base is not None:
            _fail(
                f"could not reach the REST proxy DISCORD_API_BASE={settings.api_base} "
                f"({reason}); start it or correct the address, then start the bot again."
            )
        _fail(
            f"could not reach Discord ({reason}); check the internet connection, "
            "DNS and any firewall or proxy, then start the bot again."
        )
    except StoreError as exc:
        # The database opened, then refused: the shards are served by another process ...
        print(f"lama-bot: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        log.info("Interrupted, shutting down")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
