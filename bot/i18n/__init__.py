"""Every user-facing string, looked up by key in per-language catalogs.

``text(locale, key, **params)`` formats a message; a catalog entry is either
a string or a dict of plural forms chosen by the ``count`` parameter.
Anything a language lacks falls back to English.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import de, en, es

Entry = str | Mapping[str, str]

DEFAULT = "en"
CATALOGS: dict[str, Mapping[str, Entry]] = {"en": en.CATALOG, "de": de.CATALOG, "es": es.CATALOG}


def language_of(locale: object) -> str:
    """The catalog for a Discord locale (``de``, ``es-ES``, ``en-US`` …)."""
    code = str(getattr(locale, "value", locale) or DEFAULT).lower()
    base = code.split("-")[0]
    return base if base in CATALOGS else DEFAULT


def _plural(language: str, count: int) -> str:
    # English, German and Spanish share the one/other split.
    return "one" if count == 1 else "other"


def text(locale: object, key: str, /, **params: Any) -> str:
    language = language_of(locale)
    entry = CATALOGS[language].get(key)
    if entry is None:
        entry = CATALOGS[DEFAULT][key]
    if not isinstance(entry, str):
        form = _plural(language, int(params.get("count", 0)))
        entry = entry.get(form) or entry["other"]
    return entry.format(**params) if params else entry


def has(key: str) -> bool:
    return key in CATALOGS[DEFAULT]
