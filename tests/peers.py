"""Test-only peer libraries (independent references): missing is a skip on a workstation, a failure in CI.

A test that compares with a peer library calls ``require("name")`` inside the test (never at module level), so
the tests of the same module that do not need it still run.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def require(module: str) -> ModuleType:
    """Import and return ``module``. When it is not installed: ``pytest.fail`` in CI (``CI=true``), where every
    test-only dependency must be present, else ``pytest.skip`` naming it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        message = f"test-only dependency {module!r} is not installed ({exc}); pip install -e '.[test]'"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
