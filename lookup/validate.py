"""Checks of caller input shared by every game: integers are Python ``int`` or numpy integers, never
``bool``, float or str; integer arrays have an integer dtype; real numbers are finite and bounded; seeds fit
the 64-bit generators of the kernels. Each failure is a ``ValueError`` that names the argument, and shows at
most ``SHOWN_LIMIT`` characters of the value it got (``shown``): a message never echoes a large input back.

One definition of the rule, so that ``lookup.yahtzee``, ``lookup.dicerace`` and ``lookup.g151`` accept
and refuse exactly the same things.
"""

from __future__ import annotations

from typing import Any

import numpy as np

SHOWN_LIMIT = 80  # characters of a refused value that a message repeats
SEED_MAX = 2**63 - 1  # seeds reach numba kernels as int64 (a larger int is a typing error there, not a ValueError)


def shown(value: Any, limit: int = SHOWN_LIMIT) -> str:
    """``repr(value)`` cut to about ``limit`` characters: what an error message may repeat of an input (a
    10 MB string or list must not come back whole in the message, on the command line or over HTTP)."""
    cut = isinstance(value, str | bytes | list | tuple) and len(value) > limit
    if cut:
        value = value[:limit]  # the repr of a huge string or list costs its whole length: cut first
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 (a hostile __repr__ must not replace the ValueError being worded)
        text = f"<{type(value).__name__}>"
    return f"{text[:limit]}... (cut)" if cut or len(text) > limit else text


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
                         f"got {shown(value)} ({type(value).__name__})")
    out = int(value)
    if (low is not None and out < low) or (high is not None and out > high):
        got = _int_text(out)
        if high is None:
            raise ValueError(f"{name} must be an integer >= {low}, got {got}")
        if low is None:
            raise ValueError(f"{name} must be an integer <= {high}, got {got}")
        raise ValueError(f"{name}={got} outside {low}..{high}")
    return out


def _int_text(value: int) -> str:
    """An int as a message shows it: its digits up to 30 of them, else its sign and number of digits (the
    decimal text of a huge int is long, and beyond 4,300 digits ``str`` itself refuses it)."""
    if -10**30 < value < 10**30:
        return str(value)
    return f"{'-' if value < 0 else ''}<an integer of about {int(abs(value).bit_length() * 0.30103) + 1} digits>"


def integer_sequence(values: Any, name: str, length: int, low: int, high: int,
                     item: str = "die face") -> tuple[int, ...]:
    """``values`` (a list, tuple or 1-d integer array) as a tuple of ``length`` ints in ``low..high``;
    ValueError naming ``name`` (and ``item`` for a value out of range) otherwise."""
    if isinstance(values, np.ndarray):
        values = integer_array(values, name, (length,)).tolist()
    elif not isinstance(values, list | tuple):
        raise ValueError(f"{name} must be a list or tuple of {length} integers, got {type(values).__name__}")
    if len(values) != length:
        raise ValueError(f"expected {length} {name}, got {len(values)}: {shown(list(values))}")
    out = tuple(integer(v, f"{name}[{i}]") for i, v in enumerate(values))
    bad = [v for v in out if not low <= v <= high]
    if bad:
        raise ValueError(f"{item} {_int_text(bad[0])} outside {low}..{high} in {name} {shown(list(out))}")
    return out


def integer_array(values: Any, name: str, shape: tuple[int | None, ...] | None = None) -> np.ndarray:
    """``values`` as an int64 array; ValueError naming ``name`` unless it is an array (or nested sequence)
    of integers with an integer dtype (not bool, float, str or object) and, when given, of ``shape``
    (None = any length on that axis)."""
    try:
        arr = np.asarray(values)
    except (TypeError, ValueError) as exc:  # ragged nested sequences
        raise ValueError(f"{name} must be an integer array, got an unreadable {type(values).__name__}") from exc
    if arr.size == 0 and not isinstance(values, np.ndarray):  # [] (numpy reads it as float64): no rows
        arr = np.zeros((0, *(s or 0 for s in (shape or (0,))[1:])), dtype=np.int64)
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
        raise ValueError(f"{name} must be one of {', '.join(allowed)}; got {shown(value)}")
    return value


def number(value: Any, name: str, low: float, high: float) -> float:
    """``value`` as a float; ValueError naming ``name`` unless it is a real number (int, float or numpy
    scalar; not bool, str or complex) that is finite and within ``low..high`` (inclusive). NaN and infinities
    are refused by name: ``nan >= 0`` is False, so a range check alone lets NaN through some comparisons
    and ``inf`` overflows the first ``int()`` made of it."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | float | np.integer | np.floating):
        raise ValueError(f"{name} must be a number, got {shown(value)} ({type(value).__name__})")
    try:
        out = float(value)
    except OverflowError:  # an int beyond the float range
        raise ValueError(f"{name} must be a finite number within {low:g}..{high:g}, got {shown(value)}") from None
    if out != out or out in (float("inf"), float("-inf")):
        raise ValueError(f"{name} must be a finite number, got {out}")
    if not low <= out <= high:
        raise ValueError(f"{name} must be a number within {low:g}..{high:g}, got {out:g}")
    return out


def seed(value: Any, name: str = "seed") -> int:
    """A seed of the random numbers: an integer in ``0..SEED_MAX`` (the kernels keep it in 64 bits);
    ValueError naming ``name`` otherwise."""
    return integer(value, name, 0, SEED_MAX)


def dice_text(text: str) -> tuple[int, ...]:
    """The faces of dice as people type them: one digit per die, spaces and commas between them ignored ("13356",
    "1 3 3 5 6", "1,3,3,5,6"; the command line's DICE, a roll typed on the page, a chance outcome of dice typed in
    any game: ``lookup.protocol.Game.parse_action``); ValueError naming a word that is not digits. The count and the
    faces are the caller's to check (Yahtzee: ``lookup.yahtzee.sheet.parse_dice``)."""
    faces: list[int] = []
    for token in text.replace(",", " ").split():
        if not (token.isascii() and token.isdigit()):
            raise ValueError(f"{shown(token, 20)} is not a die's face (digits, e.g. 1 3 3 5 6 or 13356)")
        faces.extend(int(c) for c in token)
    return tuple(faces)
