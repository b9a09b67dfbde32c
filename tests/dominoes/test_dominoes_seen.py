"""Dominoes seen from one seat at a real table (``lookup.dominoes.seen``, the setup's ``you``): whole games dealt and
played here by the rules (``Dominoes``, both hands known to the test), entered through the protocol as the seat sees
them (its tiles and draws, the other's moves without tiles), give at each of the seat's decisions the option values
of ``lookup.dominoes.move_values`` on the history the player would type, and the game's result (a blocked game's
from the other's shown pips, or without them where every hand it may hold gives the same result: checked against
every such hand); bad input is a ValueError naming the problem."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from itertools import combinations

import pytest

from lookup.dominoes import MODEL_NAMES, move_values
from lookup.dominoes import engine as E
from lookup.dominoes.game import Dominoes
from lookup.dominoes.rules import move_name, parse_move, parse_tile, tile_name
from lookup.games import open_setup
from lookup.protocol import CHANCE
from lookup.records import parse_record, record_of, replay
from lookup.review import review

SETTINGS = {"depth": 2, "samples": 3, "max_exact": 50, "endgame": 0, "budget": 300, "seed": 5}


def _setup(**given) -> dict:
    return {"player": "realistic", "models": ["random", "strong"], "max_pip": 6, "hand": 7, **SETTINGS, **given}


def full_game(rules: Dominoes, seed: int):
    """A whole game of ``rules`` dealt by ``seed``, each seat playing a random legal move: (start, end)."""
    rng = random.Random(seed)
    start = state = rules.deal(seed)
    while not rules.is_terminal(state):
        state = rules.apply(state, rng.choice(rules.legal_actions(state)))
    return start, state


def seen_events(start, end, me: int) -> list[str]:
    """The game as seat ``me`` enters it: its dealt tiles, then every move, its own draws followed by the tile,
    the other's without."""
    drew = iter(end.drew[me])
    events = [tile_name(t) for t in range(E.N_TILES) if start.hands[me] >> t & 1]
    for p, m in end.log:
        events += ["draw", tile_name(next(drew))] if p == me and m == E.DRAW else [move_name(m)]
    return events


def unseen_hands(rules: Dominoes, end, me: int) -> list[int]:
    """Every hand the other may hold at the end as ``me`` sees it: its count of the tiles ``me`` has not seen."""
    on_line = {parse_tile(f"{a}-{b}") for a, b in end.line}
    unseen = [t for t in rules.tiles if t not in on_line and not end.hands[me] >> t & 1]
    return [sum(1 << t for t in hand) for hand in combinations(unseen, E.popcount(end.hands[1 - me]))]


def enter(game, events):
    state = game.initial_state()
    for e in events:
        state = game.apply(state, game.parse_action(state, e))
    return state


@pytest.mark.parametrize("you", [0, 1])
def test_each_decision_values_are_move_values_from_hand_and_history(you):
    """Standard games: at each decision of the seat, the advisor's values (names and numbers, in order) are
    ``move_values(hand, history, seat)`` on the history typed as ``lookup.dominoes.play`` reads it."""
    rules, checked = Dominoes(), 0
    for seed, (player, models) in enumerate((("realistic", ["random", "strong"]), ("predictive", ["greedy"]),
                                             ("bayesian", list(MODEL_NAMES)))):
        advisor = open_setup("dominoes", _setup(player=player, models=models, you=you), None)
        game = advisor.game
        start, end = full_game(rules, 100 * you + seed)
        hand = [tile_name(t) for t in range(E.N_TILES) if start.hands[you] >> t & 1]
        options = {"player": player, "model": models[0], "models": models, **SETTINGS}
        state, typed = game.initial_state(), []
        for event in seen_events(start, end, you):
            mover = game.to_move(state)
            if mover == you:
                values = advisor.action_values(state)
                legal = [move_name(m) for m in values]
                if legal not in (["draw"], ["pass"]):
                    want = move_values(hand, typed, you, **options)
                    assert [(move_name(m), v) for m, v in values.items()] == want
                    assert advisor.value(state, you) == max(v for _, v in want)
                    checked += 1
                else:  # a forced draw or pass: the search places tiles only, as the whole game's advisor
                    assert list(values.values()) == [None]
            elif mover != CHANCE:  # the other seat: entered, never valued or played by the tables
                assert set(advisor.action_values(state).values()) == {None} and not advisor.plays_others
            if state.drawing:
                typed[-1] = f"draw:{event}"
            elif mover != CHANCE:
                typed.append(event)
            state = game.apply(state, game.parse_action(state, event))
        if not game.is_terminal(state):  # a blocked game whose result needs the other's pips
            state = game.apply(state, game.parse_action(state, f"pips:{E.pips(end.hands[1 - you])}"))
        assert game.returns(state) == rules.returns(end)
    assert checked >= 10


def test_results_blocked_games_and_the_pips_asked_only_when_needed():
    """Reduced sets (so that games block often): every game entered from either seat ends with the rules' result;
    at a block the other's pip total is asked exactly when the hands it may hold (every choice of its count of the
    unseen tiles, listed here) do not all give one result, and the totals offered are those hands' totals."""
    blocked = asked = 0
    for max_pip, hand in ((3, 3), (4, 3), (5, 5)):
        rules = Dominoes(max_pip, hand)
        for seed in range(60):
            start, end = full_game(rules, seed)
            for you in (0, 1):
                game = open_setup("dominoes", _setup(max_pip=max_pip, hand=hand, you=you), None).game
                state = enter(game, seen_events(start, end, you))
                if end.passes < E.PASS_LIMIT or not end.hands[0] or not end.hands[1]:
                    assert game.is_terminal(state) and game.returns(state) == rules.returns(end)
                    continue
                blocked += 1
                mine = int(E.pips(end.hands[you]))
                totals = {int(E.pips(h)) for h in unseen_hands(rules, end, you)}
                results = {(t > mine) - (t < mine) for t in totals}
                if len(results) == 1:
                    assert game.is_terminal(state)
                else:
                    asked += 1
                    assert game.to_move(state) == 1 - you and set(game.legal_actions(state)) == totals
                    assert [game.action_json(state, t) for t in sorted(totals)] == \
                        [f"pips:{t}" for t in sorted(totals)]
                    state = game.apply(state, game.parse_action(state, f"pips:{E.pips(end.hands[1 - you])}"))
                assert game.returns(state) == rules.returns(end)
    assert blocked >= 10 and asked >= 3, (blocked, asked)


def test_chance_is_the_seats_deal_and_draws_uniform_over_unseen_tiles():
    rules = Dominoes()
    game = open_setup("dominoes", _setup(you=0), None).game
    start, end = full_game(rules, 3)
    state = game.initial_state()
    for event in seen_events(start, end, 0):
        if game.to_move(state) == CHANCE:
            outcomes = game.chance_outcomes(state)
            assert len({p for _, p in outcomes}) == 1 and sum(p for _, p in outcomes) == 1
            if state.drawing:  # the tiles it has not seen (here: every one keeps the history possible)
                view = game.seen(state)
                assert {t for t, _ in outcomes} <= {t for t in range(E.N_TILES) if view.unknown >> t & 1}
                assert parse_tile(event) in {t for t, _ in outcomes}
            else:
                assert outcomes[0][1] == Fraction(1, E.N_TILES - len(state.dealt))
        state = game.apply(state, game.parse_action(state, event))


def test_a_seen_game_is_a_record_replayed_and_reviewed():
    """The record (the CLI's and the page's JSON) of a game entered from seat 1 replays to the same end, and the
    review judges the seat's own decisions only (the other's moves were entered, not chosen with the tables)."""
    advisor = open_setup("dominoes", _setup(you=1), None)
    game = advisor.game
    start, end = full_game(Dominoes(), 8)
    state, steps = game.initial_state(), []
    from lookup.records import Step

    for event in seen_events(start, end, 1):
        action = game.parse_action(state, event)
        after = game.apply(state, action)
        steps.append(Step(len(steps) + 1, state, game.to_move(state), action, after))
        state = after
    record = parse_record(record_of(game, _setup(you=1), steps, seat=1).to_dict())
    assert replay(game, record.events)[1] == state
    assert game.parse_state(game.state_json(state)) == state
    result = review(advisor, record)
    assert result.seat == 1 and all(e.mover in (1, CHANCE) for e in result.events if e.kind == "decision")
    assert result.decisions + result.unvalued == sum(1 for s in steps if s.mover == 1)


@pytest.mark.parametrize(("you", "events", "bad", "message"), [
    (0, [], "6-6", None),  # (a valid first tile, to check the helper)
    (0, ["6-6"], "6-6", "tile 6-6 is dealt to you already"),
    (0, ["0-0", "1-1", "2-2", "3-3", "4-4", "5-5", "6-6"], "1-2", "you do not hold 1-2"),
    (0, ["0-0", "1-1", "2-2", "3-3", "4-4", "5-5", "6-6", "6-6"], "5-5L",
     r"player 2 to move: the opponent cannot hold 5-5 \(you hold it or it is placed\)"),
    (0, ["0-0", "1-1", "2-2", "3-3", "4-4", "5-5", "6-6", "6-6"], "1-2L", r"1-2 does not go there \(ends 6 and 6\)"),
    (0, ["0-0", "1-1", "2-2", "3-3", "4-4", "5-5", "6-6", "6-6"], "draw:1-2", "entered without its tile"),
    (0, ["0-0", "1-1", "2-2", "3-3", "4-4", "5-5", "6-6", "6-6"], "pass", "passes only after drawing"),
    (1, ["0-0", "1-1", "2-2", "3-3", "4-4", "5-5", "6-6"], "6-6", "the opponent cannot hold 6-6"),
    (1, ["0-0", "1-1", "2-2", "3-3", "4-4", "5-5", "0-1"], "draw", "the opening player places a tile"),
    (0, ["0-0", "1-1", "2-2", "3-3", "4-4", "5-5", "0-1"], "draw:1-2", "your draw is entered as 'draw'"),
])
def test_bad_input_names_the_problem(you, events, bad, message):
    game = open_setup("dominoes", _setup(you=you), None).game
    state = enter(game, events)
    if message is None:
        game.parse_action(state, bad)
        return
    with pytest.raises(ValueError, match=message):
        game.parse_action(state, bad)
    with pytest.raises(ValueError, match=message):
        game.apply(state, bad)


def test_a_drawn_tile_already_seen_and_a_play_that_the_others_draw_rules_out_are_refused():
    game = open_setup("dominoes", _setup(you=0), None).game
    # Seat 0 opens 6-6 holding no other 5 or 6; the other plays 5-6; seat 0 must draw.
    opening = ["6-6", "0-0", "0-1", "1-1", "0-2", "1-2", "2-2", "6-6", "5-6L", "draw"]
    state = enter(game, opening)
    assert game.to_move(state) == CHANCE
    for seen in ("5-6", "1-1"):  # on the line, in the hand
        with pytest.raises(ValueError, match=f"tile {seen} cannot be in the boneyard"):
            game.parse_action(state, seen)
    # It draws 2-3 and passes; the other draws for want of a 5 or a 6 and places the tile it drew, 4-5.
    state = enter(game, [*opening, "2-3", "pass", "draw"])
    assert game.to_move(state) == 1 and parse_move("4-5L") in game.legal_actions(state)
    with pytest.raises(ValueError, match="entered without its tile"):
        game.parse_action(state, "draw:4-5")
    # Seat 0 draws 3-4 and places it; a 6 of the other's now would be a tile it held when it drew for want of one.
    state = enter(game, [*opening, "2-3", "pass", "draw", "4-5L", "draw", "3-4", "3-4L"])
    assert game.to_move(state) == 1
    with pytest.raises(ValueError, match="placed 3-6 after drawing or passing for want of a 5 or 6"):
        game.parse_action(state, "3-6L")
    assert parse_move("3-6L") not in game.legal_actions(state)


def test_the_command_line_game_is_entered_as_seen(built, tmp_path):
    """``dicetables dominoes play --setup you=1 --enter``: the seat's tiles and every move typed as seen (the other
    seat typed by default, the tables do not play it); the advice at the seat's decisions; the record replays to the
    game's end with the rules' result."""
    from click.testing import CliRunner

    from lookup.records import load_record
    from pipeline.cli import main

    start, end = full_game(Dominoes(), 21)
    events = seen_events(start, end, 1)
    game = open_setup("dominoes", _setup(you=1), None).game
    if not game.is_terminal(enter(game, events)):
        events.append(f"pips:{E.pips(end.hands[0])}")
    path = tmp_path / "seen.json"
    args = ["dominoes", "play", "--enter", "--record", str(path), "--artifacts", str(built),
            *(x for k, v in _setup(you=1).items() for x in ("--setup", f"{k}={json.dumps(v)}"))]
    result = CliRunner().invoke(main, args, input="".join(f"{e}\n" for e in events))
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output and "player 2: plays" in result.output
    record = load_record(path)
    assert record.seat == 1 and record.setup["you"] == 1
    final = replay(game, record.events)[1]
    assert game.is_terminal(final) and game.returns(final) == Dominoes().returns(end)
    assert CliRunner().invoke(main, ["dominoes", "play", "--opponent", "table", "--setup", "you=0",
                                     "--artifacts", str(built)]).exit_code == 1


def test_junk_positions_and_moves_are_value_errors():
    from tests.fuzz_inputs import refusals
    from tests.test_protocol import JUNK

    game = open_setup("dominoes", _setup(you=0), None).game
    start = game.initial_state()
    dealt = enter(game, ["0-0", "1-1", "2-2", "3-3", "4-4", "5-5", "6-6"])
    shapes = [{"hand": j} for j in JUNK] + [{"hand": ["6-6"], "moves": j} for j in JUNK] + \
        [{"hand": ["0-0", "1-1", "2-2", "3-3", "4-4", "5-5", "6-6"], "moves": ["6-6"], k: j} for j in JUNK
         for k in ("drawing", "shown")] + [{"dealt": j} for j in JUNK]
    # (null, true and [] as one key's value still make a position: no move yet, drawing, nothing shown)
    shapes = [s for s in shapes if not any(v is None or v is True or v == [] for v in s.values())]
    calls = [(f"parse_state({j!r:.40})", lambda j=j: game.parse_state(j)) for j in [*JUNK, *shapes]]
    calls += [(f"parse_action({j!r:.30})", lambda s=s, j=j: game.parse_action(s, j)) for j in JUNK
              for s in (start, dealt)]
    failures = refusals(calls)
    assert not failures, "\n".join(failures)
