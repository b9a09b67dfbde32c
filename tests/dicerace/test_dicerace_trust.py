"""Dice race: every runtime byte is checked on the read that uses it (issue 11.1); the CLI's match-up
table, option bounds and chunk errors (issue 9)."""

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from lookup.dicerace import decide, sequential_table, simultaneous_table, strategy, value
from lookup.store import ArtifactError
from pipeline.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
GAME = dict(dice=5, target=30)


@pytest.fixture
def private(built, tmp_path) -> Path:
    root = tmp_path / "artifacts"
    shutil.copytree(built, root, ignore=shutil.ignore_patterns(".runtime"))
    return root


def _flip_element(arr, index: tuple[int, ...], bit: int = 3) -> Path:
    offset = arr._offset + int(np.ravel_multi_index(index, arr.shape)) * arr.dtype.itemsize  # noqa: SLF001
    with open(arr.path, "r+b") as f:
        f.seek(offset)
        byte = f.read(1)[0]
        f.seek(offset)
        f.write(bytes([byte ^ (1 << bit)]))
    return arr.path


def _mixed_state(root: Path) -> tuple[int, int]:
    rows = np.asarray(simultaneous_table(5, 30, artifacts_dir=root).mixed_row)
    return tuple(int(x) for x in np.argwhere(rows >= 0)[0])


@pytest.mark.parametrize("mode, name", [("sequential", "value"), ("sequential", "optimal"),
                                        ("simultaneous", "value"), ("simultaneous", "pure"),
                                        ("simultaneous", "mixed_row"), ("simultaneous", "mixed")])
def test_a_flipped_bit_in_any_runtime_array_is_caught_on_the_next_call(private, mode, name):
    state = _mixed_state(private) if mode == "simultaneous" else (12, 25)

    def answers():
        return (value(*state, **GAME, mode=mode, artifacts_dir=private),
                strategy(*state, **GAME, mode=mode, artifacts_dir=private),
                decide(*state, **GAME, mode=mode, rng=1, artifacts_dir=private))

    reference = answers()
    load = sequential_table if mode == "sequential" else simultaneous_table
    table = load(5, 30, artifacts_dir=private)
    arr = getattr(table, name)
    index = (int(table.mixed_row[state]), 0) if name == "mixed" else state
    path = _flip_element(arr, index)
    with pytest.raises(ArtifactError, match=f"{path.name}.*corrupted runtime copy"):
        answers()
    assert answers() == reference


def test_issue_11_example_a_flipped_value_never_becomes_an_answer(private):
    good = value(20, 25, **GAME, artifacts_dir=private)
    path = _flip_element(sequential_table(5, 30, artifacts_dir=private).value, (20, 25), bit=6)  # exponent bit
    with pytest.raises(ArtifactError, match=str(path)):
        value(20, 25, **GAME, artifacts_dir=private)
    assert value(20, 25, **GAME, artifacts_dir=private) == good


MAKE_WITH_A_FLIP = """
import sys
sys.path.insert(0, {root!r})
import numpy as np
import lookup.runtime as runtime
from lookup.dicerace import value
real = np.save
def save(path, data):  # the disk (or another hand) changes a byte of the copy while it is being made
    real(path, data)
    with open(path, "r+b") as f:
        f.seek(-3, 2); b = f.read(1)[0]; f.seek(-3, 2); f.write(bytes([b ^ 1]))
runtime.np.save = save
try:
    value(3, 4, dice=5, target=30, artifacts_dir={artifacts!r})
except ValueError as exc:
    print("refused:", exc)
"""


def test_a_copy_damaged_while_another_process_makes_it_is_never_published(private, built):
    proc = subprocess.run([sys.executable, "-c", MAKE_WITH_A_FLIP.format(root=str(ROOT), artifacts=str(private))],
                          capture_output=True, text=True, check=True)
    assert proc.stdout.startswith("refused:") and "corrupted runtime copy" in proc.stdout
    copies = list((private / ".runtime").rglob("*.npy"))
    assert all(not p.name.startswith(".tmp-") for p in copies)
    assert not any(p.name == "d5_n30_value.npy" for p in copies)
    assert value(3, 4, **GAME, artifacts_dir=private) == value(3, 4, **GAME, artifacts_dir=built)
    assert decide(3, 4, **GAME, artifacts_dir=private) == decide(3, 4, **GAME, artifacts_dir=built)


def _cli(*args: str):
    return CliRunner().invoke(main, list(args), env={"COLUMNS": "250"})  # rich wraps at the width


def test_sequential_matchup_table_shows_what_its_title_says(built):
    from pipeline.dicerace.report import read_matchups

    out = _cli("dicerace", "show", "--dice", "5", "--target", "30", "--artifacts", str(built))
    assert out.exit_code == 0, out.output
    assert "exact match-ups, sequential: P(A wins), A first | B first" in out.output
    meta, arrays = read_matchups(built)
    data = arrays["d5_n30_sequential"]
    assert f"{data[0, 1, 0, 0]:.4f} | {data[0, 1, 1, 0]:.4f}" in out.output  # optimal vs blind
    assert np.allclose(data[..., 1], 0)  # no draws in the sequential race: nothing hidden


@pytest.mark.parametrize("args", [["dicerace", "show", "--step", "-3"], ["dicerace", "show", "--step", "0"],
                                  ["yahtzee", "decide", "1", "2", "3", "4", "5", "--top", "-1"]])
def test_negative_steps_and_tops_are_refused(built, args):
    out = _cli(*args, "--artifacts", str(built))
    assert out.exit_code == 2 and "Invalid value" in out.output


def test_a_corrupted_chunk_is_one_error_line(private):
    for shard in private.rglob("*"):
        if shard.is_file() and "c" in shard.relative_to(private).parts and "probabilities" not in str(shard):
            raw = bytearray(shard.read_bytes())
            raw[len(raw) // 2] ^= 0x08
            shard.write_bytes(bytes(raw))
    for args in (["show"], ["match", "optimal", "blind"]):
        command = [str(Path(sys.executable).parent / "dicetables"), "dicerace", *args, "--dice", "5", "--target", "30",
                   "--artifacts", str(private)]
        proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        errors = [line for line in proc.stderr.splitlines() if line.strip()]
        assert proc.returncode == 1 and len(errors) == 1, proc.stderr
        assert errors[0].startswith("Error: ") and "corrupted" in errors[0]
