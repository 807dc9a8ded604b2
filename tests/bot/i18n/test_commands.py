"""Slash commands carry German, Spanish and Polish names, descriptions and choices in the sync."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import simcord

from bot.i18n.commands import LOCALES

LOCALIZED = sorted({locale.value for locale in LOCALES})  # de, es-419, es-ES, pl
NAME = re.compile(r"[-_\w]{1,32}")
SUBCOMMANDS = (1, 2)


def synced_commands(env: simcord.Env) -> list[dict[str, Any]]:
    puts = [r for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]
    assert puts, "the bot never synced its commands"
    return puts[-1].json  # type: ignore[no-any-return]


def nodes(items: list[dict[str, Any]], path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every command, subcommand group, subcommand and option, with its path."""
    for item in items:
        where = f"{path} {item['name']}".strip()
        yield where, item
        yield from nodes(item.get("options") or [], where)


def test_language_locales() -> None:
    assert LOCALIZED == ["de", "es-419", "es-ES", "pl"]


async def test_every_command_string_is_localized(simcord_env: simcord.Env) -> None:
    commands = [c for c in synced_commands(simcord_env) if c["name"] in {"lama", "lama-about"}]
    assert {c["name"] for c in commands} == {"lama", "lama-about"}
    missing = []
    for where, node in nodes(commands):
        for field in ("name_localizations", "description_localizations"):
            have = node.get(field) or {}
            missing += [f"{where}: {field}[{locale}]" for locale in LOCALIZED if locale not in have]
        for choice in node.get("choices") or []:
            have = choice.get("name_localizations") or {}
            where_choice = f"{where} = {choice['name']}"
            missing += [f"{where_choice}: [{locale}]" for locale in LOCALIZED if locale not in have]
    hint = "add these English strings to COMMANDS in de.py, es.py and pl.py:\n"
    assert not missing, hint + "\n".join(missing)


async def test_localized_names_are_valid_and_unique(simcord_env: simcord.Env) -> None:
    commands = synced_commands(simcord_env)
    for where, node in nodes(commands):
        for locale, name in (node.get("name_localizations") or {}).items():
            assert NAME.fullmatch(name) and name == name.lower(), f"{where} [{locale}]: {name!r}"
        for locale, description in (node.get("description_localizations") or {}).items():
            assert 1 <= len(description) <= 100, f"{where} [{locale}]: {len(description)} chars"
        for choice in node.get("choices") or []:
            for locale, name in (choice.get("name_localizations") or {}).items():
                assert 1 <= len(name) <= 100, f"{where} = {choice['name']} [{locale}]"
        # Siblings (subcommands, or one command's options) need distinct names in each language.
        children = node.get("options") or []
        for locale in LOCALIZED:
            names = [(c.get("name_localizations") or {}).get(locale, c["name"]) for c in children]
            assert len(names) == len(set(names)), f"{where} [{locale}]: {names}"


@pytest.mark.parametrize(
    ("path", "locale", "name"),
    [
        ("lama new", "de", "neu"),
        ("lama new", "es-ES", "nueva"),
        ("lama new", "es-419", "nueva"),
        ("lama hand", "es-ES", "mano"),
        ("lama settings", "de", "einstellungen"),
        ("lama settings language", "es-ES", "idioma"),
        ("lama-about", "de", "lama-info"),
        ("lama new", "pl", "nowa"),
        ("lama hand", "pl", "ręka"),
        ("lama settings language", "pl", "język"),
        ("lama chart", "pl", "wykres"),
    ],
)
@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_some_names(simcord_env: simcord.Env, path: str, locale: str, name: str) -> None:
    found = dict(nodes(synced_commands(simcord_env)))[path]
    assert found["name_localizations"][locale] == name


async def test_english_clients_keep_the_english_strings(simcord_env: simcord.Env) -> None:
    for where, node in nodes(synced_commands(simcord_env)):
        assert not {"en-US", "en-GB"} & set(node.get("name_localizations") or {}), where
