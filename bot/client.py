"""The :class:`LamaBot` client: intents, extension loading and command syncing."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Concatenate, ParamSpec

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.frontend.background import log_failure
from bot.frontend.faces import PLAIN, Faces
from bot.frontend.items import DYNAMIC_ITEMS, Router
from bot.frontend.pacing import Pacing
from bot.frontend.places import place_gone
from bot.frontend.presenter import Presenter
from bot.i18n.commands import LamaTranslator
from bot.identify import IdentifyOrder
from bot.limiter import Limiter, Priority
from bot.metrics import BotMetrics
from bot.monitor import Monitor
from bot.rest_proxy import route_through
from bot.service import GameService
from bot.service.cooldowns import Cooldowns
from bot.service.metrics import NO_METRICS, ServiceMetrics
from bot.service.play.table import Table
from bot.service.thinking.pool import Thinking
from bot.service.timing import Timing
from bot.startup import StartupError, open_store
from data.identify import IDENTIFY_SPACING
from data.shards import RENEW_EVERY, Shards
from data.store import Store
from game.ai import Strength

BotArgs = ParamSpec("BotArgs")

log = logging.getLogger(__name__)

#: How long /healthz waits for the store to answer before it says it does not.
HEALTH_STORE_TIMEOUT = 2.0

#: Extensions loaded in :meth:`LamaBot.setup_hook`, in order.
INITIAL_EXTENSIONS: tuple[str, ...] = (
    "cogs.meta",
    "cogs.emojis",
    "cogs.gameplay",
    "cogs.hints",
    "cogs.lobby",
    "cogs.server_settings",
    "cogs.stats",
    "cogs.export",
    "cogs.replay",
    "cogs.help",
)


def discord_clock() -> float:
    """Unix time as Discord sees it: one clock for the store's timestamps and the timers."""
    return discord.utils.utcnow().timestamp()


def make_intents() -> discord.Intents:
    """Only the ``guilds`` intent: slash commands and buttons need nothing privileged."""
    intents = discord.Intents.none()
    intents.guilds = True
    return intents


class LamaBot(commands.Bot):
    """discord.py bot that hosts L.A.M.A. games."""

    def __init__(
        self,
        settings: Settings,
        *,
        sync_globally: bool = False,
        store: Store | None = None,
        timing: Timing | None = None,
        pacing: Pacing | None = None,
        cooldowns: Mapping[str, float] | None = None,
        renew_every: float = RENEW_EVERY,
        identify_spacing: float = IDENTIFY_SPACING,
    ) -> None:
        # The bot never joins voice, so the "PyNaCl/davey is not installed" warnings are noise.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        shards: dict[str, Any] = {}
        #: The Prometheus series with METRICS_PORT set; None: nothing is counted.
        self.metrics = BotMetrics() if settings.metrics_port is not None else None
        if self.metrics is not None:  # every REST call, by the bot token or an interaction's
            shards["http_trace"] = self.metrics.trace_config()
        self.monitor: Monitor | None = None
        if settings.shard_count is not None:  # only AutoShardedBot takes shard_ids
            ids = list(settings.shard_ids or ())
            shards |= {"shard_count": settings.shard_count, "shard_ids": ids}
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=make_intents(),
            # Nobody is pinged unless a message names whom (the turn ping: the player to move).
            allowed_mentions=discord.AllowedMentions.none(),
            **shards,
        )
        self.settings = settings
        #: The game service's pauses and limits (a test's bot moves its AI seats at once).
        self.timing = timing if timing is not None else Timing()
        #: How often the front end edits a table and tries a failed call again.
        self.pacing = pacing if pacing is not None else Pacing()
        #: Seconds between two of one person's tables, hints, stats… (None: the defaults).
        self.cooldown_seconds = cooldowns
        #: Seconds between two renewals of the shard leases, of the store it opens itself.
        self.renew_every = renew_every
        #: Seconds a shard's identify turn is held, across processes (sharded, on PostgreSQL).
        self.identify_spacing = identify_spacing
        route_through(self.http, settings.api_base)  # to Discord, or DISCORD_API_BASE's proxy
        self.sync_globally = sync_globally
        #: Every bot-token call of the presenter waits its turn here (the REST budget).
        self.limiter = Limiter(settings.rest_budget)
        # Every cog adds its commands to this one group in its cog_load.
        # Installable to a server and to a person, and used in servers (with the bot or
        # without), its DM and group DMs: as a whole, since Discord ignores installs and
        # contexts on a subcommand (and on a command synced to one guild only).
        self.lama = app_commands.Group(
            name="lama",
            description="Play L.A.M.A. in this channel",
            allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
            allowed_contexts=app_commands.AppCommandContext(
                guild=True, dm_channel=True, private_channel=True
            ),
        )
        #: Hands each click to the handler of its button family; the cogs register theirs.
        self.router = Router()
        # ``python -m bot`` opens the store before logging in, so a bad database
        # stops it before it touches Discord; without one, setup_hook opens it.
        if store is not None:
            self.store = store
        self._stopping: asyncio.Task[None] | None = None  # after the shards' lease was lost
        self.service: GameService
        self.thinking: Thinking
        self.presenter: Presenter
        #: How cards look in messages: plain emojis until cogs.emojis has the app's own.
        self.faces: Faces = PLAIN
        self._notify_task: asyncio.Task[None] | None = None
        #: Set once Discord accepted the token (setup_hook runs after that).
        self.logged_in = asyncio.Event()

    async def setup_hook(self) -> None:
        self.logged_in.set()
        await self._start_monitor()  # /healthz says 503 until the gateway is connected
        if not hasattr(self, "store"):
            self.store = await open_store(
                self.settings, clock=discord_clock, renew_every=self.renew_every
            )
        # Before anything is resumed: a second process on these shards stops here.
        await self.store.leases.claim_shards(shards_of(self.settings), on_lost=self._lost_shards)
        counted: ServiceMetrics = NO_METRICS if self.metrics is None else self.metrics
        if self.metrics is not None:
            self.store.time_units(self.metrics.unit_done)
        # Hard thinks in these processes; they start once a table has a Hard seat.
        self.thinking = Thinking(self.settings.ai_workers, metrics=counted)
        self.service = GameService(
            self.store,
            clock=discord_clock,
            thinking=self.thinking,
            metrics=counted,
            timing=self.timing,
            cooldowns=Cooldowns(discord_clock, self.cooldown_seconds),
        )
        self.presenter = Presenter(self)
        self.service.notices.listener = self.presenter
        # Every persistent button, whichever cog handles its family (items.Router).
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.load_commands(INITIAL_EXTENSIONS)
        # The hands opened and the pings left standing before a restart.
        await self.presenter.restore_hands()
        await self.presenter.restore_tables()
        await self.presenter.take_down_left()
        # Before any game is resumed: a wrong DEV_GUILD_ID must not ping players
        # on every start of a restart loop.
        await self.sync_commands()
        resumed = await self.service.resume()
        if any(seat.ai is Strength.HARD for table in resumed for seat in table.seats):
            # Their Hard moves come as soon as the bot is connected: the workers are up first.
            await self.thinking.start()
        if resumed:
            log.info("Resumed %d unfinished game(s)", len(resumed))
        # Also without a game to resume: a game that ended just before the stop may
        # still have its end to show.
        self._notify_task = asyncio.create_task(
            self._notify_when_connected(), name="lama-notify-resumed"
        )

    async def load_commands(self, extensions: Sequence[str]) -> None:
        """Load the cogs ``extensions``, in order, and put their slash commands in the tree
        (the /lama group's translated)."""
        for extension in extensions:
            await self.load_extension(extension)
            log.debug("Loaded extension %s", extension)
        self.tree.add_command(self.lama)
        await self.tree.set_translator(LamaTranslator())

    async def _start_monitor(self) -> None:
        """/metrics and /healthz on METRICS_PORT, and the loop-lag sampler (bot.monitor)."""
        metrics, port = self.metrics, self.settings.metrics_port
        if metrics is None or port is None:
            return
        metrics.watch(
            statuses=lambda: (
                [t.status.value for t in self.service.registry.tables()]
                if hasattr(self, "service")
                else []
            ),
            waiting=lambda: self.thinking.waiting() if hasattr(self, "thinking") else {},
            latencies=self.shard_latencies,
        )
        monitor = Monitor(metrics, self.health)
        host = self.settings.metrics_host
        try:
            await monitor.start(host, port)
        except OSError as exc:
            raise StartupError(
                f"could not serve metrics on {host}:{port} ({exc.strerror or exc}); set "
                "METRICS_PORT to a free port, or leave it empty to serve no metrics."
            ) from exc
        self.monitor = monitor
        metrics.start_sampling()

    def shard_latencies(self) -> list[tuple[int, float]]:
        """Each shard's heartbeat latency in seconds (shard 0 alone without sharding)."""
        return [(0, self.latency)]

    async def health(self) -> str | None:
        """None when the bot can play (the gateway connected, the store answering), else
        why not in one line: what /healthz answers."""
        if self.is_closed():
            return "the bot is shutting down"
        if not self.is_ready() or not self.gateway_connected():
            return "the gateway is not connected"
        if not hasattr(self, "store"):
            return "the store is not open yet"
        try:
            await asyncio.wait_for(self.store.ping(), HEALTH_STORE_TIMEOUT)
        except TimeoutError:
            return f"the store did not answer within {HEALTH_STORE_TIMEOUT:g} seconds"
        except Exception:  # its text may name the database's host: the store logs it
            return "the store does not answer"
        return None

    def gateway_connected(self) -> bool:
        """Whether the gateway's websocket is open now (a reconnect in progress: not)."""
        ws = self.ws
        return ws is not None and bool(getattr(ws, "open", True))

    async def _notify_when_connected(self) -> None:
        # Connect first: the gateway must be up (and the buttons clickable)
        # before the resumed tables and turn pings go out; their turns start then.
        await self.wait_until_ready()
        # The games that ended just before the stop, whose table's last edit never went out.
        try:
            self.presenter.show_endings(await self.service.endings_unshown())
        except Exception:  # the resumed tables below must be shown all the same
            log.exception("could not show the ends of the games that ended before the stop")
        try:
            self.presenter.post_charts(await self.service.front.charts_unposted())
        except Exception:  # the resumed tables below must be shown all the same
            log.exception("could not post the charts of the games that ended before the stop")
        for table in self.service.resumer.resumed_tables():
            try:
                await self._notify_resumed(table)
            except Exception:
                # One table's failure (a dropped connection, say) must not leave
                # every later table without its refresh and ping.
                log.exception("game %s: could not show the resumed table", table.game_id)

    async def _notify_resumed(self, table: Table) -> None:
        # Where the bot is no member (a group DM, a server only a person installed the
        # app in) it is told nothing of the place: the game goes on at the next click.
        member = table.guild_id > 0 and self.presenter.bot_members.get(table.game_id, True)
        if member and await place_gone(self, table.guild_id, table.channel_id, self.limiter):
            # Deleted, or the bot removed, while it was down: no event will say so now.
            await self.service.notices.abandon_where(channel_id=table.channel_id)
            return
        # A fresh ping with the deadline as it is now replaces the old one.
        await self.service.notices.notify(table)

    def _lost_shards(self) -> None:
        # Another process serves these shards now: playing on would play its games twice.
        log.critical("Stopping: the shards' lease was lost to another process")
        self._stopping = asyncio.create_task(self.close(), name="lama-stop")
        self._stopping.add_done_callback(log_failure)

    async def close(self) -> None:
        # Everything is already saved; stop the background work, then the store
        # (which waits for a save in progress), then the gateway.
        if self._notify_task is not None:
            self._notify_task.cancel()
        if hasattr(self, "service"):
            await self.service.close()
            await self.thinking.close()
            self.service.notices.listener = None
        for extension in list(self.extensions):
            await self.unload_extension(extension)
        if hasattr(self, "presenter"):
            await self.presenter.close()
        await self.limiter.close()
        if self.monitor is not None:
            await self.monitor.close()
        if self.metrics is not None:
            await self.metrics.close()
        if hasattr(self, "store"):
            await self.store.close()
        await super().close()

    async def sync_commands(self) -> None:
        """Push the slash commands to Discord according to the settings.

        ``--sync`` publishes them globally (also when DEV_GUILD_ID is set); otherwise
        DEV_GUILD_ID gets its own copy on every start.  Of several processes, only the
        one serving shard 0 syncs (or any with --sync).  Each call waits its turn at
        the REST budget, as the table's do: a restart loop stays within it.
        """
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            await self._check_dev_guild(guild_id)
        if not self.sync_globally and 0 not in shards_of(self.settings).ids:
            log.info("Slash commands are synced by the process serving shard 0")
        elif self.sync_globally:
            await self.limiter.acquire(Priority.TABLE)
            synced = await self.tree.sync()
            log.info(
                "Synced %d global command(s); Discord may take a moment to show them", len(synced)
            )
            if guild_id is not None:
                log.info(
                    "DEV_GUILD_ID %d was left as it is: with its own copy there, that server "
                    "lists each command twice until DEV_GUILD_ID is unset",
                    guild_id,
                )
        elif guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            try:
                await self.limiter.acquire(Priority.TABLE)
                synced = await self.tree.sync(guild=guild)
            except discord.Forbidden as exc:
                raise StartupError(
                    f"the bot may not add slash commands to the server DEV_GUILD_ID {guild_id}; "
                    "invite it again with the link in docs/host/index.md (it needs the "
                    "applications.commands scope)."
                ) from exc
            log.info("Synced %d command(s) to dev guild %d", len(synced), guild_id)
        else:
            log.warning(
                "No slash command was synced, so none may show up in Discord yet; run "
                "`python -m bot sync` once (global) or set DEV_GUILD_ID to sync to one test "
                "server on every start"
            )

    async def _check_dev_guild(self, guild_id: int) -> None:
        try:
            await self.limiter.acquire(Priority.TABLE)
            await self.fetch_guild(guild_id, with_counts=False)
        except (discord.Forbidden, discord.NotFound) as exc:
            raise StartupError(
                f"DEV_GUILD_ID is {guild_id}, a server the bot is not in; invite the bot there "
                "with the link in docs/host/index.md, or correct DEV_GUILD_ID or leave it empty."
            ) from exc

    def interaction_webhook(self, application_id: int, token: str) -> discord.Webhook:
        """The webhook of an interaction token, with this client's state (for
        :class:`~bot.frontend.host.Host`)."""
        return discord.Webhook.partial(application_id, token, client=self)

    async def on_ready(self) -> None:
        log.info("Logged in as %s in %d guild(s)", self.user, len(self.guilds))


class ShardedLamaBot(LamaBot, commands.AutoShardedBot):
    """The bot on the shards SHARD_IDS of SHARD_COUNT, for running several processes."""

    def shard_latencies(self) -> list[tuple[int, float]]:
        return list(self.latencies)

    def gateway_connected(self) -> bool:
        return bool(self.shards) and not any(s.is_closed() for s in self.shards.values())

    _identify: IdentifyOrder | None = None

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # Processes starting at once identify in Discord's order (bot/identify.py).
        if self._identify is None:
            self._identify = IdentifyOrder(
                self.settings, self.http, self.limiter, spacing=self.identify_spacing
            )
        await self._identify.wait(shard_id, initial=initial, default=super().before_identify_hook)

    async def close(self) -> None:
        await super().close()
        if self._identify is not None:
            await self._identify.close()


def _by_shards(
    plain: Callable[Concatenate[Settings, BotArgs], LamaBot],
    sharded: Callable[Concatenate[Settings, BotArgs], LamaBot],
) -> Callable[Concatenate[Settings, BotArgs], LamaBot]:
    """A maker that takes the bot's own arguments and picks its class by the settings."""

    def make(settings: Settings, /, *args: BotArgs.args, **kwargs: BotArgs.kwargs) -> LamaBot:
        kind = plain if settings.shard_count is None else sharded
        return kind(settings, *args, **kwargs)

    return make


#: The bot the settings ask for: sharded with SHARD_COUNT, else one plain client. It
#: takes :class:`LamaBot`'s arguments.
make_bot = _by_shards(LamaBot, ShardedLamaBot)


def shards_of(settings: Settings) -> Shards:
    if settings.shard_count is None or settings.shard_ids is None:
        return Shards()
    return Shards(settings.shard_count, settings.shard_ids)
