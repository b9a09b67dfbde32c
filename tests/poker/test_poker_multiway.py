"""Exact multi-way preflop counts (``pipeline.poker.multiway``, artifact ``poker-multiway``): checked against
plain enumeration on reduced decks (every k that fits), against the exact one-opponent table, against the
engine's own exact enumeration on sampled boards, and (make test-full) against Monte Carlo at full size;
the build's tasks resume from their parts and give the same bytes on 1 and 2 Dask workers."""

from __future__ import annotations

import json
import random
import shutil
from fractions import Fraction
from math import factorial
from pathlib import Path

import numpy as np
import pytest
import yaml

from lookup.poker.cards import class_combos, parse_class
from lookup.poker.equity import equity
from lookup.poker.play import preflop
from lookup.poker.problem import unordered_matchings
from lookup.poker.tables import built_multiway, load_preflop
from pipeline.family import build_family
from pipeline.poker.board_types import FULL_DECK, Deck, exact_entry, hand_type_counts, task_counts, type_values
from pipeline.poker.engine import NumbaEngine
from pipeline.poker.kernels import fused_table
from pipeline.poker.multiway import (
    COUNT_MODULES,
    Task,
    build_counts,
    class_ranks,
    evaluator_digest,
    multiway_params,
    parts_key,
    read_part,
)
from pipeline.poker.seating import workspace
from pipeline.poker.stage import families
from pipeline.store import write_manifest
from tests.poker.multiway_brute import brute_counts

# Reduced decks: T-A in three suits (straights to the ace, flushes), 2-5 and A in three suits (the wheel),
# 8-A in two suits (a suit of three on most boards), Q-A in four suits (quads, full houses).
DECKS = [Deck((8, 9, 10, 11, 12), 3), Deck((0, 1, 2, 3, 12), 3), Deck((6, 7, 8, 9, 10, 11, 12), 2),
         Deck((10, 11, 12), 4), pytest.param(Deck((9, 10, 11, 12), 4), marks=pytest.mark.full)]


@pytest.fixture(scope="module")
def fused(evaluator):
    return fused_table(evaluator.rank_next, evaluator.rank_value)


def counts_by_class(deck, evaluator, fused, kmax, blocks=1):
    out = {}
    for x, y in deck.rank_pairs():
        for block in range(blocks):
            got = task_counts(deck, evaluator, *fused, x, y, block, blocks, kmax)
            for kind in range(3):
                if (x == y) == (kind == 0):
                    total = out.setdefault((x, y, kind), [[0] * (kmax + 1) for _ in range(kmax + 1)])
                    for s in range(kmax + 1):
                        for e in range(kmax + 1):
                            total[s][e] += got.counts[kind][s][e]
    return out


@pytest.mark.parametrize("deck", DECKS, ids=lambda d: f"{len(d.ranks)}ranks-{d.suits}suits")
def test_reduced_decks_against_plain_enumeration(deck, evaluator, fused):
    """Every class, every number of opponents the deck can seat, every number of ties: equal to the count of
    an enumeration of every board, hand and set of opponent hands."""
    kmax = deck.max_opponents()
    ours = counts_by_class(deck, evaluator, fused, kmax, blocks=2)
    assert ours == brute_counts(deck, evaluator, kmax)
    assert any(row[kmax][kmax] for row in ours.values()), "some deal has every opponent tied"


def _seat(board, hand, evaluator, fused, kmax):
    """The seating counts [s][e] (exact integers) of ``hand`` on a full ``board`` of the 52-card deck."""
    board = np.array(sorted(board), dtype=np.int64)
    cnt, tval = type_values(board, FULL_DECK.in_deck(), evaluator.rank_next, *fused, evaluator.flush_value)
    suit_counts = np.bincount(board & 3, minlength=4)
    f = int(np.argmax(suit_counts)) if suit_counts.max() >= 3 else -1
    ta, tb = (2 * (c >> 2) + (1 if (c & 3) == f else 0) for c in hand)
    lo = np.zeros((kmax + 1, kmax + 1), dtype=np.uint64)
    approx = np.zeros((kmax + 1, kmax + 1))
    assert hand_type_counts(cnt, tval, ta, tb, kmax, workspace(kmax, 4096), lo, approx) > 0
    out = []
    for s in range(kmax + 1):
        row = []
        for e in range(kmax + 1):
            hi, ok = exact_entry(lo[s, e], approx[s, e])
            assert ok
            row.append(int(lo[s, e]) + (int(hi) << 64))
        out.append(row)
    return out


def test_nine_opponents_beyond_64_bits(evaluator, fused):
    """A royal flush against 9 opponents: every set of hands loses, 59,128,393,062,047,809,500 sets (> 2**64)."""
    counts = _seat([51, 47, 43, 39, 1], [35, 4], evaluator, fused, 9)  # As Ks Qs Js 2d; Ts 3c
    assert [sum(row) for row in counts] == [unordered_matchings(45, s) for s in range(10)]
    assert counts[9][0] == 59_128_393_062_047_809_500 > 2 ** 64


# The engine's enumeration of the opponents' hands fits its budget on most boards up to k = 4, on few beyond: at
# k = 5..9, 23 of the 100 cases of 20 boards fit 20 s (deterministic: the budget counts work, not time; 2026-11-27,
# ~25 min). make test-full takes the first 4 boards (CI's 90 minutes hold every full check only so): at least one
# case fits there, and every case that fits must agree.
@pytest.mark.parametrize("trials, ks, budget, least", [(8, (2, 3, 4), 0.5, 12),
                                                      pytest.param(4, (5, 6, 7, 8, 9), 20, 1,
                                                                   marks=pytest.mark.full)])
def test_sampled_boards_against_the_engine(trials, ks, budget, least, evaluator, fused, poker_artifacts):
    """On random full boards, the wins, ties and shares of a random hand against k opponents: equal to the
    numba engine's exact enumeration (where it fits its budget, at least ``least`` cases; beyond it, the engine
    samples 2 deals)."""
    engine = NumbaEngine(poker_artifacts)
    rng = random.Random(41)
    compared = 0
    for _ in range(trials):
        cards = rng.sample(range(52), 7)
        board, hand = cards[:5], sorted(cards[5:])
        counts = _seat(board, hand, evaluator, fused, max(ks))
        for k in ks:
            got = equity([hand], board=board, opponents=k, engine=engine, budget=budget, samples=2,
                         use_table=False, artifacts_dir=poker_artifacts)
            if not got.exact:
                continue
            row = [factorial(k) * c for c in counts[k][:k + 1]]
            assert got.wins[0] == row[0] and got.ties[0] == sum(row[1:])
            assert got.shares[0] == sum(Fraction(c, j + 1) for j, c in enumerate(row))
            compared += 1
    assert compared >= least


@pytest.mark.parametrize("hands", [["72o"], pytest.param("all", marks=pytest.mark.full)])
def test_one_opponent_equals_the_exact_table(hands, evaluator, fused, preflop_artifacts):
    """Against one random hand, the counts equal the preflop table's exact heads-up sums, class by class (AA:
    through the artifact, below)."""
    table = load_preflop(preflop_artifacts).arrays
    pairs = FULL_DECK.rank_pairs() if hands == "all" else sorted({class_ranks(parse_class(h))[:2] for h in hands})
    for x, y in pairs:
        got = task_counts(FULL_DECK, evaluator, *fused, x, y, 0, 1, 1).counts
        for kind in ((0,) if x == y else (1, 2)):
            c = _class_of(x, y, kind)
            assert got[kind][0][0] * 1 == len(class_combos(c)) * 2_118_760
            assert got[kind][1][0] == table["random_win"][c]
            assert got[kind][1][1] == table["random_tie"][c]


def _class_of(x, y, kind):
    from lookup.poker.cards import class_index

    return class_index(x, y, kind == 1)


@pytest.mark.full  # ~3 min: 5 classes counted against 9 hands, 2,000,000 deals sampled for each of 15 cases
def test_full_size_against_monte_carlo(evaluator, fused, poker_artifacts):
    """AA, KK, AKs, 72o and 22 against 2, 5 and 9 random hands: the exact equity lies within 4 standard errors
    of the numba engine's Monte Carlo (2,000,000 deals each)."""
    engine = NumbaEngine(poker_artifacts)
    for name, hand in (("AA", "AsAh"), ("KK", "KsKh"), ("AKs", "AsKs"), ("72o", "7s2h"), ("22", "2s2h")):
        hi, lo, kind = class_ranks(parse_class(name))
        counts = sum(np.array(task_counts(FULL_DECK, evaluator, *fused, hi, lo, b, 8, 9).counts[kind], dtype=object)
                     for b in range(8))
        for k in (2, 5, 9):
            exact = sum(Fraction(int(counts[k][j]), j + 1) for j in range(k + 1)) / unordered_matchings(45, k)
            exact /= len(class_combos(parse_class(name))) * 2_118_760
            mc = equity([hand], opponents=k, engine=engine, budget=0, samples=2_000_000, seed=k,
                        use_table=False, artifacts_dir=poker_artifacts)
            assert abs(float(exact) - mc.equity[0]) < 4 * mc.se[0], (name, k, float(exact), mc.equity[0], mc.se[0])


def test_params_are_checked():
    assert multiway_params({})["max_opponents"] == 0
    assert [f.name for f in families({})] == ["poker-evaluator", "poker-preflop"]
    assert multiway_params({"multiway": {"max_opponents": 3, "hands": ["aks", "AA", "AKs"]}})["hands"] == ["AA", "AKs"]
    assert multiway_params({"multiway": {"hands": yaml.safe_load("[22, 72o]")}})["hands"] == ["72o", "22"]
    for bad, key in (({"max_opponents": 10}, "max_opponents"), ({"max_opponents": True}, "max_opponents"),
                     ({"board_blocks": 0}, "board_blocks"), ({"hands": []}, "hands"), ({"hands": ["AKx"]}, "AKx"),
                     ({"workers": -1}, "workers"), ({"scheduler": 5}, "scheduler"), ({"seed": 1}, "unknown")):
        with pytest.raises(ValueError, match=key):
            multiway_params({"multiway": bad})


def _tasks(tmp: Path, deck: Deck, kmax: int, blocks: int) -> list[Task]:
    return [Task(deck, x, y, b, blocks, kmax, str(tmp)) for x, y in deck.rank_pairs() for b in range(blocks)]


def test_build_resumes_from_its_parts(tmp_path, poker_artifacts, evaluator, fused):
    """Parts already counted are reused; a missing or corrupted one is counted again; the sums are the
    enumeration's."""
    deck, kmax, blocks = Deck((8, 9, 10, 11, 12), 3), 4, 3
    parts = tmp_path / "parts"
    first = build_counts(deck, kmax, deck.rank_pairs(), blocks, parts, poker_artifacts)
    tasks = _tasks(poker_artifacts, deck, kmax, blocks)
    assert len(list(parts.glob("*.json"))) == len(tasks)
    stamps = {p.name: p.stat().st_mtime_ns for p in parts.glob("*.json")}
    # One part lost, one corrupted (a count changed, its digest left): both counted again, nothing else.
    (parts / f"{tasks[0].name}.json").unlink()
    bad = parts / f"{tasks[1].name}.json"
    data = json.loads(bad.read_text())
    data["payload"]["counts"][0][1][0] += 1
    bad.write_text(json.dumps(data))
    assert read_part(bad, tasks[1]) is None
    again = build_counts(deck, kmax, deck.rank_pairs(), blocks, parts, poker_artifacts)
    assert again == first == counts_by_class(deck, evaluator, fused, kmax)
    redone = {p.name for p in parts.glob("*.json") if stamps.get(p.name) != p.stat().st_mtime_ns}
    assert redone == {f"{tasks[0].name}.json", f"{tasks[1].name}.json"}


def test_parts_key_covers_the_counting_code_and_the_evaluator_bytes(poker_artifacts):
    """The parts directory's key: derived from the counting modules' import closure (the kernels and the card
    encoding included, nothing listed by hand), the evaluator tables' bytes (not the family's fingerprint, which
    changes with any edit of the stage module), K and the blocks."""
    from pipeline.code_deps import closure

    files = closure(COUNT_MODULES)
    for needed in ("pipeline/poker/seating.py", "pipeline/poker/board_types.py", "pipeline/poker/kernels.py",
                   "lookup/poker/cards.py", "pipeline/jit.py"):
        assert needed in files
    assert "pipeline/poker/stage.py" not in files and "pipeline/poker/multiway.py" not in files
    ev = evaluator_digest(poker_artifacts)
    assert ev == evaluator_digest(poker_artifacts) and len(ev) == 64
    key = parts_key(FULL_DECK, 5, 32, ev)
    assert len({key, parts_key(FULL_DECK, 9, 32, ev), parts_key(FULL_DECK, 5, 16, ev),
                parts_key(FULL_DECK, 5, 32, "0" * 64), parts_key(Deck((10, 11, 12), 4), 5, 32, ev)}) == 5


def _build(tmp: Path, evaluator_dir: Path, cfg: dict) -> Path:
    out = tmp / "artifacts"
    shutil.copytree(evaluator_dir, out)
    section = yaml.safe_load("preflop: {}\n") | {"multiway": cfg}
    family = next(f for f in families(section) if f.name == "poker-multiway")
    build_family(family, {"poker": section}, out)
    write_manifest(out)
    return out


@pytest.fixture(scope="module")
def multiway_artifacts(tmp_path_factory, poker_artifacts):
    """AA against 1 and 2 random hands, counted in this process."""
    return _build(tmp_path_factory.mktemp("multiway"), poker_artifacts,
                  {"max_opponents": 2, "hands": ["AA"], "board_blocks": 2, "workers": 0})


def test_the_artifact_answers_preflop_and_equity_exactly(multiway_artifacts, preflop_artifacts):
    table = built_multiway(multiway_artifacts)
    assert table.rows == 2 and table.arrays["built"].sum() == 1 and table.arrays["built"][0] == 1
    aa = preflop("AA", opponents=1, artifacts_dir=multiway_artifacts)
    heads_up = load_preflop(preflop_artifacts).arrays
    assert aa.exact and (aa.wins, aa.ties) == (heads_up["random_win"][0], heads_up["random_tie"][0])
    p = preflop("AA", opponents=2, artifacts_dir=multiway_artifacts)
    assert p.exact and p.splits[0] == p.wins and sum(p.splits[1:]) == p.ties and len(p.splits) == 3
    assert p.deals == 6 * 2_118_760 * unordered_matchings(45, 2) * 2
    assert p.fraction == sum(Fraction(c, j + 1) for j, c in enumerate(p.splits)) / p.deals
    # The exact row of the preflop table's own count (docs/poker.md: 73.4352 %).
    assert round(float(p.fraction), 6) == 0.734352
    e = equity(["AsAh"], opponents=2, artifacts_dir=multiway_artifacts)
    assert e.exact and e.source == "preflop table" and "poker-multiway" in e.method
    assert e.shares[0] / e.deals == p.fraction and e.wins[0] * 6 == p.wins and e.ties[0] * 6 == p.ties


def test_classes_not_counted_fall_back_to_the_preflop_table(multiway_artifacts, preflop_artifacts, tmp_path):
    both = tmp_path / "both"
    shutil.copytree(preflop_artifacts, both)
    shutil.copytree(multiway_artifacts / "poker-multiway.zarr", both / "poker-multiway.zarr")
    write_manifest(both)
    assert preflop("AA", opponents=2, artifacts_dir=both).splits is not None
    kk = preflop("KK", opponents=2, artifacts_dir=both)
    assert kk.splits is None and not kk.exact
    e = equity(["KsKh"], opponents=2, artifacts_dir=both)
    assert not e.exact and any("does not hold KK" in n for n in e.notes)


@pytest.mark.full  # two LocalClusters: ~1 min
def test_dask_build_same_bytes_on_one_and_two_workers(tmp_path, poker_artifacts):
    from distributed import Client, LocalCluster

    cfg = {"max_opponents": 2, "hands": ["AA"], "board_blocks": 4}
    one = _build(tmp_path / "one", poker_artifacts, cfg | {"workers": 1})
    two = _build(tmp_path / "two", poker_artifacts, cfg | {"workers": 2})
    files = sorted(p.relative_to(one) for p in (one / "poker-multiway.zarr").rglob("*") if p.is_file())
    assert files and files == sorted(p.relative_to(two) for p in (two / "poker-multiway.zarr").rglob("*")
                                     if p.is_file())
    for rel in files:
        assert (one / rel).read_bytes() == (two / rel).read_bytes(), rel
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None, silence_logs=40) as cluster, \
            Client(cluster) as client:  # and the counts of a reduced deck, on the cluster, as here
        deck = Deck((8, 9, 10, 11, 12), 3)
        assert build_counts(deck, 4, deck.rank_pairs(), 2, tmp_path / "p2", poker_artifacts, client) == \
            build_counts(deck, 4, deck.rank_pairs(), 2, tmp_path / "p1", poker_artifacts)
