"""Every public function of lookup.poker, fuzzed: valid input is answered, one wrong argument is refused by a
ValueError naming it, and a table that is not built is reported as such (fuzz_inputs).

Questions are dealt, not made up: distinct cards from a shuffled deck, written in every accepted form (text with
or without spaces, lists of card names, card integers of several dtypes). Only cheap questions are asked (river,
turn and flop boards, at most two unknown opponents, preflop questions the built table holds), and a sample of
the exact answers is compared, count by count, with the plain enumeration of tests/poker/brute.py (phevaluator
as the evaluator) where it enumerates at most ``BRUTE_DEALS`` deals. Hand values are ordered like phevaluator's
ranks; the preflop table's one-random-hand counts must be the sums of its heads-up counts.
"""

from fractions import Fraction

import numpy as np
import pytest
from fuzz_inputs import JUNK, Sample, answer, bad_integer, examples, integers, missing, one_wrong, refused
from hypothesis import given
from hypothesis import strategies as st

import lookup.poker as pk
from lookup.poker.cards import RANKS, card_text
from lookup.poker.problem import make_problem
from tests import peers
from tests.poker.brute import brute_force

ROWS = 2  # pipeline/poker/game.py small=: max_opponents 2 (1 exact, 2 by Monte Carlo)
BRUTE_DEALS = 50_000  # plain enumeration (about 3 phevaluator calls a deal): at most ~0.1 s a check
CHECK_EXACT, CHECK_TABLE, CHECK_ORDER = Sample(every=6), Sample(every=10), Sample(every=3)
# Cactus Kev's 7462 five-card equivalence classes, in phevaluator's order (1 = royal flush): the number of
# classes of each category from straight flush down to high card.
PH_CLASSES = ((8, 10), (7, 156), (6, 156), (5, 1277), (4, 10), (3, 858), (2, 858), (1, 2860), (0, 1277))


@pytest.fixture(scope="module")
def nothing_built(tmp_path_factory):
    """An artifacts directory with no table at all."""
    path = tmp_path_factory.mktemp("poker-fuzz") / "artifacts"
    path.mkdir()
    return path


def card_form(draw, cards: list[int]):
    """``cards`` written in one of the accepted forms."""
    names = [card_text(c) for c in cards]
    kind = draw(st.sampled_from(["text", "spaced", "lower", "names", "ints", "numpy"]))
    if kind == "text":
        return "".join(names)
    if kind == "spaced":
        return " ".join(names)
    if kind == "lower":
        return ",".join(n.lower() for n in names)
    if kind == "names":
        return names
    if kind == "ints":
        return tuple(cards)
    return [draw(st.sampled_from([np.int64, np.int32, np.uint8]))(c) for c in cards]


def bad_cards(draw, counts: tuple[int, ...], valid: list[int]):
    """Cards that are wrong for an argument of ``valid`` cards: a count of ``counts``, a card that does not
    exist, a card listed twice, or junk that is no list of cards at all."""
    kind = draw(st.sampled_from(["count", "card", "twice", "junk"]))
    if kind == "count":
        return card_form(draw, list(range(52))[:draw(st.sampled_from(counts))])
    if kind == "card":
        return [*(card_text(c) for c in valid[1:]), draw(st.sampled_from(["Zz", "1s", "Ax", 52, -1, True, 2.0, "A s",
                                                                          None, np.int64(60)]))]
    if kind == "twice":
        return card_form(draw, [valid[0], *valid[:-1]])
    return draw(NOT_CARDS)


def iterable(value) -> bool:
    try:
        iter(value)
    except TypeError:
        return False
    return True


NOT_CARDS = JUNK.filter(lambda v: v is not None and not iterable(v))  # (None is no cards: a valid empty board)


@st.composite
def questions(draw, opponents: int = 0):
    """(hands, board, opponents, dead) as card-index lists: a cheap equity question (a flop with unknown
    opponents takes the numpy engine a second: not asked), with at least ``opponents`` unknown opponents."""
    deck = draw(st.permutations(range(52)))
    board_size = draw(st.sampled_from([5, 5, 4, 4, 3] if opponents == 0 else [5, 4]))
    hands = draw(st.integers(1, 3 if board_size >= 4 else 2))
    opponents = draw(st.integers(opponents, 2 if board_size >= 4 else 0))
    dead = draw(st.integers(0, 3))
    hole = [list(deck[2 * i:2 * i + 2]) for i in range(hands)]
    rest = deck[2 * hands:]
    return hole, list(rest[:board_size]), opponents, list(rest[board_size:board_size + dead])


def brute(hands, board, opponents, dead):
    """(deals, wins, ties, shares) by plain enumeration, or None when it would take too long."""
    if make_problem(hands, board, opponents, dead).deals() > BRUTE_DEALS:
        return None
    peers.require("phevaluator")
    return brute_force([tuple(h) for h in hands], tuple(board), opponents, tuple(dead))


BAD_BUDGET = st.sampled_from([-1, -0.5, float("nan"), -float("inf"), True, "1", None, [1], 1j])
BAD_CHIPS = st.sampled_from([0, -5, 0.0, -0.0, float("nan"), float("inf"), True, "10", None, [5], 1j])
NAMES = {"hands": ("hand", "card"), "hand": ("hand", "card"), "board": ("board", "card"), "dead": ("dead", "card"),
         "opponents": ("opponents", "players"), "budget": ("budget",), "samples": ("samples",), "seed": ("seed",),
         "pot": ("pot",), "to_call": ("to_call",)}


def text(cards) -> str:
    return "".join(card_text(c) for c in cards)


@examples(ci=400, dev=80)
@given(data=st.data())
def test_equity(poker_artifacts, nothing_built, data):
    """equity: exact counts on cheap questions (a sample against plain enumeration), the Monte Carlo path with
    budget 0, every wrong argument refused, no evaluator table said to be missing."""
    draw = data.draw
    hands, board, opponents, dead = draw(questions())
    sampled = draw(st.integers(0, 3)) == 0  # budget 0: the Monte Carlo path
    valid = {"hands": [card_form(draw, h) for h in hands], "board": card_form(draw, board),
             "opponents": draw(integers(opponents, opponents)), "dead": card_form(draw, dead),
             "budget": 0 if sampled else draw(st.sampled_from([5, 5.0, 30, np.float64(2.5)])),
             "samples": draw(integers(2, 400)), "seed": draw(integers(0, 2**40))}
    bad = {"hands": st.one_of(NOT_CARDS, st.sampled_from([
               [*valid["hands"][:-1], [hands[-1][0], board[0]]],  # a card in a hand and on the board
               [card_text(hands[0][0])], [text([*hands[0], board[0]])],  # one card, three cards
               [*valid["hands"], ["As", "Ks"], ["Ks", "Qs"]],  # a card in two hands
               ["AsAs"], ["ZzKd"], [None], [[3, 3]], ["As Kd Qh"]])),
           "board": st.builds(lambda: bad_cards(draw, (1, 2, 6), board)),
           "dead": st.one_of(NOT_CARDS, st.sampled_from([[card_text(hands[0][1])], ["Zz"], [52], ["As", "As"],
                                                         [np.float64(3)], "2c3", [True]])),
           "opponents": bad_integer(0, 10 - len(hands)), "budget": BAD_BUDGET, "samples": bad_integer(2, None),
           "seed": bad_integer(0, None)}
    args, wrong = one_wrong(draw, valid, bad)
    call = (args["hands"], args["board"], args["opponents"], args["dead"])
    kw = {"budget": args["budget"], "samples": args["samples"], "seed": args["seed"]}
    if wrong is not None:
        refused(pk.equity, *call, names=NAMES[wrong], artifacts_dir=poker_artifacts, **kw)
        return
    if draw(st.integers(0, 9)) == 0:
        missing(pk.equity, *call, artifacts_dir=nothing_built, **kw)
        return
    got = answer(pk.equity, *call, artifacts_dir=poker_artifacts, **kw)
    assert got.hands == tuple(" ".join(card_text(c) for c in h) for h in hands)
    assert got.opponents == opponents and got.board == " ".join(card_text(c) for c in board)
    if sampled:
        assert not got.exact and got.deals == int(args["samples"]) and got.source == "monte carlo"
        for e, se, w, t in zip(got.equity, got.se, got.wins, got.ties, strict=True):
            assert 0 <= e <= 1 and se >= 0 and w + t <= got.deals
        return
    assert got.exact and got.source == "enumeration" and got.deals == make_problem(*call).deals(), got.method
    for s, w, t in zip(got.shares, got.wins, got.ties, strict=True):
        assert w + Fraction(t, 10) <= s <= w + Fraction(t, 2)  # a pot split 2 to 10 ways
    if CHECK_EXACT(draw):
        want = brute(hands, board, opponents, dead)
        if want is not None:
            deals, wins, ties, shares = want
            assert (got.deals, list(got.wins), list(got.ties), list(got.shares)) == (deals, wins, ties, shares)


@examples(ci=300, dev=60)
@given(data=st.data())
def test_decide(poker_artifacts, preflop_artifacts, nothing_built, data):
    """decide: call exactly when the exact gain (on a sample, from plain enumeration) is positive; preflop from
    the table; every wrong argument refused."""
    draw = data.draw
    hands, board, opponents, dead = draw(questions(opponents=1))
    preflop_question = draw(st.integers(0, 4)) == 0
    if preflop_question:
        board, dead, opponents = [], [], draw(st.integers(1, ROWS))
    root = preflop_artifacts if preflop_question else poker_artifacts
    chips = st.one_of(st.integers(1, 10**6), st.floats(0.01, 1e6))
    valid = {"hand": card_form(draw, hands[0]), "pot": draw(chips), "to_call": draw(chips),
             "board": card_form(draw, board), "opponents": draw(integers(opponents, opponents)),
             "dead": card_form(draw, dead)}
    bad = {"hand": st.sampled_from(["As", "AsKsQs", "AsAs", "Zz9c", 7, None, 2.5]), "pot": BAD_CHIPS,
           "to_call": BAD_CHIPS, "opponents": bad_integer(1, 9),
           "board": st.sampled_from([["2c"], "2c3c", 5.0, ["Zz"]]),
           "dead": st.sampled_from([[card_text(hands[0][0])], ["Zz"], 3.0])}
    args, wrong = one_wrong(draw, valid, bad)
    hand = args.pop("hand")
    if wrong is not None:
        refused(pk.decide, hand, names=NAMES[wrong], artifacts_dir=root, **args)
        return
    if draw(st.integers(0, 9)) == 0:
        missing(pk.decide, hand, artifacts_dir=nothing_built, **args)
        return
    got = answer(pk.decide, hand, artifacts_dir=root, **args)
    pot, to_call = args["pot"], args["to_call"]
    assert got.action in ("call", "fold") and got.break_even == to_call / (pot + to_call)
    if preflop_question:
        table = pk.preflop(text(hands[0]), opponents, artifacts_dir=root)
        assert got.exact == table.exact == (opponents == 1) and got.equity == table.equity
        if got.exact:
            gain = table.fraction * (Fraction(pot) + Fraction(to_call)) - Fraction(to_call)
            assert got.action == ("call" if gain > 0 else "fold")
        return
    assert got.exact
    if CHECK_EXACT(draw):
        want = brute([hands[0]], board, opponents, dead)
        if want is not None:
            deals, _, _, shares = want
            gain = shares[0] / deals * (Fraction(pot) + Fraction(to_call)) - Fraction(to_call)
            assert got.action == ("call" if gain > 0 else "fold") and got.equity == float(shares[0] / deals)
            assert got.gain == float(gain)


def class_of(cards) -> str:
    """The starting-hand class of two cards, written from the rules of the notation (docs/poker.md)."""
    hi, lo = sorted(cards, key=lambda c: c // 4, reverse=True)
    if hi // 4 == lo // 4:
        return RANKS[hi // 4] * 2
    return RANKS[hi // 4] + RANKS[lo // 4] + ("s" if hi % 4 == lo % 4 else "o")


BAD_CLASS = st.one_of(JUNK, st.sampled_from(["AKx", "AAs", "AAo", "AK", "A1s", "KAss", "AsAs", "Zz9c", "AsK", "",
                                             "AsKsQs", "As Kd"]))
CLASS_NAMES = ("hand", "suited", "pair", "card")


def class_form(draw, cards) -> str:
    """A starting hand as its class (any case, padded) or as the specific hand (4 characters)."""
    name = class_of(cards)
    return draw(st.sampled_from([name, name.lower(), f" {name} ", text(cards), text(cards).lower()]))


def is_within(value, low: int, high: int) -> bool:
    return type(value) is not bool and isinstance(value, int | np.integer) and low <= int(value) <= high


@examples(ci=400, dev=80)
@given(data=st.data())
def test_preflop(poker_artifacts, preflop_artifacts, data):
    """preflop / value / heads_up by indexing the built table (on a sample: the one-random-hand counts are the
    sums of the heads-up counts over the 169 classes); the evaluator-only directory has no preflop table."""
    draw = data.draw
    cards = list(draw(st.permutations(range(52)))[:4])
    name, other = class_of(cards[:2]), class_of(cards[2:])
    fn = draw(st.sampled_from([pk.preflop, pk.value, pk.heads_up]))
    valid = {"hand": class_form(draw, cards[:2]),
             "second": class_form(draw, cards[2:]) if fn is pk.heads_up else draw(integers(1, ROWS))}
    bad = {"hand": BAD_CLASS,
           "second": BAD_CLASS if fn is pk.heads_up else st.one_of(bad_integer(1, 9), integers(ROWS + 1, 9))}
    args, wrong = one_wrong(draw, valid, bad)
    call = (args["hand"], args["second"])
    if wrong is not None:
        message = refused(fn, *call, names=CLASS_NAMES if wrong == "hand" or fn is pk.heads_up else ("opponents",),
                          artifacts_dir=preflop_artifacts)
        if wrong == "second" and fn is not pk.heads_up and is_within(args["second"], ROWS + 1, 9):
            assert f"covers 1..{ROWS}" in message  # a count the API takes but the table was not built for
        return
    if draw(st.integers(0, 9)) == 0:
        missing(fn, *call, artifacts_dir=poker_artifacts)
        return
    got = answer(fn, *call, artifacts_dir=preflop_artifacts)
    if fn is pk.value:
        assert got == pk.preflop(*call, artifacts_dir=preflop_artifacts).equity
        return
    assert got.hand == name and 0 <= got.equity <= 1
    if fn is pk.heads_up:
        assert got.against == other and got.exact and got.fraction == Fraction(2 * got.wins + got.ties, 2 * got.deals)
        back = pk.heads_up(other, name, artifacts_dir=preflop_artifacts)
        assert back.deals == got.deals and back.ties == got.ties
        assert got.wins + got.ties + back.wins == got.deals  # one's win is the other's loss
        return
    n = int(args["second"])
    assert got.exact == (n == 1) and (got.se == 0) == (n == 1)
    if n == 1 and CHECK_TABLE(draw):
        rows = [pk.heads_up(name, pk.class_name(y), artifacts_dir=preflop_artifacts) for y in range(169)]
        # Against one random hand each combination of the class meets each of the 1225 other hands once.
        combos = 6 if len(name) == 2 else 4 if name.endswith("s") else 12
        assert got.deals == sum(r.deals for r in rows) == combos * 1225 * 1_712_304
        assert (got.wins, got.ties) == (sum(r.wins for r in rows), sum(r.ties for r in rows))
        eq = pk.equity([text(cards[:2])], opponents=1, artifacts_dir=preflop_artifacts)
        assert eq.source == "preflop table" and eq.shares[0] / eq.deals == got.fraction


def ph_category(rank: int) -> int:
    """Our category index (0 high card ... 8 straight flush) of a phevaluator rank."""
    for category, count in PH_CLASSES:
        if rank <= count:
            return category
        rank -= count
    raise AssertionError(rank)


@examples(ci=300, dev=100)
@given(data=st.data())
def test_cards_and_hand_values(poker_artifacts, nothing_built, data):
    """parse_cards, hand_value (on a sample: category and order as phevaluator ranks them), class_name and
    parse_class both ways, get_rules."""
    draw = data.draw
    deck = draw(st.permutations(range(52)))
    size = draw(st.integers(5, 7))
    cards, others = list(deck[:size]), list(deck[size:2 * size])
    form = card_form(draw, cards)
    if draw(st.integers(0, 3)) == 0:
        refused(pk.hand_value, bad_cards(draw, (0, 1, 4, 8), cards), names=("hand", "card"),
                artifacts_dir=poker_artifacts)
    elif draw(st.integers(0, 9)) == 0:
        missing(pk.hand_value, form, artifacts_dir=nothing_built)
    else:
        assert answer(pk.parse_cards, form) == tuple(cards)
        value, category = answer(pk.hand_value, form, artifacts_dir=poker_artifacts)
        assert category == pk.CATEGORIES[value >> 12]
        if CHECK_ORDER(draw):
            ph = peers.require("phevaluator")
            mine, theirs = ph.evaluate_cards(*cards), ph.evaluate_cards(*others)
            assert pk.CATEGORIES.index(category) == ph_category(mine)
            other = pk.hand_value(others, artifacts_dir=poker_artifacts)[0]
            assert np.sign(value - other) == np.sign(theirs - mine)  # phevaluator: lower is better

    index = draw(st.one_of(integers(0, 168), bad_integer(0, 168)))
    if not is_within(index, 0, 168):
        refused(pk.class_name, index, names=("class index",))
    else:
        assert answer(pk.parse_class, answer(pk.class_name, index)) == int(index)
    assert answer(pk.class_name, answer(pk.parse_class, text(cards[:2]))) == class_of(cards[:2])
    rules = draw(st.one_of(st.just(pk.DEFAULT_RULES), JUNK, st.sampled_from(["Holdem", "omaha"])))
    if isinstance(rules, str) and rules == "holdem":
        assert answer(pk.get_rules, rules).to_dict() == pk.RULES
    else:
        refused(pk.get_rules, rules, names=("rule set",))
