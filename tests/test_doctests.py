"""The examples written as doctests (``>>>``) in the query library's modules run as written: a docstring example
that raises or answers otherwise fails here."""

from __future__ import annotations

import doctest
import importlib

import pytest

from pipeline.code_deps import modules

WITH_EXAMPLES = sorted(name for name, path in modules().items()
                       if name.split(".")[0] == "lookup" and ">>> " in path.read_text())


def test_the_dominoes_example_is_a_doctest():
    assert "lookup.dominoes" in WITH_EXAMPLES  # its example raised once (the hand held the opponent's 6-6)


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_docstring_examples_run(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted and not result.failed, f"{name}: {result.failed} of {result.attempted} examples failed"
