"""Checks of caller input shared by every game: integers are Python ``int`` or numpy integers, never
``bool``, float or str; integer arrays have an integer dtype. Each failure is a ``ValueError`` that names
the argument.

One definition of the rule, so that ``lookup.yahtzee``, ``lookup.dicerace`` and ``lookup.g151`` accept
and refuse exactly the same things.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def is_integer(value: Any) -> bool:
    """True for a Python int or a numpy integer scalar; False for bool, numpy bool, float, str, ..."""
    kind = type(value)
    if kind is int:  # the common case first: one type comparison
        return True
    return kind is not bool and isinstance(value, int | np.integer)


def integer(value: Any, name: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an int; ValueError naming ``name`` unless it is an integer in ``low..high`` (inclusive,
    either bound optional)."""
    if not is_integer(value):
        raise ValueError(f"{name} must be an integer (int or numpy integer, not bool, float or str), "
                         f"got {value!r} ({type(value).__name__})")
    out = int(value)
    if (low is not None and out < low) or (high is not None and out > high):
        if high is None:
            raise ValueError(f"{name} must be an integer >= {low}, got {out}")
        if low is None:
            raise ValueError(f"{name} must be an integer <= {high}, got {out}")
        raise ValueError(f"{name}={out} outside {low}..{high}")
    return out


def integer_sequence(values: Any, name: str, length: int, low: int, high: int,
                     item: str = "die face") -> tuple[int, ...]:
    """``values`` (a list, tuple or 1-d integer array) as a tuple of ``length`` ints in ``low..high``;
    ValueError naming ``name`` (and ``item`` for a value out of range) otherwise."""
    if isinstance(values, np.ndarray):
        values = integer_array(values, name, (length,)).tolist()
    elif not isinstance(values, list | tuple):
        raise ValueError(f"{name} must be a list or tuple of {length} integers, got {type(values).__name__}")
    if len(values) != length:
        raise ValueError(f"expected {length} {name}, got {len(values)}: {list(values)!r}")
    out = tuple(integer(v, f"{name}[{i}]") for i, v in enumerate(values))
    bad = [v for v in out if not low <= v <= high]
    if bad:
        raise ValueError(f"{item} {bad[0]} outside {low}..{high} in {name} {list(out)}")
    return out


def integer_array(values: Any, name: str, shape: tuple[int | None, ...] | None = None) -> np.ndarray:
    """``values`` as an int64 array; ValueError naming ``name`` unless it is an array (or nested sequence)
    of integers with an integer dtype (not bool, float, str or object) and, when given, of ``shape``
    (None = any length on that axis)."""
    try:
        arr = np.asarray(values)
    except (TypeError, ValueError) as exc:  # ragged nested sequences
        raise ValueError(f"{name} must be an integer array, got an unreadable {type(values).__name__}") from exc
    if arr.dtype.kind not in "iu":
        raise ValueError(f"{name} must be an integer array (int or uint dtype), got dtype {arr.dtype}")
    if shape is not None and (arr.ndim != len(shape) or any(
            want is not None and got != want for got, want in zip(arr.shape, shape, strict=True))):
        shown = "(" + ", ".join("n" if s is None else str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"
        raise ValueError(f"{name} must have shape {shown}, got {arr.shape}")
    if arr.dtype == np.uint64 and arr.size and int(arr.max()) > np.iinfo(np.int64).max:
        raise ValueError(f"{name} holds values beyond the int64 range")
    return arr.astype(np.int64, copy=False)


def choice(value: Any, name: str, allowed: tuple[str, ...]) -> str:
    """``value`` when it is one of the strings ``allowed``; ValueError naming ``name`` otherwise."""
    if type(value) is not str or value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(allowed)}; got {value!r}")
    return value
