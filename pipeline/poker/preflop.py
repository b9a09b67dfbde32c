"""The preflop tables of the 169 starting-hand classes (artifact ``poker-preflop``, Zarr + HDF5).

* Heads-up, exact: for classes X, Y, the counts over every (board, hand of X, disjoint hand of Y) where X
  wins or ties (``kernels.preflop_heads_up``), and the number of disjoint hand pairs (``hu_combos``).
* Against one random hand, exact: the heads-up counts summed over Y.
* Against 2 random hands: exact when ``exact_opponents: 2`` (one suit combination per class through the
  exact engine, ~1-2 s each: ~4 min), else Monte Carlo like the rest.
* Against more random hands: seeded Monte Carlo (``kernels.preflop_multiway``), standard error stored
  beside each estimate. ``multiway_samples`` sets the deals per opponent count; 200,000 give a standard
  error of ~1.3e-3; <= 1e-4 would need ~36,000,000 (about 20 minutes here, over the stage's budget).
"""

from __future__ import annotations

from collections.abc import Mapping
from math import comb
from pathlib import Path
from typing import Any

import numpy as np

from lookup.poker.cards import N_CLASSES, all_hands, hand_classes
from lookup.poker.problem import make_problem
from lookup.poker.rules import MAX_PLAYERS
from lookup.poker.tables import load_evaluator
from pipeline.poker.engine import interleaved
from pipeline.poker.kernels import fused_table, preflop_heads_up, preflop_multiway
from pipeline.progress import progress

HU_BOARDS = comb(48, 5)
MC_TASKS = 64


def pair_class_table() -> np.ndarray:
    """pair_class[a, b] (a < b): class of the hand {a, b}; -1 elsewhere."""
    table = np.full((52, 52), -1, dtype=np.int64)
    hands = all_hands()
    table[hands[:, 0], hands[:, 1]] = hand_classes()
    return table


def combo_counts() -> np.ndarray:
    """hu_combos[X, Y]: ordered pairs of disjoint specific hands of classes X and Y."""
    hands = all_hands()
    classes = hand_classes()
    clash = (hands[:, None, 0] == hands[None, :, 0]) | (hands[:, None, 0] == hands[None, :, 1]) | \
            (hands[:, None, 1] == hands[None, :, 0]) | (hands[:, None, 1] == hands[None, :, 1])
    out = np.zeros((N_CLASSES, N_CLASSES), dtype=np.int64)
    xs, ys = np.nonzero(~clash)
    np.add.at(out, (classes[xs], classes[ys]), 1)
    return out


def heads_up(tables: Any) -> tuple[np.ndarray, np.ndarray]:
    """(win, tie) counts [169, 169], exact, over every board (progress bar by lowest board card)."""
    last, first6 = fused_table(tables.rank_next, tables.rank_value)
    perms = make_problem([]).symmetry()
    pair_class = pair_class_table()
    order = interleaved(48)
    win = np.zeros((N_CLASSES, N_CLASSES), dtype=np.int64)
    tie = np.zeros_like(win)
    step = 8
    with progress("preflop heads-up (exact)", len(order)) as advance:
        for lo in range(0, len(order), step):
            w, t = preflop_heads_up(tables.rank_next, last, first6, tables.flush_value, perms, pair_class,
                                    order[lo:lo + step])
            win += w
            tie += t
            advance(len(order[lo:lo + step]))
    return win, tie


def multiway(tables: Any, n: int, samples: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(equity, standard error) [169] of each class against n random hands, Monte Carlo."""
    last, first6 = fused_table(tables.rank_next, tables.rank_value)
    sums = preflop_multiway(tables.rank_next, last, first6, tables.flush_value, pair_class_table(), n, samples,
                            MC_TASKS, seed)
    s, h, ss, hh, sh = sums
    ratio = s / h
    # Ratio estimator over independent samples: Var ~ sum (s_i - R h_i)^2 / (sum h_i)^2, Bessel-corrected.
    var = (ss - 2 * ratio * sh + ratio ** 2 * hh) / h ** 2 * samples / (samples - 1)
    return ratio, np.sqrt(np.maximum(var, 0.0))


def exact_against_two(artifacts_dir: Path) -> np.ndarray:
    """Exact equity [169] of each class against two random hands: every suit combination of a class has the
    same equity (suits are symmetric), so one combination per class is counted exactly."""
    from lookup.poker.cards import class_combos
    from lookup.poker.equity import equity
    from pipeline.poker.engine import NumbaEngine

    engine = NumbaEngine(artifacts_dir)
    out = np.zeros(N_CLASSES)
    with progress("preflop against 2 random hands (exact)", N_CLASSES) as advance:
        for x in range(N_CLASSES):
            got = equity([class_combos(x)[0]], opponents=2, engine=engine, budget=1e9)
            if not got.exact:
                raise RuntimeError(f"class {x}: the exact count did not complete")
            out[x] = float(got.shares[0] / got.deals)
            advance()
    return out


def compute_preflop(spec: Any, section: Mapping[str, Any], artifacts_dir: Path) -> tuple[dict, dict]:
    """Every preflop array (see the module docstring); the evaluator artifact must be built (upstream)."""
    from pipeline.store import StoredArray

    cfg = spec.params
    tables = load_evaluator(artifacts_dir)
    win, tie = heads_up(tables)
    combos = combo_counts()
    total = combos * HU_BOARDS
    rand_win, rand_tie, rand_total = win.sum(axis=1), tie.sum(axis=1), total.sum(axis=1)
    top = cfg["max_opponents"]
    equity = np.zeros((top, N_CLASSES))
    se = np.zeros((top, N_CLASSES))
    exact = np.zeros(top, dtype=np.uint8)
    equity[0] = (rand_win + rand_tie / 2) / rand_total
    exact[0] = 1
    used = np.zeros(top, dtype=np.int64)
    if cfg["exact_opponents"] >= 2 and top >= 2:
        equity[1] = exact_against_two(artifacts_dir)
        exact[1] = 1
    with progress("preflop against more random hands (Monte Carlo)", top - 1) as advance:
        for n in range(2, top + 1):
            if exact[n - 1]:
                advance()
                continue
            equity[n - 1], se[n - 1] = multiway(tables, n, cfg["multiway_samples"], cfg["seed"] + n)
            used[n - 1] = cfg["multiway_samples"]
            advance()
    arrays = {
        "hu_win": StoredArray(win, "hu_win[X, Y]: (board, hand of class X, disjoint hand of class Y) triples, over "
                              "all C(48, 5) boards, where X's hand is strictly better; exact"),
        "hu_tie": StoredArray(tie, "hu_tie[X, Y]: the same where both hands are equal (split pot); exact"),
        "hu_combos": StoredArray(combos, "hu_combos[X, Y]: ordered pairs of disjoint specific hands of classes X "
                                 "and Y; hu_combos * 1,712,304 boards = all triples (losses = that - win - tie)"),
        "hu_equity": StoredArray((win + tie / 2) / total, "hu_equity[X, Y]: equity of X against Y heads-up, "
                                 "averaged over the suit combinations, (win + tie / 2) / (combos * 1712304)"),
        "random_win": StoredArray(rand_win, "random_win[X]: sum over Y of hu_win[X, Y] (against one random hand)"),
        "random_tie": StoredArray(rand_tie, "random_tie[X]: sum over Y of hu_tie[X, Y]"),
        "random_total": StoredArray(rand_total, "random_total[X]: equally likely (board, hand of X, random "
                                    "disjoint hand) triples: sum over Y of hu_combos[X, Y] * 1712304"),
        "multi_equity": StoredArray(equity, "multi_equity[n - 1, X]: equity of X against n random hands; row 0 "
                                    "exact (from random_win / random_tie), row 1 exact if multi_exact[1], "
                                    "other rows Monte Carlo"),
        "multi_se": StoredArray(se, "multi_se[n - 1, X]: standard error of multi_equity (0 where exact)"),
        "multi_exact": StoredArray(exact, "multi_exact[n - 1]: 1 if row n - 1 of multi_equity is exact",
                                   fill=255),
        "multi_samples": StoredArray(used, "multi_samples[n - 1]: random deals behind row n - 1 (0 = exact)"),
    }
    stats = {"max_multi_se": float(se[1:].max()) if top > 1 else 0.0,
             "aa_vs_random": float(equity[0, 0]), "heads_up_boards": HU_BOARDS}
    return arrays, stats


def preflop_params(section: Mapping[str, Any]) -> dict[str, Any]:
    """The preflop params, checked: max_opponents 1..9, exact_opponents 1..2, multiway_samples >= 1000,
    seed >= 0."""
    cfg = dict(section.get("preflop") or {})
    out = {"max_opponents": cfg.pop("max_opponents", MAX_PLAYERS - 1),
           "exact_opponents": cfg.pop("exact_opponents", 1),
           "multiway_samples": cfg.pop("multiway_samples", 200_000), "seed": cfg.pop("seed", 12)}
    if cfg:
        raise ValueError(f"poker.preflop: unknown keys {sorted(cfg)} (known: max_opponents, exact_opponents, "
                         "multiway_samples, seed)")
    for key, low, high in (("max_opponents", 1, MAX_PLAYERS - 1), ("exact_opponents", 1, 2),
                           ("multiway_samples", 1000, 10**10), ("seed", 0, 2**32)):
        value = out[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"poker.preflop.{key} must be an integer in {low}..{high}, got {value!r}")
    return out
