"""The health check of a container or a monitor: ``python -m bot.healthcheck``.

It reads the settings as the bot does (the environment, then ``.env`` in the working
folder), so it asks the ``/healthz`` the bot really serves: ``METRICS_PORT`` on
``METRICS_HOST`` (a wildcard address asked on loopback).  Exit 0 when it answers
``200 ok``; 1 with the reason in one line otherwise (Docker shows it in ``docker
inspect``).  Without a port to ask (``METRICS_PORT`` empty or 0) it says plainly that
nothing is checked and exits 0: the container is then as healthy as its process is alive.
Light on purpose (no discord.py): Docker runs it every 30 seconds.
"""

from __future__ import annotations

import sys
import urllib.error
import urllib.request
from typing import NamedTuple

from bot.config import ConfigError, Settings

#: Seconds to wait for /healthz; within the image's HEALTHCHECK --timeout=5s.
HEALTH_TIMEOUT = 4.0
#: Where a server listening on every interface is asked.
_LOOPBACK = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}


class Health(NamedTuple):
    """The check's verdict: its exit code and its one line."""

    code: int
    line: str


def health_url(settings: Settings) -> str | None:
    """The /healthz the bot with ``settings`` serves; None when it serves none, or on a
    port only it knows (METRICS_PORT=0)."""
    if not settings.metrics_port:
        return None
    host = _LOOPBACK.get(settings.metrics_host, settings.metrics_host)
    if ":" in host:  # an IPv6 address
        host = f"[{host}]"
    return f"http://{host}:{settings.metrics_port}/healthz"


def check(settings: Settings) -> Health:
    """Ask the bot's /healthz once."""
    url = health_url(settings)
    if url is None:
        why = "is empty" if settings.metrics_port is None else "is 0 (any free port)"
        return Health(
            0,
            f"not checked: METRICS_PORT {why}, so the bot serves no /healthz to ask; set "
            "METRICS_PORT (the image's is 9108) for a real health check",
        )
    try:
        with urllib.request.urlopen(url, timeout=HEALTH_TIMEOUT) as answer:
            said = answer.read().decode("utf-8", "replace").strip()
        return Health(0, f"healthy: {url} says {said}")
    except urllib.error.HTTPError as exc:  # 503 and the bot's reason
        reason = exc.read().decode("utf-8", "replace").strip() or exc.reason
        return Health(1, f"unhealthy: {url} answered {exc.code}: {reason}")
    except (urllib.error.URLError, OSError) as exc:
        cause: object = getattr(exc, "reason", None) or exc
        return Health(1, f"unhealthy: nothing answers at {url} ({cause}); is the bot running?")


def main() -> int:
    try:
        settings = Settings.from_env(require_token=False)
    except ConfigError as exc:
        print(f"unhealthy: the bot cannot start with these settings: {exc}", file=sys.stderr)
        return 1
    health = check(settings)
    print(health.line, file=sys.stdout if health.code == 0 else sys.stderr)
    return health.code


if __name__ == "__main__":
    raise SystemExit(main())
