"""Hypothesis strategies shared by the public-API fuzz tests of every game (tests/*/test_*_fuzz.py): each
argument is drawn from valid values or from junk (bools, floats, NaN, strings, numpy scalars of every
kind, arrays, containers, objects). Only ValueError (ArtifactError is one) may escape an API.

Junk is sampled from a fixed pool (cheap to draw: CI runs 10,000 examples per API); valid integers come
as Python ints and as numpy integers of several dtypes.
"""

from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import strategies as st

JUNK_POOL = [
    None, True, False, np.bool_(True), 2.0, 1.5, -0.0, float("nan"), float("inf"), -float("inf"), np.float64(3.0),
    np.float32(1.5), np.float16(2), "2", "", "ones", "../../x", b"3", 2**70, -(2**70), 2**63, np.uint64(2**64 - 1),
    np.int8(-128), [3], [], (1, 2), {"a": 1}, {1, 2}, np.array(3), np.array([3]), np.array([[1.5]]), np.array([]),
    np.array(["1"]), 1j, Decimal("2"), Fraction(3, 1), object(), range(5), ...,
]
JUNK = st.sampled_from(JUNK_POOL)


def integers(low: int, high: int) -> st.SearchStrategy:
    """Python ints and numpy integers of several dtypes in low..high."""
    base = st.integers(low, high)
    return st.one_of(base, base.map(np.int64), base.map(np.int32), base.filter(lambda x: x >= 0).map(np.uint16))


def arg(valid: st.SearchStrategy) -> st.SearchStrategy:
    """Mostly valid (3 in 4), else junk."""
    return st.one_of(valid, valid, valid, JUNK)


def only_value_errors(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
    """Call ``fn``; a ValueError (bad input, bad artifact) is the only acceptable failure."""
    try:
        fn(*args, **kwargs)
    except ValueError:
        pass
