"""The layout helpers every message goes through (bot.frontend.views.layout)."""

from __future__ import annotations

import discord

from bot.frontend.views import layout
from testkit.simcord_play import texts


def test_a_layout_too_long_for_discord_loses_whole_lines_never_half_an_emoji() -> None:
    emoji = "<:lama_pink_llama:1456074443980800017>"
    long_block = "\n".join(f"line {i} {emoji * 3}" for i in range(60))
    view = discord.ui.LayoutView()
    view.add_item(
        discord.ui.Container(
            discord.ui.TextDisplay("## title"),
            discord.ui.TextDisplay(long_block),
            discord.ui.TextDisplay(long_block),
        )
    )

    fitted = layout.fit(view)

    assert layout.text_length(fitted) <= 4000
    shown = texts(fitted)
    assert shown.startswith("## title")
    for line in shown.split("\n")[1:]:
        assert line.removesuffix("…").endswith(emoji), "only whole lines are cut"
