"""Four or more unknown opponents counted by card type in numpy (``lookup.poker.matchings``): against a plain
enumeration of matchings, the numba engine's enumeration and a plain enumeration of every deal."""

from itertools import combinations

import numpy as np
import pytest

from lookup.poker.cards import parse_cards
from lookup.poker.equity import equity
from lookup.poker.matchings import STRONG, count_dtype, type_matchings
from tests.poker.brute import brute_force


def _plain_matchings(caps: np.ndarray, colour: np.ndarray, n: int) -> list[int]:
    """Every set of n edges of the graph the types stand for (a card per unit of cap), kept when disjoint."""
    cards = [t for t in range(len(caps)) for _ in range(int(caps[t]))]
    edges = [(i, j, int(colour[cards[i], cards[j]])) for i, j in combinations(range(len(cards)), 2)
             if colour[cards[i], cards[j]] != STRONG]
    out = [0] * (n + 1)
    for chosen in combinations(edges, n):
        if len({c for e in chosen for c in e[:2]}) == 2 * n:
            out[sum(e[2] for e in chosen)] += 1
    return out


@pytest.mark.parametrize("seed", range(6))
def test_type_counts_equal_plain_matchings(seed):
    """Random types (0 to 3 cards each, some boards alike) and colours: the counts by equal edges, in int64 and in
    Python integers, are those of every set of edges of the expanded graph."""
    rng = np.random.default_rng(seed)
    caps = rng.integers(0, 4, size=(4, 6))
    colour = rng.integers(0, 3, size=(4, 6, 6))
    colour = np.minimum(colour, colour.transpose(0, 2, 1)).astype(np.int8)
    caps[3], colour[3] = caps[0], colour[0]
    n = 2 + seed % 3
    want = [_plain_matchings(caps[b], colour[b], n) for b in range(len(caps))]
    for dtype in (np.int64, object):
        got, work = type_matchings(caps, colour, n, dtype=dtype)
        assert got.tolist() == want and work > 0


def test_type_counts_stop_over_budget():
    caps = np.full((1, 13), 4)
    colour = np.zeros((1, 13, 13), dtype=np.int8)
    got, work = type_matchings(caps, colour, 5, budget=1e4)
    assert got is None and work > 1e4
    assert type_matchings(caps, colour, 5)[0] is not None


def test_counts_beyond_int64_are_python_integers():
    """Nine hands from a pool of 45 cards: ~6e19 sets, over int64; the counts are then Python integers."""
    assert count_dtype(45, 8) is np.int64 and count_dtype(45, 9) is object


# (hands, board, opponents, dead): river and turn boards, with and without a flush suit (3 or 4 of one suit: the
# flush suit's cards are types of their own), one or two known hands; dead cards keep the numba enumeration short.
AGAINST_NUMBA = [
    (["AsKd"], "2c 7d 9h Js Kh", 4, ""),
    (["AsKd"], "2c 7d 9h Js Kh", 5, ""),
    (["7s7d", "AhQh"], "2c 7h 9h Jh Kh", 4, ""),
    (["AsKd"], "2c 7h 9h Jh 3h", 4, ""),
    (["AsKd"], "2c 7d 9h Js", 5, "3c 3d 3h 4c 4d 4h 5c 5d 5h 6c 6d 6h 8c 8d 8h Qc Qd Qh"),
]


@pytest.mark.parametrize("case", AGAINST_NUMBA)
def test_numpy_counts_equal_numba_counts(case, numba_engine, numpy_engine):
    hands, board, n, dead = case
    want = equity(hands, board, n, dead, engine=numba_engine, budget=600)
    got = equity(hands, board, n, dead, engine=numpy_engine, budget=600)
    assert want.exact and got.exact and got.method == "exact (numpy)"
    assert (got.deals, got.wins, got.ties, got.shares) == (want.deals, want.wins, want.ties, want.shares)


@pytest.mark.full  # turns against four and five, the river against six and eight: 2-80 s each (mostly numba's)
@pytest.mark.parametrize("case", [(["AsKd"], "2c 7d 9h Js Kh", 6, ""), (["AsKd"], "2c 7d 9h Js Kh", 8, ""),
                                  (["AsKd"], "2c 7d 9h Js", 5, "3c 3d 4c 4d 5c 5d 6c 6d 8c 8d Qc Qd"),
                                  (["QsJs"], "Ts 9s 2d 2c", 4, "3c 3d 4c 4d 5c 5d 6c 6d 8c 8d Kc Kd Ac Ad")])
def test_numpy_counts_equal_numba_counts_larger(case, numba_engine, numpy_engine):
    test_numpy_counts_equal_numba_counts(case, numba_engine, numpy_engine)


def test_five_opponents_equal_plain_enumeration(numpy_engine):
    """Every deal of a river with ten cards left for five opponents (113,400 ordered deals), scored by phevaluator."""
    dead = ("2c 2d 2h 3c 3d 3h 4c 4d 5c 5h 6d 6h 7c 7s 8d 8h 9c 9s Tc Td Jh Js Qc 2s 3s 4h 4s 5d 5s 6c 7d 8c 8s 9h "
            "Th")
    hands, board = [parse_cards("Ad7h")], parse_cards("Jc 9d Qs 6s Ks")
    deals, wins, ties, shares = brute_force(hands, board, 5, parse_cards(dead))
    got = equity(hands, board, 5, parse_cards(dead), engine=numpy_engine)
    assert got.exact and got.deals == deals
    assert (list(got.wins), list(got.ties), list(got.shares)) == (wins, ties, shares)
