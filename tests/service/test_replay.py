"""Replays: a finished game rebuilt step by step from the store, every hand open, kept a while."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

import bot.service.history.replay as replay_module
from bot.service.history.replay import KEEP_FOR, Replays, build_replay
from bot.service.play.table import Status, Table
from data import GameRecord, Store
from data.records import FORMER_PLAYER, SeatNote
from game import Match, RoundDealt, Ruleset, build_deck
from testkit.service_game import GUILD, ServiceGame, eventually, people

ANN, BOB, CY = people("Ann", "Bob", "Cy")


async def finished(game: ServiceGame, **options: Any) -> Table:
    table = await game.lobby([ANN, BOB, CY], ruleset=Ruleset(threshold=15), **options)
    await game.play_out(table)
    assert table.status is Status.FINISHED and table.match is not None
    return table


def counting_loads(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The game ids the store is asked to load from now on."""
    loads: list[int] = []
    load = store.games.load_game

    async def counted(game_id: int) -> Any:
        loads.append(game_id)
        return await load(game_id)

    monkeypatch.setattr(store.games, "load_game", counted)
    return loads


async def test_every_step_is_the_table_after_one_stored_event(game: ServiceGame) -> None:
    table = await finished(game)
    match = table.match
    assert match is not None
    replay = await game.service.replays.replay(table.game_id, guild_id=GUILD, person=ANN.id)
    assert replay is not None
    assert len(replay.steps) == len(match.events) and replay.last == len(match.events) - 1
    assert [s.name for s in replay.seats] == ["Ann", "Bob", "Cy"]

    again = Match(match.ruleset, match.players)
    deck = Counter(build_deck(Ruleset(party=False, komarami=False)))
    for step, event in zip(replay.steps, match.events, strict=True):
        again.apply_event(event)
        rnd = again.round
        assert rnd is not None
        # Every hand open, as it was after this event.
        assert [list(h) for h in step.hands] == [sorted(h) for h in rnd.hands]
        assert (step.top, step.draw_pile, step.to_move) == (rnd.top, len(rnd.pile), rnd.to_move)
        assert step.points == tuple(again.points) and step.round_no == rnd.round_no
        # Nothing hidden, nothing lost: the hands, the pile and the discards are the deck.
        held = Counter(c for hand in step.hands for c in hand)
        assert held + Counter(rnd.pile) + Counter(rnd.discard) == deck
        if isinstance(event, RoundDealt):
            assert (step.move.kind, step.move.seat) == ("deal", event.starter)
            assert [list(h) for h in step.hands] == [sorted(h) for h in event.hands]
        else:
            assert step.move.seat == event.seat


async def test_a_draw_names_the_card_drawn(game: ServiceGame) -> None:
    table = await finished(game)
    replay = await game.service.replays.replay(table.game_id, guild_id=GUILD, person=ANN.id)
    assert replay is not None
    draws = [s for s in replay.steps if s.move.kind == "drew"]
    assert draws, "the Normal AI's moves drew at least once"
    for step in draws:
        before = replay.steps[step.number - 1].hands[step.move.seat]
        gained = Counter(step.hands[step.move.seat]) - Counter(before)
        assert step.move.card is not None
        assert list(gained.elements()) == [step.move.card]


async def test_each_rounds_end_carries_its_scoring(game: ServiceGame) -> None:
    table = await finished(game)
    match = table.match
    assert match is not None
    replay = await game.service.replays.replay(table.game_id, guild_id=GUILD, person=ANN.id)
    assert replay is not None
    ends = [s for s in replay.steps if s.result is not None]
    assert [s.result for s in ends] == match.results
    for step in ends:
        assert step.result is not None
        assert step.points == tuple(row.total for row in step.result.seats)
    assert ends[-1] is replay.steps[-1], "the game ends with the last round's scoring"
    assert replay.final.winners == match.winners and replay.final.points == tuple(match.points)


async def test_next_round_goes_to_the_next_deal_and_lines_stay_in_their_round(
    game: ServiceGame,
) -> None:
    table = await finished(game)
    replay = await game.service.replays.replay(table.game_id, guild_id=GUILD, person=ANN.id)
    assert replay is not None
    deals = [s.number for s in replay.steps if s.move.kind == "deal"]
    assert len(deals) >= 2, "a threshold of 15 takes more than one round"
    assert deals[0] == 0
    for here, following in zip(deals, deals[1:], strict=False):
        assert replay.next_round(here) == following
        assert replay.next_round(following - 1) == following
    assert replay.next_round(deals[-1]) is None and replay.next_round(replay.last) is None
    lines = replay.round_lines(deals[1] + 2)
    assert [line.kind for line in lines][0] == "deal"
    assert lines == [replay.steps[n].move for n in range(deals[1], deals[1] + 3)]


async def test_a_quit_the_clock_made_is_a_timeout(game: ServiceGame) -> None:
    table = await game.lobby([ANN, BOB], turn_timer=30, ruleset=Ruleset(threshold=15))
    stamp = table.stamp
    mover = table.to_move
    game.clock.advance(31)
    await eventually(lambda: table.stamp > stamp)
    await game.play_out(table)
    replay = await game.service.replays.replay(table.game_id, guild_id=GUILD, person=ANN.id)
    assert replay is not None
    assert replay.steps[1].move.kind == "timeout" and replay.steps[1].move.seat == mover


async def test_only_a_finished_game_of_the_server_has_a_replay(game: ServiceGame) -> None:
    done = await finished(game)
    running = await game.lobby([ANN, BOB])
    lobby = await game.lobby([ANN, BOB], start=False)
    service = game.service
    assert await service.replays.replay(done.game_id, guild_id=GUILD + 1, person=ANN.id) is None
    for game_id in (running.game_id, lobby.game_id, 999_999):
        assert await service.replays.replay(game_id, guild_id=GUILD, person=ANN.id) is None
    assert await service.replays.replay(done.game_id, guild_id=GUILD, person=ANN.id) is not None


async def test_paging_reads_the_store_once_and_the_oldest_replay_goes_first(
    game: ServiceGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second, third = [await finished(game) for _ in range(3)]
    loads = counting_loads(game.store, monkeypatch)
    replays = Replays(game.store, clock=game.clock, size=2)
    for _ in range(5):  # five clicks through one game: one read
        assert await replays.replay(first.game_id, guild_id=GUILD, person=ANN.id) is not None
    assert loads == [first.game_id]
    await replays.replay(second.game_id, guild_id=GUILD, person=ANN.id)
    await replays.replay(first.game_id, guild_id=GUILD, person=ANN.id)  # the newest again
    # Second, the oldest asked, goes:
    await replays.replay(third.game_id, guild_id=GUILD, person=ANN.id)
    await replays.replay(first.game_id, guild_id=GUILD, person=ANN.id)
    assert loads == [first.game_id, second.game_id, third.game_id]
    await replays.replay(second.game_id, guild_id=GUILD, person=ANN.id)
    assert loads[-1] == second.game_id and len(loads) == 4
    # Another server's click on a kept replay is still refused.
    assert await replays.replay(first.game_id, guild_id=GUILD + 1, person=ANN.id) is None


async def test_a_kept_replay_is_read_again_after_a_while_so_a_forgotten_name_goes(
    game: ServiceGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``python -m bot forget --user`` runs beside a running bot, in a process of its own:
    a replay kept from before shows the name no longer than :data:`KEEP_FOR`, however
    often it is paged through meanwhile."""
    table = await finished(game)
    loads = counting_loads(game.store, monkeypatch)
    replays = Replays(game.store, clock=game.clock)
    kept = await replays.replay(table.game_id, guild_id=GUILD, person=ANN.id)
    assert kept is not None and kept.seats[1].name == "Bob"
    await game.store.forget.forget_user(BOB.id)
    for _ in range(3):  # paged through meanwhile: still one read
        game.clock.advance(KEEP_FOR / 3 - 1)
        assert await replays.replay(table.game_id, guild_id=GUILD, person=ANN.id) is kept
    assert loads == [table.game_id]
    game.clock.advance(3)
    again = await replays.replay(table.game_id, guild_id=GUILD, person=ANN.id)
    assert again is not None and again.seats[1].name == FORMER_PLAYER
    assert loads == [table.game_id, table.game_id]
    assert 60 <= KEEP_FOR <= 600, "long enough to page through, short enough to forget"


async def test_a_replay_is_built_from_the_stored_record_alone(game: ServiceGame) -> None:
    table = await finished(game)
    record = await game.store.games.load_game(table.game_id)
    assert record is not None
    built = build_replay(record)
    assert built.channel_id == table.channel_id and built.guild_id == GUILD
    assert built.finished_at == record.finished_at
    assert built.steps[-1].result is not None and built.steps[-1].result.game_over


async def test_a_forgotten_persons_seat_is_the_former_player_not_an_ai(
    game: ServiceGame,
) -> None:
    """Forgetting a person keeps their seat (as an AI's, for the game to replay) under the
    former player's name: the replay doesn't call it the Normal AI."""
    table = await finished(game)
    await game.store.forget.forget_user(BOB.id)
    replay = await game.service.replays.replay(table.game_id, guild_id=GUILD, person=ANN.id)
    assert replay is not None
    former = replay.seats[1]
    assert (former.user_id, former.ai, former.name) == (None, None, FORMER_PLAYER)
    assert replay.seats[0].name == "Ann" and replay.seats[2].name == "Cy"


async def test_a_seat_change_of_a_kind_this_version_does_not_know_is_left_out(
    game: ServiceGame,
) -> None:
    """A newer version noted a seat change of its own kind in a game, then the bot was
    rolled back to this one: the replay leaves that note out, as this version has no
    words for it, and shows the rest."""
    table = await finished(game)
    record = await game.store.games.load_game(table.game_id)
    assert record is not None
    newer = replace(record, notes=(*record.notes, SeatNote(1, 0, "from_a_newer_version")))
    steps = build_replay(newer).steps
    assert [line for step in steps for line in step.notes] == []
    assert len(steps) == len(record.events)


class HeldBuilds:
    """``build_replay`` watched: which games' rebuilds began, on which thread, each held
    until let through (one on the event loop's own thread can't be held: it runs)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.loop_thread = threading.get_ident()
        self.begun: list[int] = []
        self.on_loop: list[int] = []
        self.through = threading.Event()
        monkeypatch.setattr(replay_module, "build_replay", self._build)

    def _build(self, record: GameRecord) -> Any:
        self.begun.append(record.id)
        if threading.get_ident() == self.loop_thread:
            self.on_loop.append(record.id)
        else:
            self.through.wait()
        return build_replay(record)


async def test_a_replay_is_rebuilt_off_the_event_loop(
    game: ServiceGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A long game's rebuild takes tens of milliseconds: on the loop, it would hold every
    # table meanwhile.
    table = await finished(game)
    builds = HeldBuilds(monkeypatch)
    builds.through.set()
    assert (
        await game.service.replays.replay(table.game_id, guild_id=GUILD, person=ANN.id) is not None
    )
    assert builds.begun == [table.game_id] and builds.on_loop == []


async def test_one_persons_rebuilds_take_turns_and_hold_up_nobody_else(
    game: ServiceGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One member clicks Next on many replays the bot no longer keeps: one rebuild of
    # theirs at a time, however many they click; another person's starts meanwhile.
    tables = [await finished(game) for _ in range(4)]
    builds = HeldBuilds(monkeypatch)
    anns = [
        asyncio.create_task(game.service.replays.replay(t.game_id, guild_id=GUILD, person=ANN.id))
        for t in tables[:3]
    ]
    await eventually(lambda: len(builds.begun) >= 1)
    bobs = asyncio.create_task(
        game.service.replays.replay(tables[3].game_id, guild_id=GUILD, person=BOB.id)
    )
    await eventually(lambda: tables[3].game_id in builds.begun)
    try:
        assert builds.begun == [tables[0].game_id, tables[3].game_id], "Ann's wait their turn"
        assert not any(task.done() for task in anns)
    finally:
        builds.through.set()
    assert all(await asyncio.gather(*anns, bobs))
    assert sorted(builds.begun) == sorted(t.game_id for t in tables)


async def test_many_clicks_on_one_replay_being_rebuilt_read_it_once(
    game: ServiceGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await finished(game)
    loads = counting_loads(game.store, monkeypatch)
    builds = HeldBuilds(monkeypatch)
    builds.through.set()
    asked = [
        game.service.replays.replay(table.game_id, guild_id=GUILD, person=who.id)
        for who in (ANN, BOB, CY, ANN)
    ]
    assert all(await asyncio.gather(*asked))
    assert loads == [table.game_id] and builds.begun == [table.game_id]
