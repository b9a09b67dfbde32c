"""Maxi Yatzy on the web: six dice, a rule set served from its layered table alone (no dense value table, no
policy, no score distribution, no play-to-win table). Played on ``maxi-mini`` (tests/web/conftest.py: six dice,
the upper boxes and Maxi Yatzy): what the API answers equals what ``lookup.yahtzee`` answers called directly, and
whatever a layered or unbuilt rule set cannot answer is a 422 that says what is not built, never a 5xx."""

import numpy as np
import pytest

from lookup import yahtzee
from lookup.yahtzee.rules import score_roll
from lookup.yahtzee.tables import LayeredValues, built_value_table, layered_name, load_tables
from tests.web.conftest import MAXI_MINI

NOT_BUILT = "is not built on this server"


@pytest.fixture(scope="module")
def maxi_client(maxi_mini_artifacts):
    from fastapi.testclient import TestClient

    from webapp.app import create_app

    return TestClient(create_app(maxi_mini_artifacts))


def test_rule_sets_list_six_dice_and_a_layered_table_as_built(maxi_client, maxi_mini_artifacts):
    rules = yahtzee.get_rules(MAXI_MINI)
    tables = load_tables(rules, maxi_mini_artifacts)  # what play reads here: the layered table, no policy
    assert isinstance(tables.value, LayeredValues) and tables.policy is None
    assert built_value_table(rules, maxi_mini_artifacts) == layered_name(rules)
    sets = {r["name"]: r for r in maxi_client.get("/api/yahtzee/rules").json()}
    assert {n: r["n_dice"] for n, r in sets.items()} == {n: r.n_dice for n, r in yahtzee.RULE_SETS.items()}
    assert sets["maxi"]["n_dice"] == sets["maxi-se"]["n_dice"] == 6 and sets["hasbro"]["n_dice"] == 5
    assert [n for n, r in sets.items() if r["built"]] == [MAXI_MINI]
    mini = sets[MAXI_MINI]
    assert (mini["boxes"], mini["upper_boxes"], mini["upper_threshold"], mini["upper_bonus"]) == (
        list(rules.categories), 6, 70, 100)
    assert (mini["distribution"], mini["objectives"], mini["yahtzee_bonus"]) == (False, [], 0)


def _positions(rules, rng, count):
    """``count`` (dice, rerolls, sheet) of six dice on sheets reached by random play."""
    for _ in range(count):
        sheet: dict[str, int] = {}
        for _ in range(int(rng.integers(0, rules.n_boxes))):
            box = int(rng.choice([c for c, name in enumerate(rules.categories) if name not in sheet]))
            sheet[rules.categories[box]] = score_roll(rules, [int(x) for x in rng.integers(1, 7, 6)], box)
        yield [int(x) for x in rng.integers(1, 7, 6)], int(rng.integers(0, 3)), sheet


def test_six_dice_answers_equal_lookups(maxi_client, maxi_mini_artifacts):
    rules, kw = yahtzee.get_rules(MAXI_MINI), {"artifacts_dir": maxi_mini_artifacts}
    api = f"/api/yahtzee/{MAXI_MINI}"
    rng = np.random.default_rng(6)
    for dice, rerolls, sheet in [([1, 2, 3, 4, 5, 6], 2, {}), ([6, 6, 6, 6, 6, 1], 1, {"sixes": 30}),
                                 *_positions(rules, rng, 12)]:
        body = {"dice": dice, "rerolls": rerolls, "sheet": sheet}
        want = yahtzee.decide(dice, rerolls, sheet, MAXI_MINI, **kw)
        assert len(want.dice) == 6
        assert maxi_client.post(f"{api}/decide", json=body).json() == want.as_dict()
        options = yahtzee.explain(dice, rerolls, sheet, MAXI_MINI, **kw)
        assert maxi_client.post(f"{api}/explain", json=body).json() == [o.as_dict() for o in options]
        assert maxi_client.post(f"{api}/value", json={"sheet": sheet}).json() == {
            "value": yahtzee.value(sheet, MAXI_MINI, **kw)}
        if rerolls:
            coached = maxi_client.post(f"{api}/coach", json=body).json()
            assert {tuple(k["keep"]): k["expected_final"] for k in coached} == {
                o.keep: o.expected_final for o in options if o.category is None}
        open_box = next(b for b in rules.categories if b not in sheet)
        scored = maxi_client.post(f"{api}/score", json={"sheet": sheet, "dice": dice, "category": open_box}).json()
        played = yahtzee.Sheet.parse(sheet, MAXI_MINI)
        assert scored["points"] == played.score(open_box, dice) and scored["total"] == played.total
    five = maxi_client.post(f"{api}/decide", json={"dice": [1, 2, 3, 4, 5], "rerolls": 2})
    assert five.status_code == 422 and five.json()["detail"] == "expected 6 dice, got 5: [1, 2, 3, 4, 5]"


def test_what_a_layered_or_unbuilt_rule_set_lacks_is_a_clear_422(maxi_client):
    turn = {"dice": [2, 2, 3, 3, 4, 4], "rerolls": 1, "sheet": {}}

    def refused(method, path, body, words):
        response = maxi_client.request(method, f"/api/yahtzee/{path}", json=body)
        assert response.status_code == 422 and response.headers["content-type"] == "application/problem+json"
        assert words in response.json()["detail"], (path, response.json())

    refused("GET", f"{MAXI_MINI}/distribution", None,
            f"the score distribution of rule set {MAXI_MINI!r} {NOT_BUILT}")
    refused("POST", f"{MAXI_MINI}/decide", {**turn, "goal": 120}, f"(goal) of rule set {MAXI_MINI!r} {NOT_BUILT}")
    refused("POST", f"{MAXI_MINI}/explain", {**turn, "beat": 120}, f"(win) of rule set {MAXI_MINI!r} {NOT_BUILT}")
    refused("POST", f"{MAXI_MINI}/chance", {"sheet": {}, "goal": 120}, NOT_BUILT)
    for name in ("maxi", "maxi-se"):  # no table at all here
        for path, body in (("decide", turn), ("explain", turn), ("value", {"sheet": {}}), ("coach", turn),
                           ("chance", {"sheet": {}, "goal": 300})):
            refused("POST", f"{name}/{path}", body, NOT_BUILT)
        refused("GET", f"{name}/distribution", None, f"the score distribution of rule set {name!r} {NOT_BUILT}")
    # The sheet needs no table: Maxi's 20 boxes, six dice.
    allowed = maxi_client.post("/api/yahtzee/maxi/allowed", json=turn).json()
    assert allowed == yahtzee.Sheet.parse({}, "maxi").allowed(turn["dice"])
    assert (allowed["three_pairs"], allowed["two_pairs"], len(allowed)) == (18, 14, 20)
