"""One meaning of "valid" (issue 37): ``dicetables verify [PATH]`` and lookup make the same checks, with
MANIFEST.json as the root of trust, HDF5 mirrors included; every field of a manifest entry is checked; a family
built without the manifest into a directory that has one is registered by a documented command.

Each damage below was once accepted by one side and refused by the other (or by neither)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import h5py
import numpy as np
import pytest
from click.testing import CliRunner
from test_chunked import OPEN, edit_root_meta
from test_store import _arrays, _spec

from lookup.store import MANIFEST_NAME, META_KEY, META_SHA_KEY, ArtifactError, meta_sha256, open_artifact
from pipeline import registry
from pipeline.cli import main
from pipeline.store import write_artifact, write_manifest


def _verify(*args: str):
    return CliRunner().invoke(main, ["verify", *args])


def _edit_json(path: Path, edit: Callable[[dict], object], pad: int = 0) -> None:
    doc = json.loads(path.read_text())
    edit(doc)
    path.write_text(json.dumps(doc) + " " * pad)


def _manifest_entry(artifact: Path, edit: Callable[[dict], object]) -> None:
    def change(doc: dict) -> None:
        edit(next(e for e in doc["artifacts"] if e["path"] == artifact.name))

    _edit_json(artifact.parent / MANIFEST_NAME, change)


DAMAGES = {
    # Re-signed metadata: its own checksum is right, the manifest's is not.
    "metadata re-signed": (lambda a: edit_root_meta(a, lambda m: m["stats"].update(forged=1)),
                           "its metadata differs from its entry in MANIFEST.json"),
    "storage transformers": (lambda a: _edit_json(a / "codes" / "zarr.json",
                                                  lambda d: d.update(storage_transformers=[{"name": "x"}])),
                             "storage transformers are not part of the artifact format"),
    "zarr.json padded over 64 KiB": (lambda a: _edit_json(a / "codes" / "zarr.json", lambda d: None, pad=70_000),
                                     "more than the 65536 allowed"),
    "a manifest field edited (the rules)": (lambda a: _manifest_entry(a, lambda e: e["rules"].update(faces=7)),
                                            r"its entry in MANIFEST.json differs from its metadata in \['rules'\]"),
    "a manifest field added": (lambda a: _manifest_entry(a, lambda e: e.update(note="trust me")),
                               r"fields \['note'\] missing or not part of the format"),
    "a manifest field dropped": (lambda a: _manifest_entry(a, lambda e: e.pop("package_version")),
                                 r"fields \['package_version'\] missing or not part of the format"),
}


@pytest.mark.parametrize("damage", DAMAGES)
def test_verify_of_a_path_refuses_what_lookup_refuses(demo, damage):
    apply, said = DAMAGES[damage]
    assert _verify(str(demo)).exit_code == 0
    apply(demo)
    with pytest.raises(ArtifactError, match=said):
        with open_artifact(demo, **OPEN) as art:
            art.read("codes")
    result = _verify(str(demo))
    assert result.exit_code == 1 and re.search(said, result.output), result.output
    assert result.output.startswith(f"FAIL {demo}: ") or result.output.startswith("FAIL ")


def test_an_hdf5_mirror_is_held_to_the_manifest(artifacts):
    write_artifact(_spec(), _arrays(), artifacts)
    write_manifest(artifacts)
    h5 = artifacts / "demo.h5"
    with open_artifact(h5, **OPEN) as art:
        np.testing.assert_array_equal(art.read("codes"), _arrays()["codes"].data)
    with h5py.File(h5, "r+") as f:  # a re-signed mirror: right by its own checksum
        meta = json.loads(f.attrs[META_KEY])
        meta["rules"]["faces"] = 7
        f.attrs[META_KEY] = json.dumps(meta, sort_keys=True)
        f.attrs[META_SHA_KEY] = meta_sha256(meta)
    with pytest.raises(ArtifactError, match="its metadata differs from its entry in MANIFEST.json"):
        open_artifact(h5, **OPEN, rules={"faces": 7})
    result = _verify(str(h5))
    assert result.exit_code == 1 and "differs from its entry in MANIFEST.json" in result.output
    assert open_artifact(h5, **OPEN, rules={"faces": 7}, trust="artifact")  # its own checksum: an explicit choice


G151 = "g151:\n  variants: [stated, notebook]\n  targets: [300]\n"


def test_a_family_built_without_the_manifest_is_registered_by_dicetables_manifest(tmp_path):
    from lookup.g151 import decide

    params = tmp_path / "params.yaml"
    params.write_text(G151)
    root = tmp_path / "artifacts"
    registry.build(["g151-stated"], params_path=params, artifacts_dir=root)
    registry.build(["g151-notebook"], params_path=params, artifacts_dir=root, manifest=False)  # as DVC stages do
    assert decide(0, 100, None, 300, "stated", artifacts_dir=root)
    with pytest.raises(ArtifactError, match=r"g151-notebook.zarr: not listed in .*MANIFEST.json \(built with "
                                            r"--no-manifest\? `dicetables manifest --artifacts"):
        decide(0, 100, None, 300, "notebook", artifacts_dir=root)
    # A damaged artifact is not registered: the manifest is left as it was.
    shard = next(p for p in (root / "g151-notebook.zarr").rglob("c/*") if p.is_file())
    intact, before = shard.read_bytes(), (root / MANIFEST_NAME).read_bytes()
    shard.write_bytes(intact[:len(intact) // 2] + bytes([intact[len(intact) // 2] ^ 1]) + intact[len(intact) // 2 + 1:])
    result = CliRunner().invoke(main, ["manifest", "--artifacts", str(root)])
    assert result.exit_code == 1 and "g151-notebook.zarr: not listed in MANIFEST.json: " in result.output
    assert (root / MANIFEST_NAME).read_bytes() == before
    shard.write_bytes(intact)
    result = CliRunner().invoke(main, ["manifest", "--artifacts", str(root)])
    assert result.exit_code == 0, result.output
    assert decide(0, 100, None, 300, "notebook", artifacts_dir=root)
    assert _verify("--artifacts", str(root)).exit_code == 0
