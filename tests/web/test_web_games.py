"""The poker and dominoes routes answer what the library answers (computed here), and refuse bad cards, moves and
settings with a 422 naming the problem. (Tic-tac-toe, the dice race and 151 have no routes of their own but maps:
every game's routes, tests/web/test_web_protocol.py.)"""

import inspect
import re
from fractions import Fraction
from math import sqrt

import pytest

from lookup import dominoes, poker
from lookup.games import get_spec, open_setup
from lookup.poker.equity import DEFAULT_BUDGET, DEFAULT_SAMPLES
from lookup.records import replay
from webapp.routes import poker as poker_route


def detail(response, status=422):
    assert response.status_code == status, response.text[:300]
    return response.json()["detail"]


# --- poker ---------------------------------------------------------------------------------------------------


def test_poker_equity_is_the_librarys_exact_count(client, web_artifacts):
    body = {"hands": ["AsAh", "Kd Kc", "7h8h"], "board": "2c 7d 9h", "dead": "Qs"}
    got = client.post("/api/poker/equity", json=body).json()
    want = poker.equity(["AsAh", "KdKc", "7h8h"], "2c7d9h", dead="Qs", artifacts_dir=web_artifacts)
    assert got["exact"] and want.exact and got["deals"] == want.deals == 42 * 41 // 2
    assert [p["equity"] for p in got["players"]] == list(want.equity)
    assert [(p["wins"], p["ties"]) for p in got["players"]] == list(zip(want.wins, want.ties, strict=True))
    assert [Fraction(p["shares"]) for p in got["players"]] == list(want.shares)
    assert sum(p["equity"] for p in got["players"]) == pytest.approx(1.0)


def test_poker_equity_estimate_carries_its_standard_error(client, web_artifacts):
    """Four opponents: beyond what the numpy engine counts exactly, so a seeded Monte Carlo estimate."""
    body = {"hands": ["AsAh"], "opponents": 4, "board": "2c7d9h", "samples": 3000, "seed": 5}
    got = client.post("/api/poker/equity", json=body).json()
    want = poker.equity(["AsAh"], "2c7d9h", 4, samples=3000, seed=5, artifacts_dir=web_artifacts)
    assert not got["exact"] and got["deals"] == 3000 and got["source"] == "monte carlo"
    assert got["players"][0]["equity"] == want.equity[0] and got["players"][0]["se"] == want.se[0] > 0


def test_poker_routes_default_to_the_librarys_defaults_and_cap_at_them(client):
    """Budget, samples, seed and opponents: each poker route's default (in its model and in the OpenAPI schema a
    client reads) is the library function's default of the same argument, read from its signature; what a request
    may ask for is capped at the library's defaults."""
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    for model, function in ((poker_route.EquityQuery, poker.equity), (poker_route.RangeQuery, poker.range_equity)):
        library = inspect.signature(function).parameters
        for name in ("budget", "samples", "seed", "opponents"):
            want = library[name].default
            assert model.model_fields[name].default == want, (model.__name__, name)
            assert schemas[model.__name__]["properties"][name].get("default") == want, (model.__name__, name)
    assert inspect.signature(poker.decide).parameters["budget"].default == DEFAULT_BUDGET
    assert (poker_route.MAX_BUDGET, poker_route.MAX_SAMPLES) == (DEFAULT_BUDGET, DEFAULT_SAMPLES)


def test_poker_equity_at_the_default_is_as_precise_as_the_command_line(client, web_artifacts):
    """No budget or samples given: the page draws the library's DEFAULT_SAMPLES deals (the command line's default,
    tests/poker/test_poker_defaults.py), and answers what the library answers with the same arguments and seed,
    standard error included. Four opponents on the flop: more than the numpy engine counts within the budget (it
    counts them on the turn, tests/poker/test_poker_matchings.py)."""
    body = {"hands": ["AsKd"], "board": "2c7d9h", "opponents": 4, "seed": 11}
    got = client.post("/api/poker/equity", json=body).json()
    want = poker.equity(["AsKd"], "2c7d9h", 4, seed=11, artifacts_dir=web_artifacts)
    assert not got["exact"] and got["deals"] == want.deals == DEFAULT_SAMPLES
    player = got["players"][0]
    assert (player["equity"], player["se"]) == (want.equity[0], want.se[0])
    # A pot share lies in 0..1, so its variance is at most 1/4: the bound of any estimate from DEFAULT_SAMPLES deals.
    assert 0 < player["se"] <= 0.5 / sqrt(DEFAULT_SAMPLES)


def test_poker_equity_of_one_hand_defaults_to_one_random_opponent(client, web_artifacts):
    """The library's default (1 unknown opponent with one known hand, else 0): the route said 100 % for AsAh."""
    got = client.post("/api/poker/equity", json={"hands": ["AsAh"]}).json()
    want = poker.equity(["AsAh"], artifacts_dir=web_artifacts)
    assert got["opponents"] == want.opponents == 1 and got["source"] == "preflop table"
    assert got["players"][0]["equity"] == want.equity[0] == poker.preflop("AA", 1, artifacts_dir=web_artifacts).equity
    alone = client.post("/api/poker/equity", json={"hands": ["AsAh"], "opponents": 0}).json()
    assert alone["opponents"] == 0 and alone["players"][0]["equity"] == 1.0


def test_poker_preflop_chart_is_the_table(client, web_artifacts):
    one = client.get("/api/poker/preflop", params={"opponents": 1}).json()
    assert one["rows"] == [1, 2] and one["exact"]
    cells = {c["hand"]: c for c in one["cells"]}
    assert [one["cells"][k]["hand"] for k in (0, 1, 13, 168)] == ["AA", "AKs", "AKo", "22"]
    for hand in ("AA", "72o", "T9s"):
        want = poker.preflop(hand, 1, artifacts_dir=web_artifacts)
        assert cells[hand]["equity"] == want.equity and Fraction(cells[hand]["fraction"]) == want.fraction
    two = client.get("/api/poker/preflop", params={"opponents": 2}).json()
    want = poker.preflop("KQs", 2, artifacts_dir=web_artifacts)
    cell = next(c for c in two["cells"] if c["hand"] == "KQs")
    assert not two["exact"] and (cell["equity"], cell["se"]) == (want.equity, want.se) and want.se > 0
    assert "answers 1, 2 random opponents, not 3" in detail(client.get("/api/poker/preflop", params={"opponents": 3}))


def test_poker_bad_input_is_named(client, web_artifacts):
    with pytest.raises(ValueError) as bad_card:
        poker.equity(["AsKx"], artifacts_dir=web_artifacts)
    assert detail(client.post("/api/poker/equity", json={"hands": ["AsKx"]})) == str(bad_card.value)
    assert "'Kx' is not a card" in str(bad_card.value)
    assert "both in hand 1 and in board" in detail(client.post("/api/poker/equity",
                                                               json={"hands": ["AsKh"], "board": "As2c3d"}))
    assert "0, 3, 4 or 5 cards" in detail(client.post("/api/poker/equity", json={"hands": ["AsKh"], "board": "2c"}))
    assert f"budget must be at most {DEFAULT_BUDGET:g} seconds on the web" in detail(client.post(
        "/api/poker/equity", json={"hands": ["AsKh"], "budget": 60.0}))
    assert f"samples must be at most {DEFAULT_SAMPLES:,} deals on the web" in detail(client.post(
        "/api/poker/equity", json={"hands": ["AsKh"], "samples": 10**7}))
    assert "1..9 known hands" in detail(client.post("/api/poker/equity", json={"hands": []}))


def test_poker_hand_takes_cards_written_as_everywhere(client, web_artifacts):
    """The protocol's poker hand reads the dealt cards as the calculator does ("As Kh", "AsKh", any case), values
    the call as ``lookup.poker.decide`` does, and refuses a bad card with the calculator's message."""
    setup = {"opponents": 1, "pot": 100, "to_call": 50}
    want = poker.decide("AsKh", pot=100, to_call=50, artifacts_dir=web_artifacts)
    for typed in ("As Kh", "AsKh", "kh as"):
        record = {"game": "poker", "setup": setup, "seat": 0, "events": [typed]}
        got = client.post("/api/games/poker/advise", json={"record": record}).json()
        assert got["state"]["hole"] in ("AsKh", "KhAs") and got["advice"] == want.action
        assert next(o["value"] for o in got["options"] if o["action"] == "call") == pytest.approx(want.gain, abs=1e-9)
    with pytest.raises(ValueError) as bad:
        poker.equity(["AsKx"], artifacts_dir=web_artifacts)
    record = {"game": "poker", "setup": setup, "events": ["AsKx"]}
    assert str(bad.value).split("'AsKx'")[-1] in detail(client.post("/api/games/poker/advise", json={"record": record}))


# --- dominoes ---------------------------------------------------------------------------------------------------

HAND = ["6-6", "1-2", "3-5", "0-4", "2-2", "5-6", "1-1"]
HISTORY = ["6-6", "6-3L", "3-5L", "draw", "pass"]


def seen_from(web_artifacts, seat=0, **match):
    """The first setup built here of the standard set seen from ``seat`` (``you``) whose options include ``match``."""
    return next(s for s in get_spec("dominoes").setups(web_artifacts) if s["you"] == seat and s["max_pip"] == 6 and
                all(s[k] == v for k, v in match.items()))


def search(setup):
    """``move_values``' settings of a setup: its player, models and search (a predictive player: its one model)."""
    return {"player": setup["player"], "model": setup["models"][0] if setup["player"] == "predictive" else None,
            "models": setup["models"], **{k: setup[k] for k in ("depth", "samples", "max_exact", "endgame", "budget",
                                                                 "seed")}}


def test_dominoes_decision_is_the_librarys(client, web_artifacts):
    """One decision from a hand and the moves so far (the question of ``dicetables dominoes decide``): the record of
    the game seen from the player's seat (its tiles dealt, then every move) advised by the protocol's route."""
    for setup in (seen_from(web_artifacts, player="realistic"), seen_from(web_artifacts, player="predictive")):
        record = {"game": "dominoes", "setup": setup, "seat": 0, "events": [*HAND, *HISTORY]}
        got = client.post("/api/games/dominoes/advise", json={"record": record}).json()
        want = dominoes.move_values(HAND, HISTORY, 0, **search(setup))
        assert [(o["action"], o["value"]) for o in got["options"]] == want
        assert got["advice"] == dominoes.decide(HAND, HISTORY, 0, **search(setup)) and got["to_move"] == 0


def _tiles(text):
    """The tiles a text names, each as lookup writes it ("3-5", the lower pip first)."""
    return {dominoes.tile_name(dominoes.parse_tile(t)) for t in re.findall(r"\b\d-\d\b", text)}


def test_dominoes_game_hides_the_other_hand_until_the_end(client, web_artifacts):
    """Played through the protocol's routes for seat 0 (player 1): the position, the events and the review name none
    of the other hand's tiles while the game goes on (the deal to player 2 is "a tile"), and every tile once it is
    over."""
    game = next(g for g in client.get("/api/games").json()["games"] if g["name"] == "dominoes")
    setup = next(s for s in game["setups"] if s["max_pip"] == 6 and s["player"] == "realistic")
    g = open_setup("dominoes", setup, web_artifacts).game
    record = {"game": "dominoes", "setup": setup, "seat": 0, "events": []}
    turns = 0
    while True:
        got = client.post("/api/games/dominoes/play", json={"record": record, "seat": 0, "seed": 3}).json()
        record = got["record"]
        if got["over"]:
            break
        other = {dominoes.tile_name(t) for t in range(28) if replay(g, record["events"])[1].position.hands[1] >> t & 1}
        log = [e["text"] for e in got["log"]]
        assert log[7:14] == ["deals a tile to player 2"] * 7 and other
        events = client.post("/api/games/dominoes/review", json={"record": record}).json()["events"]
        for text in [got["text"], *log, *(e["text"] for e in events)]:
            assert not _tiles(text) & other, text
        assert f"player 2: {len(other)} tile" in got["text"]
        turns += 1
        record["events"].append(got["advice"])
    dealt = record["events"][7:14]
    assert turns > 1 and [e["text"] for e in got["log"]][7:14] == [f"deals {t} to player 2" for t in dealt]
    assert got["text"] == g.state_text(replay(g, record["events"])[1])


def test_dominoes_bad_input_is_named(client, web_artifacts):
    setup = seen_from(web_artifacts)
    with pytest.raises(ValueError) as bad:
        dominoes.move_values(HAND, ["6-6", "6-6R"], 0)
    record = {"game": "dominoes", "setup": setup, "seat": 0, "events": [*HAND, "6-6", "6-6R"]}
    assert "the opponent cannot hold 6-6" in str(bad.value)
    assert "the opponent cannot hold 6-6" in detail(client.post("/api/games/dominoes/advise", json={"record": record}))
    record = {"game": "dominoes", "setup": {**setup, "depth": 9}, "seat": 0, "events": HAND}
    assert detail(client.post("/api/games/dominoes/advise", json={"record": record})) == "depth=9 outside 1..3"


def test_dominoes_seen_from_one_seat_enters_the_other_and_refuses_what_the_seat_cannot_see(client, web_artifacts):
    """A setup seen from seat 0 (``lookup.dominoes.seen``): the tables do not play the other seat ("table" is not
    offered, and refused), the game stops at its moves and at chance; bad entries are 422s naming the problem."""
    from lookup.games import get_spec

    setup = next(s for s in get_spec("dominoes").setups(web_artifacts) if s["you"] == 0 and s["max_pip"] == 6)
    hand = ["0-0", "1-1", "2-2", "3-3", "4-4", "5-5", "6-6"]
    record = {"game": "dominoes", "setup": setup, "seat": 0, "events": [*hand, "6-6"]}
    got = client.post("/api/games/dominoes/advise", json={"record": record})
    assert got.status_code == 200, got.text
    answer = got.json()
    assert "table" not in answer["opponents"] and answer["to_move"] == 1
    assert all(o["value"] is None for o in answer["options"]) and "player 2: 7 tiles" in answer["text"]
    assert "do not play the other seats" in detail(client.post("/api/games/dominoes/play", json={
        "record": record, "seat": 0, "opponent": "table"}))
    played = client.post("/api/games/dominoes/play", json={"record": record, "seat": 0, "opponent": "none",
                                                           "draw": False}).json()
    assert played["record"]["events"] == [*hand, "6-6L"]  # (as the game writes the opening) nothing played on
    for events, message in ((["6-6", "0-0", "6-6"], "tile 6-6 is dealt to you already"),
                            ([*hand, "1-2"], "you do not hold 1-2"),
                            ([*hand, "6-6", "5-5L"], "the opponent cannot hold 5-5"),
                            ([*hand, "6-6", "1-2L"], "1-2 does not go there (ends 6 and 6)")):
        assert message in detail(client.post("/api/games/dominoes/advise", json={
            "record": {**record, "events": events}}))
