"""Play to win: the tables against an independent brute force, their laws (P(>= 0) = 1, non-increasing,
never below the expected-score policy's exact probability), the Dask build byte for byte on 1 and 2
workers and separate worker processes, and decide / explain / chance against the tables."""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import zarr

from lookup.store import ArtifactError
from lookup.yahtzee import chance, decide, explain
from lookup.yahtzee.rules import AMERICAN_BOXES, Box, Rules, get_rules
from lookup.yahtzee.towin import load_towin
from lookup.yahtzee.turn import PROBABILITY_TIE_REL, tied
from pipeline.yahtzee import towin
from pipeline.yahtzee.layered import dask_client
from pipeline.yahtzee.solver import solve
from pipeline.yahtzee.towin_build import build_store
from tests.yahtzee.towin_brute import Brute, reachable_states
from tests.yahtzee.towin_exact import ExactTurns


# Two dice, nine boxes: small enough for the brute force, yet with the upper bonus (at 8), the Yahtzee
# bonus and the Joker (a double is a "Yahtzee"; the 2-straight takes its fixed points as a Joker). Small
# point values keep the vectors short; the rules are the same code paths as hasbro's.
def _mini(name: str, joker: str, forced_order: bool = False) -> Rules:
    return Rules(name, "test game", n_dice=2, upper_threshold=8, upper_bonus=7, yahtzee_bonus=9, joker=joker,
                 forced_order=forced_order,
                 boxes=AMERICAN_BOXES[:6] + (Box("straight", "straight", n=2, fixed=4),
                                             Box("yahtzee", "yatzy", fixed=11), Box("chance", "chance")))


MINI = _mini("mini", "forced")
MINI_FREE = _mini("mini-free", "free")
MINI_ORDER = _mini("mini-order", "forced", forced_order=True)
FORCED = "scandinavian+forced"
EPS = float(np.finfo(np.float64).eps)


def _table(layers, lay):
    """P(state, t) for every reachable state of ``lay`` from the in-memory layers."""
    def get(state, t):
        row = int(lay.space.state_index[state])
        if t < 0:
            return 1.0
        if t > lay.bound[row]:
            return 0.0
        n = bin(state[0]).count("1")
        return float(layers[n][row - lay.layer(n)[0], t])
    return get


@pytest.fixture(scope="module")
def mini_goal():
    return towin.solve(MINI, objective="goal")


@pytest.mark.parametrize("rules,objective", [(MINI, "goal"), (MINI, "win"), (MINI_FREE, "goal"),
                                              (MINI_ORDER, "win")])
def test_equals_brute_force_over_all_policies(rules, objective, mini_goal):
    rules = get_rules(rules)
    lay = towin.layout(rules)
    layers = mini_goal if (rules is MINI and objective == "goal") else towin.solve(rules, objective=objective)
    width = int(lay.bound.max()) + 3
    brute = Brute(rules, objective, width)
    get = _table(layers, lay)
    states = reachable_states(rules)
    assert len(states) >= lay.space.n_rows
    worst = 0.0
    for state in states:
        want = brute.vector(*state)
        got = np.array([get(state, t) for t in range(width)])
        worst = max(worst, float(np.abs(got - want).max()))
        row = int(lay.space.state_index[state])
        assert want[lay.bound[row]] > 0 and not want[lay.bound[row] + 1:].any(), state  # the bound is tight
    assert worst < 1e-12


@pytest.mark.parametrize("rules", [MINI, FORCED])
def test_laws_and_the_expected_score_policy(rules, mini_goal):
    rules = get_rules(rules)
    lay = towin.layout(rules)
    goal = mini_goal if rules is MINI else towin.solve(rules, objective="goal")
    win = towin.solve(rules, objective="win")
    sol = solve(rules, policy=True)
    expected = towin.evaluate(rules, sol.reroll, sol.category)
    for n, (g, w, e) in enumerate(zip(goal, win, expected, strict=True)):
        lo, hi = lay.layer(n)
        cols = np.arange(g.shape[1])[None, :]
        inside = cols <= lay.bound[lo:hi, None]
        assert np.all(g[:, 0] == 1.0)                                  # P(>= 0) = 1
        assert np.all(np.diff(g, axis=1) <= 1e-15)                     # non-increasing in t
        assert np.all(g[inside] > 0) and not g[~inside].any()          # zero exactly beyond the bound
        assert np.all(g >= e - 1e-13)                                  # never below the expected-score policy
        # P(> t) + P(= t)/2 lies between P(>= t + 1) and P(>= t), each maximised separately.
        nxt = np.concatenate([g[:, 1:], np.zeros((hi - lo, 1))], axis=1)
        assert np.all(w <= g + 1e-13) and np.all(w >= nxt - 1e-13)
    # The exact evaluation is right: the mean of the expected-score policy is its value table's start value.
    assert math.isclose(expected[0][0][1:].sum(), sol.start_value, rel_tol=0, abs_tol=1e-9)
    assert goal[0][0][1:].sum() > sol.start_value  # each t maximised alone: the sum exceeds any one policy's mean


def test_a_cap_on_t_changes_no_stored_value(mini_goal):
    capped = towin.solve(MINI, max_points=40)
    for full, part in zip(mini_goal, capped, strict=True):
        assert np.array_equal(full[:, :part.shape[1]], part)
    with pytest.raises(ValueError, match="max_points"):
        towin.layout(MINI, -1)


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.full  # three clusters started (make test-full); make test builds the shared tables on a LocalCluster
def test_dask_build_is_byte_identical_on_any_cluster(tmp_path, mini_goal):
    """One worker, two workers (threads), a LocalCluster of processes, and a scheduler with separate
    `dask worker` processes reached by address: the same files, byte for byte, holding solve()'s numbers."""
    stores = {}
    for label, kwargs in {"1 worker": dict(workers=1, processes=False),
                          "2 workers": dict(workers=2, processes=False),
                          "2 processes": dict(workers=2, processes=True)}.items():
        path = tmp_path / label.replace(" ", "-")
        with dask_client(**kwargs) as client:
            build_store(path, MINI, "goal", None, 64, client, threads=1)
        stores[label] = _files(path)
    path = tmp_path / "separate"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    port = 38000 + os.getpid() % 1000
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--port", str(port),
                               "--no-dashboard", "--host", "127.0.0.1"], env=env, stderr=subprocess.DEVNULL)]
    try:
        procs += [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", f"tcp://127.0.0.1:{port}",
                                    "--nthreads", "1", "--no-dashboard"], env=env, stderr=subprocess.DEVNULL)
                  for _ in range(2)]
        with dask_client(f"tcp://127.0.0.1:{port}") as client:
            client.wait_for_workers(2, timeout=120)
            assert len({w["pid"] if "pid" in w else w["id"] for w in client.scheduler_info()["workers"].values()}) == 2
            build_store(path, MINI, "goal", None, 64, client, threads=1)
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(timeout=30)
    stores["separate processes"] = _files(path)
    first = stores["1 worker"]
    assert len(first) > 20  # several shards per layer: many tasks
    for label, files in stores.items():
        assert files == first, label
    group = zarr.open_group(str(tmp_path / "1-worker"), mode="r")
    for n, layer in enumerate(mini_goal):
        assert np.array_equal(group[f"layer_{n:02d}"][...], layer)


SHEETS = [{}, {"ones": 3}, {"ones": 3, "twos": 8, "threes": 9, "fours": 16, "fives": 20, "sixes": 24}]


@pytest.mark.parametrize("sheet", SHEETS)
def test_chance_equals_the_in_memory_table(towin_tables, sheet):
    goal = towin.solve(FORCED)
    win = towin.solve(FORCED, objective="win")
    lay = towin.layout(get_rules(FORCED))
    from lookup.yahtzee.sheet import Sheet

    sh = Sheet.parse(sheet, FORCED)
    for target in (0, 50, 120, 200, 260, 400):
        needed = target - sh.total
        assert chance(sheet, FORCED, goal=target, artifacts_dir=towin_tables) == _table(goal, lay)(sh.state, needed)
        assert chance(sheet, FORCED, beat=target, artifacts_dir=towin_tables) == _table(win, lay)(sh.state, needed)


@pytest.mark.parametrize("sheet", SHEETS[:2])
def test_decide_and_explain_agree_with_the_table(towin_tables, sheet):
    """The turn valued by decide/explain reproduces the table: the mean over the first roll of the best
    option equals chance() at the turn start, for a goal and for an opponent's score."""
    rules = get_rules(FORCED)
    enc = rules.encoding
    for kw in ({"goal": 130}, {"beat": 110}):
        best = np.array([decide([int(f) + 1 for f in roll], 2, sheet, FORCED, artifacts_dir=towin_tables,
                                **kw).probability for roll in enc.rolls])
        assert math.isclose(float(enc.roll_prob @ best), chance(sheet, FORCED, artifacts_dir=towin_tables, **kw),
                            abs_tol=1e-12)
        for rerolls in (0, 1, 2):
            d = decide([6, 2, 2, 5, 1], rerolls, sheet, FORCED, artifacts_dir=towin_tables, **kw)
            options = explain([6, 2, 2, 5, 1], rerolls, sheet, FORCED, artifacts_dir=towin_tables, **kw)
            assert d.probability == options[0].probability and options[0].regret == 0
            top = max(o.probability for o in options)
            assert all(a.probability >= b.probability or tied(a.probability, top, "probability")
                       for a, b in zip(options, options[1:], strict=False))
            if rerolls:
                assert options[0].keep == d.keep
                assert sorted(f for f, r in zip(d.dice, d.reroll, strict=True) if not r) == list(d.keep)
            else:
                assert options[0].category == d.category


def test_the_best_move_depends_on_the_goal(towin_tables):
    """A modest goal and a far one call for different keeps on some first roll; each decision is the best
    for its own goal and strictly worse for the other one."""
    rules = get_rules(FORCED)
    late = {"ones": 2, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18, "one_pair": 10}
    differ = 0
    for roll in rules.encoding.rolls:
        dice = [int(f) + 1 for f in roll]
        near = decide(dice, 2, late, FORCED, goal=130, artifacts_dir=towin_tables)
        far = decide(dice, 2, late, FORCED, goal=190, artifacts_dir=towin_tables)
        if near.keep == far.keep:
            continue
        differ += 1
        for mine, other, goal in ((near, far, 130), (far, near, 190)):
            by_keep = {o.keep: o.probability for o in explain(dice, 2, late, FORCED, goal=goal,
                                                              artifacts_dir=towin_tables)}
            assert by_keep[mine.keep] == mine.probability > by_keep[other.keep]
    assert differ > 0


def test_bad_input_is_refused(towin_tables):
    for kw, match in (({"goal": 100.0}, "goal must be an integer"), ({"beat": True}, "beat must be an integer"),
                      ({"goal": 1, "beat": 1}, "give one objective"), ({"goal": "300"}, "goal must be an integer")):
        with pytest.raises(ValueError, match=match):
            decide([1, 2, 3, 4, 5], 2, {}, FORCED, artifacts_dir=towin_tables, **kw)
    with pytest.raises(ValueError, match="not built"):
        decide([1, 2, 3, 4, 5], 2, {}, "hasbro", goal=200, artifacts_dir=towin_tables)
    with pytest.raises(ValueError, match="give goal, beat, opponent or opponents"):
        chance({}, FORCED, artifacts_dir=towin_tables)


def test_corrupted_table_is_refused(towin_tables, tmp_path):
    root = tmp_path / "artifacts"
    shutil.copytree(towin_tables, root)
    shard = next(p for p in sorted((root / f"yahtzee-{FORCED}-goal.zarr" / "layer_03").rglob("*")) if p.is_file()
                 and p.stat().st_size > 100)
    data = bytearray(shard.read_bytes())
    data[len(data) // 2] ^= 0xFF
    shard.write_bytes(bytes(data))
    table = load_towin(FORCED, "goal", root)  # chunks are checked when read
    with pytest.raises(ArtifactError, match="layer_03"):
        np.asarray(table.layers[3])


def test_report_compares_both_policies_exactly(towin_tables, tmp_path):
    from pipeline.yahtzee.towin_report import compare, write_report

    section = {"towin": {"rule_sets": [FORCED], "objectives": ["goal"], "max_points": None},
               "towin_report": {"targets": [100, 150, 200, 400]}}
    out = write_report(section, towin_tables, tmp_path / "report")
    assert sorted(p.name for p in out.iterdir()) == ["report.md", "scandinavian-forced-tail.png", "summary.json"]
    result = compare(FORCED, towin_tables, [100, 150, 200, 400])
    assert result["goal_dominates"]
    # The whole curve (400 > most points reachable): the expected-score policy's tail sums to its mean.
    assert math.isclose(sum(result["curve_expected"][1:]), result["expected_score"], abs_tol=1e-9)
    for row in result["targets"]:
        assert row["p_goal_policy"] == chance({}, FORCED, goal=row["target"], artifacts_dir=towin_tables)
        assert row["p_goal_policy"] >= row["p_expected_policy"]
    assert result["targets"][-1]["p_goal_policy"] == 0.0  # 400 is out of reach
    assert "| 150 |" in (out / "report.md").read_text()
    assert not list(tmp_path.glob(".tmp*"))


def test_cli_plays_to_win(towin_tables):
    from click.testing import CliRunner

    from pipeline.cli import main

    runner = CliRunner()
    out = runner.invoke(main, ["yahtzee", "decide", "1", "3", "3", "5", "6", "--rules", FORCED, "--goal", "150",
                               "--artifacts", str(towin_tables)])
    assert out.exit_code == 0, out.output
    p = decide([1, 3, 3, 5, 6], 2, {}, FORCED, goal=150, artifacts_dir=towin_tables).probability
    assert f"P(final >= 150) = {p:.6f}" in out.output and "probability" in out.output
    out = runner.invoke(main, ["yahtzee", "decide", "1", "3", "3", "5", "6", "--rules", FORCED, "--goal", "150",
                               "--beat", "150", "--artifacts", str(towin_tables)])
    assert out.exit_code == 1 and "give one objective" in out.output


def test_probabilities_tie_relatively():
    """The tie rule of probabilities is relative (points keep their absolute 1e-9): near zero, options are
    ordered, not lumped together; equal values and rounding noise still tie."""
    assert tied(1.6524179407115514e-08, 1.749090164565726e-08, "probability") is False  # the fuzz test's case
    for best in (1e-300, 5.68e-20, 1e-9, 0.5, 1.0):
        assert tied(best, best, "probability") and tied(best * (1 - 2 * EPS), best, "probability")
        assert not tied(best * (1 - 16 * EPS), best, "probability")
    assert tied(0.0, 0.0, "probability") and not tied(0.0, 5e-324, "probability")
    assert tied(250.0 - 5e-10, 250.0, "points") and not tied(250.0 - 2e-9, 250.0, "points")
    with pytest.raises(ValueError, match="unit"):
        tied(0.0, 0.0, "euros")


def test_decide_takes_the_best_keep_at_a_far_goal(towin_tables):
    """Found by the fuzz test: at goal 337 on an empty sheet, 1-1-1-1-2 with one reroll, keeping everything
    (P = 1.652e-8) was 'tied' with keeping 1-1-1-1 (P = 1.749e-8) under an absolute 1e-9."""
    for kw in ({"goal": 337}, {"beat": 337}):
        d = decide([1, 1, 1, 1, 2], 1, {}, FORCED, artifacts_dir=towin_tables, **kw)
        options = explain([1, 1, 1, 1, 2], 1, {}, FORCED, artifacts_dir=towin_tables, **kw)
        by_keep = {o.keep: o.probability for o in options}
        assert d.keep == options[0].keep == (1, 1, 1, 1) and d.probability == max(by_keep.values())
        assert 1e-8 < by_keep[(1, 1, 1, 1, 2)] < 0.95 * d.probability


def _played_sheets(rules: Rules, count: int, seed: int) -> list:
    """``count`` sheets of random games (random dice, random allowed box), from 0 to all but one box filled."""
    from lookup.yahtzee.sheet import Sheet

    rng = np.random.default_rng(seed)
    sheets = []
    for i in range(count):
        sheet = Sheet.empty(rules)
        for _ in range(i * (rules.n_boxes - 1) // max(count - 1, 1)):
            dice = [int(x) for x in rng.integers(1, 7, 5)]
            sheet.score(sorted(sheet.allowed(dice))[int(rng.integers(len(sheet.allowed(dice))))], dice)
        sheets.append(sheet)
    return sheets


def test_decide_is_the_argmax_of_explain(towin_tables):
    """Over many turns (played sheets, targets from easy to nearly out of reach, goal and win): the option
    decide() takes is explain()'s first, its probability is tied with the best (and is the best whenever no
    other option is tied), every option tied with the best precedes the others, and the rest are ranked by
    probability. Every roll of each turn through the turn analysis, a sample of rolls through the public API."""
    from lookup.yahtzee.towin import analyse, load_towin

    rules = get_rules(FORCED)
    enc = rules.encoding
    near_zero = 0
    rng = np.random.default_rng(7)
    for objective, key in (("goal", "goal"), ("win", "beat")):
        table = load_towin(FORCED, objective, towin_tables)
        for sheet in _played_sheets(rules, 6, seed=3):
            bound = int(table.bound[table.row(sheet.state)])
            for needed in (1, bound // 3, 2 * bound // 3, bound - 4, bound):
                analysis = analyse(table, sheet.state, needed)
                for j in (1, 2):
                    values = np.array([analysis.reroll_values(j, r)[enc.mask_order] for r in range(enc.n_rolls)])
                    best = values.max(axis=1)
                    chosen = np.array([analysis.keep[j][enc.keep_of_mask[r, analysis.best_reroll(j, r)]]
                                       for r in range(enc.n_rolls)])
                    assert np.all(best - chosen <= PROBABILITY_TIE_REL * best)
                    clear = (values < best[:, None] - PROBABILITY_TIE_REL * best[:, None]) | (values == best[:, None])
                    assert np.all(chosen[clear.all(axis=1)] == best[clear.all(axis=1)])
                    below = np.where(values < best[:, None], values, 0).max(axis=1)
                    near_zero += int(np.sum((best < 1e-12) & (best > 0) & (below > 0)))
                target = needed + sheet.total
                for roll in rng.choice(enc.n_rolls, 4, replace=False):
                    dice = [int(f) + 1 for f in enc.rolls[roll]]
                    for rerolls in (0, 1, 2):
                        d = decide(dice, rerolls, sheet, FORCED, artifacts_dir=towin_tables, **{key: target})
                        options = explain(dice, rerolls, sheet, FORCED, artifacts_dir=towin_tables, **{key: target})
                        top = max(o.probability for o in options)
                        assert (d.keep, d.category, d.probability) == (options[0].keep, options[0].category,
                                                                       options[0].probability)
                        assert tied(d.probability, top, "probability") and options[0].regret == 0
                        ties = [tied(o.probability, top, "probability") for o in options]
                        assert ties == sorted(ties, reverse=True)  # the tied options first, in tie order
                        rest = [o.probability for o, t in zip(options, ties, strict=True) if not t]
                        assert rest == sorted(rest, reverse=True)
                        assert all(o.regret == (0.0 if t else top - o.probability)
                                   for o, t in zip(options, ties, strict=True))
    assert near_zero > 0  # some best options below 1e-12 beside a smaller positive one: ordered, not tied


@pytest.mark.parametrize("kw", [{"goal": 333}, {"beat": 333}, {"goal": 27}])
def test_chance_is_the_mean_of_decide_where_the_old_tie_rule_lost(towin_tables, kw):
    """On this sheet the absolute 1e-9 tie rule took options up to 9e-10 below the best: the mean over the
    first roll of decide's probability fell 9e-10 short of chance() (goal 333). Now equal to rounding."""
    rules = get_rules(FORCED)
    sheet = {"ones": 0, "twos": 0}
    best = np.array([decide([int(f) + 1 for f in roll], 2, sheet, FORCED, artifacts_dir=towin_tables,
                            **kw).probability for roll in rules.encoding.rolls])
    want = chance(sheet, FORCED, artifacts_dir=towin_tables, **kw)
    assert math.isclose(float(rules.encoding.roll_prob @ best), want, rel_tol=1e-12, abs_tol=1e-300)


@pytest.mark.parametrize("objective,state,t", [("win", (4095, 0, 0), 12), ("goal", (4095, 0, 0), 6)])
def test_the_tie_rule_against_exact_rationals(towin_tables, objective, state, t):
    """Three turns from the end, where exact rationals are cheap: the options the rule ties with the best are
    exactly those of exactly the best probability, and decide's keep is the first of them. The two turns hold
    the closest genuinely different options measured (11.8 u apart with P = 0.99987; 44.7 u at P = 1 -
    1.5e-12; u = eps / 2), against at most 3.9 u between exactly equal ones."""
    from lookup.yahtzee.towin import analyse, load_towin

    rules = get_rules(FORCED)
    enc = rules.encoding
    exact = ExactTurns(rules, objective).keeps(state, t)
    analysis = analyse(load_towin(FORCED, objective, towin_tables), state, t)
    close = 0
    for j in (1, 2):
        for r in range(enc.n_rolls):
            keeps = [int(k) for k in enc.keep_of_mask[r, enc.mask_order]]  # in tie order
            floats = analysis.keep[j][keeps]
            want = [exact[j][k] == max(exact[j][x] for x in keeps) for k in keeps]
            assert list(analysis.tied(floats, floats.max())) == want, (j, r)
            assert analysis.best_reroll(j, r) == int(enc.mask_order[want.index(True)])
            gaps = floats.max() - floats[~np.array(want)]
            close += int(np.sum(gaps < 100 * EPS * floats.max()))
    assert close > 0  # genuinely different options within 100 eps of each other were among them
