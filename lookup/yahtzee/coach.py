"""The coach view: for each keep of a turn, the exact probability of ending the turn with each box made.

For the dice on the table with 1 or 2 rerolls left, every distinct keep is followed by optimal play for
the rest of the turn (the same reroll choices as ``decide``, from the value table). The turn ends with a
final roll; for each box this module gives

* ``made[c]``: the probability that the final roll *makes* box c, i.e. scores more than 0 in it under
  normal scoring (a full house, a large straight, at least one six for ``sixes``; chance always);
* ``scored[c]``: the probability that optimal play then scores the final roll in box c.

Probabilities are exact rationals: the number of equally likely ordered outcomes of the rerolled dice
(6**5 per reroll), carried as integers and returned with their denominator ``6**(5 * rerolls)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path

import numpy as np

from lookup.validate import is_integer, shown
from lookup.yahtzee.encoding import DiceEncoding
from lookup.yahtzee.rules import DEFAULT_RULES, Rules, get_rules, scoring_tables
from lookup.yahtzee.sheet import Sheet, SheetLike, parse_dice
from lookup.yahtzee.tables import YahtzeeTables, load_tables
from lookup.yahtzee.turn import TurnAnalysis, analyse_turn

__all__ = ["KeepOutlook", "coach", "outcome_counts"]


@dataclass(frozen=True)
class KeepOutlook:
    """One keep and where it leads. ``made`` / ``scored``: box name -> exact probability (see module).

    expected_final: expected final score of the game after this keep (as ``explain``); regret: points
    below the best keep.
    """

    keep: tuple[int, ...]
    expected_final: float
    regret: float
    made: dict[str, Fraction]
    scored: dict[str, Fraction]


@cache
def outcome_counts(enc: DiceEncoding) -> np.ndarray:
    """counts[k, r]: ordered outcomes of rerolling the dice missing from keep k that give roll r, scaled
    to the common denominator n_faces**n_dice (so each row sums to n_faces**n_dice)."""
    counts = np.zeros((enc.n_keeps, enc.n_rolls), dtype=np.int64)
    counts[enc.roll_offset + np.arange(enc.n_rolls), np.arange(enc.n_rolls)] = 1
    for size in range(enc.n_dice - 1, -1, -1):
        for k in range(enc.size_offset[size], enc.size_offset[size + 1]):
            counts[k] = counts[enc.add_die[k]].sum(axis=0)
    scale = enc.n_faces ** enc.keep_size.astype(np.int64)  # 6**(missing) outcomes become 6**n_dice
    return counts * scale[:, None]


@lru_cache(maxsize=64)
def _turn(tables: YahtzeeTables, state: tuple[int, int, int]) -> TurnAnalysis:
    return analyse_turn(tables.rules, tables.value, state)


def _final_indicators(rules: Rules, analysis: TurnAnalysis) -> tuple[np.ndarray, np.ndarray]:
    """(made[R, B], scored[R, B]) as 0/1 integers for every final roll and every box of the rule set."""
    made = (scoring_tables(rules).score > 0).astype(np.int64)
    scored = np.zeros_like(made)
    for r in range(made.shape[0]):
        scored[r, analysis.best_category(r)] = 1
    return made, scored


def coach(dice: Sequence[int], rerolls: int, sheet: SheetLike, rules: str | Rules = DEFAULT_RULES, *,
          artifacts_dir: str | Path | None = None) -> list[KeepOutlook]:
    """Every distinct keep of ``dice`` with ``rerolls`` (1 or 2) left, best first, with the exact
    probabilities of each box being made / scored at the end of the turn under optimal later play."""
    rules = get_rules(rules)
    pips = parse_dice(dice, rules)
    if not is_integer(rerolls) or rerolls not in (1, 2):
        raise ValueError(f"the coach view needs rerolls left 1 or 2, got {shown(rerolls)}")
    sh = Sheet.parse(sheet, rules)
    if sh.finished:
        raise ValueError("the sheet is finished: every box is filled, there is nothing to decide")
    tables = load_tables(rules, artifacts_dir)
    analysis = _turn(tables, sh.state)
    enc = rules.encoding
    counts = outcome_counts(enc)
    made, scored = _final_indicators(rules, analysis)
    # q[j][r]: numerators (denominator 6**(5j)) of the box indicators when holding roll r with j rerolls
    # left and playing optimally: j = 0 is the final roll itself.
    q = {0: (made, scored)}
    for j in range(1, rerolls):
        keeps = [int(enc.keep_of_mask[r, analysis.best_reroll(j, r)]) for r in range(enc.n_rolls)]
        q[j] = tuple(counts[keeps] @ q[j - 1][i] for i in (0, 1))
    denominator = enc.n_faces ** (enc.n_dice * rerolls)
    roll = enc.roll_index([p - 1 for p in pips])
    out, seen = [], set()
    for mask in enc.mask_order:
        k = int(enc.keep_of_mask[roll, mask])
        if k in seen:
            continue
        seen.add(k)
        m, s = (counts[k] @ q[rerolls - 1][i] for i in (0, 1))
        out.append((k, float(analysis.keep[rerolls][k]),
                    {c: Fraction(int(m[i]), denominator) for i, c in enumerate(rules.categories)},
                    {c: Fraction(int(s[i]), denominator) for i, c in enumerate(rules.categories)}))
    best = max(o[1] for o in out)
    out.sort(key=lambda o: -o[1])
    return [KeepOutlook(tuple(int(f) + 1 for f in enc.keeps[k]), sh.total + v, max(0.0, best - v), mk, sc)
            for k, v, mk, sc in out]
