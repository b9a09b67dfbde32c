"""Heads-up advice (``decide(..., opponent=SHEET)``): the time of the opponent's law and of a decision.

Goal (issue 25): a heads-up ``decide`` in at most 1 ms once the opponent's law for its state is known, and that
law in at most 1 s (it is stored: the ``law`` table). For each rule set whose ``win`` and ``law`` tables are built
in ``$BENCH_ARTIFACTS`` (default ``artifacts/``), over random positions (both sheets from games played at random,
random dice, two rerolls left), prints

``yahtzee_headsup rules=<r> law_ms=<median> fresh_ms=<median> turn_ms=<median> warm_ms=<median> positions=<n>``:

* ``law``: the opponent's law read from the table (a row of the ``law`` table, differenced);
* ``fresh``: the first decision of a turn, the win table's chunks it needs read and checked the first time;
* ``turn``: the same turns again, their analyses forgotten but the chunks decoded (what a process holding the
  tables' chunks pays per new turn);
* ``warm``: the same decision asked again (the turn's analysis kept: the next roll, ``explain``);

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

from benchmarks.yahtzee_maxi import positions  # noqa: E402
from lookup import yahtzee  # noqa: E402
from lookup.yahtzee import headsup  # noqa: E402
from lookup.yahtzee.rules import get_rules  # noqa: E402

POSITIONS = 3 if os.environ.get("BENCH_QUICK") == "1" else int(os.environ.get("BENCH_POSITIONS", "60"))


def ms(fn, *args, **kwargs) -> float:
    t = time.perf_counter()
    fn(*args, **kwargs)
    return (time.perf_counter() - t) * 1e3


def bench(name: str, artifacts: Path) -> str:
    rules = get_rules(name)
    mine, theirs = positions(rules, POSITIONS, seed=25), positions(rules, POSITIONS, seed=26)
    cases = [(dice, m, t) for (dice, _, m), (_, _, t) in zip(mine, theirs, strict=True)]
    headsup.opponent_law({}, name, artifacts)  # open the tables
    law, fresh, turn, warm = [], [], [], []
    kw = {"artifacts_dir": artifacts}
    for dice, m, t in cases:
        headsup._pmf.cache_clear()
        law.append(ms(headsup.opponent_law, t, name, artifacts))
        fresh.append(ms(yahtzee.decide, dice, 2, m, name, opponent=t, **kw))
        warm.append(ms(yahtzee.decide, dice, 1, m, name, opponent=t, **kw))
    headsup._TURNS.clear()
    for dice, m, t in cases:
        turn.append(ms(yahtzee.decide, dice, 2, m, name, opponent=t, **kw))
    return (f"yahtzee_headsup rules={name} law_ms={statistics.median(law):.3f} "
            f"fresh_ms={statistics.median(fresh):.3f} turn_ms={statistics.median(turn):.3f} "
            f"warm_ms={statistics.median(warm):.3f} positions={len(cases)} load={os.getloadavg()[0]:.1f}")


def main() -> None:
    artifacts = Path(os.environ.get("BENCH_ARTIFACTS", ROOT / "artifacts"))
    for name in ("scandinavian+forced", "hasbro", "scandinavian"):
        if all((artifacts / f"yahtzee-{name}-{o}.zarr").exists() for o in ("win", "law")):
            print(bench(name, artifacts))
        else:
            print(f"yahtzee_headsup rules={name} not built in {artifacts}")


if __name__ == "__main__":
    main()
