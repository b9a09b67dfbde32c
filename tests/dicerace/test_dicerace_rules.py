"""Dice-race roll distribution: exact values, brute-force enumeration, and the lookup API."""

import itertools
from fractions import Fraction

import numpy as np
import pytest

from lookup.dicerace import probabilities
from lookup.dicerace.rules import roll_score
from pipeline import registry
from pipeline.dicerace.probabilities import exact_tables, float_tables


def test_rows_sum_to_one_exactly():
    p, q = exact_tables(30)
    for d in range(31):
        assert sum(p[d]) == 1
        assert sum(q[d]) == 1
    pf, qf = float_tables(30)
    np.testing.assert_allclose(pf.sum(axis=1), 1.0, rtol=0, atol=1e-14)
    np.testing.assert_allclose(qf.sum(axis=1), 1.0, rtol=0, atol=1e-14)


def test_published_bust_probabilities():
    p, _ = exact_tables(3)
    assert p[2][1] == Fraction(11, 36)
    assert p[3][1] == Fraction(91, 216)
    assert p[1][1] == Fraction(1, 6) and p[1][4] == Fraction(1, 6)


@pytest.mark.parametrize("d", range(1, 7))
def test_against_brute_force_enumeration(d):
    p, q = exact_tables(d)
    p_count, q_count = {}, {}
    for dice in itertools.product(range(1, 7), repeat=d):
        score = roll_score(dice)
        p_count[score] = p_count.get(score, 0) + 1
    for dice in itertools.product(range(2, 7), repeat=d):
        q_count[sum(dice)] = q_count.get(sum(dice), 0) + 1
    assert {k: v for k, v in enumerate(p[d]) if v} == {k: Fraction(c, 6**d) for k, c in p_count.items()}
    assert {k: v for k, v in enumerate(q[d]) if v} == {k: Fraction(c, 5**d) for k, c in q_count.items()}


def test_float_tables_are_the_exact_fractions_rounded():
    p, q = exact_tables(30)
    pf, qf = float_tables(30)
    assert pf[30, 1] == float(p[30][1]) and qf[30, 120] == float(q[30][120])
    assert pf[30, 1] == float(Fraction(6**30 - 5**30, 6**30))


def _build(artifacts, tmp_path, max_dice=30):
    params = tmp_path / "params.yaml"
    params.write_text(f"dicerace:\n  max_dice: {max_dice}\n")
    return registry.build(["dicerace-probabilities"], params_path=params, artifacts_dir=artifacts)


def test_lookup_reads_the_verified_artifact(artifacts, tmp_path):
    _build(artifacts, tmp_path)
    p, q = exact_tables(30)
    for d in (1, 2, 3, 17, 30):
        dist = probabilities(d, artifacts_dir=artifacts)
        assert dist.p.shape == (6 * d + 1,)
        np.testing.assert_array_equal(dist.p, [float(x) for x in p[d][: 6 * d + 1]])
        np.testing.assert_array_equal(dist.q, [float(x) for x in q[d][: 6 * d + 1]])
    assert probabilities(3, artifacts_dir=artifacts).p[1] == 91 / 216


@pytest.mark.parametrize("bad, message", [
    (0, "d must be an integer >= 1"), (-2, "d must be an integer >= 1"), (31, "max_dice=30: d=31 is not built"),
    (2.5, "integer"),
    (True, "integer"),
])
def test_lookup_rejects_bad_dice_counts(artifacts, tmp_path, bad, message):
    _build(artifacts, tmp_path)
    with pytest.raises(ValueError, match=message):
        probabilities(bad, artifacts_dir=artifacts)


def test_lookup_without_tables_says_how_to_build(artifacts):
    with pytest.raises(ValueError, match="dicetables build"):
        probabilities(3, artifacts_dir=artifacts)


def test_build_reuses_then_recomputes_on_param_change(artifacts, tmp_path, monkeypatch):
    calls = []
    import pipeline.dicerace.probabilities as probs

    real = probs.float_tables
    monkeypatch.setattr(probs, "float_tables", lambda n: calls.append(n) or real(n))
    assert {s for _, s in _build(artifacts, tmp_path, 12)} == {"built"}
    assert {s for _, s in _build(artifacts, tmp_path, 12)} == {"reused"}
    assert calls == [12]
    assert {s for _, s in _build(artifacts, tmp_path, 13)} == {"built"}
    assert calls == [12, 13]
    assert probabilities(13, artifacts_dir=artifacts).p.shape == (79,)
    forced = registry.build(["dicerace-probabilities"], params_path=tmp_path / "params.yaml",
                          artifacts_dir=artifacts, force=True)
    assert {s for _, s in forced} == {"built"} and calls == [12, 13, 13]


def test_bad_params_are_named(artifacts, tmp_path):
    with pytest.raises(ValueError, match="max_dice"):
        _build(artifacts, tmp_path, max_dice="lots")
    with pytest.raises(ValueError, match="unknown table family"):
        registry.build(["nope"], artifacts_dir=artifacts)


def test_expected_points_and_blind_dice_against_enumeration():
    """expected_points(d) against the mean of roll_law (every 6**d outcome enumerated, tests/dicerace/
    exact_reference.py), and blind_dice(D) against the plain argmax of those means (smallest d on a tie)."""
    from lookup.dicerace.rules import blind_dice, expected_points

    from .exact_reference import roll_law

    means = {d: sum(k * p for k, p in roll_law(d).items()) for d in range(1, 8)}
    assert {d: expected_points(d) for d in means} == means
    assert means[1] == Fraction(7, 2)  # one die: a 1 scores 1, the others their face
    for top in range(1, 8):
        best = max(means[d] for d in range(1, top + 1))
        assert blind_dice(top) == min(d for d in range(1, top + 1) if means[d] == best), top
    # Beyond 7 dice the mean falls: 6 stays the blind choice (the exact means of d dice: 1 - q + q 4d, q = (5/6)^d).
    q = Fraction(5, 6)
    assert all(expected_points(d) == 1 - q**d + q**d * 4 * d for d in range(1, 31))
    assert all(blind_dice(top) == 6 for top in (8, 10, 20, 30))
