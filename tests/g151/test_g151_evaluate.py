"""Exact evaluation of the notebook's strategies and of the optimal policies; simulation agrees."""


import numpy as np
import pytest

from lookup.g151.rules import RULE_SETS, get_rules
from pipeline.g151.evaluate import matchup, solitaire_turns
from pipeline.g151.report import notebook_strategies
from pipeline.g151.simulate import mean_and_se, simulate_duel, simulate_solitaire
from pipeline.g151.solve import solve_duel, solve_solitaire
from pipeline.g151.strategies import au_moins, bernoulli, jusquau_bout, strategy, un_coup

from .reference import duel_rolls, duel_values, un_coup_against_jusquau_bout


def test_notebook_strategies_as_tables():
    n = 20
    assert not un_coup().solitaire(n, "stated")[:, 1:].any()
    assert np.all(un_coup().solitaire(n, "stated")[:, 0] == 1)  # the first roll is forced
    jb = jusquau_bout().solitaire(n, "stated")
    assert jb[0, 19] == 1 and jb[0, 20] == 0 and jb[5, 14] == 1 and jb[5, 15] == 0
    am = au_moins(200).solitaire(n, "stated")
    assert am[0, 3] == 1 and am[0, 4] == 0  # 150 in the turn: roll; 200: bank
    assert am[17, 2] == 0  # 150 left to the target, less than 200: bank at once
    assert am[15, 3] == 1 and am[16, 4] == 0  # 250 left: roll at 150; exactly the target: bank
    assert np.all(bernoulli(0.25).solitaire(n, "stated")[:, 1:] == 0.75)  # banks with probability p
    assert strategy("auMoins50").name == "auMoins50" and strategy("bernoulli_0.5").name == "bernoulli_0.5"
    assert np.array_equal(au_moins(50).solitaire(n, "stated"), un_coup().solitaire(n, "stated"))
    with pytest.raises(ValueError, match="unknown strategy 'sometimes'; known: unCoup, jusquauBout"):
        strategy("sometimes")


def test_notebook_matchups_reproduced():
    # The notebook simulated unCoup (first) against jusquauBout with its own code: 10 000 games at 1000
    # gave unCoup 12.11 % and final scores 553.6 / 977.4; at 500, 24.83 %; at 5000, 0.04 %.
    for target, sim, final in ((1000, 0.1211, 553.635), (500, 0.2483, 315.35), (5000, 0.0004, 1751.06)):
        n = target // 50
        m = matchup(un_coup().duel(n, "notebook"), jusquau_bout().duel(n, "notebook"), "notebook", n)
        assert m.p1_wins[0] + m.p2_wins[0] == pytest.approx(1, abs=1e-12)
        se = (m.p1_wins[0] * (1 - m.p1_wins[0]) / 10_000) ** 0.5
        assert abs(m.p1_wins[0] - sim) < 4 * se
        assert m.p1_final[0] == pytest.approx(final, rel=0.01)
    # At 1000 exactly: the turn-by-turn rational computation from the strategies' definitions (reference.py).
    m = matchup(un_coup().duel(20, "notebook"), jusquau_bout().duel(20, "notebook"), "notebook", 20)
    assert m.p1_wins[0] == pytest.approx(float(un_coup_against_jusquau_bout(20)), abs=1e-13)


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_matchup_matches_rationals(name):
    n = 4
    rules = get_rules(name)
    pi1, pi2 = bernoulli(0.5).duel(n, rules), au_moins(100).duel(n, rules)
    w = duel_values(rules, n, duel_rolls(pi1, n), duel_rolls(pi2, n))
    m = matchup(pi1, pi2, rules, n)
    assert m.p1_wins[0] == pytest.approx(float(w[(1, 0, 0, 0)]), abs=1e-13)
    assert m.p1_wins[1] == pytest.approx(float(w[(2, 0, 0, 0)]), abs=1e-13)
    assert m.p1_wins[0] + m.p2_wins[0] == pytest.approx(1, abs=1e-13)


@pytest.mark.parametrize("name", list(RULE_SETS))
@pytest.mark.parametrize("target", [500, 1000, 2000])
def test_optimal_duel_beats_or_ties_every_notebook_strategy(name, target):
    n = target // 50
    duel = solve_duel(name, n)
    opt = (duel.policy == 1).astype(np.float64)
    v = duel.start[0, 0]  # first mover's win probability when both play optimally
    # Self-play evaluation of the optimal policy reproduces its value.
    assert matchup(opt, opt, name, n).p1_wins[0] == pytest.approx(v, abs=1e-12)
    for s in notebook_strategies(n):
        m = matchup(opt, s.duel(n, name), name, n)
        # Minimax: first, optimal wins at least v; second, the strategy wins at most v.
        assert m.p1_wins[0] >= v - 1e-12, s.name
        assert m.p2_wins[1] <= v + 1e-12, s.name
        assert (m.p1_wins[0] + m.p1_wins[1]) / 2 >= 0.5 - 1e-12, s.name


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_optimal_duel_beats_or_ties_exactly_in_rationals(name):
    n = 4
    rules = get_rules(name)
    duel = solve_duel(rules, n)
    opt = duel_rolls(duel.policy, n)
    v = duel_values(rules, n, opt, opt)[(1, 0, 0, 0)]
    # A few of each kind: every strategy of the grid is checked in floats above.
    for s in (un_coup(), jusquau_bout(), au_moins(100), au_moins(150), bernoulli(0.5), bernoulli(1 / 3)):
        w = duel_values(rules, n, opt, duel_rolls(s.duel(n, rules), n))
        assert w[(1, 0, 0, 0)] >= v, s.name  # optimal first
        assert w[(2, 0, 0, 0)] >= 1 - v, s.name  # strategy first: it wins at most v


@pytest.mark.parametrize("name", list(RULE_SETS))
@pytest.mark.parametrize("target", [500, 1000, 2000])
def test_optimal_solitaire_is_at_most_every_notebook_strategy(name, target):
    n = target // 50
    solo = solve_solitaire(name, n)
    assert solitaire_turns((solo.policy == 1).astype(float), name, n).counted[0] == pytest.approx(
        solo.start[0], abs=1e-10)
    for s in notebook_strategies(n):
        assert solitaire_turns(s.solitaire(n, name), name, n).counted[0] >= solo.start[0] - 1e-10, s.name


def _within(exact: float, sample: np.ndarray, sigmas: float = 4.0) -> None:
    mean, se = mean_and_se(sample)
    assert abs(mean - exact) < sigmas * se, (exact, mean, se)


@pytest.mark.parametrize(("name", "target", "p1", "p2", "first"), [
    ("stated", 1000, "optimal", "auMoins200", 0),
    ("notebook", 500, "bernoulli_0.5", "jusquauBout", 1),
    ("straights", 1000, "optimal", "unCoup", 1),
])
def test_duel_simulation_agrees_within_4_se(name, target, p1, p2, first):
    n = target // 50
    pi1, pi2 = strategy(p1).duel(n, name), strategy(p2).duel(n, name)
    m = matchup(pi1, pi2, name, n)
    sim = simulate_duel(pi1, pi2, name, n, 100_000, seed=7, first=first)
    assert np.all(sim.winner >= 0)
    _within(m.p1_wins[first], sim.winner == 0)
    _within(m.p1_final[first], sim.final[:, 0])
    _within(m.p2_final[first], sim.final[:, 1])


@pytest.mark.parametrize(("name", "target", "player"), [
    ("stated", 1000, "optimal"), ("notebook", 1000, "unCoup"), ("straights", 500, "bernoulli_0.3"),
])
def test_solitaire_simulation_agrees_within_4_se(name, target, player):
    n = target // 50
    pi = strategy(player).solitaire(n, name)
    ev = solitaire_turns(pi, name, n)
    sim = simulate_solitaire(pi, name, n, 100_000, seed=11)
    _within(ev.turns[0], sim.turns)
    _within(ev.scoring_turns[0], sim.scoring_turns)


def test_simulation_is_seeded():
    pi = strategy("auMoins200").duel(10, "stated")
    a = simulate_duel(pi, pi, "stated", 10, 1000, seed=5)
    b = simulate_duel(pi, pi, "stated", 10, 1000, seed=5)
    assert np.array_equal(a.winner, b.winner) and np.array_equal(a.final, b.final)
