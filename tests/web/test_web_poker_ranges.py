"""POST /api/poker/range answers what lookup.poker.range_equity (and call_decision) answer, computed here, with the
same defaults, and refuses bad ranges, cards and settings with a 422 naming the problem."""

from lookup import poker
from lookup.poker.equity import DEFAULT_BUDGET, DEFAULT_SAMPLES
from lookup.poker.play import call_decision


def detail(response, status=422):
    assert response.status_code == status, response.text[:300]
    return response.json()["detail"]


def without_time(answer):
    return {k: v for k, v in answer.items() if k not in ("seconds", "decision")}


def test_range_route_is_the_librarys_answer(client, web_artifacts):
    # Preflop: the table's heads-up counts, exact, with the call or fold of the first player.
    body = {"players": ["AsAh", "QQ+, AKs"], "pot": 100, "to_call": 50}
    got = client.post("/api/poker/range", json=body).json()
    want = poker.range_equity(["AsAh", "QQ+, AKs"], artifacts_dir=web_artifacts)
    assert got["exact"] and got["source"] == "preflop table" and without_time(got) == without_time(want.as_dict())
    decision = call_decision(want, 100, 50)
    assert got["decision"] == {"pot": 100, "to_call": 50, "action": "call", "equity": decision.equity,
                               "break_even": 1 / 3, "gain": decision.gain, "exact": True}
    # A flop, a dead card: every pair of hands counted.
    body = {"players": ["AsAh, KK", "QQ+, AKs:0.5"], "board": "2c 7d 9h", "dead": "Qs"}
    got = client.post("/api/poker/range", json=body).json()
    want = poker.range_equity(body["players"], "2c7d9h", dead="Qs", artifacts_dir=web_artifacts)
    assert got["exact"] and got["decision"] is None and without_time(got) == without_time(want.as_dict())
    # Beyond the budget: the same seeded estimate, as many deals as the budget allows (the library's default).
    body = {"players": ["AsAh", "QQ+, AKs"], "board": "2c 7d 9h", "opponents": 1, "budget": 0.01}
    got = client.post("/api/poker/range", json=body).json()
    want = poker.range_equity(body["players"], "2c7d9h", 1, budget=0.01, artifacts_dir=web_artifacts)
    assert not got["exact"] and got["source"] == "monte carlo" and without_time(got) == without_time(want.as_dict())


def test_range_route_bad_input_is_named(client):
    assert "'AKx' is not a hand class" in detail(client.post("/api/poker/range", json={"players": ["AsAh", "AKx"]}))
    assert "'7x' is not a card" in detail(client.post("/api/poker/range",
                                                      json={"players": ["AsAh", "KK"], "board": "2c 7x 9h"}))
    assert "no deal is possible" in detail(client.post("/api/poker/range", json={"players": ["AsAh", "AsKd"]}))
    assert "both pot and to_call" in detail(client.post("/api/poker/range", json={"players": ["AsAh", "KK"],
                                                                                   "pot": 10}))
    assert "to_call must be" in detail(client.post("/api/poker/range", json={"players": ["AsAh", "KK"], "pot": 10,
                                                                               "to_call": -1}))
    # The web's caps are the library's defaults, named in the refusal; the library's own bounds refuse junk.
    assert detail(client.post("/api/poker/range", json={"players": ["AsAh", "KK"], "budget": 7})) == (
        f"budget must be at most {DEFAULT_BUDGET:g} seconds on the web (the library's default; the command line "
        "allows more), got 7")
    assert f"samples must be at most {DEFAULT_SAMPLES:,} deals on the web" in detail(client.post(
        "/api/poker/range", json={"players": ["AsAh", "KK"], "samples": 10**7}))
    assert "samples=10000000000 outside 2..1000000000" in detail(client.post(
        "/api/poker/equity", json={"hands": ["AsAh"], "samples": 10**10}))
    assert "budget must be a finite number" in detail(client.post(
        "/api/poker/equity", content=b'{"hands": ["AsAh"], "budget": Infinity}',
        headers={"content-type": "application/json"}))
    assert "1..9 hands or ranges" in detail(client.post("/api/poker/range", json={"players": []}))
    assert "at least two players" in detail(client.post("/api/poker/range", json={"players": ["QQ+"]}))
