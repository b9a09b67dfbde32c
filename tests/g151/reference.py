"""Independent exact references for the 151 tests: rational arithmetic over the WHOLE state space.

Nothing here uses the pipeline's ordering of states, pair trick or turn kernel: every state (banked
scores and turn total) is an unknown of one linear system, solved exactly with fractions. Small targets
only (the systems are dense).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from exact_linear import solve_augmented

from lookup.g151.rules import UNIT, Rules

Equations = dict[object, tuple[Fraction, dict[object, Fraction]]]


def notebook_points(dice: tuple[int, int, int], straights: bool) -> int:
    """The notebook's ``_points``, transcribed (straights add 100 to the usual value)."""
    if dice[0] == dice[1] == dice[2]:
        return 700 if dice[0] == 1 else 100 * dice[0]
    s = sorted(dice)
    bonus = straights and s[1] - s[0] == 1 and s[2] - s[1] == 1
    return 100 * (dice.count(1) + bonus) + 50 * dice.count(5)


def enumerated_law(rules: Rules) -> dict[int, Fraction]:
    """Law of one roll in units, by plain enumeration of the 216 ordered outcomes."""
    law: dict[int, Fraction] = {}
    for dice in product(range(1, 7), repeat=3):
        v = notebook_points(dice, bool(rules.straights)) // UNIT
        law[v] = law.get(v, Fraction(0)) + Fraction(1, 216)
    return law


def duel_rolls(table, n: int) -> dict:
    """{(a, b, t): exact roll probability} of a duel table (policy codes 1/0, or probabilities)."""
    return {(a, b, t): Fraction(float(table[a, b, t])).limit_denominator(1000)
            for a, b in product(range(n), repeat=2) for t in range(1, n - a + 1)}


def solve(equations: Equations) -> dict[object, Fraction]:
    """Solve x_s = c_s + sum_k m_sk x_k exactly (Gauss-Jordan over fractions)."""
    keys = list(equations)
    index = {k: i for i, k in enumerate(keys)}
    size = len(keys)
    rows = []
    for k in keys:
        const, coeffs = equations[k]
        row = [Fraction(0)] * (size + 1)
        row[index[k]] += 1
        for other, m in coeffs.items():
            row[index[other]] -= m
        row[size] = const
        rows.append(row)
    x = solve_augmented(rows)
    if x is None:
        raise ValueError("the system is singular")
    return {k: x[index[k]] for k in keys}


def roll_outcomes(law: dict[int, Fraction], t: int, room: int, zero_keeps: bool):
    """(probability, kind, new total) of a roll at turn total t: kind is "on", "bank" (a 0 banks) or "fail"."""
    out = []
    for v, p in law.items():
        if v == 0:
            out.append((p, "bank" if t > 0 and zero_keeps else "fail", t))
        elif t + v <= room:
            out.append((p, "on", t + v))
        else:
            out.append((p, "fail", t))
    return out


def _add(coeffs: dict, key: object, p: Fraction) -> None:
    coeffs[key] = coeffs.get(key, Fraction(0)) + p


def solitaire_equations(rules: Rules, n: int, rolls: dict) -> Equations:
    """J(a, t): expected counted turns, this turn included; rolls[(a, t)] = probability of rolling (t > 0)."""
    law, fail_cost = enumerated_law(rules), Fraction(int(rules.failed_turns_count))
    eq: Equations = {}
    for a in range(n):
        for t in range(n - a + 1):
            q = Fraction(1) if t == 0 else Fraction(rolls[(a, t)])
            const, coeffs = Fraction(0), {}
            if q < 1:  # bank: this turn counts, then the turns from a + t
                const += (1 - q) * 1
                if a + t < n:
                    _add(coeffs, (a + t, 0), 1 - q)
            for p, kind, u in roll_outcomes(law, t, n - a, rules.zero_keeps_turn):
                w = q * p
                if kind == "on":
                    _add(coeffs, (a, u), w)
                elif kind == "bank":
                    const += w
                    if a + u < n:
                        _add(coeffs, (a + u, 0), w)
                else:
                    const += w * fail_cost
                    _add(coeffs, (a, 0), w)
            eq[(a, t)] = (const, coeffs)
    return eq


def solitaire_policy_iteration(rules: Rules, n: int) -> tuple[dict, dict]:
    """Optimal J and policy by policy iteration from scratch (start: bank at once), exactly."""
    law = enumerated_law(rules)
    fail_cost = Fraction(int(rules.failed_turns_count))
    rolls = {(a, t): 0 for a in range(n) for t in range(1, n - a + 1)}
    while True:
        j = solve(solitaire_equations(rules, n, rolls))
        jj = {**j, **{(n, 0): Fraction(0)}}
        changed = False
        for (a, t), q in rolls.items():
            bank = 1 + jj[(a + t, 0)]
            roll = Fraction(0)
            for p, kind, u in roll_outcomes(law, t, n - a, rules.zero_keeps_turn):
                roll += p * (jj[(a, u)] if kind == "on" else 1 + jj[(a + u, 0)] if kind == "bank"
                             else fail_cost + jj[(a, 0)])
            # Switch only on a strict improvement (ties keep the current action), so this terminates.
            if (q == 0 and roll < bank) or (q == 1 and bank < roll):
                rolls[(a, t)] = 1 - q
                changed = True
        if not changed:
            return j, rolls


def duel_values(rules: Rules, n: int, rolls1: dict, rolls2: dict) -> dict:
    """P(player 1 wins) from every state: keys (mover, a, b, t), a = player 1's score, b = player 2's.

    rolls1[(a, b, t)] / rolls2[(b, a, t)]: each player's probability of rolling, from its own view.
    """
    law = enumerated_law(rules)
    eq: Equations = {}
    for a, b in product(range(n), repeat=2):
        for mover in (1, 2):
            own, opp = (a, b) if mover == 1 else (b, a)
            for t in range(n - own + 1):
                q = Fraction(1) if t == 0 else Fraction((rolls1 if mover == 1 else rolls2)[(own, opp, t)])
                const, coeffs = Fraction(0), {}
                nxt = 2 if mover == 1 else 1
                banks = [(t, 1 - q)] if q < 1 else []
                for p, kind, u in roll_outcomes(law, t, n - own, rules.zero_keeps_turn):
                    if kind == "on":
                        _add(coeffs, (mover, a, b, u), q * p)
                    elif kind == "bank":
                        banks.append((u, q * p))
                    else:
                        _add(coeffs, (nxt, a, b, 0), q * p)
                for total, w in banks:  # the mover banks ``total``: wins at n, else the opponent moves
                    if own + total == n:
                        const += w if mover == 1 else 0
                    else:
                        _add(coeffs, (nxt, a + total, b, 0) if mover == 1 else (nxt, a, b + total, 0), w)
                eq[(mover, a, b, t)] = (const, coeffs)
    return solve(eq)
