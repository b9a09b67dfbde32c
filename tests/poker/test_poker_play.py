"""lookup.poker.play: the preflop tables against per-matchup exact enumeration, published figures and Monte
Carlo bounds; value and decide; bad input."""

import shutil
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from click.testing import CliRunner

from lookup.poker.cards import class_combos, parse_class
from lookup.poker.equity import equity
from lookup.poker.play import decide, heads_up, preflop, value
from lookup.store import ArtifactError
from pipeline.cli import main


@pytest.fixture(scope="module")
def engine(poker_artifacts):
    from pipeline.poker.engine import NumbaEngine

    return NumbaEngine(poker_artifacts)


@pytest.mark.slow
@pytest.mark.parametrize("pair", [("AA", "KK"), ("AKs", "AKo"), ("QQ", "QQ")])
def test_heads_up_cells_equal_the_sum_of_their_specific_matchups(preflop_artifacts, engine, pair):
    """Both cells of a pair of classes, (X, Y) and (Y, X), and a cell of a class against itself: the table's
    kernel counts only wins, its ties are derived (total - win - win.T), so each order is checked here
    against the engine's per-matchup enumeration, wins and ties."""
    x, y = map(parse_class, pair)
    wins, ties, back, combos = 0, 0, 0, 0
    for a, b in product(class_combos(x), class_combos(y)):
        if set(a) & set(b):
            continue
        got = equity([a, b], engine=engine)
        assert got.ties[0] == got.ties[1]
        wins, ties, back, combos = wins + got.wins[0], ties + got.ties[0], back + got.wins[1], combos + 1
    cell = heads_up(*pair, artifacts_dir=preflop_artifacts)
    assert (cell.wins, cell.ties, cell.deals) == (wins, ties, combos * 1_712_304)
    cell = heads_up(pair[1], pair[0], artifacts_dir=preflop_artifacts)
    assert (cell.wins, cell.ties, cell.deals) == (back, ties, combos * 1_712_304)


@pytest.mark.slow
def test_tables_are_consistent_and_match_published_figures(preflop_artifacts, engine):
    from lookup.poker.tables import load_preflop

    a = load_preflop(preflop_artifacts).arrays
    # tie = total - win - win.T by construction (pipeline/poker/preflop.py); what can fail is a kernel counting
    # too many wins, which leaves a negative tie (the cells test checks both orders of three pairs exactly).
    win, tie = a["hu_win"], a["hu_tie"]
    assert (win >= 0).all() and (tie >= 0).all() and (tie.diagonal() > 0).all()
    assert a["hu_combos"].sum() == 1326 * 1225
    aa = preflop("AA", 1, artifacts_dir=preflop_artifacts)
    assert aa.exact and round(100 * aa.equity, 1) == 85.2
    # The class value equals the specific hand's exact equity against one random hand, as fractions.
    specific = equity(["AsAh"], opponents=1, engine=engine, use_table=False)
    assert aa.fraction == specific.shares[0] / specific.deals
    assert round(100 * preflop("72o", 1, artifacts_dir=preflop_artifacts).equity, 1) == 34.6
    assert round(100 * heads_up("AA", "KK", artifacts_dir=preflop_artifacts).equity, 1) == 81.9


@pytest.mark.slow
@pytest.mark.parametrize("hand", ["AA", "72o", "T9s"])
def test_monte_carlo_row_within_four_standard_errors(preflop_artifacts, engine, hand):
    est = preflop(hand, 2, artifacts_dir=preflop_artifacts)
    assert not est.exact and 0 < est.se < 3e-4
    exact = equity([class_combos(parse_class(hand))[0]], opponents=2, engine=engine, budget=60, use_table=False)
    assert exact.exact
    truth = float(exact.shares[0] / exact.deals)
    assert abs(est.equity - truth) < 4 * est.se
    assert isinstance(exact.shares[0], Fraction)


@pytest.mark.slow
def test_stratified_monte_carlo_against_one_random_hand_within_four_standard_errors(preflop_artifacts):
    """The board-stratified estimator (every board, sampled opponents) against the exact row of one random
    hand, all 169 classes; its standard errors are honest (root mean square z near 1)."""
    from lookup.poker.tables import load_evaluator, load_preflop
    from pipeline.poker.preflop import min_deals, multiway

    exact = load_preflop(preflop_artifacts).arrays["multi_equity"][0]
    est, se, used = multiway(load_evaluator(preflop_artifacts), [1], 2, seed=3)
    assert used.tolist() == [min_deals(1)] and (se > 0).all()
    z = (est[0] - exact) / se[0]
    assert np.abs(z).max() < 4
    assert 0.7 < np.sqrt(np.mean(z ** 2)) < 1.3


@pytest.mark.full  # every class against two random hands, enumerated: ~1 CPU-minute (make test-full)
def test_exact_against_two_random_hands_equals_the_engine(poker_artifacts, engine):
    """The board-by-board count against two random hands equals the exact engine's enumeration of the
    opponents, as fractions, for a pair, an offsuit and a suited class."""
    from lookup.poker.tables import load_evaluator
    from pipeline.poker.preflop import exact_against_two

    got = exact_against_two(load_evaluator(poker_artifacts))
    for hand in ("AA", "72o", "T9s"):
        exact = equity([class_combos(parse_class(hand))[0]], opponents=2, engine=engine, budget=60,
                       use_table=False)
        assert exact.exact and got[parse_class(hand)] == exact.shares[0] / exact.deals


@pytest.mark.slow
@pytest.mark.parametrize("hand, n, match", [("AKx", 1, "not a starting hand"), ("AA", 0, "1..2"),
                                            ("AA", 3, "1..2"), ("AA", True, "integer"), ("AA", 1.0, "integer")])
def test_preflop_bad_input(preflop_artifacts, hand, n, match):
    with pytest.raises(ValueError, match=match):
        preflop(hand, n, artifacts_dir=preflop_artifacts)


@pytest.mark.slow
def test_cli(preflop_artifacts):
    runner = CliRunner()
    root = str(preflop_artifacts)
    out = runner.invoke(main, ["--quiet", "poker", "equity", "AsAh", "KdKc", "--board", "2c7d9h", "--artifacts",
                               root])
    assert out.exit_code == 0, out.output
    assert "exact over 990 deals" in out.output and "As Ah: win  91.6162 %" in out.output
    out = runner.invoke(main, ["--quiet", "poker", "preflop", "AA", "--against", "KK", "--artifacts", root])
    assert out.exit_code == 0 and "AA vs KK: equity 81.9" in out.output
    out = runner.invoke(main, ["--quiet", "poker", "equity", "AsAh", "--board", "2c7d", "--artifacts", root])
    assert out.exit_code == 1 and "board of 2 cards is not" in out.output
    out = runner.invoke(main, ["--quiet", "poker", "equity", "AsAh", "--opponents", "3", "--board", "2c7d9h",
                               "--budget", "0", "--samples", "20000", "--artifacts", root])
    assert out.exit_code == 0 and "ESTIMATE from 20,000 random deals" in out.output


def test_value_is_the_preflop_equity(preflop_artifacts):
    assert value("AA", artifacts_dir=preflop_artifacts) == preflop("AA", artifacts_dir=preflop_artifacts).equity
    # A specific hand answers for its class: the class's exact fraction, rounded once (that fraction equals the
    # engine's independent count over 2,097,572,400 deals: test_poker_equity.test_aces_against_one_random_hand).
    exact = preflop("AA", artifacts_dir=preflop_artifacts).fraction
    assert exact.denominator > 1 and value("AsAh", artifacts_dir=preflop_artifacts) == float(exact)


def test_decide_calls_exactly_above_the_break_even_equity(poker_artifacts):
    # On this flop AsAh against one unknown hand: an exact count, then call iff equity > to_call / (pot + to_call).
    board = "2c7d9h"
    exact = equity(["AsAh"], board, 1, artifacts_dir=poker_artifacts)
    share = Fraction(exact.shares[0]) / exact.deals
    pot = 100
    # The smallest whole bet whose break-even equity exceeds ours must be folded, the one below called.
    fold_at = next(c for c in range(1, 100_000) if Fraction(c, pot + c) >= share)
    call = decide("AsAh", board=board, pot=pot, to_call=fold_at - 1, artifacts_dir=poker_artifacts)
    fold = decide("AsAh", board=board, pot=pot, to_call=fold_at, artifacts_dir=poker_artifacts)
    assert (call.action, fold.action) == ("call", "fold") and call.exact and fold.exact
    assert call.equity == float(share) and call.gain > 0 >= fold.gain
    assert fold.break_even == fold_at / (pot + fold_at)


@pytest.mark.parametrize("kwargs, match", [({"pot": -1, "to_call": 5}, "pot must be"),
                                           ({"pot": 10, "to_call": True}, "to_call must be"),
                                           ({"pot": 10, "to_call": float("nan")}, "to_call must be"),
                                           ({"pot": 10, "to_call": 5, "board": "2c7d"}, "board")])
def test_decide_bad_input(poker_artifacts, kwargs, match):
    with pytest.raises(ValueError, match=match):
        decide("AsAh", artifacts_dir=poker_artifacts, **kwargs)


def test_cli_json(preflop_artifacts):
    """--json on equity, preflop and value: the exact counts as integers and fractions (AsAh vs KdKc on
    2c7d9h: 907 of the 990 turn-river pairs win for the aces, the kings' 83 are their two-outer hits)."""
    import json

    root = ["--artifacts", str(preflop_artifacts)]
    out = CliRunner().invoke(main, ["--quiet", "poker", "equity", "AsAh", "KdKc", "--board", "2c7d9h", "--json", *root])
    assert out.exit_code == 0, out.output
    got = json.loads(out.output)
    assert got["exact"] and got["deals"] == 990
    assert [(h["wins"], h["ties"], h["equity_exact"]) for h in got["hands"]] == [(907, 0, "907/990"), (83, 0, "83/990")]
    out = CliRunner().invoke(main, ["poker", "preflop", "AA", "--against", "KK", "--json", *root])
    got = json.loads(out.output)
    want = heads_up("AA", "KK", artifacts_dir=preflop_artifacts)
    assert got["equity"] == want.equity and got["fraction"] == f"{want.fraction.numerator}/{want.fraction.denominator}"
    out = CliRunner().invoke(main, ["poker", "value", "As", "Ks", "Qs", "Js", "Ts", "2c", "--json", *root])
    assert json.loads(out.output)["category"] == "straight flush"


@pytest.mark.parametrize("how", ["flip", "rewrite"])
@pytest.mark.parametrize("artifact, array", [("poker-preflop.zarr", "random_win"),
                                             ("poker-evaluator.zarr", "rank_value")])
def test_a_damaged_table_is_refused_naming_the_problem(preflop_artifacts, tmp_path, how, artifact, array):
    """A flipped bit (crc32c) or a changed entry re-encoded with a valid crc32c (sha256 digest), in a private
    copy of the preflop or the evaluator tables: every answer reading them refuses."""
    from test_chunked import damage_chunk

    root = tmp_path / "artifacts"
    shutil.copytree(preflop_artifacts, root)
    message = damage_chunk(root / artifact, array, how)
    with pytest.raises(ArtifactError, match=message):
        if artifact == "poker-preflop.zarr":
            preflop("AA", artifacts_dir=root)
        else:
            equity(["AsAh"], "2c 7d 9h", 1, artifacts_dir=root)
