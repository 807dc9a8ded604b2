"""House rules as words and choices: /lama settings rules, /lama new's editions and house_rules.

A ruleset is shown as its editions and then each rule it changes from them
(:attr:`~game.Ruleset.house_rules`). The choices offered as one types are made from
:data:`~game.rules.PRESETS` and :data:`~game.rules.DIMENSIONS`, so a new edition or rule
shows up here with its words in the catalogs and nothing else.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from enum import StrEnum
from itertools import combinations
from typing import Any

from bot.i18n import text
from bot.service import ServiceError
from data.records import SavedRuleset
from game import Ruleset
from game.rules import DIMENSIONS, PRESETS

from ..words import plain_name, rule_value_text

#: The value of the editions option that means the base game alone.
BASE = "base"
#: Between the editions' keys in the editions option's value ("party+no_drama").
JOIN = "+"
#: The most choices Discord shows as one types.
MAX_CHOICES = 25


# ---------------------------------------------------------------- editions
def edition_sets() -> Iterator[tuple[str, ...]]:
    """Every set of editions a ruleset may start from, the base game first."""
    keys = tuple(PRESETS)
    for size in range(len(keys) + 1):
        yield from combinations(keys, size)


def edition_value(keys: Sequence[str]) -> str:
    return JOIN.join(keys) or BASE


def parse_editions(value: str) -> tuple[str, ...] | None:
    """The editions an option's value names; None if it names anything else."""
    if value == BASE:
        return ()
    keys = tuple(value.split(JOIN))
    if any(key not in PRESETS for key in keys) or len(set(keys)) != len(keys):
        return None
    return keys


def editions_label(locale: object, keys: Sequence[str]) -> str:
    if not keys:
        return text(locale, "house.base")
    return " + ".join(text(locale, f"variant.{key}") for key in keys)


# ---------------------------------------------------------------- rules
def _encoded(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value.value if isinstance(value, StrEnum) else str(value)


def rule_choices() -> Iterator[tuple[str, Any]]:
    """Every (rule, value) a ruleset may change: each dimension with a choice to make."""
    for dimension in DIMENSIONS:
        if len(dimension.choices) > 1:
            for choice in dimension.choices:
                yield dimension.name, choice


def rule_value(name: str, value: Any) -> str:
    return f"{name}={_encoded(value)}"


def parse_rule(value: str) -> tuple[str, Any] | None:
    """The (rule, value) an option's value names; None if it names no choice offered."""
    for name, choice in rule_choices():
        if rule_value(name, choice) == value:
            return name, choice
    return None


def rule_label(locale: object, name: str, value: Any) -> str:
    """A rule's value as offered: the lobby's words for it ("Hands of 7 cards")."""
    words = rule_value_text(str(locale), name, value)
    return words[:1].upper() + words[1:]


def ruleset_words(locale: object, ruleset: Ruleset) -> str:
    """A ruleset's editions, then each rule it changes from them, as the lobby shows
    them ("🎉 Party Edition · 🏠 hands of 7 cards"); no threshold: each table sets its own."""
    parts = [editions_label(locale, ruleset.presets)]
    parts += [
        f"🏠 {rule_value_text(str(locale), name, getattr(ruleset, name))}"
        for name in ruleset.house_rules
    ]
    return " · ".join(parts)


class Refusal(Exception):
    """Options that make no ruleset; ``key`` (and ``params``) say why, in the catalogs."""

    def __init__(self, key: str, **params: str) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def composed(editions: str | None, changes: list[str | None]) -> Ruleset:
    """The ruleset /lama settings rules' options make: the editions, then each rule
    changed (a later change of one rule wins); :class:`Refusal` for an option's value
    that was not offered."""
    keys = parse_editions(editions) if editions is not None else ()
    if keys is None:
        raise Refusal("house.bad_editions", value=editions or "")
    dimensions = {}
    for change in changes:
        if change is None:
            continue
        rule = parse_rule(change)
        if rule is None:
            raise Refusal("house.bad_rule", value=change)
        dimensions[rule[0]] = rule[1]
    return Ruleset.compose(*keys, **dimensions)


def new_ruleset(switched: Sequence[str], editions: str | None, threshold: int) -> Ruleset:
    """/lama new's rules: the editions ``switched`` on and those the editions option names
    (as offered), all of them, played to ``threshold``; :class:`Refusal` for an editions
    value that was not offered."""
    named = parse_editions(editions) if editions is not None else ()
    if named is None:
        raise Refusal("house.bad_editions", value=editions or "")
    keys = [key for key in PRESETS if key in switched or key in named]
    return Ruleset.compose(*keys, threshold=threshold)


def refusal_text(locale: object, error: ServiceError) -> str:
    """A refusal of the service about saved house rules, the name in it as typed but
    never as markup (``**``, a mention)."""
    params = {k: plain_name(v) if k == "name" else v for k, v in error.params.items()}
    return text(locale, error.key, **params)


# ---------------------------------------------------------------- lists and choices
def saved_list(locale: object, saved: Sequence[SavedRuleset], most: int) -> str:
    """The server's saved rulesets, one a line, or how to save one."""
    if not saved:
        return text(locale, "house.list_empty")
    lines = [text(locale, "house.list_title", count=len(saved), max=most)]
    lines += [
        text(
            locale,
            "house.list_line",
            name=plain_name(s.name),
            rules=ruleset_words(locale, s.ruleset),
        )
        for s in saved
    ]
    return "\n".join(lines)


def matching(choices: list[tuple[str, str]], typed: str) -> list[tuple[str, str]]:
    """The (label, value) pairs whose label holds what was typed, case aside; at most
    :data:`MAX_CHOICES`."""
    wanted = typed.casefold().strip()
    return [c for c in choices if wanted in c[0].casefold() or wanted == c[1]][:MAX_CHOICES]


def edition_options(locale: object, typed: str) -> list[tuple[str, str]]:
    choices = [(editions_label(locale, keys), edition_value(keys)) for keys in edition_sets()]
    return matching(choices, typed)


def rule_options(locale: object, typed: str) -> list[tuple[str, str]]:
    choices = [
        (rule_label(locale, name, value), rule_value(name, value)) for name, value in rule_choices()
    ]
    return matching(choices, typed)


def saved_options(saved: Sequence[SavedRuleset], typed: str) -> list[tuple[str, str]]:
    return matching([(s.name, s.name) for s in saved], typed)
