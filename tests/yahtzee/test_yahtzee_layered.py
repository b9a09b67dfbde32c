"""Layered value tables (``pipeline.yahtzee.layered_values``: how Maxi Yatzy is built and played).

* A reduced Maxi (six dice: the six upper boxes with the bonus at 70, and Maxi Yatzy) built as Dask tasks on one
  worker process and on two: the same bytes; its values bitwise those of the in-memory solver
  (``pipeline.yahtzee.solver.solve``, another kernel).
* Every state's second moment, P(upper bonus) and P(Yahtzee box filled) equal a plain recursion written here in
  numpy over the policy that ``lookup``'s keep tree picks from the table's values (not the build's kernel).
* On ``scandinavian+forced``, the start state's mean, standard deviation and P(upper bonus) equal those of the
  exact score distribution (``pipeline.yahtzee.distribution``: a forward law of the score, another method).
* ``decide``, ``explain`` and ``value`` answered from a layered table (no policy table: the turn is solved from
  the values) equal the answers of the value and policy tables on random sheets.
* Games played by the table (``pipeline.yahtzee.layered_sim``, each turn solved in the game) average the start
  value within 4 standard errors, earn the bonus as often as the table says, and on ``scandinavian+forced`` end
  with the scores of the exact distribution (chi-square); the same games on one thread and on two.
"""

from __future__ import annotations

import dataclasses
import itertools
from functools import cache

import numpy as np
import pytest

from lookup.store import zarr_module
from lookup.yahtzee.rules import get_rules, score_roll
from lookup.yahtzee.states import layer_name, state_space
from pipeline.yahtzee import layered, layered_values

REDUCED = dataclasses.replace(get_rules("maxi"), name="maxi-reduced", upper_threshold=70,
                              boxes=get_rules("maxi").boxes[:6] + get_rules("maxi").boxes[19:])


def _build(tmp_path, rules, workers: int, rows_per_task: int = 64):
    path = tmp_path / f"{rules.name}-{workers}.zarr"
    with layered.dask_client(None, workers) as client:
        stats = layered_values.build_store(path, rules, rows_per_task, client, threads=1)
    zarr = zarr_module()
    arrays = {name: zarr.open_array(str(path / name), mode="r")[...]
              for name in ["state_index", "layer_ptr"] + [layer_name(n) for n in range(rules.n_boxes + 1)]}
    return stats, arrays


@pytest.fixture(scope="module")
def reduced(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("layered")
    return _build(tmp, REDUCED, 1), _build(tmp, REDUCED, 2)


def test_same_bytes_on_one_and_two_workers_and_the_solvers_values(reduced):
    from pipeline.yahtzee.solver import solve

    (stats1, one), (stats2, two) = reduced
    assert stats1 == stats2 and one.keys() == two.keys()
    for name in one:
        assert one[name].tobytes() == two[name].tobytes(), name
    space = state_space(REDUCED)
    assert np.array_equal(one["state_index"], space.state_index)
    rows = np.concatenate([one[layer_name(n)] for n in range(REDUCED.n_boxes + 1)])
    assert rows.shape == (space.n_rows, 4) and space.n_rows > 1000
    value = solve(REDUCED).value
    reachable = space.state_index >= 0
    assert np.array_equal(rows[space.state_index[reachable], 0], value[reachable])  # bitwise
    assert stats1["start_value"] == value[0, 0, 0] and 0.05 < stats1["p_upper_bonus"] < 0.95


# make test checks the rows with at least 4 boxes filled (2,580 of 4,636: the recursion's cost is the states below
# the rows checked); make test-full every row.
@pytest.mark.parametrize("min_filled", [4, pytest.param(0, marks=pytest.mark.full)])
def test_moments_equal_a_plain_recursion_over_lookups_policy(reduced, min_filled):
    from lookup.yahtzee.rules import scoring_tables
    from lookup.yahtzee.turn import analyse_final, final_outcomes, tied

    (_, arrays), _ = reduced
    rules, enc = REDUCED, REDUCED.encoding
    space = state_space(rules)
    rows = np.concatenate([arrays[layer_name(n)] for n in range(rules.n_boxes + 1)])
    points = scoring_tables(rules).score  # [roll, box]; no Joker in Maxi

    def first_tied(values: np.ndarray) -> np.ndarray:
        """Per row, the first column tied with the row's best (lookup's tie rule)."""
        return np.argmax(tied(values, np.nanmax(values, axis=1, keepdims=True), "points"), axis=1)

    @cache
    def moments(mask: int, upper: int) -> np.ndarray:
        """(E[X], E[X^2], P(bonus), P(Yahtzee)) from the turn start (mask, upper), X the remaining points."""
        if mask == rules.all_filled:
            return np.zeros(4)
        final = final_outcomes(rules, mask, upper, 0, lambda reward, nxt: reward + rows[space.state_index[nxt], 0])
        turn = analyse_final(rules, (mask, upper, 0), np.where(np.isnan(final), -np.inf, final))
        box = first_tied(np.where(np.isnan(final), -np.inf, final))  # the policy: lookup's values, tie rule
        pts = points[np.arange(enc.n_rolls), box]
        nxt_upper = np.where(box < 6, np.minimum(rules.upper_threshold, upper + pts), upper)
        reward = pts + np.where((upper < rules.upper_threshold) & (nxt_upper >= rules.upper_threshold),
                                rules.upper_bonus, 0)
        outcomes = {(c, u) for c, u in zip(box.tolist(), nxt_upper.tolist(), strict=True)}
        nxt_of = {(c, u): moments(mask | (1 << c), int(space.row_upper[space.state_index[mask | (1 << c), u, 0]]))
                  for c, u in outcomes}
        nxt = np.array([nxt_of[c, u] for c, u in zip(box.tolist(), nxt_upper.tolist(), strict=True)])
        held = np.stack([reward + nxt[:, 0], reward * reward + 2 * reward * nxt[:, 0] + nxt[:, 1],
                         nxt[:, 2] + (reward > pts), nxt[:, 3] + ((box == rules.yahtzee_index) & (pts > 0))], axis=1)
        for rerolls in (1, 2):  # E over the keeps, then each roll takes the keep of its chosen reroll mask
            e = np.empty((enc.n_keeps, 4))
            e[enc.roll_offset:] = held
            for size in range(enc.n_dice - 1, -1, -1):
                lo, hi = enc.size_offset[size], enc.size_offset[size + 1]
                e[lo:hi] = e[enc.add_die[lo:hi]].mean(axis=1)
            order = enc.keep_of_mask[:, enc.mask_order]  # [roll, masks in the tie order]
            keep = order[np.arange(enc.n_rolls), first_tied(turn.keep[rerolls][order])]
            held = e[keep]
        return enc.roll_prob @ held

    first = int(space.layer_ptr[min_filled])
    for mask, upper, row in zip(space.row_mask[first:], space.row_upper[first:], rows[first:], strict=True):
        want = moments(int(mask), int(upper))
        assert abs(row[0] - want[0]) < 1e-9 and abs(row[1] - want[1]) < 1e-7, (mask, upper)
        assert np.allclose(row[2:], want[2:], rtol=0, atol=1e-12), (mask, upper)


def test_games_played_by_the_table_agree_with_its_exact_numbers(reduced):
    import numba

    from pipeline.yahtzee.layered_sim import simulate

    (stats, arrays), _ = reduced
    vrow = np.concatenate([arrays[layer_name(n)][:, 0] for n in range(REDUCED.n_boxes + 1)])
    played = simulate(REDUCED, vrow, 20_000, seed=5)
    summary = played.summary()
    assert abs(summary["mean"] - stats["start_value"]) < 4 * summary["standard_error"]
    assert abs(summary["std"] - stats["std"]) < 0.05 * stats["std"]
    p = stats["p_upper_bonus"]
    assert abs(summary["p_upper_bonus"] - p) < 4 * np.sqrt(p * (1 - p) / 20_000)
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        again = simulate(REDUCED, vrow, 500, seed=5, first=100)
    finally:
        numba.set_num_threads(threads)
    assert np.array_equal(again.scores, played.scores[100:600])  # game g's dice depend on g alone


def test_start_statistics_equal_the_exact_score_distribution(tmp_path, forced_tables):
    from lookup.yahtzee.score_law import distribution

    stats, _ = _build(tmp_path, get_rules("scandinavian+forced"), 1)
    law = distribution("scandinavian+forced", artifacts_dir=forced_tables)
    scores = np.arange(len(law.pmf))
    mean = float(law.pmf @ scores)
    assert abs(stats["start_value"] - mean) < 1e-9
    assert abs(stats["std"] - np.sqrt(law.pmf @ (scores - mean) ** 2)) < 1e-9
    assert abs(stats["p_upper_bonus"] - law.p_upper_bonus) < 1e-12

    # Games played by the table end with the scores of the exact law: a chi-square test over score bins holding
    # at least 50 expected games each.
    from scipy.stats import chi2

    from pipeline.yahtzee.layered_sim import simulate

    vrow = np.concatenate([zarr_module().open_array(str(tmp_path / "scandinavian+forced-1.zarr" / layer_name(n)),
                                                    mode="r")[:, 0] for n in range(16)])
    games = 40_000
    counts = np.bincount(simulate("scandinavian+forced", vrow, games, seed=3).scores, minlength=len(law.pmf))
    edges = [0]
    while edges[-1] < len(law.pmf):  # consecutive scores merged until each bin expects >= 50 games
        end = edges[-1] + 1
        while end < len(law.pmf) and law.pmf[edges[-1]:end].sum() * games < 50:
            end += 1
        edges.append(end)
    if law.pmf[edges[-2]:].sum() * games < 50:
        del edges[-2]  # the last bin (the far tail) joins the one before
    bins = list(itertools.pairwise(edges))
    expected = np.array([law.pmf[a:b].sum() for a, b in bins]) * games
    observed = np.array([counts[a:b].sum() for a, b in bins])
    statistic = ((observed - expected) ** 2 / expected).sum()
    assert chi2.sf(statistic, len(expected) - 1) > 1e-4


def _random_sheet(rules, rng) -> list[int | None]:
    """The sheet of a game played at random for a random number of turns (a reachable state)."""
    boxes: list[int | None] = [None] * rules.n_boxes
    for _ in range(int(rng.integers(0, rules.n_boxes))):
        empty = [c for c in range(rules.n_boxes) if boxes[c] is None]
        c = empty[0] if rules.forced_order else int(rng.choice(empty))
        boxes[c] = score_roll(rules, [int(x) for x in rng.integers(1, 7, rules.n_dice)], c)
    return boxes


def test_play_from_a_layered_table_equals_the_policy_tables(tmp_path, forced_tables):
    from lookup import yahtzee
    from lookup.store import open_artifact
    from pipeline.family import build_family
    from pipeline.store import write_manifest

    name = "scandinavian+forced"
    section = {"layered": {"rule_sets": [name], "rows_per_task": 64, "games": 3000, "seed": 1},
               "cluster": {"workers": 1}}
    [family] = layered_values.families(section)
    build_family(family, {"yahtzee": section}, tmp_path)
    write_manifest(tmp_path)
    with open_artifact(tmp_path / f"yahtzee-{name}-layered-games.zarr", schema=layered_values.GAMES_SCHEMA,
                       versions=(1,)) as art:
        counts, stats = art.read("score_counts"), art.meta["stats"]
    assert counts.sum() == 3000 and abs(stats["mean_minus_value_in_standard_errors"]) < 4
    assert stats["mean"] == (counts @ np.arange(len(counts))) / 3000
    rng = np.random.default_rng(26)
    for _ in range(40):
        sheet, dice = _random_sheet(get_rules(name), rng), [int(x) for x in rng.integers(1, 7, 5)]
        for rerolls in (0, 1, 2):
            want = yahtzee.decide(dice, rerolls, sheet, name, artifacts_dir=forced_tables)
            got = yahtzee.decide(dice, rerolls, sheet, name, artifacts_dir=tmp_path)
            assert (got.reroll, got.keep, got.category) == (want.reroll, want.keep, want.category)
            assert got.expected_final == want.expected_final
            assert [o.as_dict() for o in yahtzee.explain(dice, rerolls, sheet, name, artifacts_dir=tmp_path)] == [
                o.as_dict() for o in yahtzee.explain(dice, rerolls, sheet, name, artifacts_dir=forced_tables)]
        assert yahtzee.value(sheet, name, artifacts_dir=tmp_path) == yahtzee.value(
            sheet, name, artifacts_dir=forced_tables)


def test_bad_params_and_rule_sets_are_refused():
    with pytest.raises(ValueError, match="optimises without its upper bonus"):
        layered_values.families({"layered": {"rule_sets": ["seed"]}})
    with pytest.raises(ValueError, match="unknown|rule set"):
        layered_values.families({"layered": {"rule_sets": ["maxi-xx"]}})
    with pytest.raises(ValueError, match="rows_per_task"):
        layered_values.families({"layered": {"rule_sets": ["maxi"], "rows_per_task": 0}})
    with pytest.raises(ValueError, match="must be a list"):
        layered_values.families({"layered": {"rule_sets": "maxi"}})
    assert layered_values.families({"layered": {"rule_sets": []}}) == []
