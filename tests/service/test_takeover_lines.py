"""A takeover's line counts the turns missed as the service's Timing has it, also
when the table is rebuilt from the store (a restart)."""

from __future__ import annotations

from pathlib import Path

from bot.service.play.rows import table_from_record
from bot.service.timing import Timing
from game import Ruleset
from testkit.service_game import ManualClock, ServiceGame, eventually, people

ANN, BOB, CY = people("Ann", "Bob", "Cy")


async def test_a_takeover_after_three_missed_turns_counts_three_live_and_rebuilt(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    timing = Timing(ai_delay=0.0, misses_before_takeover=3)
    game = await ServiceGame.open(tmp_path / "game.db", clock=clock, timing=timing)
    try:
        # Ann's hands cost her points each round she misses: the game lasts long enough.
        table = await game.lobby([ANN, BOB, CY], turn_timer=60, ruleset=Ruleset(threshold=200))
        for _ in range(500):
            if table.seats[0].away:
                break
            if table.to_move == 0:
                stamp = table.stamp
                clock.advance(61)  # Ann misses her turn
                await eventually(lambda s=stamp: table.stamp != s)
            else:
                await game.play(table)
        takeovers = [line for line in table.recent if line.kind == "takeover"]
        assert [(line.seat, line.count) for line in takeovers] == [(0, 3)]
        record = await game.store.games.load_game(table.game_id)
        assert record is not None
        assert list(table_from_record(record).recent) == list(table.recent)
    finally:
        await game.close()
