"""``pipeline.jit``: a compiled call with constant arguments compiles its callee once, for the plain types; stack
arrays."""

import numba
import numpy as np
import pytest

from pipeline.jit import njit, stack_floats

CELLS = 12


def _pair(jit):
    @jit
    def callee(a, b):
        return a + b

    @jit
    def caller(n):
        left = -1  # a constant first: numba's own njit types the first calls on Literal[int](-1)
        total = 0
        for i in range(n):
            total += callee(left, i)
            left = callee(left, 1)
        return total

    return callee, caller


def test_constant_arguments_compile_the_callee_once():
    callee, caller = _pair(njit)
    assert caller(3) == 3  # -1 + 0, 0 + 1, 1 + 2
    assert [str(s) for s in callee.signatures] == ["(int64, int64)"]


def test_numba_alone_compiles_literal_versions_too():
    """The control: without plain_calls the same code compiles the callee for literal types as well."""
    callee, caller = _pair(numba.njit)
    assert caller(3) == 3
    assert len(callee.signatures) > 1 and any("Literal" in str(s) for s in callee.signatures)


def test_njit_takes_a_function_with_options_and_bare():
    def twice(x):
        return 2 * x

    assert njit(twice, cache=False)(4) == 8
    assert njit(cache=False)(twice)(5) == 10
    assert njit(twice)(6) == 12


@njit
def _running_maxima(x):
    """Maxima of the columns of x (rows of CELLS values) accumulated in a stack array, returned as a copy."""
    acc = numba.carray(stack_floats(CELLS), CELLS)
    acc[:] = -np.inf
    for k in range(x.shape[0]):
        for t in range(CELLS):
            acc[t] = x[k, t] if x[k, t] > acc[t] else acc[t]
    return acc.copy()


def test_stack_floats_is_a_working_array_of_constant_size():
    x = np.random.default_rng(0).normal(size=(50, CELLS))
    assert np.array_equal(_running_maxima(x), x.max(axis=0))

    @njit
    def variable_size(n):
        return numba.carray(stack_floats(n), n).sum()

    with pytest.raises(numba.core.errors.TypingError, match="compile-time constant"):
        variable_size(3)
