"""Poker: evaluator throughput beside the PyPI evaluators (same run), and exact equity timings.

Lines ``poker <case> key=value ...``; times are medians of REPEATS warm runs (the first run of each kernel
loads or compiles it and is not counted). The machine is shared: figures are pessimistic.

* evaluator: every C(52, 7) = 133,784,560 hand in enumeration order (numba, 2 threads), beside
  phevaluator and eval7 on random hands through their Python APIs, and our numpy ``values`` on random hands.
* exact equity (numba engine, ``lookup.poker.equity(..., engine=NumbaEngine())``): heads-up preflop, the
  three-way AA vs QQ vs 93o, a hand against one random hand, and the seed's worst cases (5 unknown cards;
  1 known hand against 9 unknown on the river). The numpy engine (lookup's default) on heads-up preflop.
* ``lookup.poker.decide`` with a budget of 0.05 s where no exact count fits (the Monte Carlo answers): the
  whole call's wall time, which the budget bounds (issue 37: it was 6.5-8.8 s).
* ``page_vs_cli``: the same questions asked at their defaults (the library's DEFAULT_BUDGET and DEFAULT_SAMPLES) of
  the page's route, POST /api/poker/equity (in process, lookup's numpy engine), and of the command line,
  ``dicetables poker equity ... --json`` (a new process each time, start-up included, the numba engine when its
  kernels are cached as after `make run`), side by side in one run: median wall time, exact or not, deals and
  the first hand's standard error of each. BENCH_ONLY=page_vs_cli runs this part alone.

BENCH_QUICK=1 (what `make test` runs, tests/test_benchmarks.py): one timed run each, no full enumeration of the
133,784,560 hands (the numpy evaluator on 20,000 random ones), the first two equity cases, not the numpy
engine's heads-up count.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("NUMBA_CACHE_DIR", str(ROOT / ".numba_cache"))

import numpy as np  # noqa: E402

from pipeline import registry  # noqa: E402
from pipeline.progress import set_quiet  # noqa: E402

QUICK = os.environ.get("BENCH_QUICK") == "1"
REPEATS = 1 if QUICK else int(os.environ.get("BENCH_REPEATS", "5"))


CPU_S: list[float] = []  # the median process CPU time of the last median_time call (all threads)


def median_time(fn, repeats: int = REPEATS) -> tuple[float, object]:
    """(median wall seconds, last result); the median CPU seconds go to CPU_S[-1]: on a shared machine
    the wall time includes waiting for a core, the CPU time does not."""
    fn()  # warm-up: kernel load / compile
    times, cpus, out = [], [], None
    for _ in range(repeats):
        start, cpu = time.perf_counter(), time.process_time()
        out = fn()
        times.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    CPU_S.append(statistics.median(cpus))
    return statistics.median(times), out


def main() -> None:
    set_quiet(True)
    print(f"poker load_average={' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as tmp:
        params = Path(tmp) / "params.yaml"
        params.write_text("poker:\n  preflop: {}\n")
        registry.build(["poker-evaluator"], params_path=params, artifacts_dir=Path(tmp))  # with its manifest
        if os.environ.get("BENCH_ONLY") == "page_vs_cli":
            page_vs_cli(Path(tmp))
            return
        run(Path(tmp))
        if not QUICK:  # seconds a question: not in `make test`
            page_vs_cli(Path(tmp))


def run(root: Path) -> None:
    import numba

    from lookup.poker.equity import NumpyEngine, equity
    from lookup.poker.evaluate import values
    from lookup.poker.tables import load_evaluator
    from pipeline.poker.engine import NumbaEngine
    from pipeline.poker.kernels import fused_table, seven_card_census

    tables = load_evaluator(root)
    decide_budget(root)
    if QUICK:
        ours = float("nan")
    else:
        last, first6 = fused_table(tables.rank_next, tables.rank_value)
        t, _ = median_time(lambda: seven_card_census(tables.rank_next, last, first6, tables.flush_value, False))
        ours = 133_784_560 / t
        print(f"poker evaluator_enumeration hands=133784560 threads={numba.get_num_threads()} median_s={t:.4f} "
              f"cpu_s={CPU_S[-1]:.4f} evals_per_s={ours:.4g} evals_per_cpu_s={133_784_560 / CPU_S[-1]:.4g}")
    rng = np.random.default_rng(1)
    n = 20_000 if QUICK else 1_000_000
    hands = np.argsort(rng.random((n, 52)), axis=1)[:, :7]
    t, _ = median_time(lambda: values(hands, tables), min(3, REPEATS))
    print(f"poker evaluator_numpy_random hands={n} median_s={t:.4f} evals_per_s={n / t:.4g}")
    few = hands[:200_000].tolist()
    try:
        import phevaluator

        t, _ = median_time(lambda: [phevaluator.evaluate_cards(*h) for h in few], min(3, REPEATS))
        print(f"poker phevaluator_random hands={len(few)} median_s={t:.4f} evals_per_s={len(few) / t:.4g} "
              f"ours_enumeration_ratio={ours / (len(few) / t):.0f}")
    except ImportError:
        print("poker phevaluator_random skipped=not-installed")
    try:
        import eval7

        deck = [eval7.Card(s) for s in (r + u for r in "23456789TJQKA" for u in "cdhs")]
        cards = [[deck[c] for c in h] for h in few]
        t, _ = median_time(lambda: [eval7.evaluate(h) for h in cards], min(3, REPEATS))
        print(f"poker eval7_random hands={len(few)} median_s={t:.4f} evals_per_s={len(few) / t:.4g} "
              f"ours_enumeration_ratio={ours / (len(few) / t):.0f}")
    except ImportError:
        print("poker eval7_random skipped=not-installed")

    engine = NumbaEngine(root)
    cases = [
        ("heads_up_preflop", (["AsAh", "KdKc"], (), 0)),
        ("heads_up_preflop_no_symmetry", (["7c2d", "AhKs"], (), 0)),
        ("three_way_AA_QQ_93o", (["AsAh", "QcQd", "9h3s"], (), 0)),
        ("hand_vs_1_random_AsAh", (["AsAh"], (), 1)),
        ("hand_vs_1_random_7c2d", (["7c2d"], (), 1)),
        ("seed_turn_1_known_vs_2_unknown", (["AsKd"], "2c 7d 9h Ts", 2)),
        ("seed_flop_1_known_vs_1_unknown", (["AsKd"], "2c 7d 9h", 1)),
        ("seed_flop_3_known_vs_1_unknown", (["AsKd", "QcQh", "8s7s"], "2c 7d 9h", 1)),
        ("seed_river_1_known_vs_9_unknown", (["AsAh"], "2c 7d 9h Ks 4c", 9)),
        ("seed_river_2_known_vs_8_unknown", (["AsAh", "KdKc"], "2c 7d 9h Ks 4c", 8)),
    ]
    for name, (hands_, board, n) in cases[:2] if QUICK else cases:
        # use_table=False: these time the enumeration (a preflop question would otherwise read the table).
        t, got = median_time(lambda h=hands_, b=board, n=n: equity(h, b, n, engine=engine, budget=30, use_table=False))
        print(f"poker {name} exact={got.exact} deals={got.deals} median_s={t:.4f} cpu_s={CPU_S[-1]:.4f} "
              f"equity={','.join(f'{e:.6f}' for e in got.equity)}")
    if not QUICK:
        numpy_engine = NumpyEngine(tables)
        t, got = median_time(lambda: equity(["AsAh", "KdKc"], engine=numpy_engine), 3)
        print(f"poker heads_up_preflop_numpy_engine exact={got.exact} median_s={t:.4f}")
    print(f"poker load_average_end={' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def decide_budget(root: Path) -> None:
    """Wall time of ``lookup.poker.decide(..., budget=0.05)`` where no exact count fits in the budget: the call's
    whole time (the budget bounds it), warm, median over the cases and REPEATS runs each."""
    from lookup.poker import decide

    cases = [("AsKd", "2c7d9h", 2), ("AsKd", "", 8), ("QhJh", "2c7d9hKs", 5)]
    for hand, board, n in cases:
        decide(hand, pot=100, to_call=50, board=board, opponents=n, budget=0.05, artifacts_dir=root)  # warm
    times = []
    for _ in range(REPEATS):
        for hand, board, n in cases:
            start = time.perf_counter()
            got = decide(hand, pot=100, to_call=50, board=board, opponents=n, budget=0.05, artifacts_dir=root)
            times.append(time.perf_counter() - start)
            assert not got.exact
    print(f"poker decide_budget budget_s=0.05 median_s={statistics.median(times):.4f} max_s={max(times):.4f} "
          f"calls={len(times)}")


# Questions no table answers (a board, or two known hands): the flop against 2 random hands and the turn against 3
# (both count them exactly), two known hands preflop against a third random one and the flop against 8 (both
# estimate), the river against 5 and the turn against 4 (numpy counts them by card type; numba enumerates the
# river's matchings, and estimates the turn).
PAGE_VS_CLI = [("flop_vs_2", ["AsKd"], "2c7d9h", 2), ("turn_vs_3", ["AsKd"], "2c7d9hKs", 3),
               ("preflop_2_known_vs_1", ["AsKd", "QhQs"], "", 1), ("flop_vs_8", ["AsKd"], "2c7d9h", 8),
               ("river_vs_5", ["AsKd"], "2c7d9hJsKh", 5), ("turn_vs_4", ["AsKd"], "2c7d9hJs", 4)]


def page_vs_cli(root: Path) -> None:
    """Each of PAGE_VS_CLI asked of the page's route and of the command line at their defaults, alternately, REPEATS
    times: median wall seconds, exact, deals and the first hand's standard error of each."""
    import json
    import subprocess

    from fastapi.testclient import TestClient

    from lookup.poker.equity import DEFAULT_BUDGET, DEFAULT_SAMPLES
    from pipeline.poker.warm import kernels_cached
    from webapp.app import create_app

    client = TestClient(create_app(root))
    cli = [str(Path(sys.executable).with_name("dicetables")), "--quiet", "poker", "equity"]
    print(f"poker page_vs_cli defaults budget_s={DEFAULT_BUDGET:g} samples={DEFAULT_SAMPLES} "
          f"cli_numba_cached={kernels_cached()}")

    def page(hands: list[str], board: str, n: int) -> dict:
        r = client.post("/api/poker/equity", json={"hands": hands, "board": board, "opponents": n})
        assert r.status_code == 200, r.text
        got = r.json()
        return {"exact": got["exact"], "deals": got["deals"], "se": got["players"][0]["se"]}

    def command(hands: list[str], board: str, n: int) -> dict:
        out = subprocess.run([*cli, *hands, "--board", board, "--opponents", str(n), "--json", "--artifacts",
                              str(root)], check=True, capture_output=True, text=True).stdout
        got = json.loads(out)
        return {"exact": got["exact"], "deals": got["deals"], "se": got["hands"][0]["se"]}

    for name, hands, board, n in PAGE_VS_CLI:
        times: dict[str, list[float]] = {"page": [], "cli": []}
        last = {}
        for _ in range(REPEATS):
            for who, ask in (("page", page), ("cli", command)):
                start = time.perf_counter()
                last[who] = ask(hands, board, n)
                times[who].append(time.perf_counter() - start)
        print(f"poker page_vs_cli {name} " + " ".join(
            f"{who}_median_s={statistics.median(times[who]):.2f} {who}_exact={last[who]['exact']} "
            f"{who}_deals={last[who]['deals']} {who}_se={last[who]['se']:.2e}" for who in ("page", "cli")))


if __name__ == "__main__":
    main()
