"""lookup stays light: importing it never pulls in pipeline or the producers' dependencies; the web app is a
caller of lookup: importing it and making the app never loads pipeline."""

import json
import subprocess
import sys


def test_lookup_imports_only_numpy_zarr_h5py():
    code = (
        "import sys, json, lookup, lookup.store, lookup.chunked, lookup.dicerace, lookup.yahtzee, lookup.g151,"
        " lookup.poker, lookup.poker.equity, lookup.dominoes, lookup.tictactoe;"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    loaded = set(json.loads(out))
    for heavy in ("pipeline", "numba", "scipy", "dask", "click", "rich", "matplotlib", "dvc"):
        assert heavy not in loaded


def test_the_web_app_loads_no_pipeline_module():
    code = ("import sys, json, webapp.app; webapp.app.create_app('.');"
            "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    loaded = set(json.loads(out))
    assert {"webapp", "lookup", "fastapi"} <= loaded
    for producer in ("pipeline", "numba", "dask", "click", "matplotlib", "dvc"):
        assert producer not in loaded
