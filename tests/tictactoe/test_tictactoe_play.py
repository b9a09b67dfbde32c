"""lookup.tictactoe answers from the built tables, bad input, missing and corrupted tables, the CLI."""

import shutil
from fractions import Fraction

import pytest
from click.testing import CliRunner

from lookup.store import ArtifactError, read_meta
from lookup.tictactoe import best_moves, decide, value
from pipeline.cli import main

_LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def _won(board: str, mark: str) -> bool:
    return any(all(board[c] == mark for c in line) for line in _LINES)


def _after(board: str, m: int) -> int:
    """X's result (1 / 0 / -1) after X plays cell m, then best play by X, O always taking the lowest free cell."""
    b = board[:m] + "X" + board[m + 1:]
    if _won(b, "X") or "." not in b:
        return 1 if _won(b, "X") else 0
    o = b.index(".")
    b = b[:o] + "O" + b[o + 1:]
    if _won(b, "O") or "." not in b:
        return -1 if _won(b, "O") else 0
    return max(_after(b, c) for c, x in enumerate(b) if x == ".")


def _best_against_first(board: str) -> list[int]:
    """The cells of highest value for X against "first", by a plain search of the game (no tables)."""
    values = {m: _after(board, m) for m, c in enumerate(board) if c == "."}
    return [m for m, v in values.items() if v == max(values.values())]


def test_answers(built):
    assert value(".........", artifacts_dir=built) == 0
    assert decide("XX..O.O..", artifacts_dir=built) == 2          # X completes the top row
    assert best_moves("XX..O.O..", "random", artifacts_dir=built) == [2]
    # Against "first" (the opponent takes the lowest free cell): every best reply, by a plain search below.
    best = _best_against_first("X...O....")
    assert best_moves("X...O....", "first", artifacts_dir=built) == best
    assert decide("X...O....", "first", artifacts_dir=built) == best[0]
    assert value("X.O......", "random", artifacts_dir=built) == 1.0  # X forces a win here
    assert value("XXXOO....", artifacts_dir=built) == -1  # finished: O, who would move, has lost
    assert decide((1, 1, 0, 0, 2, 0, 2, 0, 0), artifacts_dir=built) == 2
    # best response to random moving first: the exact value of the stats, rounded once
    exact = read_meta(built / "tictactoe-tables.zarr")["stats"]["best_response_from_start"]["random"]["first"]
    assert value(".........", "random", artifacts_dir=built) == float(Fraction(exact))


@pytest.mark.parametrize("board, model, message", [
    ("XXXOOO...", None, "both X and O"), ("XX.......", None, "2 X and 0 O"), ("XXXOO....", None, "game is over"),
    ("X.O......", "clever", "unknown opponent model"), (12, None, "9-character"),
    ((1, 1, 0, 0, 2, 0, 2, 0, True), None, "9-tuple"), ("X.O......", "strong", "unknown opponent model"),
])
def test_bad_input(built, board, model, message):
    with pytest.raises(ValueError, match=message):
        decide(board, model, artifacts_dir=built)


def test_missing_and_corrupted_tables(built, tmp_path):
    with pytest.raises(ArtifactError, match="not built"):
        decide(".........", artifacts_dir=tmp_path)
    root = tmp_path / "artifacts"
    shutil.copytree(built, root)
    shard = max((root / "tictactoe-tables.zarr" / "best_response").rglob("*"), key=lambda p: p.stat().st_size)
    raw = bytearray(shard.read_bytes())
    raw[len(raw) // 2] ^= 0x10
    shard.write_bytes(bytes(raw))
    with pytest.raises(ArtifactError, match="best_response|corrupted"):
        decide(".........", "random", artifacts_dir=root)


def test_cli(built):
    run = CliRunner().invoke
    out = run(main, ["tictactoe", "decide", "X.O.X....", "--model", "random", "--artifacts", str(built)])
    # squares as a player names them: 1..9 row by row (cell 8 of the library), after the board
    assert out.exit_code == 0 and "O to move: play square 9 (row 3, column 3)" in out.output, out.output
    out = run(main, ["tictactoe", "decide", "XXXOOO...", "--artifacts", str(built)])
    assert out.exit_code == 1 and "both X and O" in out.output
    out = run(main, ["tictactoe", "decide", "X.O......", "--model", "clever", "--artifacts", str(built)])
    assert out.exit_code == 1 and "unknown opponent model 'clever'" in out.output
    out = run(main, ["tictactoe", "match", "predictive", "first"])
    assert out.exit_code == 0 and "moving first: win 1 (100.00%)" in out.output, out.output
    out = run(main, ["tictactoe", "match", "genius", "first"])
    assert out.exit_code == 1 and "unknown player 'genius'" in out.output


def test_cli_decide_json(built):
    import json

    out = CliRunner().invoke(main, ["tictactoe", "decide", "XX..O.O..", "--json", "--artifacts", str(built)])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output) == {"board": "XX..O.O..", "model": None, "to_move": "X", "move": 2, "best_moves": [2],
                                      "square": 3, "row": 1, "column": 3, "best_squares": [3], "value": 1.0}
    out = CliRunner().invoke(main, ["tictactoe", "decide", "XXXOOO...", "--json", "--artifacts", str(built)])
    assert out.exit_code == 1 and "both X and O" in out.output
