"""Shards: which guilds a process serves, and the lease that keeps two processes apart.

Discord puts a guild on shard ``(guild_id >> 22) % shard_count``.  A process
claims its shards in the database when it starts (one ``shard_leases`` row
each) and renews them while it runs; a second process asking for a shard whose
lease is alive is refused, so no game is ever played by two processes.  A
lease runs out :data:`LEASE_TTL` seconds after its last renewal; one left by a
process that died on this host is free at once.  Once claimed, the store
resumes only the games of guilds on those shards.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass

from .database import Database, Unit
from .records import StoreError

log = logging.getLogger(__name__)

LEASE_TTL = 30.0  # seconds a lease lives without renewal
#: Seconds between two renewals, unless the store is given others: two may fail in a row.
RENEW_EVERY = LEASE_TTL / 3
#: The advisory lock claims take on PostgreSQL, so two processes claim one after the other
#: (SQLite's BEGIN IMMEDIATE does that already).
CLAIM_LOCK = 0x4C414D42


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord puts a guild on.  A game outside a server (its place id is
    minus its channel's: a group DM, a DM) is served with shard 0, where Discord sends
    the interactions without a server."""
    return (guild_id >> 22) % shard_count if guild_id > 0 else 0


@dataclass(frozen=True, slots=True)
class Shards:
    """``ids`` out of ``count`` shards; the default is the whole bot in one process."""

    count: int = 1
    ids: tuple[int, ...] = (0,)

    def __post_init__(self) -> None:
        if self.count < 1 or not self.ids or len(set(self.ids)) != len(self.ids):
            raise ValueError(f"bad shards {self.ids} of {self.count}")
        if not all(0 <= shard < self.count for shard in self.ids):
            raise ValueError(f"shards {self.ids} are not all below {self.count}")

    def __str__(self) -> str:
        shards = ",".join(map(str, self.ids))
        return f"shard{'s' if len(self.ids) > 1 else ''} {shards} of {self.count}"


class ShardTaken(StoreError):
    """Another live process holds a shard this one asked for (or runs another shard count)."""


class BotRunning(StoreError):
    """A live process serves shards of this database: a tool must not change it beside it."""


async def refuse_while_served(unit: Unit, now: float) -> None:
    """Raise :class:`BotRunning` if a live process holds a lease, within ``unit`` (a write).

    A running bot keeps its tables in memory and writes them back (a forgotten person's
    id and name, the ratings it gave): a tool that forgets or rates again must not run
    beside it.  The leases of this process itself don't count.  Checked in the tool's
    own write, after the claim lock on PostgreSQL (and SQLite's write lock), so a bot
    starting meanwhile claims, and resumes, after it.
    """
    if unit.dialect == "postgres":
        await unit.execute("SELECT pg_advisory_xact_lock(?)", (CLAIM_LOCK,))
    host, pid = _host(), os.getpid()
    query = "SELECT shard_id, shard_count, owner, host, pid, expires_at FROM shard_leases"
    for shard_id, count, held_owner, held_by, held_pid, expires_at in await unit.fetch(query):
        if held_owner in _HELD:  # this very process's: what it erases, it has in hand
            continue
        if expires_at > now and not _left_behind(held_by, held_pid, held_owner, host, pid):
            raise BotRunning(
                f"the bot is running: the process {held_pid} on {held_by} serves shard "
                f"{shard_id} of {count}, and would write back what this changes; stop every "
                "bot process on this database, then run this again"
            )


#: The lease owners this process holds now: a lease with this process's pid that is
#: not among them was left by an earlier process that had the same pid (a container
#: restarted after a crash comes back as pid 1 again).
_HELD: set[str] = set()


def _host() -> str:
    """This host, with its pid namespace: pids can only be judged alive within one
    (containers sharing a host name need not see each other's processes)."""
    name = socket.gethostname()
    with suppress(OSError):
        name += f"/pidns:{os.stat('/proc/self/ns/pid').st_ino}"
    return name


def _left_behind(held_by: str, held_pid: int, owner: str, host: str, pid: int) -> bool:
    """Whether a lease held on this host belongs to a process that is gone."""
    if held_by != host:
        return False
    if held_pid == pid:
        return owner not in _HELD
    return not _pid_alive(held_pid)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True


class Leases:
    """The leases of the shards this process serves: claimed, kept renewed, given back."""

    def __init__(
        self, db: Database, clock: Callable[[], float], renew_every: float = RENEW_EVERY
    ) -> None:
        self._db = db
        self._clock = clock  # unix time
        self._shards = Shards()  # what this process serves (all of it until it claims)
        self._lease_owner: str | None = None
        self._renewer: asyncio.Task[None] | None = None
        self._on_lost: Callable[[], object] | None = None
        self._renew_every = renew_every  # seconds between two renewals

    @property
    def shards(self) -> Shards:
        """The shards this process serves: the games, hands and pings it resumes and
        rates are theirs."""
        return self._shards

    async def claim_shards(
        self, shards: Shards, *, on_lost: Callable[[], object] | None = None
    ) -> None:
        """Take the leases of ``shards`` for this process and keep them renewed until
        the store closes; raise :class:`ShardTaken` (one line) if another process serves one.

        ``on_lost`` is called if a renewal finds a lease gone (renewals failed for so
        long that another process took the shard over): this process must stop serving.
        """
        owner = secrets.token_hex(8)
        host, pid = _host(), os.getpid()
        now = self._clock()
        async with self._db.write() as unit:
            if unit.dialect == "postgres":
                await unit.execute("SELECT pg_advisory_xact_lock(?)", (CLAIM_LOCK,))
            query = "SELECT shard_id, shard_count, owner, host, pid, expires_at FROM shard_leases"
            rows = await unit.fetch(query)
            for shard_id, count, held_owner, held_by, held_pid, expires_at in rows:
                stale = expires_at <= now or _left_behind(held_by, held_pid, held_owner, host, pid)
                if stale:
                    await unit.execute("DELETE FROM shard_leases WHERE shard_id = ?", (shard_id,))
                elif count != shards.count:
                    raise ShardTaken(
                        f"could not claim {shards}: the process {held_pid} on {held_by} runs "
                        f"with SHARD_COUNT={count}; every process needs the same SHARD_COUNT"
                    )
                elif shard_id in shards.ids:
                    raise ShardTaken(
                        f"could not claim {shards}: shard {shard_id} is already served by the "
                        f"process {held_pid} on {held_by}; stop it, or give this process other "
                        "SHARD_IDS"
                    )
            query = """INSERT INTO shard_leases (shard_id, shard_count, owner, host, pid,
                                                 expires_at)
                       VALUES (?, ?, ?, ?, ?, ?)
                    """
            await unit.executemany(
                query,
                [(shard, shards.count, owner, host, pid, now + LEASE_TTL) for shard in shards.ids],
            )
        _HELD.add(owner)
        self._shards, self._lease_owner, self._on_lost = shards, owner, on_lost
        self._renewer = asyncio.create_task(self._keep_renewed(owner))
        log.info("Serving %s", shards)

    async def _keep_renewed(self, owner: str) -> None:
        while True:
            await asyncio.sleep(self._renew_every)
            try:
                await self._renew(owner)
            except StoreError as error:  # the database is away; try again next time
                log.error("could not renew the lease of %s: %s", self._shards, error)
            except Exception:  # never let the renewals die
                log.exception("renewing the lease of %s failed", self._shards)

    async def _renew(self, owner: str) -> None:
        async with self._db.write() as unit:
            query = "UPDATE shard_leases SET expires_at = ? WHERE owner = ? RETURNING shard_id"
            renewed = await unit.fetch(query, (self._clock() + LEASE_TTL, owner))
        if len(renewed) != len(self._shards.ids):
            log.critical(
                "lost the lease of %s: another process may serve its games now", self._shards
            )
            if self._on_lost is not None:
                self._on_lost()

    async def refuse_while_served(self) -> None:
        """Raise :class:`BotRunning` if a live process serves shards of this database."""
        async with self._db.write() as unit:
            await refuse_while_served(unit, self._clock())

    async def release_shards(self) -> None:
        """Give the leases back (closing the store does it)."""
        renewer, self._renewer = self._renewer, None
        if renewer is not None:
            renewer.cancel()
            with suppress(asyncio.CancelledError):
                await renewer
        owner, self._lease_owner = self._lease_owner, None
        if owner is not None:
            _HELD.discard(owner)
            async with self._db.write() as unit:
                await unit.execute("DELETE FROM shard_leases WHERE owner = ?", (owner,))


def served(shards: Shards, column: str = "guild_id") -> tuple[str, tuple[int, ...]]:
    """A condition on the guild id ``column`` for the games of ``shards``, and its
    parameters."""
    if shards.count == 1:
        return "1 = 1", ()
    marks = ", ".join("?" for _ in shards.ids)
    # A place outside a server (a negative id) is shard 0's, as in shard_of.
    shard = f"(CASE WHEN {column} > 0 THEN ({column} >> 22) % ? ELSE 0 END)"
    return f"{shard} IN ({marks})", (shards.count, *shards.ids)
