"""The table message: the top card, a section per seat, the last moves, the scoring and its buttons.

Drawn from the public view only; a seat's card count stands beside it as a
button that can't be pressed.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

import discord
from discord import ui

from bot.i18n import text
from bot.service.play.table import MoveLine, Status, Table
from game import Card, PublicView, RoundResult

from ..custom_ids import HintButtonId, LobbyButtonId, ReplayId, SeatId, TableButtonId
from ..faces import Faces, card_row, chip_icons
from ..items import LamaButton
from ..words import card_name, seat_name, signed, variant_badges
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

SHOWN_MOVES = 6  # lines of recent moves the table lists at least (when it has them)
MAX_MOVE_ROWS = 12  # rows at most: older AI moves beyond them are summed up in one row


def _seat_line(table: Table, faces: Faces, index: int, view: PublicView) -> str:
    loc = table.locale
    seat = table.seats[index]
    points = view.points[index]
    # The No Drama card's face beside its holder's name (the footer names the variant).
    holds = f" {faces.no_drama_card()}" if view.no_drama_holder == index else ""
    line = f"**{seat_name(loc, seat)}**{holds} · " + text(loc, "table.points", count=points)
    line += chip_icons(faces, table.ruleset, points)
    status = []
    if view.to_move == index and table.turn_deadline is not None:
        when = f"<t:{int(table.turn_deadline)}:R>"
        status.append(text(loc, "status.to_move_until", when=when))
    elif view.to_move == index:
        status.append(text(loc, "status.to_move"))
    elif not view.in_round[index]:
        status.append(text(loc, "status.out"))
    if seat.away:
        # While the game waits for its people, all away, no AI plays for them.
        status.append(text(loc, "status.away_waited" if table.waits_until else "status.away"))
    elif seat.user_id is not None and seat.ai is not None:
        status.append(text(loc, "status.kicked"))
    marker = "▶️" if view.to_move == index else "▫️"
    line = f"{marker} {line}"
    if status:
        line += " — " + ", ".join(status)
    return line


def _seat_badge(table: Table, faces: Faces, index: int, view: PublicView) -> LamaButton:
    """A seat's card count, beside it as a button that can't be pressed: green for
    the player to move, red for one out of the round. (A section needs a button or
    a picture beside its text, and a picture would make six seats as tall as six
    cards.) A forged click on it shows the clicker their own hand."""
    if view.to_move == index:
        style = discord.ButtonStyle.success
    elif not view.in_round[index]:
        style = discord.ButtonStyle.danger
    else:
        style = discord.ButtonStyle.secondary
    return button(
        SeatId(table.game_id, index),
        text(table.locale, "table.cards", count=view.hand_sizes[index]),
        style,
        disabled=True,
        emoji=faces.back_button(),
    )


def _seat_sections(table: Table, faces: Faces, view: PublicView) -> list[ui.Item[Any]]:
    """A section per seat: who, points and chips, status; the card count beside it."""
    return [
        ui.Section(
            ui.TextDisplay(_seat_line(table, faces, i, view)),
            accessory=_seat_badge(table, faces, i, view),
        )
        for i in range(len(table.seats))
    ]


def move_line(table: Table, faces: Faces, line: MoveLine) -> str:
    loc = table.locale
    name = seat_name(loc, table.seats[line.seat]) if 0 <= line.seat < len(table.seats) else "?"
    card = ""
    if line.card is not None:
        c = Card(line.card)
        card = f"{faces.card(c)} {card_name(loc, c, table.ruleset)}"
    if line.count is not None:  # a takeover's turns missed
        return text(loc, f"log.{line.kind}", name=name, card=card, count=line.count)
    return text(loc, f"log.{line.kind}", name=name, card=card)


def moves_text(
    table: Table,
    faces: Faces,
    lines: Sequence[MoveLine],
    limit: int = MAX_MOVE_ROWS,
    unlisted: int = 0,
) -> str:
    """The lines, a row each, in at most ``limit`` rows: beyond them the older moves
    are summed up ("… 3 more moves"), the newest and then a human seat's before an AI
    seat's kept; the ``unlisted`` moves before the lines are counted in the first such
    row."""

    def rows(kept: set[int]) -> int:
        # A row per line kept, and one per run of lines summed up; the unlisted
        # moves begin the first run.
        def starts_run(i: int) -> bool:
            return i not in kept and (i - 1 in kept if i else not unlisted)

        runs = sum(1 for i in range(len(lines)) if starts_run(i)) + (1 if unlisted else 0)
        return len(kept) + runs

    # The newest line first: only older lines are summed up (a run of them after the
    # last line kept would be neither listed nor counted), then a human seat's.
    newest = len(lines) - 1
    keep: set[int] = set()
    order = sorted(
        range(len(lines)), key=lambda i: (i != newest, not _human_line(table, lines[i]), -i)
    )
    for i in order:
        if rows(keep | {i}) <= limit:
            keep.add(i)
    shown: list[str] = []
    dropped = unlisted
    for i, line in enumerate(lines):
        if i not in keep:
            dropped += 1
            continue
        if dropped:
            shown.append(text(table.locale, "table.more_moves", count=dropped))
            dropped = 0
        shown.append(move_line(table, faces, line))
    return "\n".join(shown)


def _human_line(table: Table, line: MoveLine) -> bool:
    return 0 <= line.seat < len(table.seats) and table.seats[line.seat].human


def _top_line(locale: str, faces: Faces, top: Card, name: str, *, pile: int) -> str:
    """The top card and the draw pile; the card as a big heading of its own when
    there is no picture of it beside."""
    pile_text = text(locale, "table.pile", count=pile)
    if faces.image(top) is None:
        return text(locale, "table.top", emoji=faces.card(top), card=name) + "\n" + pile_text
    return text(locale, "card.top", emoji=faces.card(top), card=name) + " · " + pile_text


def standings(table: Table, faces: Faces, view: PublicView, locale: str | None = None) -> str:
    """The final standings, in ``locale`` (a player's own hand), else the table's language."""
    loc = locale or table.locale
    order = sorted(range(len(table.seats)), key=lambda s: view.points[s])
    rows = [f"**{text(loc, 'table.standings')}**"]
    for s in order:
        # Equal points share a place, as the winners line, /lama history and the export
        # have it: 1 + the seats with fewer points.
        place = 1 + sum(1 for p in view.points if p < view.points[s])
        points = text(loc, "table.points", count=view.points[s])
        chips = chip_icons(faces, table.ruleset, view.points[s])
        rows.append(f"{place}. {seat_name(loc, table.seats[s])} — {points}{chips}")
        change, after = table.rating_changes.get(s), table.ratings_after.get(s)
        if change is not None and after is not None and table.seats[s].human:
            # The rating this game left, and what it gave or took, once rated: people only.
            # The change alone ("rating −132") read as the rating.
            shown = text(loc, "table.rating_after", rating=f"**{after}**", change=signed(change))
            rows[-1] += " · " + shown
    return "\n".join(rows)


def winners(locale: str, table: Table, view: PublicView) -> str:
    names = ", ".join(f"**{seat_name(locale, table.seats[w])}**" for w in view.winners)
    return text(locale, "table.winners", count=len(view.winners), names=names)


def waiting_text(table: Table) -> str:
    """What a game whose people are all away says: it waits for them, and until when."""
    until = int(table.waits_until or 0)
    names = ", ".join(f"**{seat_name(table.locale, s)}**" for s in table.seats if s.away)
    return text(
        table.locale, "table.away_wait", names=names, time=f"<t:{until}:t>", when=f"<t:{until}:R>"
    )


def is_over(table: Table, view: PublicView) -> bool:
    return table.status is Status.FINISHED or view.game_over


def table_view(
    table: Table, faces: Faces, moves: Sequence[MoveLine] | None = None, *, unlisted: int = 0
) -> Layout:
    """The table: the top card big, a section per seat, ``moves`` (by default the
    last ``SHOWN_MOVES``) after the ``unlisted`` older moves counted, the last
    round's scoring and the table's buttons. Drawn from the public view only."""
    match = table.match
    assert match is not None
    view = match.public_view()
    lines = list(table.recent)[-SHOWN_MOVES:] if moves is None else list(moves)
    listing = (lines, unlisted)
    shown = _table_layout(table, faces, view, listing, MAX_MOVE_ROWS, plain_scores=False)
    # Too long for Discord: long hands in the scoring as short labels instead of
    # emojis, then fewer rows of moves (a human seat's moves are kept).
    for limit, plain in ((MAX_MOVE_ROWS, True), (SHOWN_MOVES, True)):
        if text_length(shown) <= MAX_TEXT:
            break
        shown = _table_layout(table, faces, view, listing, limit, plain_scores=plain)
    return fit(shown)


def _table_layout(
    table: Table,
    faces: Faces,
    view: PublicView,
    listing: tuple[Sequence[MoveLine], int],
    limit: int,
    *,
    plain_scores: bool,
) -> Layout:
    loc = table.locale
    over = is_over(table, view)
    # The variants in small print under the title (beside the top card's picture,
    # where a line costs no height).
    badges = "-# " + table_badges(table)
    items: list[ui.Item[Any] | None] = []
    if over:
        colour = COLOR_OVER
        head = [heading(text(loc, "table.over_title")), winners(loc, table, view), badges]
        items += [
            ui.TextDisplay("\n".join(head)),
            ui.Separator(),
            ui.TextDisplay(standings(table, faces, view)),
        ]
    elif view.top is None:
        colour = COLOR_ROUND_OVER
        head = [heading(text(loc, "table.title", round=view.round_no)), badges]
        items.append(ui.TextDisplay("\n".join(head)))
    else:
        colour = COLOR_TABLE
        top = view.top
        name = card_name(loc, top, table.ruleset)
        head = [
            heading(text(loc, "table.title", round=view.round_no)),
            badges,
            _top_line(loc, faces, top, name, pile=view.draw_pile),
        ]
        items.append(block("\n".join(head), picture(faces.image(top), name)))
        items += [ui.Separator(), *_seat_sections(table, faces, view)]
    if not over and table.waits_until is not None:
        items.append(ui.TextDisplay(waiting_text(table)))
    moves, unlisted = listing
    if moves:
        recent = moves_text(table, faces, moves, limit, unlisted)
        # No separator above it in a round: the seats' badges end their block.
        items += [
            None if view.live else ui.Separator(),
            ui.TextDisplay(f"**{text(loc, 'table.recent')}**\n{recent}"),
        ]
    if view.results:
        items += [
            ui.Separator(),
            ui.TextDisplay(result_text(table, faces, view.results[-1], plain=plain_scores)),
        ]
    items.append(_table_buttons(table))
    return layout(colour, items)


def _table_buttons(table: Table) -> ui.ActionRow[Any]:
    loc = table.locale
    gid = table.game_id
    rules = button(
        TableButtonId("rules", gid),
        text(loc, "button.rules"),
        discord.ButtonStyle.secondary,
    )
    if table.status is Status.FINISHED:
        rematch = button(
            LobbyButtonId("rematch", gid),
            text(loc, "button.rematch"),
            discord.ButtonStyle.success,
        )
        return row(rematch, review_button(table, loc), replay_button(gid, loc), rules)
    buttons: list[ui.Item[Any]] = [
        button(
            TableButtonId("hand", gid),
            text(loc, "button.show_hand"),
            discord.ButtonStyle.primary,
        ),
        rules,
    ]
    if any(s.away for s in table.seats):
        buttons.append(
            button(
                TableButtonId("back", gid),
                text(loc, "button.back"),
                discord.ButtonStyle.success,
            )
        )
    return row(*buttons)


def table_badges(table: Table) -> str:
    """The table's footer: the variants in use, and whether hints are allowed."""
    badges = variant_badges(table.locale, table.ruleset)
    return f"{badges} · {text(table.locale, 'table.hints_badge')}" if table.hints else badges


def review_button(table: Table, locale: str) -> LamaButton:
    """A finished game's "Your three costliest decisions", for each player to ask."""
    return button(
        HintButtonId("review", table.game_id),
        text(locale, "button.review"),
        discord.ButtonStyle.secondary,
        emoji="🔍",
    )


def replay_button(game_id: int, locale: str) -> LamaButton:
    """A finished game's 🎬 Replay: the game move by move, for whoever clicks to see."""
    return button(
        ReplayId(game_id, 0, "open"),
        text(locale, "replay.open"),
        discord.ButtonStyle.secondary,
        emoji="🎬",
    )


def result_text(
    table: Table,
    faces: Faces,
    result: RoundResult,
    *,
    plain: bool = False,
    locale: str | None = None,
) -> str:
    """A round's scoring: each hand as its cards, what it cost, and the totals, in
    ``locale`` (a player's own hand), else the table's language."""
    loc = locale or table.locale
    lines = [f"**{text(loc, 'result.title', round=result.round_no)}**"]
    for seat_row in result.seats:
        name = seat_name(loc, table.seats[seat_row.seat])
        named = partial(card_name, loc, ruleset=table.ruleset) if plain else None
        hand = card_row(faces, seat_row.hand, named) or "—"
        if seat_row.emptied:
            what = text(loc, "result.emptied")
        else:
            penalty = seat_row.penalty
            parts = [str(v) for v in penalty.values]
            if penalty.llama_points:
                parts.append(text(loc, "result.llamas", points=penalty.llama_points))
            if penalty.pink_llama_points:
                parts.append(text(loc, "result.pink", points=penalty.pink_llama_points))
            what = " + ".join(parts) or "0"
            what = f"{what} = **{penalty.total}**"
        line = f"**{name}**: {hand} → {what}"
        if seat_row.discarded is not None:
            line += " " + text(
                loc, "result.discarded", card=card_name(loc, seat_row.discarded, table.ruleset)
            )
        if seat_row.returned:
            line += " " + text(loc, "result.returned", count=seat_row.returned)
        line += " " + text(loc, "result.total", count=seat_row.total)
        lines.append(line)
    return "\n".join(lines)
