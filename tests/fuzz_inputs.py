"""Hypothesis strategies and outcome checks shared by the public-API fuzz tests of every game
(tests/*/test_*_fuzz.py).

Each fuzzed call draws its arguments valid, then (sometimes) replaces ONE of them by a value that is wrong
for it (junk: bools, floats, NaN, strings, numpy scalars of every kind, arrays, containers, objects; or an
integer out of range). The test knows which case it built and says what must happen:

- ``answer``: every argument valid and the table built: an answer, never an exception;
- ``refused``: one argument wrong: a ValueError that is not an ``ArtifactError`` and whose message names the
  problem (the argument);
- ``missing``: every argument valid but naming a table this test deliberately did not build: an error that
  says the table is not built.

An ``ArtifactError`` (missing or broken table) anywhere else fails the test, and so does any other exception.
A sample of the answers is compared with each game's slow reference (see ``Sample``).

Example counts are set per test with ``examples(ci=..., dev=...)`` so that each game's fuzz tests stay within
about 20 CPU-seconds in the CI profile (tests/conftest.py: CI=true).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from lookup.errors import ArtifactError

JUNK_POOL = [
    None, True, False, np.bool_(True), 2.0, 1.5, -0.0, float("nan"), float("inf"), -float("inf"), np.float64(3.0),
    np.float32(1.5), np.float16(2), "2", "", "ones", "../../x", b"3", 2**70, -(2**70), 2**63, np.uint64(2**64 - 1),
    np.int8(-128), [3], [], (1, 2), {"a": 1}, {1, 2}, np.array(3), np.array([3]), np.array([[1.5]]), np.array([]),
    np.array(["1"]), 1j, Decimal("2"), Fraction(3, 1), object(), range(5), ...,
]
JUNK = st.sampled_from(JUNK_POOL)

IN_CI = os.environ.get("CI", "").lower() == "true"  # the profile tests/conftest.py loads


def examples(ci: int, dev: int) -> settings:
    """The example count of one fuzz test: ``ci`` in the CI profile, ``dev`` locally (each measured so that
    a game's fuzz tests cost at most about 20 CPU-seconds in CI)."""
    return settings(max_examples=ci if IN_CI else dev, deadline=None, derandomize=IN_CI,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def is_int(value: Any, low: int | None = None, high: int | None = None) -> bool:
    """The documented integer rule (docs: a Python int or numpy integer, never a bool), in low..high."""
    if type(value) is bool or not isinstance(value, int | np.integer):
        return False
    return (low is None or int(value) >= low) and (high is None or int(value) <= high)


@lru_cache(maxsize=512)
def integers(low: int, high: int) -> st.SearchStrategy:
    """Python ints and numpy integers of several dtypes in low..high (cached: Hypothesis reads the source of a
    filter's lambda each time a filtered integer strategy is made, about 0.2 ms)."""
    base = st.integers(low, high)
    return st.one_of(base, base.map(np.int64), base.filter(lambda x: -(2**31) <= x < 2**31).map(np.int32),
                     base.filter(lambda x: 0 <= x < 2**16).map(np.uint16))


def bad_integer(low: int | None, high: int | None, extra: Iterable[Any] = ()) -> st.SearchStrategy:
    """Values that are not an integer in low..high: half the time an integer just outside the range (the edge a
    validator gets wrong), else junk or one of ``extra``."""
    outside = [v for v in (None if low is None else low - 1, None if high is None else high + 1) if v is not None]
    junk = st.sampled_from([v for v in JUNK_POOL if not is_int(v, low, high)] + list(extra))
    if not outside:
        return junk
    return st.one_of(st.sampled_from(outside).flatmap(lambda v: st.sampled_from([v, np.int64(v)])), junk)


def bad_choice(allowed: Iterable[Any]) -> st.SearchStrategy:
    """Junk that is none of ``allowed`` (strings compared by value)."""
    allowed = list(allowed)
    return st.sampled_from([v for v in [*JUNK_POOL, "Sequential", "nope"]
                            if not any(type(v) is type(a) and v == a for a in allowed)])


def one_wrong(draw: Callable, valid: dict[str, Any], bad: dict[str, st.SearchStrategy],
              every: int = 3) -> tuple[dict[str, Any], str | None]:
    """``valid`` (drawn valid arguments) with, one time in ``every``, one of the arguments named in ``bad``
    replaced by a draw of its wrong values; returns (arguments, name of the wrong one or None)."""
    if draw(st.integers(0, every - 1)) != 0:
        return valid, None
    name = draw(st.sampled_from(sorted(bad)))
    return {**valid, name: draw(bad[name])}, name


def _call(fn: Callable[..., Any], args: tuple, kwargs: dict) -> str:
    return f"{getattr(fn, '__qualname__', fn)}(*{args!r}, **{kwargs!r})"


def answer(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)`` on valid input with its table built: the answer; any exception fails."""
    try:
        return fn(*args, **kwargs)
    except ArtifactError as exc:
        pytest.fail(f"{_call(fn, args, kwargs)}: the table is missing or broken: {exc}")
    except ValueError as exc:
        pytest.fail(f"{_call(fn, args, kwargs)} refused a valid input: {exc}")


def refused(fn: Callable[..., Any], *args: Any, names: Iterable[str], **kwargs: Any) -> str:
    """``fn`` must refuse with a plain ValueError (not an ArtifactError) whose message contains one of
    ``names`` (case-insensitive: the wrong argument, or what is wrong with it); returns the message."""
    names = tuple(names)
    try:
        got = fn(*args, **kwargs)
    except ArtifactError as exc:
        pytest.fail(f"{_call(fn, args, kwargs)}: a missing/broken table ({exc}), not a refusal of the input")
    except ValueError as exc:
        message = str(exc)
        assert any(n.lower() in message.lower() for n in names), (
            f"{_call(fn, args, kwargs)}: the message {message!r} names none of {names}")
        return message
    pytest.fail(f"{_call(fn, args, kwargs)} accepted a wrong input; answered {got!r}")


MISSING = re.compile(r"not built")


def missing(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> str:
    """``fn`` is asked (with valid input) for a table the test did not build: the error must say so."""
    try:
        got = fn(*args, **kwargs)
    except ArtifactError as exc:  # every game reports a table it does not have as a missing artifact
        assert MISSING.search(str(exc)), f"{_call(fn, args, kwargs)}: {exc!r} does not say the table is not built"
        return str(exc)
    pytest.fail(f"{_call(fn, args, kwargs)} answered {got!r} for a table that is not built")


class Sample:
    """Which answers to compare with a slow reference: about one in ``every``, chosen by a draw of the example
    (so that Hypothesis replays and shrinks a failing check as it found it)."""

    def __init__(self, every: int) -> None:
        self.every = every

    def __call__(self, draw: Callable) -> bool:
        return draw(st.integers(0, self.every - 1)) == 0


NAN, INF, HUGE = float("nan"), float("inf"), 2**70
# Wrong types and values every integer argument of a game's entry points must refuse with a ValueError.
JUNK_INTS = (None, True, 1.5, NAN, INF, -INF, HUGE, -HUGE, "2", "", [1], object())


def refusals(calls: Iterable[tuple[str, Callable[[], Any]]]) -> list[str]:
    """Each (label, call) that does NOT raise a ValueError with a message (a TypeError, KeyError or IndexError that
    is also a ValueError counts as a failure: it says the wrong thing), described; [] when every call is refused
    as it must be."""
    failures = []
    for label, call in calls:
        try:
            got = call()
        except ValueError as exc:
            if not str(exc).strip():
                failures.append(f"{label}: ValueError without a message")
            elif isinstance(exc, TypeError | KeyError | IndexError):
                failures.append(f"{label}: {type(exc).__name__} (also a ValueError): {exc}")
        except Exception as exc:  # noqa: BLE001 (what escapes is the finding)
            failures.append(f"{label}: {type(exc).__name__}: {exc}")
        else:
            failures.append(f"{label}: no error, answered {got!r:.80}")
    return failures
