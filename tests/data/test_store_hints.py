"""The hints shown: the moves hints advised, kept per game, moment and seat, for the
game's review; they go with the game, and with the person forgotten."""

from __future__ import annotations

from data import Store
from game import DRAW, PLAY, QUIT, Card, Match, Ruleset

from ._helpers import humans, new_running_game


async def game_of(store: Store, guild_id: int = 1) -> int:
    seats = humans((1, "Ann"), (2, "Bob"))
    return await new_running_game(store, Match(Ruleset(), 2), seats, guild_id=guild_id)


async def test_a_game_keeps_the_moves_its_hints_advised_by_moment_and_seat(store: Store) -> None:
    game_id = await game_of(store)
    other = await game_of(store)
    assert await store.hints.hints_of(game_id, 0) == {}
    await store.hints.add_hint(game_id, 1, 0, PLAY[Card.LLAMA])
    await store.hints.add_hint(game_id, 1, 0, PLAY[Card.LLAMA])  # asked again: once is enough
    await store.hints.add_hint(game_id, 1, 0, DRAW)  # thought again after a restart
    await store.hints.add_hint(game_id, 3, 0, QUIT)
    await store.hints.add_hint(game_id, 2, 1, PLAY[Card.PINK_LLAMA])
    await store.hints.add_hint(other, 1, 0, QUIT)
    assert await store.hints.hints_of(game_id, 0) == {1: {PLAY[Card.LLAMA], DRAW}, 3: {QUIT}}
    assert await store.hints.hints_of(game_id, 1) == {2: {PLAY[Card.PINK_LLAMA]}}
    assert await store.hints.hints_of(other, 0) == {1: {QUIT}}


async def test_the_hints_go_with_their_game_and_with_the_person_forgotten(store: Store) -> None:
    kept = await game_of(store, guild_id=1)
    gone = await game_of(store, guild_id=2)
    for game_id in (kept, gone):
        await store.hints.add_hint(game_id, 1, 0, DRAW)  # Ann's (user 1)
        await store.hints.add_hint(game_id, 2, 1, QUIT)  # Bob's (user 2)
    await store.forget.forget_guild(2)
    assert await store.hints.hints_of(gone, 0) == {} and await store.hints.hints_of(gone, 1) == {}
    await store.forget.forget_user(1)
    assert await store.hints.hints_of(kept, 0) == {}  # Ann's seat: no one's any more
    assert await store.hints.hints_of(kept, 1) == {2: {QUIT}}  # Bob's stay for his review
