"""Every byte a Yahtzee answer uses is checked when it is read (issue 11.1), and the issue-9 attack on the
runtime copy directory touches nothing."""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from lookup import changes, runtime
from lookup.store import META_KEY, META_SHA_KEY, ArtifactError, meta_sha256
from lookup.yahtzee import decide, value
from lookup.yahtzee.rules import get_rules
from lookup.yahtzee.sheet import Sheet
from lookup.yahtzee.tables import load_tables

HASBRO = get_rules("hasbro")
DICE = [1, 3, 3, 5, 6]
SHEET = {"ones": 3, "threes": 9, "chance": 22, "full_house": 25}


def _copy_artifacts(hasbro_tables: Path, root: Path) -> Path:
    """A copy of the hasbro artifacts (not their runtime copies) at ``root``, which tests may damage."""
    shutil.copytree(hasbro_tables, root, ignore=shutil.ignore_patterns(".runtime"))
    return root


@pytest.fixture(scope="module")
def private(hasbro_tables, tmp_path_factory) -> Path:
    """A copy of the hasbro artifacts shared by this module's tests."""
    return _copy_artifacts(hasbro_tables, tmp_path_factory.mktemp("yahtzee_trust") / "artifacts")


@pytest.fixture
def watched(hasbro_tables, tmp_path) -> Path:
    """A copy of the hasbro artifacts whose runtime copies are made by the test's first call, so that every
    array it loads watches files nothing else in this process has watched or opened.

    In the shared copy, a copy remade after a corruption bumps the loaders' generation: the tables are loaded
    again, and each new array opens its file while the previous array of the same unchanged file still
    watches it. That open is an event, and both go back to the ctime check (correct, but no longer the
    watched path these tests are about), depending on which tests ran earlier in the worker.
    """
    if changes.watcher() is None:
        pytest.skip("no inotify here: every read checks the ctime (the other tests)")
    return _copy_artifacts(hasbro_tables, tmp_path / "artifacts")


def _answers(root: Path):
    return (decide(DICE, 2, SHEET, artifacts_dir=root).reroll, decide(DICE, 0, SHEET, artifacts_dir=root).category,
            value(SHEET, artifacts_dir=root))


def _element(root: Path, name: str, index: tuple[int, ...]) -> tuple[Path, int]:
    """(copy file, byte offset) of one element of a runtime array."""
    tables = load_tables(HASBRO, root)
    arr = tables.value if name == "value" else tables.policy[name]
    flat = int(np.ravel_multi_index(index, arr.shape))
    return arr.path, arr._offset + flat * arr.dtype.itemsize  # noqa: SLF001


def _flip(path: Path, offset: int, bit: int = 0) -> None:
    with open(path, "r+b") as f:
        f.seek(offset)
        byte = f.read(1)[0]
        f.seek(offset)
        f.write(bytes([byte ^ (1 << bit)]))


def _read_indices(root: Path) -> dict[str, tuple[int, ...]]:
    """The element of each array that _answers reads."""
    tables = load_tables(HASBRO, root)
    state = Sheet.parse(SHEET, HASBRO).state
    row = int(tables.policy["state_index"][state])
    roll = HASBRO.encoding.roll_index(sorted(d - 1 for d in DICE))
    return {"value": state, "state_index": state, "reroll": (row, 1, roll), "category": (row, roll)}


@pytest.mark.parametrize("name", ["value", "state_index", "reroll", "category"])
def test_a_flipped_bit_in_any_runtime_array_is_caught_on_the_next_call(private, name):
    reference = _answers(private)
    path, offset = _element(private, name, _read_indices(private)[name])
    _flip(path, offset, bit=5)
    with pytest.raises(ArtifactError, match=f"{path.name}.*corrupted runtime copy"):
        _answers(private)
    assert _answers(private) == reference  # rebuilt from the verified artifact


@pytest.mark.parametrize("name", ["state_index", "reroll", "category", "value"])
def test_a_flip_in_a_block_already_verified_and_kept_is_caught_on_the_next_call(private, name, monkeypatch):
    """The cached path: once the copy's ctime has settled, a read keeps its verified block in private
    memory, and later reads use it without re-reading; a flip on disk moves the ctime, and the next call
    reads and checks the block again."""
    monkeypatch.setattr(runtime, "SETTLED_NS", 50_000_000)
    reference = _answers(private)
    path, offset = _element(private, name, _read_indices(private)[name])
    tables = load_tables(HASBRO, private)
    arr = tables.value if name == "value" else tables.policy[name]
    block = (offset - arr._offset) // runtime.BLOCK  # noqa: SLF001
    os.utime(path)  # moves the ctime, changes no byte: every block is checked again, nothing fails
    for _ in range(2):
        time.sleep(0.2)  # the copy's ctime is now older than SETTLED_NS
        assert _answers(private) == reference
        assert arr._ok[block] == 1  # noqa: SLF001 (kept: the next read uses the private bytes)
        assert _answers(private) == reference
    _flip(path, offset, bit=3)
    with pytest.raises(ArtifactError, match=f"{path.name}.*corrupted runtime copy"):
        _answers(private)
    assert _answers(private) == reference


def _array_and_block(root: Path, name: str):
    tables = load_tables(HASBRO, root)
    arr = tables.value if name == "value" else tables.policy[name]
    path, offset = _element(root, name, _read_indices(root)[name])
    return arr, path, offset, (offset - arr._offset) // runtime.BLOCK  # noqa: SLF001


WRITE_THROUGH_A_MAP = """
import mmap, sys
with open(sys.argv[1], "r+b") as f, mmap.mmap(f.fileno(), 0) as m:
    m[int(sys.argv[2])] ^= 4
"""


@pytest.mark.parametrize("writer", ["write", "memory map"])
def test_a_watched_copy_keeps_checked_blocks_and_any_change_is_caught_on_the_next_call(watched, writer):
    """The watched path (lookup.changes): a block is kept as soon as it is checked and later reads only
    poll for events; another process changing the copy, by write() or through a memory map (which
    inotify does not report, but opening the file for it is), is caught on the next call."""
    private = watched
    reference = _answers(private)
    arr, path, offset, block = _array_and_block(private, "reroll")
    assert _answers(private) == reference
    assert arr._watched and arr._ok[block] == 1  # noqa: SLF001
    if writer == "write":
        script = f"with open({str(path)!r}, 'r+b') as f:\n f.seek({offset}); b = f.read(1)[0]; f.seek({offset}); " \
                 "f.write(bytes([b ^ 4]))"
        subprocess.run([sys.executable, "-c", script], check=True)
    else:
        subprocess.run([sys.executable, "-c", WRITE_THROUGH_A_MAP, str(path), str(offset)], check=True)
    with pytest.raises(ArtifactError, match="reroll.npy"):
        decide(DICE, 2, SHEET, artifacts_dir=private)
    assert _answers(private) == reference


def test_a_change_is_caught_when_the_first_read_of_a_call_is_not_watched(watched):
    """decide's second read relies on the first read's poll: that poll must happen even when the first
    copy checks its ctime itself."""
    private = watched
    reference = _answers(private)
    index, *_ = _array_and_block(private, "state_index")
    arr, path, offset, _ = _array_and_block(private, "reroll")
    assert index._watched and arr._watched  # noqa: SLF001
    os.utime(index.path)  # an event: state_index checks its ctime from now on
    assert _answers(private) == reference
    assert not index._watched and arr._watched  # noqa: SLF001
    _flip(path, offset, bit=1)
    with pytest.raises(ArtifactError, match="reroll.npy"):
        decide(DICE, 2, SHEET, artifacts_dir=private)
    assert _answers(private) == reference


def test_a_forked_child_checks_the_ctime_itself(private):
    """A child shares its parent's event queue (an event read by one is lost to the other): in the child
    every watched copy goes back to the ctime check."""
    _answers(private)
    arr, *_ = _array_and_block(private, "category")
    pid = os.fork()
    if pid == 0:  # the child: report through the exit status only
        os._exit(0 if not arr._watched else 1)  # noqa: SLF001
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_a_flip_by_another_process_while_this_one_holds_the_tables(private):
    reference = _answers(private)
    path, offset = _element(private, "category", _read_indices(private)["category"])
    script = f"with open({str(path)!r}, 'r+b') as f:\n f.seek({offset}); b = f.read(1)[0]; f.seek({offset}); " \
             "f.write(bytes([b ^ 1]))"
    subprocess.run([sys.executable, "-c", script], check=True)
    with pytest.raises(ArtifactError, match="category.npy"):
        decide(DICE, 0, SHEET, artifacts_dir=private)
    assert _answers(private) == reference


def test_a_truncated_copy_is_caught_not_a_crash(private):
    reference = _answers(private)
    path, _ = _element(private, "category", (0, 0))
    with open(path, "r+b") as f:
        f.truncate(200)  # keeps the header, loses the data the open process reads
    with pytest.raises(ArtifactError, match="category.npy"):
        decide(DICE, 0, SHEET, artifacts_dir=private)
    assert _answers(private) == reference


def test_a_same_size_copy_of_other_numbers_is_caught(private):
    reference = _answers(private)
    path, _ = _element(private, "value", (0, 0, 0))
    other = np.load(path) * 1.000001  # a valid .npy of the same shape, dtype and size
    np.save(path, other)
    with pytest.raises(ArtifactError, match="value.npy"):
        value(SHEET, artifacts_dir=private)
    assert _answers(private) == reference


def test_fingerprint_traversal_attack_of_issue_9(hasbro_tables, tmp_path):
    """Setting the fingerprint to "/../../g151-xxxx" + zeros and asking for a value must fail without
    deleting g151-*.zarr or writing g151-xxxx/value.npy (here the checksum is even recomputed)."""
    outer = tmp_path / "outer"
    root = outer / "artifacts"
    shutil.copytree(hasbro_tables / "yahtzee-hasbro-values.zarr", root / "yahtzee-hasbro-values.zarr")
    for victim in (root / "g151-stated.zarr", root / "g151-xxxx.zarr", outer / "g151-xxxx0"):
        victim.mkdir(parents=True)
        (victim / "zarr.json").write_text("{}")
    doc_path = root / "yahtzee-hasbro-values.zarr" / "zarr.json"
    doc = json.loads(doc_path.read_text())
    doc["attributes"][META_KEY]["fingerprint"] = "/../../g151-xxxx" + "0" * 48
    doc["attributes"][META_SHA_KEY] = meta_sha256(doc["attributes"][META_KEY])
    doc_path.write_text(json.dumps(doc))
    before = {str(p): p.read_bytes() if p.is_file() else None for p in tmp_path.rglob("*")}
    with pytest.raises(ArtifactError, match="fingerprint is not 64 hex digits"):
        value([None] * 13, artifacts_dir=root)
    after = {str(p): p.read_bytes() if p.is_file() else None for p in tmp_path.rglob("*")}
    assert after == before
    assert hashlib.sha256(doc_path.read_bytes()).hexdigest()  # the artifact itself is left for inspection
