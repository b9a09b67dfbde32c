"""Exact equity against plain enumeration and published figures; symmetry, counting and Monte Carlo paths."""

from fractions import Fraction
from itertools import combinations
from math import comb, factorial, perm

import numpy as np
import pytest

from lookup.poker.cards import parse_cards
from lookup.poker.equity import draw_cards, equity, finish
from lookup.poker.play import preflop
from lookup.poker.problem import make_problem
from lookup.poker.rules import best_of_seven
from tests.poker.brute import brute_force

# Small cases: many dead cards keep the plain enumeration of every opponent deal short.
_DEAD = "2c 2d 2h 3c 3d 3h 4c 4d 5c 5h 6d 6h 7c 7s 8d 8h 9c 9s Tc Td Jh Js Qc"
# 13 more dead cards for three or four opponents: the pool is then 10 to 12 cards.
_MORE = _DEAD + " 2s 3s 4h 4s 5d 5s 6c 7d 8c 8s 9h Th Qd"
_TWO_SUITS = " ".join(r + u for r in "23456789TJQKA" for u in "ch")
SMALL = [
    (["AsKs", "QhQs"], "Jc 9d 3s", 1, _DEAD),
    (["AsKs"], "Jc 9d 3s 6c", 2, _DEAD),
    (["AdAh", "KcKd"], "Jd 4h Th 6s", 2, _DEAD),
    (["AsKs"], "Jc 9d Qs 6s", 3, _MORE),
    (["Ad7h"], "Jc 9d Qs 6s Ks", 4, _MORE),
    (["QhTs", "7hAh"], "Jc 9d Qs 6s Ks", 3, _MORE),
    (["4sKd", "5sAh"], "6s 7s", 0, ""),
    # Only spades and diamonds left: flushes everywhere (boards of 3, 4 and 5 diamonds).
    (["AsKs"], "5d 7d 9d Jd", 2, _TWO_SUITS),
    (["Ad2s", "Qs8d"], "5d 7d 9d Jd Kd", 2, _TWO_SUITS),
    (["Ts9s"], "5d 7d 2s", 1, _TWO_SUITS),
]


def _cards(case):
    hands, board, n, dead = case
    return [parse_cards(h) for h in hands], parse_cards(board), n, parse_cards(dead)


# The first case (two hands on a flop: ~20 CPU-s of plain enumeration) in make test-full.
@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.full) if i == 0 else c
                                  for i, c in enumerate(c for c in SMALL if len(parse_cards(c[1])) != 2)])
def test_exact_counts_equal_plain_enumeration(case, numba_engine, numpy_engine):
    hands, board, n, dead = _cards(case)
    deals, wins, ties, shares = brute_force(hands, board, n, dead)
    for engine in (numba_engine, numpy_engine):
        got = equity(hands, board, n, dead, engine=engine, budget=30)
        assert got.exact and got.deals == deals, engine.name
        assert list(got.wins) == wins and list(got.ties) == ties and list(got.shares) == shares, engine.name


def test_two_card_board_is_bad_input():
    with pytest.raises(ValueError, match="board of 2"):
        make_problem(["4sKd"], "6s 7s")


@pytest.mark.parametrize("case", SMALL[:6] + SMALL[7:])
@pytest.mark.parametrize("method", [1, 2])
def test_symmetry_and_counting_paths_equal_plain_counting(case, method, numba_engine):
    """The suit-orbit reduction and both matching counts (direct, inclusion-exclusion) give the counts of
    the identity-only enumeration."""
    problem = make_problem(*_cards(case))
    identity = problem.symmetry()[:1]
    plain = finish(problem, *numba_engine.exact(problem, identity, 10**9, method=1)[:2])
    reduced = finish(problem, *numba_engine.exact(problem, problem.symmetry(), 10**9, method=method)[:2])
    assert plain == reduced


def test_suit_symmetry_is_used_and_exact(numba_engine, numpy_engine):
    problem = make_problem(["AsAh", "KdKc"])
    assert len(problem.symmetry()) == 4  # swap s/h, swap c/d
    for engine in (numba_engine, numpy_engine):
        assert finish(problem, *engine.exact(problem, problem.symmetry(), 10**9)[:2]) == \
            finish(problem, *engine.exact(problem, problem.symmetry()[:1], 10**9)[:2])


def test_published_aces_versus_kings(numba_engine):
    """AsAh vs KdKc (no suit shared): aces win 81.06 % and tie 0.38 % of the 1,712,304 boards."""
    got = equity(["AsAh", "KdKc"], engine=numba_engine)
    assert got.exact and got.deals == 1_712_304
    assert round(100 * got.win[0], 2) == 81.06 and round(100 * got.tie[0], 2) == 0.38
    assert got.wins[0] + got.wins[1] + got.ties[0] == got.deals


@pytest.mark.full  # every board of three heads-up deals, ranked by the peer in Python (make test-full)
def test_heads_up_counts_equal_phevaluator_enumeration(numba_engine):
    """Every one of the 1,712,304 boards of two matchups through phevaluator, counts compared exactly."""
    for hands in (["AsAh", "KdKc"], ["7c2d", "AhKh"]):
        cards = [parse_cards(h) for h in hands]
        deals, wins, ties, shares = brute_force(cards, (), 0, ())
        got = equity(hands, engine=numba_engine)
        assert (got.deals, list(got.wins), list(got.ties), list(got.shares)) == (deals, wins, ties, shares)


def test_aces_against_one_random_hand(numba_engine, preflop_artifacts):
    """AA against one random hand: 85.2 % (published); exact over 2,097,572,400 deals. The engine's count (suit
    orbits of every board and opponent hand) and the preflop table's (class against class, kernels.
    preflop_heads_up, summed over the 169 classes) are two implementations: the same fraction."""
    got = equity(["AsAh"], opponents=1, engine=numba_engine, use_table=False)
    assert got.exact and got.deals == 2_097_572_400
    assert round(100 * got.equity[0], 1) == 85.2
    assert preflop("AA", artifacts_dir=preflop_artifacts).fraction == Fraction(got.shares[0]) / got.deals


def test_monte_carlo_within_four_standard_errors(numba_engine, numpy_engine):
    question = (["AsKs", "QhQs"], "Jc 9d 3s", 1)
    exact = equity(*question, engine=numba_engine)
    for engine in (numba_engine, numpy_engine):
        est = equity(*question, engine=engine, budget=0, samples=200_000, seed=3)
        assert not est.exact and "Monte Carlo" in est.method
        for i in range(2):
            assert abs(est.equity[i] - exact.equity[i]) < 4 * est.se[i], (engine.name, i)
            assert est.se[i] > 0


def test_many_opponents_on_the_river_exact(numba_engine):
    """1 known hand against 9 unknown hands on the river (the seed's ~6e19 deals): exact by counting."""
    got = equity(["AsAh"], "2c 7d 9h Ks 4c", 9, engine=numba_engine, budget=10)
    assert got.exact
    assert got.deals == 45 * 44 * 43 * 42 * 41 * 40 * 39 * 38 * 37 * 36 * 35 * 34 * 33 * 32 * 31 * 30 * 29 * 28 // 2**9
    assert Fraction(got.shares[0]) / got.deals == _aces_river_against_nine()


def _matchings(cards: int, hands: int) -> int:
    """Sets of ``hands`` disjoint two-card hands from ``cards`` cards."""
    return comb(cards, 2 * hands) * factorial(2 * hands) // (2**hands * factorial(hands))


def _aces_river_against_nine() -> Fraction:
    """AsAh on 2c 7d 9h Ks 4c against 9 unknown hands, by hand: the reference ranking (best_of_seven) shows that
    of the 990 hands left exactly those of two cards of the 15 left of the board's ranks beat the aces (two
    pair or trips: no straight or flush is possible) and only AdAc ties. So a deal has no better hand iff no
    hand joins two of those 15 cards: each of j of them goes with its own card of the 30 others, the rest of
    the deal comes from the remaining cards (and a tie is such a deal holding AdAc)."""
    hero, board = parse_cards("AsAh"), parse_cards("2c 7d 9h Ks 4c")
    rest = [c for c in range(52) if c not in hero + board]
    mine = best_of_seven(hero + board)
    keys = {h: best_of_seven([*board, *h]) for h in combinations(rest, 2)}
    live = {c for c in rest if c // 4 in {b // 4 for b in board}}
    assert {h for h, k in keys.items() if k > mine} == set(combinations(sorted(live), 2))
    assert [h for h, k in keys.items() if k == mine] == [tuple(parse_cards("Ac Ad"))]
    others = len(rest) - len(live)  # 30

    def clean(free: int, hands: int) -> int:  # deals of ``hands`` hands avoiding a pair inside ``live``
        return sum(comb(len(live), j) * perm(free, j) * _matchings(free - j, hands - j) for j in range(hands + 1))

    alone, tied = clean(others, 9) - clean(others - 2, 8), clean(others - 2, 8)
    return Fraction(2 * alone + tied, 2 * _matchings(len(rest), 9))


@pytest.mark.parametrize("args, match", [
    ((["AsAh", "AsKd"],), "both in hand 1 and in hand 2"),
    ((["AsAh"], "2c 7d"), "board of 2"),
    ((["AsAh"], "2c"), "board of 1"),
    ((["AsAhKd"],), "has 3 card"),
    ((["As"],), "has 1 card"),
    ((["AsAh"], "Xx 7d 9h"), "not a card"),
    ((["AsAh"], (), 10), "at most 10 players"),
    ((["AsAh"], "2c 7d 9h", 0, "9h"), "both in board and in dead"),
    ((["AsAh"], (), True), "integer"),
    ((["AsAh"], (), 1.0), "integer"),
])
def test_bad_input_names_the_problem(args, match, numpy_engine):
    with pytest.raises(ValueError, match=match):
        equity(*args, engine=numpy_engine)


def test_too_many_cards_for_the_deck():
    dead = [c for c in range(52) if c not in parse_cards("AsAh 2c 7d 9h 3c 4c 5c")]
    with pytest.raises(ValueError, match="not enough cards"):
        make_problem(["AsAh"], "2c 7d 9h", 3, dead)


def test_numpy_engine_is_the_lookup_default(poker_artifacts):
    got = equity(["AsAh", "KdKc"], "2c 7d 9h", artifacts_dir=poker_artifacts)
    assert got.exact and got.method == "exact (numpy)" and got.deals == 990
    assert np.isclose(sum(got.equity), 1.0)


def test_drawn_cards_are_every_ordered_draw_equally_often():
    """``draw_cards`` (the Monte Carlo's partial shuffle), with a shared deck and a deck per deal: the 120 ordered
    draws of 3 of 6 cards, each about 1,000 times in 120,000 deals (chi-square, 119 degrees of freedom, below its
    0.1 % quantile of 173), and never a card twice or from outside the deck."""
    rng = np.random.default_rng(7)
    decks = [np.array([3, 9, 14, 20, 41, 50]), np.tile(np.array([3, 9, 14, 20, 41, 50]), (120_000, 1))]
    for deck in decks:
        drawn = draw_cards(rng, deck, 120_000, 3)
        assert np.isin(drawn, deck).all() and (np.sort(drawn, axis=1)[:, 1:] != np.sort(drawn, axis=1)[:, :-1]).all()
        _, counts = np.unique(drawn, axis=0, return_counts=True)
        assert len(counts) == perm(6, 3)
        assert ((counts - 1000.0) ** 2 / 1000.0).sum() < 173


@pytest.mark.parametrize("hands, board", [(["AsKd"], "2c7d9hKs"), (["7c8c", "AhAd"], "9c Tc 2d"),
                                          (["KsQs"], "As Js Ts 2s")])
def test_three_random_opponents_counted_by_numpy_as_by_numba(hands, board, numba_engine, numpy_engine):
    """Three unknown hands on a full deck: the numpy engine's closed formula (``three_matchings``) gives the numba
    engine's matching enumeration, integer for integer (33,720,548,400 deals on the turn)."""
    numba, numpy = (equity(hands, board, 3, engine=e, budget=60) for e in (numba_engine, numpy_engine))
    assert numba.exact and numpy.exact and numpy.method == "exact (numpy)"
    assert (numpy.deals, numpy.wins, numpy.ties, numpy.shares) == (numba.deals, numba.wins, numba.ties, numba.shares)
