"""/lama help as a layout: what the bot does, the commands for this person, the docs' link."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import text
from bot.i18n.commands import command_text

from .layout import COLOR_LOBBY, Layout, block, fit, heading, layout

#: A command as /lama help lists it: its path (``("lama", "settings", "show")``) and its
#: description, both the English source strings the decorators give.
Listed = tuple[tuple[str, ...], str]


def command_name(locale: object, path: Sequence[str]) -> str:
    """``/lama neu`` for a German reader of ``("lama", "new")``: the name Discord shows them."""
    return "/" + " ".join(command_text(locale, part) for part in path)


def command_lines(locale: object, listed: Sequence[Listed]) -> str:
    return "\n".join(
        f"`{command_name(locale, path)}` — {command_text(locale, description)}"
        for path, description in listed
    )


def help_view(
    locale: object,
    players: Sequence[Listed],
    admins: Sequence[Listed],
    docs_url: str | None,
) -> Layout:
    """The answer to /lama help; ``admins`` is empty for someone without Manage Server."""
    intro = text(
        locale,
        "help.intro",
        new=command_name(locale, ("lama", "new")),
        rules=command_name(locale, ("lama", "rules")),
    )
    items = [
        block(heading(text(locale, "help.title")) + "\n" + intro),
        block(text(locale, "help.players") + "\n" + command_lines(locale, players)),
    ]
    if admins:
        items.append(block(text(locale, "help.admins") + "\n" + command_lines(locale, admins)))
    if docs_url is not None:
        items.append(block(text(locale, "help.docs", url=docs_url)))
    return fit(layout(COLOR_LOBBY, items))
