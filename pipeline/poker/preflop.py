"""The preflop tables of the 169 starting-hand classes (artifact ``poker-preflop``, Zarr + HDF5).

* Heads-up, exact: for classes X, Y, the counts over every (board, hand of X, disjoint hand of Y) where X
  wins (``kernels.preflop_heads_up``) or ties (the triples neither wins), and the number of disjoint hand
  pairs (``hu_combos``).
* Against one random hand, exact: the heads-up counts summed over Y.
* Against 2 random hands: exact when ``exact_opponents: 2`` (the default; ``kernels.preflop_two`` counts
  the opponents' pairs of hands on every board), else Monte Carlo like the rest.
* Against more random hands: board-stratified Monte Carlo (``kernels.preflop_boards``): every board
  (one per suit orbit) is visited, so only the opponents are sampled, ``multiway_deals`` deals per board
  and row, every hand scored against the same deals; standard error stored beside each estimate.
  ``multiway_deals: 256`` gives a standard error <= 1e-4 on every entry (the default, 16, <= 2.6e-4;
  times in docs/benchmarks.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from math import ceil, comb, log
from pathlib import Path
from typing import Any

import numpy as np

from lookup.poker.cards import N_CLASSES, all_hands, hand_classes
from lookup.poker.problem import make_problem
from lookup.poker.rules import MAX_PLAYERS
from lookup.poker.tables import load_evaluator
from pipeline.poker.kernels import fused_table, preflop_boards, preflop_heads_up, preflop_two
from pipeline.progress import progress

HU_BOARDS = comb(48, 5)
TWO_HAND_PAIRS = comb(45, 2) * comb(43, 2) // 2  # unordered pairs of disjoint hands from 45 cards: 446,985
BOARD_ORBITS = 134_459  # boards up to suit permutation: the stratified Monte Carlo visits each once
# A hand on a board must see a deal disjoint from it in each half: see min_deals.
EMPTY_HALF = 1e-12


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



def board_tasks() -> np.ndarray:
    """The parallel tasks of the board-by-board kernels: every pair (c1, c2) of lowest board cards, int64
    [1176, 2], in a fixed shuffled order. Boards are visited once per suit orbit and every orbit's
    representative starts with a suit-0 card, so in card order the work is bunched in a few runs of tasks (a
    static split, like numba's prange, gave them to one thread; the kernels now hand tasks to threads one by
    one, ``pipeline.jit.run_chunks``, and the progress bar's groups would still be uneven); shuffled, it is
    spread. The order is fixed (seed 0): the exact counts do not depend on it, and the Monte Carlo rows are
    seeded per (c1, c2) (their float sums follow the order)."""
    tasks = np.array([(c1, c2) for c1 in range(48) for c2 in range(c1 + 1, 49)], dtype=np.int64)
    return tasks[np.random.default_rng(0).permutation(len(tasks))]


def _board_chunks(kernel_call: Any, description: str, combine: Any) -> None:
    """``combine(kernel_call(chunk))`` for chunks of board_tasks(), with a progress bar."""
    tasks = board_tasks()
    step = 98
    with progress(description, len(tasks)) as advance:
        for lo in range(0, len(tasks), step):
            combine(kernel_call(tasks[lo:lo + step]))
            advance(len(tasks[lo:lo + step]))

def heads_up(tables: Any) -> tuple[np.ndarray, np.ndarray]:
    """(win, tie) counts [169, 169], exact, over every board (progress bar by lowest board card). The kernel
    counts the wins; each (board, hand of X, disjoint hand of Y) triple is a win of X, a win of Y or a tie, so
    tie = hu_combos x boards - win - win.T."""
    last, first6 = fused_table(tables.rank_next, tables.rank_value)
    perms = make_problem([]).symmetry()
    pair_class = pair_class_table()
    win = np.zeros((N_CLASSES, N_CLASSES), dtype=np.int64)

    def add(counts: np.ndarray) -> None:
        win[...] += counts

    _board_chunks(lambda tasks: preflop_heads_up(tables.rank_next, last, first6, tables.flush_value, perms,
                                                 pair_class, tasks), "preflop heads-up (exact)", add)
    return win, combo_counts() * HU_BOARDS - win - win.T


def min_deals(n: int) -> int:
    """The fewest deals per board (even) for which a given hand meets no deal disjoint from it in one of the
    two halves with probability <= EMPTY_HALF: a deal of n hands misses both of its cards with probability
    C(45, 2n) / C(47, 2n) = (47 - 2n)(46 - 2n) / (47 x 46)."""
    miss = (47 - 2 * n) * (46 - 2 * n) / (47 * 46)
    return 2 * ceil(log(EMPTY_HALF) / log(1 - miss))


def multiway(tables: Any, ns: list[int], deals: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(equity, standard error, deals per board used) [len(ns), 169] / [len(ns)]: each class against ns[r]
    random hands, board-stratified Monte Carlo with max(deals, min_deals(n)) deals per board (progress bar
    by lowest board card)."""
    last, first6 = fused_table(tables.rank_next, tables.rank_value)
    perms = make_problem([]).symmetry()
    pair_class = pair_class_table()
    used = np.array([max(deals, min_deals(n)) for n in ns], dtype=np.int64)
    nsa = np.array(ns, dtype=np.int64)
    est = np.zeros((len(ns), N_CLASSES))
    var = np.zeros_like(est)
    empty = np.zeros(len(ns), dtype=np.int64)

    def add(parts: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
        est[...] += parts[0]
        var[...] += parts[1]
        empty[...] += parts[2]

    _board_chunks(lambda tasks: preflop_boards(tables.rank_next, last, first6, tables.flush_value, perms, pair_class,
                                               nsa, used, tasks, seed),
                  f"preflop against {ns[0]}..{ns[-1]} random hands (board-stratified Monte Carlo)", add)
    if empty.any():
        raise RuntimeError(f"preflop Monte Carlo: a hand met no disjoint deal in a half ({empty.tolist()}); "
                           "raise poker.preflop.multiway_deals")
    # Each class's (board, specific hand) pairs: its combinations x the C(50, 5) boards they leave.
    pairs = np.bincount(hand_classes(), minlength=N_CLASSES) * comb(50, 5)
    return est / pairs, np.sqrt(var) / pairs, used


def exact_against_two(tables: Any) -> list[Fraction]:
    """Exact equity of each class against two random hands (``kernels.preflop_two``: counted board by board,
    nothing dealt), as fractions: per class, pot shares over (board, hand, pair of opponent hands)."""
    last, first6 = fused_table(tables.rank_next, tables.rank_value)
    perms = make_problem([]).symmetry()
    pair_class = pair_class_table()
    sixths = np.zeros(N_CLASSES, dtype=np.int64)

    def add(part: np.ndarray) -> None:
        sixths[...] += part

    _board_chunks(lambda tasks: preflop_two(tables.rank_next, last, first6, tables.flush_value, perms, pair_class,
                                            tasks), "preflop against 2 random hands (exact)", add)
    combos = np.bincount(hand_classes(), minlength=N_CLASSES)
    return [Fraction(int(sixths[x]), 6 * TWO_HAND_PAIRS * int(combos[x]) * comb(50, 5)) for x in range(N_CLASSES)]


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
        equity[1] = [float(f) for f in exact_against_two(tables)]
        exact[1] = 1
    rows = [n for n in range(2, top + 1) if not exact[n - 1]]
    if rows:
        est, err, deals = multiway(tables, rows, cfg["multiway_deals"], cfg["seed"])
        for r, n in enumerate(rows):
            equity[n - 1], se[n - 1] = est[r], err[r]
            used[n - 1] = deals[r] * BOARD_ORBITS
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
                                    "other rows board-stratified Monte Carlo"),
        "multi_se": StoredArray(se, "multi_se[n - 1, X]: standard error of multi_equity (0 where exact)"),
        "multi_exact": StoredArray(exact, "multi_exact[n - 1]: 1 if row n - 1 of multi_equity is exact",
                                   fill=255),
        "multi_samples": StoredArray(used, "multi_samples[n - 1]: random opponent deals behind row n - 1: deals "
                                   "per board x the 134,459 boards up to suit permutation (0 = exact)"),
    }
    stats = {"max_multi_se": float(se[1:].max()) if top > 1 else 0.0,
             "aa_vs_random": float(equity[0, 0]), "heads_up_boards": HU_BOARDS}
    return arrays, stats


def preflop_params(section: Mapping[str, Any]) -> dict[str, Any]:
    """The preflop params, checked: max_opponents 1..9, exact_opponents 1..2, multiway_deals 2..100000 (per
    board and row; raised to ``min_deals(n)``), seed >= 0."""
    cfg = dict(section.get("preflop") or {})
    out = {"max_opponents": cfg.pop("max_opponents", MAX_PLAYERS - 1),
           "exact_opponents": cfg.pop("exact_opponents", 2),
           "multiway_deals": cfg.pop("multiway_deals", 16), "seed": cfg.pop("seed", 12)}
    if cfg:
        raise ValueError(f"poker.preflop: unknown keys {sorted(cfg)} (known: max_opponents, exact_opponents, "
                         "multiway_deals, seed)")
    for key, low, high in (("max_opponents", 1, MAX_PLAYERS - 1), ("exact_opponents", 1, 2),
                           ("multiway_deals", 2, 100_000), ("seed", 0, 2**32)):
        value = out[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"poker.preflop.{key} must be an integer in {low}..{high}, got {value!r}")
    return out
