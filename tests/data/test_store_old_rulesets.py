"""Games stored by the versions before the rule dimensions read as the same rules.

Those versions stored a game's ruleset as its edition switches and threshold only,
``{"no_drama": …, "party": …, "komarami": …, "threshold": …}`` (``Ruleset.to_json`` up to
2c9e257's parent). Such a row is written here as they wrote it, then read back through
every reader that parses it: the store's game, its replay, the export, the chip history,
the rater's read (no house rules: the server's board, as before).
"""

from __future__ import annotations

import json

import pytest

from bot.service.history.export import export_csv
from bot.service.history.replay import build_replay
from data import EVERYTHING, Store
from game import Match, Ruleset

from ._helpers import Backend, play_random_game

#: (the switches as the old store wrote them, the rules they always meant)
OLD_FORMS = [
    ({"no_drama": False, "party": False, "komarami": False, "threshold": 40}, Ruleset()),
    (
        {"no_drama": False, "party": True, "komarami": False, "threshold": 40},
        Ruleset(party=True),
    ),
    (
        {"no_drama": True, "party": True, "komarami": True, "threshold": 25},
        Ruleset.compose("no_drama", "party", "komarami", threshold=25),
    ),
]


@pytest.mark.parametrize(("old", "meant"), OLD_FORMS)
async def test_an_old_games_switches_read_as_the_same_rules_everywhere(
    store: Store, backend: Backend, old: dict[str, object], meant: Ruleset
) -> None:
    game_id, match = await play_random_game(store, meant, 3, seed=45)
    assert match.over
    # As the version before wrote the row: the switches only.
    await backend.rows("UPDATE games SET ruleset = ? WHERE id = ?", (json.dumps(old), game_id))

    record = await store.games.load_game(game_id)
    assert record is not None
    assert record.ruleset == meant
    assert record.ruleset.house_rules == ()  # an edition's game, never a house rule's
    assert Match.replay(record.ruleset, len(record.seats), record.events) == match

    replay = build_replay(record)
    assert replay.ruleset == meant
    assert replay.final.points == tuple(match.points)

    [exported] = await store.export.export_page(1, game_id=game_id, sight=EVERYTHING)
    assert exported.ruleset == meant
    csv = await export_csv(store.export, 1, game_id=game_id, sight=EVERYTHING)
    assert csv.games == 1

    chips = await store.stats.chip_history(game_id)
    assert chips is not None and chips.threshold == meant.threshold

    [rated], _ = await store.rating_writes.unrated_games(1)
    assert rated.record.ruleset == meant
