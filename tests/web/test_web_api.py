"""The JSON API answers what lookup answers, and bad input is a 422 with the library's own message
(its public wording for a table not built: webapp/problems.py)."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lookup import g151, yahtzee
from lookup.games import get_spec, names, open_setup
from lookup.protocol import CHANCE

SHEET = {"ones": 3, "chance": 22}


def test_yahtzee_decide_explain_value_match_lookup(client, web_artifacts):
    for dice, rerolls in (([1, 3, 3, 5, 6], 2), ([6, 2, 6, 6, 1], 1), ([2, 3, 4, 5, 5], 0)):
        body = {"dice": dice, "rerolls": rerolls, "sheet": SHEET}
        got = client.post("/api/yahtzee/hasbro/decide", json=body).json()
        want = yahtzee.decide(dice, rerolls, SHEET, artifacts_dir=web_artifacts)
        assert (got["category"], got["keep"]) == (want.category, None if want.keep is None else list(want.keep))
        assert got["reroll"] == (None if want.reroll is None else list(want.reroll))
        assert got["expected_final"] == want.expected_final
        options = client.post("/api/yahtzee/hasbro/explain", json=body).json()
        assert [(o["action"], o["expected_final"], o["regret"]) for o in options] == [
            (o.action, o.expected_final, o.regret) for o in yahtzee.explain(dice, rerolls, SHEET,
                                                                            artifacts_dir=web_artifacts)]
    got = client.post("/api/yahtzee/hasbro/value", json={"sheet": {}}).json()["value"]
    assert round(got, 7) == 254.5877287  # the published optimum of hasbro (docs/yahtzee.md, "Rules")
    built = {r["name"] for r in client.get("/api/yahtzee/rules").json() if r["built"]}
    assert built == {"hasbro", "scandinavian+forced"}


SCANDINAVIAN = "scandinavian+forced"


def test_yahtzee_rule_sets_describe_their_sheets_and_tables(client, web_artifacts):
    sets = {r["name"]: r for r in client.get("/api/yahtzee/rules").json()}
    assert set(sets) == set(yahtzee.RULE_SETS)
    for name, r in sets.items():
        rules = yahtzee.get_rules(name)
        assert r["boxes"] == list(rules.categories) and r["upper_threshold"] == rules.upper_threshold
        assert r["forced_order"] == rules.forced_order and r["upper_boxes"] == 6 and r["n_dice"] == rules.n_dice
    assert sets["hasbro"]["yahtzee_bonus"] == 100 and sets[SCANDINAVIAN]["yahtzee_bonus"] == 0
    assert len(sets[SCANDINAVIAN]["boxes"]) == 15
    # Built here (tests/web/conftest.py): play-to-win only for scandinavian+forced, the law for both, the duel of
    # two players (not three) for scandinavian+forced.
    assert {n: (r["objectives"], r["distribution"], r["players"]) for n, r in sets.items() if r["built"]} == {
        "hasbro": ([], True, []), SCANDINAVIAN: (["goal", "win", "opponent"], True, [2])}
    # Every objective the page offers is either built or says why not: the table missing and the command that
    # builds it (the library's not-built message, without a path), or that it does not apply (free order).
    assert set(sets[SCANDINAVIAN]["unavailable"]) == {"opponents3"}
    assert set(sets["hasbro"]["unavailable"]) == {"goal", "beat", "opponent", "opponents", "opponents3"}
    for r in sets.values():
        for kind, why in r["unavailable"].items():
            assert ("dicetables build " in why and str(web_artifacts) not in why) or "saves unused rolls" in why or (
                kind.startswith("opponents") and not r["forced_order"] and why.startswith("forced order only")), why
    assert "yahtzee-party3-scandinavian-forced" in sets[SCANDINAVIAN]["unavailable"]["opponents3"]


def test_yahtzee_play_to_win_chance_and_distribution_match_lookup(client, web_artifacts):
    kw = {"artifacts_dir": web_artifacts}
    sheet = {"ones": 2, "twos": 6}
    opponent = {"opponent": {"ones": 3, "twos": 6, "threes": 9}}  # plays for expected score (headsup)
    for dice, rerolls, target in (([1, 3, 3, 5, 6], 2, {"goal": 200}), ([6, 2, 6, 6, 1], 1, {"beat": 180}),
                                  ([2, 3, 4, 5, 5], 0, {"goal": 150}), ([3, 3, 3, 5, 6], 2, opponent),
                                  ([3, 3, 4, 5, 6], 0, opponent)):
        body = {"dice": dice, "rerolls": rerolls, "sheet": sheet, **target}
        got = client.post(f"/api/yahtzee/{SCANDINAVIAN}/decide", json=body).json()
        want = yahtzee.decide(dice, rerolls, sheet, SCANDINAVIAN, **target, **kw)
        assert (got["probability"], got["text"], got["category"]) == (want.probability, str(want), want.category)
        assert got["objective"] == want.objective and got["needed"] == want.needed
        options = client.post(f"/api/yahtzee/{SCANDINAVIAN}/explain", json=body).json()
        assert [(o["action"], o["probability"], o["regret"]) for o in options] == [
            (o.action, o.probability, o.regret) for o in yahtzee.explain(dice, rerolls, sheet, SCANDINAVIAN,
                                                                        **target, **kw)]
    assert client.post(f"/api/yahtzee/{SCANDINAVIAN}/chance", json={"sheet": sheet, "goal": 200}).json() == {
        "probability": yahtzee.chance(sheet, SCANDINAVIAN, goal=200, **kw)}
    assert client.post(f"/api/yahtzee/{SCANDINAVIAN}/chance", json={"sheet": sheet, **opponent}).json() == {
        "probability": yahtzee.chance(sheet, SCANDINAVIAN, **opponent, **kw)}
    law = yahtzee.distribution("hasbro", **kw)
    got = client.get("/api/yahtzee/hasbro/distribution").json()
    assert (got["mean"], got["sd"], got["median"], got["p_upper_bonus"]) == (law.mean, law.sd, law.median,
                                                                             law.p_upper_bonus)
    assert got["pmf"] == law.pmf[:len(got["pmf"])].tolist() and sum(law.pmf[len(got["pmf"]):]) == 0


# Forced-order duels (both play to win): (dice, rerolls, the mover's sheet, the opponent's sheet). The opponent
# has filled as many boxes (the mover plays first at this box) or one more (second).
DUELS = [([1, 3, 3, 5, 6], 2, {}, {}), ([6, 2, 6, 6, 1], 1, {}, {"ones": 3}),
         ([2, 2, 2, 5, 5], 0, {"ones": 2, "twos": 6}, {"ones": 3, "twos": 4, "threes": 9}),
         ([4, 4, 1, 4, 6], 2, {"ones": 1, "twos": 4, "threes": 6}, {"ones": 3, "twos": 8, "threes": 12})]


@pytest.mark.parametrize(("dice", "rerolls", "sheet", "opponent"), DUELS)
def test_yahtzee_duel_decide_explain_chance_match_lookup(client, web_artifacts, dice, rerolls, sheet, opponent):
    kw = {"opponents": [opponent], "artifacts_dir": web_artifacts}
    body = {"dice": dice, "rerolls": rerolls, "sheet": sheet, "opponents": [opponent]}
    got = client.post(f"/api/yahtzee/{SCANDINAVIAN}/decide", json=body).json()
    want = yahtzee.decide(dice, rerolls, sheet, SCANDINAVIAN, **kw)
    assert got == {"rules": SCANDINAVIAN, "dice": dice, "rerolls": rerolls,
                   "reroll": None if want.reroll is None else list(want.reroll),
                   "keep": None if want.keep is None else list(want.keep), "category": want.category,
                   "objective": "opponents", "players": 2, "seat": want.seat, "probability": want.probability,
                   "text": str(want)}
    assert got["seat"] == (0 if len(opponent) == len(sheet) else 1)
    options = client.post(f"/api/yahtzee/{SCANDINAVIAN}/explain", json=body).json()
    assert options == [{"action": o.action, "keep": None if o.keep is None else list(o.keep), "category": o.category,
                        "probability": o.probability, "regret": o.regret}
                       for o in yahtzee.explain(dice, rerolls, sheet, SCANDINAVIAN, **kw)]
    assert options[0]["probability"] == got["probability"]
    win, tie, lose = yahtzee.win_probability(sheet, SCANDINAVIAN, **kw)
    chance = client.post(f"/api/yahtzee/{SCANDINAVIAN}/chance", json={"sheet": sheet, "opponents": [opponent]})
    assert chance.json() == {"probability": win + tie / 2, "win": win, "tie": tie, "lose": lose}


@pytest.mark.parametrize("extra", [{"opponent": {}}, {"goal": 200}, {"beat": 200}])
@pytest.mark.parametrize("route", ["decide", "explain", "chance"])
def test_yahtzee_opponents_with_another_objective_is_422(client, route, extra):
    body = {"sheet": {}, "opponents": [{}], **extra, **({} if route == "chance" else {"dice": [1, 2, 3, 4, 5],
                                                                                     "rerolls": 1})}
    response = client.post(f"/api/yahtzee/{SCANDINAVIAN}/{route}", json=body)
    assert response.status_code == 422
    assert "opponents" in response.json()["detail"] and "give one objective" in response.json()["detail"]


def test_sheet_scoring_bonuses_and_joker(client):
    sheet = {"yahtzee": 50, "sixes": 24}
    got = client.post("/api/yahtzee/hasbro/score", json={"sheet": sheet, "dice": [5] * 5, "category": "fives"}).json()
    assert got["points"] == 125  # 25 in fives + 100 Yahtzee bonus
    assert got["yahtzee_bonus"] == 100 and got["sheet"]["fives"] == 25 and got["total"] == 50 + 24 + 25 + 100
    # Forced Joker: fives is now filled, so a Yahtzee of fives may go in a lower box at Joker values.
    allowed = client.post("/api/yahtzee/hasbro/allowed", json={"sheet": got["sheet"], "dice": [5] * 5,
                                                               "rerolls": 0}).json()
    assert allowed["large_straight"] == 40 and "ones" not in allowed
    bad = client.post("/api/yahtzee/hasbro/score", json={"sheet": got["sheet"], "dice": [5] * 5, "category": "ones"})
    assert bad.status_code == 422 and "ones" in bad.json()["detail"]


def test_the_map_route_is_the_librarys_map(client, web_artifacts):
    """POST /api/games/{game}/map (js/map.js) for every game that declares a map: the library's map at the record's
    end (``lookup.maps``), the position's cell as ``at``, and the same map kept for a position that differs only in
    the two coordinates. The dice race's sequential map against the table's own arrays (the smallest optimal number
    of dice from the exact masks; the value), 151's against its entry point."""
    from lookup.dicerace import sequential_table
    from lookup.maps import cell_of, strategy_map

    mapped = [n for n in names() if get_spec(n).map is not None]
    assert mapped
    for game in mapped:
        spec = get_spec(game)
        setup = spec.setups(web_artifacts)[0]
        advisor = open_setup(game, setup, web_artifacts)
        g, events = advisor.game, []
        state = g.initial_state()
        while g.to_move(state) == CHANCE:  # to the first decision, by each chance node's last outcome
            events.append(g.action_json(state, g.chance_outcomes(state)[-1][0]))
            state = g.apply(state, g.chance_outcomes(state)[-1][0])
        got = client.post(f"/api/games/{game}/map", json={"record": {"game": game, "setup": setup, "events": events}})
        assert got.status_code == 200, got.text
        want = strategy_map(advisor, state, spec.map)
        assert got.json() == json.loads(json.dumps(want.as_dict())) and got.json()["at"] == list(cell_of(g, state,
                                                                                                          spec.map))
    seq = {"dice": 3, "target": 20, "mode": "sequential"}
    table = sequential_table(3, 20, artifacts_dir=web_artifacts)
    got = client.post("/api/games/dicerace/map", json={"record": {"game": "dicerace", "setup": seq, "events": []}})
    m = got.json()
    names_ = [a["action"] for a in m["actions"]]
    for mine, other in ((0, 0), (12, 7), (19, 19), (3, 18)):
        mask = int(table.optimal[mine, other])
        assert names_[m["action"][mine][other]] == (mask & -mask).bit_length()
        assert m["several"][mine][other] == (mask.bit_count() > 1)
        assert m["value"][mine][other] == float(table.value[mine, other])
    setup = {"rules": "stated", "target": 300, "players": 2}
    for other in (0, 150):
        record = {"game": "g151", "setup": setup, "start": {"banked": [100, other], "to_move": 0, "turn_total": 50,
                                                            "rolling": False}, "events": []}
        m = client.post("/api/games/g151/map", json={"record": record}).json()
        for banked, turn in ((0, 100), (200, 50), (100, 150)):
            want = g151.decide(banked, turn, other, 300, artifacts_dir=web_artifacts)
            assert m["actions"][m["action"][banked // 50][turn // 50]]["action"] == want
        assert m["action"][5][2] is None and m["at"] == [2, 1]  # 250 banked and 100 this turn: past the target


@pytest.mark.parametrize(("game", "record", "named"), [
    ("dicerace", {"setup": {"dice": 3, "target": 30}}, "dice=3, target=30 is not built"),
    ("dicerace", {"setup": {"mode": "together"}}, "mode"),
    ("dicerace", {"setup": {"dice": 3, "target": 20}, "events": [1]}, "a map is drawn at a decision; here chance"),
    ("pig", {"setup": {"target": 20}, "events": [6, "roll", 6, "roll", 6, "roll", 6]}, "the game is over"),
    ("tictactoe", {}, "tictactoe has no map"),
])
def test_the_map_route_refuses_with_a_422_naming_why(client, game, record, named):
    response = client.post(f"/api/games/{game}/map", json={"record": {"game": game, "events": [], **record}})
    assert response.status_code == 422 and named in response.json()["detail"], response.text


BAD = [
    ("/api/yahtzee/hasbro/decide", {"dice": [1, 2, 3, 4, 7], "rerolls": 2},
     lambda a: yahtzee.decide([1, 2, 3, 4, 7], 2, {}, artifacts_dir=a)),
    ("/api/yahtzee/hasbro/decide", {"dice": [1, 2, 3, 4], "rerolls": 2},
     lambda a: yahtzee.decide([1, 2, 3, 4], 2, {}, artifacts_dir=a)),
    ("/api/yahtzee/hasbro/decide", {"dice": [1, 2, 3, 4, 5], "rerolls": 3},
     lambda a: yahtzee.decide([1, 2, 3, 4, 5], 3, {}, artifacts_dir=a)),
    ("/api/yahtzee/hasbro/explain", {"dice": [1, 2, 3, 4, 5], "rerolls": 1, "sheet": {"ones": 7}},
     lambda a: yahtzee.explain([1, 2, 3, 4, 5], 1, {"ones": 7}, artifacts_dir=a)),
    ("/api/yahtzee/plain/value", {"sheet": {}}, lambda a: yahtzee.value({}, "plain", artifacts_dir=a)),
    ("/api/yahtzee/nonsense/value", {"sheet": {}}, lambda a: yahtzee.value({}, "nonsense", artifacts_dir=a)),
    (f"/api/yahtzee/{SCANDINAVIAN}/decide", {"dice": [1, 2, 3, 4, 5], "rerolls": 1, "goal": 100, "beat": 100},
     lambda a: yahtzee.decide([1, 2, 3, 4, 5], 1, {}, SCANDINAVIAN, goal=100, beat=100, artifacts_dir=a)),
    ("/api/yahtzee/hasbro/explain", {"dice": [1, 2, 3, 4, 5], "rerolls": 1, "goal": 200},
     lambda a: yahtzee.explain([1, 2, 3, 4, 5], 1, {}, goal=200, artifacts_dir=a)),
    (f"/api/yahtzee/{SCANDINAVIAN}/chance", {"sheet": {}, "goal": 10**9},
     lambda a: yahtzee.chance({}, SCANDINAVIAN, goal=10**9, artifacts_dir=a)),
    # Against players who play to win: no 3-player table here (its public wording), no sheet, a free-order rule
    # set, sheets not at the same box.
    (f"/api/yahtzee/{SCANDINAVIAN}/decide", {"dice": [1, 2, 3, 4, 5], "rerolls": 1, "opponents": [{}, {}]},
     lambda a: yahtzee.decide([1, 2, 3, 4, 5], 1, {}, SCANDINAVIAN, opponents=[{}, {}], artifacts_dir=a)),
    (f"/api/yahtzee/{SCANDINAVIAN}/chance", {"sheet": {}, "opponents": [{}, {}]},
     lambda a: yahtzee.win_probability({}, SCANDINAVIAN, opponents=[{}, {}], artifacts_dir=a)),
    (f"/api/yahtzee/{SCANDINAVIAN}/explain", {"dice": [1, 2, 3, 4, 5], "rerolls": 1, "opponents": []},
     lambda a: yahtzee.explain([1, 2, 3, 4, 5], 1, {}, SCANDINAVIAN, opponents=[], artifacts_dir=a)),
    ("/api/yahtzee/hasbro/decide", {"dice": [1, 2, 3, 4, 5], "rerolls": 1, "opponents": [{}]},
     lambda a: yahtzee.decide([1, 2, 3, 4, 5], 1, {}, "hasbro", opponents=[{}], artifacts_dir=a)),
    (f"/api/yahtzee/{SCANDINAVIAN}/chance", {"sheet": {}, "opponents": [{"ones": 1, "twos": 2}]},
     lambda a: yahtzee.win_probability({}, SCANDINAVIAN, opponents=[{"ones": 1, "twos": 2}], artifacts_dir=a)),
]


@pytest.mark.parametrize(("path", "body", "call"), BAD, ids=[f"{p}-{i}" for i, (p, _, _) in enumerate(BAD)])
def test_bad_input_is_422_with_the_library_message(client, web_artifacts, path, body, call):
    with pytest.raises(ValueError) as exc:
        call(web_artifacts)
    response = client.post(path, json=body)
    assert response.status_code == 422
    # The library's message, or for a table not built its public wording (no path, no build step).
    assert response.json()["detail"] == getattr(exc.value, "public", str(exc.value))


@pytest.mark.parametrize("body", [{"dice": [1, 2, 3, 4, "5"], "rerolls": 1}, {"dice": [1, 2, 3, 4, 5], "rerolls": True},
                                  {"dice": [1, 2, 3, 4, 5.0], "rerolls": 1}, {"dice": "12345", "rerolls": 1}, {},
                                  {"dice": [1, 2, 3, 4, 5], "rerolls": 1, "sheet": "x"}])
def test_wrong_types_are_422(client, body):
    assert client.post("/api/yahtzee/hasbro/decide", json=body).status_code == 422


json_int = st.one_of(st.integers(-10, 400), st.integers(), st.booleans(), st.none(),
                     st.floats(allow_nan=False, allow_infinity=False),
                     st.text(max_size=3))
sheets = st.one_of(st.dictionaries(st.sampled_from([*yahtzee.CATEGORIES, "yahtzee_bonus", "x"]), json_int, max_size=13),
                   st.lists(json_int, max_size=14), json_int)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["decide", "explain", "coach", "value", "sheet", "allowed", "score", "chance"]),
       st.sampled_from(["hasbro", "seed", "bad", SCANDINAVIAN]),
       st.fixed_dictionaries({}, optional={"dice": st.one_of(st.lists(json_int, max_size=6), json_int),
                                           "rerolls": json_int, "sheet": sheets, "goal": json_int, "beat": json_int,
                                           "opponent": sheets, "opponents": st.one_of(st.lists(sheets, max_size=3),
                                                                                      json_int),
                                           "keep": st.one_of(st.lists(json_int, max_size=6), json_int),
                                           "box": st.one_of(st.sampled_from(yahtzee.CATEGORIES), st.text()),
                                           "category": st.one_of(st.sampled_from(yahtzee.CATEGORIES), st.text())}))
def test_fuzz_yahtzee_never_5xx(client, route, rules, body):
    assert client.post(f"/api/yahtzee/{rules}/{route}", json=body).status_code in (200, 422)
    assert client.get(f"/api/yahtzee/{rules}/distribution").status_code in (200, 422)


events = st.lists(st.one_of(json_int, st.lists(st.integers(0, 7), max_size=6),
                            st.sampled_from(["roll", "hold", "bank", "ones", "chance"])), max_size=8)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(names()), st.sampled_from(["advise", "play", "judge", "review", "simulate", "map"]),
       st.fixed_dictionaries({"events": events}, optional={"game": st.sampled_from([*names(), "x"]),
                                                           "setup": st.dictionaries(st.text(max_size=8), json_int),
                                                           "seat": json_int, "start": json_int}),
       st.fixed_dictionaries({}, optional={"seat": json_int, "seed": json_int, "opponent": st.text(max_size=8),
                                           "draw": st.booleans(), "action": json_int, "games": st.integers(0, 2)}))
def test_fuzz_every_games_routes_never_5xx(client, web_artifacts, game, route, record, extra):
    """Random records (legal-looking events or not, of the game's first built setup unless another is drawn) and
    fields: an answer or a 422 naming the problem."""
    setup = get_spec(game).setups(web_artifacts)[0]
    body = {"record": {"game": game, "setup": setup, **record}, **extra} if route != "simulate" else {
        "setup": record.get("setup", setup), **{k: v for k, v in extra.items() if k in ("seed", "games")}}
    assert client.post(f"/api/games/{game}/{route}", json=body).status_code in (200, 422)


@pytest.mark.parametrize(("content", "message"), [
    (b'{"dice": [1, 2, 3, 4, 5], "rerolls": 1, "extra": 1}', "unknown field 'extra'"),
    (b'{"dice": [1, 2, 3, 4, 5]}', "missing field 'rerolls'"),
    (b'[1, 2, 3]', "must be a JSON object"),
    (b'{"dice": [1, 2, 3', "not JSON"),
    (b'{"dice": [1, 2, 3, 4, 5], "rerolls": 1, "sheet": 7}', "sheet must be"),
])
def test_the_hot_decide_route_names_a_malformed_body(client, content, message):
    """The decide route reads its body without pydantic (docs/web.md): same 422 contract, own messages."""
    response = client.post("/api/yahtzee/hasbro/decide", content=content, headers={"content-type": "application/json"})
    assert response.status_code == 422 and message in response.json()["detail"]


def test_the_hot_decide_route_is_documented(client):
    op = client.get("/openapi.json").json()["paths"]["/api/yahtzee/{rules}/decide"]["post"]
    body = op["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["required"]) == {"dice", "rerolls"} and body["additionalProperties"] is False
    answer = op["responses"]["200"]["content"]["application/json"]["schema"]
    assert answer == {"$ref": "#/components/schemas/DecideAnswer"}


def test_every_router_is_a_declared_games_and_is_served(client):
    """webapp.app finds its routers itself (webapp/routes/): the routes of every game (``games``), and a game's own
    beyond them, whose module its declaration names."""
    from pipeline.declaration import declarations
    from webapp.app import game_modules

    assert [m for m in game_modules() if m != "webapp.routes.games"] == sorted(d.web for d in declarations() if d.web)
    paths = set(client.app.openapi()["paths"])
    for module in game_modules():
        assert any(p.startswith(f"/api/{module.rsplit('.', 1)[1]}") for p in paths), module
