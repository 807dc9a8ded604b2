"""Every user-facing string, looked up by key in per-language catalogs.

``text(locale, key, **params)`` formats a message; a catalog entry is either
a string or a dict of plural forms chosen by the ``count`` parameter, by the
language's CLDR plural rule (from Babel): English, German and Spanish have
``one`` and ``other``, Polish ``one``, ``few`` and ``many`` ("1 karta",
"2 karty", "5 kart"). Anything a language lacks falls back to English.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from functools import cache
from typing import Any

from babel import Locale
from babel.plural import PluralRule

from . import de, en, es, pl

Entry = str | Mapping[str, str]

DEFAULT = "en"
CATALOGS: dict[str, Mapping[str, Entry]] = {
    "en": en.CATALOG,
    "de": de.CATALOG,
    "es": es.CATALOG,
    "pl": pl.CATALOG,
}
#: Counts are whole numbers, so each language needs the forms its rule gives them.
#: (Spanish has a "many" for millions, "1 000 000 de puntos"; no count here gets that far.)
_COUNTS = range(1000)


def language_of(locale: object) -> str:
    """The catalog for a Discord locale (``de``, ``es-ES``, ``en-US``, ``pl`` …)."""
    code = str(getattr(locale, "value", locale) or DEFAULT).lower()
    base = code.split("-")[0]
    return base if base in CATALOGS else DEFAULT


@cache
def _rule(language: str) -> PluralRule:
    return Locale.parse(language).plural_form


def plural(language: str, count: int) -> str:
    """The CLDR plural category of ``count`` in ``language``: one, few, many or other."""
    return _rule(language)(count)


@cache
def plural_forms(language: str) -> frozenset[str]:
    """The forms a plural entry in ``language`` needs: those its rule gives whole counts."""
    return frozenset(plural(language, n) for n in _COUNTS)


def text(locale: object, key: str, /, **params: Any) -> str:
    language = language_of(locale)
    entry = CATALOGS[language].get(key)
    if entry is None:
        language, entry = DEFAULT, CATALOGS[DEFAULT][key]
    if not isinstance(entry, str):
        # The forms follow the catalog the entry came from, English when it fell back.
        form = plural(language, int(params.get("count", 0)))
        entry = entry.get(form) or entry.get("other") or next(iter(entry.values()))
    return entry.format(**params) if params else entry


def _typed(word: str) -> str:
    """A word as people type it: case, accents ("miesiac") and spacing aside."""
    parts = unicodedata.normalize("NFKD", word).casefold().split()
    return " ".join("".join(c for c in p if not unicodedata.combining(c)) for p in parts)


@cache
def _words(key: str) -> frozenset[str]:
    entries = (catalog.get(key) for catalog in CATALOGS.values())
    return frozenset(
        _typed(word) for entry in entries if isinstance(entry, str) for word in entry.split(",")
    )


def typed_word(key: str, typed: str) -> bool:
    """Whether ``typed`` is one of the words (comma-separated) of catalog entry ``key``
    in any language: someone may type their own language's word, or another's."""
    return _typed(typed) in _words(key)
