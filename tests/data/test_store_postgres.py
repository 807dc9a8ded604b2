"""What only PostgreSQL needs: a clear line when the server or the login fails."""

from __future__ import annotations

import socket

import pytest

from data import EVERYTHING, Store, StoreError
from tests.pg import PostgresServer


async def test_wrong_credentials_say_so_in_one_line(postgres_server: PostgresServer) -> None:
    url = postgres_server.url(password="not-the-password")
    with pytest.raises(StoreError) as caught:
        await Store.open(url)
    message = str(caught.value)
    assert message == (
        f"could not connect to PostgreSQL at postgresql://postgres:***@127.0.0.1:"
        f'{postgres_server.port}/postgres: password authentication failed for user "postgres"'
    )
    assert "not-the-password" not in message


async def test_an_unreachable_server_says_so_in_one_line() -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(StoreError) as caught:
        await Store.open(f"postgresql://lama:secret@127.0.0.1:{port}/lama")
    message = str(caught.value)
    assert message.startswith(
        f"could not connect to PostgreSQL at postgresql://lama:***@127.0.0.1:{port}/lama: "
    )
    assert "\n" not in message and "secret" not in message


async def test_a_missing_database_says_so_in_one_line(postgres_server: PostgresServer) -> None:
    with pytest.raises(StoreError, match='could not connect .*database "nowhere" does not exist'):
        await Store.open(postgres_server.url("nowhere"))


async def test_a_closed_postgresql_store_refuses_work(postgres_server: PostgresServer) -> None:
    store = await Store.open(await postgres_server.new_database())
    await store.close()
    with pytest.raises(StoreError, match="could not save: the store is closed"):
        await store.settings.set_language(1, "de")
    with pytest.raises(StoreError, match="could not load: the store is closed"):
        await store.stats.leaderboard(1, sight=EVERYTHING)
