"""Pig solved again by another method, in exact rationals: for a given roll / hold policy, every turn's value is a
linear form in the turn-start values W(i, j) of all pairs of scores; the whole system (every W at once) is solved
by Gaussian elimination over Fractions, then every state's two actions are compared exactly. Independent of the
solver's pair-by-pair policy iteration in floats (pipeline/pig/solve.py)."""

from __future__ import annotations

from fractions import Fraction

Form = dict  # {(i, j): coefficient of W(i, j), None: constant}


def _add(a: Form, b: Form, scale: Fraction = Fraction(1)) -> Form:
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, Fraction(0)) + scale * v
    return out


def solve_policy(target: int, rolls: dict[tuple[int, int, int], bool], faces: int = 6) -> dict:
    """W(i, j) exactly for the policy ``rolls[(i, j, k)]`` (True: roll on at turn total k >= 2)."""
    p = Fraction(1, faces)
    n = target
    pairs = [(i, j) for i in range(n) for j in range(n)]

    def turn(i: int, j: int, k: int) -> Form:
        """The mover's value at turn total k (k = 0: must roll) as a form over the W's."""
        if i + k >= n:
            return {None: Fraction(1)}
        if k and not rolls[(i, j, k)]:
            return {None: Fraction(1), (j, i + k): Fraction(-1)}
        form = _add({None: p}, {(j, i): -p})
        for f in range(2, faces + 1):
            form = _add(form, memo(i, j, k + f), p)
        return form

    cache: dict = {}

    def memo(i: int, j: int, k: int) -> Form:
        if (i, j, k) not in cache:
            cache[(i, j, k)] = turn(i, j, k)
        return cache[(i, j, k)]

    index = {pair: r for r, pair in enumerate(pairs)}
    rows = []
    for i, j in pairs:  # W(i, j) - form = 0
        form = memo(i, j, 0)
        row = [Fraction(0)] * (len(pairs) + 1)
        row[index[(i, j)]] += 1
        for key, v in form.items():
            if key is None:
                row[-1] += v
            else:
                row[index[key]] -= v
        rows.append(row)
    values = _gauss(rows)
    return {pair: values[index[pair]] for pair in pairs}


def _gauss(rows: list[list[Fraction]]) -> list[Fraction]:
    m = len(rows)
    for c in range(m):
        pivot = next(r for r in range(c, m) if rows[r][c] != 0)
        rows[c], rows[pivot] = rows[pivot], rows[c]
        lead = rows[c][c]
        rows[c] = [v / lead for v in rows[c]]
        for r in range(m):
            if r != c and rows[r][c] != 0:
                factor = rows[r][c]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[c], strict=True)]
    return [row[-1] for row in rows]


def action_values(target: int, w: dict, faces: int = 6) -> dict[tuple[int, int, int], tuple[Fraction, Fraction]]:
    """Exact (roll, hold) values of every decision state (k >= 2) given the exact W's of a policy, the state's
    own later choices taken as the better one (so that the policy is optimal iff it picks the larger)."""
    p = Fraction(1, faces)
    n = target
    best: dict = {}
    out = {}
    for i in range(n):
        for j in range(n):
            for k in range(n - 1 - i, 1, -1):
                after = [Fraction(1) if i + k + f >= n else best[(i, j, k + f)] for f in range(2, faces + 1)]
                roll = p * (1 - w[(j, i)]) + p * sum(after)
                hold = 1 - w[(j, i + k)] if i + k < n else Fraction(1)
                out[(i, j, k)] = (roll, hold)
                best[(i, j, k)] = max(roll, hold)
    return out
