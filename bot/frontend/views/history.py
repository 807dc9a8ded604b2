"""/lama history as a Components V2 layout: a person's latest finished games, a Replay each."""

from __future__ import annotations

from typing import Any

from discord import ui

from bot.i18n import text
from data.records import HistoryRow
from game import Card

from ..faces import Faces
from ..words import plain_name, stored_name
from .layout import COLOR_STATS, Layout, block, fit, heading, layout, picture
from .table import replay_button

HISTORY_SIZE = 10  # games listed by /lama history (a section each: 3 components)


def history_line(locale: str, row: HistoryRow) -> str:
    """One finished game as its player saw it: when, how many, their points and place,
    who won; a 🏆 first if they did."""
    winners = ", ".join(plain_name(stored_name(locale, n)) for n in row.winners) or "—"
    line = text(
        locale,
        "history.line",
        time=int(row.finished_at),
        game=row.game_id,
        players=text(locale, "history.players", count=row.players),
        points=text(locale, "history.points", count=row.points),
        place=row.place,
        winners=winners,
    )
    return ("🏆 " if row.winner else "") + line


def history_view(locale: str, faces: Faces, name: str, rows: list[HistoryRow]) -> Layout:
    """The games newest first, each with its Replay button beside it; the llama card
    beside the title, as the other stats have it."""
    title = heading(text(locale, "history.title", name=plain_name(name)))
    items: list[ui.Item[Any] | None] = [
        block(title, picture(faces.image(Card.LLAMA), text(locale, "card.llama")))
    ]
    items += [
        ui.Section(
            ui.TextDisplay(history_line(locale, row)),
            accessory=replay_button(row.game_id, locale),
        )
        for row in rows[:HISTORY_SIZE]
    ]
    items.append(ui.TextDisplay("-# " + text(locale, "history.footer")))
    return fit(layout(COLOR_STATS, items))
