"""Exact multi-way preflop counts: every starting hand against 1 to ``kmax`` random hands, counted board type
by board type (``pipeline.poker.board_types``) with the opponents seated by a matching count
(``pipeline.poker.seating``), nothing dealt or sampled.

The work is split into tasks, one per (pair of ranks x >= y, block of board types): a task counts the hands
of ranks x, y (the pair xx, or the suited and offsuit xy) on the board types ``t`` with ``t % blocks ==
block``. Any deck of some ranks and suits works the same way (``Deck``): the reduced decks are what the
tests enumerate by brute force.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Mapping
from contextlib import ExitStack
from dataclasses import dataclass
from fractions import Fraction
from math import comb, factorial
from pathlib import Path
from typing import Any

import numpy as np

from lookup.poker.cards import N_CLASSES, class_name, parse_class
from lookup.poker.rules import MAX_PLAYERS
from pipeline.poker.board_types import FULL_DECK, KINDS, OFFSUIT, PAIR, SUITED, Deck, TaskCounts, task_counts
from pipeline.progress import progress, say


def deals(deck: Deck, opponents: int) -> int:
    """Equally likely deals for one specific hand: boards from the deck's other cards x ordered opponent hands
    from what the board leaves."""
    rest = deck.size() - 2 - 5
    if 2 * opponents > rest:
        return 0
    return comb(deck.size() - 2, 5) * comb(rest, 2 * opponents) * factorial(2 * opponents) // 2 ** opponents


# ---------------------------------------------------------------------------------------------------------
# The build: tasks on Dask, each writing its counts to a part file (resumable), then the table assembled.

# The modules whose code computes a task's counts: a part is reused only when the files of their import closure
# (``pipeline.code_deps.closure``: derived, nothing listed by hand), the deck, kmax, blocks and the evaluator's
# bytes are what wrote it. Not the evaluator's fingerprint: that hashes the whole stage module's closure (this
# module's text too), and a part counted by unchanged kernels on unchanged tables is still right.
PARTS_DIR = "poker-multiway.parts"
COUNT_MODULES = ("pipeline.poker.seating", "pipeline.poker.board_types")


@dataclass(frozen=True)
class Task:
    """One task: ranks x >= y, board block ``block`` of ``blocks``, up to ``kmax`` opponents (small and
    picklable: a worker recomputes the board types and reads the evaluator itself)."""

    deck: Deck
    x: int
    y: int
    block: int
    blocks: int
    kmax: int
    artifacts_dir: str

    @property
    def name(self) -> str:
        return f"r{self.x:02d}-{self.y:02d}-b{self.block:04d}"


def parts_key(deck: Deck, kmax: int, blocks: int, evaluator: str) -> str:
    """The digest that names a build's parts directory: deck, kmax, blocks, ``evaluator`` (a digest of the
    evaluator tables' bytes, ``evaluator_digest``) and the text of every file in the import closure of
    ``COUNT_MODULES``."""
    from pipeline.code_deps import PROJECT_ROOT, closure

    digest = hashlib.sha256(json.dumps({"ranks": list(deck.ranks), "suits": deck.suits, "kmax": kmax,
                                        "blocks": blocks, "evaluator": evaluator}, sort_keys=True).encode())
    for rel in closure(COUNT_MODULES):
        digest.update(rel.encode() + b"\0" + (PROJECT_ROOT / rel).read_bytes() + b"\0")
    return digest.hexdigest()


def evaluator_digest(artifacts_dir: str | Path) -> str:
    """sha256 over the verified evaluator tables' arrays (name, dtype, shape, C-order bytes)."""
    from lookup.poker.tables import load_evaluator

    tables = load_evaluator(artifacts_dir)
    digest = hashlib.sha256()
    for name in ("rank_next", "rank_value", "flush_value"):
        a = np.ascontiguousarray(getattr(tables, name))
        digest.update(f"{name}:{a.dtype.str}:{a.shape}\0".encode() + a.tobytes() + b"\0")
    return digest.hexdigest()


def _payload_digest(payload: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def write_part(path: Path, task: Task, counts: TaskCounts, seconds: float) -> None:
    """The task's counts as JSON (exact integers) with a sha256 of its content, written atomically."""
    payload = {"task": task.name, "kmax": task.kmax, "counts": counts.counts, "hands": counts.hands,
               "work": counts.work, "cpu_seconds": round(seconds, 3)}
    text = json.dumps({"payload": payload, "sha256": _payload_digest(payload)}, sort_keys=True)
    tmp = path.with_name(f".tmp-{os.getpid()}-{path.name}")
    tmp.write_text(text)
    os.replace(tmp, path)


def read_part(path: Path, task: Task) -> dict[str, Any] | None:
    """The payload of a task's part file, or None when it is missing or its bytes do not match its digest
    (then the task runs again)."""
    try:
        data = json.loads(path.read_text())
        payload = data["payload"]
        if data["sha256"] != _payload_digest(payload) or payload["task"] != task.name or payload["kmax"] != task.kmax:
            return None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return payload


WARM_DECK = Deck((10, 11, 12), 4)
_EVALUATORS: dict[str, tuple[Any, np.ndarray, int]] = {}


def run_task(task: Task, parts_dir: str) -> tuple[str, float]:
    """Run one task and write its part (on a worker); returns (task name, CPU seconds)."""
    from lookup.poker.tables import load_evaluator
    from pipeline.poker.kernels import fused_table

    if task.artifacts_dir not in _EVALUATORS:
        tables = load_evaluator(task.artifacts_dir)
        _EVALUATORS[task.artifacts_dir] = (tables, *fused_table(tables.rank_next, tables.rank_value))
        # The kernels loaded (or compiled) on a deck of 12 cards first: the CPU seconds recorded for a task are
        # its counting alone.
        task_counts(WARM_DECK, *_EVALUATORS[task.artifacts_dir], 12, 12, 0, 1, task.kmax)
    tables, last, first6 = _EVALUATORS[task.artifacts_dir]
    start = time.process_time()
    counts = task_counts(task.deck, tables, last, first6, task.x, task.y, task.block, task.blocks, task.kmax)
    seconds = time.process_time() - start
    write_part(Path(parts_dir) / f"{task.name}.json", task, counts, seconds)
    return task.name, seconds


def build_counts(deck: Deck, kmax: int, pairs: list[tuple[int, int]], blocks: int, parts_dir: Path,
                 artifacts_dir: Path, client: Any | None = None) -> dict[tuple[int, int, int], list[list[int]]]:
    """Every task of ``pairs`` x ``blocks`` whose part is not already in ``parts_dir`` run (on ``client``, or
    here when None), then the parts summed: {(x, y, kind): counts[s][e]} as ``TaskCounts.counts`` (unordered
    opponent sets), for the kinds the ranks have."""
    parts_dir.mkdir(parents=True, exist_ok=True)
    tasks = [Task(deck, x, y, b, blocks, kmax, str(artifacts_dir)) for x, y in pairs for b in range(blocks)]
    todo = [t for t in tasks if read_part(parts_dir / f"{t.name}.json", t) is None]
    say(f"  {len(tasks) - len(todo)} of {len(tasks)} tasks already counted ({parts_dir.name})")
    with progress(f"multi-way counts up to {kmax} opponents", len(todo)) as advance:
        if client is None:
            for t in todo:
                run_task(t, str(parts_dir))
                advance()
        else:
            from distributed import as_completed

            futures = [client.submit(run_task, t, str(parts_dir), pure=False) for t in todo]
            for future in as_completed(futures):
                future.result()  # raises a task's error
                advance()
    out: dict[tuple[int, int, int], list[list[int]]] = {}
    for t in tasks:
        payload = read_part(parts_dir / f"{t.name}.json", t)
        if payload is None:
            raise RuntimeError(f"multi-way counts: the part of task {t.name} is missing or corrupted after its run")
        for kind in KINDS:
            if (kind == PAIR) != (t.x == t.y):
                continue
            total = out.setdefault((t.x, t.y, kind), [[0] * (kmax + 1) for _ in range(kmax + 1)])
            for s in range(kmax + 1):
                for e in range(kmax + 1):
                    total[s][e] += payload["counts"][kind][s][e]
    return out


# ---------------------------------------------------------------------------------------------------------
# The family's params and arrays (artifact poker-multiway).

WORD = 62  # the counts are stored as two int64 words of 62 bits: value = low + high x 2**62


def multiway_params(section: Mapping[str, Any]) -> dict[str, Any]:
    """``poker.multiway`` checked: max_opponents 0..9 (0: no table), hands ("all" or a list of classes such
    as AKs), board_blocks 1..4096 (tasks per pair of ranks), workers 0..64 (0: the tasks run in this process,
    without Dask: small builds and tests), scheduler (an address or null)."""
    cfg = dict(section.get("multiway") or {})
    out = {"max_opponents": cfg.pop("max_opponents", 0), "hands": cfg.pop("hands", "all"),
           "board_blocks": cfg.pop("board_blocks", 32), "workers": cfg.pop("workers", 2),
           "scheduler": cfg.pop("scheduler", None)}
    if cfg:
        raise ValueError(f"poker.multiway: unknown keys {sorted(cfg)} (known: {', '.join(out)})")
    for key, low, high in (("max_opponents", 0, MAX_PLAYERS - 1), ("board_blocks", 1, 4096), ("workers", 0, 64)):
        value = out[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"poker.multiway.{key} must be an integer in {low}..{high}, got {value!r}")
    hands = out["hands"]
    if hands != "all" and (not isinstance(hands, list) or not hands):
        raise ValueError(f"poker.multiway.hands must be 'all' or a non-empty list of classes such as AKs, "
                         f"got {hands!r}")
    if hands != "all":
        names = set()
        for h in hands:
            try:  # YAML reads a pair of deuces, 22, as a number
                names.add(class_name(parse_class(str(h) if isinstance(h, int) and not isinstance(h, bool) else h)))
            except ValueError as exc:
                raise ValueError(f"poker.multiway.hands: {exc}") from None
        out["hands"] = sorted(names, key=parse_class)
    scheduler = out["scheduler"]
    if scheduler is not None and (not isinstance(scheduler, str) or not scheduler):
        raise ValueError("poker.multiway.scheduler must be an address such as tcp://host:8786, or null")
    return out


def class_ranks(x: int) -> tuple[int, int, int]:
    """(higher rank, lower rank, kind) of a class index of the 13 x 13 grid."""
    i, j = divmod(x, 13)
    hi, lo = 12 - min(i, j), 12 - max(i, j)
    return hi, lo, PAIR if i == j else (SUITED if i < j else OFFSUIT)


def counted_pairs(hands: str | list[str]) -> list[tuple[int, int]]:
    """The pairs of ranks (x >= y) whose tasks count ``hands`` ("all", or class names)."""
    if hands == "all":
        return FULL_DECK.rank_pairs()
    return sorted({class_ranks(parse_class(h))[:2] for h in hands}, reverse=True)


def words(value: int) -> tuple[int, int]:
    """(low, high) 62-bit words of a count (< 2**124)."""
    if not 0 <= value < 1 << (2 * WORD):
        raise ValueError(f"count {value} does not fit two {WORD}-bit words")
    return value & ((1 << WORD) - 1), value >> WORD


def multiway_arrays(counts: dict[tuple[int, int, int], list[list[int]]], kmax: int) -> dict[str, np.ndarray]:
    """The artifact's arrays from ``build_counts`` (full deck): per class X and k = 1..kmax opponents, the
    ordered deals won alone (j = 0) or split with j opponents, all deals, the equity; ``built``: which classes
    were counted. Checks that the sets of 0 opponents number the class's (board, hand) pairs and that no
    count exceeds the deals."""
    out = np.zeros((kmax, N_CLASSES, kmax + 1, 2), dtype=np.int64)
    total = np.zeros((kmax, N_CLASSES, 2), dtype=np.int64)
    equity = np.full((kmax, N_CLASSES), np.nan)
    built = np.zeros(N_CLASSES, dtype=np.uint8)
    boards = comb(50, 5)
    for x in range(N_CLASSES):
        hi, lo, kind = class_ranks(x)
        got = counts.get((hi, lo, kind))
        if got is None:
            continue
        combos = FULL_DECK.combos(hi, lo, kind)
        if got[0][0] != combos * boards:
            raise RuntimeError(f"multi-way counts of {class_name(x)}: {got[0][0]} (board, hand) pairs, "
                               f"expected {combos * boards}")
        built[x] = 1
        for k in range(1, kmax + 1):
            all_deals = combos * deals(FULL_DECK, k)
            row = [factorial(k) * got[k][j] for j in range(k + 1)]
            if sum(row) > all_deals:
                raise RuntimeError(f"multi-way counts of {class_name(x)} against {k}: more deals than exist")
            for j, value in enumerate(row):
                out[k - 1, x, j] = words(value)
            total[k - 1, x] = words(all_deals)
            equity[k - 1, x] = float(sum(Fraction(c, j + 1) for j, c in enumerate(row)) / all_deals)
    return {"counts": out, "deals": total, "equity": equity, "built": built}


def compute_multiway(spec: Any, section: Mapping[str, Any], artifacts_dir: Path) -> tuple[dict, dict]:
    """The poker-multiway arrays: the tasks of ``spec.params`` on the Dask cluster of ``poker.multiway``
    (parts kept in ``<artifacts>/poker-multiway.parts/<key>``: a killed build resumes where it stopped), then
    assembled. The evaluator artifact must be built (upstream)."""
    from pipeline.store import StoredArray

    cfg = multiway_params(section)
    kmax, hands = spec.params["max_opponents"], spec.params["hands"]
    blocks = cfg["board_blocks"]
    key = parts_key(FULL_DECK, kmax, blocks, evaluator_digest(artifacts_dir))
    parts_dir = Path(artifacts_dir) / PARTS_DIR / key[:16]
    scheduler, workers = cfg["scheduler"], cfg["workers"]
    where = scheduler or (f"a LocalCluster of {workers} worker processes" if workers else "this process")
    say(f"  poker-multiway: {len(counted_pairs(hands)) * blocks} tasks on {where}")
    with ExitStack() as stack:
        client = None
        if scheduler or workers:
            from distributed import Client, LocalCluster

            # Single-threaded worker processes: each task is one kernel call on one core.
            target = scheduler or stack.enter_context(LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40))
            client = stack.enter_context(Client(target))
        counts = build_counts(FULL_DECK, kmax, counted_pairs(hands), blocks, parts_dir, Path(artifacts_dir), client)
    a = multiway_arrays(counts, kmax)
    arrays = {
        "counts": StoredArray(a["counts"], "counts[k - 1, X, j, w]: deals (board, hand of class X, k ordered random "
                              "opponent hands) in which X's hand is the best and ties with exactly j opponents (j = "
                              "0: wins alone; the pot is split j + 1 ways), as two 62-bit words: count = w0 + w1 * "
                              "2**62; exact"),
        "deals": StoredArray(a["deals"], "deals[k - 1, X, w]: all such deals of class X against k opponents "
                             "(combinations x C(50, 5) boards x ordered hands from 45 cards), two 62-bit words"),
        "equity": StoredArray(a["equity"], "equity[k - 1, X]: sum over j of counts / (j + 1), over deals: the "
                              "exact equity rounded to float64; NaN where X was not counted"),
        "built": StoredArray(a["built"], "built[X]: 1 where class X was counted", fill=255),
    }
    stats = {"classes": int(a["built"].sum()), "max_opponents": kmax, "tasks": len(counted_pairs(hands)) * blocks}
    return arrays, stats
