"""The queries of tests/test_core_install.py, asked twice: as a script in a virtual environment holding only the
core install (``python -I core_install_queries.py ARTIFACTS``), and imported in the test process
(``answers(artifacts_dir)``). Both must give the same JSON. Every game answers through the protocol
(``lookup.games``): the games and their setups are found, not listed.

Only the standard library and ``lookup`` here: this file runs where nothing else is installed.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

# Packages of the build and serve extras (and pipeline itself): none may be imported by these queries. Not
# yaml: zarr imports it (its config library, donfig, depends on PyYAML), so the core install has it anyway.
FORBIDDEN = ("numba", "scipy", "dask", "distributed", "click", "rich", "matplotlib", "dvc", "fastapi", "starlette",
             "uvicorn", "pipeline")


def plain(x: Any) -> Any:
    """``x`` as JSON-able data (dataclasses, tuples, numpy values, fractions), floats kept exact."""
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return {f.name: plain(getattr(x, f.name)) for f in dataclasses.fields(x)}
    if isinstance(x, dict):
        return {str(k): plain(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [plain(v) for v in x]
    if isinstance(x, Fraction):
        return str(x)
    if hasattr(x, "tolist"):  # numpy arrays and scalars
        return plain(x.tolist())
    return x


EVENTS = 40  # events played per setup: enough to read every table the setup answers from
ADVISED = 4  # positions of each game whose whole advice is compared


def answers(artifacts_dir: str | Path) -> dict[str, Any]:
    """Every registered game, every setup built in ``artifacts_dir`` (``lookup.games``: nothing here names a game):
    a seeded game of the tables against themselves (at most ``EVENTS`` events) and the advice at its first
    positions, as JSON."""
    import random

    from lookup.advice import advice
    from lookup.games import get_spec, names, open_setup
    from lookup.protocol import CHANCE
    from lookup.simulate import draw

    root = Path(artifacts_dir)
    out: dict[str, Any] = {}
    for name in names():
        for setup in get_spec(name).setups(root):
            advisor = open_setup(name, setup, root)
            game, rng = advisor.game, random.Random(f"core:{name}:{json.dumps(setup, sort_keys=True)}")
            state, events, advised = game.initial_state(), [], []
            while not game.is_terminal(state) and len(events) < EVENTS:
                if len(advised) < ADVISED:
                    advised.append(advice(advisor, state))
                mover = game.to_move(state)
                action = draw(game.chance_outcomes(state), rng) if mover == CHANCE else advisor.decide(state)
                events.append(game.action_json(state, action))
                state = game.apply(state, action)
            out[f"{name}/{json.dumps(setup, sort_keys=True)}"] = plain(
                {"events": events, "advice": advised, "values": [advisor.value(state, s) for s in range(game.seats)]})
    return out


if __name__ == "__main__":  # in the core-only environment: the answers, then what got imported
    result = answers(sys.argv[1])
    import lookup

    print(json.dumps({"answers": result, "lookup_file": lookup.__file__,
                      "imported": sorted({m.partition(".")[0] for m in sys.modules} & set(FORBIDDEN))}))
