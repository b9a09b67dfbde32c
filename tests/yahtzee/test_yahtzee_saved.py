"""Saved rolls (Swedish Maxi Yatzy, capped: ``maxi-se+saved2``; ``pipeline.yahtzee.saved``, docs/yahtzee.md).

* Reduced games (six dice: the six upper boxes and chance or Maxi Yatzy, caps 1 and 2; five dice: the upper boxes
  and Yatzy, cap 2) solved by the kernel equal a brute-force recursion written here from the rule: every roll with
  its exact probability, every choice of dice to reroll (at least one), scoring with the rerolls left carried
  (at most the cap) into the next turn, a turn with s saved rolls having 2 + s rerolls; to 1e-9 points at every
  reachable state and every s. The recursion uses no project code but the state list (which states to check).
* With no rolls saved the kernel gives bitwise the values of the scalar three-roll kernel that the layered build
  uses (``kernels.solve_rows_with_moments``, untouched by saved rolls).
* An extra saved roll is never worth less (a sanity check of the solved tables).
* Every path that cannot play saved rolls refuses them with a ValueError naming why; the family is built only when
  params ask, and stores the solver's values.
"""

from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np
import pytest

from lookup.yahtzee.rules import RULE_SETS, get_rules
from lookup.yahtzee.states import state_space
from pipeline.yahtzee.solver import saved_values

MAXI = get_rules("maxi")
SCANDINAVIAN = get_rules("scandinavian")


def _reduced(base, extra: int, threshold: int, bonus: int, cap: int):
    """``base`` reduced to its six upper boxes and box ``extra``, the upper bonus ``bonus`` at ``threshold``."""
    return dataclasses.replace(base, name=f"{base.name}-reduced-{extra}-{cap}", boxes=base.boxes[:6] + (
        base.boxes[extra],), upper_threshold=threshold, upper_bonus=bonus, saved_rolls_cap=cap)


CASES = {  # name: (rules, box of the seventh turn as the brute force scores it)
    "six dice, chance, cap 2": (_reduced(MAXI, 18, 15, 30, 2), "chance"),
    "six dice, Maxi Yatzy, cap 1": (_reduced(MAXI, 19, 12, 50, 1), "all alike"),
    "five dice, Yatzy, cap 2": (_reduced(SCANDINAVIAN, 14, 12, 50, 2), "all alike"),
}


class BruteForce:
    """The saved-rolls game from its rule, by plain recursion (numpy only for the expectations and maxima).

    Boxes 0..5 score face x count and count toward the upper total; box 6 is ``lower``: "chance" (the sum) or
    "all alike" (``points`` for n dice alike). The bonus is paid in the turn the upper total reaches the
    threshold. ``value(mask, upper, s)``: expected remaining points from a turn start with ``s`` saved rolls.
    """

    def __init__(self, n_dice: int, lower: str, points: int, threshold: int, bonus: int, cap: int):
        self.n, self.threshold, self.bonus, self.cap = n_dice, threshold, bonus, cap
        self.memo: dict[tuple[int, int, int], float] = {}
        self.rolls = list(itertools.combinations_with_replacement(range(1, 7), n_dice))
        index = {r: i for i, r in enumerate(self.rolls)}
        self.prob = np.array([self._prob(r) for r in self.rolls])
        keeps = [k for size in range(n_dice + 1) for k in itertools.combinations_with_replacement(range(1, 7), size)]
        keep_index = {k: i for i, k in enumerate(keeps)}
        # after[keep, roll]: the probability that keeping ``keep`` and rolling the other dice gives ``roll``.
        self.after = np.zeros((len(keeps), len(self.rolls)))
        for k, keep in enumerate(keeps):
            for new in itertools.combinations_with_replacement(range(1, 7), n_dice - len(keep)):
                self.after[k, index[tuple(sorted(keep + new))]] += self._prob(new)
        # The keeps of each roll that reroll at least one die (distinct multisets), padded by repetition.
        subs = [sorted({keep_index[c] for size in range(n_dice) for c in itertools.combinations(r, size)})
                for r in self.rolls]
        width = max(map(len, subs))
        self.subs = np.array([s + [s[0]] * (width - len(s)) for s in subs])
        lower_points = [sum(r) if lower == "chance" else (points if len(set(r)) == 1 else 0) for r in self.rolls]
        self.points = np.array([[f * r.count(f) for r in self.rolls] for f in range(1, 7)] + [lower_points])

    @staticmethod
    def _prob(dice: tuple[int, ...]) -> float:
        ways = math.factorial(len(dice))
        for f in set(dice):
            ways //= math.factorial(dice.count(f))
        return ways / 6 ** len(dice)

    def score_now(self, mask: int, upper: int, carried: int) -> np.ndarray:
        """Per roll: the best open box, its points and bonus plus the next turn's value with ``carried`` saved."""
        best = np.full(len(self.rolls), -np.inf)
        for box in range(7):
            if mask >> box & 1:
                continue
            pts = self.points[box]
            if box < 6:
                nxt_upper = np.minimum(self.threshold, upper + pts)
                gain = pts + np.where((upper < self.threshold) & (nxt_upper >= self.threshold), self.bonus, 0)
                later = {u: self.value(mask | 1 << box, u, carried) for u in set(nxt_upper.tolist())}
                total = gain + np.array([later[u] for u in nxt_upper.tolist()])
            else:
                total = pts + self.value(mask | 1 << box, upper, carried)
            best = np.maximum(best, total)
        return best

    def value(self, mask: int, upper: int, saved: int) -> float:
        if mask == 127:
            return 0.0
        if (mask, upper, saved) in self.memo:
            return self.memo[mask, upper, saved]
        held = self.score_now(mask, upper, 0)  # no reroll left: score it
        for left in range(1, 3 + saved):  # `left` rerolls left: score now, or reroll at least one die
            after_reroll = self.after @ held  # a keep's value: the next roll, with one reroll fewer
            held = np.maximum(self.score_now(mask, upper, min(left, self.cap)),
                              after_reroll[self.subs].max(axis=1))
        self.memo[mask, upper, saved] = float(self.prob @ held)
        return self.memo[mask, upper, saved]


@pytest.fixture(scope="module", params=list(CASES))
def case(request):
    rules, lower = CASES[request.param]
    brute = BruteForce(rules.n_dice, lower, rules.boxes[6].fixed, rules.upper_threshold, rules.upper_bonus,
                       rules.saved_rolls_cap)
    return rules, brute, saved_values(rules)


def test_saved_rolls_equal_a_brute_force_recursion(case):
    rules, brute, vals = case
    space = state_space(rules)
    assert vals.shape == (rules.saved_rolls_cap + 1, space.n_rows)
    states = np.argwhere(space.reachable[:, :, 0])
    assert len(states) > 300
    for mask, upper in states.tolist():
        row = space.state_index[mask, upper, 0]
        for s in range(rules.saved_rolls_cap + 1):
            assert abs(vals[s, row] - brute.value(mask, upper, s)) < 1e-9, (mask, upper, s)
    # Saving rolls is worth something at the start of a game: more than the three-roll game's value.
    assert vals[0, 0] > saved_values(dataclasses.replace(rules, saved_rolls_cap=0))[0, 0] + 0.1


def test_an_extra_saved_roll_is_never_worth_less(case):
    _, _, vals = case
    assert np.all(vals[1:] >= vals[:-1])
    assert np.all(vals[1:, 0] > vals[:-1, 0])


@pytest.mark.parametrize("rules", [get_rules("scandinavian+forced"), _reduced(MAXI, 19, 70, 50, 0)],
                         ids=lambda r: r.name)
def test_no_saved_rolls_give_bitwise_the_three_roll_kernels_values(rules):
    from pipeline.yahtzee.layered_values import COLUMNS, solve_rows

    [vals] = saved_values(rules)
    space = state_space(rules)
    ptr = [int(x) for x in space.layer_ptr]
    scalar = np.zeros(space.n_rows)
    nxt = np.zeros((ptr[-1] - ptr[-2], len(COLUMNS)))
    for n in range(rules.n_boxes - 1, -1, -1):  # the layered build's recursion, without Dask
        nxt = solve_rows(rules, n, ptr[n], ptr[n + 1], scalar, nxt)
        scalar[ptr[n]:ptr[n + 1]] = nxt[:, 0]
    assert vals.tobytes() == scalar.tobytes()


def test_rule_sets_that_save_rolls_are_declared_once_and_refused_where_they_cannot_be_played():
    from lookup import yahtzee
    from lookup.yahtzee.rules import kernel_params
    from pipeline.yahtzee import layered_values, saved, stage
    from pipeline.yahtzee.solver import solve

    se = get_rules("maxi-se+saved2")
    assert dataclasses.replace(se, name="maxi-se", saved_rolls_cap=0, description=get_rules("maxi-se").description) \
        == get_rules("maxi-se")
    assert se.to_dict()["saved_rolls_cap"] == 2 and get_rules("maxi+saved2").saved_rolls_cap == 2
    assert all("saved_rolls_cap" not in r.to_dict() for r in RULE_SETS.values() if not r.saved_rolls_cap)
    with pytest.raises(ValueError, match="saved_rolls_cap"):
        dataclasses.replace(se, saved_rolls_cap=-1)
    small = _reduced(MAXI, 19, 12, 50, 1)
    for refused in (lambda: kernel_params(se), lambda: solve(small),
                    lambda: yahtzee.decide([1, 2, 3, 4, 5, 6], 2, {}, "maxi-se+saved2"),
                    lambda: yahtzee.value({}, "maxi-se+saved2"),
                    lambda: layered_values.families({"layered": {"rule_sets": ["maxi-se+saved2"]}}),
                    lambda: stage.rule_set_names({"rule_sets": ["maxi-se+saved2"]})):
        with pytest.raises(ValueError, match="saves unused rolls"):
            refused()
    with pytest.raises(ValueError, match="saves none"):
        saved.families({"saved": {"rule_sets": ["maxi-se"]}})
    with pytest.raises(ValueError, match="must be a list"):
        saved.families({"saved": {"rule_sets": "maxi-se+saved2"}})
    assert saved.families({}) == [] and saved.families({"saved": {"rule_sets": []}}) == []
    [family] = saved.families({"saved": {"rule_sets": ["maxi-se+saved2"]}})
    assert family.name == "yahtzee-saved-maxi-se-saved2"


def test_the_family_stores_the_solvers_values(tmp_path, monkeypatch):
    from lookup.store import open_artifact
    from lookup.yahtzee.tables import SAVED_SCHEMA, SAVED_VERSIONS
    from pipeline.family import build_family
    from pipeline.yahtzee import saved

    rules = _reduced(MAXI, 19, 12, 50, 1)
    monkeypatch.setitem(RULE_SETS, rules.name, rules)
    [family] = saved.families({"saved": {"rule_sets": [rules.name]}})
    build_family(family, {"yahtzee": {"saved": {"rule_sets": [rules.name]}}}, tmp_path)
    with open_artifact(tmp_path / f"yahtzee-{rules.name}-saved-values.zarr", schema=SAVED_SCHEMA,
                       versions=SAVED_VERSIONS, rules=rules.to_dict(), verify=False, trust="artifact") as art:
        value, state_index, stats = art.read("value"), art.read("state_index"), art.meta["stats"]
    vals = saved_values(rules)
    assert value.tobytes() == np.ascontiguousarray(vals.T).tobytes()
    assert np.array_equal(state_index, state_space(rules).state_index)
    assert stats["start_value_by_saved_rolls"] == vals[:, 0].tolist() and stats["start_value"] == vals[0, 0]
