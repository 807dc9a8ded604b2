"""A replay step: the table as it was after one move, every hand open, in the table's look.

Drawn from a :class:`~bot.service.history.replay.Replay` alone, in the asker's language; its
buttons carry the game and the step they show (:class:`~bot.frontend.custom_ids.ReplayId`),
so a replay pages on after a restart.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import discord
from discord import ui

from bot.i18n import text
from bot.service.history.replay import Replay, ReplayStep
from bot.service.play.table import Status, Table
from game import Card

from ..custom_ids import ReplayAction, ReplayId
from ..faces import PLAIN, Faces, card_row, chip_icons
from ..words import card_name, seat_name, variant_badges
from .layout import (
    COLOR_OVER,
    COLOR_ROUND_OVER,
    COLOR_TABLE,
    MAX_TEXT,
    Layout,
    block,
    button,
    fit,
    heading,
    layout,
    picture,
    row,
    text_length,
)
from .table import move_line, result_text, standings, winners

SHOWN_LINES = 6  # lines of the round's moves up to the step, the step's own last


def replay_view(replay: Replay, number: int, locale: str, faces: Faces) -> Layout:
    """Step ``number`` (0-based, within the replay) of ``replay`` for a ``locale`` reader."""
    table = _as_table(replay, locale)
    step = replay.steps[number]
    shown = _layout(replay, step, table, faces, faces, plain=False)
    # Too long for Discord: long hands named, not emojis; then the chips as standard
    # emojis too (six seats' chips are drawn twice at the last step: seats and standings).
    for chips in (faces, PLAIN):
        if text_length(shown) <= MAX_TEXT:
            break
        shown = _layout(replay, step, table, faces, chips, plain=True)
    return fit(shown)


def _as_table(replay: Replay, locale: str) -> Table:
    """The finished table the replay is of, for the table's own helpers, in ``locale``."""
    return Table(
        game_id=replay.game_id,
        guild_id=replay.guild_id,
        channel_id=replay.channel_id,
        host_id=0,
        ruleset=replay.ruleset,
        turn_timer=0,
        locale=locale,
        seats=list(replay.seats),
        status=Status.FINISHED,
    )


def _layout(
    replay: Replay, step: ReplayStep, table: Table, faces: Faces, chips: Faces, *, plain: bool
) -> Layout:
    """The step drawn with ``faces``, its seats' chips with ``chips``; ``plain``: hands named."""
    loc = table.locale
    over = step.number == replay.last
    top = card_name(loc, step.top, replay.ruleset)
    head = [
        heading(text(loc, "replay.title", game=replay.game_id)),
        "-# " + variant_badges(loc, replay.ruleset),
        text(
            loc,
            "replay.step",
            step=step.number + 1,
            steps=replay.last + 1,
            round=step.round_no,
        ),
        text(loc, "card.top", emoji=faces.card(step.top), card=top)
        + " · "
        + text(loc, "table.pile", count=step.draw_pile),
    ]
    # The round so far, the step's own move last and marked: what was done, and by whom.
    *before, made = replay.round_lines(step.number)[-SHOWN_LINES:]
    shown = "\n".join([*(move_line(table, faces, line) for line in before), ""])
    shown += f"▶️ **{move_line(table, faces, made)}**"
    items: list[ui.Item[Any] | None] = [
        block("\n".join(head), picture(faces.image(step.top), top)),
        ui.Separator(),
        ui.TextDisplay(_seats(table, faces, chips, step, plain=plain)),
        ui.Separator(),
        ui.TextDisplay(f"**{text(loc, 'table.recent')}**\n{shown}"),
    ]
    if step.result is not None:
        items += [
            ui.Separator(),
            ui.TextDisplay(result_text(table, faces, step.result, plain=plain)),
        ]
    if over:
        final = replay.final
        ending = f"**{text(loc, 'table.over_title')}**\n{winners(loc, table, final)}"
        items += [ui.Separator(), ui.TextDisplay(f"{ending}\n{standings(table, chips, final)}")]
    items.append(_buttons(replay, step.number, loc))
    colour = COLOR_OVER if over else COLOR_ROUND_OVER if step.result is not None else COLOR_TABLE
    return layout(colour, items)


def _seats(table: Table, faces: Faces, chips: Faces, step: ReplayStep, *, plain: bool) -> str:
    """A line per seat (who, points and chips, to move or out) and its open hand under it."""
    loc = table.locale
    named = partial(card_name, loc, ruleset=table.ruleset) if plain else None
    shown = []
    for seat, hand in enumerate(step.hands):
        marker = "▶️" if step.to_move == seat else "▫️"
        holds = f" {faces.no_drama_card()}" if step.no_drama_holder == seat else ""
        points = text(loc, "table.points", count=step.points[seat])
        line = f"{marker} **{seat_name(loc, table.seats[seat])}**{holds} · {points}"
        line += chip_icons(chips, table.ruleset, step.points[seat])
        if step.to_move == seat:
            line += " — " + text(loc, "status.to_move")
        elif not step.in_round[seat]:
            line += " — " + text(loc, "status.out")
        shown.append(f"{line}\n└ {_hand(faces, hand, named)}")
    return "\n".join(shown)


def _hand(faces: Faces, hand: tuple[Card, ...], named: Callable[[Card], str] | None) -> str:
    return card_row(faces, hand, named) or "—"


#: The buttons under a replay, in order: which, its emoji, and the step it goes to.
_BUTTONS: tuple[tuple[ReplayAction, str], ...] = (
    ("first", "⏮️"),
    ("back", "◀️"),
    ("next", "▶️"),
    ("last", "⏭️"),
    ("round", "⏩"),
)


def _buttons(replay: Replay, number: int, locale: str) -> ui.ActionRow[Any]:
    """First, Back, Next, Last and Next round, each disabled where it would not move."""
    following = replay.next_round(number)
    targets: dict[ReplayAction, int | None] = {
        "first": 0,
        "back": number - 1,
        "next": number + 1,
        "last": replay.last,
        "round": following,
    }
    buttons = []
    for action, emoji in _BUTTONS:
        target = targets[action]
        usable = target is not None and 0 <= target <= replay.last and target != number
        buttons.append(
            button(
                ReplayId(
                    replay.game_id, target if usable and target is not None else number, action
                ),
                text(locale, f"replay.{action}"),
                discord.ButtonStyle.primary if action == "next" else discord.ButtonStyle.secondary,
                disabled=not usable,
                emoji=emoji,
            )
        )
    return row(*buttons)
