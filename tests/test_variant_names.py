"""The editions' names stay where issue 45 puts them: product code reads the rule
dimensions (``ruleset.plus_cards``, ``ruleset.llama_cost``...), never ``party``,
``komarami`` or ``no_drama``, except the presets that define them and the words that
show them. So a new preset is added in ``PRESETS`` and the catalogs alone
(``docs/develop/house-rules.md``), and no code changes meaning when one does."""

from __future__ import annotations

import ast
import re
from collections import Counter
from functools import cache
from pathlib import Path

from game.rules import PRESETS

ROOT = Path(__file__).resolve().parents[1]
#: The product: what the bot runs.
PRODUCT = ("game", "bot", "cogs", "data")
#: Where an edition's name belongs: the presets, the catalogs, the words that show them.
ALLOWED = frozenset(
    {
        "game/rules.py",
        "bot/i18n/en.py",
        "bot/i18n/de.py",
        "bot/i18n/es.py",
        "bot/i18n/pl.py",
        "bot/i18n/commands.py",
        "bot/frontend/words.py",
        "bot/frontend/faces.py",
    }
)
#: Names found on main when this test came, in code other helpers are rewriting (issue
#: 45's lobby): each must go, and then leave this list (the test says so).
KNOWN: dict[str, Counter[str]] = {
    # /lama new's options party/komarami/no_drama: the editions' names as the person types
    # them (Discord's options are declared one by one), turned into presets at once
    "cogs/lobby.py": Counter({"party": 4, "komarami": 4, "no_drama": 4}),
}
NAMES = frozenset(PRESETS)
#: A string that is a name or key (no spaces): ``"party"``, ``"variant.party"``.
KEYLIKE = re.compile(r"^[\w.:-]*\b(" + "|".join(sorted(NAMES)) + r")\b[\w.:-]*$")


def _docstrings(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def uses(source: str) -> Counter[str]:
    """The editions' names used in code: as a name, an attribute, a keyword, a
    parameter, a definition, an import, or a string that is a name or key (not in
    comments, docstrings or prose)."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    found: Counter[str] = Counter()
    for node in ast.walk(tree):
        words: list[str | None] = []
        if isinstance(node, ast.Name):
            words.append(node.id)
        elif isinstance(node, ast.Attribute):
            words.append(node.attr)
        elif isinstance(node, ast.keyword | ast.arg):
            words.append(node.arg)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            words.append(node.name)
        elif isinstance(node, ast.alias):
            words += [node.name.rpartition(".")[2], node.asname]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            match = None if id(node) in skip else KEYLIKE.match(node.value)
            words.append(match.group(1) if match else None)
        found.update(w for w in words if w in NAMES)
    return found


@cache
def product_uses() -> dict[str, Counter[str]]:
    out: dict[str, Counter[str]] = {}
    for package in PRODUCT:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel in ALLOWED:
                continue
            found = uses(path.read_text(encoding="utf-8"))
            if found:
                out[rel] = found
    return out


def test_the_check_sees_every_kind_of_use_and_no_prose_or_dimension_names() -> None:
    code = '''
"""The party edition's docstring: prose, never counted."""
from game.rules import komarami
import x.no_drama as no_drama
def party(no_drama: bool) -> None:
    ruleset.party  # a comment about party
    f(party=True)
    key = "variant.komarami"
    words = "the party is over"
    ruleset.no_drama_card, view.no_drama_holder, params.keep_no_drama
'''
    assert uses(code) == Counter({"komarami": 2, "no_drama": 3, "party": 3})


def test_the_editions_names_appear_only_in_the_presets_and_the_words_that_show_them() -> None:
    found = product_uses()
    new = {
        path: dict(counts - KNOWN.get(path, Counter()))
        for path, counts in found.items()
        if counts - KNOWN.get(path, Counter())
    }
    assert new == {}, (
        "Read the rule dimensions (game/rules.py DIMENSIONS), not an edition's name: "
        f"{new} (docs/develop/house-rules.md)"
    )


def test_the_known_stragglers_are_still_there_or_leave_the_list() -> None:
    found = product_uses()
    gone = {
        path: dict(counts - found.get(path, Counter()))
        for path, counts in KNOWN.items()
        if counts - found.get(path, Counter())
    }
    assert gone == {}, f"fewer uses than KNOWN lists: shrink KNOWN in {__file__}: {gone}"
