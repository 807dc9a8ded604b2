"""Components V2 building blocks: the state colours, Discord's limits, fitting a layout in them.

Every message is one :class:`discord.ui.LayoutView`: a container whose accent
colour says the state, text displays, sections with the top card's picture or
the button they belong to, and rows of buttons. Discord allows 40 components
and 4,000 characters of text per message; :func:`fit` keeps every layout
within them (a six-player table with every variant and long names included).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import ui

from ..custom_ids import ButtonId
from ..items import LamaButton

COLOR_LOBBY = discord.Colour.blurple()
COLOR_TABLE = discord.Colour.gold()  # a round is being played: everyone waits for someone
COLOR_ROUND_OVER = discord.Colour.dark_gold()
COLOR_OVER = discord.Colour.green()
COLOR_CLOSED = discord.Colour.dark_grey()
COLOR_YOUR_TURN = discord.Colour.brand_green()
COLOR_WAITING = discord.Colour.teal()
COLOR_STATS = discord.Colour.purple()  # stats, boards and charts

#: Discord's limits for one message with Components V2.
MAX_COMPONENTS = 40
MAX_TEXT = 4000

Layout = ui.LayoutView


def button(
    cid: ButtonId,
    label: str,
    style: discord.ButtonStyle,
    *,
    disabled: bool = False,
    emoji: discord.Emoji | str | None = None,
) -> LamaButton:
    """The button of the typed id ``cid`` (its string form is made for Discord only)."""
    return LamaButton.make(cid, label, style, disabled=disabled, emoji=emoji)


def block(content: str, accessory: ui.Item[Any] | None = None) -> ui.Item[Any]:
    """Text, with its picture or button beside it when there is one."""
    shown: ui.TextDisplay[Any] = ui.TextDisplay(content)
    return shown if accessory is None else ui.Section(shown, accessory=accessory)


def picture(url: str | None, description: str) -> ui.Thumbnail[Any] | None:
    return None if url is None else ui.Thumbnail(url, description=description[:1024])


def row(*items: ui.Item[Any]) -> ui.ActionRow[Any]:
    return ui.ActionRow(*items)


def layout(colour: discord.Colour, items: Sequence[ui.Item[Any] | None]) -> Layout:
    """One container of ``colour`` holding ``items`` (the Nones left out)."""
    view = ui.LayoutView(timeout=None)
    container: ui.Container[Any] = ui.Container(accent_colour=colour)
    for item in items:
        if item is not None:
            container.add_item(item)
    view.add_item(container)
    return view


def heading(title: str) -> str:
    return f"## {title}"


def text_length(view: Layout) -> int:
    return sum(len(i.content) for i in view.walk_children() if isinstance(i, ui.TextDisplay))


def component_count(view: Layout) -> int:
    # walk_children covers a section's text and its accessory: Discord counts them all.
    return sum(1 for _ in view.walk_children())


def fit(view: Layout) -> Layout:
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
