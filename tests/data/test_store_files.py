"""The SQLite files hold live interaction tokens and players' ids and names: they are
readable by the bot's own user alone, whatever the umask or folder."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from data import Store
from data.backup import backup

from ._helpers import counter_clock


@pytest.fixture
def permissive_umask() -> Iterator[None]:
    """A umask that lets everybody read and write what the process creates."""
    old = os.umask(0)
    try:
        yield
    finally:
        os.umask(old)


def others_may(path: Path) -> int:
    """The permission bits the group and other users have on ``path``."""
    return stat.S_IMODE(path.stat().st_mode) & 0o077


def database_files(path: Path) -> list[Path]:
    return [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]


async def test_a_new_database_and_its_log_are_the_bot_users_alone(
    tmp_path: Path, permissive_umask: None
) -> None:
    folder = tmp_path / "shared"
    folder.mkdir(mode=0o777)
    path = folder / "lama.db"
    store = await Store.open(path, durable=False, clock=counter_clock())
    try:
        await store.settings.set_language(1, "de")  # a write: the log is in use
        for file in database_files(path):
            assert file.exists(), file.name
            assert others_may(file) == 0, f"{file.name} is {oct(file.stat().st_mode)}"
    finally:
        await store.close()


async def test_files_an_older_version_left_readable_are_made_private(tmp_path: Path) -> None:
    path = tmp_path / "lama.db"
    store = await Store.open(path, durable=False, clock=counter_clock())
    await store.settings.set_language(1, "de")
    files = database_files(path)
    for file in files:
        file.chmod(0o666)
    # Reopened beside the first, as a tool beside a running bot would: the log is still there.
    second = await Store.open(path, durable=False, clock=counter_clock())
    try:
        for file in files:
            assert others_may(file) == 0, f"{file.name} is {oct(file.stat().st_mode)}"
    finally:
        await second.close()
        await store.close()


async def test_a_backup_is_the_bot_users_alone(tmp_path: Path, permissive_umask: None) -> None:
    path = tmp_path / "lama.db"
    store = await Store.open(path, durable=False, clock=counter_clock())
    await store.settings.set_language(1, "de")
    await store.close()
    copy = backup(path, tmp_path / "copy.db")
    assert others_may(copy) == 0
