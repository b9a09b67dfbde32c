"""The law of the final score without a policy table (``pipeline.yahtzee.distribution.optimal_score_law``: how
Maxi Yatzy's law is built) and its family (``pipeline.yahtzee.optimal_law``).

* The law built from the values with the policy of one block of rows at a time, its layers in files whose first
  rows are freed as the pass goes, is bitwise the law of the policy tables played with the layers in memory, on
  ``scandinavian+forced`` and on a reduced Maxi (six dice: the upper boxes, bonus 100 at 70, and Maxi Yatzy).
* Freeing one row too many changes the law: the freed bytes read as zeros, so the check above sees a wrong
  frontier.
* On the reduced Maxi: the law's mean, sd, P(upper bonus) and P(Maxi Yatzy) equal the start row of the layered
  build (``pipeline.yahtzee.layered_values``: the policy evaluated backwards, moment by moment, another method).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from lookup.yahtzee.rules import get_rules
from lookup.yahtzee.states import state_space
from pipeline.yahtzee import distribution

FORCED = "scandinavian+forced"
MAXI = get_rules("maxi")
REDUCED = dataclasses.replace(MAXI, name="maxi-reduced", upper_threshold=70, boxes=MAXI.boxes[:6] + MAXI.boxes[19:])
# Several blocks in most layers, so that rows are freed at many block boundaries: scandinavian+forced's layers hold
# 1 to 44 rows, REDUCED's 1 to 1,654 (seven-row blocks there tested nothing more and cost 2.5 s a pass).
BLOCK_ROWS = {FORCED: 7, REDUCED.name: 61}


def _dense(rules):
    """The law of the policy tables of ``solve(rules, policy=True)``, its layers in memory."""
    from pipeline.yahtzee.solver import solve

    sol = solve(rules, policy=True)
    return distribution.score_distribution(rules, sol.state_index, sol.reroll, sol.category, storage="memory")


@pytest.fixture(scope="module")
def dense():
    return {rules.name: _dense(rules) for rules in (get_rules(FORCED), REDUCED)}


@pytest.mark.parametrize("rules", [get_rules(FORCED), REDUCED], ids=lambda r: r.name)
def test_blocks_on_disk_give_the_law_of_the_policy_tables_bitwise(rules, dense, tmp_path, monkeypatch):
    punched = []
    punch = distribution._punch
    monkeypatch.setattr(distribution, "_punch", lambda fd, start, n: punched.append(n) or punch(fd, start, n))
    want = dense[rules.name]
    got = distribution.optimal_score_law(rules, block_rows=BLOCK_ROWS[rules.name], storage="disk", tmp_dir=tmp_path)
    assert got.storage == "disk" and want.storage == "memory"
    assert got.pmf.tobytes() == want.pmf.tobytes()
    assert (got.p_upper_bonus, got.p_yahtzee) == (want.p_upper_bonus, want.p_yahtzee)
    assert sum(punched) > 0.9 * sum(distribution.law_sizes(rules)["layers"][1:])  # the layers were freed as read
    assert not list(tmp_path.iterdir())  # the files are gone
    # Whole layers in memory, from the values: the same law.
    sol_law = distribution.optimal_score_law(rules, block_rows=None, storage="memory")
    assert sol_law.pmf.tobytes() == want.pmf.tobytes() and sol_law.storage == "memory"
    assert sol_law.start_value == got.start_value
    assert abs(float(np.arange(len(got.pmf)) @ got.pmf) - got.start_value) < 1e-9


def test_freeing_one_row_too_many_changes_the_law(dense, tmp_path, monkeypatch):
    freed = distribution._freed_rows
    monkeypatch.setattr(distribution, "_freed_rows", lambda row_mask, lo, hi, b, end: min(
        hi - lo, freed(row_mask, lo, hi, b, end) + 1))
    got = distribution.optimal_score_law(REDUCED, block_rows=BLOCK_ROWS[REDUCED.name], storage="disk", tmp_dir=tmp_path)
    assert got.pmf.tobytes() != dense[REDUCED.name].pmf.tobytes()


def test_disk_peak_below_two_layers():
    sizes = distribution.law_sizes(REDUCED, 64)
    assert sizes["on_disk"] < 0.8 * sizes["two_layers"]
    assert sizes["two_layers"] == max(a + b for a, b in zip(sizes["layers"], sizes["layers"][1:], strict=False))


def test_moments_equal_the_layered_builds_start_row(dense):
    from pipeline.yahtzee import layered_values

    rules = REDUCED
    ptr = [int(x) for x in state_space(rules).layer_ptr]
    columns = np.zeros((ptr[rules.n_boxes + 1] - ptr[rules.n_boxes], 4))
    for n in range(rules.n_boxes - 1, -1, -1):  # what the build's tasks do, layer by layer, in this process
        vrow, nxt = layered_values._next_rows(rules, n + 1, columns)
        columns = layered_values.solve_rows(rules, n, ptr[n], ptr[n + 1], vrow, nxt)
    value, second_moment, p_bonus, p_yahtzee = columns[0]
    law = dense[rules.name]
    x = np.arange(len(law.pmf), dtype=np.float64)
    mean = float(x @ law.pmf)
    sd = math.sqrt(float((x - mean) ** 2 @ law.pmf))
    assert abs(law.pmf.sum() - 1) < 1e-12
    assert abs(mean - value) < 1e-9
    assert abs(sd - math.sqrt(second_moment - value * value)) < 1e-9
    assert abs(law.p_upper_bonus - p_bonus) < 1e-12 and abs(law.p_yahtzee - p_yahtzee) < 1e-12
    assert 0.05 < p_bonus < 0.95 and 0.01 < p_yahtzee < 0.99


def test_family_only_when_asked():
    from pipeline.yahtzee import optimal_law

    assert optimal_law.families({"rule_sets": ["hasbro"]}) == []
    assert optimal_law.families({"rule_sets": ["hasbro"], "law": {"rule_sets": []}}) == []
    [family] = optimal_law.families({"rule_sets": ["hasbro"], "law": {"rule_sets": ["maxi-se"]}})
    assert family.name == "yahtzee-law-maxi-se"
    assert [s.name for s in family.artifacts({})] == ["yahtzee-maxi-se-distribution"]
    for bad in (["hasbro"], ["seed"], ["maxi-se+saved2"]):
        with pytest.raises(ValueError):
            optimal_law.settings({"rule_sets": ["hasbro"], "law": {"rule_sets": bad}})


@pytest.mark.parametrize("name", ["maxi", "scandinavian"])
def test_the_batched_final_roll_law_is_the_scalar_one_bitwise(name):
    """The final-roll law of a batch of rows side by side (the pass of optimal_score_law) has each lane's bits of
    the scalar kernel (score_distribution's), for random rerolls, full and partial batches (spare lanes)."""
    from pipeline.yahtzee import kernels
    from pipeline.yahtzee.solver import kernel_tables

    kt = kernel_tables(get_rules(name))
    n_keeps, n_rolls = kt.add_die.shape[0], len(kt.roll_prob)
    rng = np.random.default_rng(40)
    for nb in range(1, kernels.BATCH + 1):
        reroll = rng.integers(0, kt.keep_of_mask.shape[1], (kernels.BATCH, 2, n_rolls)).astype(np.uint8)
        reroll[0, :, :5] = 0  # mask 0 keeps every die, the last mask rerolls them all
        reroll[0, :, 5:10] = kt.keep_of_mask.shape[1] - 1
        km = np.full((n_keeps, kernels.BATCH), np.nan)
        distribution._final_roll_law_batch(reroll, nb, kt.roll_prob, kt.keep_of_mask, kt.add_die, kt.roll_offset, km)
        for s in range(nb):
            want = np.empty(n_keeps)
            distribution._final_roll_law(reroll[s], kt.roll_prob, kt.keep_of_mask, kt.add_die, kt.roll_offset, want)
            got = km[kt.roll_offset:, s]
            assert got.tobytes() == want[kt.roll_offset:].tobytes(), (name, nb, s)
            assert abs(got.sum() - 1) < 1e-12
