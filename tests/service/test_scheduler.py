"""The one clock dispatcher: a bot runs for months, so cancelled clocks must not pile up."""

from __future__ import annotations

import asyncio
import gc
import weakref

from bot.service.play.scheduler import Scheduler


class Big:
    """Stands for a table: what a clock's action holds on to."""

    async def ring(self) -> None:
        return None


async def test_rearmed_and_cancelled_clocks_let_go_of_their_tables() -> None:
    now = [1000.0]
    clocks = Scheduler(lambda: now[0])
    # Another table's clock keeps the dispatcher asleep far in the future.
    clocks.at((1, "turn"), now[0] + 120, Big().ring)
    table = Big()
    ref = weakref.ref(table)
    for _ in range(2000):  # every move of an untimed game re-arms its 3-day idle clock
        clocks.at((2, "idle"), now[0] + 3 * 24 * 3600, table.ring)
        await asyncio.sleep(0)
    assert len(clocks._heap) < 100  # stale entries are dropped, not kept for three days
    clocks.cancel_game(2)
    del table
    gc.collect()
    assert ref() is None  # the finished game's table is not held by a cancelled clock
    await clocks.close()


async def test_a_clock_set_while_the_bot_shuts_down_never_rings() -> None:
    """A click that arrives after the clocks stopped (the gateway is still closing)
    must not start them again: its clock would ring into a closed store."""
    now = [1000.0]
    clocks = Scheduler(lambda: now[0])
    rang: list[str] = []

    async def ring() -> None:
        rang.append("rang")

    await clocks.close()
    clocks.at((3, "turn"), now[0], ring)
    for _ in range(5):
        await asyncio.sleep(0)
    assert rang == [] and not clocks.pending((3, "turn"))
