"""The end of a running game the service closes for a reason, rated as the loss of who went.

A game every person left (:data:`~data.records.ABANDONED`) or none came back to from being
away in time (:data:`~data.records.AWAY`), one nobody moved in for long
(:data:`~data.records.IDLE_GAME`, the person whose turn it was noted as having let it
stall) and one cancelled (:data:`~data.records.CANCELLED`) once a person other than the
canceller made a move of their own, or by the only person still playing it after a move
of theirs (a canceller who plays it noted as their leaving; see
:meth:`~.ratings.Rater.cancel_rating`), are rated as a finished game is, if someone
other than those who went is left to rank ahead of them (the rater decides; a rating
that fails is logged, and the next start makes it, in order).  What says so is stored
in the write that closes the game, so a recomputation agrees.
"""

from __future__ import annotations

from bot.service.play.notices import Notices
from bot.service.play.table import Status, Table
from bot.service.ratings.rater import Rater
from bot.service.saver import Saver
from data.records import ABANDONED, AWAY, CANCELLED, IDLE_GAME


class Closer:
    """Closes a game for a reason (its clocks, a cancel) and rates it if that is its
    leavers' loss."""

    def __init__(self, saver: Saver, notices: Notices, rater: Rater) -> None:
        self._saver = saver
        self._notices = notices
        self._rater = rater

    async def close(
        self, table: Table, status: Status, reason: str, *, by: int | None = None
    ) -> None:
        """Close ``table`` as ``status`` for ``reason`` (``by``: who cancelled it), and
        rate it if it is rated so.  The caller holds the table's lock; a store that can't
        read the game to say so, or fails the close, raises :class:`ServiceError` and
        leaves the table open (a clock tries again)."""
        rated, gone = False, None
        failed = f"game {table.game_id}: could not read it to end it"
        if reason in (ABANDONED, AWAY):
            rated = await self._saver.save(self._rater.rates_abandoned(table), failed)
        elif reason == IDLE_GAME:
            gone = await self._saver.save(self._rater.stall_note(table), failed)
        elif reason == CANCELLED and by is not None:
            rated, gone = await self._saver.save(self._rater.cancel_rating(table, by), failed)
        await self._notices.close_table(table, status, reason, rated=rated, gone=gone)
        if rated or gone is not None:
            await self._rater.rate_table(table)
