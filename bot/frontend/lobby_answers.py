"""What a lobby's Start and Cancel tell who clicked: whom Start left out, what a cancel cost.

A Rematch's Start leaves out those it asked who didn't confirm; a cancel is rated as it
stood once others moved (the canceller who played it last)."""

from __future__ import annotations

from bot.i18n import text
from bot.service.play.table import Status, Table, unconfirmed

from .words import leaving_cost


def left_out(table: Table) -> list[int]:
    """The people a Rematch asked who haven't confirmed: Start leaves them out."""
    return [s.user_id for s in table.seats if s.user_id is not None and unconfirmed(s)]


def started_without(locale: str, table: Table, asked: list[int]) -> str:
    """What the host is told of those ``asked`` (:func:`left_out` before the Start) whom
    the Start left out ("" if none, or if it didn't start)."""
    gone = [f"<@{user}>" for user in asked if table.seat_of(user) is None]
    if not gone or table.status is Status.LOBBY:
        return ""
    return text(locale, "done.start_without", names=", ".join(gone))


def cancel_cost(locale: str, table: Table, user_id: int) -> str:
    """What the cancel took from the canceller's rating, after the answer; for one who
    doesn't play it, that it is rated as it stood, if it is ("" if it is not rated)."""
    took = leaving_cost(locale, table, user_id, "done.cancel_rating")
    if took or not table.rated_end:
        return took
    return " " + text(locale, "done.cancel_rated")
