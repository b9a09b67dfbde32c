"""Dice race: every chunk an answer uses is checked the first time it is read, straight from the shard files
(no runtime copies); reading writes nothing; the CLI's match-up table, option bounds and
chunk errors.

Every test damages a private copy of the session's tables (``built`` is only read).
"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from test_chunked import Grid, flip_in_chunk, no_writes, rewrite_chunk

from lookup.dicerace import decide, simultaneous_table, strategy, value
from lookup.store import ArtifactError
from pipeline.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
GAME = dict(dice=5, target=30)
ARTIFACT = {"sequential": "dicerace-sequential.zarr", "simultaneous": "dicerace-simultaneous.zarr"}


@pytest.fixture
def private(built, tmp_path) -> Path:
    root = tmp_path / "artifacts"
    shutil.copytree(built, root)
    return root


def _mixed_state(root: Path) -> tuple[int, int]:
    rows = np.asarray(simultaneous_table(5, 30, artifacts_dir=root).mixed_row)
    return tuple(int(x) for x in np.argwhere(rows >= 0)[0])


def _answers(root: Path, state: tuple[int, int], mode: str, game=GAME):
    return (value(*state, **game, mode=mode, artifacts_dir=root),
            strategy(*state, **game, mode=mode, artifacts_dir=root),
            decide(*state, **game, mode=mode, rng=1, artifacts_dir=root))


def _element(built: Path, mode: str, name: str, state: tuple[int, int]) -> tuple[int, ...]:
    """The element of array ``name`` an answer at ``state`` reads (found in the intact session tables)."""
    if name == "mixed":
        return int(simultaneous_table(5, 30, artifacts_dir=built).mixed_row[state]), 0
    return state


# (mode, array, the call that reads it): decide reads optimal (sequential), pure, mixed_row and mixed
# (simultaneous, at a state whose strategy is mixed); value reads value.
CASES = [("sequential", "value", value), ("sequential", "optimal", decide), ("simultaneous", "value", value),
         ("simultaneous", "pure", decide), ("simultaneous", "mixed_row", decide), ("simultaneous", "mixed", decide)]


@pytest.mark.parametrize("mode, name, call", CASES, ids=[f"{m}-{n}" for m, n, _ in CASES])
def test_a_flipped_byte_is_refused_at_the_first_answer_that_reads_its_chunk(built, private, mode, name, call):
    state = _mixed_state(built) if mode == "simultaneous" else (12, 25)
    small = dict(dice=3, target=20)
    reference = _answers(built, state, mode)
    others = _answers(built, (2, 3), mode, small)  # the (3, 20) game: other arrays, other chunks
    grid = Grid.of(private / ARTIFACT[mode], f"d5_n30_{name}")
    path = flip_in_chunk(grid, grid.chunk_of(_element(built, mode, name, state)))
    assert _answers(private, (2, 3), mode, small) == others
    for _attempt in range(2):
        with pytest.raises(ArtifactError, match=rf"^{re.escape(str(path))}: chunk 0 fails its crc32c"):
            call(*state, **GAME, mode=mode, artifacts_dir=private)
    assert _answers(private, (2, 3), mode, small) == others
    if call is decide:  # value reads another array (its own chunk): still answers
        assert value(*state, **GAME, mode=mode, artifacts_dir=private) == reference[0]
    else:
        assert decide(*state, **GAME, mode=mode, rng=1, artifacts_dir=private) == reference[2]


def test_issue_11_example_a_changed_value_never_becomes_an_answer(built, private):
    """The value at (20, 25) changed in its chunk, which is re-encoded with a valid crc32c (and the shard's
    index rewritten with its crc32c): only the chunk's sha256 digest can tell, and it does."""
    good = value(20, 25, **GAME, artifacts_dir=built)
    grid = Grid.of(private / ARTIFACT["sequential"], "d5_n30_value")
    path = rewrite_chunk(grid, 0, lambda b: b.__setitem__((20, 25), 0.25 if b[20, 25] != 0.25 else 0.5))
    with pytest.raises(ArtifactError, match=rf"^{re.escape(str(path))}: chunk 0 does not match its sha256"):
        value(20, 25, **GAME, artifacts_dir=private)
    assert decide(20, 25, **GAME, artifacts_dir=private) == decide(20, 25, **GAME, artifacts_dir=built)
    assert good == value(20, 25, **GAME, artifacts_dir=built)


def test_a_rewritten_optimal_choice_is_refused(built, private):
    grid = Grid.of(private / ARTIFACT["sequential"], "d5_n30_optimal")
    path = rewrite_chunk(grid, 0, lambda block: block.__setitem__((12, 25), block[12, 25] ^ 0b11111))
    with pytest.raises(ArtifactError, match=rf"^{re.escape(str(path))}: chunk 0 does not match its sha256"):
        decide(12, 25, **GAME, artifacts_dir=private)


def test_answers_write_nothing_and_leave_exactly_the_files_there_were(built, private):
    state = _mixed_state(built)
    reference = [_answers(built, s, m) for s in ((12, 25), state) for m in ("sequential", "simultaneous")]
    names = sorted(str(p.relative_to(private)) for p in private.rglob("*"))
    with no_writes(private):
        assert [_answers(private, s, m) for s in ((12, 25), state) for m in ("sequential", "simultaneous")] == reference
    assert sorted(str(p.relative_to(private)) for p in private.rglob("*")) == names
    assert not (private / ".runtime").exists()


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
        assert errors[0].startswith("Error: ") and re.search("corrupted|fails its crc32c", errors[0]), errors[0]
