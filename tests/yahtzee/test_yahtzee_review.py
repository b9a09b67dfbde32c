"""Reviewing a Yahtzee game through the protocol (``lookup.review`` over the Yahtzee advisors): optimal games cost
exactly 0, known mistakes cost what ``explain`` says (the difference of the two options' values), in points and in
probability; the value at the end is the value at the start less the costs plus the luck; bad records are
ValueErrors naming the event; the command line (review, play) says the same."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lookup.games import open_setup
from lookup.protocol import CHANCE
from lookup.records import load_record, parse_record, record_of
from lookup.review import judge, review
from lookup.simulate import draw, play
from lookup.yahtzee import CATEGORIES, explain
from pipeline.cli import main
from tests import shared
from tests.fuzz_inputs import JUNK, integers

FORCED = "scandinavian+forced"


@pytest.fixture(scope="module")
def forced_towin(tmp_path_factory, forced_tables, towin_tables) -> Path:
    """scandinavian+forced value tables and play-to-win tables in one directory (a private copy: small)."""
    return shared.private_copy(tmp_path_factory, "forced_towin", forced_tables, towin_tables)


def setup_of(rules: str, **objective: int) -> dict[str, Any]:
    if objective:
        ((kind, target),) = objective.items()
        return {"rules": rules, "objective": kind, "target": target}
    return {"rules": rules}


def play_record(rules: str, seed: int, root: Path, every: int = 0, **objective: int) -> dict[str, Any]:
    """A whole game as a record: the dice rolled with ``random.Random(seed)``, each decision the tables' own, but
    every ``every``-th decision (0: none) the worst option ``explain`` lists."""
    advisor = open_setup("yahtzee", setup_of(rules, **objective), root)
    game, count = advisor.game, [0]

    def player(state: Any, rng: random.Random) -> Any:
        count[0] += 1
        if every and count[0] % every == 0:
            sheet = game.sheet(state)
            last = explain(list(state.dice), state.rerolls, sheet, rules, artifacts_dir=root, **objective)[-1]
            return last.category if state.rerolls == 0 else last.keep
        return advisor.decide(state)

    steps, _ = play(game, [player], random.Random(seed))
    return record_of(game, setup_of(rules, **objective), steps, seat=0).to_dict()


def explained_costs(record: dict[str, Any], root: Path, **objective: int) -> list[float]:
    """Each decision's cost computed from ``explain`` alone: the best option's value minus the chosen one's
    (points, or probabilities with ``objective``), the record replayed on a Sheet."""
    rules = record["setup"]["rules"]
    advisor = open_setup("yahtzee", record["setup"], root)
    game, state, costs = advisor.game, advisor.game.initial_state(), []
    unit = "probability" if objective else "expected_final"
    for event in record["events"]:
        if game.to_move(state) != CHANCE:
            options = explain(list(state.dice), state.rerolls, game.sheet(state), rules, artifacts_dir=root,
                              **objective)
            if state.rerolls:
                chosen = next(o for o in options if list(o.keep) == event)
            else:
                chosen = next(o for o in options if o.category == event)
            costs.append(getattr(options[0], unit) - getattr(chosen, unit))
        state = game.apply(state, game.parse_action(state, event))
    return costs


@pytest.mark.parametrize(("rules", "seed"), [("hasbro", 1), ("hasbro", 2), (FORCED, 3)])
def test_an_optimal_game_costs_exactly_nothing(hasbro_tables, forced_tables, rules, seed):
    root = hasbro_tables if rules == "hasbro" else forced_tables
    record = play_record(rules, seed, root)
    advisor = open_setup("yahtzee", record["setup"], root)
    result = review(advisor, record)
    assert result.decisions >= 26 and result.unit == "points"  # at least a keep and a box per turn
    assert result.total_cost == 0.0 and result.mistakes == 0 and result.costliest() == []
    state = advisor.game.initial_state()
    for event in record["events"]:
        state = advisor.game.apply(state, advisor.game.parse_action(state, event))
    assert result.finished and result.end == advisor.game.totals(state)[0]
    assert result.end == pytest.approx(result.start + result.total_luck, abs=1e-9)
    if rules == "hasbro":
        assert round(result.start, 7) == 254.5877287


@pytest.mark.parametrize(("rules", "seed", "every"), [("hasbro", 4, 5), (FORCED, 5, 2)])
def test_known_mistakes_cost_what_explain_says(hasbro_tables, forced_tables, rules, seed, every):
    root = hasbro_tables if rules == "hasbro" else forced_tables
    record = play_record(rules, seed, root, every)
    result = review(open_setup("yahtzee", record["setup"], root), record)
    want = explained_costs(record, root)
    decisions = [e for e in result.events if e.kind == "decision"]
    assert len(decisions) == len(want)
    for decision, cost in zip(decisions, want, strict=True):
        assert decision.cost == pytest.approx(cost, abs=1e-9), decision
        assert decision.cost >= 0 and (decision.cost == 0) == (cost <= 1e-9)
        assert decision.best_value - decision.chosen_value == pytest.approx(decision.cost, abs=1e-9)
    assert result.mistakes >= 3
    assert result.total_cost == pytest.approx(math.fsum(want), abs=1e-8)
    worst_first = result.costliest(3)
    assert [d.cost for d in worst_first] == sorted((d.cost for d in decisions if d.cost), reverse=True)[:3]
    assert result.end == pytest.approx(result.start - result.total_cost + result.total_luck, abs=1e-9)


def test_a_large_straight_scored_as_chance(hasbro_tables):
    """A large straight in chance: keeping all (twice) was right, the box was not."""
    record = {"game": "yahtzee", "setup": {"rules": "hasbro"},
              "events": [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5], [5, 4, 3, 2, 1], "chance"]}
    advisor = open_setup("yahtzee", record["setup"], hasbro_tables)
    result = review(advisor, record)
    stop, again, box = (e for e in result.events if e.kind == "decision")
    assert (stop.text, stop.cost, again.cost) == ("keep all", 0.0, 0.0)
    options = explain([1, 2, 3, 4, 5], 0, {}, artifacts_dir=hasbro_tables)
    chance = next(o for o in options if o.category == "chance")
    assert options[0].category == "large_straight"
    assert box.cost == pytest.approx(options[0].expected_final - chance.expected_final, abs=1e-9)
    assert (box.text, box.best_text, box.best) == ("score chance (15 points)", "score large straight (40 points)",
                                                    "large_straight")
    assert not result.finished and result.end == pytest.approx(chance.expected_final, abs=1e-9)
    game = advisor.game
    state = game.apply(game.initial_state(), [5, 4, 3, 2, 1])
    state = game.apply(game.apply(state, [1, 2, 3, 4, 5]), [1, 2, 3, 4, 5])
    assert judge(advisor, state, "Chance").cost == box.cost  # a box in any spelling
    assert judge(advisor, game.apply(game.initial_state(), [1, 2, 3, 4, 5]), [5, 4, 3, 2, 1]).cost == 0


@pytest.mark.parametrize("objective", [{"goal": 130}, {"beat": 120}])
def test_play_to_win_costs_are_probabilities(forced_towin, objective):
    """A forced-order game played to a goal (or against a score): the goal policy costs 0 in probability,
    and deliberate mistakes cost the difference of ``explain``'s probabilities."""
    optimal = play_record(FORCED, 6, forced_towin, **objective)
    result = review(open_setup("yahtzee", optimal["setup"], forced_towin), optimal)
    assert result.unit in ("P(goal)", "P(win)") and result.total_cost == 0.0
    assert result.end in (0.0, 0.5, 1.0) and 0 < result.start < 1
    flawed = play_record(FORCED, 7, forced_towin, 2, **objective)
    result = review(open_setup("yahtzee", flawed["setup"], forced_towin), flawed)
    want = explained_costs(flawed, forced_towin, **objective)
    assert [e.cost for e in result.events if e.kind == "decision"] == pytest.approx(want, abs=1e-12)
    assert result.total_cost > 0
    assert result.end == pytest.approx(result.start - result.total_cost + result.total_luck, abs=1e-9)


BASE = {"game": "yahtzee", "setup": {"rules": "hasbro"},
        "events": [[1, 3, 3, 5, 6], [3, 3, 6], [2, 3, 3, 6, 6], [3, 3, 6, 6], [3, 3, 6, 6, 6], "full_house",
                   [2, 2, 4, 5, 6], [2, 2, 4, 5, 6], [2, 2, 4, 5, 6], "chance"]}


def _edit(index: int, new: Any) -> dict[str, Any]:
    record = json.loads(json.dumps(BASE))
    if new is ...:
        del record["events"][index]
    else:
        record["events"][index] = new
    return record


@pytest.mark.parametrize(("record", "message"), [
    ([BASE], "game record must be a JSON object, got list"),
    ({**BASE, "events": "x"}, "events must be a list"),
    (_edit(0, [1, 3, 3, 5]), "event 1 (chance): expected 5 dice, got 4"),
    (_edit(0, [1, 3, 3, 5, 7]), "event 1 (chance): die face 7 outside 1..6"),
    (_edit(0, [1, 3, 3, 5, True]), "event 1 (chance): dice[4] must be an integer"),
    (_edit(1, [3, 3, 4]), "event 2 (player 1) | action [3, 3, 4] is not legal here"),
    (_edit(2, [2, 3, 4, 6, 1]), "event 3 (chance): the roll [1, 2, 3, 4, 6] does not hold the dice kept, [3, 3, 6]"),
    (_edit(0, "13x56"), "event 1 (chance): '13x56' is not a die's face (digits, e.g. 1 3 3 5 6 or 13356)"),
    (_edit(0, "1335"), "event 1 (chance): expected 5 dice, got 4"),
    (_edit(2, "9"), "event 3 (chance): a reroll: 5 dice, or the 2 dice rolled again; got 1: [9]"),
    (_edit(2, "22222"), "event 3 (chance): the roll [2, 2, 2, 2, 2] does not hold the dice kept, [3, 3, 6]"),
    (_edit(1, "3 4"), "event 2 (player 1) | action \"3 4\" is not legal here"),  # keeps typed as dice too
    (_edit(9, "bogus"), "event 10 (player 1) | action \"bogus\" is not legal here"),
    (_edit(9, 12), "event 10 (player 1) | action 12 is not legal here"),
    (_edit(9, "full_house"), "event 10 (player 1) | action \"full_house\" is not legal here"),
    ({**BASE, "player": "me"}, "unknown key 'player'"),
    ({**BASE, "version": 1}, "version 1; this reader knows version 2"),
    ({**BASE, "setup": {"rules": "nope"}}, "nope"),
    ({**BASE, "setup": {"rules": "hasbro", "objective": "goal"}}, "target"),
    ({**BASE, "start": {"sheets": [{"ones": 7}], "to_move": 0}}, "start: box ones cannot hold 7 points"),
    # Joker (hasbro, forced): a Yahtzee of threes with the Yahtzee box filled must go in threes.
    ({**BASE, "start": {"sheets": [{"yahtzee": 50}]}, "events": [[3] * 5, [3] * 5, [3] * 5, "chance"]},
     "legal: \"threes\""),
    # Forced order: the first box of a Scandinavian forced game is ones.
    ({**BASE, "setup": {"rules": FORCED}, "events": [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5], [1, 2, 3, 4, 5], "chance"]},
     "legal: \"ones\""),
])
def test_bad_records_name_the_event(hasbro_tables, forced_tables, record, message):
    root = forced_tables if isinstance(record, dict) and record.get("setup", {}).get("rules") == FORCED else \
        hasbro_tables
    with pytest.raises(ValueError) as info:
        parsed = parse_record(record)
        review(open_setup("yahtzee", parsed.setup, root), parsed)
    assert all(part in str(info.value) for part in message.split(" | ")), str(info.value)


def test_rolls_typed_as_at_a_table(hasbro_tables):
    """A roll as people type it (digits together, spaced or comma separated, or digits sent as a JSON number) and,
    at a reroll, only the dice rolled again; a keep typed as dice too: the same game as BASE, whose rolls are written
    out whole."""
    typed = {**BASE, "events": ["13356", "6 3 3", "2 6", [3, 3, 6, 6], 6, "full_house", "2,2,4,5,6",
                                [2, 2, 4, 5, 6], [2, 2, 4, 5, 6], "chance"]}
    advisor = open_setup("yahtzee", BASE["setup"], hasbro_tables)
    got = review(advisor, typed)
    assert [e.event for e in got.events] == BASE["events"]
    assert got.as_dict()["events"] == review(advisor, BASE).as_dict()["events"]


def test_record_round_trip_and_files(tmp_path):
    record = parse_record(BASE)
    assert parse_record(record.to_dict()) == record and record.to_dict()["version"] == 2
    assert parse_record(json.loads(record.to_json())) == record
    path = tmp_path / "game.json"
    path.write_text(json.dumps(BASE))
    assert load_record(path) == record
    for bad, message in ((tmp_path / "missing.json", "file not found"), (tmp_path, "not a regular file")):
        with pytest.raises(ValueError, match=message):
            load_record(bad)
    path.write_text(json.dumps(BASE) + " " * (256 << 10))
    with pytest.raises(ValueError, match="allowed; refused"):
        load_record(path)
    path.write_text("[" * 100 + "]" * 100)
    with pytest.raises(ValueError, match="nested too deeply"):
        load_record(path)


def _run(*args: Any, input: str | None = None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def test_cli_review_text_json_and_standard_input(hasbro_tables, tmp_path):
    record = play_record("hasbro", 8, hasbro_tables, 7)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    want = review(open_setup("yahtzee", record["setup"], hasbro_tables), record)
    got = _run("yahtzee", "review", path, "--artifacts", hasbro_tables, "--json")
    assert got.exit_code == 0, got.output
    assert json.loads(got.output) == json.loads(json.dumps(want.as_dict()))
    text = _run("yahtzee", "review", "-", "--artifacts", hasbro_tables, input=json.dumps(record))
    assert text.exit_code == 0, text.output
    assert "\n".join(want.summary()) in text.output
    bad = _run("yahtzee", "review", "-", "--artifacts", hasbro_tables, input=json.dumps(_edit(9, "x")))
    assert bad.exit_code == 1 and "event 10 (player 1)" in bad.output and "Traceback" not in bad.output


def test_play_says_what_a_deviation_cost_and_records_the_game(hasbro_tables, tmp_path):
    """`play --enter`: a large straight (typed 1 2 3 4 5) kept (all) and scored in chance; then every turn rolls five
    sixes, keeps them and takes the first box offered. The cost is said after the move, the game ends with the
    review, the record is saved."""
    chance = explain([1, 2, 3, 4, 5], 0, {}, artifacts_dir=hasbro_tables)
    cost = chance[0].expected_final - next(o for o in chance if o.category == "chance").expected_final
    # Rolls as JSON or in the dice notation (spaced, comma separated): the record holds each as the game writes it.
    moves = "1 2 3 4 5\n1\n1\nchance\n" + "".join(f"{roll}\n1\n1\n1\n" for roll in
                                                      ["[6,6,6,6,6]", "6 6 6 6 6", "6,6,6,6,6"] * 4)
    path = tmp_path / "played.json"
    result = _run("yahtzee", "play", "--enter", "--record", path, "--artifacts", hasbro_tables, input=moves)
    assert result.exit_code == 0, result.output
    assert f"that cost {cost:.4f} (points)" in result.output
    saved = load_record(path)
    assert list(saved.events[:4]) == [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5], [1, 2, 3, 4, 5], "chance"]
    assert len(saved.events) == 13 * 4 and not list(tmp_path.glob(".tmp-*"))
    want = review(open_setup("yahtzee", saved.setup, hasbro_tables), saved)
    assert want.finished and want.events[3].cost == pytest.approx(cost, abs=1e-9)
    assert "\n".join(want.summary()) in result.output
    bad = _run("yahtzee", "play", "--enter", "--record", tmp_path / "no" / "dir.json", "--artifacts", hasbro_tables)
    assert bad.exit_code == 1 and "not a file in an existing directory" in bad.output


def arg(valid: st.SearchStrategy) -> st.SearchStrategy:
    """Mostly valid (3 in 4), else junk."""
    return st.one_of(valid, valid, valid, JUNK)


_EVENT = st.one_of(st.lists(arg(integers(1, 6)), min_size=0, max_size=6), arg(st.sampled_from(CATEGORIES)))
_RECORDS = st.fixed_dictionaries({"game": arg(st.just("yahtzee")), "events": st.one_of(st.lists(_EVENT, max_size=8),
                                                                                      JUNK)},
                                 optional={"setup": arg(st.fixed_dictionaries({"rules": arg(st.just("hasbro"))})),
                                           "version": arg(st.just(2)), "seat": arg(integers(0, 2))})


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_RECORDS)
def test_fuzz_review_answers_or_refuses(hasbro_tables, record):
    advisor = open_setup("yahtzee", {"rules": "hasbro"}, hasbro_tables)
    try:
        got = review(advisor, record)
    except ValueError as exc:
        assert str(exc).strip(), "a ValueError without a message"
    else:
        costs = [e.cost for e in got.events if e.cost is not None]
        assert min(costs, default=0.0) >= 0.0 and got.total_cost == pytest.approx(sum(costs), abs=1e-9)


def test_a_drawn_game_replays(hasbro_tables):
    """The protocol's own chance, drawn exactly, replays to the same state through the record."""
    advisor = open_setup("yahtzee", {"rules": "hasbro"}, hasbro_tables)
    game, rng = advisor.game, random.Random(3)
    steps, final = play(game, [lambda s, r: advisor.decide(s)], rng,
                        chance=lambda s, r: draw(game.chance_outcomes(s), r))
    assert parse_record(record_of(game, {"rules": "hasbro"}, steps).to_dict()).events
