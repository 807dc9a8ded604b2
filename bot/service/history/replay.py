"""Replays of finished games: each stored event as a step with every hand open, and a small cache.

A replay is rebuilt from the stored game (its events, seats and ruleset) the way a
restart rebuilds a table, keeping a snapshot of the table after every event. The
game is over, so nothing is secret any more: each step shows every hand, and a draw
says which card it was. Finished games never change, so the last few replays asked
for are kept (:class:`Replays`), and paging through one reads the store once; but
their names do (``python -m bot forget --user``, a process of its own beside the
bot), so a replay is kept only :data:`KEEP_FOR` after it was read.

A rebuild takes tens of milliseconds for a long game, so it runs in a worker thread,
never on the event loop; a person's rebuilds take turns (however many replays they click
through, one at a time), at most :data:`BUILDS_AT_ONCE` of everybody's run at once, and
clicks on a replay being rebuilt wait for that one rebuild.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from bot.service.errors import ServiceError
from bot.service.play.rows import note_lines
from bot.service.play.table import MoveLine, Seat
from bot.service.saver import read
from data import GameRecord, Store
from data.records import former_player
from game import (
    Card,
    CardDrawn,
    CardPlayed,
    Event,
    Match,
    PlayerQuit,
    PublicView,
    ReplayError,
    RoundDealt,
    RoundResult,
    Ruleset,
    require_whole_deck,
    sorted_cards,
)
from game.ai import Strength

log = logging.getLogger(__name__)

#: What a person is told when a replay can't be had.
FAILED = "replay.failed"

#: Replays kept in memory: enough for everyone paging through one at the same time.
CACHE_SIZE = 32
#: Seconds a replay is kept after it was read: a person forgotten meanwhile is shown
#: by name no longer than that, and paging through a game reads it every few minutes.
KEEP_FOR = 300.0
#: Rebuilds running at once, everybody's together (each one a person's only one).
BUILDS_AT_ONCE = 2


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """The table right after one stored event of a finished game, every hand open."""

    number: int  # 0-based: step 0 is the first deal
    round_no: int
    #: What was done, and by whom: the deal (its seat starts the round), a card played,
    #: a draw (with the card drawn), a quit (``timeout`` if the clock quit for them).
    move: MoveLine
    notes: tuple[MoveLine, ...]  # seat changes just before the move: kicked, left, back …
    hands: tuple[tuple[Card, ...], ...]  # every seat's hand, sorted
    in_round: tuple[bool, ...]
    top: Card
    draw_pile: int  # cards left to draw
    points: tuple[int, ...]  # after the step: a round's last move adds its scoring
    to_move: int | None
    no_drama_holder: int | None
    result: RoundResult | None  # the round's scoring, if this move ended the round


@dataclass(frozen=True, slots=True)
class Replay:
    """A finished game, step by step."""

    game_id: int
    guild_id: int
    channel_id: int
    ruleset: Ruleset
    seats: tuple[Seat, ...]
    finished_at: float | None
    steps: tuple[ReplayStep, ...]  # never empty: a finished game was dealt at least once
    final: PublicView  # the game as it ended: the winners and every seat's points

    @property
    def last(self) -> int:
        """The number of the last step: the move that ended the game."""
        return len(self.steps) - 1

    def next_round(self, number: int) -> int | None:
        """The step that deals the round after step ``number``'s; None in the last round."""
        this = self.steps[number].round_no
        return next((s.number for s in self.steps[number:] if s.round_no > this), None)

    def round_lines(self, number: int) -> list[MoveLine]:
        """What happened in step ``number``'s round up to and with it, a line each."""
        this = self.steps[number].round_no
        lines: list[MoveLine] = []
        for step in self.steps[: number + 1]:
            if step.round_no == this:
                lines += [*step.notes, step.move]
        return lines


def build_replay(record: GameRecord) -> Replay:
    """The replay of a stored finished game; a ReplayError if its events don't replay."""
    for event in record.events:
        if isinstance(event, RoundDealt):
            require_whole_deck(event, record.ruleset)
    # A forgotten person's seat is stored as an AI's; it is shown as the former player.
    seats = tuple(
        Seat(
            user_id=s.user_id,
            ai=Strength(s.ai) if s.ai and not former_player(s.user_id, s.name) else None,
            name=s.name,
        )
        for s in record.seats
    )
    notes = note_lines(record)
    match = Match(record.ruleset, len(seats))
    steps: list[ReplayStep] = []
    for seq, event in enumerate(record.events):
        scored = len(match.results)
        move = _line(match, record, seq, event)
        match.apply_event(event)
        rnd = match.round
        assert rnd is not None
        steps.append(
            ReplayStep(
                number=seq,
                round_no=rnd.round_no,
                move=move,
                notes=tuple(notes.get(seq, ())),
                hands=tuple(sorted_cards(hand) for hand in rnd.hands),
                in_round=tuple(rnd.active),
                top=rnd.top,
                draw_pile=len(rnd.pile),
                points=tuple(match.points),
                to_move=rnd.to_move,
                no_drama_holder=rnd.no_drama_holder,
                result=match.results[-1] if len(match.results) > scored else None,
            )
        )
    return Replay(
        game_id=record.id,
        guild_id=record.guild_id,
        channel_id=record.channel_id,
        ruleset=record.ruleset,
        seats=seats,
        finished_at=record.finished_at,
        steps=tuple(steps),
        final=match.public_view(),
    )


def _line(match: Match, record: GameRecord, seq: int, event: Event) -> MoveLine:
    """The line of ``event`` (stored at ``seq``), read before ``match`` applies it."""
    if isinstance(event, RoundDealt):
        return MoveLine(seat=event.starter, kind="deal")
    if isinstance(event, CardPlayed):
        return MoveLine(seat=event.seat, kind="play", card=int(event.card))
    if isinstance(event, CardDrawn):
        rnd = match.round
        # The pile is kept next card last; a draw that doesn't replay fails in apply_event.
        drawn = int(rnd.pile[-1]) if rnd is not None and rnd.pile else None
        return MoveLine(seat=event.seat, kind="drew", card=drawn)
    assert isinstance(event, PlayerQuit)
    return MoveLine(seat=event.seat, kind=record.automatic.get(seq) or "quit")


class _Turn:
    """A person's rebuilds, one at a time: the lock, and how many of theirs want it."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.waiting = 0


class Replays:
    """The replays of finished games, the last ``size`` asked for kept in memory, each
    for ``keep`` seconds of ``clock`` (unix seconds) after it was read."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float],
        size: int = CACHE_SIZE,
        keep: float = KEEP_FOR,
    ) -> None:
        self._store = store
        self._clock = clock
        self._size = size
        self._keep = keep
        self._kept: OrderedDict[int, tuple[float, Replay]] = OrderedDict()  # read then
        self._building: dict[int, asyncio.Future[Replay | None]] = {}  # by game
        self._turns: dict[int, _Turn] = {}  # each person's rebuilds, one at a time
        self._builds = asyncio.Semaphore(BUILDS_AT_ONCE)

    async def replay(self, game_id: int, *, guild_id: int, person: int) -> Replay | None:
        """The replay of finished game ``game_id`` of ``guild_id``; None if there is no
        such game there (none at all, one not finished, or another server's). A replay
        not kept is rebuilt after ``person``'s own rebuilds before it. ``replay.failed``
        if the store fails, or the stored game can't be replayed."""
        try:
            return await read(self._replay(game_id, guild_id, person), FAILED, f"game {game_id}")
        except ReplayError as error:
            log.warning("game %s could not be replayed: %s", game_id, error)
            raise ServiceError(FAILED) from error

    async def _replay(self, game_id: int, guild_id: int, person: int) -> Replay | None:
        replay = self._fresh(game_id)
        if replay is None:
            building = self._building.get(game_id)
            if building is None:
                building = asyncio.ensure_future(self._rebuild(game_id, person))
                self._building[game_id] = building
                building.add_done_callback(lambda _: self._building.pop(game_id, None))
            # Shielded: a click given up on leaves the rebuild to the others waiting for it.
            replay = await asyncio.shield(building)
        if replay is None:
            return None
        if game_id in self._kept:  # rebuilt, then gone already if many were meanwhile
            self._kept.move_to_end(game_id)
        return replay if replay.guild_id == guild_id else None

    def _fresh(self, game_id: int) -> Replay | None:
        kept = self._kept.get(game_id)
        # From when it was read, not last asked: paging on doesn't keep a name longer.
        if kept is None or self._clock() - kept[0] >= self._keep:
            return None
        return kept[1]

    async def _rebuild(self, game_id: int, person: int) -> Replay | None:
        turn = self._turns.setdefault(person, _Turn())
        turn.waiting += 1
        try:
            async with turn.lock, self._builds:
                read_at = self._clock()
                record = await self._store.games.load_game(game_id)
                if record is None or record.status != "finished" or not record.events:
                    self._kept.pop(game_id, None)
                    return None
                replay = await asyncio.to_thread(build_replay, record)
        finally:
            turn.waiting -= 1
            if not turn.waiting:
                del self._turns[person]  # nobody of theirs waits: no lock kept per person
        self._kept[game_id] = (read_at, replay)
        while len(self._kept) > self._size:
            self._kept.popitem(last=False)
        return replay
