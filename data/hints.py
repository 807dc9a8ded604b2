"""The hints shown: which move a hint advised a seat at which moment of a game.

A hint is stored before it is shown, so the game's review can leave out every move
its player made as a hint advised it: the review searches on its own and may judge
a close call the other way, and must not blame a player for doing what they were
told.  A moment (``seq``: the game's events so far, the event the move would be)
may hold more than one move: a hint asked again after a restart is thought again.
"""

from __future__ import annotations

from game import DRAW, PLAY, QUIT, Action, Card, Play

from .database import Database

#: How a move is stored: its kind, and the card played (0 for none).
_QUIT, _DRAW, _PLAY = "quit", "draw", "play"


def _columns(move: Action) -> tuple[str, int]:
    if isinstance(move, Play):
        return _PLAY, int(move.card)
    return (_DRAW if move == DRAW else _QUIT), 0


def _move(kind: str, card: int) -> Action:
    if kind == _PLAY:
        return PLAY[Card(card)]
    return DRAW if kind == _DRAW else QUIT


class HintRows:
    """The moves hints advised, per game, moment and seat."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def add_hint(self, game_id: int, seq: int, seat: int, move: Action) -> None:
        """Remember that a hint advised ``seat`` to make ``move`` as the ``seq``-th
        event of the game (again: once is enough)."""
        kind, card = _columns(move)
        async with self._db.write() as unit:
            query = """INSERT INTO hints_shown (game_id, seq, seat, kind, card)
                       VALUES (?, ?, ?, ?, ?)
                       ON CONFLICT (game_id, seq, kind, card) DO NOTHING
                    """
            await unit.execute(query, (game_id, seq, seat, kind, card))

    async def hints_of(self, game_id: int, seat: int) -> dict[int, frozenset[Action]]:
        """The moves hints advised ``seat`` in the game, by the seq they were for."""
        async with self._db.read() as unit:
            query = """SELECT seq, kind, card FROM hints_shown
                       WHERE game_id = ? AND seat = ?
                       ORDER BY seq
                    """
            rows = await unit.fetch(query, (game_id, seat))
        advised: dict[int, set[Action]] = {}
        for seq, kind, card in rows:
            advised.setdefault(seq, set()).add(_move(kind, card))
        return {seq: frozenset(moves) for seq, moves in advised.items()}
