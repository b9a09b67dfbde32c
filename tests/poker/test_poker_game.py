"""A hold'em hand through the protocol: the advisor's values at the decision are ``decide``'s answers (folding 0,
calling its gain) on random hands; after the flop they are the net chips of the exact equity, against plain
enumeration with another evaluator (tests/poker/brute.py); the showdown's return, the value before the deal, and
the deal's chance nodes."""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb

import pytest

from lookup.games import get_spec, open_setup
from lookup.poker import decide, preflop
from lookup.poker.cards import card_text, class_combos, class_name
from lookup.poker.game import CALL, FOLD, HandState
from lookup.poker.rules import best_of_seven

from .brute import brute_force

POT, TO_CALL = 100, 50


def _deal(rng: random.Random, n: int) -> list[int]:
    return rng.sample(range(52), n)


def _text(cards) -> str:
    return "".join(card_text(c) for c in cards)


def test_setups_are_the_rows_of_the_preflop_table(preflop_artifacts):
    assert get_spec("poker").setups(preflop_artifacts) == [{"opponents": k, "pot": POT, "to_call": TO_CALL}
                                                           for k in (1, 2)]


@pytest.mark.parametrize("opponents", [1, 2])
def test_the_decision_is_decides_answer(preflop_artifacts, opponents):
    rng = random.Random(opponents)
    for pot, to_call in ((POT, TO_CALL), (30, 90), (1000, 1)):
        advisor = open_setup("poker", {"opponents": opponents, "pot": pot, "to_call": to_call}, preflop_artifacts)
        for _ in range(40):
            hole = tuple(sorted(_deal(rng, 2)))
            state = HandState(hole)
            want = decide(_text(hole), pot=pot, to_call=to_call, opponents=opponents, artifacts_dir=preflop_artifacts)
            values = advisor.action_values(state)
            assert values == {FOLD: 0.0, CALL: want.gain}
            assert advisor.decide(state) == want.action
            assert advisor.value(state, 0) == max(0.0, want.gain)
            assert advisor.value(advisor.game.apply(state, CALL), 0) == want.gain


def _net(share: Fraction, pot: int = POT, to_call: int = TO_CALL) -> float:
    return float(share * (pot + to_call) - to_call)


def test_values_after_the_flop_are_the_exact_equity(preflop_artifacts):
    """Turn and river positions against one random hand, and the river against two with one hand shown: the net
    chips of the call equal plain enumeration of every remaining deal (phevaluator)."""
    rng = random.Random(7)
    one = open_setup("poker", {"opponents": 1, "pot": POT, "to_call": TO_CALL}, preflop_artifacts)
    two = open_setup("poker", {"opponents": 2, "pot": POT, "to_call": TO_CALL}, preflop_artifacts)
    for board_size in (4, 5):
        for _ in range(3):
            cards = _deal(rng, 2 + board_size)
            state = HandState(tuple(sorted(cards[:2])), True, tuple(sorted(cards[2:5])) + tuple(cards[5:]))
            deals, _, _, shares = brute_force([cards[:2]], cards[2:], 1, [])
            assert one.value(state, 0) == pytest.approx(_net(shares[0] / deals), abs=1e-12)
    for _ in range(2):
        cards = _deal(rng, 9)
        state = HandState(tuple(sorted(cards[:2])), True, tuple(sorted(cards[2:5])) + tuple(cards[5:7]),
                          (tuple(sorted(cards[7:])),))
        deals, _, _, shares = brute_force([cards[:2], cards[7:]], cards[2:7], 1, [])
        assert two.value(state, 0) == pytest.approx(_net(shares[0] / deals), abs=1e-12)


def test_the_showdown_pays_the_share_of_the_pot(preflop_artifacts):
    advisor = open_setup("poker", {"opponents": 2, "pot": POT, "to_call": TO_CALL}, preflop_artifacts)
    game, rng = advisor.game, random.Random(3)
    for _ in range(30):
        cards = _deal(rng, 11)
        hole, board, hands = cards[:2], cards[2:7], (cards[7:9], cards[9:])
        state = HandState(tuple(sorted(hole)), True, tuple(sorted(board[:3])) + tuple(board[3:]),
                          tuple(tuple(sorted(h)) for h in hands))
        assert game.is_terminal(state)
        ours, *theirs = (best_of_seven([*board, *h]) for h in (hole, *hands))
        best = max(ours, *theirs)
        share = Fraction(1, 1 + theirs.count(best)) if ours == best else Fraction(0)
        assert game.returns(state) == (share * (POT + TO_CALL) - TO_CALL,)
        assert advisor.value(state, 0) == float(game.returns(state)[0])
    folded = HandState((0, 1), False)
    assert game.is_terminal(folded) and game.returns(folded) == (0,)


def test_the_value_before_the_deal_is_the_mean_of_the_best_choice(preflop_artifacts):
    advisor = open_setup("poker", {"opponents": 1, "pot": POT, "to_call": TO_CALL}, preflop_artifacts)
    total = Fraction(0)
    for x in range(169):
        eq = preflop(class_name(x), 1, artifacts_dir=preflop_artifacts).fraction
        total += len(class_combos(x)) * max(Fraction(0), eq * (POT + TO_CALL) - TO_CALL)
    assert advisor.value(HandState(), 0) == pytest.approx(float(total / comb(52, 2)), abs=1e-12)


def test_the_deal_in_order(preflop_artifacts):
    game = open_setup("poker", {"opponents": 2, "pot": POT, "to_call": TO_CALL}, preflop_artifacts).game
    state = game.initial_state()
    assert len(game.chance_outcomes(state)) == 1326 and game.legal_actions(state) == ()
    state = game.apply(state, "AsKs")
    assert state.hole == (47, 51) and game.legal_actions(state) == (FOLD, CALL) and game.to_move(state) == 0
    state = game.apply(state, CALL)
    flops = game.chance_outcomes(state)
    assert len(flops) == comb(50, 3) and sum(p for _, p in flops) == 1
    assert game.parse_action(state, "2c7dJh") == game.parse_action(state, "Jh2c7d") == (0, 21, 38)
    for bad in ("AsKdQh", "2c7d", "2c7dJhQs", 5, ["2c", "7d", "Jh"], "call"):
        with pytest.raises(ValueError, match=r"\S"):
            game.parse_action(state, bad)
    state = game.apply(state, "2c7dJh")
    state = game.apply(game.apply(state, "3c"), "4c")
    assert len(game.chance_outcomes(state)) == comb(45, 2)
    state = game.apply(game.apply(state, "5c6c"), "QdQh")
    assert game.is_terminal(state) and game.parse_state(game.state_json(state)) == state
    assert all(len(set(c)) == 3 for c, _ in flops[:5])
    for junk in ({"hole": "AsAs"}, {"hole": "AsKs", "board": "2c7dJh"}, {"hole": "AsKs", "called": False,
                 "board": "2c7dJh"}, {"hole": "AsKs", "called": True, "board": "2c7d"},
                 {"hole": "AsKs", "called": True, "board": "2c7dJh", "hands": ["QdQh"]}):
        with pytest.raises(ValueError, match=r"\S"):
            game.parse_state(junk)
