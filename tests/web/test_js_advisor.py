"""The JavaScript advisor (clients/js, docs/js.md) answers as lookup does, and refuses what lookup refuses.

One golden file (tests/js_golden.py), written here from the tables the tests build, is answered again by the Node test
(clients/js/test/golden.test.mjs): every Yahtzee ``decide`` / ``explain`` / ``value`` and every dice-race ``decide`` /
``strategy`` must equal Python's. ``$DICETABLES_JS_PARITY`` situations per table (default 1,000, and 100 for the
layered table; 20,000 in ``make test-full``; the recorded check is 100,000 for every table: docs/js.md). The same
modules in headless Chromium. Then damaged copies of the hasbro tables, each refused by the JavaScript reader as by
lookup.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from lookup.store import MANIFEST_NAME
from tests import shared
from tests.js_golden import PARITY_ENV, default_n, write_golden
from tests.test_chunked import Grid, edit_root_meta, flip_in_chunk, rewrite_chunk, write_index

JS = Path(__file__).resolve().parents[2] / "clients" / "js"
START = ["decide", "[1,3,3,5,6]", "2", "{}"]  # the first decision of a game: reads the start state's chunks


def _node_ready() -> None:
    if shutil.which("node") is None or shutil.which("npm") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("node and npm are needed in CI")
        pytest.skip("node/npm not installed")
    if not (JS / "node_modules").exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=JS, check=True, capture_output=True, timeout=300)


def _golden_check(golden: Path, counts: dict[str, int], tmp_path: Path, cache_bytes: int | None = None) -> dict:
    """Run the Node test on ``golden`` (decoded chunks kept up to ``cache_bytes``: a small cache evicts and reads
    chunks again all along); its report (situations checked, refused, differing per table)."""
    _node_ready()
    report = tmp_path / "report.json"
    env = {**os.environ, "DICETABLES_GOLDEN": str(golden), "DICETABLES_GOLDEN_REPORT": str(report)}
    if cache_bytes is not None:
        env["DICETABLES_GOLDEN_CACHE_BYTES"] = str(cache_bytes)
    done = subprocess.run(["node", "--test", "test/golden.test.mjs"], cwd=JS, env=env, capture_output=True, text=True,
                          timeout=3600)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    out = json.loads(report.read_text())
    assert out["counts"] == counts and not out["mismatches"], out
    return out


@pytest.fixture(scope="module")
def js_artifacts(tmp_path_factory) -> Path:
    """hasbro and seed (full size), scandinavian+forced (the small Yahtzee build) and the small dice-race grid."""
    f = tmp_path_factory
    return shared.union(f, "js", shared.yahtzee(f, "hasbro"), shared.yahtzee(f, "seed"), shared.small(f, "yahtzee"),
                        shared.dicerace(f))


@pytest.fixture(scope="module")
def golden(js_artifacts, tmp_path_factory) -> tuple[Path, dict[str, int]]:
    """The golden file of ``js_artifacts`` ($DICETABLES_JS_PARITY situations a table) and its counts."""
    path = tmp_path_factory.mktemp("js_golden") / "golden.jsonl.gz"
    return path, write_golden(js_artifacts, path)


def test_the_javascript_advisor_answers_as_python(golden, tmp_path):
    path, counts = golden
    n = default_n()
    assert {k.split(":")[0] for k in counts} == {"yahtzee", "dicerace"} and set(counts.values()) == {n}
    assert {k for k in counts if k.startswith("yahtzee")} == {"yahtzee:hasbro", "yahtzee:seed",
                                                              "yahtzee:scandinavian+forced"}
    # 4 MiB of decoded chunks (5,000 hasbro situations read some 160 MiB of policy chunks): answers must not depend
    # on what the cache holds (they did once: a chunk found cached, then evicted by the loads of the same turn).
    report = _golden_check(path, counts, tmp_path, cache_bytes=4 << 20)
    assert all(report["refused"].get(table, 0) > 0 for table in counts)  # the damaged questions were asked


@pytest.mark.full
def test_twenty_thousand_situations_a_table_answer_as_python(js_artifacts, tmp_path):
    counts = write_golden(js_artifacts, tmp_path / "golden.jsonl.gz", 20_000)
    assert set(counts.values()) == {20_000}
    _golden_check(tmp_path / "golden.jsonl.gz", counts, tmp_path, cache_bytes=16 << 20)


def test_the_javascript_advisor_answers_as_python_from_a_layered_table(maxi_mini_artifacts, tmp_path):
    """Six dice, values from a layered table and no policy (Maxi Yatzy's form): every action from the turn computed."""
    from tests.web.conftest import MAXI_MINI

    path = tmp_path / "golden.jsonl.gz"
    # A Python decision of six dice computes its turn: a tenth of the default count, unless a count is asked for.
    n = default_n() if os.environ.get(PARITY_ENV) else max(1, default_n() // 10)
    counts = write_golden(maxi_mini_artifacts, path, n, rule_sets=[MAXI_MINI], dicerace=False)
    assert counts == {f"yahtzee:{MAXI_MINI}": n}
    _golden_check(path, counts, tmp_path, cache_bytes=256 << 10)


# The page of the browser test: the package's modules as they are (no bundler), zarrita's bare imports mapped to the
# files of node_modules.
PAGE = """<!doctype html><html><head><meta charset="utf-8"><script type="importmap">{"imports": {
  "zarrita": "/js/node_modules/zarrita/dist/src/index.js",
  "@zarrita/storage/fetch": "/js/node_modules/@zarrita/storage/dist/src/fetch.js",
  "numcodecs/zstd": "/js/node_modules/numcodecs/dist/zstd.js",
  "numcodecs/blosc": "/js/node_modules/numcodecs/dist/blosc.js",
  "numcodecs/lz4": "/js/node_modules/numcodecs/dist/lz4.js"}}</script></head><body>advisor</body></html>"""

IN_THE_PAGE = """async (records) => {
  const { openArtifacts } = await import("/js/src/index.mjs");
  const { FetchStore } = await import("zarrita");
  const { check } = await import("/js/test/check.mjs");
  const advisors = await openArtifacts(new FetchStore(`${location.origin}/artifacts/`));
  const problems = [];
  for (const rec of records) {
    for (const p of await check(advisors, rec)) problems.push(`${rec.table}: ${p}`);
  }
  return { checked: records.length, problems: problems.slice(0, 20) };
}"""


def test_the_javascript_advisor_answers_as_python_in_a_browser(browser, golden, js_artifacts):
    """The same modules in headless Chromium, the artifacts fetched over HTTP (range requests, zarrita's FetchStore,
    WebCrypto's sha256): the first 100 situations of every table of the golden file."""
    from starlette.applications import Starlette
    from starlette.responses import HTMLResponse
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    from tests.web.live import running_server

    _node_ready()  # node_modules
    path, counts = golden
    records, per_table = [], dict.fromkeys(counts, 0)
    with gzip.open(path, "rt") as f:
        next(f)
        for line in f:
            rec = json.loads(line)
            if per_table[rec["table"]] < 100:
                per_table[rec["table"]] += 1
                records.append(rec)
    app = Starlette(routes=[Route("/", lambda request: HTMLResponse(PAGE)),
                            Mount("/js", StaticFiles(directory=JS)),
                            Mount("/artifacts", StaticFiles(directory=js_artifacts))])
    with running_server(app) as port:
        page = browser.new_page()
        try:
            page.goto(f"http://127.0.0.1:{port}/")
            out = page.evaluate(IN_THE_PAGE, records)
        finally:
            page.close()
    assert out == {"checked": len(records), "problems": []}


# --- refusals ---------------------------------------------------------------------------------------------------

@pytest.fixture
def hasbro_copy(tmp_path_factory) -> Path:
    """A private copy of the hasbro tables and their manifest."""
    return shared.private_copy(tmp_path_factory, "js_damaged", shared.yahtzee(tmp_path_factory, "hasbro"))


def advise(root: Path, *args: str, trust: str = "manifest") -> subprocess.CompletedProcess:
    _node_ready()
    command = ["node", "advise.mjs", "--artifacts", str(root), "--trust", trust, "yahtzee", "hasbro", *args]
    return subprocess.run(command, cwd=JS, capture_output=True, text=True, timeout=120)


def refused(root: Path, words: str, *args: str, trust: str = "manifest") -> None:
    done = advise(root, *(args or START), trust=trust)
    assert done.returncode == 1 and words in done.stderr, (done.stdout, done.stderr)


def test_the_copy_answers(hasbro_copy):
    done = advise(hasbro_copy, *START)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["keep"] == [3, 3]
    assert json.loads(advise(hasbro_copy, "value", "{}").stdout) == pytest.approx(254.5877287, abs=1e-7)


def test_a_flipped_byte_in_a_chunk_is_refused(hasbro_copy):
    flip_in_chunk(Grid.of(hasbro_copy / "yahtzee-hasbro-values.zarr", "value"), 0)
    refused(hasbro_copy, "fails its crc32c")


def test_a_chunk_rewritten_with_its_crc32c_is_refused_by_its_sha256(hasbro_copy):
    grid = Grid.of(hasbro_copy / "yahtzee-hasbro-policy.zarr", "state_index")
    rewrite_chunk(grid, 0, lambda block: block.__setitem__((0, 0, 0), block[0, 0, 0] + 1))
    refused(hasbro_copy, "does not match its sha256")


def test_a_damaged_shard_index_and_a_missing_chunk_are_refused(hasbro_copy):
    grid = Grid.of(hasbro_copy / "yahtzee-hasbro-values.zarr", "value")
    path, _ = grid.where(0)
    with open(path, "r+b") as f:  # a bit of the index (at the end of the shard)
        f.seek(-10, os.SEEK_END)
        byte = f.read(1)[0]
        f.seek(-10, os.SEEK_END)
        f.write(bytes([byte ^ 1]))
    refused(hasbro_copy, "the shard index fails its crc32c")
    f = hasbro_copy / "yahtzee-hasbro-policy.zarr"
    grid = Grid.of(f, "state_index")
    path, inner = grid.where(0)

    def drop(index: np.ndarray) -> None:
        index[inner] = np.iinfo(np.uint64).max

    write_index(path, grid.n_inner, drop)
    refused(hasbro_copy, "is missing (every chunk is written)")


def test_altered_metadata_is_refused_and_the_manifest_is_the_root_of_trust(hasbro_copy):
    values = hasbro_copy / "yahtzee-hasbro-values.zarr"

    def more(meta: dict) -> None:
        meta["stats"]["start_value"] = 300.0

    edit_root_meta(values, more, resign=False)
    refused(hasbro_copy, "metadata altered")
    edit_root_meta(values, lambda meta: None)  # signed again: its own checksum holds, the manifest's entry does not
    refused(hasbro_copy, "differs from its entry in MANIFEST.json")
    assert advise(hasbro_copy, *START, trust="artifact").returncode == 0  # trusting each artifact's own checksum
    (hasbro_copy / MANIFEST_NAME).unlink()
    refused(hasbro_copy, "no manifest")


def test_an_array_description_or_schema_other_than_signed_is_refused(hasbro_copy):
    doc_path = hasbro_copy / "yahtzee-hasbro-values.zarr" / "value" / "zarr.json"
    signed = doc_path.read_text()
    doc = json.loads(signed)
    doc["codecs"][0]["configuration"]["codecs"].pop()  # no crc32c
    doc_path.write_text(json.dumps(doc))
    refused(hasbro_copy, "'codecs' is")
    doc_path.write_text(signed)

    def newer(meta: dict) -> None:
        meta["schema_version"] = 2

    edit_root_meta(hasbro_copy / "yahtzee-hasbro-policy.zarr", newer)
    refused(hasbro_copy, "schema version 2 of 'yahtzee.policy' is not supported", trust="artifact")
