"""Index before computing: a question the preflop table holds is answered from the table, exactly
as the enumeration would answer it; any other question is enumerated (or sampled) as before."""

import dataclasses
import json
import shutil
import time
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner

from lookup.poker.cards import parse_class
from lookup.poker.equity import equity, exact_share, from_preflop_table
from lookup.poker.play import decide, preflop
from lookup.poker.problem import make_problem
from lookup.poker.tables import load_preflop
from pipeline.cli import main
from pipeline.store import write_manifest

# AA against one random hand, exactly (the published 85.2 %): 1,787,209,574 half-pots of 2,097,572,400 deals.
AA_VS_ONE = Fraction(893604787, 1048786200)


@pytest.fixture(scope="module")
def engine(poker_artifacts):
    from pipeline.poker.engine import NumbaEngine

    return NumbaEngine(poker_artifacts)


@pytest.fixture
def no_preflop(poker_artifacts, tmp_path):
    """An artifacts directory with the evaluator but no preflop table."""
    root = tmp_path / "artifacts"
    root.mkdir()
    # A copy: a symlinked artifact is refused (lookup.store.inside_dir).
    shutil.copytree(poker_artifacts / "poker-evaluator.zarr", root / "poker-evaluator.zarr")
    write_manifest(root)
    return root


def test_aces_against_one_random_hand_come_from_the_table(preflop_artifacts):
    got = equity(["AsAh"], opponents=1, artifacts_dir=preflop_artifacts)
    assert got.source == "preflop table" and got.exact and "preflop table" in got.method
    assert got.deals == 2_097_572_400 and got.shares[0] / got.deals == AA_VS_ONE
    assert got.wins is not None and got.shares[0] == got.wins[0] + Fraction(got.ties[0], 2)
    assert got.se == (0.0,) and got.notes == ()


@pytest.mark.parametrize("hand, same", [("AsAh", "AdAc"), ("7c2d", "2s7h"), ("Ts9s", "9hTh")])
def test_table_answer_equals_the_exact_enumeration(preflop_artifacts, engine, hand, same):
    """Field by field (deals, wins, ties, shares) the table's answer is the enumeration's, for a pair, an offsuit
    and a suited hand; another hand of the same class (suit isomorphism) gets the same answer."""
    table = equity([hand], opponents=1, artifacts_dir=preflop_artifacts)
    counted = equity([hand], opponents=1, engine=engine, artifacts_dir=preflop_artifacts, use_table=False,
                     budget=60)
    assert (table.source, counted.source) == ("preflop table", "enumeration") and counted.exact
    fields = ("exact", "deals", "wins", "ties", "shares", "se", "hands", "board", "opponents")
    assert [getattr(table, f) for f in fields] == [getattr(counted, f) for f in fields]
    other = equity([same], opponents=1, artifacts_dir=preflop_artifacts)
    assert (other.deals, other.wins, other.ties, other.shares) == (table.deals, table.wins, table.ties, table.shares)
    assert table.shares[0] / table.deals == preflop(hand, 1, artifacts_dir=preflop_artifacts).fraction


def test_table_answer_is_an_index(preflop_artifacts):
    equity(["AsAh"], opponents=1, artifacts_dir=preflop_artifacts)  # loads and verifies the table once
    start = time.perf_counter()
    for hand in ("KsKh", "Qd2c", "5h4h"):
        assert equity([hand], opponents=1, artifacts_dir=preflop_artifacts).source == "preflop table"
    assert time.perf_counter() - start < 0.5


def test_estimated_rows_carry_their_standard_error(preflop_artifacts):
    """The reduced table's row against two random hands is a Monte Carlo estimate: the answer says so and
    carries the row's standard error; it has no win / tie counts."""
    a = load_preflop(preflop_artifacts).arrays
    assert not a["multi_exact"][1]
    x = parse_class("AKs")
    got = equity(["AsKs"], opponents=2, artifacts_dir=preflop_artifacts)
    assert got.source == "preflop table" and not got.exact and "Monte Carlo" in got.method
    assert got.equity[0] == a["multi_equity"][1, x] and got.se[0] == a["multi_se"][1, x] > 0
    assert got.deals == a["multi_samples"][1] > 0
    assert got.wins is None and got.win is None and got.tie is None
    cell = preflop("AKs", 2, artifacts_dir=preflop_artifacts)
    assert (cell.equity, cell.se, cell.exact) == (got.equity[0], got.se[0], False)


@pytest.mark.parametrize("question", [
    {"board": "2c7d9h", "opponents": 1},
    {"opponents": 1, "dead": "Kc"},
    {"hands": ["AsAh", "KdKc"]},
    {"hands": ["AsAh", "KdKc"], "opponents": 1},
])
def test_other_questions_are_enumerated(preflop_artifacts, engine, question):
    q = {"hands": ["AsAh"], **question}
    hands = q.pop("hands")
    got = equity(hands, artifacts_dir=preflop_artifacts, engine=engine, budget=60, **q)
    assert got.source == "enumeration" and got.exact and got.method == "exact (numba)" and got.notes == ()


def test_beyond_the_table_rows_behaves_as_before(preflop_artifacts):
    rows = load_preflop(preflop_artifacts).arrays["multi_equity"].shape[0]
    got = equity(["AsAh"], opponents=rows + 1, budget=0, samples=2_000, artifacts_dir=preflop_artifacts)
    assert got.source == "monte carlo" and not got.exact
    assert any(f"covers 1..{rows}" in note for note in got.notes)


def test_without_the_table_behaves_as_before(no_preflop):
    got = equity(["AsAh"], opponents=1, budget=0, samples=2_000, artifacts_dir=no_preflop)
    assert got.source == "monte carlo" and not got.exact and got.wins is not None
    assert len(got.notes) == 1 and got.notes[0].startswith("an exact count needs")


def test_use_table_false_enumerates(preflop_artifacts):
    got = equity(["AsAh"], opponents=1, use_table=False, budget=0, samples=2_000, artifacts_dir=preflop_artifacts)
    assert got.source == "monte carlo" and not got.exact and got.wins is not None


def test_exact_share_recovers_the_rational():
    """A row marked exact stores float64: the rational with denominator lcm(1..players) x deals nearest to it is
    unique while that is below 2**52 (the float's error moves the numerator by less than 1/2)."""
    rng = np.random.default_rng(1)
    deals = make_problem(["AsAh"], (), 2).deals()
    for numerator in rng.integers(0, 6 * deals, 200, dtype=np.int64):
        truth = Fraction(int(numerator), 6 * deals)
        assert exact_share(float(truth), deals, 3) == truth
    assert exact_share(0.5, 1 << 51, 3) is None  # 6 x 2**51 deals: the float cannot tell them apart
    assert exact_share(float(Fraction(1, 7)), 10, 3) is None  # not over 60ths


@pytest.mark.slow
def test_an_exact_row_answers_the_enumerations_rational(preflop_artifacts, engine):
    """A table whose row against two random hands is exact (the default build; slower than the reduced
    fixture) gives back the enumeration's rational: the exact count stored as float64, then recovered."""
    counted = equity(["AsAh"], opponents=2, engine=engine, use_table=False, budget=60)
    assert counted.exact and counted.source == "enumeration"
    truth = counted.shares[0] / counted.deals
    tables = load_preflop(preflop_artifacts)
    arrays = {k: v.copy() for k, v in tables.arrays.items()}
    arrays["multi_exact"][1] = 1
    arrays["multi_equity"][1, parse_class("AA")] = float(truth)
    exact_table = dataclasses.replace(tables, arrays=arrays)
    got = from_preflop_table(make_problem(["AhAd"], (), 2), exact_table, time.perf_counter())
    assert got.exact and got.source == "preflop table" and got.deals == counted.deals
    assert got.shares == counted.shares and got.se == (0.0,) and got.wins is None


def test_decide_preflop_reads_the_table(preflop_artifacts):
    """decide() asks equity(), so a preflop all-in against one hand is decided on the table's exact rational."""
    pot = 100
    fold_at = next(c for c in range(1, 100_000) if Fraction(c, pot + c) >= AA_VS_ONE)
    call = decide("AsAh", pot=pot, to_call=fold_at - 1, artifacts_dir=preflop_artifacts)
    fold = decide("AsAh", pot=pot, to_call=fold_at, artifacts_dir=preflop_artifacts)
    assert (call.action, fold.action) == ("call", "fold") and call.exact and call.equity == float(AA_VS_ONE)


def test_cli_shows_the_source(preflop_artifacts):
    root = ["--artifacts", str(preflop_artifacts)]
    out = CliRunner().invoke(main, ["--quiet", "poker", "equity", "AsAh", "--opponents", "1", *root])
    assert out.exit_code == 0, out.output
    assert "source: preflop table" in out.output and "equity  85.2037 %" in out.output
    out = CliRunner().invoke(main, ["--quiet", "poker", "equity", "AsAh", "--opponents", "1", "--json", *root])
    got = json.loads(out.output)
    assert got["source"] == "preflop table" and got["exact"] and got["deals"] == 2_097_572_400
    assert got["hands"][0]["equity_exact"] == "893604787/1048786200"
    out = CliRunner().invoke(main, ["--quiet", "poker", "equity", "AsKs", "--opponents", "2", *root])
    assert out.exit_code == 0, out.output
    assert "source: preflop table" in out.output and "ESTIMATE" in out.output and "(se " in out.output
    out = CliRunner().invoke(main, ["--quiet", "poker", "equity", "AsKs", "--opponents", "2", "--json", *root])
    got = json.loads(out.output)["hands"][0]
    assert got["wins"] is None and got["win"] is None and got["se"] > 0
    out = CliRunner().invoke(main, ["--quiet", "poker", "equity", "AsAh", "--opponents", "1", "--board", "2c7d9h",
                                    *root])
    assert out.exit_code == 0 and "source: enumeration" in out.output


def test_one_hand_defaults_to_one_random_opponent(preflop_artifacts):
    """A single known hand with no opponents named is played against one random hand, as `poker preflop` is (the
    command said 100 % for `poker equity AsAh`): in the library, the command and its JSON; 0 stays possible
    explicitly, and two known hands still default to none."""
    from lookup.poker.problem import default_opponents

    assert [default_opponents(k) for k in (0, 1, 2, 3)] == [0, 1, 0, 0]
    assert make_problem(["AsAh"]).opponents == 1 and make_problem(["AsAh"], opponents=0).opponents == 0
    assert make_problem(["AsAh", "KdKc"]).opponents == 0
    default, one = (dataclasses.replace(equity(["AsAh"], *n, artifacts_dir=preflop_artifacts), seconds=0.0)
                    for n in ((), ((), 1)))
    assert default == one and default.opponents == 1
    root = ["--artifacts", str(preflop_artifacts)]
    got = json.loads(CliRunner().invoke(main, ["--quiet", "poker", "equity", "AsAh", "--json", *root]).output)
    assert got["opponents"] == 1 and got["hands"][0]["equity_exact"] == "893604787/1048786200"
    alone = json.loads(CliRunner().invoke(main, ["--quiet", "poker", "equity", "AsAh", "--opponents", "0", "--json",
                                                 *root]).output)
    assert alone["opponents"] == 0 and alone["hands"][0]["equity"] == 1.0
    two = json.loads(CliRunner().invoke(main, ["--quiet", "poker", "equity", "AsAh", "KdKc", "--board", "2c7d9h",
                                               "--json", *root]).output)
    assert two["opponents"] == 0


@pytest.mark.slow
def test_cli_no_table_enumerates(preflop_artifacts, monkeypatch):
    # The numba engine even if this run has not compiled every equity kernel yet (the command would use the
    # numpy one, tests/test_cli_inputs.py): this count needs it to be exact within the budget.
    monkeypatch.setattr("pipeline.poker.warm.kernels_cached", lambda: True)
    root = ["--artifacts", str(preflop_artifacts)]
    out = CliRunner().invoke(main, ["--quiet", "poker", "equity", "AsAh", "--opponents", "1", "--no-table", "--json",
                                    *root])
    got = json.loads(out.output)
    assert got["source"] == "enumeration" and got["hands"][0]["equity_exact"] == "893604787/1048786200"
