"""Persistence: games, settings and statistics in SQLite or PostgreSQL.

SQLite goes through aiosqlite, PostgreSQL through asyncpg.

:class:`Store` is the whole API: open it once, call one method of one of its
parts per unit of work (each is one transaction: ``store.games.load_game(...)``,
``store.stats.history(...)``), close it on shutdown.  Inside, one module per
part: ``games`` and ``settings`` write, ``stats`` reads on its own connection,
``shards`` holds the per-shard leases, ``codec`` turns rows into records,
``database`` (with ``sqlite`` and ``postgres``) the transactions, ``transfer``
the copy from SQLite to PostgreSQL, ``progress`` what a move adds to a game
(:class:`MatchProgress`, taken from the match, for ``store.games.append_progress``).
Records come back as the small frozen dataclasses below or as engine types
(events, rulesets).

This package may import ``game``; it never imports ``bot`` or ``cogs``.
"""

from .progress import MatchProgress
from .records import (
    AI_STRENGTHS,
    EVERYTHING,
    LEADERBOARD_ORDERS,
    STATUSES,
    ChannelBusy,
    ChipHistory,
    GameRecord,
    HistoryRow,
    LeaderboardRow,
    OpenHandRecord,
    PingRecord,
    PlayerStats,
    SeatNote,
    SeatRecord,
    Sight,
    StoreError,
    TableTokenRecord,
)
from .settings import ServerSettings
from .shards import Shards, ShardTaken, shard_of
from .store import Store

__all__ = [
    "AI_STRENGTHS",
    "EVERYTHING",
    "LEADERBOARD_ORDERS",
    "STATUSES",
    "ChannelBusy",
    "ChipHistory",
    "GameRecord",
    "HistoryRow",
    "LeaderboardRow",
    "MatchProgress",
    "OpenHandRecord",
    "TableTokenRecord",
    "PlayerStats",
    "SeatNote",
    "SeatRecord",
    "ServerSettings",
    "Sight",
    "ShardTaken",
    "Shards",
    "PingRecord",
    "Store",
    "StoreError",
    "shard_of",
]
