"""Every language has every English message, with the same placeholders and plural forms."""

from __future__ import annotations

import string
from collections.abc import Mapping

import discord
import pytest

from bot.i18n import CATALOGS, DEFAULT, language_of, text
from bot.i18n import en as english

LANGUAGES = sorted(set(CATALOGS) - {DEFAULT})


def fields(message: str) -> set[str]:
    parsed = string.Formatter().parse(message)
    return {name for _literal, name, _spec, _conv in parsed if name is not None}


def forms(entry: str | Mapping[str, str]) -> dict[str, str]:
    return {"": entry} if isinstance(entry, str) else dict(entry)


def test_german_and_spanish_are_registered() -> None:
    assert LANGUAGES == ["de", "es"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalog_has_exactly_the_english_keys(language: str) -> None:
    catalog = CATALOGS[language]
    missing = sorted(set(english.CATALOG) - set(catalog))
    extra = sorted(set(catalog) - set(english.CATALOG))
    assert not missing, f"{language}.py lacks: {missing}"
    assert not extra, f"{language}.py has keys en.py no longer has: {extra}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_placeholders_and_plural_forms_match_english(language: str) -> None:
    catalog = CATALOGS[language]
    for key, source in english.CATALOG.items():
        if key not in catalog:
            continue
        expected = forms(source)
        translated = forms(catalog[key])
        assert set(translated) == set(expected), f"{language} {key}: forms {sorted(translated)}"
        for form, message in translated.items():
            assert message.strip(), f"{language} {key} {form} is empty"
            assert fields(message) == fields(expected[form]), (
                f"{language} {key} {form or 'text'}: {sorted(fields(message))} "
                f"instead of {sorted(fields(expected[form]))}"
            )


@pytest.mark.parametrize(
    ("locale", "key", "count", "expected"),
    [
        ("de", "table.cards", 1, "1 Karte"),
        ("de", "table.cards", 2, "2 Karten"),
        ("de", "table.cards", 0, "0 Karten"),
        ("de", "table.pile", 1, "Nachziehstapel: 1 Karte"),
        ("de", "table.points", 1, "1 Minuspunkt"),
        ("de", "table.points", 12, "12 Minuspunkte"),
        ("es-ES", "table.cards", 1, "1 carta"),
        ("es-ES", "table.cards", 2, "2 cartas"),
        ("es-419", "table.pile", 1, "Mazo de robo: 1 carta"),
        ("es-ES", "table.points", 1, "1 punto"),
        ("es-ES", "hand.quit_cost", 7, "Retirarte ahora te costaría 7 puntos negativos."),
        ("en-US", "table.cards", 1, "1 card"),
    ],
)
def test_plural_forms(locale: str, key: str, count: int, expected: str) -> None:
    assert text(locale, key, count=count) == expected


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        (discord.Locale.german, "de"),
        (discord.Locale.spain_spanish, "es"),
        (discord.Locale.latin_american_spanish, "es"),
        (discord.Locale.american_english, "en"),
        (discord.Locale.british_english, "en"),
        (discord.Locale.french, "en"),
        ("es-419", "es"),
        (None, "en"),
    ],
)
def test_discord_locales_pick_a_catalog(locale: object, language: str) -> None:
    assert language_of(locale) == language


def test_untranslated_languages_fall_back_to_english() -> None:
    assert text(discord.Locale.japanese, "hand.title") == "Your hand"
    assert text("de", "hand.title") == "Deine Hand"
    assert text("es-ES", "hand.title") == "Tu mano"


def test_edition_terms() -> None:
    assert text("de", "log.quit", name="Ida") == "Ida ist ausgestiegen"
    assert text("es", "log.quit", name="Ida") == "Ida se retiró de la ronda"
    assert text("de", "card.pink_llama") == "Pinkes Lama"
    assert text("es", "card.pink_llama") == "Llama rosa"
    assert "Nachziehstapel" in text("de", "illegal.draw_pile_empty")
    assert "mazo de robo" in text("es", "illegal.draw_pile_empty")
