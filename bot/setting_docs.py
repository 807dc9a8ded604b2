"""What each setting of bot/config.py means: the settings reference's table, in English.

``python -m scripts.command_reference`` writes ``docs/reference/settings.md`` from it;
``tests/test_docs.py`` fails when a variable that :meth:`bot.config.Settings.from_env` reads
is missing here (or from ``.env.example``). Defaults and ranges are taken from
bot/config.py's constants, so the page can't drift from the checks.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot import config


@dataclass(frozen=True, slots=True)
class SettingDoc:
    """One environment variable: its name, whether it is required, its default, its meaning."""

    name: str
    default: str
    meaning: str
    required: bool = False


def _n(value: float) -> str:
    return f"{value:g}"


SETTINGS: tuple[SettingDoc, ...] = (
    SettingDoc(
        "DISCORD_TOKEN",
        "—",
        "Bot token from the Developer Portal (Bot → Reset Token).",
        required=True,
    ),
    SettingDoc(
        "DATABASE_PATH",
        f"`{config.DEFAULT_DATABASE_PATH}`",
        "SQLite database file, relative to the working folder.",
    ),
    SettingDoc(
        "DATABASE_URL",
        "unset",
        "`postgresql://user:password@host:5432/lama`: use PostgreSQL (install the `postgres` "
        "extra) instead of the SQLite file.",
    ),
    SettingDoc(
        "DEV_GUILD_ID",
        "unset",
        "Test server ID; commands are synced there on every start.",
    ),
    SettingDoc(
        "LOG_LEVEL",
        "`INFO`",
        " ".join(f"`{level}`," for level in config.LOG_LEVELS).rstrip(",")
        + ". At every level the logs show no token: interaction and webhook tokens in request "
        "URLs and events, and the bot token, are written as `<redacted>`.",
    ),
    SettingDoc(
        "DEFAULT_TURN_TIMER",
        f"`{config.DEFAULT_TURN_TIMER}`",
        f"Seconds per turn in new games: `0` (off), or `{config.MIN_TURN_TIMER}` to "
        f"`{config.MAX_TURN_TIMER}`.",
    ),
    SettingDoc(
        "AI_WORKERS",
        "cores − 1 (at least 1)",
        f"Processes the Hard AI thinks in, `1` to `{config.MAX_AI_WORKERS}`; they start once a "
        "table has a Hard seat.",
    ),
    SettingDoc(
        "SHARD_COUNT",
        "unset",
        "Shards of the whole bot, when it runs as several processes "
        "(see [Running at scale](../host/scale.md)).",
    ),
    SettingDoc(
        "SHARD_IDS",
        "unset",
        "This process's shards, e.g. `0,1`; set together with `SHARD_COUNT`.",
    ),
    SettingDoc(
        "METRICS_PORT",
        "unset",
        "Serve `/metrics` (Prometheus) and `/healthz` on this port "
        "(see [Metrics and health](../host/index.md#metrics-and-health)); unset: neither.",
    ),
    SettingDoc(
        "METRICS_HOST",
        f"`{config.DEFAULT_METRICS_HOST}`",
        "Address to serve them on; `0.0.0.0` for every interface (the Docker image's default).",
    ),
    SettingDoc(
        "LOG_FORMAT",
        f"`{config.LOG_FORMATS[0]}`",
        "`json`: one JSON object a line (time, level, logger, message, and `game_id`, "
        "`guild_id`, `channel_id` where known), tokens redacted as in text.",
    ),
    SettingDoc(
        "REST_BUDGET",
        f"`{_n(config.DEFAULT_REST_BUDGET)}` (`{_n(config.PROXIED_REST_BUDGET)}` with "
        "`DISCORD_API_BASE`)",
        f"Bot-token requests a second this process allows itself, `1` to "
        f"`{_n(config.MAX_REST_BUDGET)}`; Discord allows about 50 per token across all "
        "processes, so give each process its share (behind a REST proxy each may take them "
        "all).",
    ),
    SettingDoc(
        "DISCORD_API_BASE",
        "unset (Discord)",
        "A shared REST proxy every Discord API call goes to, e.g. `http://nirn-proxy:8080` "
        "(http or https, a host and an optional port; the bot adds `/api/v10`); see "
        "[Running at scale](../host/scale.md).",
    ),
    SettingDoc(
        "DOCS_URL",
        "unset (no link)",
        "The web address of the bot's docs (this site), e.g. `https://example.org/lama-bot/` "
        "(http or https); `/lama help` links to it.",
    ),
)
