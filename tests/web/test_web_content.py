"""The content of the routes that only reshape lookup's answers, against sources independent of the route:
/categories against the rules as stated (docs/yahtzee.md, the guide's section 3.1), /sheet totals recomputed
here from the boxes, /coach regrets against lookup.yahtzee.explain, the dice race's advice through every game's
/advise against the exact-rational reference of tests/dicerace/exact_reference.py (API level: TestClient, no
browser)."""

from fractions import Fraction

import pytest

from lookup import yahtzee
from tests.dicerace.exact_reference import roll_law, sequential_game

# The 13 boxes in sheet order, as the rules state them (docs/yahtzee.md, "Rules"; the seed's feuilleScore order).
STATED_BOXES = ["ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind", "four_of_a_kind",
                "full_house", "small_straight", "large_straight", "yahtzee", "chance"]


def test_categories_are_the_stated_boxes(client):
    got = client.get("/api/yahtzee/categories")
    assert got.status_code == 200 and got.json() == STATED_BOXES


# (rule set, upper threshold, upper bonus counted in totals) as the rules state them: 35 at 63, none for `seed`
# (its optimisation leaves the bonus out, and the sheet's totals count it the same way).
BONUS = {"hasbro": (63, 35), "verhoeff": (63, 35), "plain": (63, 35), "seed": (63, 0)}
SHEETS = [
    {},
    {"ones": 3, "chance": 22},
    {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18},           # upper 63: the bonus
    {"ones": 2, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18},           # upper 62: no bonus
    {"sixes": 30, "fives": 25, "fours": 20, "yahtzee": 50, "yahtzee_bonus": 200, "full_house": 25},
    [1, 2, 3, 4, 5, 6, 30, 0, 25, 30, 40, 0, 17],                                          # finished (list form)
]


@pytest.mark.parametrize("rules", sorted(BONUS))
@pytest.mark.parametrize("sheet", SHEETS)
def test_sheet_totals_are_the_sum_of_the_boxes_and_bonuses(client, rules, sheet):
    if rules == "plain" and isinstance(sheet, dict) and "yahtzee_bonus" in sheet:
        got = client.post(f"/api/yahtzee/{rules}/sheet", json={"sheet": sheet})
        assert got.status_code == 422 and "yahtzee_bonus" in got.json()["detail"]  # plain: no Yahtzee bonus
        return
    got = client.post(f"/api/yahtzee/{rules}/sheet", json={"sheet": sheet})
    assert got.status_code == 200, got.text
    body = got.json()
    boxes = dict(zip(STATED_BOXES, sheet, strict=True)) if isinstance(sheet, list) else {
        k: v for k, v in sheet.items() if k != "yahtzee_bonus"}
    threshold, bonus = BONUS[rules]
    upper = sum(boxes.get(b) or 0 for b in STATED_BOXES[:6])
    ybonus = sheet.get("yahtzee_bonus", 0) if isinstance(sheet, dict) else 0
    assert body["sheet"] == {**{b: boxes.get(b) for b in STATED_BOXES}, "yahtzee_bonus": ybonus}
    assert body["upper_total"] == upper and body["upper_threshold"] == threshold
    assert body["upper_bonus"] == (bonus if upper >= threshold else 0)
    assert body["yahtzee_bonus"] == ybonus
    assert body["total"] == sum(v or 0 for v in boxes.values()) + body["upper_bonus"] + ybonus
    assert body["finished"] == (len([v for v in boxes.values() if v is not None]) == 13)


COACH_CASES = [([1, 3, 3, 5, 6], 2, {}), ([2, 2, 4, 5, 5], 1, {"ones": 2, "chance": 21, "yahtzee": 50}),
               ([6, 6, 6, 2, 1], 2, {"sixes": 24, "threes": 9, "full_house": 25})]


@pytest.mark.parametrize("dice, rerolls, sheet", COACH_CASES)
def test_coach_regrets_are_differences_of_explains_option_values(client, web_artifacts, dice, rerolls, sheet):
    got = client.post("/api/yahtzee/hasbro/coach", json={"dice": dice, "rerolls": rerolls, "sheet": sheet})
    assert got.status_code == 200, got.text
    outlooks = got.json()
    options = {tuple(o.keep): o.expected_final
               for o in yahtzee.explain(dice, rerolls, sheet, "hasbro", artifacts_dir=web_artifacts)}
    assert {tuple(o["keep"]) for o in outlooks} == set(options)  # every distinct keep, once
    best = max(options.values())
    for o in outlooks:
        value = options[tuple(o["keep"])]
        assert o["expected_final"] == pytest.approx(value, abs=1e-9)
        assert o["regret"] == pytest.approx(best - value, abs=1e-9)
        for kind in ("made", "scored"):
            assert set(o[kind]) == set(STATED_BOXES)
            for p in o[kind].values():  # the exact fraction and its float agree; the denominator is 6**(5 r)
                frac = Fraction(p["exact"])
                assert float(frac) == p["p"] and (6 ** (5 * rerolls)) % frac.denominator == 0
        assert sum(Fraction(p["exact"]) for p in o["scored"].values()) == 1  # the turn ends in exactly one box
        assert Fraction(o["made"]["chance"]["exact"]) == 1                    # chance is always made
    assert [o["expected_final"] for o in outlooks] == sorted((o["expected_final"] for o in outlooks), reverse=True)


@pytest.mark.parametrize("mine, other", [(0, 0), (12, 17), (19, 3), (5, 19), (18, 18)])
def test_dicerace_advice_is_the_exact_game(client, mine, other):
    dice, target = 3, 20  # the dice race's small instance (pipeline/dicerace/game.py)
    eg, ties = sequential_game(dice, target)
    record = {"game": "dicerace", "setup": {"dice": dice, "target": target, "mode": "sequential"},
              "start": {"scores": [mine, other], "to_move": 0}, "events": []}
    got = client.post("/api/games/dicerace/advise", json={"record": record})
    assert got.status_code == 200, got.text
    body = got.json()
    assert body["values"][0] == pytest.approx(float(eg[(mine, other)]), abs=1e-12)
    assert body["values"][1] == pytest.approx(-float(eg[(mine, other)]), abs=1e-12)
    assert [o["action"] for o in body["options"] if o["best"]] == sorted(ties[(mine, other)])
    assert body["advice"] == min(ties[(mine, other)])
    for o in body["options"]:  # rolling d, then optimal play: the textbook recursion in rationals
        d = o["action"]
        want = sum(p * (1 if mine + k >= target else -eg[(other, mine + k)]) for k, p in roll_law(d).items())
        assert o["value"] == pytest.approx(float(want), abs=1e-12)
