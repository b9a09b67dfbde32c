"""The command line refuses what it cannot work on (issue 24, items 4 and 5): files that are not bounded
regular files, numbers that are not finite or out of range, a command without input; every decide command
takes --json; tic-tac-toe speaks in the squares a player names; no equity call compiles numba kernels."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from pipeline.cli import main
from tests import shared


def run(*args: str, stdin: bytes | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=stdin, catch_exceptions=False)
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def poker_artifacts(tmp_path_factory) -> Path:
    return shared.poker_evaluator(tmp_path_factory)


@pytest.fixture(scope="module")
def tictactoe_artifacts(tmp_path_factory) -> Path:
    return shared.tictactoe(tmp_path_factory)


# --- files ----------------------------------------------------------------------------------------------


def test_a_sheet_must_be_a_bounded_regular_json_file(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # a plain open() would wait for a writer for ever
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 5000 + "]" * 5000)
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (2 << 20) + b"{}")
    for source, words in ((fifo, "FIFO"), ("/dev/zero", "character device"), (deep, "nested too deeply"),
                          (big, "bytes"), (tmp_path / "none.json", "not found"), (tmp_path, "directory")):
        code, out = run("yahtzee", "value", "--sheet", str(source), "--artifacts", str(tmp_path))
        assert code == 1 and f"--sheet {source}" in out and words in out, out


def test_a_sheet_on_standard_input_is_bounded_too(tmp_path):
    code, out = run("yahtzee", "value", "--sheet", "-", "--artifacts", str(tmp_path), stdin=b"y\n" * (1 << 20))
    assert code == 1 and "more than" in out
    code, out = run("yahtzee", "value", "--sheet", "-", "--artifacts", str(tmp_path), stdin=b"[" * 100_000)
    assert code == 1 and "nested too deeply" in out


def test_a_policy_file_must_be_a_bounded_regular_file(tmp_path):
    fifo = tmp_path / "p.npy"
    os.mkfifo(fifo)
    code, out = run("dicerace", "match", str(fifo), "blind", "--dice", "3", "--target", "20",
                    "--artifacts", str(tmp_path))
    assert code != 0 and "FIFO" in out


# --- numbers --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("option", "value", "named"), [
    ("--budget", "inf", "budget"), ("--budget", "nan", "budget"), ("--budget", "1e308", "budget"),
    ("--budget", "-1", "budget"), ("--samples", str(2**63), "samples"), ("--seed", str(2**70), "seed"),
])
def test_poker_equity_refuses_numbers_out_of_range(poker_artifacts, option, value, named):
    code, out = run("-q", "poker", "equity", "AsAh", "KdKc", "--board", "2c7d9h", option, value,
                    "--artifacts", str(poker_artifacts))
    assert code == 1 and named in out and "Traceback" not in out, out


def test_seeds_and_game_counts_are_bounded(tmp_path):
    code, out = run("dicerace", "decide", "0", "0", "--seed", str(2**64), "--artifacts", str(tmp_path))
    assert code == 2 and "--seed" in out
    code, out = run("g151", "simulate", "optimal", "--games", "0")
    assert code == 2 and "--games" in out


def test_the_library_names_bad_numbers_for_every_caller():
    from lookup.dominoes import move_values
    from lookup.poker.equity import equity

    for kwargs, named in ((dict(budget=float("nan")), "budget"), (dict(budget=float("inf")), "budget"),
                          (dict(samples=2**63), "samples"), (dict(seed=2**64), "seed"), (dict(seed=-1), "seed")):
        with pytest.raises(ValueError, match=named):
            equity(["AsAh", "KdKc"], **kwargs)
    for hand in (None, "6-6,1-1", {"6-6": 1}, 7, ["6-6"] * 10**5):
        with pytest.raises(ValueError, match="hand must be a list"):
            move_values(hand, "", 0)


# --- commands -------------------------------------------------------------------------------------------


def test_poker_equity_without_a_hand_is_an_error(tmp_path):
    code, out = run("poker", "equity", "--opponents", "2", "--artifacts", str(tmp_path))
    assert code == 1 and "no hand" in out


def test_a_cold_kernel_cache_answers_with_the_numpy_engine(poker_artifacts, monkeypatch):
    """No call compiles: without the compiled cache the numpy engine counts, and says so."""
    from pipeline.poker import warm

    monkeypatch.setattr(warm, "kernels_cached", lambda: False)
    code, out = run("poker", "equity", "AsAh", "KdKc", "--board", "2c7d9h", "--json",
                    "--artifacts", str(poker_artifacts))
    assert code == 0 and "not cached yet" in out
    answer = json.loads(out[out.index("{"):])
    assert answer["method"] == "exact (numpy)" and answer["exact"]


def test_every_decide_and_value_command_takes_json():
    from pipeline.declaration import declarations

    for game in declarations():
        group = main.commands[game.game_name]
        for name in ("decide", "value"):
            if name in group.commands:
                params = {p.name for p in group.commands[name].params}
                assert "as_json" in params, f"{game.game_name} {name}"


def test_dominoes_decide_json():
    code, out = run("dominoes", "decide", "--hand", "6-6,1-1,0-0,0-1,0-2,0-3,0-4", "--seat", "0", "6-6", "draw",
                    "1-6L", "--depth", "1", "--samples", "2", "--json")
    assert code == 0, out
    answer = json.loads(out)
    assert answer["move"] in {m["move"] for m in answer["move_values"]} and answer["seat"] == 0


def test_tictactoe_decide_shows_the_board_the_side_and_squares_one_to_nine(tictactoe_artifacts):
    code, out = run("tictactoe", "decide", "X.O.X....", "--artifacts", str(tictactoe_artifacts))
    assert code == 0, out
    lines = out.splitlines()
    assert lines[:5] == [" X | 2 | O", "---+---+---", " 4 | X | 6", "---+---+---", " 7 | 8 | 9"]
    assert lines[5] == "O to move: play square 9 (row 3, column 3)"  # O must block the diagonal
    code, out = run("tictactoe", "decide", "X.O.X....", "--json", "--artifacts", str(tictactoe_artifacts))
    answer = json.loads(out)
    assert (answer["to_move"], answer["square"], answer["row"], answer["column"], answer["move"]) == ("O", 9, 3, 3, 8)
