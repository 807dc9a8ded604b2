"""The bot's logging: discord.py's handler, with every secret redacted at every level.

With LOG_LEVEL=DEBUG discord.py logs each request's URL, and the URLs of interaction
callbacks and webhooks carry the interaction's token (usable for 15 minutes); the
gateway logs each event, and an INTERACTION_CREATE carries the same token. The filter
on the handler rewrites each record before it is written: the token in
``/interactions/<id>/<token>`` and ``/webhooks/<id>/<token>``, any ``"token": "..."``
and the bot token and the database password (``Settings.secrets``) become ``<redacted>``,
in the message, its arguments and a traceback alike.

With LOG_FORMAT=json each record is one JSON object a line (:class:`JsonFormatter`):
its time, level, logger and message, any traceback, and the game, guild and channel
ids where known (given with ``extra=`` or set around the work by
``bot.service.log_context``), redacted the same way.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable
from datetime import UTC, datetime

import discord

from bot.service.log_context import LOG_CONTEXT

REDACTED = "<redacted>"

_PATTERNS = (
    # /interactions/<id>/<token>/callback and /webhooks/<application id>/<token>/...
    re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/\s?#'\"]+"),
    # "token": "..." in an event or a payload, however it is quoted
    re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]+"""),
    # an Authorization header
    re.compile(r"(\bBot\s+)[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+"),
)


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with tokens in URLs and payloads, and each of ``secrets``, redacted."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, REDACTED)
    for pattern in _PATTERNS:
        text = pattern.sub(rf"\1{REDACTED}", text)
    return text


class RedactSecrets(logging.Filter):
    """Rewrite each record so no token reaches the handler's output."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.secrets = tuple(secret for secret in secrets if secret)
        self._formatter = logging.Formatter()

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a record whose arguments do not fit: the handler says so
            return True
        record.msg, record.args = redact(message, self.secrets), None
        if record.exc_info and not record.exc_text:
            record.exc_text = self._formatter.formatException(record.exc_info)
        # A formatter formats exc_info afresh (discord.py's colours do): only the text stays.
        record.exc_info = None
        if record.exc_text:
            record.exc_text = redact(record.exc_text, self.secrets)
        if record.stack_info:
            record.stack_info = redact(record.stack_info, self.secrets)
        return True


#: The ids a JSON line carries when a record knows them.
CONTEXT_IDS = ("game_id", "guild_id", "channel_id")


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, the ids known, a traceback."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        known = LOG_CONTEXT.get()
        for name in CONTEXT_IDS:
            value = getattr(record, name, None)
            if value is None:
                value = known.get(name)
            if value is not None:
                line[name] = value
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = record.stack_info
        return json.dumps(line, ensure_ascii=False, default=str)


#: discord.py's own line, without its colours: ``[time] [LEVEL   ] logger: message``.
PLAIN_LINE = "[{asctime}] [{levelname:<8}] {name}: {message}"
PLAIN_TIME = "%Y-%m-%d %H:%M:%S"


def _on_a_terminal(handler: logging.Handler) -> bool:
    stream = getattr(handler, "stream", None)
    isatty = getattr(stream, "isatty", None)
    return bool(isatty is not None and isatty())


def setup_logging(
    level: int,
    *,
    secrets: Iterable[str] = (),
    handler: logging.Handler | None = None,
    log_format: str = "text",
) -> logging.Handler:
    """Log to stderr (or ``handler``) at ``level`` as discord.py does, or as JSON lines
    with ``log_format="json"``; secrets redacted either way.  Colours only on a terminal:
    discord.py colours every line in Docker too, which leaves escape codes in
    ``docker logs``, in files and in log shippers."""
    handler = logging.StreamHandler() if handler is None else handler
    handler.addFilter(RedactSecrets(secrets))
    if log_format == "json":
        discord.utils.setup_logging(level=level, handler=handler, formatter=JsonFormatter())
    elif _on_a_terminal(handler):
        discord.utils.setup_logging(level=level, handler=handler)  # its colours
    else:
        plain = logging.Formatter(PLAIN_LINE, PLAIN_TIME, style="{")
        discord.utils.setup_logging(level=level, handler=handler, formatter=plain)
    return handler
