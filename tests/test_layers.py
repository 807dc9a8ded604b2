"""The layers: imports point one way (cogs → front end → service → game and data), no
import circle runs, and each layer loads only what it needs."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The packages whose imports are checked: the product, and what runs beside it.
PACKAGES = ("game", "data", "bot", "cogs", "testkit", "benchmarks", "scripts")
#: Modules over this many lines are too long to read at once; generated tables and
#: translation catalogs are data, not code.
MAX_LINES = 500
LONG_DATA = frozenset(
    {
        "game/ai/normal_tables.py",
        "bot/i18n/en.py",
        "bot/i18n/de.py",
        "bot/i18n/es.py",
        "bot/i18n/pl.py",
    }
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[module_name(path)] = path
    return found


MODULES = sources()


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import that runs: at the top, in functions, anywhere but under TYPE_CHECKING."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _type_checking(node):
            yield from (n for child in node.orelse for n in _imports_in(child))
            continue
        yield from _imports_in(node)


def _imports_in(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node
        return
    yield from _imports(node)


def imported(name: str, path: Path) -> set[str]:
    """The modules ``name`` imports (a ``from package import module`` counts the module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in _imports(tree):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
            continue
        base = node.module or ""
        if node.level:
            anchor = package.split(".")
            anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join([*anchor, base] if base else anchor)
        for alias in node.names:
            whole = f"{base}.{alias.name}"
            targets.add(whole if whole in MODULES else base)
    return targets


GRAPH = {name: imported(name, path) for name, path in MODULES.items()}


def inside(target: str, *layers: str) -> bool:
    return any(target == layer or target.startswith(layer + ".") for layer in layers)


def offenders(sources: tuple[str, ...], forbidden: tuple[str, ...]) -> list[str]:
    return sorted(
        f"{name} imports {target}"
        for name, targets in GRAPH.items()
        if inside(name, *sources)
        for target in targets
        if inside(target, *forbidden)
    )


def circles() -> list[list[str]]:
    """The strongly connected parts of the import graph with more than one module
    (Tarjan), or a module importing itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in GRAPH.get(node, ()):
            if target not in MODULES:
                continue
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                part.append(top)
                if top == node:
                    break
            if len(part) > 1 or node in GRAPH.get(node, ()):
                found.append(sorted(part))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for name in MODULES:
        if name not in index:
            visit(name)
    return found


def test_no_import_circle_runs() -> None:
    assert circles() == []


@pytest.mark.parametrize(
    ("sources", "forbidden"),
    [
        # The engine is pure: the standard library only.
        (("game",), ("data", "bot", "cogs", "testkit", "discord", "PIL", "aiosqlite")),
        # The store stores: it draws nothing and knows no Discord.
        (("data",), ("bot", "cogs", "testkit", "discord", "PIL")),
        # The service knows no Discord and no front end above it.
        (("bot.service",), ("discord", "bot.frontend", "bot.client", "cogs", "PIL")),
        # The front end is below the cogs and the client.
        (("bot.frontend",), ("cogs", "bot.client", "bot.__main__")),
        # Drawing is below everything that shows it.
        (("bot.art",), ("bot.service", "bot.frontend", "bot.client", "cogs", "discord")),
        # Cogs are loaded by name: nothing imports them, and they don't import the client.
        (("cogs",), ("bot.client", "bot.__main__")),
        (("game", "data", "bot", "testkit", "benchmarks", "scripts"), ("cogs",)),
        # Nothing but the tests imports the tests.
        (PACKAGES, ("tests",)),
    ],
)
def test_imports_point_one_way(sources: tuple[str, ...], forbidden: tuple[str, ...]) -> None:
    assert offenders(sources, forbidden) == []


def test_modules_are_short_enough_to_read() -> None:
    long = {
        str(path.relative_to(ROOT)): lines
        for path in MODULES.values()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert {path: n for path, n in long.items() if path not in LONG_DATA} == {}


def first_line(path: Path) -> str | None:
    """The first line of a module's docstring, or None without one."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    return doc.splitlines()[0].strip() if doc else None


def test_every_module_says_its_job_in_its_first_line() -> None:
    """A sentence of its own on the first line, so a listing of first lines is a map."""
    silent = sorted(
        f"{path.relative_to(ROOT)}: {line!r}"
        for path in MODULES.values()
        if path.stat().st_size
        and ((line := first_line(path)) is None or not line.endswith((".", ":", "?", "!")))
    )
    assert silent == []


def test_nothing_edits_the_import_path() -> None:
    edits = sorted(
        str(path.relative_to(ROOT))
        for path in MODULES.values()
        if "sys.path.insert" in path.read_text(encoding="utf-8")
        or "sys.path.append" in path.read_text(encoding="utf-8")
    )
    assert edits == []


@pytest.mark.parametrize(
    ("module", "absent"),
    [("bot.service", "discord"), ("data", "discord"), ("data", "PIL"), ("game", "discord")],
)
def test_a_layer_loads_only_what_it_needs(module: str, absent: str) -> None:
    probe = f"import {module}, sys; print({absent!r} in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def _forwards(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a method only hands on to one part: its body (past a docstring) one
    ``[return] [await] self.<part>.<name>[(...)]``."""
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ast.Return | ast.Expr):
        return False
    value = body[0].value
    if isinstance(value, ast.Await):
        value = value.value
    if isinstance(value, ast.Call):
        value = value.func
    return (
        isinstance(value, ast.Attribute)
        and isinstance(value.value, ast.Attribute)
        and isinstance(value.value.value, ast.Name)
        and value.value.value.id == "self"
    )


def test_the_service_forwards_nothing_its_parts_answer() -> None:
    """``GameService`` keeps only what spans several parts: a one-line forwarder would
    make every new operation touch the part, the facade and the cog. Call the part
    (``service.lobbies.join``), as the store's callers call ``store.games``."""
    tree = ast.parse((ROOT / "bot/service/service.py").read_text(encoding="utf-8"))
    (service,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "GameService"]
    forwarders = sorted(
        node.name
        for node in service.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and not node.name.startswith("_")
        and _forwards(node)
    )
    assert forwarders == []


#: The front end: the cogs and ``bot.frontend``, which reach the store only through the
#: service's parts (``service.stats``, ``service.ratings``, ``service.exports``, …).
FRONT_END = ("cogs", "bot.frontend")
#: What the front end may import of ``data``: the records and constants it shows.
DATA_TYPES = frozenset({"data", "data.records"})


def _trees(*layers: str) -> Iterator[tuple[str, ast.AST]]:
    for name, path in MODULES.items():
        if inside(name, *layers):
            yield name, ast.parse(path.read_text(encoding="utf-8"))


def test_the_front_end_imports_no_store_module() -> None:
    """One road for reads: the front end imports of ``data`` only its records; a store
    part (``data.stats``, ``data.ratings``, ``data.export``, …) it reaches through the
    service, whose parts refuse with ``ServiceError``."""
    assert [
        f"{name} imports {target}"
        for name, targets in GRAPH.items()
        if inside(name, *FRONT_END)
        for target in sorted(targets)
        if inside(target, "data") and target not in DATA_TYPES
    ] == []


def test_the_front_end_catches_one_error_type() -> None:
    """A store failure reaches the front end as a ``ServiceError`` (a refusal it can
    show), never as a ``StoreError``."""
    assert [
        f"{name} imports StoreError"
        for name, tree in _trees(*FRONT_END)
        for node in _imports(tree)
        if isinstance(node, ast.ImportFrom)
        and any(alias.name == "StoreError" for alias in node.names)
    ] == []


def test_the_front_end_reaches_no_store_part() -> None:
    """No ``….store.<part>`` in the front end: the games, stats, ratings and export are
    the service's parts' to read. Only the shard leases (which process uploads the
    emojis) are asked of the store itself."""
    reached = sorted(
        f"{name}: .store.{node.attr}"
        for name, tree in _trees(*FRONT_END)
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "store"
        and node.attr != "leases"
    )
    assert reached == []


def test_store_error_has_one_import_path() -> None:
    """Outside the store, ``StoreError`` is imported from ``data`` and nowhere else."""
    outside = [p for p in MODULES.values() if not inside(module_name(p), "data")]
    outside += sorted((ROOT / "tests").rglob("*.py"))
    elsewhere = sorted(
        f"{path.relative_to(ROOT)} imports it from {node.module}"
        for path in outside
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom)
        and node.module != "data"
        and any(alias.name == "StoreError" for alias in node.names)
    )
    assert elsewhere == []


#: The parts that read finished games for people to see: the store's, and the service's
#: the front end calls. Each public read takes the reader's ``sight``; a read that needs
#: none is named here, with why.
SIGHTED_READS = {
    "data.stats": "StatsReads",
    "data.ratings": "RatingReads",
    "data.export": "ExportReads",
    "bot.service.history.stats": "Stats",
    "bot.service.ratings.boards": "RatingBoards",
    "bot.service.history.export": "Exports",
}
NO_SIGHT = {
    "StatsReads.finished_channels": "the channels a sight is made of",
    "Stats.finished_channels": "the channels a sight is made of",
    "StatsReads.chip_history": "one game, read once its channel was checked in a sight",
    "Stats.finished_chips": "one game, read once its channel was checked in a sight",
    "RatingReads.rating_changes": "one game's, shown at its own table",
    "RatingReads.rated_seasons": "the keys of seasons, no game nor person",
    "RatingBoards.rated_seasons": "the keys of seasons, no game nor person",
    "RatingReads.season_plans": "a server's plans, no game nor person",
    "RatingReads.has_ratings": "whether a board has anyone, no game nor person",
    "RatingBoards.has_ratings": "whether a board has anyone, no game nor person",
}


def _public_functions(
    tree: ast.AST,
) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every public function and method of a module, named ``Class.method`` or ``function``."""
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.ClassDef):
            named = [(f"{node.name}.{f.name}", f) for f in node.body if isinstance(f, functions)]
        elif isinstance(node, functions):
            named = [(node.name, node)]
        else:
            continue
        yield from ((name, f) for name, f in named if not f.name.startswith("_"))


def _required_sight(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether ``sight`` is a keyword-only argument without a default."""
    arguments = function.args
    return any(
        arg.arg == "sight" and default is None
        for arg, default in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True)
    )


def test_every_read_of_finished_games_takes_a_sight() -> None:
    """Privacy can't be forgotten: a new read of finished games (a new method of a part
    above) fails here until it takes the reader's ``sight``, keyword-only with no
    default: ``sight=seen.sight`` for a person, ``sight=EVERYTHING`` said out loud for
    what no person is shown. Else a read that forgets shows private channels' games."""
    blind = []
    for module, part in SIGHTED_READS.items():
        tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
        methods = [(n, f) for n, f in _public_functions(tree) if n.startswith(f"{part}.")]
        assert methods, f"{module} has no {part}"
        blind += [
            f"{module}: {name}"
            for name, function in methods
            if name not in NO_SIGHT
            and function.name != "__init__"
            and not _required_sight(function)
        ]
    assert blind == []


def test_a_sight_is_never_optional() -> None:
    """Wherever a public function takes a ``sight``, the caller says which: keyword-only,
    no default (``None`` once meant no filter at all)."""
    optional = sorted(
        f"{name}: {qualified}"
        for name, path in MODULES.items()
        for qualified, function in _public_functions(ast.parse(path.read_text(encoding="utf-8")))
        if any(arg.arg == "sight" for arg in (*function.args.args, *function.args.kwonlyargs))
        and not _required_sight(function)
    )
    assert optional == []
