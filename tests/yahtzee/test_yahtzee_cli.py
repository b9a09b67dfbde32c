"""`dicetables yahtzee decide / value / play`: sheets from --box, files and standard input, --json, a whole
game with hints, and bad input as a message with a non-zero exit status."""

import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

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
    (["play", "--sheet", "-"], "{}", "standard input holds the moves"),
    (["play", "--seed", "1", "--enter"], None, "give one of the two"),
])
def test_bad_input_is_a_message_and_exit_1(hasbro_tables, args, stdin, message):
    result = _run("yahtzee", *args, "--artifacts", hasbro_tables, input=stdin)
    assert result.exit_code == 1, result.output
    assert message in result.output and "Traceback" not in result.output


def _replay(seed: int, tables: Path) -> tuple[int, list[str]]:
    """The game `play --seed SEED --auto` must play, replayed with lookup's advice and the documented dice
    stream; the final score counted here from the boxes (upper bonus 35 at 63, +100 per further Yahtzee)."""
    rng = random.Random(seed)
    sheet, bonus, boxes = Sheet.empty("hasbro"), 0, []
    while not sheet.finished:
        dice = [rng.randint(1, 6) for _ in range(5)]
        for rerolls in (2, 1):
            keep = list(decide(dice, rerolls, sheet, artifacts_dir=tables).keep)
            if len(keep) == 5:
                break
            dice = sorted(keep) + [rng.randint(1, 6) for _ in range(5 - len(keep))]
        box = decide(dice, 0, sheet, artifacts_dir=tables).category
        bonus += 100 * (len(set(dice)) == 1 and sheet.boxes[11] == 50)
        sheet.score(box, dice)
        boxes.append(box)
    upper = sum(sheet.boxes[:6])
    return sum(sheet.boxes) + 35 * (upper >= 63) + bonus, boxes


@pytest.mark.parametrize("seed", [1, 2])
def test_play_auto_plays_a_whole_game_following_the_hints(hasbro_tables, seed):
    result = _run("yahtzee", "play", "--seed", seed, "--auto", "--top", 1, "--artifacts", hasbro_tables)
    assert result.exit_code == 0, result.output
    total, boxes = _replay(seed, hasbro_tables)
    assert re.findall(r"scored \d+ in (\w+)", result.output) == boxes
    assert f"game over: final score {total} " in result.output
    assert f"expected {value({}, artifacts_dir=hasbro_tables):.4f}" in result.output
    assert result.output.count("hint:") >= 13 and "expected final" in result.output


def test_play_with_entered_dice_tracks_joker_and_yahtzee_bonuses(hasbro_tables):
    """Thirteen Yahtzees of sixes, each scored where the hint says: the Yahtzee box 50, then twelve
    Yahtzee bonuses (+1200) and the forced Joker: sixes 30, ones..fives 0, 3K/4K/chance 30, full house 25,
    straights 30 and 40 -> 30 + 235 + 1200 = 1465, whatever the order of the boxes."""
    moves = "6 6 6 6 6\nall\n\n" * 13
    result = _run("yahtzee", "play", "--enter", "--artifacts", hasbro_tables, input=moves)
    assert result.exit_code == 0, result.output
    assert "game over: final score 1465 " in result.output
    assert "Yahtzee bonus 1200, total 1465" in result.output


def test_play_typed_moves_and_a_bad_move_from_a_pipe(hasbro_tables):
    # keep the two 3s, two new dice typed, keep them all, score them as threes
    good = "1 3 3 5 6\n3 3\n2 4 3\nall\nthrees\n"
    result = _run("yahtzee", "play", "--enter", "--artifacts", hasbro_tables, input=good)
    assert result.exit_code == 1 and "the input ended before the game" in result.output  # 12 turns unplayed
    assert "roll: 3 3 2 4 3" in result.output and "scored 9 in threes" in result.output
    for moves, message in (("1 3 3 5 6\n3 9\n", "cannot keep 3 9"), ("1 3 3 5 7\n", "give 5 faces from 1 to 6"),
                           ("1 3 3 5 6\nall\nyahtzee\n\n", None), ("1 3 3 5 6\nall\nfoo\n", "box 'foo'")):
        result = _run("yahtzee", "play", "--enter", "--artifacts", hasbro_tables, input=moves)
        assert result.exit_code == 1 and "Traceback" not in result.output
        if message:
            assert message in result.output, result.output


def test_play_a_forced_order_rule_set(forced_tables):
    rules = get_rules("scandinavian+forced")
    result = _run("yahtzee", "play", "--rules", rules.name, "--seed", 3, "--auto", "--artifacts", forced_tables)
    assert result.exit_code == 0, result.output
    assert re.findall(r"scored \d+ in (\w+)", result.output) == list(rules.categories)
    points = list(map(int, re.findall(r"scored (\d+) in", result.output)))
    bonus = 50 if sum(points[:6]) >= 63 else 0  # Scandinavian: 50 for 63 in the upper boxes, no Yahtzee bonus
    assert f"game over: final score {sum(points) + bonus} " in result.output
