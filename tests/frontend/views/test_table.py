"""The table message's view (bot.frontend.views.table), drawn from a table without Discord."""

from __future__ import annotations

import re

import pytest

from bot.frontend.faces import PLAIN
from bot.frontend.views.table import MAX_MOVE_ROWS, table_view
from bot.service.play.table import MoveLine, Seat, Status, Table
from game import Match, Ruleset
from game.ai import Strength
from testkit.simcord_play import moves_shown


@pytest.mark.parametrize("unlisted", [0, 30], ids=["after-a-restart", "after-unlisted-moves"])
def test_a_table_listing_many_moves_ends_with_its_newest_and_loses_none(unlisted: int) -> None:
    """Two people and two AI seats take turns: the table lists all 24 moves kept (the
    first edit after a restart, or one after Discord failed the edits for long). The
    people's moves are kept before the AIs', but the last row is still the newest move,
    and every move is listed or counted in a "… N more moves" row: before, the two AI
    moves at the end were neither (the table's last row was bob's move before them)."""
    seats = [Seat(1, None, "ann"), Seat(2, None, "bob")]
    seats += [Seat(None, Strength.EASY, "AI 3"), Seat(None, Strength.EASY, "AI 4")]
    match = Match(Ruleset(), 4)
    match.deal(seed=3)
    table = Table(1, 9, 50, 1, Ruleset(), 0, "en", seats, status=Status.RUNNING, match=match)
    lines = [MoveLine(seat=i % 4, kind="draw") for i in range(24)]

    rows = moves_shown(table_view(table, PLAIN, lines, unlisted=unlisted)).split("\n")

    assert len(rows) <= MAX_MOVE_ROWS
    assert rows[-1] == "AI 4 (Easy) drew a card", rows
    counted = [re.fullmatch(r"… (\d+) more moves?", row) for row in rows]
    listed = sum(1 for found in counted if found is None)
    assert listed + sum(int(found[1]) for found in counted if found) == 24 + unlisted, rows
