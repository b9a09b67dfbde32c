"""Maxi Yatzy from its layered table (``yahtzee-RULES-layered``): the time of ``lookup.yahtzee.decide``.

Goal (issue 26): ``decide`` for Maxi in at most 1 ms. No policy table exists: the first question about a turn
solves the turn from the value table (``lookup.yahtzee.turn``, numpy), later questions about the same turn (the
other rerolls, ``expected_final``, ``explain``) reuse it. Prints, for each rule set built in ``$BENCH_ARTIFACTS``
(default ``artifacts/``):

``yahtzee_maxi_decide rules=<r> fresh_ms=<median> turn_ms=<median> warm_ms=<median> positions=<n>``: the median
over random positions (sheets of games played at random, random dice, rerolls 0-2) of

* ``fresh``: a decision on a turn not asked before whose successor states lie in chunks this process has not read
  yet (each chunk read from disk, decompressed and checked against its sha256: ``lookup.chunked``);
* ``turn``: the same decisions again with the turns forgotten but the chunks decoded (the turn solved from the
  values: what a process that holds the table's chunks, ``DICETABLES_CHUNK_CACHE_MB``, pays);
* ``warm``: the same decision asked again (the turn cached);

with the load average beside them.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from lookup import yahtzee  # noqa: E402
from lookup.yahtzee.play import turn_analysis  # noqa: E402
from lookup.yahtzee.rules import get_rules, score_roll  # noqa: E402

POSITIONS = 3 if os.environ.get("BENCH_QUICK") == "1" else int(os.environ.get("BENCH_POSITIONS", "300"))


def positions(rules, n: int, seed: int = 26) -> list[tuple[list[int], int, list[int | None]]]:
    """(dice, rerolls, sheet) of ``n`` random positions: each sheet that of a game played at random (in the sheet's
    order when the rules force it)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        boxes: list[int | None] = [None] * rules.n_boxes
        for _ in range(int(rng.integers(0, rules.n_boxes))):
            free = [c for c in range(rules.n_boxes) if boxes[c] is None]
            c = free[0] if rules.forced_order else int(rng.choice(free))  # forced order: the boxes in turn
            boxes[c] = score_roll(rules, [int(x) for x in rng.integers(1, 7, rules.n_dice)], c)
        out.append(([int(x) for x in rng.integers(1, 7, rules.n_dice)], int(rng.integers(0, 3)), boxes))
    return out


def timed(dice: list[int], rerolls: int, sheet: list[int | None], name: str, artifacts: Path) -> float:
    """Milliseconds of one ``decide``."""
    t = time.perf_counter()
    yahtzee.decide(dice, rerolls, sheet, name, artifacts_dir=artifacts)
    return (time.perf_counter() - t) * 1e3


def main() -> None:
    artifacts = Path(os.environ.get("BENCH_ARTIFACTS", ROOT / "artifacts"))
    for name in ("maxi", "maxi-se"):
        if not (artifacts / f"yahtzee-{name}-layered.zarr").exists():
            print(f"yahtzee_maxi_decide rules={name} not built in {artifacts}")
            continue
        rules = get_rules(name)
        cases = positions(rules, POSITIONS + 20)
        for dice, rerolls, sheet in cases[:20]:  # open the table, read the chunks the sheets' layers start in
            yahtzee.decide(dice, rerolls, sheet, name, artifacts_dir=artifacts)
        fresh, turn, warm = [], [], []
        for dice, rerolls, sheet in cases[20:]:
            fresh.append(timed(dice, rerolls, sheet, name, artifacts))
            warm.append(timed(dice, rerolls, sheet, name, artifacts))
        turn_analysis.cache_clear()
        for dice, rerolls, sheet in cases[20:]:
            turn.append(timed(dice, rerolls, sheet, name, artifacts))
        print(f"yahtzee_maxi_decide rules={name} fresh_ms={statistics.median(fresh):.3f} "
              f"turn_ms={statistics.median(turn):.3f} warm_ms={statistics.median(warm):.3f} positions={len(fresh)} "
              f"load={os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
