"""Every game behaves: random legal play to the end (games with moves) or random legal inputs (table games)
get answers of the documented type and range, and bad input is a ValueError with a message.

The games are found by their ``lookup/<game>/__init__.py`` package, so a new game is checked too: it must
have an entry in ``CONFORMANCE`` below (the smallest tables its checks read, a random legal play or input
generator, its bad inputs), or the test fails. The tables are the run's shared small instances
(tests/shared.py), built once per run for every test that reads them.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests import shared

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(p.parent.name for p in (ROOT / "lookup").glob("*/__init__.py"))
NAN, INF = float("nan"), float("inf")
HUGE = 2**70
# Wrong types and values every integer argument must refuse with a ValueError.
JUNK_INTS = (None, True, 1.5, NAN, INF, -INF, HUGE, -HUGE, "2", "", [1], object())

Artifacts = Path | None
BadCall = Callable[[Artifacts], Any]


@dataclass(frozen=True)
class Conformance:
    """What the conformance test runs for one game.

    build: the run's shared build (tests/shared.py) of the smallest tables the checks read; None: the game reads
      none.
    legal: plays random legal games to the end, or asks random legal questions, asserting every answer's
      type and range; returns how many answers it checked.
    bad: (label, call) pairs; each call must raise a ValueError with a message.
    slow: optional (shared build, legal) for answers that need costlier tables.
    """

    build: Callable[[pytest.TempPathFactory], Path] | None
    legal: Callable[[Artifacts, random.Random], int]
    bad: list[tuple[str, BadCall]] = field(default_factory=list)
    slow: tuple[Callable[[pytest.TempPathFactory], Path], Callable[[Artifacts, random.Random], int]] | None = None


def _finite(x: Any) -> bool:
    return type(x) is float and math.isfinite(x)


# --- dicerace: random scores ----------------------------------------------------------------------------

DICERACE = {"dice": 3, "target": 20}


def _dicerace_legal(a: Artifacts, rng: random.Random) -> int:
    from lookup.dicerace import decide, value

    n = 0
    for _ in range(60):
        mine, other = rng.randrange(20), rng.randrange(20)
        mode = rng.choice(["sequential", "simultaneous"])
        d = decide(mine, other, mode=mode, rng=rng.randrange(1000), artifacts_dir=a, **DICERACE)
        assert type(d) is int and 1 <= d <= DICERACE["dice"]
        v = value(mine, other, mode=mode, artifacts_dir=a, **DICERACE)
        assert _finite(v) and -1 <= v <= 1
        n += 2
    return n


def _dicerace_bad() -> list[tuple[str, BadCall]]:
    from lookup.dicerace import decide, value

    bad: list[tuple[str, BadCall]] = []
    for fn in (decide, value):
        name = fn.__name__
        for junk in (*JUNK_INTS, -1, 20):
            bad.append((f"{name} my_score={junk!r}", lambda a, j=junk, f=fn: f(j, 0, artifacts_dir=a, **DICERACE)))
            bad.append((f"{name} other_score={junk!r}", lambda a, j=junk, f=fn: f(0, j, artifacts_dir=a, **DICERACE)))
        for junk in (*JUNK_INTS, 0, -3, 4):
            bad.append((f"{name} dice={junk!r}", lambda a, j=junk, f=fn: f(0, 0, dice=j, target=20, artifacts_dir=a)))
        for junk in (*JUNK_INTS, 0, -5, 21):
            bad.append((f"{name} target={junk!r}", lambda a, j=junk, f=fn: f(0, 0, dice=3, target=j, artifacts_dir=a)))
        for junk in ("nosuch", "", None, 1, NAN):
            bad.append((f"{name} mode={junk!r}", lambda a, j=junk, f=fn: f(0, 0, mode=j, artifacts_dir=a, **DICERACE)))
    for junk in (-1, 1.5, NAN, "7"):
        bad.append((f"decide rng={junk!r}", lambda a, j=junk: decide(5, 5, mode="simultaneous", rng=j,
                                                                      artifacts_dir=a, **DICERACE)))
    return bad


# --- g151: random banked and turn totals ------------------------------------------------------------------

G151_TARGET = 300


def _g151_legal(a: Artifacts, rng: random.Random) -> int:
    from lookup.g151 import decide, value

    n = 0
    for _ in range(60):
        banked = 50 * rng.randrange(G151_TARGET // 50)
        turn = 50 * rng.randint(0, (G151_TARGET - banked) // 50)
        other = rng.choice([None, 50 * rng.randrange(G151_TARGET // 50)])
        d = decide(banked, turn, other, G151_TARGET, artifacts_dir=a)
        assert d in ("roll", "bank") and (turn > 0 or d == "roll")
        v = value(banked, turn, other, G151_TARGET, artifacts_dir=a)
        assert _finite(v) and (0 <= v <= 1 if other is not None else v >= 0)
        n += 2
    return n


def _g151_bad() -> list[tuple[str, BadCall]]:
    from lookup.g151 import decide, value

    t = G151_TARGET
    bad: list[tuple[str, BadCall]] = []
    for fn in (decide, value):
        name = fn.__name__
        for junk in (*JUNK_INTS, -50, 25, t, t + 50):
            bad.append((f"{name} banked={junk!r}", lambda a, j=junk, f=fn: f(j, 0, None, t, artifacts_dir=a)))
            bad.append((f"{name} other_banked={junk!r}", lambda a, j=junk, f=fn: f(0, 0, j, t, artifacts_dir=a)
                        if j is not None else f(0, 0, "x", t, artifacts_dir=a)))
        for junk in (*JUNK_INTS, -50, 25):
            bad.append((f"{name} turn_total={junk!r}", lambda a, j=junk, f=fn: f(0, j, None, t, artifacts_dir=a)))
        bad.append((f"{name} banked + turn_total over target", lambda a, f=fn: f(250, 100, None, t, artifacts_dir=a)))
        for junk in (*JUNK_INTS, 0, -300, 25, 2000):  # 2000: a target the small tables do not hold
            bad.append((f"{name} target={junk!r}", lambda a, j=junk, f=fn: f(0, 0, None, j, artifacts_dir=a)))
        for junk in ("nosuch", "", None, 3, NAN):
            bad.append((f"{name} rules={junk!r}", lambda a, j=junk, f=fn: f(0, 0, None, t, j, artifacts_dir=a)))
    return bad


# --- poker: random hands and boards ---------------------------------------------------------------------


def _deck(rng: random.Random) -> list[str]:
    from lookup.poker.cards import RANKS, SUITS

    cards = [r + s for r in RANKS for s in SUITS]
    rng.shuffle(cards)
    return cards


def _poker_legal(a: Artifacts, rng: random.Random) -> int:
    from lookup.poker import CallDecision, decide

    n = 0
    for _ in range(20):
        cards = _deck(rng)
        board_size = rng.choice([3, 4, 4, 5, 5])
        hand, board = "".join(cards[:2]), cards[2:2 + board_size]
        opponents = 1 if board_size == 3 else rng.choice([1, 2])
        pot, to_call = rng.choice([10, 2.5, 100]), rng.choice([1, 5.5, 40])
        d = decide(hand, pot=pot, to_call=to_call, board=board, opponents=opponents, budget=0.3, artifacts_dir=a)
        assert isinstance(d, CallDecision) and d.action in ("call", "fold") and type(d.exact) is bool
        assert _finite(d.equity) and 0 <= d.equity <= 1 and _finite(d.gain)
        assert d.break_even == to_call / (pot + to_call) and (d.action == "call") == (d.gain > 0)
        n += 1
    return n


def _poker_value_legal(a: Artifacts, rng: random.Random) -> int:
    from lookup.poker import class_name, value

    n = 0
    for _ in range(20):
        # A class against 1 or 2 opponents (read from the table), or one time in four a specific hand heads-up
        # (counted over every board: ~1 s each, so a few are enough to cover that path).
        specific = rng.random() < 0.25
        hand = "".join(_deck(rng)[:2]) if specific else class_name(rng.randrange(169))
        v = value(hand, 1 if specific else rng.choice([1, 2]), artifacts_dir=a)
        assert _finite(v) and 0 <= v <= 1
        n += 1
    return n


def _poker_bad() -> list[tuple[str, BadCall]]:
    from lookup.poker import decide, value

    ok = {"pot": 10, "to_call": 5, "board": ["2c", "7d", "Jh"]}
    bad: list[tuple[str, BadCall]] = []
    hands = (None, "", "As", "AsAs", "AsKsQs", "XxYy", 5, NAN, ["As"], "AKx", "AAs", "2c7d" * 3)
    for junk in hands:
        bad.append((f"decide hand={junk!r}", lambda a, j=junk: decide(j, artifacts_dir=a, **ok)))
        bad.append((f"value hand={junk!r}", lambda a, j=junk: value(j, 1, artifacts_dir=a)))
    for key in ("pot", "to_call"):
        for junk in (None, True, 0, -1, NAN, INF, -INF, "10", [10], object()):
            bad.append((f"decide {key}={junk!r}", lambda a, j=junk, k=key: decide("AsKs", artifacts_dir=a,
                                                                                  **{**ok, k: j})))
    for junk in ("Zz", ["As"], ["2c", "7d"], ["2c", "7d", "Jh", "Qs", "Kd", "3c"], ["As", "7d", "Jh"],
                 ["2c", "2c", "Jh"], 5, NAN, [NAN, "7d", "Jh"]):
        bad.append((f"decide board={junk!r}", lambda a, j=junk: decide("AsKs", artifacts_dir=a, **{**ok, "board": j})))
    for junk in (*JUNK_INTS, -1, 0, 23):
        bad.append((f"decide opponents={junk!r}", lambda a, j=junk: decide("AsKs", opponents=j, artifacts_dir=a, **ok)))
    for junk in (*JUNK_INTS, -1, 0, 10):
        bad.append((f"value opponents={junk!r}", lambda a, j=junk: value("AKs", j, artifacts_dir=a)))
    for junk in ("Zz", ["As"], ["2c"], 5, NAN):
        bad.append((f"decide dead={junk!r}", lambda a, j=junk: decide("AsKs", dead=j, artifacts_dir=a, **ok)))
    for junk in (None, -1, NAN, "2", -INF):
        bad.append((f"decide budget={junk!r}", lambda a, j=junk: decide("AsKs", budget=j, artifacts_dir=a, **ok)))
    return bad


# --- tic-tac-toe: random legal play against each opponent model, both seats ----------------------------

TICTACTOE_MODELS = ("random", "first", "last", "greedy", "perfect")


# --- games with moves: random legal play through the one game API (lookup.opponents.Game) --------------

def _protocol_games(game: Any, start: Callable[[int], Any], rng: random.Random, games: int,
                    players: tuple[str, ...] = ()) -> int:
    """``games`` games from ``start(g)`` through the game API alone: every model of ``models_for(game)``
    gives a distribution over legal moves summing to 1, observations are hashable, every move played is
    legal, the game ends with returns (1, -1), (0, 0) or (-1, 1). With ``players``, game g has the exact
    player ``players[g % len]`` of lookup.opponents in seat g % 2 (against every model), its beliefs
    updated on every move; the other seat plays a random model. Returns the answers checked."""
    from fractions import Fraction

    from lookup.opponents import Player, models_for

    models, n = models_for(game), 0
    for g in range(games):
        state, seat = start(g), g % 2
        player = None
        if players:
            kind = players[g % len(players)]
            assumed = () if kind == "perfect" else models[:1] if kind == "predictive" else models
            player = Player(kind, game, seat, assumed)
            belief = player.initial_belief(state) if player.hidden else player.initial_belief()
        opponent = rng.choice(models)
        for _ in range(1000):
            if game.is_terminal(state):
                break
            legal = game.legal_actions(state)
            assert legal and len(set(legal)) == len(legal)
            hash(game.observation(state, 0)), hash(game.observation(state, 1))
            for model in models:
                dist = model.distribution(game, state)
                assert set(dist) <= set(legal) and sum(dist.values()) == 1 and min(dist.values()) > Fraction(0)
                n += 1
            if player is not None and game.to_move(state) == seat:
                move = player.choose(state, belief)
                n += 1
            else:
                move = _sample(rng, opponent.distribution(game, state) if player else {m: 1 for m in legal})
            assert move in legal
            if player is not None:
                belief = player.observe(belief, state, move)
            state = game.apply(state, move)
        else:
            raise AssertionError(f"{game.name}: a game did not end in 1000 moves")
        assert game.returns(state) in ((1, -1), (0, 0), (-1, 1))
        n += 1
    return n


def _sample(rng: random.Random, dist: dict) -> Any:
    moves = list(dist)
    return rng.choices(moves, [float(p) for p in dist.values()])[0]


def _tictactoe_legal(a: Artifacts, rng: random.Random) -> int:
    from lookup.opponents import MODELS, models_for
    from lookup.tictactoe import GAME, decide, format_board, value
    from lookup.tictactoe.rules import START

    assert {m.name for m in models_for(GAME)} == set(TICTACTOE_MODELS)  # a new model must be built and played
    n = _protocol_games(GAME, lambda _: START, rng, 8, ("perfect", "predictive", "realistic", "bayesian"))
    for assumed in (None, *TICTACTOE_MODELS):  # the player's model (None: perfect play)
        for opponent in TICTACTOE_MODELS:
            for seat in (0, 1):
                for _ in range(2):
                    state, moves = START, 0
                    while not GAME.is_terminal(state):
                        board = format_board(state)
                        if GAME.to_move(state) == seat:
                            move = decide(board, assumed, artifacts_dir=a)
                            v = value(board, assumed, artifacts_dir=a)
                            assert type(move) is int and move in GAME.legal_actions(state), (board, move)
                            assert _finite(v) and -1 <= v <= 1
                            n += 2
                        else:
                            move = _sample(rng, MODELS[opponent].distribution(GAME, state))
                        state = GAME.apply(state, move)
                        moves += 1
                        assert moves <= 9
                    result = value(format_board(state), assumed, artifacts_dir=a)
                    assert result == GAME.returns(state)[GAME.to_move(state)]
                    if assumed is None and opponent == "perfect":  # perfect against perfect: a draw
                        assert GAME.returns(state) == (0, 0)
                    n += 1
    return n


def _tictactoe_bad() -> list[tuple[str, BadCall]]:
    from lookup.tictactoe import decide, value

    boards = (None, "", "X", "X" * 9, "XO.......A", "XO......", "OO.......", "XXXOOO...", "XXXOO....", "XXXOOO.XO",
              "x" * 10, (0,) * 8, (1, 1, 1, 2, 2, 2, 0, 0, 0), (3,) + (0,) * 8, [0] * 9, (0.0,) + (0,) * 8,
              (True,) + (0,) * 8, 5, NAN, HUGE, b"X........")
    bad: list[tuple[str, BadCall]] = []
    for fn in (decide, value):
        for junk in boards:
            if fn is value and junk == "XXXOO....":
                continue  # a finished game: value answers its result
            bad.append((f"{fn.__name__} board={junk!r}", lambda a, j=junk, f=fn: f(j, artifacts_dir=a)))
        for junk in ("nosuch", "", "strong", 5, NAN, ["random"]):
            bad.append((f"{fn.__name__} model={junk!r}", lambda a, j=junk, f=fn: f("X........", j, artifacts_dir=a)))
    return bad


# --- dominoes: whole games, decide choosing every move of one seat, a model the other --------------------

DOMINOES_OPTIONS = {"depth": 2, "samples": 3, "max_exact": 50, "endgame": 0}


def _dominoes_legal(a: Artifacts, rng: random.Random) -> int:
    from lookup.dominoes import GAME, MODEL_NAMES, PLAYERS, deal, decide, move_name, tile_name, value
    from lookup.dominoes import engine as E
    from lookup.dominoes.game import Dominoes
    from lookup.opponents import MODELS

    # the game API: the standard game at random, and the exact players on the smallest reduced instance
    n = _protocol_games(GAME, lambda g: deal(2000 + g), rng, 6)
    small = Dominoes(max_pip=2, hand=2)
    n += _protocol_games(small, lambda g: small.deal(g), rng, 8, ("perfect", "predictive", "realistic", "bayesian"))
    for game, (opponent, player) in enumerate((m, p) for m in MODEL_NAMES for p in PLAYERS):
        seat = game % 2
        state = deal(1000 + game)
        hand = [tile_name(t) for t in range(E.N_TILES) if state.hands[seat] >> t & 1]
        options = {"player": player, **DOMINOES_OPTIONS,
                   **({"model": opponent} if player == "predictive" else {"models": list(MODEL_NAMES)})}
        history: list[str] = []
        while not GAME.is_terminal(state):
            legal = GAME.legal_actions(state)
            if state.to_move == seat:
                written = decide(hand, history, seat, seed=game, **options)
                names = [move_name(m) for m in legal]
                assert written in names, (written, names)
                if rng.random() < 0.2:
                    v = value(hand, history, seat, seed=game, **options)
                    assert _finite(v) and -1 <= v <= 1
                    n += 1
                move = legal[names.index(written)]
                state = GAME.apply(state, move)
                history.append(f"draw:{tile_name(state.drawn)}" if move == E.DRAW else written)
                n += 1
            else:
                move = _sample(rng, MODELS[opponent].distribution(GAME, state))
                state = GAME.apply(state, move)
                history.append(move_name(move))
            assert len(history) <= 4 * E.N_TILES, "the game does not end"
        assert GAME.returns(state) in ((1, -1), (0, 0), (-1, 1))
    return n


def _dominoes_bad() -> list[tuple[str, BadCall]]:
    from lookup.dominoes import decide, value

    hand = ["6-6", "1-2", "3-5", "0-4", "2-2", "5-6", "1-1"]
    bad: list[tuple[str, BadCall]] = []
    for fn in (decide, value):
        f = fn.__name__
        hands = (None, [], "6-6", hand[:6], [*hand, "0-0"], ["6-6"] * 7, ["7-7", *hand[1:]], ["6-6x", *hand[1:]],
                 [1.5, *hand[1:]], [NAN, *hand[1:]], [HUGE, *hand[1:]], [True, *hand[1:]], [28, *hand[1:]], 5, NAN)
        for junk in hands:
            bad.append((f"{f} hand={junk!r}", lambda a, j=junk, fn=fn: fn(j, [], 0)))
        histories = ("bogus", "6-6 6-6", ["6-6", "6-6L"], ["pass"], ["draw"], ["6-6", "0-0L"], 5, NAN, None,
                     ["6-6", "draw", "draw"], "1-2 " * 30)
        for junk in histories:
            bad.append((f"{f} history={junk!r}", lambda a, j=junk, fn=fn: fn(hand, j, 0)))
        for junk in (*JUNK_INTS, -1, 2):
            bad.append((f"{f} seat={junk!r}", lambda a, j=junk, fn=fn: fn(hand, [], j)))
        bad.append((f"{f} seat 1 before player 0 opened", lambda a, fn=fn: fn(hand, [], 1)))
        for junk in ("nosuch", "", None, 5, NAN, "perfect"):
            bad.append((f"{f} player={junk!r}", lambda a, j=junk, fn=fn: fn(hand, [], 0, player=j)))
        bad.append((f"{f} predictive without model", lambda a, fn=fn: fn(hand, [], 0, player="predictive")))
        for junk in ("nosuch", "", 5, NAN, "perfect"):
            bad.append((f"{f} model={junk!r}", lambda a, j=junk, fn=fn: fn(hand, [], 0, player="predictive", model=j)))
        for junk in ([], ["nosuch"], "random", [5], 5, NAN):
            bad.append((f"{f} models={junk!r}", lambda a, j=junk, fn=fn: fn(hand, [], 0, models=j)))
        for key, junk_values in (("depth", (*JUNK_INTS, 0, 13)), ("samples", (*JUNK_INTS, 0)),
                                 ("max_exact", (*JUNK_INTS, -1)), ("endgame", (*JUNK_INTS, -2)),
                                 ("budget", (*JUNK_INTS, -1)), ("seed", (*JUNK_INTS, -1, 2**62 + 1))):
            for junk in junk_values:
                bad.append((f"{f} {key}={junk!r}", lambda a, j=junk, k=key, fn=fn: fn(hand, [], 0, **{k: j})))
        bad.append((f"{f} unknown option", lambda a, fn=fn: fn(hand, [], 0, nosuch=1)))
    return bad


CONFORMANCE: dict[str, Callable[[], Conformance]] = {
    "dicerace": lambda: Conformance(shared.dicerace, _dicerace_legal, _dicerace_bad()),
    "g151": lambda: Conformance(shared.g151, _g151_legal, _g151_bad()),
    "poker": lambda: Conformance(shared.poker_evaluator, _poker_legal, _poker_bad(),
                                 slow=(shared.poker_preflop, _poker_value_legal)),
    "tictactoe": lambda: Conformance(shared.tictactoe, _tictactoe_legal, _tictactoe_bad()),
    "dominoes": lambda: Conformance(None, _dominoes_legal, _dominoes_bad()),  # decide reads no table
}


def _spec(game: str) -> Conformance:
    if game not in CONFORMANCE:
        pytest.fail(f"game {game!r} declares nothing to check: add it to CONFORMANCE in {Path(__file__).name} "
                    "(its smallest tables, a random legal play or input generator, its bad inputs)")
    return CONFORMANCE[game]()


@pytest.fixture(scope="session")
def small_tables(tmp_path_factory) -> Callable[[str], Artifacts]:
    """small_tables(game): the game's smallest tables, built on first use, once per session."""
    built: dict[str, Artifacts] = {}

    def get(game: str) -> Artifacts:
        if game not in built:
            spec = _spec(game)
            built[game] = None if spec.build is None else spec.build(tmp_path_factory)
        return built[game]

    return get


def test_every_game_is_declared():
    assert {"dicerace", "dominoes", "g151", "poker", "tictactoe", "yahtzee"} <= set(GAMES)
    assert not set(CONFORMANCE) - set(GAMES), "CONFORMANCE names a game that has no lookup package"


@pytest.mark.parametrize("game", GAMES)
def test_random_legal_play_and_inputs(game, small_tables):
    spec = _spec(game)
    checked = spec.legal(small_tables(game), random.Random(f"conformance-{game}"))
    assert checked >= 20, f"{game}: only {checked} answers checked"


@pytest.mark.parametrize("game", GAMES)
def test_bad_inputs_are_value_errors(game, small_tables):
    spec = _spec(game)
    assert len(spec.bad) >= 10, f"{game}: declare its bad inputs"
    artifacts = small_tables(game)
    failures = []
    for label, call in spec.bad:
        try:
            got = call(artifacts)
        except ValueError as exc:
            if not str(exc).strip():
                failures.append(f"{label}: ValueError without a message")
            elif isinstance(exc, TypeError | KeyError | IndexError):
                failures.append(f"{label}: {type(exc).__name__} (also a ValueError): {exc}")
        except Exception as exc:  # noqa: BLE001 (what escapes is the finding)
            failures.append(f"{label}: {type(exc).__name__}: {exc}")
        else:
            failures.append(f"{label}: no error, answered {got!r}")
    assert not failures, f"{game}: {len(failures)} of {len(spec.bad)} bad inputs not refused cleanly:\n" + \
        "\n".join(failures)


@pytest.mark.slow
@pytest.mark.parametrize("game", [g for g in GAMES if g in CONFORMANCE and CONFORMANCE[g]().slow])
def test_answers_that_need_costly_tables(game, tmp_path_factory):
    build, legal = _spec(game).slow
    assert legal(build(tmp_path_factory), random.Random(f"conformance-{game}-slow")) >= 20
