"""A player's private hand: the top card, their cards, the move buttons; how it ended once over."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import ui

from bot.i18n import text
from bot.service.play.table import Status, Table
from game import (
    DRAW,
    QUIT,
    Card,
    ChipBack,
    Play,
    PublicView,
    Ruleset,
    best_discard,
    penalty_points,
)

from ..custom_ids import HintButtonId, MoveId, TableButtonId
from ..faces import Faces, card_row
from ..words import card_name, seat_name
from .layout import (
    COLOR_OVER,
    COLOR_ROUND_OVER,
    COLOR_WAITING,
    COLOR_YOUR_TURN,
    Layout,
    block,
    button,
    fit,
    heading,
    layout,
    picture,
    row,
)
from .table import is_over, result_text, review_button, standings, winners

#: Why Draw is refused (the engine's reason) -> what the hand and its button say.
_NO_DRAW = {
    "last_player_cannot_draw": "hand.no_draw_last",
    "draw_pile_empty": "hand.no_draw_empty",
}
_DRAW_BUTTON = {
    "last_player_cannot_draw": "button.draw_last",
    "draw_pile_empty": "button.draw_empty",
}


def hand_view(
    table: Table,
    seat: int,
    locale: str,
    faces: Faces,
    note: str | None = None,
    warning: str | None = None,
) -> Layout:
    """A player's private hand; ``note`` answers their last click, ``warning`` is about
    the bot itself (e.g. it can no longer update the table). Once the game is over
    it shows the result instead of moves."""
    match = table.match
    assert match is not None
    own = match.view(seat)
    public = match.public_view()
    gid = table.game_id
    player = table.seats[seat]
    head = [heading(text(locale, "hand.title"))]
    if warning:
        head.append(f"🚫 {warning}")
    if note:
        head.append(f"⚠️ {note}")
    items: list[ui.Item[Any] | None] = [ui.TextDisplay("\n".join(head))]
    if is_over(table, public) or not table.live:
        return fit(layout(COLOR_OVER, [*items, *_hand_result(table, faces, locale, public)]))
    back = (
        button(
            TableButtonId("back", gid),
            text(locale, "button.back"),
            discord.ButtonStyle.success,
        )
        if player.away
        else None
    )
    refresh = button(
        TableButtonId("hand", gid),
        text(locale, "button.refresh"),
        discord.ButtonStyle.secondary,
    )
    top = own.top
    if top is None:
        items.append(ui.TextDisplay(text(locale, "hand.between_rounds")))
        items.append(row(*(b for b in (back, refresh) if b is not None)))
        return fit(layout(COLOR_ROUND_OVER, items))
    mine = own.to_move == seat and player.controller is None and table.status is Status.RUNNING
    name = card_name(locale, top, table.ruleset)
    cards = text(locale, "hand.cards", count=len(own.hand))
    # The title, the top card and the hand's faces beside the top card's picture.
    head += [
        text(locale, "card.top", emoji=faces.card(top), card=name),
        cards,
        f"# {card_row(faces, own.hand) or '—'}",
    ]
    items = [block("\n".join(head), picture(faces.image(top), name))]
    status = []
    if player.away:
        status.append(text(locale, "hand.away"))
    elif player.ai is not None:  # kicked, or left the game
        status.append(text(locale, "hand.ai_seat"))
    if mine:
        status.append(text(locale, "hand.your_turn"))
    elif not own.in_round[seat]:
        status.append(text(locale, "hand.you_quit"))
    elif own.to_move is not None:
        status.append(
            text(locale, "hand.waiting", name=seat_name(locale, table.seats[own.to_move]))
        )
    if status:
        items.append(ui.TextDisplay("\n".join(status)))
    if own.in_round[seat]:
        items += _move_controls(table, faces, seat, locale, mine, public)
    hint = (
        button(
            HintButtonId("hint", gid),
            text(locale, "button.hint"),
            discord.ButtonStyle.success,
            emoji="💡",
        )
        if mine and table.hints
        else None
    )
    items.append(row(*(b for b in (back, hint, refresh) if b is not None)))
    return fit(layout(COLOR_YOUR_TURN if mine else COLOR_WAITING, items))


def _move_controls(
    table: Table, faces: Faces, seat: int, locale: str, mine: bool, public: PublicView
) -> list[ui.Item[Any] | None]:
    """The play buttons, Draw beside the pile and Quit beside what quitting costs."""
    match = table.match
    assert match is not None
    own = match.view(seat)
    gid, stamp = table.game_id, table.stamp
    playable = [a.card for a in own.legal if isinstance(a, Play)] if mine else []
    plays = [
        button(
            MoveId("play", gid, stamp, card),
            text(locale, "button.play", card=card_name(locale, card, table.ruleset)),
            discord.ButtonStyle.primary,
            emoji=faces.button(card),
        )
        for card in playable
    ]
    refused = public.draw_refused if mine else None
    pile = [text(locale, "table.pile", count=public.draw_pile)]
    if refused is not None:
        pile.append(text(locale, _NO_DRAW[refused]))
    draw_label = text(locale, _DRAW_BUTTON[refused]) if refused else text(locale, "button.draw")
    draw = button(
        MoveId("draw", gid, stamp),
        draw_label,
        discord.ButtonStyle.secondary,
        disabled=not (mine and DRAW in own.legal),
        emoji=faces.back_button(),
    )
    quit_ = button(
        MoveId("quit", gid, stamp),
        text(locale, "button.quit"),
        discord.ButtonStyle.danger,
        disabled=not (mine and QUIT in own.legal),
    )
    cost = _quit_cost(own.hand, table.ruleset, locale)
    return [
        *(row(*plays[i : i + 5]) for i in range(0, len(plays), 5)),
        block("\n".join(pile), draw),
        block(cost, quit_),
    ]


#: What the No Drama holder left with no card gives back, by the chip-back rule.
_NOTHING_LEFT = {
    ChipBack.LARGEST: "hand.quit_no_drama_chip",
    ChipBack.WHITE: "hand.quit_no_drama_white",
    ChipBack.NONE: "hand.quit_no_drama_none",
}


def _quit_cost(hand: Sequence[Card], ruleset: Ruleset, locale: str) -> str:
    """What quitting now costs; with No Drama also what it costs if the No Drama card,
    which the player quitting takes, is still theirs when the round ends: their costliest
    card discarded, and with nothing left the chip an emptied hand gives back (RULES.md)."""
    points = penalty_points(hand, ruleset)
    cost = text(locale, "hand.quit_cost", count=points)
    discard = best_discard(hand, ruleset) if ruleset.no_drama_card else None
    if discard is None:
        return cost
    if len(hand) == 1:  # left with nothing, they give back what an emptied hand does
        return f"{cost}\n{text(locale, _NOTHING_LEFT[ruleset.chip_back])}"
    kept = list(hand)
    kept.remove(discard)
    less = penalty_points(kept, ruleset)
    if less == points:  # the discard saves nothing (a number held twice, say)
        return cost
    return f"{cost}\n{text(locale, 'hand.quit_no_drama', count=less)}"


def _hand_result(
    table: Table, faces: Faces, locale: str, public: PublicView
) -> list[ui.Item[Any] | None]:
    """What an open hand shows once the game is over or closed: how it ended."""
    if not public.game_over:
        return [ui.TextDisplay(text(locale, "closed.title"))]
    items: list[ui.Item[Any] | None] = [
        ui.TextDisplay(
            f"**{text(locale, 'table.over_title')}**\n" + winners(locale, table, public)
        ),
        ui.TextDisplay(standings(table, faces, public, locale)),
    ]
    if public.results:
        last = result_text(table, faces, public.results[-1], plain=True, locale=locale)
        items.append(ui.TextDisplay(last))
    items.append(row(review_button(table, locale)))
    return items


def seat_taken_view(table: Table, seat: int, locale: str) -> Layout:
    """What a player whose seat an AI plays sees instead of their hand: no cards."""
    away = table.seats[seat].ai is None  # else kicked, or left: for the rest of the game
    why = text(locale, "hand.away" if away else "hand.ai_seat")
    container: ui.Container[Any] = ui.Container(
        ui.TextDisplay(f"## {text(locale, 'hand.title')}\n{why}"),
        accent_colour=discord.Colour.dark_grey(),
    )
    if away:
        back = button(
            TableButtonId("back", table.game_id),
            text(locale, "button.back"),
            discord.ButtonStyle.success,
        )
        container.add_item(ui.ActionRow(back))
    view = ui.LayoutView(timeout=None)
    view.add_item(container)
    return view
