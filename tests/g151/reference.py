"""Independent exact references for the 151 tests: rational arithmetic over the WHOLE state space.

Nothing here uses the pipeline's ordering of states, pair trick or turn kernel: every state (banked
scores and turn total) is an unknown of one linear system, solved exactly with fractions. Small targets
only (the systems are dense).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from exact_linear import solve_augmented

from lookup.g151.rules import UNIT, Rules, get_rules

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
    return solve(duel_equations(rules, n, rolls1, rolls2))


def solve_float(equations: Equations) -> dict[object, float]:
    """The same system as ``solve``, in floating point (numpy): for sizes the fractions cannot afford."""
    import numpy as np

    keys = list(equations)
    index = {k: i for i, k in enumerate(keys)}
    a = np.eye(len(keys))
    c = np.zeros(len(keys))
    for k, (const, coeffs) in equations.items():
        c[index[k]] = float(const)
        for other, m in coeffs.items():
            a[index[k], index[other]] -= float(m)
    x = np.linalg.solve(a, c)
    return {k: float(x[index[k]]) for k in keys}


def duel_equations(rules: Rules, n: int, rolls1: dict, rolls2: dict) -> Equations:
    """The equations of ``duel_values``."""
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
    return eq


def turn_gains(rules: Rules, n: int, own: int, roll_on) -> dict[int, Fraction]:
    """{units banked: probability} of one whole turn from banked score ``own``, the player rolling again at turn
    total t > 0 iff ``roll_on(own, t)`` (the first roll is forced). Turn totals only grow, so the law is a
    forward pass over them: no linear system, no policy table."""
    law = enumerated_law(rules)
    gains: dict[int, Fraction] = {}
    reach = {0: Fraction(1)}  # probability of standing at turn total t, about to decide
    for t in range(n - own + 1):
        p_here = reach.pop(t, Fraction(0))
        if not p_here:
            continue
        if t > 0 and not roll_on(own, t):
            gains[t] = gains.get(t, Fraction(0)) + p_here
            continue
        for p, kind, u in roll_outcomes(law, t, n - own, rules.zero_keeps_turn):
            if kind == "on":
                reach[u] = reach.get(u, Fraction(0)) + p_here * p
            else:  # a 0 that banks keeps t; a failed roll banks nothing
                g = u if kind == "bank" else 0
                gains[g] = gains.get(g, Fraction(0)) + p_here * p
    return gains


def turn_by_turn_duel(rules: Rules, n: int, roll_on1, roll_on2) -> Fraction:
    """P(player 1 wins | player 1 moves first) of two fixed strategies, by backward induction over banked
    scores with whole turns as steps (turn_gains); a turn that banks nothing leaves the scores, so each pair of
    scores is one 2 x 2 system, solved in closed form. Independent of pipeline.g151 and of duel_values."""
    t1 = [turn_gains(rules, n, a, roll_on1) for a in range(n)]
    t2 = [turn_gains(rules, n, b, roll_on2) for b in range(n)]
    first: dict[tuple[int, int], Fraction] = {}  # player 1 to move
    second: dict[tuple[int, int], Fraction] = {}  # player 2 to move
    for a in range(n - 1, -1, -1):
        for b in range(n - 1, -1, -1):
            # first = s1 * second(a, b) + r1 ; second = s2 * first(a, b) + r2
            s1, s2 = t1[a].get(0, Fraction(0)), t2[b].get(0, Fraction(0))
            r1 = sum((p * (1 if a + g == n else second[(a + g, b)]) for g, p in t1[a].items() if g), Fraction(0))
            r2 = sum((p * (0 if b + g == n else first[(a, b + g)]) for g, p in t2[b].items() if g), Fraction(0))
            first[(a, b)] = (r1 + s1 * r2) / (1 - s1 * s2)
            second[(a, b)] = s2 * first[(a, b)] + r2
    return first[(0, 0)]


def un_coup_against_jusquau_bout(n: int, rules: str = "notebook") -> Fraction:
    """The notebook's match-up (under its own rules by default): unCoup (one roll a turn, then bank) moving first
    against jusquauBout (rolls until its turn total reaches the target exactly), written from their definitions."""
    return turn_by_turn_duel(get_rules(rules), n, lambda own, t: False, lambda own, t: own + t < n)
