"""Every game behaves: random legal play to the end (games with moves) or random legal inputs (table games)
get answers of the documented type and range, and bad input is a ValueError with a message.

The games are found by their ``lookup/<game>/__init__.py`` package, so a new game is checked too: a game
registered on the protocol (``lookup/<game>/game.py``, ``lookup.games``) is checked by tests/test_protocol.py and
its own ``tests/<game>/test_<game>_inputs.py`` unless it keeps an entry here; any other must have an entry in
``CONFORMANCE`` below (the smallest tables its checks read, a random legal play or input generator, its bad
inputs), or the test fails. The tables are the run's shared small instances (tests/shared.py), built once per run
for every test that reads them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from lookup.games import names
from tests import shared
from tests.inputs import HUGE, JUNK_INTS, NAN, Artifacts, BadCall, assert_refused, finite

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = sorted(p.parent.name for p in (ROOT / "lookup").glob("*/__init__.py"))


@dataclass(frozen=True)
class Conformance:
    """What the conformance test runs for one game.

    build: the run's shared build (tests/shared.py) of the smallest tables the checks read; None: the game reads
      none.
    legal: plays random legal games to the end, or asks random legal questions, asserting every answer's
      type and range; returns how many answers it checked.
    bad: (label, call) pairs; each call must raise a ValueError with a message.
    """

    build: Callable[[pytest.TempPathFactory], Path] | None
    legal: Callable[[Artifacts, random.Random], int]
    bad: list[tuple[str, BadCall]] = field(default_factory=list)


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
        assert finite(v) and sheet.total <= v <= sheet.total + 400, v
        assert finite(d.expected_final) and d.expected_final >= sheet.total
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


CONFORMANCE: dict[str, Callable[[], Conformance]] = {
    "yahtzee": lambda: Conformance(lambda f: shared.yahtzee(f, YAHTZEE_RULES), _yahtzee_legal, _yahtzee_bad()),
}
# The games checked here: those with an entry, and any other not registered on the protocol (which fails).
GAMES = [g for g in PACKAGES if g in CONFORMANCE or g not in names()]


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
    assert not set(CONFORMANCE) - set(PACKAGES), "CONFORMANCE names a game that has no lookup package"


@pytest.mark.parametrize("game", GAMES)
def test_random_legal_play_and_inputs(game, small_tables):
    spec = _spec(game)
    checked = spec.legal(small_tables(game), random.Random(f"conformance-{game}"))
    assert checked >= 20, f"{game}: only {checked} answers checked"


@pytest.mark.parametrize("game", GAMES)
def test_bad_inputs_are_value_errors(game, small_tables):
    spec = _spec(game)
    assert_refused(game, spec.bad, small_tables(game))
