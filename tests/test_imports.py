"""Imports flow one way: no circles in ``lookup``, ``pipeline`` and ``webapp``, and the layering holds.

The import graph is read from the source (``ast``, ``pipeline.code_deps``: the reader that also makes every
table family's code dependencies), not by importing it, so that every import counts, also those inside
functions, and nothing runs. Why not grimp / import-linter: they do not tell an import
at module level from one inside a function, and the two rules below need that distinction.

What is checked (docs/adding_a_game.md, "Layering"):

1. **Module level**: no circle among the modules when only the imports that run at import time count
   (module and class bodies, including ``if`` / ``try`` blocks there). Importing ``a.b.c`` also runs
   ``a/__init__`` and ``a/b/__init__``, so those count as imported too, except the importer's own
   packages (already running when it is imported).
2. **Rooms, every import**: with imports inside functions counted too, no circle between *rooms*: a room
   is a game package (``lookup.<game>``, ``pipeline.<game>``, ``pipeline.yahtzee_lab``) or a top-level
   module (``pipeline.family``, ``pipeline.registry``, ``lookup.store``, ...). A lazy import inside a room
   (``players`` -> ``tuning`` in the lab, to load Perturbation's weights only when asked) is allowed.
3. ``pipeline.family`` imports no game; no game module imports ``pipeline.registry`` or ``pipeline.cli``
   (they list the games); one game never imports another (a lab is part of its game); ``lookup`` never
   imports ``pipeline`` (tests/test_layering.py checks its third-party imports at run time);
   ``pipeline.declaration`` imports no game (it finds them by name); ``webapp`` (the web app) imports
   ``lookup`` only, never ``pipeline`` (``dicetables serve`` names it by a string).
"""

from __future__ import annotations

import ast
from pathlib import Path

from pipeline.code_deps import import_targets, imports, modules

ROOT = Path(__file__).resolve().parent.parent


def _with_packages(edges: list[tuple[str, str, bool, int]], known: set[str]) -> list[tuple[str, str, bool, int]]:
    """Add the packages an import runs (a.b for a.b.c), except the importer's own (already running)."""
    out = []
    for a, b, top, line in edges:
        own = {".".join(a.split(".")[:i]) for i in range(1, a.count(".") + 2)}
        parts = b.split(".")
        for i in range(1, len(parts) + 1):
            target = ".".join(parts[:i])
            if target in known and target not in own and target != a:
                out.append((a, target, top, line))
    return out


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one node, or a node importing itself (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph.get(v, ()):
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return found


def room(module: str) -> str:
    """The room of a module: its game package (``pipeline.yahtzee``), else the module itself."""
    parts = module.split(".")
    return ".".join(parts[:2])


def graphs(root: Path = ROOT) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(module-level graph of modules, every-import graph of rooms)."""
    known = set(modules(root))
    edges = _with_packages(imports(root), known)
    module_level: dict[str, set[str]] = {m: set() for m in known}
    rooms: dict[str, set[str]] = {room(m): set() for m in known}
    for a, b, top, _ in edges:
        if top:
            module_level[a].add(b)
        if room(a) != room(b):
            rooms[room(a)].add(room(b))
    return module_level, rooms


def test_no_circle_between_modules_at_import_time():
    module_level, _ = graphs()
    assert circles(module_level) == []


def test_no_circle_between_rooms_counting_imports_inside_functions():
    _, rooms = graphs()
    assert circles(rooms) == []


def _game_packages() -> set[str]:
    return {m for m in modules() if m.startswith("pipeline.") and (ROOT / m.replace(".", "/")).is_dir()}


# Packages that serve every game through its lookup API (the web app): shared, not a game.
CALLERS_OF_EVERY_GAME = {"webapp"}


def _game(module: str) -> str | None:
    """The game a module belongs to (a lab belongs to its game), or None for shared modules."""
    parts = module.split(".")
    if len(parts) < 2 or not (ROOT / parts[0] / parts[1]).is_dir() or parts[0] in CALLERS_OF_EVERY_GAME:
        return None
    return parts[1].removesuffix("_lab")


def test_layering():
    games = _game_packages()
    assert {"pipeline.yahtzee", "pipeline.yahtzee_lab", "pipeline.dicerace", "pipeline.g151"} <= games
    assert {"webapp.app", "webapp.routes.yahtzee"} <= set(modules())  # the web app is checked too
    wrong = []
    for a, b, _, line in imports():
        where = f"{a} (line {line}) imports {b}"
        if a in ("pipeline.family", "pipeline.declaration") and room(b) in games:
            wrong.append(f"{where}: {a} imports no game")
        if room(a) in games and b in ("pipeline.registry", "pipeline.cli"):
            wrong.append(f"{where}: games never import the registry or the top-level CLI")
        if a.split(".")[0] == "lookup" and b.split(".")[0] != "lookup":
            wrong.append(f"{where}: lookup never imports pipeline nor webapp")
        if a.split(".")[0] == "webapp" and b.split(".")[0] not in ("webapp", "lookup"):
            wrong.append(f"{where}: webapp imports lookup only")
        if _game(a) and _game(b) and _game(a) != _game(b):
            wrong.append(f"{where}: one game never imports another")
    assert wrong == []


def test_the_checks_find_a_circle(tmp_path):
    """The graph code itself: a lazy import back into the registry from a game is a circle between rooms."""
    graph = {"pipeline.registry": {"pipeline.g151"}, "pipeline.g151": {"pipeline.family", "pipeline.registry"},
             "pipeline.family": set()}
    assert circles(graph) == [["pipeline.g151", "pipeline.registry"]]
    assert circles({"a": {"a"}}) == [["a"]]
    assert circles({"a": {"b"}, "b": set()}) == []
    tree = ast.parse("from . import x\nfrom .y import z\nimport lookup.q.r\ndef f():\n    from ..w import v\n")
    root = tmp_path
    for module in ("lookup/__init__", "lookup/a/__init__", "lookup/a/x", "lookup/a/y", "lookup/w", "lookup/q/__init__"):
        (root / f"{module}.py").parent.mkdir(parents=True, exist_ok=True)
        (root / f"{module}.py").write_text("")
    found = [import_targets(n, "lookup.a.m", False, root) for n in ast.walk(tree)
             if isinstance(n, ast.Import | ast.ImportFrom)]
    assert found == [{"lookup.a.x"}, {"lookup.a.y"}, {"lookup.q"}, {"lookup.w"}]
