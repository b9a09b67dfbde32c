"""Hand ranges (lookup.poker.ranges) and the equity of ranges (lookup.poker.range_equity): the notation, the
class-sum identity of the preflop table against direct enumeration, every counting path against plain
enumeration with phevaluator (tests/poker/brute.py), the Monte Carlo within its standard error, decide against
a range, and bad input."""

from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from lookup.poker.cards import class_name, hand_class, parse_cards
from lookup.poker.play import decide, heads_up, preflop
from lookup.poker.range_equity import _pairwise, _per_tuple, _Player, _tuples, range_equity
from lookup.poker.ranges import Range, class_hands, parse_range, range_text
from lookup.poker.tables import load_evaluator
from tests.poker.brute import brute_force


@pytest.fixture(scope="module")
def engine(poker_artifacts):
    from pipeline.poker.engine import NumbaEngine

    return NumbaEngine(poker_artifacts)


def classes(text):
    """The set of class names of a range whose classes are all whole."""
    whole, singles = parse_range(text).blocks()
    assert not singles
    return {class_name(x) for x in whole}


# --- notation ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, names", [
    ("QQ+", {"QQ", "KK", "AA"}),
    ("AKs", {"AKs"}),
    ("KQo", {"KQo"}),
    ("AK", {"AKs", "AKo"}),
    ("ka", {"AKs", "AKo"}),
    ("76s+", {"76s", "87s", "98s", "T9s", "JTs", "QJs", "KQs", "AKs"}),
    ("A2s+", {f"A{r}s" for r in "23456789TJQK"}),
    ("KTo+", {"KTo", "KJo", "KQo"}),
    ("99-66", {"99", "88", "77", "66"}),
    ("66-99", {"99", "88", "77", "66"}),
    ("A5s-A2s", {"A5s", "A4s", "A3s", "A2s"}),
    ("T9s-76s", {"T9s", "98s", "87s", "76s"}),
    ("AKo+", {"AKo"}),
    ("22+", {r + r for r in "23456789TJQKA"}),
    ("QQ+, AKs,KQo  JJ", {"QQ", "KK", "AA", "AKs", "KQo", "JJ"}),
])
def test_notation_names_these_classes(text, names):
    assert classes(text) == names


def test_counts_specific_hands_and_weights():
    assert len(parse_range("AK")) == 16 and len(parse_range("QQ+")) == 18 and len(parse_range("random")) == 1326
    r = parse_range("AsKs")
    assert r.cards() == [tuple(sorted(parse_cards("AsKs")))] and r.weights == (1,)
    assert parse_range("As Ks") == Range("As Ks", r.hands, r.weights)
    assert parse_range("QQ, As Kd:0.5, Ac,Kc").size() == 6 + Fraction(1, 2) + 1
    r = parse_range("AKs:0.5, QQ")
    assert len(r) == 10 and r.size() == 8 and set(r.weights) == {Fraction(1, 2), 1}
    # The last token naming a hand sets its weight; weight 0 removes it.
    assert parse_range("QQ+, AA:0.25").size() == 12 + Fraction(6, 4)
    assert classes("QQ+, KK:0") == {"QQ", "AA"}
    assert range_text(parse_range("QQ+, AKs:0.5, AsKd")) == "AA, AKs:0.5, KK, QQ, AsKd"
    # Blocks: whole classes with one weight, the rest as single hands.
    whole, singles = parse_range("KK, AhAd, AKs:0.5, AsKs").blocks()
    assert {class_name(x): w for x, w in whole.items()} == {"KK": 1}
    assert len(singles) == 1 + 4 and {w for _, w in singles} == {1, Fraction(1, 2)}
    assert sorted(class_hands(hand_class(parse_cards("AsAh")))) == list(parse_range("AA").hands)


@pytest.mark.parametrize("text, match", [
    ("QQ+, AKx", "'AKx' is not a hand class"),
    ("QQs", "'QQs' is a pair"),
    ("AsAs", "'AsAs' is not a hand: .*listed twice"),
    ("AKs:2", "'AKs:2' has a weight that is not a number in 0..1"),
    ("AKs:-0.5", "'AKs:-0.5' has a weight"),
    ("AKs:0.1234567", "more than 6 digits"),
    (":0.5", "':0.5' has a weight but no hands"),
    ("AKs-KQo", "'AKs-KQo' mixes"),
    ("A5s-K3s", "'A5s-K3s' is not a span"),
    ("99-AKs", "'99-AKs' mixes"),
    ("Q", "'Q' is not a hand class"),
    ("QQ, As", "'As' is one card: a hand is two"),
    ("As Kd Qh", "'Qh' is one card"),
    ("AK++", "'AK\\+\\+' is not a hand class"),
    ("", "holds no hand"),
    ("KK:0", "holds no hand"),
    ("A" * 5000, "at most 4000 characters"),
    (7, "a range is text"),
])
def test_bad_ranges_name_the_token(text, match):
    with pytest.raises(ValueError, match=match):
        parse_range(text)


# --- the preflop table: the class-sum identity ---------------------------------------------------------------


@pytest.mark.parametrize("players", [["AA", "KK"], ["AKs", "QQ"], ["AKo", "AKs"], ["QQ", "QQ"], ["T9s", "A2o"],
                                     ["AsKs", "QQ+, AK:0.5"], ["KK, AKs:0.3", "AhAd, QQ"]])
def test_table_equals_direct_enumeration(preflop_artifacts, engine, players):
    """Range against range from the heads-up cells (class-uniform parts; a single hand takes 1 / |class| of a
    cell by suit symmetry) equals the enumeration of every pair of specific hands, count for count."""
    table = range_equity(players, artifacts_dir=preflop_artifacts)
    direct = range_equity(players, artifacts_dir=preflop_artifacts, use_table=False, engine=engine, budget=60)
    assert table.source == "preflop table" and direct.source == "enumeration" and table.exact and direct.exact
    assert (table.deals, table.wins, table.ties, table.shares, table.matchups) == \
           (direct.deals, direct.wins, direct.ties, direct.shares, direct.matchups)


def test_a_hand_against_a_class_is_its_class_value(preflop_artifacts):
    aa_kk = heads_up("AA", "KK", artifacts_dir=preflop_artifacts)
    for hand in ("AsAh", "AcAd", "AhAd"):
        got = range_equity([hand, "KK"], artifacts_dir=preflop_artifacts)
        assert got.shares[0] / got.deals == aa_kk.fraction and got.deals * 6 == aa_kk.deals
    # Against one random hand (the table's row), and as the range "random".
    one = range_equity(["AsAh"], opponents=1, artifacts_dir=preflop_artifacts)
    assert one.exact and one.deals == 2_097_572_400 and one.shares[0] / one.deals == \
        preflop("AA", artifacts_dir=preflop_artifacts).fraction
    assert range_equity(["AsAh", "random"], artifacts_dir=preflop_artifacts).shares[0] == one.shares[0]


# --- every counting path against plain enumeration -----------------------------------------------------------

# Many dead cards keep the plain enumeration short (as in test_poker_equity).
_DEAD = "2c 2d 2h 3c 3d 3h 4c 4d 5c 5h 6d 6h 7c 7s 8d 8h 9c 9s Tc Td Jh Js Qc"


def brute_ranges(players, board, opponents, dead):
    """(deals, wins, ties, shares) per player, summed over every tuple of disjoint hands times its weights:
    phevaluator on every deal (tests/poker/brute.py), nothing shared with the library but the parser."""
    used = set(parse_cards(board)) | set(parse_cards(dead))
    ranges = [[(h, w) for h, w in zip(parse_range(p).cards(), parse_range(p).weights, strict=True)
               if not used & set(h)] for p in players]
    m = len(players)
    total = Fraction(0)
    wins, ties, shares = [Fraction(0)] * m, [Fraction(0)] * m, [Fraction(0)] * m
    for combo in product(*ranges):
        cards = [c for h, _ in combo for c in h]
        if len(set(cards)) < len(cards):
            continue
        weight = Fraction(1)
        for _, w in combo:
            weight *= w
        d, ws, ts, ss = brute_force([h for h, _ in combo], parse_cards(board), opponents, parse_cards(dead))
        total += weight * d
        for i in range(m):
            wins[i] += weight * ws[i]
            ties[i] += weight * ts[i]
            shares[i] += weight * ss[i]
    return total, wins, ties, shares


@pytest.mark.parametrize("players, board, opponents", [
    (["AsKs, QhQs:0.5, KK", "JJ+, AhKh, 8s8c:0.25"], "Jc 9d 3s 6c", 0),  # pairs of hands on every completion
    (["AsKs", "AA, QhQs"], "Jc 9d 3s 6c 5s", 1),                         # tuple by tuple, a random hand
    (["AK", "QQ+", "Th9h, 6s5s:0.5"], "Jc 9d 3s 6c", 0),                 # three ranges, tuple by tuple
])
def test_exact_counts_equal_plain_enumeration(poker_artifacts, players, board, opponents):
    got = range_equity(players, board, opponents, _DEAD, artifacts_dir=poker_artifacts)
    assert got.exact and got.source == "enumeration"
    deals, wins, ties, shares = brute_ranges(players, board, opponents, _DEAD)
    assert (got.deals, list(got.wins), list(got.ties), list(got.shares)) == (deals, wins, ties, shares)


def test_pairs_and_tuples_agree(evaluator, poker_artifacts):
    """The two exact methods for two players, run on the same flop question: the same counts."""
    from lookup.poker.equity import NumpyEngine
    from lookup.poker.problem import make_problem
    from lookup.poker.range_equity import _orbits

    base = make_problem([], "Jc 9d 3s", 0, _DEAD)
    removed = base.board + base.dead
    ps = []
    for text in ("AsKs, QhQs:0.5, KK", "JJ+, AhKh"):
        r = parse_range(text).without(removed)
        ps.append(_Player(text, r, np.array(r.cards()), [int(w * 2) for w in r.weights], 2))
    pairs = _pairwise(ps, base, evaluator)
    tuples = _per_tuple(_orbits(_tuples(ps, 10_000), ps, base.symmetry()), base, NumpyEngine(evaluator), 60,
                        poker_artifacts, True, [])
    assert (pairs.deals, pairs.wins, pairs.ties, pairs.shares, pairs.matchups) == \
           (tuples.deals, tuples.wins, tuples.ties, tuples.shares, tuples.matchups)


def test_monte_carlo_within_four_standard_errors(poker_artifacts):
    players, board = ["QQ+, AKs", "JJ-99, AQs+, KQs"], "2c 7d 9h"
    exact = range_equity(players, board, artifacts_dir=poker_artifacts)
    est = range_equity(players, board, budget=0, samples=20_000, seed=3, artifacts_dir=poker_artifacts)
    assert exact.exact and not est.exact and est.source == "monte carlo" and est.deals == 20_000
    assert any("over the 0 s budget" in n for n in est.notes)
    for i in range(2):
        assert 0 < est.se[i] < 0.01 and abs(est.equity[i] - exact.equity[i]) < 4 * est.se[i]
    again = range_equity(players, board, budget=0, samples=20_000, seed=3, artifacts_dir=poker_artifacts)
    assert again.equity == est.equity  # seeded


def test_estimated_preflop_rows_are_averaged_with_their_error(preflop_artifacts):
    """A range against two random hands: each hand's answer from the table's estimated row, averaged."""
    got = range_equity(["QQ+"], opponents=2, artifacts_dir=preflop_artifacts)
    assert not got.exact and got.source == "preflop table" and got.wins is None
    want = [preflop(x, 2, artifacts_dir=preflop_artifacts) for x in ("AA", "KK", "QQ")]
    assert got.equity[0] == pytest.approx(sum(p.equity for p in want) / 3, abs=1e-12)
    assert got.se[0] == pytest.approx(sum(p.se for p in want) / 3, abs=1e-12)


# --- decide against a range ----------------------------------------------------------------------------------


def test_decide_against_a_range_calls_exactly_above_break_even(poker_artifacts):
    board, villain = "2c 7d 9h", "99, 77, AA, KQs"
    exact = range_equity(["AsAh", villain], board, artifacts_dir=poker_artifacts)
    share = Fraction(exact.shares[0]) / exact.deals
    pot = 100
    fold_at = next(c for c in range(1, 100_000) if Fraction(c, pot + c) >= share)
    call = decide("AsAh", board=board, pot=pot, to_call=fold_at - 1, ranges=villain, artifacts_dir=poker_artifacts)
    fold = decide("AsAh", board=board, pot=pot, to_call=fold_at, ranges=[villain], artifacts_dir=poker_artifacts)
    assert (call.action, fold.action) == ("call", "fold") and call.exact and fold.exact
    assert call.equity == float(share) and call.gain > 0 >= fold.gain
    # A range and a random hand: the same as range_equity with one random opponent.
    both = decide("AsAh", board=board, pot=pot, to_call=10, ranges=villain, opponents=2, budget=0.2,
                  artifacts_dir=poker_artifacts)
    want = range_equity(["AsAh", villain], board, 1, artifacts_dir=poker_artifacts, budget=0.2)
    assert both.equity == want.equity[0] and both.exact == want.exact


def test_decide_range_bad_input(poker_artifacts):
    with pytest.raises(ValueError, match="2 ranges for 1 opponent"):
        decide("AsAh", pot=10, to_call=5, ranges=["QQ+", "AK"], artifacts_dir=poker_artifacts)
    with pytest.raises(ValueError, match="'AKx'"):
        decide("AsAh", pot=10, to_call=5, ranges="QQ+, AKx", artifacts_dir=poker_artifacts)


# --- bad input -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players, kwargs, match", [
    (["AsAh", "QQ+, AKx"], {}, "'AKx' is not a hand class"),
    (["AsAh"], {}, "at least two players"),
    (["AsAh", "AsKd"], {}, "no deal is possible"),
    (["AsAh", "AsAd, AsAc", "AhKh, AhQh"], {}, "no deal is possible"),
    (["AsAh", "AcKd"], {"board": "Ac 2d 3h"}, "player 2 .* shares a card with the board"),
    (["AsAh", "KK"], {"board": "2c 7d"}, "board of 2 card"),
    (["AsAh", "KK"], {"opponents": 9}, "10 players|at most 10"),
    (["AsAh", "KK"], {"budget": -1}, "budget"),
    (["AsAh", "KK"], {"samples": 1}, "samples"),
    ([], {}, "give 1..10"),
    (5, {}, "players"),
])
def test_range_equity_bad_input(poker_artifacts, players, kwargs, match):
    with pytest.raises(ValueError, match=match):
        range_equity(players, artifacts_dir=poker_artifacts, **kwargs)


def test_a_range_object_is_accepted(poker_artifacts):
    r = parse_range("QQ+")
    assert isinstance(r, Range)
    a = range_equity(["AsAh", r], "2c 7d 9h", artifacts_dir=poker_artifacts)
    b = range_equity(["AsAh", "QQ+"], "2c 7d 9h", artifacts_dir=poker_artifacts)
    assert a.shares == b.shares and a.players == b.players == ("AsAh", "QQ+") and a.hands == (1, 18)
    assert load_evaluator(poker_artifacts) is not None


# --- the command line ----------------------------------------------------------------------------------------


def test_cli_range_json_is_the_library_object(preflop_artifacts):
    import json

    from click.testing import CliRunner

    from lookup.poker.play import call_decision
    from pipeline.cli import main

    root = ["--artifacts", str(preflop_artifacts)]
    out = CliRunner().invoke(main, ["--quiet", "poker", "range", "AsAh", "QQ+, AKs", "--pot", "100", "--to-call", "50",
                                    "--json", *root])
    assert out.exit_code == 0, out.output
    got = json.loads(out.output)
    want = range_equity(["AsAh", "QQ+, AKs"], artifacts_dir=preflop_artifacts)  # the library's defaults
    decision = got.pop("decision")
    assert {k: v for k, v in got.items() if k != "seconds"} == {k: v for k, v in want.as_dict().items()
                                                                 if k != "seconds"}
    assert got["exact"] and got["source"] == "preflop table" and got["equity_exact"][0] == "20661989/25684560"
    assert decision == {"pot": 100, "to_call": 50, **call_decision(want, 100, 50).__dict__}
    out = CliRunner().invoke(main, ["--quiet", "poker", "range", "AsAh", "QQ+, AKs", "--board", "2c7d9h", *root])
    assert out.exit_code == 0 and "exact over 14,850 weighted deals" in out.output
    assert "QQ+, AKs (22 hands)" in out.output
    out = CliRunner().invoke(main, ["--quiet", "poker", "range", "AsAh", "QQ+, AKx", *root])
    assert out.exit_code == 1 and "'AKx' is not a hand class" in out.output
    out = CliRunner().invoke(main, ["--quiet", "poker", "range", "AsAh", "KK", "--pot", "10", *root])
    assert out.exit_code == 1 and "both --pot and --to-call" in out.output
