"""Slash command names, descriptions, options and choices in the users' languages.

discord.py asks the tree's :class:`~discord.app_commands.Translator` for every
translatable string of every command while it builds the sync payload, once per
Discord locale. Each catalog module (``de.py``, ``es.py``, ``pl.py``) has a ``COMMANDS``
dict keyed by the English source string, the one written in the decorators
(``name="new"``, ``description="Open a L.A.M.A. lobby…"``); a missing entry
leaves Discord showing the English text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import discord
from discord import app_commands

from . import de, es, language_of, pl

#: Command strings per catalog language.
COMMANDS: dict[str, Mapping[str, str]] = {
    "de": de.COMMANDS,
    "es": es.COMMANDS,
    "pl": pl.COMMANDS,
}

#: The Discord locales that get each language.
LOCALES: dict[discord.Locale, str] = {
    discord.Locale.german: "de",
    discord.Locale.spain_spanish: "es",
    discord.Locale.latin_american_spanish: "es",
    discord.Locale.polish: "pl",
}

#: What Discord accepts as a (localized) command or option name.
NAME = re.compile(r"^[-_\w]{1,32}$")

_NAMES = frozenset(
    {
        app_commands.TranslationContextLocation.command_name,
        app_commands.TranslationContextLocation.group_name,
        app_commands.TranslationContextLocation.parameter_name,
    }
)


def command_text(locale: object, english: str) -> str:
    """A command's name or description (its English source string) as Discord shows it to a
    person of ``locale``: the catalog's translation, else the English."""
    language = language_of(locale)
    return COMMANDS[language].get(english, english) if language in COMMANDS else english


def is_name(location: app_commands.TranslationContextLocation) -> bool:
    return location in _NAMES


def valid_name(name: str) -> bool:
    """Discord's rule for chat command names: ``^[-_\\p{L}\\p{N}]{1,32}$``, lowercase."""
    return bool(NAME.fullmatch(name)) and name == name.lower()


class LamaTranslator(app_commands.Translator):
    """Looks the English string up in the language's ``COMMANDS``."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = LOCALES.get(locale)
        if language is None:
            return None
        translated = COMMANDS[language].get(string.message)
        if translated is None:
            return None
        if is_name(context.location) and not valid_name(translated):
            # An invalid name would make Discord reject the whole sync.
            return None
        return translated
