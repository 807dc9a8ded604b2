"""Runtime settings, read from the environment and an optional ``.env`` file.

Every problem is reported as a :class:`ConfigError` whose message is one sentence
naming the offending variable (or ``.env`` line) and saying how to fix it, so
``python -m bot`` can print it without a traceback.
"""

from __future__ import annotations

import base64
import binascii
import functools
import logging
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar
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
T = TypeVar("T")
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


def _setting(
    environ: Mapping[str, str],
    name: str,
    default: T,
    read: Callable[[str], T | None],
    problem: str | None = None,
) -> T:
    """The variable ``name`` as ``read`` takes it, or ``default`` when unset or empty;
    a value ``read`` refuses (None) stops the start with ``problem`` (by default the
    variable's in :data:`_PROBLEMS`)."""
    raw = _get(environ, name)
    if raw is None:
        return default
    value = read(raw)
    if value is None:
        raise ConfigError(_PROBLEMS[name] if problem is None else problem)
    return value


def _whole(low: int, high: int) -> Callable[[str], int | None]:
    """Reads a whole number from ``low`` to ``high``; None for anything else."""

    def read(raw: str) -> int | None:
        return int(raw) if _DIGITS.fullmatch(raw) and low <= int(raw) <= high else None

    return read


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


def _postgres_url(raw: str) -> str | None:
    return raw if raw.startswith(("postgresql://", "postgres://")) else None


def _log_level(raw: str) -> int | None:
    return LOG_LEVELS.get(raw.upper())


def _turn_timer(raw: str) -> int | None:
    seconds = _whole(0, MAX_TURN_TIMER)(raw)
    return None if seconds is None or 0 < seconds < MIN_TURN_TIMER else seconds


def default_ai_workers() -> int:
    """Processes for Hard's search: one fewer than the cores (the bot keeps one), at least 1."""
    return max(1, (os.cpu_count() or 1) - 1)


#: A proxy's address: http or https, a host (a name, IPv4 or [IPv6]) and an optional port.
_API_BASE = re.compile(r"(https?)://([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::([0-9]{1,5}))?/?")


def _api_base(raw: str) -> str | None:
    """The REST proxy's address without a trailing slash."""
    match = _API_BASE.fullmatch(raw)
    if match is None or (match.group(3) is not None and not 0 < int(match.group(3)) < 65536):
        return None
    return raw.rstrip("/")


def _docs_url(raw: str) -> str | None:
    """The address of the docs /lama help links to."""
    parts = urlsplit(raw)
    if parts.scheme not in {"http", "https"} or not parts.hostname or re.search(r"\s", raw):
        return None
    return raw


def _rest_budget(raw: str) -> float | None:
    try:
        value = float(raw)
    except ValueError:
        return None
    return value if 1 <= value <= MAX_REST_BUDGET else None


def _parse_rest_budget(environ: Mapping[str, str], *, proxied: bool) -> float:
    default = PROXIED_REST_BUDGET if proxied else DEFAULT_REST_BUDGET
    return _setting(
        environ,
        "REST_BUDGET",
        default,
        _rest_budget,
        f"REST_BUDGET must be a number of requests a second from 1 to {MAX_REST_BUDGET:g}"
        f"; leave it empty for {default:g} (with several processes on one bot token "
        "and no DISCORD_API_BASE proxy, give each its share of Discord's 50).",
    )


# ---------------------------------------------------------------- monitoring (bot.metrics)
DEFAULT_METRICS_HOST = "127.0.0.1"
LOG_FORMATS = ("text", "json")
_HOST = re.compile(r"[A-Za-z0-9.:\-]+")


def _listen_host(raw: str) -> str | None:
    return raw if _HOST.fullmatch(raw) else None


def _log_format(raw: str) -> str | None:
    return raw.lower() if raw.lower() in LOG_FORMATS else None


#: What each variable read by :func:`_setting` must be: said, and the start stopped, when
#: it is not.
_PROBLEMS = {
    "DATABASE_URL": (
        "DATABASE_URL must be a PostgreSQL URL such as postgresql://user:password@host/lama"
        "; leave it empty to use the SQLite file DATABASE_PATH."
    ),
    "DEV_GUILD_ID": (
        "DEV_GUILD_ID must be a positive integer server ID; in Discord "
        "enable Developer Mode, right-click your server, choose Copy Server ID and paste "
        "that number, or leave DEV_GUILD_ID empty."
    ),
    "LOG_LEVEL": (
        "LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR or CRITICAL"
        "; fix it in your .env file or environment."
    ),
    "DEFAULT_TURN_TIMER": (
        f"DEFAULT_TURN_TIMER must be 0 (timer off) or a whole number of seconds from "
        f"{MIN_TURN_TIMER} to {MAX_TURN_TIMER}; fix it in your .env file or environment."
    ),
    "AI_WORKERS": (
        f"AI_WORKERS must be a whole number of processes from 1 to {MAX_AI_WORKERS}"
        "; leave it empty for one fewer than the CPU cores."
    ),
    "DISCORD_API_BASE": (
        "DISCORD_API_BASE must be the REST proxy's address such as http://nirn-proxy:8080 "
        "(http or https, a host and an optional port, nothing after them; the bot adds "
        "/api/v10); leave it empty to call Discord directly."
    ),
    "DOCS_URL": (
        "DOCS_URL must be the web address of the bot's docs for /lama help to link to, "
        "such as https://example.org/lama-bot/ (http or https, no spaces); leave it empty "
        "for no link."
    ),
    "METRICS_PORT": (
        "METRICS_PORT must be a TCP port number such as 9108 (0: any free port, up to "
        "65535) for /metrics and /healthz; leave it empty to serve neither."
    ),
    "METRICS_HOST": (
        "METRICS_HOST must be an address to listen on, such as 127.0.0.1 (this machine "
        "only) or 0.0.0.0 (every interface, as in Docker); leave it empty for 127.0.0.1."
    ),
    "LOG_FORMAT": (
        "LOG_FORMAT must be text (the default) or json (one JSON object a line, "
        "for log shippers); fix it in your .env file or environment."
    ),
}


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
        setting = functools.partial(_setting, environ)
        shard_count, shard_ids = _parse_shards(environ)
        api_base = setting("DISCORD_API_BASE", None, _api_base)
        return cls(
            token=_parse_token(environ, require=require_token),
            database_path=_parse_database_path(environ),
            database_url=setting("DATABASE_URL", None, _postgres_url),
            shard_count=shard_count,
            shard_ids=shard_ids,
            dev_guild_id=setting("DEV_GUILD_ID", None, _whole(1, _SNOWFLAKE_MAX)),
            log_level=setting("LOG_LEVEL", DEFAULT_LOG_LEVEL, _log_level),
            turn_timer=setting("DEFAULT_TURN_TIMER", DEFAULT_TURN_TIMER, _turn_timer),
            ai_workers=setting("AI_WORKERS", default_ai_workers(), _whole(1, MAX_AI_WORKERS)),
            rest_budget=_parse_rest_budget(environ, proxied=api_base is not None),
            api_base=api_base,
            # 0 takes any free port (for tests)
            metrics_port=setting("METRICS_PORT", None, _whole(0, 65535)),
            metrics_host=setting("METRICS_HOST", DEFAULT_METRICS_HOST, _listen_host),
            log_format=setting("LOG_FORMAT", "text", _log_format),
            docs_url=setting("DOCS_URL", None, _docs_url),
        )
