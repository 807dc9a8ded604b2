"""Engine and table state turned into Components V2 layouts. No rules, no I/O.

Every message is one :class:`discord.ui.LayoutView`: a container whose accent
colour says the state, text displays, sections with the top card's picture or
the button they belong to (on the table, a section per seat with its card
count beside it), and rows of buttons. Discord allows 40 components
and 4,000 characters of text per message; :func:`_fit` keeps every layout
within them (a six-player table with every variant and long names included).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any

import discord
from discord import ui

from bot.i18n import text
from bot.service.table import MoveLine, Seat, Status, Table
from game import (
    DRAW,
    QUIT,
    WHITE,
    Card,
    Chips,
    Play,
    PublicView,
    RoundResult,
    Ruleset,
    build_deck,
    penalty_points,
)

from .components import AddAISelect, LamaButton, hand_id, move_id, seat_id, table_id
from .faces import Faces

COLOR_LOBBY = discord.Colour.blurple()
COLOR_TABLE = discord.Colour.gold()  # a round is being played: everyone waits for someone
COLOR_ROUND_OVER = discord.Colour.dark_gold()
COLOR_OVER = discord.Colour.green()
COLOR_CLOSED = discord.Colour.dark_grey()
COLOR_YOUR_TURN = discord.Colour.brand_green()
COLOR_WAITING = discord.Colour.teal()

#: Discord's limits for one message with Components V2.
MAX_COMPONENTS = 40
MAX_TEXT = 4000

Layout = ui.LayoutView


def card_name(locale: str, card: Card, ruleset: Ruleset) -> str:
    """A card's name as the edition in play calls it (Lato z Komarami's llamas are
    mosquitoes, "komary", in Polish)."""
    if card is Card.LLAMA:
        return text(locale, "card.llama_komarami" if ruleset.komarami else "card.llama")
    if card is Card.PINK_LLAMA:
        return text(locale, "card.pink_llama")
    return card.label


def seat_name(locale: str, seat: Seat) -> str:
    """A seat's name for markdown: a nickname can't bold, hide or link anything."""
    name = discord.utils.escape_markdown(seat.name)
    if seat.user_id is None and seat.ai is not None:
        return text(locale, "seat.ai", name=name, strength=text(locale, f"ai.{seat.ai.value}"))
    return name


def chip_icons(faces: Faces, ruleset: Ruleset, points: int) -> str:
    """The chips a seat holds, e.g. " (⚫1 ⚪4)"; empty with no chips."""
    chips = Chips.of(points, pink_chips=ruleset.party)
    held = [(chips.pink, 20), (chips.black, 10), (chips.white, WHITE)]
    shown = " ".join(f"{faces.chip(value)}{n}" for n, value in held if n)
    return f" ({shown})" if shown else ""


def card_row(
    faces: Faces, cards: Iterable[Card], named: Callable[[Card], str] | None = None
) -> str:
    """Cards as a row of faces, equal cards grouped: "1️⃣×2 4️⃣ 🦙×3"; with ``named``,
    as their names instead (shorter than custom emojis)."""
    counts = Counter(cards)
    order = sorted(counts, key=lambda c: (c.is_llama, c.number, c))
    face = faces.card if named is None else named
    return " ".join(face(c) + (f"×{counts[c]}" if counts[c] > 1 else "") for c in order)


def deck_row(faces: Faces, ruleset: Ruleset) -> str:
    """Every kind of card the game is played with, one face each."""
    kinds = card_row(faces, set(build_deck(party=ruleset.party, komarami=ruleset.komarami)))
    return f"{kinds} {faces.no_drama()}" if ruleset.no_drama else kinds


def variant_badges(locale: str, ruleset: Ruleset) -> str:
    badges = [text(locale, f"variant.{name}") for name in ruleset.variants]
    badges.append(text(locale, "variant.threshold", points=ruleset.threshold))
    return " · ".join(badges)


def timer_text(locale: str, seconds: int) -> str:
    return (
        text(locale, "timer.off") if seconds <= 0 else text(locale, "timer.seconds", count=seconds)
    )


# ---------------------------------------------------------------- building blocks
def _button(
    custom_id: str,
    label: str,
    style: discord.ButtonStyle,
    *,
    disabled: bool = False,
    emoji: discord.Emoji | str | None = None,
) -> LamaButton:
    return LamaButton.make(custom_id, label, style, disabled=disabled, emoji=emoji)


def _block(content: str, accessory: ui.Item[Any] | None = None) -> ui.Item[Any]:
    """Text, with its picture or button beside it when there is one."""
    shown: ui.TextDisplay[Any] = ui.TextDisplay(content)
    return shown if accessory is None else ui.Section(shown, accessory=accessory)


def _picture(url: str | None, description: str) -> ui.Thumbnail[Any] | None:
    return None if url is None else ui.Thumbnail(url, description=description[:1024])


def _row(*items: ui.Item[Any]) -> ui.ActionRow[Any]:
    return ui.ActionRow(*items)


def _layout(colour: discord.Colour, items: Sequence[ui.Item[Any] | None]) -> Layout:
    view = ui.LayoutView(timeout=None)
    container: ui.Container[Any] = ui.Container(accent_colour=colour)
    for item in items:
        if item is not None:
            container.add_item(item)
    view.add_item(container)
    return view


def text_length(view: Layout) -> int:
    return sum(len(i.content) for i in view.walk_children() if isinstance(i, ui.TextDisplay))


def component_count(view: Layout) -> int:
    # walk_children covers a section's text and its accessory: Discord counts them all.
    return sum(1 for _ in view.walk_children())


def _fit(view: Layout) -> Layout:
    """Cut the longest text a line at a time, from its end (so no emoji or
    markdown is cut in half), until the layout is within Discord's text limit;
    a single line too long by itself loses characters."""
    over = text_length(view) - MAX_TEXT
    while over > 0:
        longest = max(
            (i for i in view.walk_children() if isinstance(i, ui.TextDisplay)),
            key=lambda i: len(i.content),
        )
        body = longest.content.removesuffix("…")
        if "\n" in body:
            body = body.rsplit("\n", 1)[0]
        else:
            body = body[: max(1, len(body) - over - 1)]
        longest.content = body + "…"
        over = text_length(view) - MAX_TEXT
    assert component_count(view) <= MAX_COMPONENTS, "a layout with too many components"
    return view


def _heading(title: str) -> str:
    return f"## {title}"


# ---------------------------------------------------------------- lobby
def lobby_view(table: Table, faces: Faces) -> Layout:
    loc = table.locale
    rules = table.ruleset
    gid = table.game_id
    full = len(table.seats) >= rules.max_players
    lines = []
    for seat in table.seats:
        crown = " 👑" if seat.user_id == table.host_id else ""
        who = f"<@{seat.user_id}>" if seat.user_id is not None else seat_name(loc, seat)
        lines.append(f"• {who}{crown}")
    players = text(loc, "lobby.players", count=len(table.seats), max=rules.max_players)
    join = _button(
        table_id("join", gid), text(loc, "button.join"), discord.ButtonStyle.success, disabled=full
    )
    remove_ai = _button(
        table_id("dropai", gid),
        text(loc, "button.remove_ai"),
        discord.ButtonStyle.secondary,
        disabled=not any(s.ai is not None for s in table.seats),
    )
    settings = (
        f"**{text(loc, 'lobby.variants')}:** {variant_badges(loc, rules)}\n"
        f"**{text(loc, 'lobby.timer')}:** {timer_text(loc, table.turn_timer)}\n"
        f"**{text(loc, 'lobby.hints')}:** {text(loc, 'hints.on' if table.hints else 'hints.off')}"
    )
    hints = _button(
        table_id("hints", gid),
        text(loc, "button.hints_on" if table.hints else "button.hints_off"),
        discord.ButtonStyle.secondary,
    )
    return _fit(
        _layout(
            COLOR_LOBBY,
            [
                ui.TextDisplay(
                    _heading(text(loc, "lobby.title"))
                    + "\n"
                    + text(loc, "lobby.description", host=f"<@{table.host_id}>")
                    + "\n"
                    + deck_row(faces, rules)
                ),
                ui.Separator(),
                _block(f"**{players}**\n" + ("\n".join(lines) or "—"), join),
                _row(AddAISelect.make(gid, loc, disabled=full)),
                _row(remove_ai, hints),
                ui.Separator(),
                ui.TextDisplay(settings),
                _row(
                    _button(
                        table_id("start", gid),
                        text(loc, "button.start"),
                        discord.ButtonStyle.primary,
                    ),
                    _button(
                        table_id("leave", gid),
                        text(loc, "button.leave"),
                        discord.ButtonStyle.secondary,
                    ),
                    _button(
                        table_id("cancel", gid),
                        text(loc, "button.cancel"),
                        discord.ButtonStyle.danger,
                    ),
                ),
                ui.TextDisplay(
                    "-# " + text(loc, "lobby.footer", min=rules.min_players, max=rules.max_players)
                ),
            ],
        )
    )


def closed_view(table: Table, reason: str) -> Layout:
    loc = table.locale
    return _layout(
        COLOR_CLOSED,
        [ui.TextDisplay(_heading(text(loc, "closed.title")) + "\n" + text(loc, reason))],
    )


# ---------------------------------------------------------------- table
def _seat_line(table: Table, faces: Faces, index: int, view: PublicView) -> str:
    loc = table.locale
    seat = table.seats[index]
    points = view.points[index]
    # The No Drama card's face beside its holder's name (the footer names the variant).
    holds = f" {faces.no_drama()}" if view.no_drama_holder == index else ""
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
        status.append(text(loc, "status.away"))
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
    return _button(
        seat_id(table.game_id, index),
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
    return text(loc, f"log.{line.kind}", name=name, card=card)


def _top_line(locale: str, faces: Faces, top: Card, name: str, *, pile: int) -> str:
    """The top card and the draw pile; the card as a big heading of its own when
    there is no picture of it beside."""
    pile_text = text(locale, "table.pile", count=pile)
    if faces.image(top) is None:
        return text(locale, "table.top", emoji=faces.card(top), card=name) + "\n" + pile_text
    return text(locale, "card.top", emoji=faces.card(top), card=name) + " · " + pile_text


def _standings(table: Table, faces: Faces, view: PublicView) -> str:
    loc = table.locale
    order = sorted(range(len(table.seats)), key=lambda s: view.points[s])
    rows = [f"**{text(loc, 'table.standings')}**"]
    for place, s in enumerate(order, 1):
        points = text(loc, "table.points", count=view.points[s])
        chips = chip_icons(faces, table.ruleset, view.points[s])
        rows.append(f"{place}. {seat_name(loc, table.seats[s])} — {points}{chips}")
    return "\n".join(rows)


def _winners(locale: str, table: Table, view: PublicView) -> str:
    names = ", ".join(f"**{seat_name(locale, table.seats[w])}**" for w in view.winners)
    return text(locale, "table.winners", count=len(view.winners), names=names)


def _over(table: Table, view: PublicView) -> bool:
    return table.status is Status.FINISHED or view.game_over


def table_view(table: Table, faces: Faces) -> Layout:
    """The table: the top card big, a section per seat, the last moves, the last
    round's scoring and the table's buttons. Drawn from the public view only."""
    match = table.match
    assert match is not None
    return _fit(_table_layout(table, faces, match.public_view(), plain_scores=False))


def _table_layout(table: Table, faces: Faces, view: PublicView, *, plain_scores: bool) -> Layout:
    loc = table.locale
    over = _over(table, view)
    # The variants in small print under the title (beside the top card's picture,
    # where a line costs no height).
    badges = "-# " + table_badges(table)
    items: list[ui.Item[Any] | None] = []
    if over:
        colour = COLOR_OVER
        head = [_heading(text(loc, "table.over_title")), _winners(loc, table, view), badges]
        items += [
            ui.TextDisplay("\n".join(head)),
            ui.Separator(),
            ui.TextDisplay(_standings(table, faces, view)),
        ]
    elif view.top is None:
        colour = COLOR_ROUND_OVER
        head = [_heading(text(loc, "table.title", round=view.round_no)), badges]
        items.append(ui.TextDisplay("\n".join(head)))
    else:
        colour = COLOR_TABLE
        top = view.top
        name = card_name(loc, top, table.ruleset)
        head = [
            _heading(text(loc, "table.title", round=view.round_no)),
            badges,
            _top_line(loc, faces, top, name, pile=view.draw_pile),
        ]
        items.append(_block("\n".join(head), _picture(faces.image(top), name)))
        items += [ui.Separator(), *_seat_sections(table, faces, view)]
    if table.recent:
        recent = "\n".join(move_line(table, faces, line) for line in table.recent)
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
    layout = _layout(colour, items)
    if text_length(layout) > MAX_TEXT and not plain_scores:
        # Long hands in the scoring: their cards as short labels instead of emojis.
        return _table_layout(table, faces, view, plain_scores=True)
    return layout


def _table_buttons(table: Table) -> ui.ActionRow[Any]:
    loc = table.locale
    gid = table.game_id
    rules = _button(
        table_id("rules", gid), text(loc, "button.rules"), discord.ButtonStyle.secondary
    )
    if table.status is Status.FINISHED:
        rematch = _button(
            table_id("rematch", gid), text(loc, "button.rematch"), discord.ButtonStyle.success
        )
        return _row(rematch, review_button(table, loc), rules)
    buttons: list[ui.Item[Any]] = [
        _button(table_id("hand", gid), text(loc, "button.show_hand"), discord.ButtonStyle.primary),
        rules,
    ]
    if any(s.away for s in table.seats):
        buttons.append(
            _button(table_id("back", gid), text(loc, "button.back"), discord.ButtonStyle.success)
        )
    return _row(*buttons)


def table_badges(table: Table) -> str:
    """The table's footer: the variants in use, and whether hints are allowed."""
    badges = variant_badges(table.locale, table.ruleset)
    return f"{badges} · {text(table.locale, 'table.hints_badge')}" if table.hints else badges


def review_button(table: Table, locale: str) -> LamaButton:
    """A finished game's "Your three costliest decisions", for each player to ask."""
    return _button(
        table_id("review", table.game_id),
        text(locale, "button.review"),
        discord.ButtonStyle.secondary,
        emoji="🔍",
    )


def result_text(table: Table, faces: Faces, result: RoundResult, *, plain: bool = False) -> str:
    """A round's scoring: each hand as its cards, what it cost, and the totals."""
    loc = table.locale
    lines = [f"**{text(loc, 'result.title', round=result.round_no)}**"]
    for row in result.seats:
        name = seat_name(loc, table.seats[row.seat])
        named = partial(card_name, loc, ruleset=table.ruleset) if plain else None
        hand = card_row(faces, row.hand, named) or "—"
        if row.emptied:
            what = text(loc, "result.emptied")
        else:
            parts = [str(v) for v in row.penalty.values]
            if row.penalty.llama_points:
                parts.append(text(loc, "result.llamas", points=row.penalty.llama_points))
            if row.penalty.pink_llama_points:
                parts.append(text(loc, "result.pink", points=row.penalty.pink_llama_points))
            what = " + ".join(parts) or "0"
            what = f"{what} = **{row.penalty.total}**"
        line = f"**{name}**: {hand} → {what}"
        if row.discarded is not None:
            line += " " + text(
                loc, "result.discarded", card=card_name(loc, row.discarded, table.ruleset)
            )
        if row.returned:
            line += " " + text(loc, "result.returned", points=row.returned)
        line += " " + text(loc, "result.total", count=row.total)
        lines.append(line)
    return "\n".join(lines)


# ---------------------------------------------------------------- hand
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
    head = [_heading(text(locale, "hand.title"))]
    if warning:
        head.append(f"🚫 {warning}")
    if note:
        head.append(f"⚠️ {note}")
    items: list[ui.Item[Any] | None] = [ui.TextDisplay("\n".join(head))]
    if _over(table, public) or not table.live:
        return _fit(_layout(COLOR_OVER, [*items, *_hand_result(table, faces, locale, public)]))
    back = (
        _button(table_id("back", gid), text(locale, "button.back"), discord.ButtonStyle.success)
        if player.away
        else None
    )
    refresh = _button(hand_id(gid), text(locale, "button.refresh"), discord.ButtonStyle.secondary)
    top = own.top
    if top is None:
        items.append(ui.TextDisplay(text(locale, "hand.between_rounds")))
        items.append(_row(*(b for b in (back, refresh) if b is not None)))
        return _fit(_layout(COLOR_ROUND_OVER, items))
    mine = own.to_move == seat and player.controller is None and table.status is Status.RUNNING
    name = card_name(locale, top, table.ruleset)
    cards = text(locale, "hand.cards", count=len(own.hand))
    # The title, the top card and the hand's faces beside the top card's picture.
    head += [
        text(locale, "card.top", emoji=faces.card(top), card=name),
        cards,
        f"# {card_row(faces, own.hand) or '—'}",
    ]
    items = [_block("\n".join(head), _picture(faces.image(top), name))]
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
        _button(
            table_id("hint", gid),
            text(locale, "button.hint"),
            discord.ButtonStyle.success,
            emoji="💡",
        )
        if mine and table.hints
        else None
    )
    items.append(_row(*(b for b in (back, hint, refresh) if b is not None)))
    return _fit(_layout(COLOR_YOUR_TURN if mine else COLOR_WAITING, items))


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
        _button(
            move_id("play", gid, stamp, int(card)),
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
    draw = _button(
        move_id("draw", gid, stamp),
        draw_label,
        discord.ButtonStyle.secondary,
        disabled=not (mine and DRAW in own.legal),
        emoji=faces.back_button(),
    )
    quit_ = _button(
        move_id("quit", gid, stamp),
        text(locale, "button.quit"),
        discord.ButtonStyle.danger,
        disabled=not (mine and QUIT in own.legal),
    )
    cost = text(locale, "hand.quit_cost", count=penalty_points(own.hand, table.ruleset))
    return [
        *(_row(*plays[i : i + 5]) for i in range(0, len(plays), 5)),
        _block("\n".join(pile), draw),
        _block(cost, quit_),
    ]


def _hand_result(
    table: Table, faces: Faces, locale: str, public: PublicView
) -> list[ui.Item[Any] | None]:
    """What an open hand shows once the game is over or closed: how it ended."""
    if not public.game_over:
        return [ui.TextDisplay(text(locale, "closed.title"))]
    items: list[ui.Item[Any] | None] = [
        ui.TextDisplay(
            f"**{text(locale, 'table.over_title')}**\n" + _winners(locale, table, public)
        ),
        ui.TextDisplay(_standings(table, faces, public)),
    ]
    if public.results:
        items.append(ui.TextDisplay(result_text(table, faces, public.results[-1], plain=True)))
    items.append(_row(review_button(table, locale)))
    return items


# ---------------------------------------------------------------- rules
def rules_text(locale: str, ruleset: Ruleset | None) -> str:
    parts = [text(locale, "rules.base")]
    if ruleset is not None:
        for name in ruleset.variants:
            parts.append(text(locale, f"rules.{name}"))
        parts.append(text(locale, "rules.threshold", points=ruleset.threshold))
    else:
        parts.append(text(locale, "rules.variants_all"))
    return "\n\n".join(parts)
