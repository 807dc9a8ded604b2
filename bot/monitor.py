"""``/metrics`` and ``/healthz`` over HTTP, served by aiohttp on the bot's own event loop.

One port for both (METRICS_PORT, on METRICS_HOST).  ``/metrics`` is every
series of :class:`~bot.metrics.BotMetrics` in Prometheus' text format;
``/healthz`` answers ``200 ok`` when the health check finds nothing wrong and
``503`` with its one-line reason otherwise (the gateway not connected, the store
not answering), for Docker's HEALTHCHECK, systemd or a load balancer.

Anyone who reaches the port can ask as often as they like, so neither answer's cost
grows with the rate: the store's check is shared and kept a while
(:meth:`data.Store.ping`), and ``/metrics`` is drawn afresh at most
:data:`FRESH_BURST` times at once and then once a second; asked more often, it
answers the last one drawn again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from bot.metrics import BotMetrics

log = logging.getLogger(__name__)

#: ``check()``: None when all is well, else why not, in one line.
HealthCheck = Callable[[], Awaitable[str | None]]

#: ``/metrics`` drawn afresh this many times at once (Prometheus, a person with curl…),
FRESH_BURST = 10
#: and then this many times a second; asked more often, the last one drawn is answered.
FRESH_PER_SECOND = 1.0


class Monitor:
    """The HTTP server of ``/metrics`` and ``/healthz``; :meth:`start`, then :meth:`close`."""

    def __init__(
        self, metrics: BotMetrics, check: HealthCheck, clock: Callable[[], float] | None = None
    ) -> None:
        self._metrics = metrics
        self._check = check
        #: Seconds, for the fresh expositions' budget (the loop's clock unless given).
        self._clock = clock if clock is not None else asyncio.get_running_loop().time
        self._fresh = float(FRESH_BURST)  # fresh expositions left now
        self._counted_at = self._clock()
        self._exposition: bytes | None = None
        self._runner: web.AppRunner | None = None
        #: The port it listens on, once started (METRICS_PORT=0 picks a free one).
        self.port: int | None = None

    def _exposed(self) -> bytes:
        """The series drawn afresh while the budget lasts, else the last drawing again."""
        now = self._clock()
        gained = max(0.0, now - self._counted_at) * FRESH_PER_SECOND
        self._fresh, self._counted_at = min(float(FRESH_BURST), self._fresh + gained), now
        if self._exposition is None or self._fresh >= 1:
            self._fresh = max(0.0, self._fresh - 1)
            self._exposition = self._metrics.exposition()
        return self._exposition

    async def _serve_metrics(self, _request: web.Request) -> web.Response:
        response = web.Response(body=self._exposed())
        response.headers["Content-Type"] = CONTENT_TYPE_LATEST
        return response

    async def _serve_health(self, _request: web.Request) -> web.Response:
        try:
            reason = await self._check()
        except Exception as error:  # the check itself broke: not healthy, and say why
            log.exception("the health check failed")
            reason = f"the health check failed: {type(error).__name__}"
        if reason is None:
            return web.Response(text="ok\n")
        return web.Response(status=503, text=f"{reason}\n")

    async def start(self, host: str, port: int) -> None:
        app = web.Application()
        app.router.add_get("/metrics", self._serve_metrics)
        app.router.add_get("/healthz", self._serve_health)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        server = site._server  # the listening socket: the port 0 became
        sockets = getattr(server, "sockets", None) or ()
        self.port = sockets[0].getsockname()[1] if sockets else port
        log.info("Serving /metrics and /healthz on %s:%d", host, self.port)

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


__all__ = ["HealthCheck", "Monitor"]
