"""The exact law of the final score of a Yahtzee game played by a policy (the optimal one by default).

Not a simulation: a pass over the turn-start states, layer by layer over the number of filled boxes, that
carries for every state the probability of every number of points. For each state ``s`` it computes
``D_s[x]`` = P(the points still to be scored from the start of the turn at ``s`` equal ``x``), from the
states one box later::

    D_s[x] = sum over turn outcomes o of P(o | s) * D_next(o)[x - reward(o)]

where a turn outcome is the box chosen and its points (the dice under the policy's rerolls give the law of
the final roll; the policy's box gives the outcome of each roll). The law of the final score is
``D_start``. Each state is written by one thread from read-only next-layer data (no write races), only two
layers of laws are held at once (memory bounded: ~0.3 GiB for the largest layer of ``scandinavian``), and
each state's law is stored only over 0..(most points its open boxes can still give).

Scores are REAL scores: the upper bonus is paid when earned also for ``seed`` (whose policy ignores it),
and every Yahtzee bonus. States are merged where the real game's future does not depend on the merged
field (``lookup.yahtzee.states``, with the real upper bonus), so the law of a merged row is that of each of
its states. The same pass gives P(upper bonus earned) and P(the Yahtzee box ends holding its points).

Two ways in, one pass (``_law_pass``): :func:`score_distribution` plays given policy tables (the 5-dice rule
sets' ``reroll`` and ``category``, whole); :func:`optimal_score_law` solves the values and builds the policy of
one block of rows at a time (``solver.policy_block``), for rule sets whose policy table does not fit in memory
(Maxi Yatzy: 31 GB). The two layers of laws held at once are arrays in memory, or for a large rule set files
mapped into memory (``np.memmap`` in a temporary directory: Maxi's two largest layers are ~15 GB of float64),
so that RAM holds only what the OS caches of them. Where they are stored and how rows are blocked change no
bit of the result: each row's law is computed alone, by the same kernel.

Why numba: the pass visits ~1e6 states with 252 rolls and a few hundred points each (~1e10 operations).
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numba
import numpy as np

from lookup.yahtzee.rules import UPPER, Rules, get_rules, kernel_params, scoring_tables
from lookup.yahtzee.states import state_space
from pipeline.jit import njit, run_chunks
from pipeline.yahtzee import kernels
from pipeline.yahtzee.solver import kernel_tables, mask_batches, reroll_candidates_of

__all__ = ["ScoreLaw", "law_rules", "optimal_score_law", "score_distribution", "real_rules", "remaining_bounds"]

# storage="auto": two consecutive layers of laws up to this many bytes are held in memory, larger ones in files.
IN_MEMORY_BYTES = 4 << 30
# Rows of one block of optimal_score_law's pass: the next layer's rows read no more are freed after each block.
DEFAULT_BLOCK_ROWS = 1 << 17
# Chunks of a block per thread (run_chunks): rows cost unequally, and the block's last chunk keeps one thread busy
# alone.
CHUNKS_PER_THREAD = 32
# What the pass plays: the policy tables (policy_row, reroll, category), row i's decisions in
# reroll[policy_row[i]] and category[policy_row[i]], or the values by row (float64), whose turns it solves.
Policy = tuple[np.ndarray, np.ndarray, np.ndarray] | np.ndarray


def real_rules(rules: Rules) -> Rules:
    """``rules`` with the upper bonus in the optimisation: the state space that tracks the real game."""
    return rules if rules.bonus_in_optimisation else dataclasses.replace(rules, bonus_in_optimisation=True)


def remaining_bounds(rules: Rules, row_mask: np.ndarray, row_upper: np.ndarray, row_ybox: np.ndarray) -> np.ndarray:
    """Most points (an upper bound, int64) still to be scored from each turn-start state of a real game.

    The sum of the best score of each open box (Joker values included), the upper bonus while the open
    upper boxes can still lift the upper total to the threshold, and one Yahtzee bonus per open box while
    the Yahtzee box holds 50 (one fewer while it is open: the Yahtzee that fills it earns none).
    """
    st = scoring_tables(rules)
    best = np.maximum(st.score.max(axis=0), st.joker_score.max(axis=0)).astype(np.int64)
    # Box by box, not as a [rows, boxes] matrix of open bits: Maxi has 37 million rows (a 6 GB matrix).
    out = np.zeros(len(row_mask), dtype=np.int64)
    reach = np.array(row_upper, dtype=np.int64)
    n_open = np.zeros(len(row_mask), dtype=np.int64)
    for c in range(rules.n_boxes):
        is_open = ((row_mask >> c) & 1) == 0
        out += np.where(is_open, best[c], 0)
        n_open += is_open
        if c < UPPER:
            reach += np.where(is_open, rules.n_dice * (c + 1), 0)
    out += np.where((row_upper < rules.upper_threshold) & (reach >= rules.upper_threshold), rules.upper_bonus, 0)
    if rules.yahtzee_bonus:
        yahtzee_open = ((row_mask >> rules.yahtzee_index) & 1) == 0
        bonuses = np.where(row_ybox == 1, n_open, np.where(yahtzee_open, np.maximum(n_open - 1, 0), 0))
        out += rules.yahtzee_bonus * bonuses
    return out


@njit(cache=True)
def _final_roll_law(reroll, roll_prob, keep_of_mask, add_die, roll_offset, km):
    """Leaves in ``km[roll_offset + r]`` the probability that the turn's final roll is ``r`` when the rerolls
    ``reroll[j, r]`` are played (forward through the keep tree: a keep of m dice becomes each keep of m + 1 dice
    with probability 1 / n_faces per face)."""
    n_keeps = add_die.shape[0]
    n_faces = add_die.shape[1]
    inv = 1.0 / n_faces
    n_rolls = roll_prob.shape[0]
    for k in range(n_keeps):
        km[k] = 0.0
    for r in range(n_rolls):
        km[roll_offset + r] = roll_prob[r]
    for j in range(1, -1, -1):  # j = rerolls left - 1: first the decision after the first roll
        for k in range(roll_offset):
            km[k] = 0.0
        for r in range(n_rolls):
            p = km[roll_offset + r]
            km[roll_offset + r] = 0.0
            km[keep_of_mask[r, reroll[j, r]]] += p
        for k in range(roll_offset):  # keeps are numbered by size: a keep's mass is complete when reached
            p = km[k]
            if p != 0.0:
                p *= inv
                for f in range(n_faces):
                    km[add_die[k, f]] += p


@njit(cache=True)
def _final_roll_law_batch(reroll, nb, roll_prob, keep_of_mask, add_die, roll_offset, km):
    """:func:`_final_roll_law` of the lanes s < nb side by side: ``km[roll_offset + r, s]`` for the rerolls
    ``reroll[s, j, r]`` (the other lanes hold no law). Each lane's operations are the scalar's in its order, so its
    bits are the scalar's: a keep's mass is scaled in place (the scalar scales a copy, and the keep is not read
    again), and a keep of mass zero adds zeros to nonnegative masses, which the scalar skips."""
    n_faces = add_die.shape[1]
    n_lanes = km.shape[1]
    inv = 1.0 / n_faces
    n_rolls = roll_prob.shape[0]
    for r in range(n_rolls):
        for s in range(n_lanes):
            km[roll_offset + r, s] = roll_prob[r] if s < nb else 0.0
    for j in range(1, -1, -1):  # j = rerolls left - 1: first the decision after the first roll
        for k in range(roll_offset):
            for s in range(n_lanes):
                km[k, s] = 0.0
        for r in range(n_rolls):
            for s in range(nb):
                p = km[roll_offset + r, s]
                km[roll_offset + r, s] = 0.0
                km[keep_of_mask[r, reroll[s, j, r]], s] += p
        for k in range(roll_offset):  # the lanes of a keep are contiguous: the loops over lanes vectorize
            for s in range(n_lanes):
                km[k, s] *= inv
            for f in range(n_faces):
                a = add_die[k, f]
                for s in range(n_lanes):
                    km[a, s] += km[k, s]


@njit(cache=True)
def _row_law(i, category, row_mask, row_upper, row_ybox, state_index, score_t, joker_score, yface, params,
             roll_offset, roll_prob, n_points, width, offset, law, next_law, p_bonus, p_yahtzee, errors, km, tab,
             touched):
    """The law of row i's remaining points played by ``category[r]`` (its policy row), ``km[roll_offset + r]``
    being the probability that its final roll is r under its rerolls (:func:`_final_roll_law`), as
    :func:`law_layer` documents it. Scratch: tab [n_boxes, 2 n_points] (zeros, left zeros), touched [n_rolls]."""
    joker_code, thr, ubonus, ybonus = params[0], params[1], params[2], params[3]
    n_boxes, yidx = params[5], params[6]
    all_filled = (1 << n_boxes) - 1
    n_rolls = roll_prob.shape[0]
    mask, upper, ybox = row_mask[i], row_upper[i], row_ybox[i]
    n_touched = 0
    for r in range(n_rolls):
        q = km[roll_offset + r]
        if q == 0.0:
            continue
        c = np.int64(category[r])
        f = yface[r]
        allowed, use_joker = kernels.scoring_options(joker_code, mask, f, all_filled, yidx, params[7])
        if c >= n_boxes or (allowed >> c) & 1 == 0:
            errors[i] = 2
            continue
        pts = joker_score[r, c] if use_joker else np.int64(score_t[c, r])
        key = pts + (n_points if f >= 0 else 0)
        if tab[c, key] == 0.0:
            touched[n_touched] = c * 2 * n_points + key
            n_touched += 1
        tab[c, key] += q
    dst = law[offset[i]:offset[i] + width[i]]
    dst[:] = 0.0
    pb = 0.0
    py = 0.0
    for t in range(n_touched):
        c = touched[t] // (2 * n_points)
        key = touched[t] % (2 * n_points)
        p = tab[c, key]
        tab[c, key] = 0.0
        yr = 1 if key >= n_points else 0
        pts = key - n_points * yr
        rew, nu, ny = kernels.box_outcome(c, pts, upper, ybox, yr, thr, ubonus, ybonus, yidx)
        nxt = state_index[mask | (1 << c), nu, ny]
        if c < UPPER and upper < thr <= nu:
            pb += p
        pb += p * p_bonus[nxt]
        if ny == 1 and ybox == 0:
            py += p
        py += p * p_yahtzee[nxt]
        wn = width[nxt]
        if rew + wn > width[i]:
            errors[i] = 1
            continue
        src = next_law[offset[nxt]:offset[nxt] + wn]
        out = dst[rew:rew + wn]  # indexed by the loop's counter alone (no offset to add): the loop vectorizes
        for x in range(wn):
            out[x] += p * src[x]
    p_bonus[i] = pb
    p_yahtzee[i] = py


@njit(cache=True, nogil=True)
def law_layer(chunk, start, stop, lo, hi, row_mask, row_upper, row_ybox, policy_row, reroll, category, state_index,
              score_t, joker_score, yface, params, add_die, roll_offset, roll_prob, keep_of_mask, n_points,
              width, offset, law, next_law, p_bonus, p_yahtzee, errors):
    """Laws of the remaining points of rows lo..hi-1 (rows of one layer) into ``law``, from the next layer's.

    Row i is played by ``reroll[policy_row[i]]`` and ``category[policy_row[i]]``. Its law is
    ``law[offset[i]:offset[i] + width[i]]`` (P(points 0..width[i]-1)), the next layer's in ``next_law`` at
    its rows' offsets (offsets count from the start of the row's layer). ``p_bonus[i]``, ``p_yahtzee[i]``:
    probabilities that the upper bonus is earned, and that the Yahtzee box ends holding its points, from row
    i on. ``params`` are ``rules.kernel_params(real_bonus=True)``; ``n_points`` exceeds every box score.
    ``errors[i]`` = 1 if a law did not fit its width (a wrong bound), 2 if the policy picks a box the rules
    do not allow (the caller raises).
    """
    km = np.empty(add_die.shape[0])
    tab = np.zeros((params[5], 2 * n_points))  # P(box c scores pts, five alike or not)
    touched = np.empty(roll_prob.shape[0], dtype=np.int64)
    for i in range(lo + start, lo + stop):
        prow = policy_row[i]
        _final_roll_law(reroll[prow], roll_prob, keep_of_mask, add_die, roll_offset, km)
        _row_law(i, category[prow], row_mask, row_upper, row_ybox, state_index, score_t, joker_score, yface, params,
                 roll_offset, roll_prob, n_points, width, offset, law, next_law, p_bonus, p_yahtzee, errors, km, tab,
                 touched)


@njit(cache=True, nogil=True)
def optimal_law_layer(chunk, start, stop, batch_lo, batch_n, row_mask, row_upper, row_ybox, vrow, state_index,
                      score_t, joker_score, counts_t, yroll, yface, params, add_die, sub_pad, size_offset, roll_offset,
                      roll_prob, keep_of_mask, cand_keep, cand_mask, n_points, width, offset, law, next_law, p_bonus,
                      p_yahtzee, errors):
    """:func:`law_layer` for the optimal policy, without a policy table, and the values on the way: the rows of
    batch b (rows batch_lo[b] .. + batch_n[b], one mask, at most ``kernels.BATCH``) get their turn solved from
    the next layer's values ``vrow`` (by row) by ``kernels.turn_policy_batch``: their values, written to
    ``vrow`` (bitwise ``solver.solve``'s), and their policy (``solver.policy_block``'s, bitwise); then their
    laws. ``params`` serve both: the optimisation counts the real upper bonus (``law_rules``)."""
    batch = kernels.BATCH
    n_keeps = add_die.shape[0]
    n_rolls = roll_prob.shape[0]
    e = np.empty((n_keeps, batch))
    m = np.empty((n_keeps + 1, batch))
    g = np.empty((params[5], params[4] + 1, batch))
    w = np.empty((params[5], batch))
    ups = np.empty(batch, dtype=np.int64)
    ybs = np.empty(batch, dtype=np.int64)
    reroll = np.empty((batch, 2, n_rolls), dtype=np.uint8)
    category = np.empty((batch, n_rolls), dtype=np.uint8)
    value = np.empty(batch)
    km = np.empty((n_keeps, batch))
    tab = np.zeros((params[5], 2 * n_points))
    touched = np.empty(n_rolls, dtype=np.int64)
    for b in range(start, stop):
        lo, nb = batch_lo[b], batch_n[b]
        for s in range(batch):
            i = lo + (s if s < nb else 0)  # spare lanes repeat the first state
            ups[s] = row_upper[i]
            ybs[s] = row_ybox[i]
        kernels.turn_policy_batch(row_mask[lo], ups, ybs, nb, e, m, g, w, vrow, state_index, score_t, joker_score,
                                  counts_t, yroll, yface, params, add_die, sub_pad, size_offset, roll_offset, roll_prob,
                                  cand_keep, cand_mask, reroll, category, value)
        _final_roll_law_batch(reroll, nb, roll_prob, keep_of_mask, add_die, roll_offset, km)
        for s in range(nb):
            vrow[lo + s] = value[s]
            _row_law(lo + s, category[s], row_mask, row_upper, row_ybox, state_index, score_t, joker_score, yface,
                     params, roll_offset, roll_prob, n_points, width, offset, law, next_law, p_bonus, p_yahtzee, errors,
                     km[:, s], tab, touched)


@dataclass(frozen=True)
class ScoreLaw:
    """The law of the final score: ``pmf[x]`` = P(final score = x points), x = 0..len(pmf)-1.

    ``p_upper_bonus``: probability that the upper bonus is earned; ``p_yahtzee``: that the Yahtzee (Maxi
    Yatzy) box ends holding its points. ``storage``: where the layers of laws were held ("memory" or "disk");
    ``peak_bytes``: the most bytes of laws held at once there (on disk: blocks allocated to the files).
    ``start_value``: the optimal expected score from the values solved on the way (:func:`optimal_score_law`;
    None when the policy was given). ``timings``: seconds (not stored).
    """

    rules: Rules
    pmf: np.ndarray
    p_upper_bonus: float
    p_yahtzee: float
    storage: str
    peak_bytes: int
    start_value: float | None = None
    timings: dict[str, float] = field(default_factory=dict)


def _punch(fd: int, start: int, length: int) -> bool:
    """Free the disk blocks of bytes start..start+length-1 of the open file ``fd`` (they read as zeros
    afterwards, also through a memory map); False where the system cannot (the bytes stay allocated)."""
    import ctypes
    import ctypes.util

    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    fallocate = getattr(libc, "fallocate", None)
    if fallocate is None:
        return False
    fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_longlong, ctypes.c_longlong]
    falloc_fl_keep_size, falloc_fl_punch_hole = 0x01, 0x02  # linux/falloc.h
    return fallocate(fd, falloc_fl_keep_size | falloc_fl_punch_hole, start, length) == 0


class _Layers:
    """The layers of laws the pass holds: float64 arrays in memory (``directory`` None), or files in
    ``directory`` mapped into memory, whose first bytes can be freed while the layer is still read."""

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory
        self.arrays: dict[int, np.ndarray] = {}
        self.maps: dict[int, np.memmap] = {}
        self.freed: dict[int, int] = {}

    def new(self, n: int, size: int) -> np.ndarray:
        """A float64 array of ``size`` for layer ``n`` (its contents undefined until written)."""
        if self.directory is None:
            self.arrays[n] = np.empty(size, dtype=np.float64)
        else:  # a sparse file: blocks are allocated as the rows are written
            self.maps[n] = np.memmap(self._path(n), dtype=np.float64, mode="w+", shape=(max(size, 1),))
            self.arrays[n] = np.asarray(self.maps[n])  # a plain ndarray view for the kernel
            self.freed[n] = 0
        return self.arrays[n]

    def release(self, n: int, nbytes: int) -> None:
        """The first ``nbytes`` of layer ``n`` will not be read again: free their disk blocks (in memory,
        nothing is freed before the layer is dropped)."""
        if self.directory is None or nbytes <= self.freed[n]:
            return
        fd = os.open(self._path(n), os.O_RDWR)
        try:
            if _punch(fd, self.freed[n], nbytes - self.freed[n]):
                self.freed[n] = nbytes
        finally:
            os.close(fd)

    def drop(self, n: int) -> None:
        """Layer ``n`` is no longer needed."""
        self.arrays.pop(n, None)
        if self.directory is not None and n in self.maps:
            del self.maps[n]
            self._path(n).unlink()

    def held_bytes(self) -> int:
        """Bytes of laws held now: the arrays' sizes in memory, the blocks allocated to the files on disk."""
        if self.directory is None:
            return sum(a.nbytes for a in self.arrays.values())
        return sum(self._path(n).stat().st_blocks * 512 for n in self.maps)

    def _path(self, n: int) -> Path:
        return self.directory / f"law_{n:02d}.f64"


@contextmanager
def _layer_store(on_disk: bool, tmp_dir: str | Path | None) -> Iterator[_Layers]:
    """A :class:`_Layers` in memory, or in a new temporary directory under ``tmp_dir`` (removed on exit)."""
    if not on_disk:
        yield _Layers(None)
        return
    with tempfile.TemporaryDirectory(prefix="dicetables-law-", dir=tmp_dir) as directory:
        layers = _Layers(Path(directory))
        try:
            yield layers
        finally:
            for n in list(layers.maps):
                layers.drop(n)


def _blocks(lo: int, hi: int, block_rows: int | None) -> list[tuple[int, int]]:
    """Rows lo..hi-1 in consecutive blocks of at most ``block_rows`` rows (None: one block)."""
    step = max(1, hi - lo if block_rows is None else block_rows)
    return [(a, min(hi, a + step)) for a in range(lo, hi, step)]


def _freed_rows(row_mask: np.ndarray, next_lo: int, next_hi: int, b: int, hi: int) -> int:
    """How many first rows of the next layer (rows next_lo..next_hi-1) no row b..hi-1 reads.

    Why this works: rows are sorted by mask within a layer, and a row of mask m reads only rows of masks
    m | (1 << c) > m of the next layer. Once rows up to b-1 are done, the rest have masks >= row_mask[b], so
    the next layer's rows of masks <= row_mask[b] (a first run of its rows) are read no more.
    """
    if b >= hi:
        return next_hi - next_lo
    return int(np.searchsorted(row_mask[next_lo:next_hi], row_mask[b], side="right"))


def law_sizes(rules: Rules | str, block_rows: int | None = None) -> dict[str, object]:
    """The sizes of the laws of ``rules``' pass, in bytes: ``layers[n]`` (the laws of the states with n
    boxes filled), ``two_layers`` (the most held at once in memory) and ``on_disk`` (the most held at once on
    disk, where the next layer's first rows are freed as the pass goes, with blocks of ``block_rows``)."""
    real = real_rules(get_rules(rules))
    space = state_space(real)
    return _sizes(space, 1 + remaining_bounds(real, space.row_mask, space.row_upper, space.row_ybox), block_rows)


def _sizes(space, width: np.ndarray, block_rows: int | None) -> dict[str, object]:
    """:func:`law_sizes` from the state space and each row's law width."""
    ptr = [int(x) for x in space.layer_ptr]
    n_boxes = len(ptr) - 2
    layers = [8 * int(width[ptr[n]:ptr[n + 1]].sum()) for n in range(n_boxes + 1)]
    on_disk = layers[n_boxes]
    for n in range(n_boxes - 1, -1, -1):
        cum = 8 * np.concatenate(([0], np.cumsum(width[ptr[n]:ptr[n + 2]])))  # this layer's rows, then the next's
        for a, b in _blocks(ptr[n], ptr[n + 1], block_rows):
            freed = _freed_rows(space.row_mask, ptr[n + 1], ptr[n + 2], a, ptr[n + 1])
            on_disk = max(on_disk, int(cum[b - ptr[n]] + cum[-1] - cum[ptr[n + 1] - ptr[n] + freed]))
    return {"layers": layers, "two_layers": max(a + b for a, b in zip(layers, layers[1:], strict=False)),
            "on_disk": on_disk}


def _law_pass(rules: Rules, policy: Policy, block_rows: int | None, storage: str, tmp_dir: str | Path | None,
              log: Callable[[str], None] | None) -> ScoreLaw:
    """The backward pass over the layers (see the module docstring), playing ``policy`` (tables, or the values
    whose turns the pass solves) by blocks of ``block_rows`` rows (None: a layer at once), the laws held as
    ``storage`` says ("memory", "disk", or "auto": on disk when two layers exceed ``IN_MEMORY_BYTES``) under
    ``tmp_dir`` (None: the system's temporary directory); ``log`` gets a line per layer."""
    t0 = time.perf_counter()
    real = real_rules(rules)
    space = state_space(real)
    kt = kernel_tables(rules)
    params = np.array(kernel_params(rules, real_bonus=True), dtype=np.int64)
    real_index = np.ascontiguousarray(space.state_index)
    width = 1 + remaining_bounds(real, space.row_mask, space.row_upper, space.row_ybox)
    offset = np.zeros(space.n_rows, dtype=np.int64)  # from the start of the row's layer
    ptr = [int(x) for x in space.layer_ptr]
    for n_filled in range(rules.n_boxes + 1):
        lo, hi = ptr[n_filled], ptr[n_filled + 1]
        offset[lo:hi] = np.concatenate(([0], np.cumsum(width[lo:hi - 1]))) if hi > lo else []
    sizes = _sizes(space, width, block_rows)
    if storage not in ("memory", "disk", "auto"):
        raise ValueError(f"storage must be 'memory', 'disk' or 'auto', not {storage!r}")
    on_disk = storage == "disk" or (storage == "auto" and sizes["two_layers"] > IN_MEMORY_BYTES)
    if on_disk:
        free = shutil.disk_usage(tmp_dir or tempfile.gettempdir()).free
        if free < sizes["on_disk"]:
            raise OSError(f"the laws of {rules.name} need {sizes['on_disk'] / 1e9:.1f} GB on disk at their "
                          f"peak; {free / 1e9:.1f} GB free under {tmp_dir or tempfile.gettempdir()}")
    if log is not None:
        log(f"laws of {rules.name}: {space.n_rows:,} rows, layers (GB) "
            + " ".join(f"{n}:{s / 1e9:.2f}" for n, s in enumerate(sizes["layers"]))
            + f"; peak {sizes['two_layers'] / 1e9:.2f} GB in memory, {sizes['on_disk'] / 1e9:.2f} GB on disk; "
            + ("on disk" if on_disk else "in memory"))
    n_points = int(max(kt.score_t.max(), kt.joker_score.max())) + 1
    p_bonus = np.zeros(space.n_rows, dtype=np.float64)
    p_yahtzee = np.zeros(space.n_rows, dtype=np.float64)
    errors = np.zeros(space.n_rows, dtype=np.uint8)
    tail = (n_points, width, offset)
    if isinstance(policy, np.ndarray):  # the values by row: each batch's turns solved, then their laws
        kernel, cand_keep, cand_mask = optimal_law_layer, *reroll_candidates_of(rules)
        head = (space.row_mask, space.row_upper, space.row_ybox, policy, real_index, kt.score_t, kt.joker_score,
                kt.counts_t, kt.yroll, kt.yface, params, kt.add_die, kt.sub_pad, kt.size_offset, kt.roll_offset,
                kt.roll_prob, kt.keep_of_mask, cand_keep, cand_mask, *tail)
    else:
        kernel = law_layer
        policy_row, reroll, category = policy
        head = (space.row_mask, space.row_upper, space.row_ybox, policy_row, reroll, category, real_index, kt.score_t,
                kt.joker_score, kt.yface, params, kt.add_die, kt.roll_offset, kt.roll_prob, kt.keep_of_mask, *tail)
    t1 = time.perf_counter()
    with _layer_store(on_disk, tmp_dir) as layers:
        next_law = layers.new(rules.n_boxes, sizes["layers"][rules.n_boxes] // 8)
        next_law[:] = 1.0  # finished games: nothing more to score
        peak = layers.held_bytes()
        for n_filled in range(rules.n_boxes - 1, -1, -1):
            lo, hi = ptr[n_filled], ptr[n_filled + 1]
            law = layers.new(n_filled, sizes["layers"][n_filled] // 8)
            for a, b in _blocks(lo, hi, block_rows):
                rows = (a, b) if kernel is law_layer else mask_batches(space.row_mask, a, b, kernels.BATCH)
                n = b - a if kernel is law_layer else len(rows[0])
                # Many chunks: the threads end a block together (the block waits for its last chunk).
                run_chunks(kernel, n, min(n, CHUNKS_PER_THREAD * numba.get_num_threads()), *rows, *head, law,
                           next_law, p_bonus, p_yahtzee, errors)
                if errors[a:b].any():
                    bad = a + int(np.flatnonzero(errors[a:b])[0])
                    what = "a box the rules do not allow" if errors[bad] == 2 else "more points than its bound"
                    raise ValueError(f"state (mask {space.row_mask[bad]}, upper {space.row_upper[bad]}, ybox "
                                     f"{space.row_ybox[bad]}): the policy gives {what}")
                peak = max(peak, layers.held_bytes())
                done = hi + _freed_rows(space.row_mask, hi, ptr[n_filled + 2], b, hi)  # next rows read no more
                layers.release(n_filled + 1, 8 * int(offset[done]) if done < ptr[n_filled + 2]
                               else sizes["layers"][n_filled + 1])
            layers.drop(n_filled + 1)
            next_law = law
            if log is not None:
                log(f"  layer {n_filled}: {hi - lo:,} rows, {sizes['layers'][n_filled] / 1e9:.2f} GB, "
                    f"{time.perf_counter() - t1:.0f} s so far")
        pmf = np.array(next_law[: width[0]])
    return ScoreLaw(rules=rules, pmf=pmf, p_upper_bonus=float(p_bonus[0]), p_yahtzee=float(p_yahtzee[0]),
                    storage="disk" if on_disk else "memory", peak_bytes=int(peak),
                    timings={"setup_s": t1 - t0, "pass_s": time.perf_counter() - t1})


def score_distribution(rules: Rules | str, state_index: np.ndarray, reroll: np.ndarray, category: np.ndarray,
                       *, storage: str = "memory", tmp_dir: str | Path | None = None,
                       block_rows: int | None = None) -> ScoreLaw:
    """The exact law of the real final score when the policy tables (``state_index``, ``reroll``,
    ``category`` of ``pipeline.yahtzee.solver.Solution``) are played from the start of a game. ``storage``,
    ``tmp_dir``, ``block_rows``: where the layers of laws are held and how rows are blocked (``_law_pass``;
    they change no bit of the result)."""
    rules = get_rules(rules)
    space = state_space(real_rules(rules))
    policy_row = np.ascontiguousarray(
        np.asarray(state_index)[space.row_mask, space.row_upper, space.row_ybox].astype(np.int64))
    if (policy_row < 0).any():
        raise ValueError("the policy tables do not cover every reachable state")
    reroll = np.ascontiguousarray(reroll, dtype=np.uint8)
    category = np.ascontiguousarray(category, dtype=np.uint8)
    return _law_pass(rules, (policy_row, reroll, category), block_rows, storage, tmp_dir, None)


def law_rules(rules: Rules | str) -> Rules:
    """``rules`` if :func:`optimal_score_law` can build its law, else ValueError: the optimisation must count
    the real upper bonus (the policy's rows are then the law's) and turns must be of three rolls."""
    rules = get_rules(rules)
    if rules.saved_rolls_cap or rules.optimised_upper_bonus != rules.upper_bonus:
        raise ValueError(f"rule set {rules.name!r}: the law without a policy table needs a rule set whose "
                         "optimisation counts its upper bonus and that saves no rolls")
    return rules


def optimal_score_law(rules: Rules | str, *, block_rows: int = DEFAULT_BLOCK_ROWS, storage: str = "auto",
                      tmp_dir: str | Path | None = None, log: Callable[[str], None] | None = None) -> ScoreLaw:
    """The exact law of the real final score under the optimal policy of ``rules`` (the solver's, with its
    tie rule), without a policy table and without a separate value solve: the pass solves each row's turn when
    it reaches the row (:func:`optimal_law_layer`), from the values of the next layer it has just solved, which
    gives the row's value (``solver.solve``'s, bitwise) and its policy (``solver.policy_block``'s, bitwise),
    blocks of ``block_rows`` rows at a time. For rule sets whose optimisation counts the real upper bonus (the
    policy's rows are the law's) and that play turns of three rolls (no saved rolls). Bitwise the law of
    :func:`score_distribution` on the policy tables of ``solve(rules, policy=True)``; ``start_value`` is the
    start row's value."""
    rules = law_rules(rules)
    vrow = np.zeros(state_space(rules).n_rows)  # finished games: nothing more to score; the pass fills the rest
    law = _law_pass(rules, vrow, block_rows, storage, tmp_dir, log)
    if log is not None:
        log(f"start value of {rules.name}: {float(vrow[0])!r}")
    return dataclasses.replace(law, start_value=float(vrow[0]))
