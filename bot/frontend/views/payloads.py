"""What a table or hand message is sent or edited with: one Components V2 layout, no content."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.i18n import text
from bot.service.play.table import MoveLine, Status, Table

from ..faces import Faces
from ..words import end_key
from .layout import COLOR_CLOSED, fit, layout
from .lobby import closed_view, lobby_view
from .table import table_view


def table_payload(
    table: Table,
    faces: Faces,
    reason: str | None = None,
    moves: Sequence[MoveLine] | None = None,
    *,
    unlisted: int = 0,
    waiting: bool = False,
) -> dict[str, Any]:
    """What the table message should show now, listing ``moves`` (by default the
    last few) and counting the ``unlisted`` older moves it never listed: one
    Components V2 layout.

    A V2 message has no content or embeds, so they are cleared (a table posted
    before the bot used V2 is turned into one by its next edit).
    """
    view: discord.ui.LayoutView
    if table.status is Status.LOBBY:
        view = lobby_view(table, faces)
    elif table.status is Status.CANCELLED or table.match is None:
        # ``reason`` as the close told it; a table rebuilt after a restart has it stored.
        view = closed_view(table, end_key(table, reason))
    else:
        view = table_view(table, faces, moves, unlisted=unlisted)
    if waiting:
        # Its token runs out and nothing else may edit it: the next click does.
        view.add_item(discord.ui.TextDisplay(text(table.locale, "table.waiting")))
        view = fit(view)
    return v2_payload(view)


def v2_payload(view: discord.ui.LayoutView) -> dict[str, Any]:
    """What a message is sent or edited with to show ``view`` (a table, a hand): the
    content and embeds cleared, which a V2 message has none of."""
    return {"content": None, "embeds": [], "view": view}


def message_link(guild_id: int, channel_id: int, message_id: int) -> str:
    """A link to a message; a place outside a server (a negative id) is ``@me``'s."""
    place = str(guild_id) if guild_id > 0 else "@me"
    return f"https://discord.com/channels/{place}/{channel_id}/{message_id}"


def moved_payload(table: Table, message_id: int) -> dict[str, Any]:
    """What an old table message shows once the table was posted anew: one line
    pointing to the new one, no buttons."""
    link = message_link(table.guild_id, table.channel_id, message_id)
    view = layout(
        COLOR_CLOSED, [discord.ui.TextDisplay(text(table.locale, "table.moved", link=link))]
    )
    return v2_payload(view)
