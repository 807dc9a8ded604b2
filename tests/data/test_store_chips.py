"""A stored game's chip history: one total per round, drawn as the chart."""

from __future__ import annotations

from io import BytesIO

from PIL import Image

from bot.art.chart import render_chip_chart
from data import Store
from game import Ruleset

from ._helpers import play_random_game


async def test_chart_from_a_stored_game(store: Store) -> None:
    game_id, match = await play_random_game(store, Ruleset(threshold=30), 5, seed=9)
    stored = await store.stats.chip_history(game_id)
    assert stored is not None and len(stored.totals) == len(match.results)
    with Image.open(BytesIO(render_chip_chart(stored))) as image:
        assert image.size == (800, 400)
