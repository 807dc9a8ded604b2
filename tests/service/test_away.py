"""Stepping away is not leaving: a game whose every person is away waits for them.

Ann alone against an AI misses her turns: the AI takes her seat, and the game waits
for her (``Timing.away_wait``) with its AIs standing still. "I'm back" plays on; if
nobody is back by then, it ends as their loss, rated, with a Rematch, also after a
restart in between.
"""

from __future__ import annotations

from bot.service import GameService
from bot.service.play.table import Status, Table, waiting
from data.records import ALL_TIME, AWAY
from game import Card, Ruleset
from game.ai import Strength
from testkit.deals import whole_deal
from testkit.service_game import ServiceGame, eventually, people, rated

ANN, BOB = people("Ann", "Bob")
TURN = 60
JUNK = [[Card.ONE] * 6, [Card.TWO] * 6]  # hands nothing fits


async def ann_against_an_ai(game: ServiceGame) -> Table:
    """Ann (seat 0) and a Normal AI, a 60 s turn timer, Ann to move; rounds that don't
    end the game by the points of her quits."""
    for _ in range(4):
        game.service.dealer.scripted.append(whole_deal(JUNK, Card.THREE, starter_by_rules=True))
    return await game.lobby(
        [ANN], [Strength.NORMAL], turn_timer=TURN, ruleset=Ruleset(threshold=200)
    )


async def moved_on(table: Table, stamp: int) -> None:
    """Wait until the table moved on from turn ``stamp``."""
    await eventually(lambda: table.stamp != stamp)


async def ann_steps_away(game: ServiceGame, table: Table) -> float:
    """Ann lets her turns run out until the AI stands in for her; when that was."""
    while not table.seats[0].away:
        await eventually(lambda: table.to_move == 0 and table.turn_deadline is not None)
        stamp = table.stamp
        game.clock.advance(TURN + 1)
        await moved_on(table, stamp)
    return game.clock.now


async def test_a_game_whose_every_person_is_away_waits_and_im_back_plays_on(
    game: ServiceGame,
) -> None:
    table = await ann_against_an_ai(game)
    away_at = await ann_steps_away(game, table)
    wait = game.service.timing.away_wait
    # Not ended (before: cancelled at once, as abandoned): it waits, and says until when.
    assert table.status is Status.RUNNING and waiting(table)
    assert table.waits_until == away_at + wait
    assert table.seats[0].controller is not None  # her stand-in, standing still
    stamp = table.stamp
    await eventually(lambda: ("changed", table.game_id, stamp) in game.listener.notices)
    game.clock.advance(wait - 1)  # the AI to move does not, all the while
    await eventually(lambda: ("changed", table.game_id, stamp) in game.listener.notices)
    assert table.stamp == stamp and table.status is Status.RUNNING
    record = await game.store.games.load_game(table.game_id)
    assert record is not None and record.waits_until == table.waits_until

    await game.service.seats.come_back(table, ANN.id)
    assert not waiting(table) and table.waits_until is None
    # The AI plays on, then it is Ann's turn with a whole turn from now.
    await eventually(lambda: table.to_move == 0 and table.turn_deadline is not None)
    assert table.stamp > stamp
    game.clock.advance(2)  # past the wait's old deadline: nothing ends
    assert table.status is Status.RUNNING
    record = await game.store.games.load_game(table.game_id)
    assert record is not None and record.waits_until is None
    back = [n for n in record.notes if n.kind == "back"]
    assert [n.seq for n in back] == [stamp]  # nothing moved while it waited


async def test_nobody_back_by_then_ends_it_rated_with_a_rematch(game: ServiceGame) -> None:
    table = await ann_against_an_ai(game)
    await ann_steps_away(game, table)
    stamp = table.stamp
    game.clock.advance(game.service.timing.away_wait + 1)
    await eventually(lambda: table.status is Status.CANCELLED)
    assert table.end_reason == AWAY and table.stamp == stamp
    await eventually(lambda: ("closed", table.game_id, AWAY) in game.listener.notices)
    changes = await rated(game, table.game_id)  # rated as a game every person left is
    assert {c.seat for c in changes if c.season == ALL_TIME} == {0, 1}
    # A new game, as after a finished one: Ann hosts it, with the AI seat.
    rematch = await game.service.lobbies.rematch(
        table.game_id, ANN, table.channel_id, table.guild_id
    )
    assert rematch.status is Status.LOBBY and rematch.humans == [ANN.id]
    assert len(rematch.seats) == 2


async def test_the_wait_and_its_deadline_come_back_after_a_restart(game: ServiceGame) -> None:
    table = await ann_against_an_ai(game)
    await ann_steps_away(game, table)
    until = table.waits_until
    assert until is not None
    await game.service.close()  # the bot stops; the store stays
    game.clock.advance(600)
    again = GameService(
        game.store, clock=game.clock, sleep=game.clock.sleep, timing=game.service.timing
    )
    try:
        (back,) = await again.resume()
        again.resumer.resumed_tables()  # the bot is connected
        # Still waiting, until when it said (not a whole wait from the restart).
        assert waiting(back) and back.waits_until == until
        assert back.stamp == table.stamp
        game.clock.advance(until - game.clock.now - 1)
        assert back.status is Status.RUNNING
        game.clock.advance(2)
        await eventually(lambda: back.status is Status.CANCELLED)
        assert back.stamp == table.stamp  # no AI played on for nobody
        record = await game.store.games.load_game(table.game_id)
        assert record is not None and record.end_reason == AWAY
        assert await rated(game, table.game_id)
    finally:
        await again.close()


async def test_a_restart_after_im_back_plays_on(game: ServiceGame) -> None:
    table = await ann_against_an_ai(game)
    await ann_steps_away(game, table)
    await game.service.seats.come_back(table, ANN.id)
    await game.service.close()
    again = GameService(
        game.store, clock=game.clock, sleep=game.clock.sleep, timing=game.service.timing
    )
    try:
        (back,) = await again.resume()
        assert not waiting(back) and back.waits_until is None
        await eventually(lambda: back.to_move == 0 and back.turn_deadline is not None)
    finally:
        await again.close()


async def test_one_person_back_of_two_plays_on_with_the_other_still_away(
    game: ServiceGame,
) -> None:
    """Ann and Bob both miss their turns: the game waits for them both; Bob back, it
    plays on, the AI standing in for Ann."""
    for _ in range(4):
        game.service.dealer.scripted.append(whole_deal(JUNK, Card.THREE, starter_by_rules=True))
    table = await game.lobby([ANN, BOB], turn_timer=TURN, ruleset=Ruleset(threshold=200))
    while not waiting(table):
        assert table.status is Status.RUNNING
        await eventually(lambda: table.turn_deadline is not None or waiting(table))
        if waiting(table):
            break
        stamp = table.stamp
        game.clock.advance(TURN + 1)
        await moved_on(table, stamp)
    assert table.seats[0].away and table.seats[1].away
    await game.service.seats.come_back(table, BOB.id)
    assert not waiting(table) and table.seats[0].away
    game.clock.advance(game.service.timing.away_wait + 1)
    assert table.status is Status.RUNNING


async def test_the_last_one_playing_leaving_while_the_others_are_away_starts_the_wait(
    game: ServiceGame,
) -> None:
    """Bob plays on while Ann is away; Bob leaves: Ann, away, is the only person left,
    and the game waits for her rather than ending."""
    for _ in range(4):
        game.service.dealer.scripted.append(whole_deal(JUNK, Card.THREE, starter_by_rules=True))
    table = await game.lobby([ANN, BOB], turn_timer=TURN, ruleset=Ruleset(threshold=200))
    while not table.seats[0].away:
        await eventually(lambda: table.to_move is not None and table.turn_deadline is not None)
        if table.to_move == 1:
            await game.play(table)
            continue
        stamp = table.stamp
        game.clock.advance(TURN + 1)
        await moved_on(table, stamp)
    await game.service.seats.leave_game(table, BOB.id)
    assert table.status is Status.RUNNING and waiting(table)
    # Ann is kicked too (by a manager): nobody is left to wait for; it ends at once.
    await game.service.seats.kick(table, BOB.id, ANN.id, can_manage=True)
    assert not table.live and table.end_reason == "closed.abandoned"
