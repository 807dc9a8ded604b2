"""House rules in the service: a server's saved rulesets, and the board its games with
house rules are rated on (their own by default, or the server's), kept through ``rerate``."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.service import ServiceError
from bot.service.house_rules import MAX_NAME, MAX_SAVED
from bot.service.play.table import Table
from bot.service.ratings.seasons import season_at
from data import EVERYTHING, Store
from data.records import ALL_TIME, HOUSE_RULES
from data.settings import OWN, SERVER
from game import LlamaCost, Ruleset
from game.ai import Strength
from testkit.service_game import ManualClock, ServiceGame, people
from testkit.service_game import finished as finish

ANN, BOB = people("Ann", "Bob")
GUILD = 1
#: Party Edition with hands of 7: a house rule.
SEVEN = Ruleset.compose("party", hand_size=7)
TABLES = ("ratings", "rated_games", "rating_changes", "game_boards")


def snapshot(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    with sqlite3.connect(path) as db:
        return {
            table: sorted(db.execute(f"SELECT * FROM {table}").fetchall(), key=repr)
            for table in TABLES
        }


async def scopes_of(game: ServiceGame, table: Table) -> set[int]:
    return {c.season for c in await game.store.ratings.rating_changes(table.game_id)}


# ---------------------------------------------------------------- saved rules
async def test_saved_rules_open_with_the_tables_threshold(game: ServiceGame) -> None:
    house = game.service.house_rules
    assert await house.save(GUILD, "  Summer \n nights ", SEVEN) == "Summer nights"
    assert [s.name for s in await house.saved(GUILD)] == ["Summer nights"]
    ruleset = await house.ruleset(GUILD, "SUMMER NIGHTS", threshold=25)
    assert ruleset == SEVEN.with_changes(threshold=25)
    assert await house.saved(2) == []  # another server's list is its own


async def test_the_name_as_typed_finds_and_deletes_what_was_saved(game: ServiceGame) -> None:
    # Pasted with a zero-width space and a double space: kept cleaned, and found and
    # deleted by the same name as typed, not "unknown".
    house = game.service.house_rules
    typed = "Summer\u200b  fun"
    assert await house.save(GUILD, typed, SEVEN) == "Summer fun"
    assert await house.ruleset(GUILD, typed, threshold=40) == SEVEN.with_changes(threshold=40)
    assert await house.ruleset(GUILD, " summer\tFUN ", threshold=40)
    assert await house.delete(GUILD, typed) == "Summer fun"
    assert await house.saved(GUILD) == []


async def test_a_name_too_long_or_empty_is_simply_unknown(game: ServiceGame) -> None:
    house = game.service.house_rules
    await house.save(GUILD, "Summer", SEVEN)
    for name in ("", "\u200b", "x" * (MAX_NAME + 1)):
        with pytest.raises(ServiceError) as unknown:
            await house.ruleset(GUILD, name, threshold=40)
        assert unknown.value.key == "house.unknown"
        with pytest.raises(ServiceError) as unknown:
            await house.delete(GUILD, name)
        assert unknown.value.key == "house.unknown"


async def test_names_are_checked_and_the_list_is_capped(game: ServiceGame) -> None:
    house = game.service.house_rules
    for bad in ("", "   ", "\u200b", "x" * (MAX_NAME + 1)):
        with pytest.raises(ServiceError) as refused:
            await house.save(GUILD, bad, SEVEN)
        assert refused.value.key == "house.name_length"
    await house.save(GUILD, "Summer", SEVEN)
    with pytest.raises(ServiceError) as taken:
        await house.save(GUILD, "summer", Ruleset())
    assert (taken.value.key, taken.value.params) == ("house.taken", {"name": "summer"})
    for n in range(MAX_SAVED - 1):
        await house.save(GUILD, f"Rules {n}", SEVEN)
    with pytest.raises(ServiceError) as full:
        await house.save(GUILD, "One more", SEVEN)
    assert (full.value.key, full.value.params) == ("house.full", {"max": MAX_SAVED})
    assert await house.delete(GUILD, "SUMMER") == "Summer"
    await house.save(GUILD, "One more", SEVEN)
    with pytest.raises(ServiceError) as unknown:
        await house.delete(GUILD, "Summer")
    assert unknown.value.key == "house.unknown"
    with pytest.raises(ServiceError) as unknown:
        await house.ruleset(GUILD, "Summer", threshold=40)
    assert unknown.value.key == "house.unknown"


@pytest_asyncio.fixture(params=["sqlite", "postgres"])
async def either(
    request: pytest.FixtureRequest, tmp_path: Path, clock: ManualClock
) -> AsyncIterator[ServiceGame]:
    """A whole service on SQLite, and on a fresh database of the run's PostgreSQL."""
    target: Path | str = tmp_path / "game.db"
    if request.param == "postgres":
        target = await request.getfixturevalue("postgres_server").new_database()
    store = await Store.open(target, durable=False, clock=clock)
    opened = await ServiceGame.open(tmp_path / "unused.db", clock=clock, store=store)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_admins_saving_at_once_never_pass_the_cap(either: ServiceGame) -> None:
    # Several admins press Save at once with one place left on the list: one of them gets
    # it, every other one is told the list is full, and the list stays at the cap.
    house = either.service.house_rules
    for n in range(MAX_SAVED - 1):
        await house.save(GUILD, f"Rules {n}", SEVEN)
    # A bot at work has its store's connections open: the saves run side by side.
    await asyncio.gather(*(house.saved(GUILD) for _ in range(8)))
    saves = [house.save(GUILD, f"At once {n}", SEVEN) for n in range(8)]
    outcomes = await asyncio.gather(*saves, return_exceptions=True)
    refused = [o for o in outcomes if isinstance(o, ServiceError)]
    assert all((o.key, o.params) == ("house.full", {"max": MAX_SAVED}) for o in refused)
    assert len(outcomes) - len(refused) == 1
    assert len(await house.saved(GUILD)) == MAX_SAVED


# ---------------------------------------------------------------- boards
@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_game_with_house_rules_counts_on_its_own_board_by_default(
    game: ServiceGame,
) -> None:
    assert await game.service.house_rules.board(GUILD) == OWN
    table = await finish(game, await game.lobby([ANN, BOB], [Strength.EASY], ruleset=SEVEN))
    assert await scopes_of(game, table) == {HOUSE_RULES}
    season = season_at([], game.clock.now).key
    assert await game.store.ratings.rating_board(GUILD, season, sight=EVERYTHING) == []
    assert await game.store.ratings.rating_board(GUILD, ALL_TIME, sight=EVERYTHING) == []
    board = await game.store.ratings.rating_board(GUILD, HOUSE_RULES, sight=EVERYTHING)
    assert {(row.user_id, row.ai) for row in board} == {
        (ANN.id, None),
        (BOB.id, None),
        (None, "easy"),
    }
    # The finished table shows what the game did there.
    assert set(table.rating_changes) == {0, 1}


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_an_editions_game_counts_on_the_servers_board_as_ever(game: ServiceGame) -> None:
    komarami = Ruleset.compose("komarami", "party")
    assert komarami.house_rules == ()
    table = await finish(game, await game.lobby([ANN, BOB], ruleset=komarami))
    season = season_at([], game.clock.now).key
    assert await scopes_of(game, table) == {season, ALL_TIME}
    # One dimension changed makes it a house-rules game: the Komarami's deck, llamas
    # costing 10 once (no edition has 7 llamas so).
    changed = komarami.with_changes(llama_cost=LlamaCost.ONCE)
    assert changed.house_rules == ("llamas",)
    table = await finish(game, await game.lobby([ANN, BOB], ruleset=changed))
    assert await scopes_of(game, table) == {HOUSE_RULES}


async def test_a_server_may_count_house_rules_with_every_game(game: ServiceGame) -> None:
    await game.service.house_rules.set_board(GUILD, SERVER)
    assert await game.service.house_rules.board(GUILD) == SERVER
    table = await finish(game, await game.lobby([ANN, BOB], ruleset=SEVEN))
    season = season_at([], game.clock.now).key
    assert await scopes_of(game, table) == {season, ALL_TIME}
    assert await game.store.ratings.rating_board(GUILD, HOUSE_RULES, sight=EVERYTHING) == []


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_changed_setting_moves_no_game_rated_before_and_rerate_agrees(
    game: ServiceGame,
) -> None:
    own = await finish(game, await game.lobby([ANN, BOB], ruleset=SEVEN))
    await game.service.house_rules.set_board(GUILD, SERVER)
    together = await finish(game, await game.lobby([ANN, BOB], ruleset=SEVEN))
    plain = await finish(game, await game.lobby([ANN, BOB]))
    await game.service.house_rules.set_board(GUILD, OWN)
    season = season_at([], game.clock.now).key
    expected = {
        own.game_id: {HOUSE_RULES},
        together.game_id: {season, ALL_TIME},
        plain.game_id: {season, ALL_TIME},
    }
    for table in (own, together, plain):
        assert await scopes_of(game, table) == expected[table.game_id]
    path = Path(game.store.path)
    incremental = snapshot(path)
    assert (await game.service.rater.rerate_every()).games == 3
    assert snapshot(path) == incremental
