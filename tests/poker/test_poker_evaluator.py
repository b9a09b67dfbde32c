"""The evaluator tables: every seven-card hand by category, the reference ranking, and phevaluator."""

from itertools import combinations

import numpy as np
import pytest

from lookup.poker.cards import parse_cards
from lookup.poker.evaluate import hand_value, values, values_on_board
from lookup.poker.rules import DISTINCT_FIVE, DISTINCT_SEVEN, SEVEN_CARD_COUNTS, best_of_seven
from tests.peers import require


def _random_hands(n, k, seed):
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k]


@pytest.mark.parametrize("k", [5, 6, 7])
def test_values_order_hands_like_the_reference_ranking(evaluator, k):
    hands = _random_hands(3000, k, seed=k)
    got = values(hands, evaluator).astype(np.int64)
    keys = [best_of_seven(h.tolist()) for h in hands]
    # The value must be a strictly increasing function of the reference key: same order, same ties.
    order = sorted(range(len(keys)), key=lambda i: keys[i])
    for a, b in zip(order, order[1:], strict=False):
        assert (got[a] < got[b]) == (keys[a] < keys[b]) and (got[a] == got[b]) == (keys[a] == keys[b])
    assert [int(v) >> 12 for v in got] == [key[0] for key in keys]


def test_hand_value_by_text(poker_artifacts):
    assert hand_value("As Ks Qs Js Ts 2c 3d", artifacts_dir=poker_artifacts)[1] == "straight flush"
    assert hand_value("Ah Ad Ac As Ks Qs Js", artifacts_dir=poker_artifacts)[1] == "four of a kind"
    assert hand_value("2c 3d 4h 5s Ac 9d", artifacts_dir=poker_artifacts)[1] == "straight"
    with pytest.raises(ValueError, match="5 to 7 cards"):
        hand_value("As Ks", artifacts_dir=poker_artifacts)


@pytest.mark.full
def test_all_133784560_seven_card_hands_by_category(evaluator):
    """Every C(52, 7) hand through the numba enumeration: published category counts, 4824 values (make test-full:
    the enumeration and its kernel's compiling take ~20 s; make test keeps 200,000 random hands against
    phevaluator, below)."""
    from pipeline.poker.kernels import fused_table, seven_card_census

    last, first6 = fused_table(evaluator.rank_next, evaluator.rank_value)
    cats, seen, total = seven_card_census(evaluator.rank_next, last, first6, evaluator.flush_value, True)
    assert tuple(cats.tolist()) == SEVEN_CARD_COUNTS
    assert cats.sum() == 133_784_560
    assert np.count_nonzero(seen) == DISTINCT_SEVEN
    assert total == int(np.arange(1 << 16) @ seen)
    five = np.unique(np.concatenate([evaluator.rank_value[evaluator.rank_value > 0],
                                     evaluator.flush_value[evaluator.flush_value > 0]]))
    assert len(five) == DISTINCT_FIVE
    # Values reached by seven cards are five-card values.
    assert np.isin(np.flatnonzero(seen), five).all()


@pytest.mark.parametrize("n", [200_000, pytest.param(2_000_000, marks=pytest.mark.full)])
def test_matches_phevaluator_on_random_hands(evaluator, n):
    """phevaluator (PyPI, a perfect-hash evaluator) ranks 1 = royal flush ... 7462 = 7-5-4-3-2: our value's
    ordinal among the 7462 five-card values must be 7463 - its rank, hand by hand (rank order included)."""
    phevaluator = require("phevaluator")
    five = np.unique(np.concatenate([evaluator.rank_value[evaluator.rank_value > 0],
                                     evaluator.flush_value[evaluator.flush_value > 0]]))
    hands = _random_hands(n, 7, seed=2024)
    ours = np.searchsorted(five, values(hands, evaluator)) + 1
    # phevaluator's card ids are 4 * rank + suit with suits c, d, h, s: the same as ours.
    assert phevaluator.evaluate_cards(*parse_cards("As Ks Qs Js Ts 2c 3d")) == 1
    theirs = np.fromiter((phevaluator.evaluate_cards(*h) for h in hands.tolist()), dtype=np.int64, count=len(hands))
    assert np.array_equal(ours, 7463 - theirs)


@pytest.mark.parametrize("board_cards", [3, 4, 5])
def test_values_on_a_shared_board_match_phevaluator(evaluator, board_cards):
    """Nine players' two cards on one board per deal, and every pair of cards left on one board for all: each
    player's value orders like phevaluator's rank of the same cards (the board walked once for all players)."""
    phevaluator = require("phevaluator")
    five = np.unique(np.concatenate([evaluator.rank_value[evaluator.rank_value > 0],
                                     evaluator.flush_value[evaluator.flush_value > 0]]))
    deals = _random_hands(2000, board_cards + 18, seed=board_cards)
    board, holes = deals[:, :board_cards], deals[:, board_cards:].reshape(2000, 9, 2)
    ours = np.searchsorted(five, values_on_board(board, holes, evaluator)) + 1
    theirs = np.array([[phevaluator.evaluate_cards(*b, *h) for h in hs] for b, hs in zip(board.tolist(),
                                                                                        holes.tolist(), strict=True)])
    assert np.array_equal(ours, 7463 - theirs)
    one = deals[0, :board_cards]
    pairs = np.array([p for p in combinations(range(52), 2) if not set(p) & set(one.tolist())])
    ours = np.searchsorted(five, values_on_board(one, pairs, evaluator)) + 1
    assert np.array_equal(ours, [7463 - phevaluator.evaluate_cards(*one.tolist(), *p) for p in pairs.tolist()])
