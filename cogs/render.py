"""Engine and table state turned into embeds and views. No rules, no I/O."""

from __future__ import annotations

from collections import Counter

import discord

from bot.i18n import text
from bot.tables import MoveLine, Seat, Status, Table
from game import DRAW, QUIT, Card, Chips, Play, PublicView, RoundResult, Ruleset, penalty_points

from .components import AddAISelect, LamaButton, hand_id, move_id, table_id

COLOR_LOBBY = discord.Colour.blurple()
COLOR_TABLE = discord.Colour.gold()
COLOR_OVER = discord.Colour.green()
COLOR_HAND = discord.Colour.teal()

_KEYCAPS = {1: "1️⃣", 2: "2️⃣", 3: "3️⃣", 4: "4️⃣", 5: "5️⃣", 6: "6️⃣"}


def card_emoji(card: Card) -> str:
    if card is Card.LLAMA:
        return "🦙"
    if card is Card.PINK_LLAMA:
        return "🩷🦙"
    face = _KEYCAPS[card.number]
    return f"{face}➕" if card.is_plus else face


def button_emoji(card: Card) -> str | None:
    """A button takes exactly one emoji: the keycap or the llama, nothing for Plus cards.

    (The pink Llama's "🩷🦙" is two emojis, which Discord refuses on a button;
    its label names it.)
    """
    if card is Card.PINK_LLAMA:
        return "🦙"
    return None if card.is_plus else card_emoji(card)


def chip_icons(ruleset: Ruleset, points: int) -> str:
    """The chips a seat holds, e.g. " (⚫1 ⚪4)"; empty with no chips."""
    chips = Chips.of(points, pink_chips=ruleset.party)
    held = [(chips.pink, "🩷"), (chips.black, "⚫"), (chips.white, "⚪")]
    shown = " ".join(f"{icon}{n}" for n, icon in held if n)
    return f" ({shown})" if shown else ""


def card_name(locale: str, card: Card) -> str:
    if card is Card.LLAMA:
        return text(locale, "card.llama")
    if card is Card.PINK_LLAMA:
        return text(locale, "card.pink_llama")
    return card.label


def seat_name(locale: str, seat: Seat) -> str:
    """A seat's name for markdown: a nickname can't bold, hide or link anything."""
    name = discord.utils.escape_markdown(seat.name)
    if seat.user_id is None and seat.ai is not None:
        return text(locale, "seat.ai", name=name, strength=text(locale, f"ai.{seat.ai.value}"))
    return name


def variant_badges(locale: str, ruleset: Ruleset) -> str:
    badges = [text(locale, f"variant.{name}") for name in ruleset.variants]
    badges.append(text(locale, "variant.threshold", points=ruleset.threshold))
    return " · ".join(badges)


def timer_text(locale: str, seconds: int) -> str:
    return (
        text(locale, "timer.off") if seconds <= 0 else text(locale, "timer.seconds", count=seconds)
    )


# ---------------------------------------------------------------- lobby
def lobby_embed(table: Table) -> discord.Embed:
    loc = table.locale
    rules = table.ruleset
    lines = []
    for seat in table.seats:
        crown = " 👑" if seat.user_id == table.host_id else ""
        who = f"<@{seat.user_id}>" if seat.user_id is not None else seat_name(loc, seat)
        lines.append(f"• {who}{crown}")
    embed = discord.Embed(title=text(loc, "lobby.title"), colour=COLOR_LOBBY)
    embed.description = text(loc, "lobby.description", host=f"<@{table.host_id}>")
    embed.add_field(
        name=text(loc, "lobby.players", count=len(table.seats), max=rules.max_players),
        value="\n".join(lines) or "—",
        inline=False,
    )
    embed.add_field(
        name=text(loc, "lobby.variants"), value=variant_badges(loc, rules), inline=False
    )
    embed.add_field(name=text(loc, "lobby.timer"), value=timer_text(loc, table.turn_timer))
    embed.set_footer(text=text(loc, "lobby.footer", min=rules.min_players, max=rules.max_players))
    return embed


def lobby_view(table: Table) -> discord.ui.View:
    loc = table.locale
    gid = table.game_id
    full = len(table.seats) >= table.ruleset.max_players
    view = discord.ui.View(timeout=None)
    view.add_item(
        LamaButton.make(
            table_id("join", gid),
            text(loc, "button.join"),
            discord.ButtonStyle.success,
            disabled=full,
        )
    )
    view.add_item(
        LamaButton.make(
            table_id("leave", gid), text(loc, "button.leave"), discord.ButtonStyle.secondary
        )
    )
    view.add_item(
        LamaButton.make(
            table_id("start", gid), text(loc, "button.start"), discord.ButtonStyle.primary
        )
    )
    view.add_item(
        LamaButton.make(
            table_id("cancel", gid), text(loc, "button.cancel"), discord.ButtonStyle.danger
        )
    )
    view.add_item(
        LamaButton.make(
            table_id("dropai", gid),
            text(loc, "button.remove_ai"),
            discord.ButtonStyle.secondary,
            disabled=not any(s.ai is not None for s in table.seats),
        )
    )
    view.add_item(AddAISelect.make(gid, loc, disabled=full))
    return view


def closed_embed(table: Table, reason: str) -> discord.Embed:
    loc = table.locale
    return discord.Embed(
        title=text(loc, "closed.title"),
        description=text(loc, reason),
        colour=discord.Colour.dark_grey(),
    )


# ---------------------------------------------------------------- table
def _seat_line(table: Table, index: int, view: PublicView | None) -> str:
    loc = table.locale
    seat = table.seats[index]
    points = table.match.points[index] if table.match is not None else 0
    name = seat_name(loc, seat)
    parts = [f"**{name}**"]
    if view is not None and view.top is not None:
        parts.append(text(loc, "table.cards", count=view.hand_sizes[index]))
    parts.append(text(loc, "table.points", count=points) + chip_icons(table.ruleset, points))
    status = []
    if view is not None and view.to_move == index:
        status.append(text(loc, "status.to_move"))
    elif view is not None and view.top is not None and not view.in_round[index]:
        status.append(text(loc, "status.out"))
    if view is not None and view.no_drama_holder == index:
        status.append(text(loc, "status.no_drama"))
    if seat.away:
        status.append(text(loc, "status.away"))
    elif seat.user_id is not None and seat.ai is not None:
        status.append(text(loc, "status.kicked"))
    marker = "▶️" if view is not None and view.to_move == index else "▫️"
    line = f"{marker} " + " · ".join(parts)
    if status:
        line += " — " + ", ".join(status)
    return line


def move_line(table: Table, line: MoveLine) -> str:
    loc = table.locale
    name = seat_name(loc, table.seats[line.seat]) if 0 <= line.seat < len(table.seats) else "?"
    card = ""
    if line.card is not None:
        c = Card(line.card)
        card = f"{card_emoji(c)} {card_name(loc, c)}"
    return text(loc, f"log.{line.kind}", name=name, card=card)


def table_embeds(table: Table) -> list[discord.Embed]:
    loc = table.locale
    match = table.match
    assert match is not None
    view = match.public_view()
    over = table.status is Status.FINISHED or match.over
    embed = discord.Embed(colour=COLOR_OVER if over else COLOR_TABLE)
    if over:
        embed.title = text(loc, "table.over_title")
        winners = ", ".join(f"**{seat_name(loc, table.seats[w])}**" for w in match.winners)
        embed.description = text(loc, "table.winners", count=len(match.winners), names=winners)
        standings = sorted(range(len(table.seats)), key=lambda s: match.points[s])
        rows = []
        for place, s in enumerate(standings, 1):
            points = text(loc, "table.points", count=match.points[s])
            rows.append(f"{place}. {seat_name(loc, table.seats[s])} — {points}")
        embed.add_field(name=text(loc, "table.standings"), value="\n".join(rows), inline=False)
    else:
        embed.title = text(loc, "table.title", round=view.round_no)
        top = view.top
        assert top is not None
        embed.description = (
            text(loc, "table.top", emoji=card_emoji(top), card=card_name(loc, top))
            + "\n"
            + text(loc, "table.pile", count=view.draw_pile)
        )
        if table.turn_deadline is not None and view.to_move is not None:
            embed.description += "\n" + text(
                loc,
                "table.deadline",
                name=seat_name(loc, table.seats[view.to_move]),
                when=f"<t:{int(table.turn_deadline)}:R>",
            )
        embed.add_field(
            name=text(loc, "table.seats"),
            value="\n".join(_seat_line(table, i, view) for i in range(len(table.seats))),
            inline=False,
        )
    if table.recent:
        embed.add_field(
            name=text(loc, "table.recent"),
            value="\n".join(move_line(table, line) for line in table.recent),
            inline=False,
        )
    embed.set_footer(text=variant_badges(loc, table.ruleset))
    embeds = [embed]
    if match.results:
        embeds.append(result_embed(table, match.results[-1]))
    return embeds


def result_embed(table: Table, result: RoundResult) -> discord.Embed:
    loc = table.locale
    embed = discord.Embed(
        title=text(loc, "result.title", round=result.round_no), colour=discord.Colour.dark_gold()
    )
    lines = []
    for row in result.seats:
        name = seat_name(loc, table.seats[row.seat])
        hand = " ".join(card_emoji(c) for c in row.hand) or "—"
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
            line += " " + text(loc, "result.discarded", card=card_name(loc, row.discarded))
        if row.returned:
            line += " " + text(loc, "result.returned", points=row.returned)
        line += " " + text(loc, "result.total", count=row.total)
        lines.append(line)
    embed.description = "\n".join(lines)
    return embed


def table_view(table: Table) -> discord.ui.View:
    loc = table.locale
    gid = table.game_id
    view = discord.ui.View(timeout=None)
    if table.status is Status.FINISHED:
        view.add_item(
            LamaButton.make(
                table_id("rematch", gid), text(loc, "button.rematch"), discord.ButtonStyle.success
            )
        )
        view.add_item(
            LamaButton.make(
                table_id("rules", gid), text(loc, "button.rules"), discord.ButtonStyle.secondary
            )
        )
        return view
    view.add_item(
        LamaButton.make(
            table_id("hand", gid), text(loc, "button.show_hand"), discord.ButtonStyle.primary
        )
    )
    view.add_item(
        LamaButton.make(
            table_id("rules", gid), text(loc, "button.rules"), discord.ButtonStyle.secondary
        )
    )
    if any(s.away for s in table.seats):
        view.add_item(
            LamaButton.make(
                table_id("back", gid), text(loc, "button.back"), discord.ButtonStyle.success
            )
        )
    return view


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


def hand_embed(
    table: Table, seat: int, locale: str, note: str | None = None, warning: str | None = None
) -> discord.Embed:
    """A player's private hand; ``note`` answers their last click, ``warning`` is about
    the bot itself (e.g. it can no longer update the table)."""
    match = table.match
    assert match is not None
    view = match.view(seat)
    embed = discord.Embed(colour=COLOR_HAND, title=text(locale, "hand.title"))
    lines = []
    if warning:
        lines.append(f"🚫 {warning}")
    if note:
        lines.append(f"⚠️ {note}")
    if view.top is None:
        lines.append(text(locale, "hand.between_rounds"))
        embed.description = "\n".join(lines)
        return embed
    lines.append(
        text(locale, "hand.top", emoji=card_emoji(view.top), card=card_name(locale, view.top))
    )
    counts = Counter(view.hand)
    groups = [
        f"{card_emoji(c)} {card_name(locale, c)}" + (f" ×{n}" if n > 1 else "")
        for c, n in sorted(counts.items(), key=lambda kv: (kv[0].is_llama, kv[0].number, kv[0]))
    ]
    lines.append(
        text(locale, "hand.cards", count=len(view.hand)) + "\n" + ("\n".join(groups) or "—")
    )
    if view.in_round[seat]:
        lines.append(text(locale, "hand.quit_cost", count=penalty_points(view.hand, table.ruleset)))
    if table.seats[seat].away:
        lines.append(text(locale, "hand.away"))
    elif table.seats[seat].ai is not None:  # kicked, or left the game
        lines.append(text(locale, "hand.ai_seat"))
    if view.to_move == seat and table.seats[seat].controller is None:
        lines.append(text(locale, "hand.your_turn"))
        refused = match.public_view().draw_refused
        if refused is not None:
            lines.append(text(locale, _NO_DRAW[refused]))
    elif not view.in_round[seat]:
        lines.append(text(locale, "hand.you_quit"))
    elif view.to_move is not None:
        lines.append(
            text(locale, "hand.waiting", name=seat_name(locale, table.seats[view.to_move]))
        )
    embed.description = "\n\n".join(lines)
    return embed


def hand_view(table: Table, seat: int, locale: str) -> discord.ui.View:
    match = table.match
    assert match is not None
    seat_view = match.view(seat)
    gid, stamp = table.game_id, table.stamp
    view = discord.ui.View(timeout=None)
    mine = (
        seat_view.to_move == seat
        and table.seats[seat].controller is None
        and table.status is Status.RUNNING
    )
    if seat_view.top is not None and seat_view.in_round[seat]:
        playable = [a.card for a in seat_view.legal if isinstance(a, Play)] if mine else []
        for card in playable:
            view.add_item(
                LamaButton.make(
                    move_id("play", gid, stamp, int(card)),
                    text(locale, "button.play", card=card_name(locale, card)),
                    discord.ButtonStyle.primary,
                    emoji=button_emoji(card),
                    row=0,
                )
            )
        can_draw = mine and DRAW in seat_view.legal
        refused = match.public_view().draw_refused
        if mine and refused is not None:
            label = text(locale, _DRAW_BUTTON[refused])
        else:
            label = text(locale, "button.draw")
        view.add_item(
            LamaButton.make(
                move_id("draw", gid, stamp),
                label,
                discord.ButtonStyle.secondary,
                disabled=not can_draw,
                row=1,
            )
        )
        view.add_item(
            LamaButton.make(
                move_id("quit", gid, stamp),
                text(locale, "button.quit"),
                discord.ButtonStyle.danger,
                disabled=not (mine and QUIT in seat_view.legal),
                row=1,
            )
        )
    if table.seats[seat].away:
        view.add_item(
            LamaButton.make(
                table_id("back", gid),
                text(locale, "button.back"),
                discord.ButtonStyle.success,
                row=2,
            )
        )
    view.add_item(
        LamaButton.make(
            hand_id(gid), text(locale, "button.refresh"), discord.ButtonStyle.secondary, row=2
        )
    )
    return view


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
