"""The lobby message (who sits, the rules, Join/Add AI/House rules/Start…) and a closed table's."""

from __future__ import annotations

from typing import Any

import discord
from discord import ui

from bot.i18n import text
from bot.service.play.table import Table, ended_away, unconfirmed

from ..custom_ids import LobbyButtonId
from ..faces import Faces, deck_row
from ..items import AddAISelect, RuleSelect
from ..words import seat_name, timer_text, variant_badges
from .layout import COLOR_CLOSED, COLOR_LOBBY, Layout, block, button, fit, heading, layout, row


def lobby_view(table: Table, faces: Faces) -> Layout:
    loc = table.locale
    rules = table.ruleset
    gid = table.game_id
    full = len(table.seats) >= rules.max_players
    # A Rematch's lobby says who confirmed and who hasn't: only the first play.
    asking = any(unconfirmed(s) for s in table.seats)
    lines = []
    for seat in table.seats:
        crown = " 👑" if seat.user_id == table.host_id else ""
        who = f"<@{seat.user_id}>" if seat.user_id is not None else seat_name(loc, seat)
        if asking and unconfirmed(seat):
            crown += " — ⏳ " + text(loc, "lobby.unconfirmed")
        elif asking and seat.human:
            crown += " — ✅ " + text(loc, "lobby.confirmed")
        lines.append(f"• {who}{crown}")
    note = ("\n-# " + text(loc, "lobby.rematch_note")) if asking else ""
    players = text(loc, "lobby.players", count=len(table.seats), max=rules.max_players)
    join = button(
        LobbyButtonId("join", gid),
        text(loc, "button.join"),
        discord.ButtonStyle.success,
        disabled=full,
    )
    remove_ai = button(
        LobbyButtonId("dropai", gid),
        text(loc, "button.remove_ai"),
        discord.ButtonStyle.secondary,
        disabled=not any(s.ai is not None for s in table.seats),
    )
    settings = (
        f"**{text(loc, 'lobby.variants')}:** {variant_badges(loc, rules)}\n"
        f"**{text(loc, 'lobby.timer')}:** {timer_text(loc, table.turn_timer)}\n"
        f"**{text(loc, 'lobby.hints')}:** {text(loc, 'hints.on' if table.hints else 'hints.off')}"
    )
    hints = button(
        LobbyButtonId("hints", gid),
        text(loc, "button.hints_on" if table.hints else "button.hints_off"),
        discord.ButtonStyle.secondary,
    )
    house = button(
        LobbyButtonId("house", gid),
        text(loc, "button.house_rules"),
        discord.ButtonStyle.secondary,
        emoji="🏠",
    )
    return fit(
        layout(
            COLOR_LOBBY,
            [
                ui.TextDisplay(
                    heading(text(loc, "lobby.title"))
                    + "\n"
                    + text(loc, "lobby.description", host=f"<@{table.host_id}>")
                    + "\n"
                    + deck_row(faces, rules)
                ),
                ui.Separator(),
                block(f"**{players}**\n" + ("\n".join(lines) or "—") + note, join),
                row(AddAISelect.make(gid, loc, disabled=full, version=table.opened_at)),
                row(remove_ai, hints, house),
                ui.Separator(),
                ui.TextDisplay(settings),
                row(
                    button(
                        LobbyButtonId("start", gid),
                        text(loc, "button.start"),
                        discord.ButtonStyle.primary,
                    ),
                    button(
                        LobbyButtonId("leave", gid),
                        text(loc, "button.leave"),
                        discord.ButtonStyle.secondary,
                    ),
                    button(
                        LobbyButtonId("cancel", gid),
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


def house_rules_view(table: Table, locale: str) -> Layout:
    """The host's private house rules: what is played now, and a select of every rule the
    lobby offers changed (each pick edits this message and the lobby)."""
    shown = (
        heading(text(locale, "lobby.house_title"))
        + f"\n**{text(locale, 'lobby.variants')}:** {variant_badges(locale, table.ruleset)}"
        + "\n-# "
        + text(locale, "lobby.house_help")
    )
    select = RuleSelect.make(table.game_id, locale, table.ruleset, version=table.opened_at)
    return layout(COLOR_LOBBY, [ui.TextDisplay(shown), row(select)])


def closed_view(table: Table, reason: str) -> Layout:
    """A closed lobby or ended game: why; a Rematch if nobody came back from being away
    (a new game, as after a finished one)."""
    loc = table.locale
    items: list[ui.Item[Any]] = [
        ui.TextDisplay(heading(text(loc, "closed.title")) + "\n" + text(loc, reason))
    ]
    if ended_away(table):
        rematch = LobbyButtonId("rematch", table.game_id)
        items.append(row(button(rematch, text(loc, "button.rematch"), discord.ButtonStyle.success)))
    return layout(COLOR_CLOSED, items)
