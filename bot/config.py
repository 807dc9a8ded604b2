"""Runtime settings, read from the environment and an optional ``.env`` file.

Every problem is reported as a :class:`ConfigError` whose message is one sentence
naming the offending variable (or ``.env`` line) and saying how to fix it, so
``python -m bot`` can print it without a traceback.
"""

from __future__ import annotations

import base64
import binascii
import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

from dotenv import load_dotenv
from dotenv.parser import parse_stream

from data.postgres import url_passwords

log = logging.getLogger(__name__)

ENV_FILE_NAME = ".env"
DEFAULT_DATABASE_PATH = Path("lama.db")
DEFAULT_LOG_LEVEL = logging.INFO
DEFAULT_TURN_TIMER = 120
MAX_TURN_TIMER = 3600
MIN_TURN_TIMER = 15  # a shorter turn can't be read and played; 0 turns the timer off
MAX_AI_WORKERS = 64
DEFAULT_REST_BUDGET = 40.0  # bot-token calls a second; Discord allows about 50 per token
MAX_REST_BUDGET = 50.0
#: REST_BUDGET's default behind a shared REST proxy (DISCORD_API_BASE), which holds the
#: token's limits for every process: each may use the whole of it.
PROXIED_REST_BUDGET = MAX_REST_BUDGET

LOG_LEVELS: dict[str, int] = {
    "DEBUG": logging.DEBUG,
    "INFO": logging.INFO,
    "WARNING": logging.WARNING,
    "ERROR": logging.ERROR,
    "CRITICAL": logging.CRITICAL,
}

_DIGITS = re.compile(r"[0-9]+")
_TOKEN_FORBIDDEN = re.compile(r"[\s'\"`]")
#: A bot token: the bot's id in base64, a timestamp and a signature, in base64url, dot-separated.
_TOKEN_FORM = re.compile(r"([A-Za-z0-9_-]+)\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+")
_SNOWFLAKE_MAX = 2**64 - 1


class ConfigError(Exception):
    """The configuration is missing or invalid; the message says how to fix it."""


#: The variable a broken ``.env`` line sets, when it has one: a name followed by ``=``.
_ENV_NAME = re.compile(r"\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=")


def _line_variable(line: str) -> str:
    """`` (the line setting NAME)`` for a line that names the variable it sets, else nothing.

    Never any of the value: the line may be a token pasted without its name."""
    named = _ENV_NAME.match(line)
    return f" (the line setting {named.group(1)})" if named else ""


def check_env_file(path: Path) -> None:
    """Raise :class:`ConfigError` for the first line of ``path`` python-dotenv cannot parse."""
    try:
        with path.open(encoding="utf-8") as stream:
            for binding in parse_stream(stream):
                if binding.error:
                    raise ConfigError(
                        f"Line {binding.original.line} of {path} cannot be parsed"
                        f"{_line_variable(binding.original.string)}; write it as KEY=value, "
                        "turn it into a comment with a leading #, or delete it."
                    )
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{path} is not valid UTF-8 text; re-save it as UTF-8 (plain text) and try again."
        ) from exc
    except OSError as exc:
        raise ConfigError(
            f"{path} exists but cannot be read ({exc.strerror}); fix its permissions or remove it."
        ) from exc


def load_env_file(path: Path | None = None) -> Path | None:
    """Validate and load ``.env`` (default: in the working directory) into ``os.environ``.

    Variables already set in the real environment win (``override=False``).
    Returns the loaded path, or ``None`` when there is no such file.
    """
    path = Path.cwd() / ENV_FILE_NAME if path is None else path
    if not path.is_file():
        return None
    check_env_file(path)
    load_dotenv(path, override=False, encoding="utf-8")
    return path


def _get(environ: Mapping[str, str], name: str) -> str | None:
    """Return a stripped variable, treating unset and empty as ``None``."""
    value = environ.get(name)
    if value is None or not value.strip():
        return None
    return value.strip()


def _parse_token(environ: Mapping[str, str], *, require: bool) -> str:
    raw = environ.get("DISCORD_TOKEN")
    if raw is None or not raw.strip():
        if not require:
            return ""
        raise ConfigError(
            "DISCORD_TOKEN is not set: create a bot token in the Discord Developer Portal "
            "(https://discord.com/developers/applications → Applications → your app → Bot → "
            "Reset Token) and put it as DISCORD_TOKEN=<token> in a .env file in the folder "
            "you run the bot from (see .env.example)."
        )
    if _TOKEN_FORBIDDEN.search(raw):
        raise ConfigError(
            "DISCORD_TOKEN is malformed because it contains whitespace or quotes; paste the "
            "token exactly as the Discord Developer Portal shows it, without quotes, spaces "
            'or a "Bot " prefix.'
        )
    if require and token_id(raw) is None:
        raise ConfigError(
            "DISCORD_TOKEN is not a bot token, which has three parts separated by dots, the "
            "first being the bot's id; copy the token again from the Discord Developer Portal "
            "(Applications → your app → Bot → Reset Token), not the client secret or the "
            "public key."
        )
    return raw


def token_id(token: str) -> int | None:
    """The bot's id a bot token starts with (its first part, in base64); None when
    ``token`` is not of a bot token's form."""
    form = _TOKEN_FORM.fullmatch(token)
    if form is None:
        return None
    first = form.group(1)
    try:
        decoded = base64.urlsafe_b64decode(first + "=" * (-len(first) % 4)).decode("ascii")
    except (binascii.Error, ValueError):  # UnicodeDecodeError is a ValueError
        return None
    if not _DIGITS.fullmatch(decoded) or not 0 < int(decoded) <= _SNOWFLAKE_MAX:
        return None
    return int(decoded)


def _parse_database_path(environ: Mapping[str, str]) -> Path:
    raw = _get(environ, "DATABASE_PATH")
    path = DEFAULT_DATABASE_PATH if raw is None else Path(raw).expanduser()
    if path.is_dir():
        raise ConfigError(
            "DATABASE_PATH points to a directory; set it to a file path "
            "such as lama.db (the file is created on first start)."
        )
    return path


def _parse_database_url(environ: Mapping[str, str]) -> str | None:
    raw = _get(environ, "DATABASE_URL")
    if raw is None:
        return None
    if not raw.startswith(("postgresql://", "postgres://")):
        raise ConfigError(
            "DATABASE_URL must be a PostgreSQL URL such as postgresql://user:password@host/lama"
            "; leave it empty to use the SQLite file "
            "DATABASE_PATH."
        )
    return raw


def _parse_shards(environ: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and SHARD_IDS: both or neither; the ids distinct, each below the count."""
    count_raw, ids_raw = _get(environ, "SHARD_COUNT"), _get(environ, "SHARD_IDS")
    if count_raw is None and ids_raw is None:
        return None, None
    if count_raw is None or ids_raw is None:
        raise ConfigError(
            "SHARD_COUNT and SHARD_IDS go together: set SHARD_COUNT to the number of shards "
            "of the whole bot and SHARD_IDS to this process's shards (e.g. 0,1), or neither."
        )
    if not _DIGITS.fullmatch(count_raw) or not 0 < int(count_raw) <= 1_000_000:
        raise ConfigError("SHARD_COUNT must be a positive whole number.")
    count = int(count_raw)
    parts = [part.strip() for part in ids_raw.split(",")]
    if not all(_DIGITS.fullmatch(part) for part in parts):
        raise ConfigError("SHARD_IDS must be shard numbers separated by commas, such as 0,1.")
    ids = tuple(int(part) for part in parts)
    if len(set(ids)) != len(ids) or max(ids) >= count:
        raise ConfigError(
            f"SHARD_IDS must be distinct shard numbers from 0 to {count - 1} for "
            f"SHARD_COUNT={count}."
        )
    return count, tuple(sorted(ids))


def _parse_dev_guild_id(environ: Mapping[str, str]) -> int | None:
    raw = _get(environ, "DEV_GUILD_ID")
    if raw is None:
        return None
    if not _DIGITS.fullmatch(raw) or not 0 < int(raw) <= _SNOWFLAKE_MAX:
        raise ConfigError(
            "DEV_GUILD_ID must be a positive integer server ID; in Discord "
            "enable Developer Mode, right-click your server, choose Copy Server ID and paste "
            "that number, or leave DEV_GUILD_ID empty."
        )
    return int(raw)


def _parse_log_level(environ: Mapping[str, str]) -> int:
    raw = _get(environ, "LOG_LEVEL")
    if raw is None:
        return DEFAULT_LOG_LEVEL
    level = LOG_LEVELS.get(raw.upper())
    if level is None:
        raise ConfigError(
            "LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR or CRITICAL"
            "; fix it in your .env file or environment."
        )
    return level


def _parse_turn_timer(environ: Mapping[str, str]) -> int:
    raw = _get(environ, "DEFAULT_TURN_TIMER")
    if raw is None:
        return DEFAULT_TURN_TIMER
    if not _DIGITS.fullmatch(raw) or int(raw) > MAX_TURN_TIMER or 0 < int(raw) < MIN_TURN_TIMER:
        raise ConfigError(
            f"DEFAULT_TURN_TIMER must be 0 (timer off) or a whole number of seconds from "
            f"{MIN_TURN_TIMER} to {MAX_TURN_TIMER}; fix it in your .env "
            f"file or environment."
        )
    return int(raw)


def default_ai_workers() -> int:
    """Processes for Hard's search: one fewer than the cores (the bot keeps one), at least 1."""
    return max(1, (os.cpu_count() or 1) - 1)


def _parse_ai_workers(environ: Mapping[str, str]) -> int:
    raw = _get(environ, "AI_WORKERS")
    if raw is None:
        return default_ai_workers()
    if not _DIGITS.fullmatch(raw) or not 1 <= int(raw) <= MAX_AI_WORKERS:
        raise ConfigError(
            f"AI_WORKERS must be a whole number of processes from 1 to {MAX_AI_WORKERS}"
            "; leave it empty for one fewer than the CPU cores."
        )
    return int(raw)


#: A proxy's address: http or https, a host (a name, IPv4 or [IPv6]) and an optional port.
_API_BASE = re.compile(r"(https?)://([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::([0-9]{1,5}))?/?")


def _parse_api_base(environ: Mapping[str, str]) -> str | None:
    """DISCORD_API_BASE: the REST proxy's address without a trailing slash, or None."""
    raw = _get(environ, "DISCORD_API_BASE")
    if raw is None:
        return None
    match = _API_BASE.fullmatch(raw)
    if match is None or (match.group(3) is not None and not 0 < int(match.group(3)) < 65536):
        raise ConfigError(
            "DISCORD_API_BASE must be the REST proxy's address such as http://nirn-proxy:8080 "
            "(http or https, a host and an optional port, nothing after them; the bot adds "
            "/api/v10); leave it empty to call Discord directly."
        )
    return raw.rstrip("/")


def _parse_docs_url(environ: Mapping[str, str]) -> str | None:
    """DOCS_URL: the address of the docs /lama help links to, or None (no link)."""
    raw = _get(environ, "DOCS_URL")
    if raw is None:
        return None
    parts = urlsplit(raw)
    if parts.scheme not in {"http", "https"} or not parts.hostname or re.search(r"\s", raw):
        raise ConfigError(
            "DOCS_URL must be the web address of the bot's docs for /lama help to link to, "
            "such as https://example.org/lama-bot/ (http or https, no spaces); leave it empty "
            "for no link."
        )
    return raw


def _parse_rest_budget(environ: Mapping[str, str], *, proxied: bool) -> float:
    raw = _get(environ, "REST_BUDGET")
    default = PROXIED_REST_BUDGET if proxied else DEFAULT_REST_BUDGET
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = 0.0
    if not 1 <= value <= MAX_REST_BUDGET:
        raise ConfigError(
            f"REST_BUDGET must be a number of requests a second from 1 to {MAX_REST_BUDGET:g}"
            f"; leave it empty for {default:g} (with several processes on one bot token "
            "and no DISCORD_API_BASE proxy, give each its share of Discord's 50)."
        )
    return value


# ---------------------------------------------------------------- monitoring (bot.metrics)
DEFAULT_METRICS_HOST = "127.0.0.1"
LOG_FORMATS = ("text", "json")
_HOST = re.compile(r"[A-Za-z0-9.:\-]+")


def _parse_metrics_port(environ: Mapping[str, str]) -> int | None:
    """METRICS_PORT: unset serves no metrics; 0 takes any free port (for tests)."""
    raw = _get(environ, "METRICS_PORT")
    if raw is None:
        return None
    if not _DIGITS.fullmatch(raw) or int(raw) > 65535:
        raise ConfigError(
            "METRICS_PORT must be a TCP port number such as 9108 (0: any free port, up to "
            "65535) for /metrics and /healthz; leave it empty to serve neither."
        )
    return int(raw)


def _parse_metrics_host(environ: Mapping[str, str]) -> str:
    raw = _get(environ, "METRICS_HOST")
    if raw is None:
        return DEFAULT_METRICS_HOST
    if not _HOST.fullmatch(raw):
        raise ConfigError(
            "METRICS_HOST must be an address to listen on, such as 127.0.0.1 (this machine "
            "only) or 0.0.0.0 (every interface, as in Docker); leave it empty for 127.0.0.1."
        )
    return raw


def _parse_log_format(environ: Mapping[str, str]) -> str:
    raw = _get(environ, "LOG_FORMAT")
    if raw is None:
        return "text"
    if raw.lower() not in LOG_FORMATS:
        raise ConfigError(
            "LOG_FORMAT must be text (the default) or json (one JSON object a line, "
            "for log shippers); fix it in your .env file or environment."
        )
    return raw.lower()


@dataclass(frozen=True, slots=True)
class Settings:
    """Validated bot settings; build them with :meth:`from_env`."""

    token: str = field(repr=False)
    database_path: Path = DEFAULT_DATABASE_PATH
    dev_guild_id: int | None = None
    log_level: int = DEFAULT_LOG_LEVEL
    turn_timer: int = DEFAULT_TURN_TIMER
    #: A postgresql:// URL: PostgreSQL instead of the SQLite file ``database_path``.
    database_url: str | None = field(default=None, repr=False)
    #: The shards of the whole bot and this process's share; None: one process, as Discord says.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    ai_workers: int = field(default_factory=default_ai_workers)
    #: Bot-token REST calls a second this process allows itself (bot.limiter).
    rest_budget: float = DEFAULT_REST_BUDGET
    #: /metrics and /healthz on this port (0: any free one); None: not served.
    metrics_port: int | None = None
    metrics_host: str = DEFAULT_METRICS_HOST
    #: "text" (discord.py's lines) or "json" (one object a line).
    log_format: str = "text"
    #: A REST proxy every Discord API call goes through (``http://host:port``); None: Discord.
    api_base: str | None = None
    #: Where /lama help sends people for the whole guide; None: no link.
    docs_url: str | None = None

    @property
    def database(self) -> str:
        """What the store opens: the PostgreSQL URL if set, else the SQLite file."""
        return self.database_url or str(self.database_path)

    @property
    def secrets(self) -> tuple[str, ...]:
        """What no log line may show: the bot token and the database's password (as
        written in DATABASE_URL and as it is decoded, either may be quoted)."""
        found = [self.token]
        if self.database_url is not None:
            for password in url_passwords(self.database_url):
                found += [password, unquote(password)]
        return tuple(dict.fromkeys(secret for secret in found if secret))

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, *, require_token: bool = True
    ) -> Settings:
        """Read settings from ``environ``.

        With ``environ=None`` the ``.env`` file in the current working directory is
        validated and loaded into ``os.environ`` first (real environment variables win),
        then ``os.environ`` is read. An explicit mapping is used as-is, without ``.env``.
        Raises :class:`ConfigError` on the first problem found.
        """
        if environ is None:
            loaded = load_env_file()
            if loaded is not None:
                log.debug("Loaded settings from %s", loaded)
            environ = os.environ
        shard_count, shard_ids = _parse_shards(environ)
        api_base = _parse_api_base(environ)
        return cls(
            token=_parse_token(environ, require=require_token),
            database_path=_parse_database_path(environ),
            database_url=_parse_database_url(environ),
            shard_count=shard_count,
            shard_ids=shard_ids,
            dev_guild_id=_parse_dev_guild_id(environ),
            log_level=_parse_log_level(environ),
            turn_timer=_parse_turn_timer(environ),
            ai_workers=_parse_ai_workers(environ),
            rest_budget=_parse_rest_budget(environ, proxied=api_base is not None),
            api_base=api_base,
            metrics_port=_parse_metrics_port(environ),
            metrics_host=_parse_metrics_host(environ),
            log_format=_parse_log_format(environ),
            docs_url=_parse_docs_url(environ),
        )
