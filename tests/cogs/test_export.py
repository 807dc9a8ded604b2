"""The export's file (cogs.export): its name says whose games, and from when."""

from __future__ import annotations

from datetime import UTC, datetime

from cogs.export import file_name


def test_a_servers_export_is_named_for_the_server_and_the_day() -> None:
    now = datetime(2026, 3, 1, 23, 59, tzinfo=UTC)
    assert file_name(123, now) == "lama-games-123-2026-03-01.csv"


def test_one_games_export_is_named_for_the_game() -> None:
    assert file_name(123, datetime.now(UTC), game_id=42) == "lama-game-42.csv"
