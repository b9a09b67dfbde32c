"""Every chunk a Yahtzee answer uses is checked the first time it is read, straight from the artifact's
shard files (no runtime copies); the artifacts are held to MANIFEST.json; reading writes
nothing; the issue-9 attack on derived paths touches nothing.

Every test damages a private copy of the session's tables (``hasbro_tables`` is only read).
"""

import hashlib
import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from test_chunked import Grid, flip_in_chunk, no_writes, rewrite_chunk, tree

from lookup.store import MANIFEST_NAME, META_KEY, META_SHA_KEY, TRUST_ENV, ArtifactError, meta_sha256
from lookup.yahtzee import decide, value
from lookup.yahtzee.rules import get_rules
from lookup.yahtzee.sheet import Sheet
from lookup.yahtzee.tables import load_tables

HASBRO = get_rules("hasbro")
DICE = [1, 3, 3, 5, 6]
SHEET = {"ones": 3, "threes": 9, "chance": 22, "full_house": 25}
OTHER = {"twos": 4}  # a sheet whose elements lie in other chunks than SHEET's (asserted)
VALUES, POLICY = "yahtzee-hasbro-values.zarr", "yahtzee-hasbro-policy.zarr"
# The public call that reads each array's element for a sheet.
READERS = {
    "value": lambda root, sheet: value(sheet, artifacts_dir=root),
    "state_index": lambda root, sheet: decide(DICE, 2, sheet, artifacts_dir=root).reroll,
    "reroll": lambda root, sheet: decide(DICE, 2, sheet, artifacts_dir=root).reroll,
    "category": lambda root, sheet: decide(DICE, 0, sheet, artifacts_dir=root).category,
}


def _copy(hasbro_tables: Path, tmp_path: Path) -> Path:
    """A private copy of the session's artifacts directory, which the test may damage."""
    root = tmp_path / "artifacts"
    shutil.copytree(hasbro_tables, root)
    return root


def _answers(root: Path, sheet=SHEET):
    return tuple(read(root, sheet) for read in READERS.values())


def _element(hasbro_tables: Path, name: str, sheet) -> tuple[str, tuple[int, ...]]:
    """(artifact, element index) that READERS[name] reads for ``sheet``, found in the intact session tables
    (so that no chunk of the copy under test is read before it is damaged)."""
    tables = load_tables(HASBRO, hasbro_tables)
    state = Sheet.parse(sheet, HASBRO).state
    row = int(tables.policy["state_index"][state])
    roll = HASBRO.encoding.roll_index(sorted(d - 1 for d in DICE))
    return {"value": (VALUES, state), "state_index": (POLICY, state), "reroll": (POLICY, (row, 1, roll)),
            "category": (POLICY, (row, roll))}[name]


@pytest.mark.parametrize("name", ["value", "state_index", "reroll", "category"])
def test_a_flipped_byte_is_refused_at_the_first_decision_that_reads_its_chunk(hasbro_tables, tmp_path, name):
    reference, other = _answers(hasbro_tables), _answers(hasbro_tables, OTHER)
    artifact, index = _element(hasbro_tables, name, SHEET)
    root = _copy(hasbro_tables, tmp_path)
    grid = Grid.of(root / artifact, name)
    k = grid.chunk_of(index)
    assert grid.chunk_of(_element(hasbro_tables, name, OTHER)[1]) != k
    path = flip_in_chunk(grid, k)
    assert _answers(root, OTHER) == other  # the other chunks answer (each checked on its first read)
    for _attempt in range(2):  # refused at the first read of the chunk, and again: never kept as good
        with pytest.raises(ArtifactError, match=rf"^{re.escape(str(path))}: chunk \d+ fails its crc32c"):
            READERS[name](root, SHEET)
    assert _answers(root, OTHER) == other
    assert _answers(hasbro_tables) == reference


@pytest.mark.parametrize("name", ["value", "reroll", "category"])
def test_a_chunk_rewritten_with_a_valid_crc32c_is_refused_by_its_sha256(hasbro_tables, tmp_path, name):
    """The attack a crc32c cannot stop: the stored answer changed, the chunk re-encoded with its crc32c and
    the shard's index rewritten with its crc32c."""
    other = _answers(hasbro_tables, OTHER)
    artifact, index = _element(hasbro_tables, name, SHEET)
    root = _copy(hasbro_tables, tmp_path)
    grid = Grid.of(root / artifact, name)
    k = grid.chunk_of(index)
    local = tuple(i - s for i, s in zip(index, grid.element_in(k), strict=True))

    def change(block: np.ndarray) -> None:
        block[local] = block[local] + 7 if name == "value" else (int(block[local]) + 1) % 2  # another answer

    path = rewrite_chunk(grid, k, change)
    with pytest.raises(ArtifactError, match=rf"^{re.escape(str(path))}: chunk \d+ does not match its sha256"):
        READERS[name](root, SHEET)
    assert _answers(root, OTHER) == other


def _resign(artifact: Path, edit) -> None:
    doc = json.loads((artifact / "zarr.json").read_text())
    edit(doc["attributes"][META_KEY])
    doc["attributes"][META_SHA_KEY] = meta_sha256(doc["attributes"][META_KEY])
    (artifact / "zarr.json").write_text(json.dumps(doc))


def test_resigned_statistics_differ_from_the_manifest_unless_trust_is_relaxed(hasbro_tables, tmp_path,
                                                                             monkeypatch):
    monkeypatch.delenv(TRUST_ENV, raising=False)
    reference = _answers(hasbro_tables)
    root = _copy(hasbro_tables, tmp_path)
    _resign(root / VALUES, lambda m: m["stats"].update(mean=999.0, start_value=999.0))
    with pytest.raises(ArtifactError, match=f"{re.escape(str(root / VALUES))}: its metadata differs from its entry "
                                            f"in {MANIFEST_NAME}"):
        value(SHEET, artifacts_dir=root)
    with pytest.raises(ArtifactError, match=f"differs from its entry in {MANIFEST_NAME}"):
        decide(DICE, 2, SHEET, artifacts_dir=root)
    monkeypatch.setenv(TRUST_ENV, "artifact")  # the explicit opt-out: the artifact's own checksum only
    assert _answers(root) == reference
    assert load_tables(HASBRO, root).stats["mean"] == 999.0


def test_resigned_params_of_the_policy_differ_from_the_manifest(hasbro_tables, tmp_path, monkeypatch):
    monkeypatch.delenv(TRUST_ENV, raising=False)
    root = _copy(hasbro_tables, tmp_path)
    _resign(root / POLICY, lambda m: m["params"].update(values_fingerprint="0" * 64))
    with pytest.raises(ArtifactError, match=f"{re.escape(str(root / POLICY))}: its metadata differs"):
        decide(DICE, 2, SHEET, artifacts_dir=root)


def test_no_manifest_is_refused_naming_the_opt_out(hasbro_tables, tmp_path, monkeypatch):
    monkeypatch.delenv(TRUST_ENV, raising=False)
    root = _copy(hasbro_tables, tmp_path)
    (root / MANIFEST_NAME).unlink()
    with pytest.raises(ArtifactError, match=f"no manifest.*{TRUST_ENV}=artifact"):
        value(SHEET, artifacts_dir=root)
    monkeypatch.setenv(TRUST_ENV, "artifact")
    assert value(SHEET, artifacts_dir=root) == value(SHEET, artifacts_dir=hasbro_tables)


@pytest.mark.parametrize("manifest_beside", [False, True])
def test_a_symlinked_artifact_is_refused_and_nothing_is_written(hasbro_tables, tmp_path, monkeypatch,
                                                               manifest_beside):
    """yahtzee-hasbro-values.zarr -> a copy outside the artifacts directory. With ``manifest_beside`` the
    copy is re-signed with other statistics and comes with a MANIFEST.json of its own that lists it: the
    manifest of the artifacts directory is the root of trust, not one found by following the link."""
    monkeypatch.delenv(TRUST_ENV, raising=False)
    root = _copy(hasbro_tables, tmp_path)
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(root / VALUES, elsewhere / VALUES)
    if manifest_beside:
        from pipeline.store import write_manifest

        _resign(elsewhere / VALUES, lambda m: m["stats"].update(mean=999.0))
        write_manifest(elsewhere)
    shutil.rmtree(root / VALUES)
    (root / VALUES).symlink_to(elsewhere / VALUES, target_is_directory=True)
    before = tree(tmp_path)
    refused = rf"^{re.escape(str(root.resolve() / VALUES))}: is a symlink \(to {re.escape(str(elsewhere / VALUES))}\)"
    with no_writes(tmp_path):
        with pytest.raises(ArtifactError, match=refused):
            value(SHEET, artifacts_dir=root)
        with pytest.raises(ArtifactError, match=refused):
            decide(DICE, 2, SHEET, artifacts_dir=root)
    assert tree(tmp_path) == before


def test_decisions_write_nothing_and_leave_exactly_the_files_there_were(hasbro_tables, tmp_path):
    """No runtime copies: the directory (made read-only, every write refused by an audit hook) holds exactly
    the files it held before, byte for byte."""
    reference = [_answers(hasbro_tables, sheet) for sheet in (SHEET, OTHER, {})]
    root = _copy(hasbro_tables, tmp_path)
    names = sorted(str(p.relative_to(root)) for p in root.rglob("*"))
    with no_writes(root):
        assert [_answers(root, sheet) for sheet in (SHEET, OTHER, {})] == reference
        options = decide(DICE, 1, SHEET, artifacts_dir=root)
        assert options.reroll == decide(DICE, 1, SHEET, artifacts_dir=hasbro_tables).reroll
    assert sorted(str(p.relative_to(root)) for p in root.rglob("*")) == names
    assert not (root / ".runtime").exists()


def test_fingerprint_traversal_attack_of_issue_9(hasbro_tables, tmp_path):
    """Setting the fingerprint to "/../../g151-xxxx" + zeros (checksum recomputed) and asking for a value must
    fail without deleting g151-*.zarr or writing anything."""
    outer = tmp_path / "outer"
    root = outer / "artifacts"
    shutil.copytree(hasbro_tables / VALUES, root / VALUES)
    for victim in (root / "g151-stated.zarr", root / "g151-xxxx.zarr", outer / "g151-xxxx0"):
        victim.mkdir(parents=True)
        (victim / "zarr.json").write_text("{}")
    doc_path = root / VALUES / "zarr.json"
    attack = "/../../g151-xxxx" + "0" * 48
    _resign(root / VALUES, lambda m: m.update(fingerprint=attack))
    # The attack is validly signed (its checksum, recomputed here with hashlib over the canonical JSON, is the
    # stored one), so what refuses it below is the fingerprint check, not the metadata checksum.
    attrs = json.loads(doc_path.read_text())["attributes"]
    assert attrs[META_KEY]["fingerprint"] == attack
    canonical = json.dumps(attrs[META_KEY], sort_keys=True, separators=(",", ":")).encode()
    assert attrs[META_SHA_KEY] == hashlib.sha256(canonical).hexdigest()
    signed = hashlib.sha256(doc_path.read_bytes()).hexdigest()
    before = {str(p): p.read_bytes() if p.is_file() else None for p in tmp_path.rglob("*")}
    for trust in ("manifest", "artifact"):
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv(TRUST_ENV, trust)
            with pytest.raises(ArtifactError, match="fingerprint is not 64 hex digits"):
                value([None] * 13, artifacts_dir=root)
    after = {str(p): p.read_bytes() if p.is_file() else None for p in tmp_path.rglob("*")}
    assert after == before
    # The artifact itself is left for inspection, byte for byte as the attack signed it.
    assert hashlib.sha256(doc_path.read_bytes()).hexdigest() == signed
