"""Finished games for the stats tests: short rigged games played through Discord, and
many random games written straight into the store for the leaderboard."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

import simcord

from bot.service.play.table import Status, Table
from data import MatchProgress
from data.records import SeatRecord
from data.store import Store
from game import Card, Match, Ruleset
from testkit.simcord_play import enabled, open_hand, open_lobby, rig, table_message

C = Card


@dataclass
class Round:
    hands: list[list[Card]]
    moves: list[tuple[int, Card | str]]  # (seat, card to play or "quit"/"draw")
    top: Card = C.THREE
    starter: int = 0
    pile: list[Card] = field(default_factory=list)  # the rest of the deck follows


async def play_rigged_game(
    env: simcord.Env,
    channel: simcord.ChannelHandle,
    players: Sequence[simcord.MemberActor],
    rounds: Sequence[Round],
    *,
    threshold: int = 5,
) -> Table:
    """Open a table, seat ``players`` in order, deal ``rounds`` and click their moves."""
    for dealt in rounds:
        rig(env, dealt.hands, dealt.top, dealt.pile, dealt.starter)
    table = await open_lobby(env, players[0], channel, threshold=threshold)
    for player in players[1:]:
        await player.click(table_message(channel), label="Join")
    await players[0].click(table_message(channel), label="Start")
    assert [s.user_id for s in table.seats] == [p.id for p in players]
    for dealt in rounds:
        for seat, move in dealt.moves:
            assert table.to_move == seat, (table.to_move, seat, move)
            player = players[seat]
            hand = await open_hand(player, channel)
            if isinstance(move, Card):
                ids = [i for i in enabled(hand, "lama:play:") if i.endswith(f":{int(move)}")]
            else:
                ids = enabled(hand, f"lama:{move}:")
            assert ids, f"{player.name} cannot {move}"
            await player.click(hand, custom_id=ids[0])
    assert table.status is Status.FINISHED
    return table


async def insert_random_game(
    store: Store,
    guild_id: int,
    players: Sequence[tuple[int | None, str]],  # user id (None: an AI seat) and name
    rng: random.Random,
    *,
    threshold: int = 5,
    channel_id: int | None = None,
) -> Match:
    """A finished game of random legal moves, saved the way the game service saves one,
    as if played in ``channel_id`` (by default a channel the server doesn't have: one
    deleted since, whose games only their players still see)."""
    ruleset = Ruleset(threshold=threshold)
    seats = [
        SeatRecord(i, user_id, None if user_id is not None else "normal", name)
        for i, (user_id, name) in enumerate(players)
    ]
    match = Match(ruleset, len(players))
    match.deal(rng.randrange(2**32))
    game_id = await store.games.create_game(
        guild_id=guild_id,
        channel_id=guild_id + 1 if channel_id is None else channel_id,
        host_id=next(user_id for user_id, _ in players if user_id is not None),
        ruleset=ruleset,
        turn_timer=0,
        seats=seats,
    )
    await store.games.start_game(game_id, seats=seats, events=match.events)
    first = len(match.events)
    while not match.over:
        if match.awaiting_deal:
            match.deal(rng.randrange(2**32))
            continue
        seat = match.to_move
        assert seat is not None
        match.apply(seat, rng.choice(match.legal_actions()))
    await store.games.append_progress(game_id, MatchProgress.since(match, first, 0))
    return match
