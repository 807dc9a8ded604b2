"""Which moves a table message lists: every one since it last listed, at least the last few.

No move misses its moment on the table, even in a stretch of AI moves that one edit shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.service.play.table import MoveLine, MoveLog

from .views.table import SHOWN_MOVES


def _index(lines: Sequence[MoveLine], line: MoveLine | None) -> int | None:
    # By identity: two moves alike (two draws of one seat) are two lines.
    return next((i for i, each in enumerate(lines) if each is line), None)


@dataclass(frozen=True, slots=True)
class Listing:
    """The moves a table lists, and how many before them it never listed."""

    lines: list[MoveLine]
    unlisted: int  # lines older than ``lines`` the table never listed (they fell off)
    end: int  # the game's count of lines when listed: the table has listed up to here


def moves_to_list(recent: MoveLog, listed: Listing | None) -> Listing:
    """The moves the table lists next: every line since the newest it ``listed``,
    at least the last ``SHOWN_MOVES``; while no line came since, the same as now,
    so that nothing is edited for nothing.  With no lines listed by this run (the
    bot restarted, say), every line there is: the lines the table showed before
    are not known, and a stop in the middle of a stretch of AI moves must not lose
    its first ones.  The lines since it listed (as far as known: after a restart,
    as stored) that fell off before it could list them are counted."""
    lines = list(recent)
    last_few = max(0, len(lines) - SHOWN_MOVES)
    if listed is None or not listed.lines:
        unlisted = 0 if listed is None else max(0, recent.start - listed.end)
        return Listing(lines, unlisted, recent.total)
    seen = _index(lines, listed.lines[-1])
    if seen == len(lines) - 1:
        kept = _index(lines, listed.lines[0])
        if kept is None:
            return Listing(lines[last_few:], 0, recent.total)
        return Listing(lines[kept:], listed.unlisted, recent.total)  # the same as now
    # Even the newest line it lists may be gone: then all there are.
    chosen = lines if seen is None else lines[min(seen + 1, last_few) :]
    unlisted = max(0, recent.total - len(chosen) - listed.end)
    return Listing(chosen, unlisted, recent.total)
