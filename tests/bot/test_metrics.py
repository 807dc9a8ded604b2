"""/metrics and /healthz served over real HTTP by a running bot, and the series moving."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from pathlib import Path

import aiohttp
import pytest
import simcord
from aiohttp import web

from bot.client import LamaBot, make_bot
from bot.config import Settings
from bot.metrics import BotMetrics, token_of
from bot.monitor import FRESH_BURST, Monitor
from data import StoreError
from testkit.simcord_play import one_move_from_the_end, take_simple_turn

SERIES = (
    "lama_tables_active",
    "lama_moves_total",
    "lama_discord_requests_total",
    "lama_discord_rate_limited_total",
    "lama_ai_queue_depth",
    "lama_ai_seconds",
    "lama_event_loop_lag_seconds",
    "lama_store_seconds",
    "lama_shard_latency_seconds",
    "process_cpu_seconds_total",
)


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return dataclasses.replace(settings, metrics_port=0)


@pytest.fixture(autouse=True)
def hourly_lag_samples(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot samples the loop's lag once an hour here: SimCord lets a timer within its
    settle window (5 s) run out in real time, so each start would wait out five 1 s
    samples. The sampler is tested by itself below."""
    start = BotMetrics.start_sampling

    def hourly(self: BotMetrics, interval: float = 3600.0) -> None:
        start(self, interval)

    monkeypatch.setattr(BotMetrics, "start_sampling", hourly)


async def get(bot: LamaBot, path: str) -> tuple[int, str]:
    assert bot.monitor is not None and bot.monitor.port
    url = f"http://127.0.0.1:{bot.monitor.port}{path}"
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text()


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample in the text format, 0 if absent."""
    shown = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    pattern = "^" + re.escape(f"{name}{{{shown}}}" if labels else name) + r" (\S+)$"
    found = re.search(pattern, text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


async def test_metrics_are_served_and_move_with_a_game(
    simcord_env: simcord.Env,
    simcord_bot: LamaBot,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    # The loop-lag sampler has a test of its own; here its tick every second of SimCord's
    # virtual time would only keep the long jumps to the game's end busy (and slow).
    assert simcord_bot.metrics is not None
    await simcord_bot.metrics.close()
    status, before = await get(simcord_bot, "/metrics")
    assert status == 200
    for name in SERIES:
        assert f"# TYPE {name.removesuffix('_total')}" in before, name
    assert sample(before, "lama_moves_total", who="human") == 0
    table = await one_move_from_the_end(simcord_env, alice, bob, channel)
    _, running = await get(simcord_bot, "/metrics")
    assert sample(running, "lama_tables_active", status="running") == 1
    await take_simple_turn(alice, channel)
    await simcord_env.settle()
    assert table.match is not None and table.match.over
    _, after = await get(simcord_bot, "/metrics")
    assert sample(after, "lama_moves_total", who="human") == 1
    assert sample(after, "lama_tables_active", status="running") == 0
    assert sample(after, "lama_store_seconds_count", kind="write") > sample(
        before, "lama_store_seconds_count", kind="write"
    )
    assert sample(after, "lama_ai_queue_depth", kind="move") == 0


async def test_healthz_is_200_while_all_is_well_and_503_once_the_store_is_closed(
    simcord_env: simcord.Env, simcord_bot: LamaBot
) -> None:
    assert await get(simcord_bot, "/healthz") == (200, "ok\n")
    await simcord_bot.store.close()
    status, reason = await get(simcord_bot, "/healthz")
    assert status == 503
    assert reason.startswith("the store does not answer") and reason.count("\n") == 1


async def test_a_flood_of_healthz_costs_the_store_one_query(
    simcord_env: simcord.Env, simcord_bot: LamaBot
) -> None:
    _, before = await get(simcord_bot, "/metrics")
    answers = await asyncio.gather(*(get(simcord_bot, "/healthz") for _ in range(40)))
    answers += [await get(simcord_bot, "/healthz") for _ in range(40)]
    assert set(answers) == {(200, "ok\n")}
    _, after = await get(simcord_bot, "/metrics")
    queries = sample(after, "lama_store_seconds_count", kind="read") - sample(
        before, "lama_store_seconds_count", kind="read"
    )
    assert queries <= 1


async def test_a_flood_of_metrics_requests_draws_the_series_a_bounded_number_of_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    metrics = BotMetrics()
    drawn: list[bytes] = []
    real = metrics.exposition

    def exposition() -> bytes:
        drawn.append(real())
        return drawn[-1]

    monkeypatch.setattr(metrics, "exposition", exposition)

    async def healthy() -> str | None:
        return None

    now = [0.0]
    monitor = Monitor(metrics, healthy, clock=lambda: now[0])
    await monitor.start("127.0.0.1", 0)
    url = f"http://127.0.0.1:{monitor.port}/metrics"
    try:
        async with aiohttp.ClientSession() as session:

            async def scrape() -> str:
                async with session.get(url) as response:
                    assert response.status == 200
                    return await response.text()

            flood = await asyncio.gather(*(scrape() for _ in range(60)))
            assert len(drawn) == FRESH_BURST, "a burst is drawn afresh, the rest served again"
            assert all("lama_tables_active" in text for text in flood)
            now[0] += 3  # three seconds on: three fresh drawings more
            for _ in range(10):
                await scrape()
            assert len(drawn) == FRESH_BURST + 3
    finally:
        await monitor.close()


async def test_healthz_names_no_database_host_the_store_error_names(
    simcord_env: simcord.Env,
    simcord_bot: LamaBot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # On PostgreSQL a store error may name the server: /healthz may be reachable from
    # further than the host's logs are.
    async def unreachable() -> None:
        raise StoreError("could not connect to db-7.internal.example:5432: connection refused")

    monkeypatch.setattr(simcord_bot.store, "ping", unreachable)
    status, reason = await get(simcord_bot, "/healthz")
    assert (status, reason) == (503, "the store does not answer\n")


async def test_healthz_is_503_before_the_gateway_is_connected(tmp_path: Path) -> None:
    bot = LamaBot(Settings(token="t", database_path=tmp_path / "lama.db", metrics_port=0))
    try:
        await bot._start_monitor()
        assert await get(bot, "/healthz") == (503, "the gateway is not connected\n")
        status, text = await get(bot, "/metrics")
        assert status == 200 and "lama_tables_active" in text
    finally:
        assert bot.monitor is not None
        await bot.monitor.close()
        assert bot.metrics is not None
        await bot.metrics.close()


def test_no_metrics_port_counts_nothing(tmp_path: Path) -> None:
    bot = LamaBot(Settings(token="t", database_path=tmp_path / "lama.db"))
    assert bot.metrics is None and bot.http.http_trace is None


def test_interaction_calls_are_told_from_bot_token_calls() -> None:
    assert token_of("/api/v10/interactions/1/abc/callback") == "interaction"
    assert token_of("/api/v10/webhooks/1/abc/messages/@original") == "interaction"
    assert token_of("/api/v10/channels/1/messages") == "bot"


async def call_discord(trace: aiohttp.TraceConfig) -> None:
    """Two bot-token calls, an interaction's 429 and the gateway, against a real HTTP server."""

    async def ok(_request: web.Request) -> web.Response:
        return web.json_response({})

    async def limited(_request: web.Request) -> web.Response:
        return web.json_response({"retry_after": 0.1}, status=429)

    app = web.Application()
    app.router.add_post("/api/v10/channels/1/messages", ok)
    app.router.add_post("/api/v10/interactions/2/tok/callback", limited)
    app.router.add_get("/gateway", ok)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    base = f"http://127.0.0.1:{port}"
    try:
        async with aiohttp.ClientSession(trace_configs=[trace]) as session:
            for _ in range(2):
                async with session.post(f"{base}/api/v10/channels/1/messages"):
                    pass
            async with session.post(f"{base}/api/v10/interactions/2/tok/callback"):
                pass
            async with session.get(f"{base}/gateway"):
                pass
    finally:
        await runner.cleanup()


def assert_counted(metrics: BotMetrics) -> None:
    text = metrics.exposition().decode()
    assert sample(text, "lama_discord_requests_total", token="bot", status="200") == 2
    assert sample(text, "lama_discord_requests_total", token="interaction", status="429") == 1
    assert sample(text, "lama_discord_rate_limited_total") == 1
    assert "/gateway" not in text


async def test_the_trace_counts_rest_answers_by_token_and_status_and_429s() -> None:
    """discord.py's session with the trace, against a real HTTP server."""
    metrics = BotMetrics()
    await call_discord(metrics.trace_config())
    assert_counted(metrics)


@pytest.mark.parametrize("shard_count", [None, 2])
async def test_rest_calls_and_429s_are_counted_with_or_without_shards(
    tmp_path: Path, shard_count: int | None
) -> None:
    settings = Settings(
        token="t",
        database_path=tmp_path / "lama.db",
        metrics_port=0,
        shard_count=shard_count,
        shard_ids=None if shard_count is None else (0, 1),
    )
    bot = make_bot(settings)
    assert bot.metrics is not None
    trace = bot.http.http_trace
    assert trace is not None, "the bot's REST calls and 429s would go uncounted"
    await call_discord(trace)
    assert_counted(bot.metrics)


async def test_the_loop_lag_sampler_logs_a_failed_sample_and_carries_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    metrics = BotMetrics()
    calls: list[float] = []

    def observe(value: float) -> None:
        calls.append(value)
        if len(calls) == 1:
            raise RuntimeError("broken")

    metrics.loop_lag.observe = observe  # type: ignore[method-assign]
    metrics.start_sampling(interval=0.01)

    for _ in range(200):
        await asyncio.sleep(0.01)
        if len(calls) >= 3:
            break
    await metrics.close()
    assert len(calls) >= 3
    assert "could not sample the event loop's lag" in caplog.text
