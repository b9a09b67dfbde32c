"""Another language reads the artifacts: the Node reader (clients/js, zarrita) on a table built here."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

JS = Path(__file__).resolve().parents[2] / "clients" / "js"


def _node(*args: str) -> subprocess.CompletedProcess:
    if shutil.which("node") is None or shutil.which("npm") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("node and npm are needed in CI")
        pytest.skip("node/npm not installed")
    if not (JS / "node_modules").exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=JS, check=True, capture_output=True, timeout=300)
    return subprocess.run(["node", "read_yahtzee.mjs", *args], cwd=JS, capture_output=True, text=True, timeout=120)


def test_node_reads_the_value_table(web_artifacts):
    out = _node(str(web_artifacts / "yahtzee-hasbro-values.zarr"))
    assert out.returncode == 0, out.stderr
    assert "value(start) = 254.5877287" in out.stdout and "sha256 ok" in out.stdout


def test_node_reader_refuses_a_wrong_checksum(web_artifacts, tmp_path):
    copy = tmp_path / "yahtzee-hasbro-values.zarr"
    shutil.copytree(web_artifacts / "yahtzee-hasbro-values.zarr", copy)
    meta = json.loads((copy / "zarr.json").read_text())
    meta["attributes"]["dicetables"]["arrays"]["value"]["sha256"] = "0" * 64
    (copy / "zarr.json").write_text(json.dumps(meta))
    out = _node(str(copy))
    assert out.returncode == 1 and "sha256" in out.stderr
