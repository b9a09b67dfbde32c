"""``njit`` without literal specialisations of calls between compiled functions.

When a compiled function calls another with a constant (``f(x, 1)``, ``f(x, False)``) or with a variable whose
first assignment is a constant (``left = -1`` before a loop that updates it), numba's type inference asks the
callee for a version typed on the literal value (``Literal[int](1)``), compiles it, and later the ``int64`` one
as well: the callee and everything it calls compiled twice or more. The dominoes engine compiled ``move_values``
(and the search under it) for ``Literal[int](-1)`` board ends and again for ``int64`` ones this way.

:func:`plain_calls` makes a dispatcher type such calls on the non-literal types, so each function compiles once
per argument types. Nothing here relies on literal dispatch (no ``numba.literally``, no tuple indexed by an
argument); the only loss is numba's pruning of a branch on a constant argument, which the compiled code then
tests at run time. It replaces ``get_call_template`` on the dispatcher instance: numba's own entry point for
typing a call to it from compiled code (``numba.core.dispatcher``), kept as is apart from the argument types.
"""

from __future__ import annotations

from typing import Any

from numba import njit as _njit
from numba.core import cgutils, types
from numba.core.errors import TypingError
from numba.extending import intrinsic


def plain_calls(dispatcher: Any) -> Any:
    """``dispatcher``, typing calls from compiled code on ``types.unliteral`` of the argument types."""
    typed = dispatcher.get_call_template

    def get_call_template(args: tuple, kws: dict) -> Any:
        return typed(tuple(types.unliteral(a) for a in args), {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


def njit(*args: Any, **options: Any) -> Any:
    """``numba.njit`` (same arguments, bare or called) whose dispatchers are :func:`plain_calls`."""
    if args and callable(args[0]):
        return plain_calls(_njit(*args, **options))
    decorate = _njit(*args, **options)
    return lambda func: plain_calls(decorate(func))


def run_chunks(kernel: Any, n: int, n_chunks: int, *args: Any, pool: Any = None) -> None:
    """``kernel(chunk, start, stop, *args)`` for the ``n_chunks`` contiguous ranges ``start .. stop - 1`` that split
    ``0 .. n - 1`` (chunk ``k`` starts at ``k * ceil(n / n_chunks)``; empty chunks are skipped), on
    ``numba.get_num_threads()`` threads, or on the threads of ``pool`` (a ``ThreadPoolExecutor`` the caller keeps
    for many short calls: starting threads costs ~0.1 ms a call). ``kernel`` must be compiled ``nogil=True`` and
    each chunk must write only its own part of the outputs.

    Why not ``prange``: a ``parallel=True`` kernel is compiled through numba's parfor passes, which type and lower
    its loop body a second time as a gufunc; for the large bodies of the game kernels that doubled their compile
    time (docs/benchmarks.md, "Test suite"), and every clone compiles them once. Chunks run on Python threads
    call the one compiled kernel with the GIL released, which is the same schedule without that cost.
    """
    import numba

    step = -(-n // max(1, n_chunks))
    ranges = [(k, k * step, min(n, (k + 1) * step)) for k in range(max(1, n_chunks)) if k * step < n]
    threads = min(numba.get_num_threads(), len(ranges))
    if threads <= 1:
        for chunk, start, stop in ranges:
            kernel(chunk, start, stop, *args)
        return
    if pool is not None:
        for future in [pool.submit(kernel, chunk, start, stop, *args) for chunk, start, stop in ranges]:
            future.result()
        return
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(threads) as pool:
        for future in [pool.submit(kernel, chunk, start, stop, *args) for chunk, start, stop in ranges]:
            future.result()


@intrinsic
def stack_floats(typingctx: Any, size: Any) -> Any:
    """A pointer to ``size`` float64 values (a compile-time constant, e.g. a module constant) in the stack frame of
    the compiled function that calls it; ``numba.carray(stack_floats(n), shape)`` views them as an array, valid
    until that function returns (never return it or keep it).

    Why: a loop that updates a small array of accumulators from loads of other arrays, e.g. ``acc[t] = max(acc[t],
    x[k, t])`` over k with a short inner t, stays scalar when ``acc`` is a heap array (numpy memory): the compiler
    cannot prove that ``acc`` and ``x`` do not overlap, and checking at run time does not pay for a loop of a few
    iterations. Stack memory of the function itself overlaps no argument or heap array, so the compiler keeps the
    accumulators in vector registers (the dice race's saddle-point lanes: three times faster,
    docs/benchmarks.md, "Dice race"). Zero-filled once per call, in the function's entry block (numba's
    ``cgutils.alloca_once``)."""
    if not isinstance(size, types.IntegerLiteral):
        raise TypingError(f"stack_floats needs a compile-time constant size, got {size}")
    count = size.literal_value

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return cgutils.alloca_once(builder, context.get_value_type(types.float64), size=count)

    return types.CPointer(types.float64)(size), codegen
