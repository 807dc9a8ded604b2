"""A real PostgreSQL server for the tests, from the machine's PostgreSQL 15 binaries.

``initdb`` makes a cluster in a temporary folder, ``pg_ctl`` starts it on
127.0.0.1 at a free port (password login, as a deployment would have it) and
on a Unix socket in that folder, and stops it at the end.  PostgreSQL refuses
to run as root, so as root every command runs as the ``postgres`` user and the
folder belongs to it.  Each test gets a database of its own: empty
(``new_database``), or a copy of one the store's migrations already ran on
(``migrated_database``, what a store test starts from).
"""

from __future__ import annotations

import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

BIN = Path(os.environ.get("LAMA_PG_BIN", "/usr/lib/postgresql/15/bin"))
USER = "postgres"
PASSWORD = "lama-test"


def available() -> str | None:
    """None if a server can be started here, else why not."""
    if not (BIN / "initdb").exists() or not (BIN / "pg_ctl").exists():
        return f"PostgreSQL binaries are missing in {BIN}"
    try:
        import asyncpg  # noqa: F401
    except ImportError:
        return 'asyncpg is missing: pip install -e ".[postgres]"'
    return None


#: The cluster lives in memory where the machine has room (a few GiB for a run's
#: databases): making and dropping a hundred databases on disk took up to 90 s of a
#: loaded CI run, mostly the folder's removal at the end.
FAST_FOLDER = Path("/dev/shm")
FAST_ROOM = 4 << 30


def _cluster_parent() -> str | None:
    """Where the cluster's folder goes: memory if there is room there, else the temp dir."""
    try:
        room = shutil.disk_usage(FAST_FOLDER).free
    except OSError:
        return None
    return str(FAST_FOLDER) if room >= FAST_ROOM and os.access(FAST_FOLDER, os.W_OK) else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="lama-pg-", dir=_cluster_parent()))
        self.data = self.folder / "data"
        self.port = _free_port()
        self._names = itertools.count(1)
        self._as_postgres: list[str] = []
        self._template: str | None = None
        if os.geteuid() == 0:
            shutil.chown(self.folder, USER, USER)
            self._as_postgres = ["runuser", "-u", USER, "--"]

    def _run(self, *command: str | Path) -> None:
        subprocess.run(
            [*self._as_postgres, *map(str, command)],
            check=True,
            capture_output=True,
            cwd=self.folder,
        )

    def start(self) -> None:
        password_file = self.folder / "password"
        password_file.write_text(PASSWORD, encoding="utf-8")
        if self._as_postgres:
            shutil.chown(password_file, USER, USER)
        self._run(
            BIN / "initdb",
            "-D",
            self.data,
            "-U",
            USER,
            f"--pwfile={password_file}",
            "--auth-local=trust",
            "--auth-host=scram-sha-256",
            "-E",
            "UTF8",
            "--no-sync",
        )
        options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        self._run(
            BIN / "pg_ctl", "-D", self.data, "-l", self.folder / "log", "-w", "-o", options, "start"
        )

    def stop(self) -> None:
        try:
            self._run(BIN / "pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = "postgres", *, password: str = PASSWORD) -> str:
        return f"postgresql://{USER}:{password}@127.0.0.1:{self.port}/{database}"

    async def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        return await self._create()

    async def migrated_database(self) -> str:
        """A fresh database the store's migrations already ran on; its URL.

        A copy of one migrated once per server (``CREATE DATABASE ... TEMPLATE``): running
        the migrations took about 0.1 s a database, the copy a third of that. What a store
        does on an empty database is the migration tests' (they use ``new_database``).
        """
        from data import Store

        if self._template is None:
            url = await self.new_database()
            await (await Store.open(url, durable=False)).close()
            self._template = url.rsplit("/", 1)[1]
        return await self._create(f' TEMPLATE "{self._template}"')

    async def _create(self, options: str = "") -> str:
        import asyncpg

        name = f"lama_{next(self._names)}"
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f'CREATE DATABASE "{name}"{options}')
        finally:
            await conn.close()
        return self.url(name)
