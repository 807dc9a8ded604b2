"""The bot's Prometheus series: what the service, the store and discord.py report.

:class:`BotMetrics` owns a registry of its own (not prometheus_client's global
one, so two bots in one test process never share a series) with the process
collectors on it.  It is the service's :class:`~bot.service.metrics.ServiceMetrics`
(moves, AI timings), the store's unit-of-work observer, and the source of an
aiohttp ``TraceConfig`` on discord.py's session, which sees every REST call the
bot makes, by the bot token or an interaction's, 429s included.  What is a
level rather than a count (tables, the AI's queue, shard latency) is read when
Prometheus scrapes, through :meth:`BotMetrics.watch`, so a move pays nothing
for it.  The loop-lag sampler is a background task of its own.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from types import SimpleNamespace

import aiohttp
from prometheus_client import (
    GC_COLLECTOR,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector

from bot.service.metrics import Mover, ThoughtKind

log = logging.getLogger(__name__)

del GC_COLLECTOR  # the global registry's; this registry gets its own below

#: How often the loop-lag sampler wakes up, in seconds.
LAG_INTERVAL = 1.0
_AI_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)
_LAG_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5)
_STORE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5)


def token_of(path: str) -> str:
    """Which token a REST call to ``path`` used: ``interaction`` for an interaction's
    callback and webhook, ``bot`` for the rest."""
    return "interaction" if "/webhooks/" in path or "/interactions/" in path else "bot"


class _Levels(Collector):
    """The series read at each scrape from the functions :meth:`BotMetrics.watch` set."""

    def __init__(self) -> None:
        self.statuses: Callable[[], Iterable[str]] = tuple
        self.waiting: Callable[[], Mapping[str, int]] = dict
        self.latencies: Callable[[], Iterable[tuple[int, float]]] = tuple

    def collect(self) -> Iterator[Metric]:
        tables = GaugeMetricFamily(
            "lama_tables_active", "Open tables, by status.", labels=["status"]
        )
        counts = {"lobby": 0, "running": 0}
        for status in self.statuses():
            if status in counts:
                counts[status] += 1
        for status, count in counts.items():
            tables.add_metric([status], count)
        yield tables
        queue = GaugeMetricFamily(
            "lama_ai_queue_depth", "AI work waiting for a worker, by kind.", labels=["kind"]
        )
        for kind, depth in self.waiting().items():
            queue.add_metric([kind], depth)
        yield queue
        shards = GaugeMetricFamily(
            "lama_shard_latency_seconds",
            "Gateway heartbeat latency, by shard.",
            labels=["shard"],
        )
        for shard, latency in self.latencies():
            if not math.isnan(latency) and not math.isinf(latency):
                shards.add_metric([str(shard)], latency)
        yield shards


class BotMetrics:
    """Every series of one bot, on a registry of its own."""

    def __init__(self) -> None:
        self.registry = registry = CollectorRegistry()
        ProcessCollector(registry=registry)
        PlatformCollector(registry=registry)
        GCCollector(registry=registry)
        self._levels = _Levels()
        registry.register(self._levels)
        self.moves = Counter("lama_moves", "Moves saved, by who moved.", ["who"], registry=registry)
        self.requests = Counter(
            "lama_discord_requests",
            "Discord REST calls answered, by token and HTTP status.",
            ["token", "status"],
            registry=registry,
        )
        self.rate_limited = Counter(
            "lama_discord_rate_limited",
            "Discord REST calls answered 429 Too Many Requests.",
            registry=registry,
        )
        self.ai_seconds = Histogram(
            "lama_ai_seconds",
            "Time from asking the AI to its answer, the wait included, by kind.",
            ["kind"],
            buckets=_AI_BUCKETS,
            registry=registry,
        )
        self.loop_lag = Histogram(
            "lama_event_loop_lag_seconds",
            "How late the event loop woke a sleeping task.",
            buckets=_LAG_BUCKETS,
            registry=registry,
        )
        self.store_seconds = Histogram(
            "lama_store_seconds",
            "Store units of work (one transaction each), by kind.",
            ["kind"],
            buckets=_STORE_BUCKETS,
            registry=registry,
        )
        # Every label the bot uses from the start: a series at 0 before it first moves.
        self._moved = {who: self.moves.labels(who) for who in ("human", "ai", "timer")}
        self._thought = {k: self.ai_seconds.labels(k) for k in ("move", "hint", "review")}
        self._units = {k: self.store_seconds.labels(k) for k in ("write", "read")}
        self._sampler: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ the service's sink
    def moved(self, who: Mover) -> None:
        self._moved[who].inc()

    def thought(self, kind: ThoughtKind, seconds: float) -> None:
        self._thought[kind].observe(seconds)

    # ------------------------------------------------------------ the store's observer
    def unit_done(self, kind: str, seconds: float) -> None:
        self._units[kind].observe(seconds)

    # ------------------------------------------------------------ discord.py's session
    def trace_config(self) -> aiohttp.TraceConfig:
        """Counts each REST call's answer (a retried 429 is one answer of its own)."""
        trace = aiohttp.TraceConfig()

        async def ended(
            _session: aiohttp.ClientSession,
            _context: SimpleNamespace,
            params: aiohttp.TraceRequestEndParams,
        ) -> None:
            path = params.url.path
            if "/api/" not in path:  # the gateway's upgrade, the CDN
                return
            status = params.response.status
            self.requests.labels(token_of(path), str(status)).inc()
            if status == 429:
                self.rate_limited.inc()

        async def failed(
            _session: aiohttp.ClientSession,
            _context: SimpleNamespace,
            params: aiohttp.TraceRequestExceptionParams,
        ) -> None:
            if "/api/" in params.url.path:
                self.requests.labels(token_of(params.url.path), "error").inc()

        trace.on_request_end.append(ended)
        trace.on_request_exception.append(failed)
        return trace

    # ------------------------------------------------------------ levels and the loop
    def watch(
        self,
        *,
        statuses: Callable[[], Iterable[str]],
        waiting: Callable[[], Mapping[str, int]],
        latencies: Callable[[], Iterable[tuple[int, float]]],
    ) -> None:
        """Read the tables' statuses, the AI's queue and the shards' latencies at each
        scrape from these."""
        self._levels.statuses = statuses
        self._levels.waiting = waiting
        self._levels.latencies = latencies

    def start_sampling(self, interval: float = LAG_INTERVAL) -> None:
        """Sample the event loop's lag every ``interval`` seconds, until :meth:`close`."""
        if self._sampler is None:
            self._sampler = asyncio.create_task(self._sample(interval), name="lama-loop-lag")

    async def _sample(self, interval: float) -> None:
        loop = asyncio.get_running_loop()
        while True:
            began = loop.time()
            await asyncio.sleep(interval)
            try:
                self.loop_lag.observe(max(0.0, loop.time() - began - interval))
            except Exception:  # a sample lost is no reason to stop sampling
                log.exception("could not sample the event loop's lag")

    async def close(self) -> None:
        if self._sampler is not None:
            self._sampler.cancel()
            await asyncio.gather(self._sampler, return_exceptions=True)
            self._sampler = None

    def exposition(self) -> bytes:
        """Every series in Prometheus' text format."""
        return generate_latest(self.registry)


__all__ = ["LAG_INTERVAL", "BotMetrics", "token_of"]
