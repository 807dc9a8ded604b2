"""Deleting what the bot keeps about a server or a person (SQLite).

A server's data is all of its games (with their moves, seats and results) and its
settings.  A person's data is their user id and display name on every seat they
held: the seat stays, so the other players' games and results stay whole, but it
becomes an anonymous seat that counts for nobody's stats (an AI seat named
:data:`FORMER_PLAYER`), and games they hosted get no host.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

FORMER_PLAYER = "former player"
#: A game whose host was forgotten is hosted by nobody (no user has id 0).
NO_HOST = 0


class ForgetError(Exception):
    """Nothing was deleted; the message says why."""


@dataclass(frozen=True, slots=True)
class Forgotten:
    games: int = 0
    seats: int = 0
    settings: int = 0


@contextmanager
def _transaction(path: Path) -> Iterator[sqlite3.Connection]:
    """One write transaction on the database at ``path``; errors become :class:`ForgetError`."""
    if not path.is_file():
        raise ForgetError(f"there is no database at {str(path)!r}")
    try:
        uri = f"{path.absolute().as_uri()}?mode=rw"
        with closing(sqlite3.connect(uri, uri=True, isolation_level=None)) as conn:
            conn.execute("PRAGMA foreign_keys = ON")  # moves, seats and results go with a game
            conn.execute("PRAGMA busy_timeout = 5000")
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
    except sqlite3.Error as exc:
        raise ForgetError(f"could not change {str(path)!r}: {exc}") from exc


def forget_guild(path: Path, guild_id: int) -> Forgotten:
    """Delete every game and the settings of the server ``guild_id``, in one transaction."""
    with _transaction(path) as conn:
        games = conn.execute("DELETE FROM games WHERE guild_id = ?", (guild_id,)).rowcount
        settings = conn.execute(
            "DELETE FROM guild_settings WHERE guild_id = ?", (guild_id,)
        ).rowcount
    return Forgotten(games=games, settings=settings)


def forget_user(path: Path, user_id: int) -> Forgotten:
    """Remove the user id and name of ``user_id`` from every seat and game, in one transaction."""
    with _transaction(path) as conn:
        seats = conn.execute(
            "UPDATE seats SET user_id = NULL, ai = COALESCE(ai, 'normal'), name = ?, away = 0 "
            "WHERE user_id = ?",
            (FORMER_PLAYER, user_id),
        ).rowcount
        games = conn.execute(
            "UPDATE games SET host_id = ? WHERE host_id = ?", (NO_HOST, user_id)
        ).rowcount
    return Forgotten(games=games, seats=seats)
