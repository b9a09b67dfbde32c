"""Forced-order Yatzy among 2 and 3 players, each playing to win (pipeline.yahtzee.party, lookup.yahtzee.party),
against independent recomputation.

* Reduced games (2 to 4 boxes, 2, 3 or 5 dice, 2 and 3 players, a low bonus threshold so that the bonus is in
  play): a plain recursion over (box, seat to move, raw upper totals, totals) in exact rationals, every keep
  of every roll, each mover maximising their own share with the documented tie rule (the larger keep among
  equal shares), equals the solver's outcome probabilities at every reachable state.
* Two players at full size: the outcome probabilities are a distribution at every state, and the game is
  zero-sum; play's turn (``lookup.yahtzee.party``) averages to the stored share at random positions. The
  2-player play API against other tables and a simulation: tests/yahtzee/test_yahtzee_duel.py.
* Every seat on the expected-score policy: the joint chain equals the outcome law of independent scores from
  the exact law of one score (``make test-full`` at three players; two players here).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from lookup.yahtzee.party_states import outcome_names, party_layout, share_weights
from lookup.yahtzee.rules import get_rules, score_roll
from pipeline.yahtzee.party import iid_party, solve_party

FORCED = "scandinavian+forced"


def _mini(n_dice: int, threshold: int):
    base = get_rules(FORCED)
    return dataclasses.replace(base, name=f"mini-{n_dice}-{threshold}", n_dice=n_dice, upper_threshold=threshold)


@cache
def _throws(m: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every sorted result of throwing m dice with its exact probability."""
    counts = Counter(tuple(sorted(t)) for t in itertools.product(range(1, 7), repeat=m))
    return tuple((k, Fraction(v, 6 ** m)) for k, v in sorted(counts.items()))


class Brute:
    """The game by plain recursion in exact rationals. A value is the tuple of outcome probabilities (winner
    set with bit mask k + 1 at position k); the mover's share is the sum of P(W) / |W| over W holding it."""

    def __init__(self, rules, boxes: tuple[int, ...], players: int) -> None:
        self.rules, self.boxes, self.players = rules, boxes, players
        self.n = rules.n_dice
        self.memo: dict = {}
        self.turns: dict = {}

    def share(self, value: tuple, seat: int) -> Fraction:
        return sum((p / bin(k + 1).count("1") for k, p in enumerate(value) if (k + 1) >> seat & 1), Fraction(0))

    def value(self, i: int, seat: int, uppers: tuple[int, ...], totals: tuple[int, ...]) -> tuple:
        key = (i, seat, uppers, totals)
        if key not in self.memo:
            self.memo[key] = self._value(i, seat, uppers, totals)
        return self.memo[key]

    def step(self, state: tuple, points: int) -> tuple:
        """The next state once the mover scores ``points`` in the forced box (the bonus when the upper total
        first reaches the threshold)."""
        i, seat, uppers, totals = state
        r = self.rules
        up, tot = list(uppers), list(totals)
        tot[seat] += points
        if self.boxes[i] < 6:
            if up[seat] < r.upper_threshold <= up[seat] + points:
                tot[seat] += r.upper_bonus
            up[seat] += points
        nxt = (i, seat + 1) if seat + 1 < self.players else (i + 1, 0)
        return (*nxt, tuple(up), tuple(tot))

    def _value(self, i, seat, uppers, totals):
        state = (i, seat, uppers, totals)
        if i == len(self.boxes):
            best = max(totals)
            mask = sum(1 << j for j, t in enumerate(totals) if t == best)
            return tuple(Fraction(int(k + 1 == mask)) for k in range((1 << self.players) - 1))
        final = {roll: self.value(*self.step(state, score_roll(self.rules, roll, self.boxes[i])))
                 for roll, _ in _throws(self.n)}
        key = (seat, tuple(final.values()))  # many states lead to the same final values (decided games)
        if key not in self.turns:
            self.turns[key] = self.turn(final, seat)
        return self.turns[key]

    def turn(self, final: dict, seat: int) -> tuple:
        """Three rolls: E(keep) = mean over the next die's faces; M(keep) = E(keep) unless a sub-keep (one die
        fewer, faces in increasing order) gives the mover a strictly larger share, then the first such."""
        value_of_roll = final
        for _ in range(2):
            e_memo: dict = {}
            m_memo: dict = {}

            def e(keep, rolls=value_of_roll, e_memo=e_memo):
                if len(keep) == self.n:
                    return rolls[keep]
                if keep not in e_memo:
                    parts = [e(tuple(sorted(keep + (f,)))) for f in range(1, 7)]
                    e_memo[keep] = tuple(sum(p[k] for p in parts) / 6 for k in range(len(parts[0])))
                return e_memo[keep]

            def m(keep, e=e, m_memo=m_memo):
                if keep not in m_memo:
                    best = e(keep)
                    for f in sorted(set(keep)):
                        sub = list(keep)
                        sub.remove(f)
                        cand = m(tuple(sub))
                        if self.share(cand, seat) > self.share(best, seat):
                            best = cand
                    m_memo[keep] = best
                return m_memo[keep]

            value_of_roll = {roll: m(roll) for roll, _ in _throws(self.n)}
        first = [value_of_roll[roll] for roll, _ in _throws(self.n)]
        probs = [p for _, p in _throws(self.n)]
        return tuple(sum(p * v[k] for p, v in zip(probs, first, strict=True)) for k in range(len(first[0])))

    def reachable(self):
        """Every (i, seat, uppers, totals) forced-order play reaches from the start."""
        start = (0, 0, (0,) * self.players, (0,) * self.players)
        seen, todo = {start}, [start]
        while todo:
            state = todo.pop()
            if state[0] == len(self.boxes):
                continue
            for points in {score_roll(self.rules, roll, self.boxes[state[0]]) for roll, _ in _throws(self.n)}:
                nxt = self.step(state, points)
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen


@pytest.mark.parametrize("players, n_dice, threshold, boxes", [
    (3, 2, 4, (0, 1, 14)),      # ones, twos, yatzy (two alike); bonus at 4
    pytest.param(3, 3, 4, (1, 13), marks=pytest.mark.full),  # twos, chance with three dice; bonus at 4
    (2, 2, 5, (0, 1, 6, 13)),   # two players: ones, twos, one pair, chance; bonus at 5
    (2, 5, 3, (0, 14)),         # two players, five dice: ones and yatzy; bonus at 3
])
def test_reduced_games_equal_exact_brute_force_at_every_reachable_state(players, n_dice, threshold, boxes):
    rules = _mini(n_dice, threshold)
    sol = solve_party(rules, boxes, players)
    lay = sol.layout
    brute = Brute(rules, boxes, players)
    states = brute.reachable()
    for state in states:
        i, seat, uppers, totals = state
        layer = players * i + seat
        want = brute.value(*state)
        assert sum(want) == 1
        flat = sol.layers[layer].reshape(lay.n_outcomes, -1)[:, lay.index(layer, uppers, totals)]
        np.testing.assert_allclose(flat, [float(p) for p in want], rtol=0, atol=1e-13, err_msg=str(state))
    assert len(states) > 100


@pytest.fixture(scope="module")
def two_player(tmp_path_factory):
    from tests import shared

    return shared.two_player_solution(tmp_path_factory, FORCED)


def test_outcomes_are_a_distribution_at_every_state(two_player):
    for layer in two_player.layers:
        assert (layer >= -1e-15).all()
        np.testing.assert_allclose(layer.sum(axis=0), 1.0, rtol=0, atol=1e-12)


@pytest.mark.parametrize("players", [2, pytest.param(3, marks=pytest.mark.full)])
def test_expected_score_players_equal_independent_scores(players, tmp_path_factory):
    """All seats on the single-player expected-score policy: no one looks at the others, so the final scores
    are independent draws from the exact law of one score."""
    from pipeline.yahtzee.distribution import score_distribution
    from tests import shared

    sol = shared.solution(tmp_path_factory, FORCED, policy=True)
    chain = solve_party(FORCED, None, players, policy=(sol.state_index, sol.reroll),
                        fixed_seats=tuple(range(players)))
    # Writable copies of the run's shared (read-only) policy, as a build passes: a read-only array is another
    # numba specialisation of the law's kernel, which `dicetables compile` compiled for the build's arrays only.
    law = score_distribution(get_rules(FORCED), sol.state_index, sol.reroll.copy(), sol.category.copy())
    want = iid_party(law.pmf, players)
    got = chain.start()
    assert set(got) == set(outcome_names(players))
    for name in got:
        assert abs(got[name] - want[name]) < 1e-12, name
    assert abs(sum(got.values()) - 1) < 1e-12


def test_iid_party_on_a_small_law():
    # Two values, P = 1/2 each, three players: a sole winner at 1 needs the other two at 0.
    got = iid_party(np.array([0.5, 0.5]), 3)
    assert got["win_0"] == 0.5 * 0.25 and got["tie_012"] == 0.125 + 0.125
    assert abs(sum(got.values()) - 1) < 1e-15


def test_layout_refuses_what_it_does_not_cover():
    with pytest.raises(ValueError, match="not forced-order"):
        party_layout("scandinavian", None, 3)
    with pytest.raises(ValueError, match="Joker"):
        party_layout(dataclasses.replace(get_rules("hasbro"), name="hasbro-in-order", forced_order=True), None, 3)
    with pytest.raises(ValueError, match="players must be one of"):
        party_layout(FORCED, None, 4)
    lay = party_layout(FORCED, None, 3)
    with pytest.raises(ValueError, match="outside the table"):
        lay.index(lay.n_layers - 1, (0, 0, 0), (0, 400, 0))


def _table(sol):
    """The solution as play reads it (one flat array per outcome, as the artifact stores them)."""
    from lookup.yahtzee.party import PartyTable

    lay = sol.layout
    flat = tuple(np.concatenate([layer[k].ravel() for layer in sol.layers]) for k in range(lay.n_outcomes))
    return PartyTable(lay, flat, lay.offsets(), {})


def _random_sheets(rng, players: int, box: int, seat: int):
    """Sheets of a forced-order game at box position ``box`` with ``seat`` to move: seats before it have
    filled box ``box`` too; points drawn from each box's possible scores."""
    from lookup.yahtzee.sheet import possible_points

    rules = get_rules(FORCED)
    possible = possible_points(rules)
    sheets = []
    for j in range(players):
        filled = box + (1 if j < seat else 0)
        sheets.append([int(rng.choice(sorted(possible[c]))) if c < filled else None for c in range(rules.n_boxes)])
    return sheets


def test_play_turn_reproduces_the_table(two_player):
    """At random positions the mover's turn, valued from the next layer (``lookup.yahtzee.party``), averages
    to the stored share of the state (the table's policy is the turn's); the shares of both seats add to 1."""
    from lookup.yahtzee.party import party_analysis, party_outcomes, party_position

    table = _table(two_player)
    rng = np.random.default_rng(7)
    w = share_weights(2)
    for trial in range(40):
        box, seat = int(rng.integers(0, 15)), int(rng.integers(0, 2))
        sheets = _random_sheets(rng, 2, box, seat)
        me, other = sheets[seat], sheets[1 - seat]
        pos = party_position(me, [other], FORCED)
        assert pos.seat == seat and pos.layer == 2 * box + seat
        stored = w[seat] @ np.array(list(party_outcomes(table, pos).values()))
        analysis = party_analysis(table, pos)
        assert abs(analysis.start_value - stored) < 1e-12, trial
        other_share = w[1 - seat] @ np.array(list(party_outcomes(table, pos).values()))
        assert abs(stored + other_share - 1) < 1e-12, trial


def test_positions_among_three_players():
    from lookup.yahtzee.party import party_position

    empty = [None] * 15
    one = [3] + [None] * 14
    pos = party_position(empty, [empty, empty], FORCED)
    assert (pos.seat, pos.layer) == (0, 0)
    # Third at box 0: both opponents have played it; in turn order after the mover they come seat 0, seat 1.
    pos = party_position(empty, [[2] + [None] * 14, one], FORCED)
    assert (pos.seat, pos.layer, pos.uppers) == (2, 2, (2, 3, 0))
    pos = party_position(empty, [empty, one], FORCED)  # second: seat 2 still to play, seat 0 has played
    assert (pos.seat, pos.uppers) == (1, (3, 0, 0))
    with pytest.raises(ValueError, match="turn order"):
        party_position(empty, [one, empty], FORCED)  # one who has played listed before one still to play
    with pytest.raises(ValueError, match="sheet order"):
        party_position([None, 4] + [None] * 13, [empty, empty], FORCED)
    with pytest.raises(ValueError, match="finished"):
        full = _random_sheets(np.random.default_rng(1), 3, 15, 0)
        party_position(full[0], full[1:], FORCED)


def test_three_player_table_missing_names_the_build(tmp_path):
    from lookup.errors import NotBuiltError
    from lookup.yahtzee import decide
    from lookup.yahtzee.duel import win_probability

    empty = [None] * 15
    with pytest.raises(NotBuiltError, match="yahtzee-party3-scandinavian-forced"):
        decide([1, 2, 3, 4, 5], 2, empty, FORCED, opponents=[empty, empty], artifacts_dir=tmp_path)
    with pytest.raises(NotBuiltError, match="3-player table"):
        win_probability(empty, FORCED, opponents=[empty, empty], artifacts_dir=tmp_path)
    with pytest.raises(ValueError, match="2 or 3 players"):
        decide([1, 2, 3, 4, 5], 2, empty, FORCED, opponents=[empty, empty, empty], artifacts_dir=tmp_path)


PARTY3 = ("yahtzee:\n  rule_sets: [scandinavian+forced]\n  duel:\n    rule_sets: [scandinavian+forced]\n"
          "    players: [3]\n")


@pytest.mark.full
def test_three_player_artifact_and_play(tmp_path_factory):
    """The built 3-player table, asked through the public API: at random positions the mover's turn averages to
    the stored share (the table's play is the turn's), decide is explain's first option, and the outcome
    probabilities are a distribution; the start's numbers are the artifact's stats."""
    from lookup import yahtzee
    from lookup.yahtzee import explain
    from lookup.yahtzee.duel import win_probability
    from lookup.yahtzee.party import load_party, party_analysis, party_outcomes, party_position
    from tests import shared

    root = shared.shared_build(tmp_path_factory, PARTY3, ["yahtzee-party3-scandinavian-forced"])
    table = load_party(FORCED, 3, root)
    empty = [None] * 15
    start = party_outcomes(table, party_position(empty, [empty, empty], FORCED))
    assert start == pytest.approx(table.stats["outcomes"], abs=1e-15)
    assert abs(sum(start.values()) - 1) < 1e-12
    rng = np.random.default_rng(11)
    w = share_weights(3)
    for trial in range(12):
        box, seat = int(rng.integers(0, 15)), int(rng.integers(0, 3))
        sheets = _random_sheets(rng, 3, box, seat)
        opponents = [sheets[(seat + 1) % 3], sheets[(seat + 2) % 3]]
        pos = party_position(sheets[seat], opponents, FORCED)
        assert (pos.seat, pos.layer) == (seat, 3 * box + seat)
        outcomes = party_outcomes(table, pos)
        assert abs(sum(outcomes.values()) - 1) < 1e-12
        stored = float(w[seat] @ np.array(list(outcomes.values())))
        assert abs(party_analysis(table, pos).start_value - stored) < 1e-12, trial
        win, tie, lose = win_probability(sheets[seat], FORCED, opponents=opponents, artifacts_dir=root)
        assert win + tie / 3 - 1e-12 <= stored <= win + tie / 2 + 1e-12 and abs(win + tie + lose - 1) < 1e-12
        dice = [int(x) for x in rng.integers(1, 7, 5)]
        decision = yahtzee.decide(dice, 2, sheets[seat], FORCED, opponents=opponents, artifacts_dir=root)
        options = explain(dice, 2, sheets[seat], FORCED, opponents=opponents, artifacts_dir=root)
        assert decision.seat == seat and options[0].regret == 0
        assert decision.probability == options[0].probability
    # Three seats through the protocol: a random game with every invariant of tests/test_protocol.py at each state.
    import random

    from lookup.games import open_setup
    from lookup.protocol import CHANCE
    from lookup.simulate import draw
    from tests.test_protocol import check_state

    advisor = open_setup("yahtzee", {"rules": FORCED, "objective": "win", "players": 3}, root)
    game, play_rng = advisor.game, random.Random(3)
    state, compared = game.initial_state(), 0
    while not game.is_terminal(state):
        compared += check_state(advisor, state, play_rng)
        legal = () if game.to_move(state) == CHANCE else game.legal_actions(state)
        action = draw(game.chance_outcomes(state), play_rng) if not legal else play_rng.choice(legal)
        state = game.apply(state, action)
    assert compared > 100 and check_state(advisor, state, play_rng)


def test_cli_takes_two_opponents_and_names_the_missing_table(tmp_path):
    from click.testing import CliRunner

    from pipeline.cli import main

    empty = tmp_path / "empty.json"
    empty.write_text("[" + ", ".join(["null"] * 15) + "]")
    result = CliRunner().invoke(main, ["yahtzee", "decide", "1", "1", "3", "5", "6", "--rules", FORCED, "--sheet",
                                       str(empty), "--opponent", str(empty), "--opponent", str(empty),
                                       "--artifacts", str(tmp_path)])
    assert result.exit_code != 0
    assert "dicetables build yahtzee-party3-scandinavian-forced" in result.output
