"""Games in the store: lobby, start, every move, reload and resume."""

from __future__ import annotations

import asyncio
import json

import pytest

from data import GameRecord, SeatRecord, Store, StoreError
from game import DRAW, Match, Ruleset

from ._helpers import Backend, humans, new_running_game, play_move, play_random_game, random_seats

RULESETS = [
    Ruleset(),
    Ruleset(no_drama=True),
    Ruleset(party=True, threshold=60),
    Ruleset(komarami=True, threshold=25),
    Ruleset(no_drama=True, party=True, komarami=True, threshold=50),
]


def replay(record: GameRecord) -> Match:
    return Match.replay(record.ruleset, len(record.seats), record.events)


@pytest.mark.parametrize(
    ("ruleset", "players", "seed"),
    [(ruleset, 2 + i, 100 + i) for i, ruleset in enumerate(RULESETS)] + [(Ruleset(), 6, 7)],
)
async def test_whole_game_round_trip(
    store: Store, ruleset: Ruleset, players: int, seed: int
) -> None:
    game_id, match = await play_random_game(store, ruleset, players, seed)
    assert match.over

    record = await store.games.load_game(game_id)
    assert record is not None
    assert record.status == "finished"
    assert record.finished_at is not None and record.turn_deadline is None
    assert record.ruleset == ruleset
    assert record.seats == tuple(random_seats(players))
    assert record.events == tuple(match.events)
    assert replay(record) == match

    history = await store.stats.chip_history(game_id)
    assert history is not None
    assert history.threshold == ruleset.threshold
    assert history.names == tuple(s.name for s in random_seats(players))
    assert history.totals == tuple(tuple(row.total for row in r.seats) for r in match.results)
    assert history.winners == match.winners


async def test_reload_at_every_move_equals_the_live_match(store: Store, backend: Backend) -> None:
    """Stop anywhere, reopen the file: the replay is the game as it was."""
    match = Match(Ruleset(no_drama=True, party=True), 3)
    game_id = await new_running_game(store, match, random_seats(3), first_deal=42)
    for step in range(60):
        if match.over:
            break
        action = match.legal_actions()[step % len(match.legal_actions())]
        await play_move(store, game_id, match, action, next_deal=step, turn_deadline=5000.0 + step)
        record = await store.games.load_game(game_id)
        assert record is not None and replay(record) == match
        assert record.turn_deadline == (None if match.over else 5000.0 + step)
    await store.close()

    reopened = await Store.open(backend.target)
    try:
        record = await reopened.games.load_game(game_id)
        assert record is not None and replay(record) == match
    finally:
        await reopened.close()


async def test_lobby_life_cycle(store: Store) -> None:
    seats = humans((1, "Ann"))
    game_id = await store.games.create_game(
        guild_id=5,
        channel_id=6,
        host_id=1,
        ruleset=Ruleset(),
        turn_timer=90,
        seats=seats,
        language="de",
    )
    record = await store.games.load_game(game_id)
    assert record is not None
    assert (record.guild_id, record.channel_id, record.host_id) == (5, 6, 1)
    assert (record.status, record.turn_timer, record.language) == ("lobby", 90, "de")
    assert record.table_message_id is None and record.turn_deadline is None
    assert record.seats == tuple(seats) and record.events == ()
    assert record.created_at > 0

    await store.games.set_table_message(game_id, 777)
    seats = [*seats, SeatRecord(1, 2, None, "Ben"), SeatRecord(2, None, "hard", "Bot")]
    await store.games.update_lobby(game_id, seats=seats, ruleset=Ruleset(party=True, threshold=30))
    record = await store.games.load_game(game_id)
    assert record is not None
    assert record.table_message_id == 777
    assert record.seats == tuple(seats)
    assert record.ruleset == Ruleset(party=True, threshold=30)

    # The ruleset stays when none is given; seats are replaced, not merged.
    await store.games.update_lobby(game_id, seats=seats[:2])
    record = await store.games.load_game(game_id)
    assert record is not None
    assert record.seats == tuple(seats[:2])
    assert record.ruleset == Ruleset(party=True, threshold=30)

    match = Match(record.ruleset, 2)
    match.deal(1)
    await store.games.start_game(game_id, seats=seats[:2], events=match.events, turn_deadline=99.5)
    record = await store.games.load_game(game_id)
    assert record is not None
    assert (record.status, record.turn_deadline) == ("running", 99.5)
    assert replay(record) == match

    with pytest.raises(StoreError, match="running, not in the lobby"):
        await store.games.update_lobby(game_id, seats=seats)
    with pytest.raises(StoreError, match="not in the lobby"):
        await store.games.start_game(game_id, seats=seats[:2], events=match.events)


async def test_a_table_keeps_whether_it_allows_hints(store: Store) -> None:
    seats = humans((1, "Ann"))
    on = await store.games.create_game(
        guild_id=5, channel_id=6, host_id=1, ruleset=Ruleset(), turn_timer=0, seats=seats
    )
    off = await store.games.create_game(
        guild_id=5,
        channel_id=7,
        host_id=1,
        ruleset=Ruleset(),
        turn_timer=0,
        seats=seats,
        hints=False,
    )
    assert [(await store.games.load_game(g)).hints for g in (on, off)] == [True, False]  # type: ignore[union-attr]
    await store.games.update_lobby(on, seats=seats, hints=False)
    await store.games.update_lobby(off, seats=seats)  # kept when not given
    assert [(await store.games.load_game(g)).hints for g in (on, off)] == [False, False]  # type: ignore[union-attr]
    await store.games.update_lobby(off, seats=seats, hints=True)
    assert [r.hints for r in await store.games.unfinished_games()] == [False, True]


async def test_a_lobby_keeps_whom_its_host_removed(store: Store) -> None:
    seats = humans((1, "Ann"), (2, "Bob"), (3, "Cy"))
    game_id = await store.games.create_game(
        guild_id=5, channel_id=6, host_id=1, ruleset=Ruleset(), turn_timer=0, seats=seats
    )
    other = await store.games.create_game(
        guild_id=5, channel_id=7, host_id=1, ruleset=Ruleset(), turn_timer=0, seats=seats
    )
    await store.games.update_lobby(game_id, seats=seats[::2], removed=2)
    await store.games.update_lobby(game_id, seats=seats[:1], removed=3)
    await store.games.update_lobby(game_id, seats=seats[:1], removed=3)  # once is enough
    record = await store.games.load_game(game_id)
    assert record is not None and record.removed == {2, 3} and record.seats == tuple(seats[:1])
    resumed = {r.id: r.removed for r in await store.games.unfinished_games()}
    assert resumed == {game_id: {2, 3}, other: frozenset()}
    await store.forget.forget_user(2)
    record = await store.games.load_game(game_id)
    assert record is not None and record.removed == {3}


async def test_whom_a_lobby_kept_out_is_forgotten_once_it_starts_or_closes(
    store: Store,
) -> None:
    # Only a lobby reads them: kept past it, they would be data about people nobody uses.
    seats = humans((1, "Ann"), (2, "Bob"), (3, "Cy"))
    started, cancelled = [
        await store.games.create_game(
            guild_id=5, channel_id=channel, host_id=1, ruleset=Ruleset(), turn_timer=0, seats=seats
        )
        for channel in (6, 7)
    ]
    for game_id in (started, cancelled):
        await store.games.update_lobby(game_id, seats=seats[:2], removed=3)
    match = Match(Ruleset(), 2)
    match.deal(1)
    await store.games.start_game(started, seats=seats[:2], events=match.events)
    await store.games.set_status(cancelled, "cancelled")
    for game_id in (started, cancelled):
        record = await store.games.load_game(game_id)
        assert record is not None and record.removed == frozenset()


async def test_a_lobby_nobody_saw_is_discarded_as_if_never_opened(store: Store) -> None:
    seats = humans((1, "Ann"), (2, "Bob"))
    shown = await store.games.create_game(
        guild_id=5, channel_id=6, host_id=1, ruleset=Ruleset(), turn_timer=0, seats=seats
    )
    await store.games.set_status(shown, "cancelled")
    unseen = await store.games.create_game(
        guild_id=5, channel_id=6, host_id=1, ruleset=Ruleset(), turn_timer=0, seats=seats
    )
    await store.games.update_lobby(unseen, seats=seats[:1], removed=2)
    await store.games.discard_lobby(unseen)
    assert await store.games.load_game(unseen) is None
    assert not await store.games.opened_after(6, shown), "a Rematch of the game before works"
    assert await store.games.unfinished_games() == []
    with pytest.raises(StoreError, match="cancelled, not in the lobby"):
        await store.games.discard_lobby(shown)


async def test_missing_game(store: Store) -> None:
    assert await store.games.load_game(12345) is None
    assert await store.stats.chip_history(12345) is None
    with pytest.raises(StoreError, match="no game 12345"):
        await store.games.set_table_message(12345, 1)
    with pytest.raises(StoreError, match="no game 12345"):
        await store.games.append_events(12345, 0, [])
    with pytest.raises(StoreError, match="no game 12345"):
        await store.games.set_status(12345, "cancelled")


async def test_timer_and_seat_updates(store: Store) -> None:
    match = Match(Ruleset(), 2)
    seats = humans((1, "Ann"), (2, "Ben"))
    game_id = await new_running_game(store, match, seats)

    away = [seats[0], SeatRecord(1, 2, None, "Ben", missed_turns=2, away=True)]
    await store.games.update_timer(game_id, turn_deadline=123.0, seats=away)
    record = await store.games.load_game(game_id)
    assert record is not None
    assert record.turn_deadline == 123.0 and record.seats == tuple(away)

    # A move saves the seats with it; a seat the game lacks spoils the whole unit.
    back = [seats[0], SeatRecord(1, 2, None, "Ben")]
    seat = match.to_move
    assert seat is not None
    action = match.legal_actions()[0]
    match.apply(seat, action)
    with pytest.raises(StoreError, match="no such seat"):
        await store.games.append_events(
            game_id, 1, match.events[1:], seats=[*back, SeatRecord(5, 9, None, "Nobody")]
        )
    record = await store.games.load_game(game_id)
    assert record is not None
    assert len(record.events) == 1 and record.seats == tuple(away)

    await store.games.append_events(game_id, 1, match.events[1:], seats=back, turn_deadline=None)
    record = await store.games.load_game(game_id)
    assert record is not None
    assert record.seats == tuple(back) and record.turn_deadline is None
    assert replay(record) == match


async def test_status_changes(store: Store) -> None:
    lobby = await store.games.create_game(
        guild_id=1, channel_id=1, host_id=1, ruleset=Ruleset(), turn_timer=0, seats=humans((1, "A"))
    )
    await store.games.set_status(lobby, "cancelled")
    record = await store.games.load_game(lobby)
    assert record is not None and record.status == "cancelled"
    # Cancelled and finished are final.
    with pytest.raises(StoreError, match="is cancelled"):
        await store.games.set_status(lobby, "running")
    with pytest.raises(ValueError, match="unknown status"):
        await store.games.set_status(lobby, "paused")

    running = await new_running_game(store, Match(Ruleset(), 2), humans((1, "A"), (2, "B")))
    await store.games.update_timer(running, turn_deadline=50.0)
    await store.games.set_status(running, "cancelled")
    record = await store.games.load_game(running)
    assert record is not None
    assert (record.status, record.turn_deadline, record.finished_at) == ("cancelled", None, None)
    with pytest.raises(StoreError, match="is cancelled, not running"):
        await store.games.append_events(running, 1, [])


async def test_unfinished_games_are_lobby_and_running_only(store: Store) -> None:
    lobby = await store.games.create_game(
        guild_id=1, channel_id=1, host_id=1, ruleset=Ruleset(), turn_timer=0, seats=humans((1, "A"))
    )
    cancelled = await store.games.create_game(
        guild_id=1, channel_id=2, host_id=1, ruleset=Ruleset(), turn_timer=0, seats=humans((1, "A"))
    )
    await store.games.set_status(cancelled, "cancelled")
    finished, _ = await play_random_game(store, Ruleset(threshold=5), 2, seed=1)
    running, live = await play_random_game(
        store, Ruleset(party=True, threshold=200), 4, seed=2, stop_after=25
    )
    other, other_live = await play_random_game(
        store, Ruleset(threshold=200), 3, seed=3, stop_after=8
    )
    assert not live.over and not other_live.over

    records = await store.games.unfinished_games()
    assert [r.id for r in records] == [lobby, running, other]
    assert [r.status for r in records] == ["lobby", "running", "running"]
    assert records[0].events == () and records[0].seats == tuple(humans((1, "A")))
    assert replay(records[1]) == live
    assert replay(records[2]) == other_live
    assert finished not in {r.id for r in records}


async def test_unfinished_games_uses_a_fixed_number_of_queries(sqlite_store: Store) -> None:
    """Resuming reads all games in five queries, not one (or five) per game."""
    store = sqlite_store
    for seed in range(12):
        await play_random_game(store, Ruleset(), 3, seed=seed, stop_after=8)
    conn = store._db.connection  # type: ignore[attr-defined]
    statements: list[str] = []
    await conn.set_trace_callback(statements.append)
    records = await store.games.unfinished_games()
    await conn.set_trace_callback(None)
    selects = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
    assert len(records) == 12
    assert len(selects) == 5


async def test_meta_is_stored_per_event(store: Store, backend: Backend) -> None:
    match = Match(Ruleset(), 2)
    game_id = await new_running_game(store, match, humans((1, "A"), (2, "B")))
    seat = match.to_move
    assert seat is not None
    match.apply(seat, DRAW if DRAW in match.legal_actions() else match.legal_actions()[0])
    await store.games.append_events(game_id, 1, match.events[1:], meta=[{"auto": "timeout"}])
    with pytest.raises(ValueError, match="meta entries"):
        await store.games.append_events(game_id, 2, [], meta=[None])

    await store.close()
    rows = await backend.rows("SELECT seq, kind, meta FROM events ORDER BY seq")
    assert rows[0][2] is None
    assert json.loads(rows[1][2]) == {"auto": "timeout"}


async def test_hostile_names_are_stored_verbatim(store: Store) -> None:
    evil = "x'); DROP TABLE games;--"
    seats = [SeatRecord(0, 1, None, evil), SeatRecord(1, None, "easy", 'Robert"); --')]
    game_id = await store.games.create_game(
        guild_id=1,
        channel_id=1,
        host_id=1,
        ruleset=Ruleset(),
        turn_timer=0,
        seats=seats,
        language=evil,
    )
    await store.settings.set_language(1, evil)
    record = await store.games.load_game(game_id)
    assert record is not None
    assert record.seats == tuple(seats)
    assert record.language == evil
    assert await store.settings.get_language(1) == evil
    assert [r.id for r in await store.games.unfinished_games()] == [game_id]


async def test_guild_language(store: Store) -> None:
    assert await store.settings.get_language(9) is None
    await store.settings.set_language(9, "es")
    await store.settings.set_language(8, "de")
    assert await store.settings.get_language(9) == "es"
    await store.settings.set_language(9, "en")
    assert await store.settings.get_language(9) == "en"
    await store.settings.set_language(9, None)
    assert await store.settings.get_language(9) is None
    assert await store.settings.get_language(8) == "de"


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_concurrent_units_do_not_interleave(store: Store) -> None:
    """Many games moving at once: every unit lands whole, and reads see whole units."""
    matches = [Match(Ruleset(), 3) for _ in range(10)]
    ids = await asyncio.gather(
        *(new_running_game(store, m, random_seats(3), first_deal=i) for i, m in enumerate(matches))
    )

    async def play(game_id: int, match: Match, moves: int) -> None:
        for step in range(moves):
            if match.over:
                return
            actions = match.legal_actions()
            await play_move(store, game_id, match, actions[step % len(actions)], next_deal=step)

    async def reader() -> None:
        for _ in range(30):
            for record in await store.games.unfinished_games():
                replay(record)  # never a half-saved move
            await asyncio.sleep(0)

    await asyncio.gather(reader(), *(play(i, m, 30) for i, m in zip(ids, matches, strict=True)))
    for game_id, match in zip(ids, matches, strict=True):
        record = await store.games.load_game(game_id)
        assert record is not None and replay(record) == match


async def test_closed_store_refuses_work(backend: Backend) -> None:
    store = await Store.open(backend.target)
    await store.close()
    await store.close()  # twice is fine
    with pytest.raises(StoreError, match="closed"):
        await store.games.load_game(1)


async def test_async_with_closes(backend: Backend) -> None:
    async with await Store.open(backend.target) as store:
        assert await store.settings.get_language(1) is None
    with pytest.raises(StoreError, match="closed"):
        await store.settings.get_language(1)


async def test_an_unreadable_game_does_not_block_the_others(
    backend: Backend, caplog: pytest.LogCaptureFixture
) -> None:
    store = await Store.open(backend.target, durable=False)
    good, live = await play_random_game(store, Ruleset(threshold=200), 2, seed=5, stop_after=5)
    bad, _ = await play_random_game(store, Ruleset(threshold=200), 2, seed=6, stop_after=5)
    await store.close()
    await backend.rows("UPDATE games SET ruleset = '{\"threshold\": 0}' WHERE id = ?", (bad,))

    store = await Store.open(backend.target)
    try:
        records = await store.games.unfinished_games()
        assert [r.id for r in records] == [good]
        assert replay(records[0]) == live
        assert f"game {bad} cannot be resumed" in caplog.text
        with pytest.raises(StoreError, match=f"could not load game {bad}: RulesetError"):
            await store.games.load_game(bad)
    finally:
        await store.close()


async def test_a_finished_game_has_its_chart_to_post_until_it_is_posted(store: Store) -> None:
    """The write that finishes a game marks its chip chart as not yet posted, until
    the front end says it is (or gave up): a restart posts the others, once."""
    finished, _match = await play_random_game(store, Ruleset(threshold=5), 3, seed=3)
    cancelled = await new_running_game(store, Match(Ruleset(), 2), humans((1, "A"), (2, "B")))
    await store.games.set_status(cancelled, "cancelled")  # no chart to post
    await new_running_game(store, Match(Ruleset(), 2), humans((1, "A"), (2, "B")))
    assert await store.endings.charts_unposted() == [finished]
    await store.endings.set_end_shown(finished)  # the table's edit: not the chart
    assert await store.endings.charts_unposted() == [finished]
    await store.endings.set_chart_posted(finished)
    assert await store.endings.charts_unposted() == []


async def test_a_game_keeps_how_far_its_table_listed_its_moves(store: Store) -> None:
    """How many of a game's move lines its table message has listed, kept for a
    restart: unknown until said, and never taken back by a write that comes late."""
    game_id = await new_running_game(store, Match(Ruleset(), 2), humans((1, "A"), (2, "B")))

    async def listed() -> int | None:
        record = await store.games.load_game(game_id)
        assert record is not None
        return record.moves_listed

    assert await listed() is None
    await store.listed.set_moves_listed(game_id, 7)
    await store.listed.set_moves_listed(game_id, 5)  # an older edit's write, late
    assert await listed() == 7


async def test_a_game_that_ends_has_its_end_to_show_until_it_is_shown(store: Store) -> None:
    """The write that ends a game (its last move, a cancel) marks its end as not yet shown
    on its table, until the front end says it is: a restart shows the others."""
    finished, _match = await play_random_game(store, Ruleset(threshold=5), 3, seed=3)
    cancelled = await new_running_game(store, Match(Ruleset(), 2), humans((1, "A"), (2, "B")))
    await store.games.set_status(cancelled, "cancelled")
    gone = await new_running_game(store, Match(Ruleset(), 2), humans((1, "A"), (2, "B")))
    await store.games.set_status(gone, "cancelled", shown=True)  # its channel is gone
    running = await new_running_game(store, Match(Ruleset(), 2), humans((1, "A"), (2, "B")))
    lobby = await store.games.create_game(
        guild_id=1, channel_id=1, host_id=1, ruleset=Ruleset(), turn_timer=0, seats=humans((1, "A"))
    )
    assert await store.endings.endings_unshown() == [finished, cancelled]
    await store.endings.set_end_shown(finished)
    await store.endings.set_end_shown(running)  # nothing to show: nothing changes
    assert await store.endings.endings_unshown() == [cancelled]
    await store.endings.set_end_shown(cancelled)
    assert await store.endings.endings_unshown() == []
    assert lobby not in await store.endings.endings_unshown()


async def test_a_cancelled_game_keeps_why_it_ended(store: Store) -> None:
    """The write that cancels a game keeps its reason, for an old hand of it (or its
    table after a restart) to say why; a finished game, and one stored before, has none."""
    idle = await new_running_game(store, Match(Ruleset(), 2), humans((1, "A"), (2, "B")))
    await store.games.set_status(idle, "cancelled", reason="closed.idle_game")
    unsaid = await new_running_game(store, Match(Ruleset(), 2), humans((1, "A"), (2, "B")))
    await store.games.set_status(unsaid, "cancelled")
    finished, _match = await play_random_game(store, Ruleset(threshold=5), 3, seed=3)
    reasons = []
    for game_id in (idle, unsaid, finished):
        record = await store.games.load_game(game_id)
        assert record is not None
        reasons.append(record.end_reason)
    assert reasons == ["closed.idle_game", None, None]
