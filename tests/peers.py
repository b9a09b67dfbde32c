"""Peer libraries: test-only dependencies (the ``test`` extra of pyproject.toml, pinned in constraints.txt) that
some tests compare against.

``require(module_name)`` imports and returns the module. When it is missing the calling test is skipped on a
developer's machine, but fails in CI (``CI=true``), where the ``test`` extra is installed: a missing peer there is a
broken install, never a silent skip. Call it inside the tests that need the peer (not at module level), so the
tests of the same module that do not need it still run.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def require(module_name: str) -> ModuleType:
    try:
        return importlib.import_module(module_name)
    except ImportError as exc:
        message = f"test-only dependency {module_name!r} is missing (pip install -e '.[test]'): {exc}"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message, allow_module_level=True)
