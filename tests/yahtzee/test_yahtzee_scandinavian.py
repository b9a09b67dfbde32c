"""Boxes as data and Scandinavian Yatzy: scores and every turn-start value against the peer `yatzy-solver`.

The peer (PyPI ``yatzy-solver``, a Rust solver, in the ``test`` extra) is an independent implementation:
its box scores are compared on every roll, its turn-start values on every reachable state, for all 12 of
its rule variants (4 American, 8 Scandinavian), to 1e-9 points. Only the tests that compare with it ask for it
(``tests/peers.py``): without it they skip, or fail under CI=true; the others run anyway.
"""

import itertools
import sys

import numpy as np
import pytest

from lookup.yahtzee import RULE_SETS, Sheet, get_rules
from lookup.yahtzee.rules import AMERICAN_BOXES, Box, Rules, score_roll
from lookup.yahtzee.states import state_space
from lookup.yahtzee.turn import analyse_turn
from pipeline.yahtzee.solver import solve
from tests.peers import require

PEER_MODULE = "yatzy_solver"  # PyPI yatzy-solver, in the `test` extra (pyproject.toml) and constraints.txt

# Every peer variant and the rule set that plays the same game here.
PEER = {
    "american": "verhoeff",
    "american+forced-joker": "hasbro",
    "american+no-joker": "no-joker",
    "american+no-bonus": "plain",
    **{f"yatzy-{n}": n for n in RULE_SETS if n.startswith("scandinavian")},
}
PUBLISHED = {"scandinavian": 248.4399894, "scandinavian+tp4": 248.6440589}
ROLLS = list(itertools.combinations_with_replacement(range(1, 7), 5))


def test_a_missing_peer_skips_locally_and_fails_in_ci(monkeypatch):
    """tests/peers.py: without the peer the tests that need it skip, except under CI=true where they fail."""
    monkeypatch.setitem(sys.modules, PEER_MODULE, None)  # the next import of it raises ImportError
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=f"{PEER_MODULE!r} is missing"):
        require(PEER_MODULE)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=f"{PEER_MODULE!r} is missing"):
        require(PEER_MODULE)


def test_every_peer_variant_has_a_rule_set():
    ys = require(PEER_MODULE)
    assert sorted(ys.builtin_variants()) == sorted(PEER)
    assert len({PEER[v] for v in PEER}) == 12


@pytest.mark.parametrize("peer", sorted(PEER))
def test_box_scores_match_the_peer(peer):
    ys = require(PEER_MODULE)
    rules, variant = get_rules(PEER[peer]), ys.Variant(peer)
    assert len(variant.categories) == rules.n_boxes
    for roll in ROLLS:
        for c, name in enumerate(variant.categories):
            assert score_roll(rules, roll, c) == variant.score(name, list(roll)), (peer, roll, name)


def test_box_definitions():
    sc = get_rules("scandinavian")
    assert sc.n_boxes == 15 and sc.categories[6:8] == ("one_pair", "two_pairs") and sc.yahtzee_index == 14
    assert get_rules("hasbro").boxes == AMERICAN_BOXES
    # Hand-checked scores (the Scandinavian boxes of docs/yahtzee.md, "Rules").
    idx = sc.categories.index
    assert score_roll(sc, (6, 6, 5, 5, 1), idx("one_pair")) == 12
    assert score_roll(sc, (6, 6, 5, 5, 1), idx("two_pairs")) == 22
    assert score_roll(sc, (4, 4, 4, 4, 2), idx("two_pairs")) == 0
    assert score_roll(get_rules("scandinavian+tp4"), (4, 4, 4, 4, 2), idx("two_pairs")) == 16
    assert score_roll(sc, (3, 3, 3, 6, 6), idx("three_of_a_kind")) == 9
    assert score_roll(sc, (3, 3, 3, 6, 6), idx("full_house")) == 21
    assert score_roll(sc, (5, 5, 5, 5, 5), idx("full_house")) == 0
    assert score_roll(get_rules("scandinavian+fh5"), (5, 5, 5, 5, 5), idx("full_house")) == 25
    assert score_roll(sc, (1, 2, 3, 4, 5), idx("small_straight")) == 15
    assert score_roll(sc, (2, 3, 4, 5, 6), idx("small_straight")) == 0
    assert score_roll(sc, (2, 3, 4, 5, 6), idx("large_straight")) == 20
    d = sc.to_dict()
    assert d["boxes"][7] == {"name": "two_pairs", "kind": "pairs", "n": 2} and not d["forced_order"]
    assert "boxes" not in get_rules("hasbro").to_dict()


def test_bad_boxes_are_refused():
    with pytest.raises(ValueError, match="box kind"):
        Box("x", "triple")
    with pytest.raises(ValueError, match="upper boxes"):
        Rules("bad", boxes=AMERICAN_BOXES[1:])
    with pytest.raises(ValueError, match="Joker rule needs a yatzy box"):
        Rules("bad", boxes=AMERICAN_BOXES[:11], joker="forced")


def test_sheet_has_one_entry_per_box():
    sc = get_rules("scandinavian")
    sheet = Sheet.parse([None] * 15, sc)
    assert sheet.score("two_pairs", [6, 6, 5, 5, 1]) == 22
    assert sheet.score("sixes", [6, 6, 6, 6, 1]) == 24 and sheet.state == ((1 << 5) | (1 << 7), 24, 0)
    with pytest.raises(ValueError, match="15 entries"):
        Sheet.parse([None] * 13, sc)
    with pytest.raises(ValueError, match="unknown category 'yahtzee'"):
        Sheet.parse({"yahtzee": 50}, sc)
    forced = Sheet.empty("scandinavian+forced")
    assert list(forced.allowed([1, 1, 2, 3, 4])) == ["ones"]
    with pytest.raises(ValueError, match="forced order"):
        forced.score("chance", [1, 1, 2, 3, 4])


# make test compares the rule set whose tables it builds anyway (hasbro: the peer solves it in ~7 CPU-s); the
# other eleven are full solves (make test-full), among them the Scandinavian boxes, whose peer solves the whole
# free-order game even for the forced order (~13 CPU-s). make test still compares every Scandinavian box score
# with the peer's (test_box_scores_match_the_peer above).
QUICK_PEERS = ("american+forced-joker",)


@pytest.mark.parametrize("peer", [p if p in QUICK_PEERS else pytest.param(p, marks=pytest.mark.full)
                                  for p in sorted(PEER)])
def test_every_turn_start_value_matches_the_peer(peer, tmp_path_factory):
    from tests import shared

    ys = require(PEER_MODULE)

    rules = get_rules(PEER[peer])
    sol = shared.solution(tmp_path_factory, rules.name)  # solve(rules), once per run
    if rules.name in PUBLISHED:
        assert sol.start_value == pytest.approx(PUBLISHED[rules.name], abs=5e-8)
    space = state_space(rules, merge=False)
    solver = ys.Solver.build(ys.Variant(peer))
    armed = space.row_ybox.astype(bool) & (rules.yahtzee_bonus > 0)  # the peer knows ybox only with a bonus
    theirs = solver.state_values(space.row_mask.astype(np.uint32), space.row_upper.astype(np.uint16), armed)
    ours = sol.value[space.row_mask, space.row_upper, space.row_ybox]
    assert len(ours) == space.n_rows > 60 and np.isfinite(ours).all()
    worst = int(np.argmax(np.abs(ours - theirs)))
    assert abs(ours[worst] - theirs[worst]) <= 1e-9, (peer, space.row_mask[worst], space.row_upper[worst])


def test_forced_order_turn_matches_the_solver():
    rules = get_rules("scandinavian+forced")
    sol = solve(rules)
    # Only the first open box can be scored: one turn from the table reproduces the stored value.
    for mask in (0, 0b111, (1 << 14) - 1):
        for upper in (0, 30, 63):
            if np.isnan(sol.value[mask, upper, 0]):
                continue
            turn = analyse_turn(rules, sol.value, (mask, upper, 0))
            assert turn.start_value == pytest.approx(sol.value[mask, upper, 0], abs=1e-9)
            assert np.isfinite(turn.final).sum(axis=1).max() == 1


def test_play_api_and_lab_on_a_scandinavian_rule_set(forced_tables):
    from lookup.yahtzee import decide, explain, value
    from pipeline.yahtzee_lab.match import play
    from pipeline.yahtzee_lab.players import get_player
    from pipeline.yahtzee_lab.pyengine import play_python

    rules, root = "scandinavian+forced", forced_tables
    start = value([None] * 15, rules, artifacts_dir=root)
    assert start == pytest.approx(122.5585274, abs=5e-8)  # yatzy-solver: 122.55852739642387
    d = decide([1, 1, 1, 2, 3], 0, {}, rules, artifacts_dir=root)
    assert d.category == "ones" and [o.category for o in explain([1, 1, 1, 2, 3], 0, {}, rules,
                                                                  artifacts_dir=root)] == ["ones"]
    assert decide([1, 1, 1, 2, 3], 2, {}, rules, artifacts_dir=root).keep == (1, 1, 1)
    # The compiled engine plays 15 rounds under the forced order; its mean agrees with the exact value.
    games = play("optimal", None, 20000, seed=5, rules=rules, artifacts_dir=root)
    mean, se = games.scores[:, 0].mean(), games.scores[:, 0].std() / np.sqrt(20000)
    assert abs(mean - start) < 4 * se
    with pytest.raises(ValueError, match="American sheet only"):
        play("decision_une", None, 10, rules=rules, artifacts_dir=root)
    fast = play("optimal", "random", 30, seed=2, mode="coupled", rules=rules, artifacts_dir=root)
    slow = play_python(get_player("optimal"), get_player("random"), 30, seed=2, mode="coupled", rules=rules,
                       artifacts_dir=root)
    assert np.array_equal(fast.scores, slow[0])


def test_coach_names_every_box_of_the_rule_set(forced_tables):
    from lookup.yahtzee.coach import coach
    from lookup.yahtzee.rules import get_rules

    outlooks = coach([1, 2, 3, 4, 6], 1, {}, "scandinavian+forced", artifacts_dir=forced_tables)
    names = list(get_rules("scandinavian+forced").categories)
    assert all(list(o.made) == names and list(o.scored) == names for o in outlooks)
    # Forced order: the first open box (ones) is the only one optimal play can score.
    assert all(o.scored["ones"] == 1 for o in outlooks)
