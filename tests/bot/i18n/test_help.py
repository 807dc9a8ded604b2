"""Through SimCord: /lama help answers privately, in the asker's language, with the commands
that matter to them (admins also the admin commands) and the docs' link when DOCS_URL is set."""

from __future__ import annotations

import dataclasses

import discord
import pytest
import simcord

from bot.client import LamaBot
from bot.config import Settings
from testkit.simcord_play import texts

from .conftest import Locales

DOCS = "https://example.org/lama-bot/"

#: Per Discord locale: the help's title, the /lama new and /lama settings show it names, and
#: a word of its intro, as a reader of that language sees them.
SEEN = {
    "en-US": ("L.A.M.A. — help", "`/lama new`", "`/lama settings show`", "card game"),
    "de": ("L.A.M.A. — Hilfe", "`/lama neu`", "`/lama einstellungen anzeigen`", "Kartenspiels"),
    "es-ES": ("L.A.M.A. — ayuda", "`/lama nueva`", "`/lama ajustes ver`", "juego de cartas"),
    "pl": ("L.A.M.A. — pomoc", "`/lama nowa`", "`/lama ustawienia pokaz`", "karcianą"),
}


@pytest.fixture
def settings(settings: Settings, request: pytest.FixtureRequest) -> Settings:
    """The test bot's settings, with DOCS_URL when the test asks for it (indirect)."""
    return dataclasses.replace(settings, docs_url=getattr(request, "param", None))


async def help_text(member: simcord.MemberActor, channel: simcord.ChannelHandle) -> str:
    result = await member.slash(channel, "lama help")
    assert result.ephemeral and result.response is not None, "the help is private"
    return texts(result.response)


@pytest.mark.parametrize("locale", sorted(SEEN))
@pytest.mark.parametrize(
    ("settings", "admin"),
    [(None, False), (DOCS, True)],
    indirect=["settings"],
    ids=["player", "admin"],
)
async def test_the_help_is_in_the_askers_language_with_their_commands_and_the_docs_link(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    mod: simcord.MemberActor,
    locales: Locales,
    locale: str,
    admin: bool,
) -> None:
    """A player (without DOCS_URL) sees no admin command and no link; an admin (Manage
    Server, with DOCS_URL set) sees the admin commands and the link too."""
    title, new, settings_show, intro = SEEN[locale]
    shown = await help_text(locales.user(mod if admin else alice, locale), channel)
    assert title in shown and intro in shown and new in shown
    assert (settings_show in shown) is admin
    assert (DOCS in shown) is admin


async def test_the_help_lists_every_players_command_of_the_tree(
    simcord_bot: LamaBot,
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    shown = await help_text(alice, channel)
    lama = simcord_bot.tree.get_command("lama")
    assert isinstance(lama, discord.app_commands.Group)
    for command in lama.commands:
        if command.name not in {"help", "settings", "export"}:
            assert f"`/lama {command.name}` — {command.description}" in shown
