"""`dicetables yahtzee decide / value / play`: sheets from --box, files and standard input, --json, a whole
game with hints (the protocol's play), and bad input as a message with a non-zero exit status."""

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from lookup.games import open_setup
from lookup.records import load_record, replay
from lookup.yahtzee import Sheet, decide, explain, get_rules, value
from pipeline.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "sheet.json"


def _run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def test_the_example_sheet_is_a_valid_hasbro_sheet():
    sheet = Sheet.parse(json.loads(EXAMPLE.read_text()), "hasbro")
    assert sheet.total == 3 + 9 + 24 + 25 + 22 and not sheet.finished


def test_box_options_file_and_stdin_give_the_same_sheet(hasbro_tables):
    boxes = {k: v for k, v in json.loads(EXAMPLE.read_text()).items() if v}
    by_box = [x for pair in zip(["--box"] * len(boxes), [f"{k}={v}" for k, v in boxes.items()], strict=True)
              for x in pair]
    want = value(boxes, artifacts_dir=hasbro_tables)
    for args, stdin in ((by_box, None), (["--sheet", EXAMPLE], None), (["--sheet", "-"], EXAMPLE.read_text())):
        result = _run("yahtzee", "value", *args, "--artifacts", hasbro_tables, "--json", input=stdin)
        assert result.exit_code == 0, result.output
        got = json.loads(result.output)
        assert got["value"] == want and got["total"] == sum(boxes.values()) and got["rules"] == "hasbro"
    # --box on top of a file (a list in sheet order): the box is replaced
    as_list = Sheet.parse(boxes, "hasbro").boxes
    listed = _run("yahtzee", "value", "--sheet", "-", "--box", "chance=5", "--artifacts", hasbro_tables,
                  input=json.dumps(as_list))
    assert listed.exit_code == 0, listed.output
    assert float(listed.output) == pytest.approx(value({**boxes, "chance": 5}, artifacts_dir=hasbro_tables), abs=1e-7)


def test_dice_as_the_page_takes_them(hasbro_tables):
    """One die per argument, the digits together or comma separated: the same question; a word is refused."""
    outputs = {_run("yahtzee", "decide", *dice, "--artifacts", hasbro_tables, "--json").output
               for dice in (["1", "3", "3", "5", "6"], ["13356"], ["1,3,3,5,6"], ["13", "3,56"])}
    assert len(outputs) == 1 and json.loads(outputs.pop())["dice"] == [1, 3, 3, 5, 6]
    bad = _run("yahtzee", "decide", "1", "3", "x", "5", "6", "--artifacts", hasbro_tables)
    assert bad.exit_code == 2 and "'x' is not a die's face" in bad.output


def test_decide_json_is_lookups_decision_and_every_option(hasbro_tables):
    sheet = {"ones": 3, "chance": 22}
    for dice, rerolls in (([1, 3, 3, 5, 6], 2), ([2, 2, 4, 5, 6], 0), ([6, 6, 6, 6, 6], 1)):
        result = _run("yahtzee", "decide", *dice, "--rerolls", rerolls, "--box", "ones=3", "--box", "chance=22",
                      "--artifacts", hasbro_tables, "--json")
        assert result.exit_code == 0, result.output
        got = json.loads(result.output)
        d = decide(dice, rerolls, sheet, artifacts_dir=hasbro_tables)
        assert {k: v for k, v in got.items() if k != "options"} == json.loads(json.dumps(d.as_dict()))
        options = explain(dice, rerolls, sheet, artifacts_dir=hasbro_tables)
        assert got["options"] == [json.loads(json.dumps(o.as_dict())) for o in options]
        assert got["options"][0]["regret"] == 0 and got["expected_final"] == got["options"][0]["expected_final"]


@pytest.mark.parametrize(("args", "stdin", "message"), [
    (["value", "--box", "ones=7"], None, "box ones cannot hold 7 points"),
    (["value", "--box", "ones"], None, "expected NAME=POINTS"),
    (["value", "--box", "ones=x"], None, "points must be a whole number"),
    (["value", "--box", "ones=3", "--box", "ones=4"], None, "--box ones is given twice"),
    (["value", "--box", "nonsense=3"], None, "nonsense"),
    (["value", "--sheet", "-"], "{not json", "standard input: not valid JSON"),
    (["value", "--sheet", "no/such/sheet.json"], None, "sheet file not found"),
    (["value", "--sheet", "."], None, "--sheet .: cannot be read"),
    (["decide", "1", "2", "3", "4", "7"], None, "1..6"),
    (["decide", "1", "2", "3", "4", "5", "--rerolls", "3"], None, "rerolls=3 outside 0..2"),
    (["play", "--seed", "1", "--enter"], None, "give one of the two"),
    (["play", "--position", "{"], None, "--position: not valid JSON"),
])
def test_bad_input_is_a_message_and_exit_1(hasbro_tables, args, stdin, message):
    result = _run("yahtzee", *args, "--artifacts", hasbro_tables, input=stdin)
    assert result.exit_code == 1, result.output
    assert message in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("seed", [1, 2])
def test_play_auto_plays_a_whole_optimal_game(hasbro_tables, seed, tmp_path):
    path = tmp_path / "game.json"
    result = _run("yahtzee", "play", "--seed", seed, "--auto", "--record", path, "--artifacts", hasbro_tables)
    assert result.exit_code == 0, result.output
    record = load_record(path)
    advisor = open_setup("yahtzee", record.setup, hasbro_tables)
    steps, final = replay(advisor.game, record.events)
    assert all(advisor.decide(s.state) == s.action for s in steps if s.mover == 0)  # every decision the advice's
    assert result.output.count("  optimal") == sum(1 for s in steps if s.mover == 0)
    total = advisor.game.totals(final)[0]
    assert f"player 1: {total} points, 0 boxes open; the game is over" in result.output
    assert f"value {value({}, artifacts_dir=hasbro_tables):.4f} at the start, {total:.4f} at the end" in result.output


def test_play_with_entered_dice_tracks_joker_and_yahtzee_bonuses(hasbro_tables):
    """Thirteen Yahtzees of sixes, each kept and scored where the advice says (Enter): the Yahtzee box 50, then
    twelve Yahtzee bonuses (+1200) and the forced Joker: sixes 30, ones..fives 0, 3K/4K/chance 30, full house 25,
    straights 30 and 40 -> 30 + 235 + 1200 = 1465, whatever the order of the boxes."""
    moves = "[6, 6, 6, 6, 6]\n\n\n\n" * 13
    result = _run("yahtzee", "play", "--enter", "--artifacts", hasbro_tables, input=moves)
    assert result.exit_code == 0, result.output
    assert "player 1: 1465 points, 0 boxes open; the game is over" in result.output


def test_play_typed_moves_and_bad_moves_from_a_pipe(hasbro_tables):
    # keep the two 3s (typed as JSON), the two new dice typed, keep them all (twice) and score them as threes
    good = "[1, 3, 3, 5, 6]\n[3, 3]\n[3, 3, 2, 4, 3]\n1\nthrees\n"
    result = _run("yahtzee", "play", "--enter", "--artifacts", hasbro_tables, input=good)
    assert result.exit_code == 1 and "Traceback" not in result.output  # the input ended before the game: Aborted
    assert "chance: rerolls to [2, 3, 3, 3, 4]" in result.output and "score threes (9 points)" in result.output
    for moves, message in (("[1, 3, 3, 5, 6]\n[3, 9]\n", "action [3, 9] is not legal here"),
                           ("[1, 3, 3, 5, 7]\n", "die face 7 outside 1..6"),
                           ("[1, 3, 3, 5, 6]\n1\n1\nfoo\n", 'action "foo" is not legal here')):
        result = _run("yahtzee", "play", "--enter", "--artifacts", hasbro_tables, input=moves)
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert message in result.output, result.output


def test_play_a_forced_order_rule_set(forced_tables):
    rules = get_rules("scandinavian+forced")
    result = _run("yahtzee", "play", "--setup", f"rules={rules.name}", "--seed", 3, "--auto", "--artifacts",
                  forced_tables)
    assert result.exit_code == 0, result.output
    assert re.findall(r"player 1: score ([\w ]+) \(", result.output) == [c.replace("_", " ") for c in rules.categories]
    points = list(map(int, re.findall(r"player 1: score [\w ]+ \((\d+) points?\)", result.output)))
    bonus = 50 if sum(points[:6]) >= 63 else 0  # Scandinavian: 50 for 63 in the upper boxes, no Yahtzee bonus
    assert f"player 1: {sum(points) + bonus} points, 0 boxes open" in result.output
