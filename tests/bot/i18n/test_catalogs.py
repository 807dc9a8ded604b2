"""Every language has every English message, with the same placeholders and plural forms."""

from __future__ import annotations

import string
from collections.abc import Mapping

import discord
import pytest

from bot.i18n import CATALOGS, DEFAULT, language_of, plural, plural_forms, text
from bot.i18n import en as english

LANGUAGES = sorted(set(CATALOGS) - {DEFAULT})


def fields(message: str) -> set[str]:
    parsed = string.Formatter().parse(message)
    return {name for _literal, name, _spec, _conv in parsed if name is not None}


def forms(entry: str | Mapping[str, str]) -> dict[str, str]:
    return {"": entry} if isinstance(entry, str) else dict(entry)


def test_german_spanish_and_polish_are_registered() -> None:
    assert LANGUAGES == ["de", "es", "pl"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalog_has_exactly_the_english_keys(language: str) -> None:
    catalog = CATALOGS[language]
    missing = sorted(set(english.CATALOG) - set(catalog))
    extra = sorted(set(catalog) - set(english.CATALOG))
    assert not missing, f"{language}.py lacks: {missing}"
    assert not extra, f"{language}.py has keys en.py no longer has: {extra}"


def english_form(form: str) -> str:
    """The English form a translated plural form says the same as: one is one, the rest other."""
    return form if form in {"", "one"} else "other"


@pytest.mark.parametrize("language", LANGUAGES)
def test_placeholders_and_plural_forms_match_english(language: str) -> None:
    catalog = CATALOGS[language]
    for key, source in english.CATALOG.items():
        if key not in catalog:
            continue
        expected = forms(source)
        translated = forms(catalog[key])
        # A plural entry has every form the language's CLDR rule gives whole numbers.
        want = set(expected) if isinstance(source, str) else set(plural_forms(language))
        assert set(translated) == want, f"{language} {key}: forms {sorted(translated)}"
        for form, message in translated.items():
            assert message.strip(), f"{language} {key} {form} is empty"
            source_fields = fields(expected[english_form(form)])
            assert fields(message) == source_fields, (
                f"{language} {key} {form or 'text'}: {sorted(fields(message))} "
                f"instead of {sorted(source_fields)}"
            )


def test_plural_forms_each_language_needs() -> None:
    assert plural_forms("en") == plural_forms("de") == {"one", "other"}
    assert plural_forms("es") == {"one", "other"}
    assert plural_forms("pl") == {"one", "few", "many"}


def polish_rule(n: int) -> str:
    """CLDR's Polish rule for whole numbers, written out."""
    if n == 1:
        return "one"
    if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return "few"
    return "many"


def test_plural_rules_are_cldrs() -> None:
    assert [plural("pl", n) for n in range(300)] == [polish_rule(n) for n in range(300)]
    for language in ("en", "de", "es"):
        assert [plural(language, n) for n in range(300)] == [
            "one" if n == 1 else "other" for n in range(300)
        ]
    assert plural("es", 1_000_000) == "many"  # "1 000 000 de puntos": falls back to other
    assert text("es", "table.points", count=1_000_000) == "1000000 puntos"


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
        ("pl", "table.cards", 1, "1 karta"),
        ("pl", "table.cards", 2, "2 karty"),
        ("pl", "table.cards", 5, "5 kart"),
        ("pl", "table.cards", 12, "12 kart"),
        ("pl", "table.cards", 22, "22 karty"),
        ("pl", "table.cards", 25, "25 kart"),
        ("pl", "table.cards", 0, "0 kart"),
        ("pl", "table.points", 1, "1 punkt"),
        ("pl", "table.points", 2, "2 punkty"),
        ("pl", "table.points", 5, "5 punktów"),
        ("pl", "table.points", 22, "22 punkty"),
        ("pl", "table.points", 25, "25 punktów"),
        ("pl", "board.games", 1, "1 gra"),
        ("pl", "board.games", 2, "2 gry"),
        ("pl", "board.games", 5, "5 gier"),
        ("pl", "board.games", 22, "22 gry"),
        ("pl", "board.games", 25, "25 gier"),
        ("pl", "history.players", 1, "1 gracz"),
        ("pl", "history.players", 2, "2 gracze"),
        ("pl", "history.players", 5, "5 graczy"),
        ("pl", "history.players", 22, "22 gracze"),
        ("pl", "history.players", 25, "25 graczy"),
        ("pl", "timer.seconds", 22, "22 sekundy na ruch"),
        ("pl", "timer.seconds", 25, "25 sekund na ruch"),
        ("pl", "hand.quit_cost", 22, "Wyjście z rundy kosztowałoby cię teraz 22 punkty."),
        ("pl", "hand.quit_cost", 112, "Wyjście z rundy kosztowałoby cię teraz 112 punktów."),
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
        (discord.Locale.polish, "pl"),
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
    assert text(discord.Locale.polish, "hand.title") == "Twoja ręka"


def test_a_missing_polish_entry_falls_back_to_english_with_englishs_forms(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(CATALOGS, "pl", {})
    assert text("pl", "table.cards", count=2) == "2 cards"
    assert text("pl", "table.cards", count=1) == "1 card"


def test_edition_terms() -> None:
    assert text("de", "log.quit", name="Ida") == "Ida ist ausgestiegen"
    assert text("es", "log.quit", name="Ida") == "Ida se retiró de la ronda"
    assert text("de", "card.pink_llama") == "Pinkes Lama"
    assert text("es", "card.pink_llama") == "Llama rosa"
    assert "Nachziehstapel" in text("de", "illegal.draw_pile_empty")
    assert "mazo de robo" in text("es", "illegal.draw_pile_empty")
    # The Polish edition: L.A.M.A. keeps its name; Lato z Komarami's llamas are mosquitoes.
    assert text("pl", "log.quit", name="Ida") == "Ida pasuje i wychodzi z rundy"
    assert text("pl", "card.pink_llama") == "Różowa lama"
    # A card's name stays in the nominative, so no sentence needs its accusative ("lamę").
    assert text("pl", "log.play", name="Ida", card="Lama") == "Ida zagrywa kartę Lama"
    assert "7 komarów" in text("pl", "rules.komarami")
    assert text("pl", "variant.komarami") == "🦟 Lato z Komarami"
    assert "Stos do dobierania" in text("pl", "table.pile", count=3)
