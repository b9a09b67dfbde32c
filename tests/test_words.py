"""Counts and their nouns: one rule (lookup/words.py, and the page's copy in static/js/api.js), singular for exactly
one, in every text that counts something ("reroll 1 dice", "1 turns counted" and "1 opponent(s)" were printed)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from lookup.words import counted

ROOT = Path(__file__).resolve().parent.parent
CASES = [(1, "die"), (2, "die"), (0, "die"), (1, "box"), (3, "box"), (1, "decision"), (5, "decision"),
         (1, "random opponent"), (-1, "point"), (2_097_572_400, "deal")]


def test_counted():
    assert [counted(n, noun) for n, noun in CASES[:7]] == [
        "1 die", "2 dice", "0 dice", "1 box", "3 boxes", "1 decision", "5 decisions"]
    assert counted(1, "point", spec="+d") == "+1 point" and counted(-3, "point", spec="+d") == "-3 points"
    assert counted(12_000, "game", spec=",") == "12,000 games" and counted(2, "child", "children") == "2 children"


def test_the_page_counts_as_the_library(tmp_path):
    """static/js/api.js's ``counted`` gives the library's words (numbers with thousands separators, as the page
    shows counts of deals)."""
    if shutil.which("node") is None:
        pytest.skip("node not installed")
    source = (ROOT / "webapp" / "static" / "js" / "api.js").read_text()
    (tmp_path / "api.mjs").write_text(source)
    script = (f"import {{counted}} from {json.dumps(str(tmp_path / 'api.mjs'))};\n"
              f"console.log(JSON.stringify({json.dumps(CASES)}.map(([n, noun]) => counted(n, noun))));")
    out = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == [counted(n, noun, spec=",") for n, noun in CASES]


def test_the_games_texts_count_in_words():
    """Texts of the protocol's games and of the library with a count of one."""
    from lookup.dicerace.game import DiceRace, RaceState
    from lookup.farkle.game import FarkleGame, FarkleState
    from lookup.farkle.rules import Size, get_rules
    from lookup.g151.game import G151Game, G151State
    from lookup.g151.rules import get_rules as g151_rules
    from lookup.poker.game import PokerHand
    from lookup.poker.problem import make_problem
    from lookup.review import Review
    from lookup.yahtzee.turn import action_text

    assert action_text([1, 2, 3, 4, 5], (True, False, False, False, False), (2, 3, 4, 5), None) == \
        "keep [2, 3, 4, 5], reroll 1 die"
    g151 = G151Game(g151_rules("stated"), 1000, 1)
    assert "1 turn counted" in g151.state_text(G151State((300,), 0, 0, True, 1))
    farkle = FarkleGame(get_rules("facebook"), Size(3000, -1000, 6))
    one_die = FarkleState((0, 0), (0, 0), 0, 350, 1, None, False)
    assert "and 1 die to roll" in farkle.state_text(one_die)
    assert "rolls 1 die with" in farkle.state_text(one_die._replace(rolling=True))
    race = DiceRace(5, 30, "sequential")
    assert "rolling 1 die" in race.state_text(RaceState((3, 4), 0, (1,)))
    assert race.action_text(RaceState((3, 4), 0, (2,)), 1) == "the roll: a 1 shows, 1 point"
    review = Review("pig", {}, 0, "P(win)", True, (), 0.5, 0.5, 0.0, 0.0, 1, 0, False)
    assert review.summary()[1].startswith("  1 decision, 0 below the best;")
    poker = PokerHand(1, 100, 50, None)  # the text of the deal reads no table
    assert poker.state_text(poker.initial_state()).startswith("1 opponent all in")
    with pytest.raises(ValueError, match="has 1 card;"):
        make_problem(["As"])
