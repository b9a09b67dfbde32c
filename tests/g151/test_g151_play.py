"""lookup.g151 play API over built artifacts: decide / value / action_values, bad input, the CLI."""

import json
import shutil
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from click.testing import CliRunner

from lookup.g151 import action_values, decide, value
from lookup.g151.rules import get_rules
from lookup.g151.tables import artifact_name, load_tables
from lookup.store import ArtifactError, open_artifact
from pipeline.cli import main
from pipeline.g151.solve import solve_duel, solve_solitaire

from .reference import (
    duel_equations,
    duel_rolls,
    enumerated_law,
    roll_outcomes,
    solitaire_policy_iteration,
    solve_float,
    un_coup_against_jusquau_bout,
)


def test_tables_match_the_solver(g151_tables):
    tables = load_tables(get_rules("stated"), g151_tables)
    assert tables.targets == (300, 1000)
    duel, solo = solve_duel("stated", 20), solve_solitaire("stated", 20)
    got = tables.tables[("duel", 1000)]
    assert np.array_equal(got["policy"], duel.policy)
    assert np.array_equal(got["roll"], duel.roll, equal_nan=True)
    assert np.array_equal(tables.tables[("solitaire", 1000)]["bank"], solo.bank, equal_nan=True)
    assert tables.stats["roll_mean"] == "1025/12" and tables.stats["duel_fallbacks_1000"] == 0
    assert tables.stats["duel_first_mover_win_1000"] == pytest.approx(duel.start[0, 0], abs=0)
    with open_artifact(g151_tables / f"{artifact_name(get_rules('stated'))}.h5", schema="g151.tables",
                       versions=[1]) as art:
        assert np.array_equal(art.read("duel_policy_300"), solve_duel("stated", 6).policy)


def test_decide_and_value(g151_tables):
    duel, solo = solve_duel("stated", 20), solve_solitaire("stated", 20)
    kw = {"artifacts_dir": g151_tables}
    for a, b, t in [(0, 0, 0), (12, 18, 5), (0, 19, 8), (10, 3, 10), (19, 19, 1)]:
        expected = "roll" if duel.policy[a, b, t] == 1 else "bank"
        assert decide(50 * a, 50 * t, 50 * b, **kw) == expected
        both = action_values(50 * a, 50 * t, 50 * b, **kw)
        assert value(50 * a, 50 * t, 50 * b, **kw) == max(both.values())
        assert both["roll"] == duel.roll[a, b, t]
    assert value(0, 0, 0, **kw) == duel.start[0, 0]
    assert value(0, 0, **kw) == pytest.approx(solo.start[0], abs=1e-12)
    assert decide(950, 50, 0, **kw) == "bank"  # banking reaches the target: a win
    assert decide(950, 0, **kw) == "roll"  # a turn starts with a roll
    assert "bank" not in action_values(0, 0, **kw)
    assert value(950, 0, 950, **kw) == pytest.approx(9 / 16, abs=1e-15)


def _one_step(law, rules, n, w, mover, own, opp, t):
    """(roll, bank) values for the mover at (own, opp, t), from the mover's side, given w = P(player 1 wins)
    under the policies followed afterwards (keys (mover, a, b, t)); bank is None at t = 0."""
    def state(m, mine, theirs, total):
        return (m, mine, theirs, total) if mover == 1 else (m, theirs, mine, total)
    other = 3 - mover

    def banked(total):
        if own + total == n:
            return 1.0
        return w[state(other, own + total, opp, 0)] if mover == 1 else 1 - w[state(other, own + total, opp, 0)]

    def p1(key):
        return w[key] if mover == 1 else 1 - w[key]

    roll = 0.0
    for p, kind, u in roll_outcomes(law, t, n - own, rules.zero_keeps_turn):
        roll += float(p) * (p1(state(mover, own, opp, u)) if kind == "on" else banked(u) if kind == "bank"
                            else p1(state(other, own, opp, 0)))
    return roll, (banked(t) if t else None)


@pytest.mark.parametrize("name", ["stated", "notebook"])
def test_decisions_at_300_against_independent_references(g151_tables, name):
    """Every decision of the target-300 tables against the references of tests/g151/reference.py: alone, the
    exact optimal expected turns (policy iteration in rationals, from scratch); in a duel, the stored policy's
    win probabilities recomputed from its own equations (floats), under which the stored action must be the
    better one for each player at every state (an equilibrium, hence optimal), banking on a tie."""
    rules, n = get_rules(name), 6
    kw = {"artifacts_dir": g151_tables, "target": 300, "rules": name}
    j, _ = solitaire_policy_iteration(rules, n)
    j = {**j, (n, 0): Fraction(0)}
    law = enumerated_law(rules)
    fail_cost = int(rules.failed_turns_count)
    for a in range(n):
        for t in range(1, n - a + 1):
            roll = sum(p * (j[(a, u)] if kind == "on" else 1 + j[(a + u, 0)] if kind == "bank"
                            else fail_cost + j[(a, 0)])
                       for p, kind, u in roll_outcomes(law, t, n - a, rules.zero_keeps_turn))
            bank = 1 + j[(a + t, 0)]
            assert decide(50 * a, 50 * t, **kw) == ("roll" if roll < bank else "bank"), (a, t)
            assert value(50 * a, 50 * t, **kw) == pytest.approx(float(min(roll, bank)), abs=1e-12), (a, t)
    policy = load_tables(rules, g151_tables).tables[("duel", 300)]["policy"]
    w = solve_float(duel_equations(rules, n, duel_rolls(policy, n), duel_rolls(policy, n)))
    decided = 0
    for mover, own, opp in product((1, 2), range(n), range(n)):
        for t in range(1, n - own + 1):
            roll, bank = _one_step(law, rules, n, w, mover, own, opp, t)
            if abs(roll - bank) > 1e-9:  # else a tie (to float precision): either action keeps the value
                assert policy[own, opp, t] == (1 if roll > bank else 0), (mover, own, opp, t)
                decided += 1
    assert decided > 50
    # The state the play API is asked about: roll is worth far more than bank (not a near tie).
    roll, bank = _one_step(law, rules, n, w, 1, 0, 0, 2)
    assert decide(0, 100, 0, **kw) == ("roll" if roll > bank else "bank") and abs(roll - bank) > 1e-3


@pytest.mark.parametrize(("args", "kwargs", "match"), [
    ((1050, 0), {}, "below the target"),
    ((1000, 0), {}, "below the target"),
    ((75, 0), {}, "multiple of 50"),
    ((0, 25), {}, "multiple of 50"),
    ((-50, 0), {}, "multiple of 50"),
    ((900, 150), {}, "exceeds the target"),
    ((0, 0, 1000), {}, "below the target"),
    ((0, 0, 1100), {}, "below the target"),
    ((0, 0, 30), {}, "multiple of 50"),
    ((0, 0), {"rules": "house"}, "unknown 151 variant"),
    ((0, 0), {"target": 1025}, "multiple of 50"),
    ((0, 0), {"target": 1500}, r"table for target 1500 .* is not built"),
    ((0, 0), {"rules": "straights"}, "not built"),
    ((True, 0), {}, "integer"),
])
def test_bad_input_is_a_value_error(g151_tables, args, kwargs, match):
    for fn in (decide, value, action_values):
        with pytest.raises(ValueError, match=match):
            fn(*args, artifacts_dir=g151_tables, **kwargs)


def test_missing_table_is_an_artifact_error(tmp_path):
    with pytest.raises(ArtifactError, match="the 'stated' 151 tables are not built; to build: `dicetables build "
                                          "g151-stated`, with 'stated' in g151.variants"):
        decide(0, 0, artifacts_dir=tmp_path)


def test_cli(g151_tables):
    runner = CliRunner()
    art = ["--artifacts", str(g151_tables)]
    out = runner.invoke(main, ["g151", "decide", "600", "250", "--other", "900", *art])
    assert out.exit_code == 0, out.output
    assert out.output.startswith("stated, target 1000: ") and "win probability" in out.output
    out = runner.invoke(main, ["g151", "value", "950", "0", "--other", "950", *art])
    assert out.exit_code == 0 and float(out.output) == pytest.approx(0.5625)
    out = runner.invoke(main, ["g151", "value", "950", "0", "--other", "950", "--json", *art])
    assert out.exit_code == 0 and json.loads(out.output) == {
        "rules": "stated", "target": 1000, "banked": 950, "turn_total": 0, "other_banked": 950,
        "measure": "win probability", "value": 0.5625}
    out = runner.invoke(main, ["g151", "decide", "600", "250", "--other", "900", "--json", *art])
    got = json.loads(out.output)
    assert got["action"] == decide(600, 250, 900, artifacts_dir=g151_tables)
    assert got["action_values"] == action_values(600, 250, 900, artifacts_dir=g151_tables)
    out = runner.invoke(main, ["g151", "decide", "1100", "0", *art])
    assert out.exit_code == 1 and "below the target" in out.output
    out = runner.invoke(main, ["g151", "distribution", "--rules", "straights"])
    assert out.exit_code == 0 and "3475/36" in out.output
    # The numbers against tests/g151/reference.py: the turn-by-turn rational match-up, exact policy iteration.
    out = runner.invoke(main, ["g151", "evaluate", "unCoup", "--against", "jusquauBout", "--rules", "notebook"])
    exact = float(un_coup_against_jusquau_bout(20))
    assert out.exit_code == 0 and f"unCoup first: P(unCoup wins) = {exact:.9f}" in out.output
    out = runner.invoke(main, ["g151", "evaluate", "optimal", "--target", "500"])
    turns = float(solitaire_policy_iteration(get_rules("stated"), 10)[0][(0, 0)])  # 6.7027555...
    assert out.exit_code == 0 and f"expected turns {turns:.9f}" in out.output
    out = runner.invoke(main, ["g151", "simulate", "auMoins200", "--games", "2000", "--target", "500"])
    assert out.exit_code == 0 and "z =" in out.output


def test_cli_distribution_json_is_the_library_law():
    """`g151 distribution --json`: roll_distribution's law and roll_moments' mean and variance, exact (fractions as
    text, docs/cli.md), and the standard deviation as the text names it (sd)."""
    from lookup.g151.rules import roll_distribution, roll_moments

    out = CliRunner().invoke(main, ["g151", "distribution", "--rules", "straights", "--json"])
    assert out.exit_code == 0, out.output
    got = json.loads(out.output)
    mean, var = roll_moments("straights")
    assert got == {"rules": "straights", "mean": "3475/36", "variance": f"{var.numerator}/{var.denominator}",
                   "sd": float(var) ** 0.5,
                   "distribution": {str(k): f"{p.numerator}/{p.denominator}"
                                    for k, p in roll_distribution("straights").items()}}
    assert mean == Fraction(3475, 36)
    text = CliRunner().invoke(main, ["g151", "distribution", "--rules", "straights"]).output
    assert f"sd {got['sd']:.6f} points" in text and "std" not in text


@pytest.mark.parametrize("how", ["flip", "rewrite"])
def test_a_damaged_table_is_refused_naming_the_problem(g151_tables, tmp_path, how):
    """A flipped bit (crc32c) or a changed policy entry re-encoded with a valid crc32c (sha256 digest), in a
    private copy: the stated tables are refused, the notebook's still answer."""
    from test_chunked import damage_chunk

    root = tmp_path / "artifacts"
    shutil.copytree(g151_tables, root)
    message = damage_chunk(root / "g151-stated.zarr", "duel_policy_1000", how)
    with pytest.raises(ArtifactError, match=message):
        decide(0, 0, 0, artifacts_dir=root)
    assert value(0, 0, 0, rules="notebook", artifacts_dir=root) == value(0, 0, 0, rules="notebook",
                                                                         artifacts_dir=g151_tables)
