"""Every game behaves: random legal play to the end (games with moves) or random legal inputs (table games)
get answers of the documented type and range, and bad input is a ValueError with a message.

The games are found by their ``lookup/<game>/__init__.py`` package, so a new game is checked too: a game
registered on the protocol (``lookup/<game>/game.py``, ``lookup.games``) is checked by tests/test_protocol.py and
its own ``tests/<game>/test_<game>_inputs.py``; any other must have an entry in ``CONFORMANCE`` below (the smallest
tables its checks read, a random legal play or input generator, its bad inputs), or the test fails. The tables
are the run's shared small instances (tests/shared.py), built once per run for every test that reads them.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from lookup.games import names
from tests import shared
from tests.inputs import HUGE, JUNK_INTS, NAN, Artifacts, BadCall, assert_refused, play_models, sample

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(p.parent.name for p in (ROOT / "lookup").glob("*/__init__.py") if p.parent.name not in names())


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


# --- yahtzee: random sheets (reached by random play), dice and rerolls --------------------------------

YAHTZEE_RULES = "scandinavian+forced"  # the smallest built game: 16 sheets masks


def _yahtzee_sheet(rng: random.Random, rules: str) -> Any:
    from lookup.yahtzee import Sheet, get_rules

    r = get_rules(rules)
    sheet = Sheet.empty(r)
    for _ in range(rng.randrange(r.n_boxes)):
        dice = [rng.randint(1, r.n_faces) for _ in range(r.n_dice)]
        sheet.score(rng.choice(sorted(sheet.allowed(dice))), dice)
    return sheet


def _yahtzee_legal(a: Artifacts, rng: random.Random) -> int:
    from lookup.yahtzee import Decision, decide, get_rules, value

    r = get_rules(YAHTZEE_RULES)
    n = 0
    for _ in range(12):  # 24 answers (decide solves the turn: ~0.4 s a question); the fuzz test asks many more
        sheet = _yahtzee_sheet(rng, YAHTZEE_RULES)
        form = rng.choice(["sheet", "dict", "list"])
        arg = sheet if form == "sheet" else sheet.to_dict() if form == "dict" else list(sheet.boxes)
        dice = [rng.randint(1, r.n_faces) for _ in range(r.n_dice)]
        rerolls = rng.randint(0, 2)
        d = decide(dice, rerolls, arg, YAHTZEE_RULES, artifacts_dir=a)
        assert isinstance(d, Decision) and d.dice == tuple(dice) and d.rerolls == rerolls
        if rerolls:
            assert d.category is None and len(d.reroll) == r.n_dice and all(type(x) is bool for x in d.reroll)
            assert sorted(d.keep) == sorted(p for p, again in zip(dice, d.reroll, strict=True) if not again)
        else:
            assert d.reroll is None and d.keep is None and d.category in sheet.allowed(dice)
        v = value(arg, YAHTZEE_RULES, artifacts_dir=a)
        assert _finite(v) and sheet.total <= v <= sheet.total + 400, v
        assert _finite(d.expected_final) and d.expected_final >= sheet.total
        n += 2
    return n


def _yahtzee_bad() -> list[tuple[str, BadCall]]:
    from lookup.yahtzee import decide, value

    dice, rules = [1, 2, 3, 4, 5], YAHTZEE_RULES
    bad: list[tuple[str, BadCall]] = []
    for junk in (None, "12345", 12345, [], [1, 2, 3, 4], [1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4], [1, 2, 3, 4, 7],
                 [1.0, 2, 3, 4, 5], [NAN, 2, 3, 4, 5], [HUGE, 2, 3, 4, 5], [True, 2, 3, 4, 5], ["1", 2, 3, 4, 5]):
        bad.append((f"decide dice={junk!r}", lambda a, j=junk: decide(j, 2, {}, rules, artifacts_dir=a)))
    for junk in (*JUNK_INTS, -1, 3):
        bad.append((f"decide rerolls={junk!r}", lambda a, j=junk: decide(dice, j, {}, rules, artifacts_dir=a)))
    sheets = (None, "ones", 5, NAN, {"nosuch": 3}, {"ones": 7}, {"ones": NAN}, {"ones": HUGE}, {"ones": -1},
              {"ones": 2.0}, {"ones": "3"}, {"sixes": 6}, [None] * 3, [3] * 15, {"yahtzee_bonus": -100})
    for junk in sheets:
        bad.append((f"decide sheet={junk!r}", lambda a, j=junk: decide(dice, 2, j, rules, artifacts_dir=a)))
        bad.append((f"value sheet={junk!r}", lambda a, j=junk: value(j, rules, artifacts_dir=a)))
    for junk in ("nosuch", "", None, 3, NAN):
        bad.append((f"decide rules={junk!r}", lambda a, j=junk: decide(dice, 2, {}, j, artifacts_dir=a)))
        bad.append((f"value rules={junk!r}", lambda a, j=junk: value({}, j, artifacts_dir=a)))
    bad.append(("value hasbro (tables not built)", lambda a: value({}, "hasbro", artifacts_dir=a)))
    return bad


# --- dominoes: whole games, decide choosing every move of one seat, a model the other --------------------

DOMINOES_OPTIONS = {"depth": 2, "samples": 3, "max_exact": 50, "endgame": 0}


def _dominoes_legal(a: Artifacts, rng: random.Random) -> int:
    from lookup.dominoes import GAME, MODEL_NAMES, PLAYERS, deal, decide, move_name, tile_name, value
    from lookup.dominoes import engine as E
    from lookup.dominoes.game import Dominoes
    from lookup.opponents import MODELS

    # the game API: the standard game at random, and the exact players on the smallest reduced instance
    n = play_models(GAME, lambda g: deal(2000 + g), rng, 6)
    small = Dominoes(max_pip=2, hand=2)
    n += play_models(small, lambda g: small.deal(g), rng, 8, ("perfect", "predictive", "realistic", "bayesian"))
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
                move = sample(rng, MODELS[opponent].distribution(GAME, state))
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
    "yahtzee": lambda: Conformance(lambda f: shared.yahtzee(f, YAHTZEE_RULES), _yahtzee_legal, _yahtzee_bad()),
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
    assert "yahtzee" in GAMES
    assert not set(CONFORMANCE) - set(GAMES), "CONFORMANCE names a game that has no lookup package, or one " \
                                               "registered on the protocol (tests/test_protocol.py checks it)"


@pytest.mark.parametrize("game", GAMES)
def test_random_legal_play_and_inputs(game, small_tables):
    spec = _spec(game)
    checked = spec.legal(small_tables(game), random.Random(f"conformance-{game}"))
    assert checked >= 20, f"{game}: only {checked} answers checked"


@pytest.mark.parametrize("game", GAMES)
def test_bad_inputs_are_value_errors(game, small_tables):
    spec = _spec(game)
    assert_refused(game, spec.bad, small_tables(game))


@pytest.mark.slow
@pytest.mark.parametrize("game", [g for g in GAMES if g in CONFORMANCE and CONFORMANCE[g]().slow])
def test_answers_that_need_costly_tables(game, tmp_path_factory):
    build, legal = _spec(game).slow
    assert legal(build(tmp_path_factory), random.Random(f"conformance-{game}-slow")) >= 20
