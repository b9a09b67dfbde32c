"""The exact law of the final score against independent computations.

* its mean against the value table's start value, its sd and P(upper bonus) against the backward moment
  recursion of ``solver.exact_statistics`` (E[X], E[X^2] under the same policy, another state space);
* on ``scandinavian+forced`` the whole law against a forward pass over (state, points) written here in
  plain Python from the rules (``score_roll``), brute-force dice enumeration and the policy tables;
* simulated optimal games (the strategy lab's engine) against it by a chi-square test;
* the published ``verhoeff`` figures (median 248, upper bonus 68.1 %; sd 59.6117 inside the exact range
  of the sd over the ways to break ties, ``pipeline.yahtzee.tie_range``).
"""

import json
from collections import defaultdict

import numpy as np
import pytest
from click.testing import CliRunner
from scipy import stats as sps

from lookup.store import ArtifactError
from lookup.yahtzee import distribution, get_rules, value
from lookup.yahtzee.states import state_space
from lookup.yahtzee.tables import load_tables
from pipeline.cli import main
from pipeline.yahtzee.tie_range import TIE_RULES, tie_range
from tests.yahtzee.occupancy import completion_law
from tests.yahtzee.tie_exact import ExactTies

HASBRO = get_rules("hasbro")


@pytest.fixture(scope="module")
def hasbro_law(hasbro_tables):
    return distribution("hasbro", artifacts_dir=hasbro_tables)


def test_pmf_is_a_law_and_its_statistics(hasbro_law):
    pmf = hasbro_law.pmf
    assert pmf.min() >= 0 and abs(pmf.sum() - 1) < 1e-12
    x = np.arange(len(pmf))
    assert hasbro_law.mean == pytest.approx(float(x @ pmf), abs=1e-12)
    cdf = np.cumsum(pmf)
    # Quantiles by their definition: the smallest x with P(score <= x) >= q.
    for q in (0.01, 0.25, 0.5, 0.75, 0.99):
        k = hasbro_law.quantile(q)
        assert cdf[k] >= q and (k == 0 or cdf[k - 1] < q)
    # The median by its definition over the pmf (no published hasbro median; verhoeff's 248 is tested below).
    assert hasbro_law.median == int(np.searchsorted(cdf, 0.5)) and cdf[hasbro_law.median - 1] < 0.5
    assert hasbro_law.quartiles == tuple(hasbro_law.stats["quartiles"])
    assert hasbro_law.quantile(1) == hasbro_law.percentile(100) == 1575
    assert hasbro_law.quantile(1e-300) == hasbro_law.stats["min_score"] == int(np.flatnonzero(pmf)[0])
    assert hasbro_law.p_at_least(0) == 1.0 and hasbro_law.p_at_least(-5) == 1.0
    tails = [hasbro_law.p_at_least(t) for t in range(0, 1700, 7)]
    assert all(a >= b for a, b in zip(tails, tails[1:], strict=False)) and tails[-1] == 0.0
    assert hasbro_law.p_at_least(300) == pytest.approx(float(pmf[300:].sum()), abs=1e-14)
    assert hasbro_law.stats["p_at_least"]["300"] == pytest.approx(hasbro_law.p_at_least(300), abs=1e-15)
    # The highest Hasbro score: 13 Yahtzees of which 12 earn the bonus (1575 points).
    assert hasbro_law.stats["max_score"] == 1575 and pmf[1575] > 0


def test_mean_sd_and_bonus_equal_the_backward_statistics(hasbro_law, hasbro_tables):
    tables = load_tables(HASBRO, hasbro_tables)
    start = float(np.asarray(tables.value)[0, 0, 0])
    assert abs(hasbro_law.mean - start) < 1e-9
    assert abs(hasbro_law.mean - value({}, "hasbro", artifacts_dir=hasbro_tables)) < 1e-9
    # exact_statistics: backward E[X] / E[X^2] recursion under the same policy, over unmerged states.
    assert abs(hasbro_law.sd - tables.stats["std"]) < 1e-9
    assert abs(hasbro_law.p_upper_bonus - tables.stats["p_upper_bonus"]) < 1e-12


@pytest.mark.parametrize("rules", ["seed", "scandinavian+forced", "scandinavian+fh5+tp4+forced"])
def test_other_rule_sets_against_the_backward_statistics(rules, tmp_path_factory):
    """``seed`` scores the real upper bonus that its policy ignores: the law is of the real score.

    seed's solution, law and backward statistics are those of the run's one build of its tables (the build
    runs solve(policy=True), score_distribution and exact_statistics, as below)."""
    from pipeline.yahtzee.distribution import score_distribution
    from pipeline.yahtzee.solver import exact_statistics, solve
    from tests import shared

    if rules == "seed":
        root = shared.yahtzee(tmp_path_factory, rules)
        sol = shared.solution(tmp_path_factory, rules, policy=True)
        law = distribution(rules, artifacts_dir=root)
        exact = load_tables(get_rules(rules), root).stats
    else:
        sol = solve(rules, policy=True)
        law = score_distribution(rules, sol.state_index, sol.reroll, sol.category)
        exact = exact_statistics(rules, sol)
    x = np.arange(len(law.pmf))
    mean = float(x @ law.pmf)
    assert abs(law.pmf.sum() - 1) < 1e-12
    assert abs(mean - exact["mean"]) < 1e-9
    assert abs(np.sqrt(float((x - mean) ** 2 @ law.pmf)) - exact["std"]) < 1e-9
    assert abs(law.p_upper_bonus - exact["p_upper_bonus"]) < 1e-12
    if get_rules(rules).bonus_in_optimisation:
        assert abs(mean - sol.start_value) < 1e-9
    else:  # the policy's values leave out a bonus the real game pays
        assert mean > sol.start_value + 1


def _forward_law(rules, state_index, reroll, category):
    """Forward pass over {(filled mask, upper): law of the points so far} for a forced-order sheet without
    Joker or Yahtzee bonus, from the rules' own scoring (independent of the kernels)."""
    from lookup.yahtzee.rules import score_roll

    enc = rules.encoding
    t = completion_law(enc)
    thr, bonus = rules.upper_threshold, rules.upper_bonus
    size = 1 + rules.n_boxes * 60  # more points than any sheet of 15 boxes scores
    layer = {(0, 0): np.eye(1, size)[0]}
    for _turn in range(rules.n_boxes):
        nxt = defaultdict(lambda: np.zeros(size))
        for (mask, upper), points in layer.items():
            row = state_index[mask, upper, 0]
            q = enc.roll_prob.copy()
            for j in (1, 0):  # rerolls left 2, then 1
                q = sum(q[r] * t[enc.keep_of_mask[r, reroll[row, j, r]]] for r in range(enc.n_rolls))
            c = (~mask & (mask + 1)).bit_length() - 1  # forced order: the first open box
            for r in range(enc.n_rolls):
                assert category[row, r] == c
                pts = score_roll(rules, [f + 1 for f in enc.rolls[r]], c)
                nu = min(thr, upper + pts) if c < 6 else upper
                gain = pts + (bonus if c < 6 and upper < thr <= nu else 0)
                nxt[(mask | (1 << c), nu)][gain:] += q[r] * points[:size - gain]
        layer = nxt
    return sum(layer.values())


@pytest.mark.parametrize("rules", ["scandinavian+forced", "scandinavian+fh5+tp4+forced"])
def test_forced_scandinavian_law_equals_an_independent_forward_pass(rules):
    from pipeline.yahtzee.distribution import score_distribution
    from pipeline.yahtzee.solver import solve

    rules = get_rules(rules)
    sol = solve(rules, policy=True)
    law = score_distribution(rules, sol.state_index, sol.reroll, sol.category)
    brute = _forward_law(rules, sol.state_index, sol.reroll, sol.category)
    n = max(len(brute), len(law.pmf))
    assert np.abs(np.pad(law.pmf, (0, n - len(law.pmf))) - np.pad(brute, (0, n - len(brute)))).max() < 1e-13


def _chi_square_p(law, scores, bins=40):
    """p-value of the chi-square test of ``scores`` against ``law`` (bins of ~equal exact probability)."""
    cdf = np.cumsum(law.pmf)
    edges = np.unique(np.searchsorted(cdf, np.linspace(0, 1, bins + 1)[1:-1]))  # last score of each bin
    expected = np.diff(np.concatenate(([0.0], cdf[edges], [1.0]))) * len(scores)
    observed = np.bincount(np.searchsorted(edges, scores, side="left"), minlength=len(expected))
    assert expected.min() > 50
    return sps.chisquare(observed, expected).pvalue


def _simulated_p(hasbro_tables, law, games, seed):
    from pipeline.yahtzee_lab.simulate import simulate

    tables = load_tables(HASBRO, hasbro_tables)
    scores = simulate(HASBRO, tables.policy["state_index"], tables.policy["reroll"], tables.policy["category"],
                      games, seed=seed)
    return _chi_square_p(law, scores)


def test_simulated_games_agree_chi_square(hasbro_law, hasbro_tables):
    assert _simulated_p(hasbro_tables, hasbro_law, 200_000, seed=11) > 1e-3


def test_chi_square_detects_a_wrong_law(hasbro_law, hasbro_tables):
    """The same test fails for a law shifted by one point: it can fail."""
    from lookup.yahtzee.score_law import ScoreDistribution

    shifted = ScoreDistribution(HASBRO, np.concatenate(([0.0], hasbro_law.pmf[:-1])), 0.0, {})
    assert _simulated_p(hasbro_tables, shifted, 200_000, seed=11) < 1e-6


@pytest.mark.slow
def test_a_million_simulated_games_agree(hasbro_law, hasbro_tables):
    assert _simulated_p(hasbro_tables, hasbro_law, 1_000_000, seed=12) > 1e-3


@pytest.mark.full  # the verhoeff tables and the tie-range pass (make test-full)
def test_verhoeff_published_figures(tmp_path_factory):
    """Verhoeff's optimal solitaire Yahtzee: median 248, sd 59.6117, upper bonus in 68.1 % of games.

    The sd depends on how options of exactly equal expected value are broken. Ours (59.611436) equals the
    backward moment recursion of the same policy and its re-evaluation by the tie-range pass to 1e-9;
    the published 59.6117 (to its printed digits) lies in the exact range of the sd over all optimal
    policies, and the rule "reroll the most dice" gives it. Rows of the tie-range pass where ties matter
    are checked against exact rationals.
    """
    from tests import shared

    root = shared.yahtzee(tmp_path_factory, "verhoeff")  # built once per run (the solver tests read it too)
    law = distribution("verhoeff", artifacts_dir=root)
    assert law.median == 248 and law.mean == pytest.approx(254.5896095, abs=1e-7)
    assert round(100 * law.p_upper_bonus, 1) == 68.1
    tables = load_tables(get_rules("verhoeff"), root)
    stats = tables.stats
    assert abs(law.sd - stats["std"]) < 1e-9 and abs(law.p_upper_bonus - stats["p_upper_bonus"]) < 1e-12

    ours, most = TIE_RULES[0][0], TIE_RULES[2][0]
    tr = tie_range("verhoeff", value=np.asarray(tables.value), tie_rules=(TIE_RULES[0], TIE_RULES[2]))
    assert abs(tr.mean - law.mean) < 1e-9 and abs(tr.rule_sd[ours] - law.sd) < 1e-9
    assert round(law.sd, 4) == 59.6114 and round(tr.rule_sd[most], 4) == 59.6117
    assert tr.sd_min <= 59.61175 and tr.sd_max >= 59.61165  # 59.6117 as printed is inside the range
    space, exact = state_space(tr.rules), ExactTies(tr.rules)
    for n_open in (1, 2):  # the row of each of the last two layers whose tie range is widest
        lo, hi = space.layer_ptr[13 - n_open], space.layer_ptr[14 - n_open]
        i = lo + int(np.argmax(tr.row_moments[lo:hi, 1] - tr.row_moments[lo:hi, 2]))
        want = exact.moments(int(space.row_mask[i]), int(space.row_upper[i]), int(space.row_ybox[i]))
        assert want[1] - want[2] > 0.1
        for x, w in zip(tr.row_moments[i, :3], want, strict=True):
            assert abs(x - float(w)) <= 1e-12 * float(w)


def test_bad_input_and_missing_tables(hasbro_law, tmp_path):
    for bad in (1.5, True, "300", None):
        with pytest.raises(ValueError, match="t must be an integer"):
            hasbro_law.p_at_least(bad)
    for bad in (0, 1.5, -0.1, True, "half"):
        with pytest.raises(ValueError, match="q must be"):
            hasbro_law.quantile(bad)
    with pytest.raises(ValueError, match="rule set"):
        distribution("yahtzee-deluxe", artifacts_dir=tmp_path)
    with pytest.raises(ArtifactError, match="not built"):
        distribution("verhoeff", artifacts_dir=tmp_path)


def test_corrupted_distribution_is_refused(hasbro_tables, tmp_path):
    import shutil

    root = tmp_path / "artifacts"
    root.mkdir()
    shutil.copytree(hasbro_tables / "yahtzee-hasbro-distribution.zarr", root / "yahtzee-hasbro-distribution.zarr")
    shard = max((root / "yahtzee-hasbro-distribution.zarr" / "pmf" / "c").rglob("*"), key=lambda p: p.stat().st_size)
    raw = bytearray(shard.read_bytes())
    raw[len(raw) // 2] ^= 0x10
    shard.write_bytes(bytes(raw))
    with pytest.raises(ArtifactError, match="corrupted|pmf"):
        distribution("hasbro", artifacts_dir=root)


def test_cli_distribution_and_info(hasbro_law, hasbro_tables):
    """The command prints the law's numbers (each checked against independent computations above)."""
    runner = CliRunner()
    median = int(np.searchsorted(np.cumsum(hasbro_law.pmf), 0.5))
    out = runner.invoke(main, ["yahtzee", "distribution", "--artifacts", str(hasbro_tables), "--at-least", "333"])
    assert out.exit_code == 0, out.output
    text = out.output
    assert f"median {median}" in out.output and f"P(upper bonus) {hasbro_law.p_upper_bonus:.7f}" in out.output
    assert f"P(score >= 333) = {hasbro_law.p_at_least(333):.10f}" in out.output
    out = runner.invoke(main, ["yahtzee", "distribution", "--artifacts", str(hasbro_tables), "--json"])
    printed = json.loads(out.output)
    assert out.exit_code == 0 and printed["median"] == median
    # The standard deviation is "sd" as in the text and the web's answer (it said "std").
    assert printed["sd"] == hasbro_law.sd and "std" not in printed and f"sd {hasbro_law.sd:.7f}" in text
    out = runner.invoke(main, ["info", str(hasbro_tables / "yahtzee-hasbro-distribution.zarr")])
    assert out.exit_code == 0, out.output
    assert f"stat        median = {median}" in out.output and "p_upper_bonus" in out.output
    out = runner.invoke(main, ["yahtzee", "distribution", "--artifacts", str(hasbro_tables), "--rules", "plain"])
    assert out.exit_code == 1 and "not built" in out.output


def test_report_plots_and_tabulates_the_laws(hasbro_tables, tmp_path):
    """`dicetables yahtzee report` with yahtzee_lab.distributions: the table, the JSON and the figure."""
    params = tmp_path / "params.yaml"
    params.write_text("yahtzee_lab:\n  tournament:\n    players: [optimal, random]\n    games: 200\n    batch: 100\n"
                      "    comparison_modes: []\n  distributions: [hasbro]\n")
    out = tmp_path / "report"
    done = CliRunner().invoke(main, ["--quiet", "yahtzee", "report", "--params", str(params), "--artifacts",
                                     str(hasbro_tables), "--out", str(out), "--games", "100"])
    assert done.exit_code == 0, done.output
    law = json.loads((out / "distributions.json").read_text())["hasbro"]
    pmf = np.zeros(1 + max(map(int, law["pmf"])))
    for x, q in law["pmf"].items():
        pmf[int(x)] = q
    assert law["median"] == int(np.searchsorted(np.cumsum(pmf), 0.5)) and abs(pmf.sum() - 1) < 1e-12
    md = (out / "tournament.md").read_text()
    assert "## Exact score distributions" in md and "| hasbro | 254.5877 |" in md
    assert (out / "score-distributions.png").stat().st_size > 10_000
