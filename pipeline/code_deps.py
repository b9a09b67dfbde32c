"""The project's import graph, read from the source with ``ast`` (nothing is imported), and the code a table
family or a report depends on: the import closure of its entry modules.

A family's artifacts are fingerprinted over the bytes of every project module that importing and running its
entry modules may execute (``pipeline.store.ArtifactSpec.code_files``), and its DVC stage lists the same files
(``pipeline.dvc_yaml``). Every import counts: at module level, inside ``if`` / ``try`` blocks, and inside
functions (a stage imports its kernels lazily, so that finding the families stays fast), as does
``importlib.import_module`` with a literal name. Importing ``a.b.c`` also runs ``a/__init__.py`` and
``a/b/__init__.py``: those are in the closure too. So a change to any module a family's code can reach changes
its fingerprint, and no hand-kept list can forget one (tests/test_code_deps.py).

Out of reach by construction: a module named at run time by a string that is not a literal (a plugin player
``module:attribute`` given in params: its code is the user's, outside the project).
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("lookup", "pipeline", "webapp")  # the project's top-level packages: everything else is not ours
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def module_file(name: str, root: Path = PROJECT_ROOT) -> Path | None:
    """The source file of project module ``name`` (a package: its ``__init__.py``), or None when ``name`` is no
    module of the project's packages."""
    parts = name.split(".")
    if parts[0] not in PACKAGES or not all(p.isidentifier() for p in parts):
        return None
    base = root.joinpath(*parts)
    for candidate in (base / "__init__.py", base.with_suffix(".py")):
        if candidate.is_file():
            return candidate
    return None


def modules(root: Path = PROJECT_ROOT) -> dict[str, Path]:
    """Every module of the project's packages, by dotted name (a package by its own name)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _deepest(full: str, root: Path) -> str | None:
    """The longest prefix of dotted ``full`` that is a project module."""
    parts = full.split(".")
    for i in range(len(parts), 0, -1):
        if module_file(".".join(parts[:i]), root) is not None:
            return ".".join(parts[:i])
    return None


def import_targets(node: ast.Import | ast.ImportFrom, name: str, is_package: bool,
                   root: Path = PROJECT_ROOT) -> set[str]:
    """The project modules an import statement in module ``name`` loads (the deepest that exists)."""
    if isinstance(node, ast.Import):
        wanted = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            here = name.split(".") if is_package else name.split(".")[:-1]
            here = here[: len(here) - (node.level - 1)]
            base = ".".join([*here, *([base] if base else [])])
        # ``from pkg import mod`` loads pkg.mod when it is a module, else a name defined in pkg.
        wanted = [f"{base}.{alias.name}" if module_file(f"{base}.{alias.name}", root) else base
                  for alias in node.names]
    return {found for full in wanted if (found := _deepest(full, root)) is not None}


def _literal_import(node: ast.AST) -> str | None:
    """``"x.y"`` of a call ``importlib.import_module("x.y")`` / ``import_module("x.y")``, else None."""
    if not isinstance(node, ast.Call) or len(node.args) != 1 or not isinstance(node.args[0], ast.Constant):
        return None
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    return node.args[0].value if called == "import_module" and isinstance(node.args[0].value, str) else None


@lru_cache(maxsize=4096)
def _edges_of(path: Path, name: str, root: Path, stamp: tuple[int, int]) -> tuple[tuple[str, bool, int], ...]:
    """(imported module, at module level, line) of every import in the file ``path`` of module ``name``; cached
    per version of the file (``stamp``: its mtime and size)."""
    tree = ast.parse(path.read_bytes(), filename=str(path))
    is_package = path.name == "__init__.py"
    edges = []

    def visit(node: ast.AST, top: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                edges.extend((t, top, child.lineno) for t in sorted(import_targets(child, name, is_package, root)))
            elif (literal := _literal_import(child)) is not None and (found := _deepest(literal, root)):
                edges.append((found, top, child.lineno))
            visit(child, top and not isinstance(child, FUNCTIONS))

    visit(tree, True)
    return tuple(edges)


def edges_of(name: str, root: Path = PROJECT_ROOT) -> tuple[tuple[str, bool, int], ...]:
    """(imported project module, at module level, line) of every import of project module ``name``."""
    path = module_file(name, root)
    if path is None:
        raise ValueError(f"{name!r} is not a module of the project (packages {', '.join(PACKAGES)})")
    st = os.stat(path)
    return _edges_of(path, name, root, (st.st_mtime_ns, st.st_size))


def imports(root: Path = PROJECT_ROOT) -> list[tuple[str, str, bool, int]]:
    """Every import edge (importer, imported, at module level, line) between modules of the project."""
    return [(name, target, top, line) for name in modules(root) for target, top, line in edges_of(name, root)]


def closure(entries: Iterable[str], root: Path = PROJECT_ROOT) -> tuple[str, ...]:
    """The files (relative to ``root``, sorted) of every project module that importing the modules ``entries``
    and running their code may execute: the entries, everything they import at any depth (inside functions
    too), and the packages each of those lives in. ValueError naming an entry that is no project module."""
    todo = list(entries)
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        parts = name.split(".")
        todo += [".".join(parts[:i]) for i in range(1, len(parts))]  # its packages run first
        todo += [target for target, _, _ in edges_of(name, root)]
    return tuple(sorted(module_file(name, root).relative_to(root).as_posix() for name in seen))  # type: ignore[union-attr]
