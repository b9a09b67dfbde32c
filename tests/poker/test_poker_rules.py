"""Cards, notation, starting-hand classes and the reference ranking (docs/poker.md, "Rules")."""

import numpy as np
import pytest

from lookup.poker.cards import (
    all_hands,
    card_index,
    card_text,
    class_combos,
    class_name,
    hand_classes,
    parse_cards,
    parse_class,
)
from lookup.poker.rules import best_of_seven, hand_key, shares


def test_card_notation_round_trips():
    assert [card_text(c) for c in range(52)][:5] == ["2c", "2d", "2h", "2s", "3c"]
    assert all(card_index(card_text(c)) == c for c in range(52))
    assert parse_cards("As Kd 7h") == (51, 45, 22)
    assert parse_cards("AsKd7h") == parse_cards(["As", "Kd", "7h"]) == parse_cards([51, 45, np.int64(22)])
    assert parse_cards("2c,7d, 9h") == (0, 21, 30)


@pytest.mark.parametrize("bad, match", [("Ax", "not a card"), ("1s", "not a card"), ("AsAs", "listed twice"),
                                         ("AsK", "two-character"), ([True], "not a card"), ([52], "does not exist"),
                                         ([1.0], "not a card"), (5, "expected cards")])
def test_bad_cards(bad, match):
    with pytest.raises(ValueError, match=match):
        parse_cards(bad)


def test_169_classes_partition_the_1326_hands():
    classes = hand_classes()
    assert len(all_hands()) == 1326
    counts = np.bincount(classes, minlength=169)
    for index in range(169):
        name = class_name(index)
        want = 6 if len(name) == 2 else 4 if name.endswith("s") else 12
        assert counts[index] == want == len(class_combos(index)), name
        assert parse_class(name) == index
    assert class_name(0) == "AA" and class_name(1) == "AKs" and class_name(13) == "AKo" and class_name(168) == "22"
    assert parse_class("AsKs") == parse_class("KA s".replace(" ", "")) == 1


@pytest.mark.parametrize("bad, message", [("AKx", "not a starting hand"), ("AAs", "a pair is neither suited"),
                                          ("AK", "say 's' \\(suited\\) or 'o'"), ("A", "not a starting hand"),
                                          (3, "not a starting hand"), ("ZZ", "not a starting hand")])
def test_bad_classes(bad, message):
    with pytest.raises(ValueError, match=message):
        parse_class(bad)


def test_reference_ranking_orders_the_categories():
    hands = {  # best to worst, one example per category, and kicker/wheel cases
        "royal": "As Ks Qs Js Ts", "steel wheel": "5d 4d 3d 2d Ad", "quads": "9c 9d 9h 9s 2c",
        "boat": "Kc Kd Kh 2s 2c", "flush": "Ah Jh 8h 4h 2h", "broadway": "Ac Kd Qh Js Tc",
        "wheel": "5c 4d 3h 2s Ac", "trips": "7c 7d 7h Ks 2c", "two pair": "Jc Jd 4h 4s Ac",
        "pair": "Tc Td Ah Ks 2c", "high": "Ac Qd 9h 6s 3c", "worst": "7c 5d 4h 3s 2c",
    }
    keys = [hand_key(parse_cards(h)) for h in hands.values()]
    assert keys == sorted(keys, reverse=True)
    assert [k[0] for k in keys] == [8, 8, 7, 6, 5, 4, 4, 3, 2, 1, 0, 0]
    assert best_of_seven(parse_cards("As Ah Ad Ac Ks Qs Js"))[0] == 7  # quads beat the four spades
    assert best_of_seven(parse_cards("2c 3d 4h 5s 9c Ac Kd"))[:2] == (4, 3)  # the wheel


def test_shares_split_ties():
    assert shares([5, 9, 9, 1]) == [0, 0.5, 0.5, 0]
