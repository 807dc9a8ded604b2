"""A server's saved house rules and the board its house-rules games count on, on both
backends (migration 0022)."""

from __future__ import annotations

from data import Store
from data.records import ALL_TIME, HOUSE_RULES, GameRating, PlayerRating, SeatRating
from data.saved_rules import SavedRuleset, Saving
from data.settings import OWN, SERVER
from game import ChipBack, LlamaCost, Ruleset

from ._helpers import play_random_game

SUMMER = Ruleset.compose("party", hand_size=7, llama_cost=LlamaCost.EACH)
QUIET = Ruleset.compose(chip_back=ChipBack.NONE)


async def test_saved_rules_are_kept_by_name_listed_and_found_whatever_the_case(
    store: Store,
) -> None:
    assert await store.saved_rules.saved(1) == []
    assert await store.saved_rules.save(1, "Summer", SUMMER, cap=10) is Saving.SAVED
    assert await store.saved_rules.save(1, "quiet", QUIET, cap=10) is Saving.SAVED
    assert await store.saved_rules.save(2, "Summer", QUIET, cap=10) is Saving.SAVED
    assert await store.saved_rules.saved(1) == [
        SavedRuleset("quiet", QUIET),
        SavedRuleset("Summer", SUMMER),
    ]
    assert await store.saved_rules.find(1, "SUMMER") == SavedRuleset("Summer", SUMMER)
    assert await store.saved_rules.find(2, "summer") == SavedRuleset("Summer", QUIET)
    assert await store.saved_rules.find(1, "winter") is None


async def test_a_name_taken_in_any_case_and_a_full_list_are_refused(store: Store) -> None:
    assert await store.saved_rules.save(1, "Summer", SUMMER, cap=2) is Saving.SAVED
    assert await store.saved_rules.save(1, "SUMMER", QUIET, cap=2) is Saving.TAKEN
    assert await store.saved_rules.save(1, "Quiet", QUIET, cap=2) is Saving.SAVED
    assert await store.saved_rules.save(1, "Third", QUIET, cap=2) is Saving.FULL
    assert [s.name for s in await store.saved_rules.saved(1)] == ["Quiet", "Summer"]
    assert (await store.saved_rules.find(1, "summer")) == SavedRuleset("Summer", SUMMER)


async def test_a_saved_ruleset_is_deleted_by_its_name_in_any_case(store: Store) -> None:
    await store.saved_rules.save(1, "Summer", SUMMER, cap=10)
    assert await store.saved_rules.delete(1, "summer") == "Summer"
    assert await store.saved_rules.delete(1, "summer") is None
    assert await store.saved_rules.saved(1) == []
    # Deleted, the name and a place on the list are free again.
    assert await store.saved_rules.save(1, "SUMMER", QUIET, cap=1) is Saving.SAVED


async def test_the_house_rules_board_is_the_servers_choice(store: Store) -> None:
    assert (await store.settings.guild_settings(1)).house_rules_board is None
    await store.settings.set_house_rules_board(1, SERVER)
    await store.settings.set_language(1, "de")  # another setting leaves it be
    assert (await store.settings.guild_settings(1)).house_rules_board == SERVER
    await store.settings.set_house_rules_board(1, OWN)
    assert (await store.settings.guild_settings(1)).house_rules_board == OWN
    await store.settings.set_house_rules_board(1, None)
    assert (await store.settings.guild_settings(1)).house_rules_board is None
    assert (await store.settings.guild_settings(2)).house_rules_board is None


async def _rated_on(store: Store, guild_id: int, board: str | None, seed: int) -> int:
    game_id, _ = await play_random_game(store, SUMMER, 2, seed, guild_id=guild_id)
    scope = HOUSE_RULES if board == OWN else ALL_TIME
    changes = tuple(
        SeatRating(seat, scope, player, seat + 1, 25.0, 8.0, 26.0 - seat, 7.9)
        for seat, player in ((0, "user:500"), (1, "ai:normal"))
    )
    players = (
        PlayerRating(scope, "user:500", 500, None, "Ann", 26.0, 7.9, 1),
        PlayerRating(scope, "ai:normal", None, "normal", "normal", 25.0, 7.9, 1),
    )
    rating = GameRating(game_id, guild_id, 2_000.0, scope, changes, players, board=board)
    await store.rating_writes.save_ratings([rating])
    return game_id


async def test_the_board_a_game_was_rated_on_outlives_a_recomputation(store: Store) -> None:
    own = await _rated_on(store, 1, OWN, seed=1)
    together = await _rated_on(store, 1, SERVER, seed=2)
    plain = await _rated_on(store, 1, None, seed=3)
    assert await store.ratings.rated_seasons(1) == [ALL_TIME, HOUSE_RULES]
    assert await store.rating_writes.wipe_ratings(1) == 3
    games, _ = await store.rating_writes.unrated_games(1)
    boards = {game.record.id: game.board for game in games}
    assert boards == {own: OWN, together: SERVER, plain: None}


async def test_forgetting_a_server_takes_its_saved_rules_and_boards(store: Store) -> None:
    await store.saved_rules.save(1, "Summer", SUMMER, cap=10)
    await store.saved_rules.save(2, "Summer", SUMMER, cap=10)
    await store.settings.set_house_rules_board(1, SERVER)
    await _rated_on(store, 1, OWN, seed=1)
    kept = await _rated_on(store, 2, OWN, seed=2)
    await store.forget.forget_guild(1)
    assert await store.saved_rules.saved(1) == []
    assert (await store.settings.guild_settings(1)).house_rules_board is None
    assert [s.name for s in await store.saved_rules.saved(2)] == ["Summer"]
    await store.rating_writes.wipe_ratings(2)
    [game], _ = await store.rating_writes.unrated_games(2)
    assert (game.record.id, game.board) == (kept, OWN)
