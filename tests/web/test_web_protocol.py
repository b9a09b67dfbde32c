"""The routes every registered game gets (webapp/routes/games.py), for every game ``lookup.games`` finds: each answer
equals what the library answers for the same record (``lookup.advice.advice``, ``lookup.review.judge`` and
``review``, ``lookup.simulate``), on games played here by the library itself (seeded, the tables' play at every
seat), over every setup built in the web tests' tables; bad input is a 4xx ``application/problem+json`` naming it."""

import json
import random

import pytest

from lookup.advice import advice
from lookup.games import get_spec, names, open_setup, served_setup
from lookup.protocol import CHANCE
from lookup.records import parse_record, record_of, replay, step_texts
from lookup.review import judge, review
from lookup.simulate import play, simulate, table_player
from webapp.common import STATIC
from webapp.routes import games as games_routes
from webapp.routes.games import MAX_SIMULATED

GAMES = names()
PAGE_KEYS = {"log", "seats", "chance", "unit_text", "digits", "higher", "opponents"}  # the route adds these
PREFIXES = 6  # positions of each game checked against the library (evenly spread, the start and end included)
JUDGED = 3  # decisions of each game at which every legal action is judged through the route


def plain(data):
    """``data`` as it comes back from JSON (tuples as lists)."""
    return json.loads(json.dumps(data))


def problem(response, status=422):
    assert response.status_code == status, response.text[:300]
    assert response.headers["content-type"] == "application/problem+json"
    return response.json()["detail"]


def played(game, setup, root, seed=7):
    """A whole game of ``setup`` played by the library (the tables at every seat), as (advisor, record JSON)."""
    advisor = open_setup(game, setup, root)
    g = advisor.game
    steps, _ = play(g, [table_player(advisor)] * g.seats, random.Random(seed))
    return advisor, record_of(g, setup, steps, seat=0).to_dict()


def spread(n, k):
    """``k`` indices spread evenly over 0..n (both ends included)."""
    return sorted({round(i * n / (k - 1)) for i in range(k)}) if n else [0]


def same_advice(got, advisor, record):
    """The route's position answer is lookup.advice.advice at the record's end, with its events in words, both as the
    record's seat is shown them."""
    steps, state = replay(advisor.game, record["events"])
    seat = record.get("seat")
    assert {k: v for k, v in got.items() if k not in PAGE_KEYS | {"record"}} == plain(advice(advisor, state, seat))
    g = advisor.game
    texts = step_texts(g, steps, seat, g.is_terminal(state))
    assert got["log"] == [{"mover": s.mover, "text": t} for s, t in zip(steps, texts, strict=True)]
    assert (got["seats"], got["digits"], got["higher"]) == (g.seats, g.unit.digits, g.unit.higher_is_better)
    assert got["chance"] == g.has_chance and (g.has_chance or got.get("to_move") != CHANCE)
    return steps, state


def test_the_game_list_is_every_registered_game_with_its_built_setups(client, web_artifacts):
    got = client.get("/api/games").json()["games"]
    assert [g["name"] for g in got] == list(GAMES)
    for g in got:
        spec = get_spec(g["name"])
        assert (g["title"], g["summary"]) == (spec.title, spec.summary)
        assert g["options"] == plain({k: {"default": o.default, "help": o.help, "choices": list(o.choices),
                                          "free": o.free}
                                      for k, o in spec.options.items()})
        assert g["setups"] == plain(spec.setups(web_artifacts)) and g["setups"], g["name"]
        assert g["view"] == (STATIC / "js" / f"{g['name']}.js").is_file()
        assert g["extra"] == (STATIC / "js" / "extras" / f"{g['name']}.js").is_file()


@pytest.mark.parametrize("game", GAMES)
def test_advise_judge_and_review_are_the_librarys(client, web_artifacts, game):
    for setup in get_spec(game).setups(web_artifacts):
        advise_judge_and_review(client, game, setup, web_artifacts)


def advise_judge_and_review(client, game, setup, root):
    """A game of ``setup`` played by the library: the position at spread prefixes (advise), every legal action at
    spread decisions (judge) and every seat's review, through the routes, are the library's."""
    advisor, record = played(game, setup, root)
    g, events = advisor.game, record["events"]
    for n in spread(len(events), PREFIXES):
        prefix = {**record, "events": events[:n]}
        got = client.post(f"/api/games/{game}/advise", json={"record": prefix})
        assert got.status_code == 200, (setup, n, got.text)
        same_advice(got.json(), advisor, prefix)
    steps, _ = replay(g, events)
    decisions = [s for s in steps if s.mover != CHANCE]
    assert decisions, f"{game} {setup}: no decision"
    for k in spread(len(decisions) - 1, JUDGED):
        step = decisions[k]
        prefix = {**record, "events": events[:step.index - 1]}
        for action in g.legal_actions(step.state)[:40]:
            want = judge(advisor, step.state, action, step.index).as_dict()
            got = client.post(f"/api/games/{game}/judge", json={"record": prefix,
                                                                 "action": g.action_json(step.state, action)})
            assert got.json() == plain(want), (setup, step.index, action)
    for seat in range(advisor.game.seats):
        got = client.post(f"/api/games/{game}/review", json={"record": record, "seat": seat})
        assert got.json() == plain(review(advisor, record, seat).as_dict()), (setup, seat)


@pytest.mark.parametrize("game", GAMES)
def test_play_continues_to_the_players_decision_and_stops_where_asked(client, web_artifacts, game):
    play_continues(client, game, get_spec(game).setups(web_artifacts)[0], web_artifacts)


def play_continues(client, game, setup, root):
    """From every fifth position of a game: the record played on is the given one continued by legal events, ends
    at the player's decision or the game's end (or sooner: at a chance node without ``draw``, at another seat's
    decision with opponent "none"), the same for the same seed, and its position answer is the library's."""
    advisor, record = played(game, setup, root, seed=11)
    g = advisor.game
    events = record["events"]
    for n in range(0, len(events), 5):
        prefix = {**record, "events": events[:n]}
        for body in ({"seat": 0, "seed": 3}, {"seat": g.seats - 1, "seed": 4, "opponent": "random"},
                     {"seat": 0, "seed": 5, "draw": False}, {"seat": 0, "opponent": "none"}):
            got = client.post(f"/api/games/{game}/play", json={"record": prefix, **body})
            assert got.status_code == 200, (n, body, got.text)
            answer = got.json()
            longer = answer["record"]["events"]
            assert longer[:n] == events[:n] and answer["record"]["seat"] == body["seat"]
            steps, state = same_advice(answer, advisor, answer["record"])
            movers = {s.mover for s in steps[n:]}
            assert body["seat"] not in movers
            if not g.is_terminal(state):
                mover = g.to_move(state)
                assert mover == body["seat"] or (mover == CHANCE and body.get("draw") is False) or \
                    (mover != CHANCE and body.get("opponent") == "none")
            if body.get("draw") is False:
                assert CHANCE not in movers
            if body.get("opponent") == "none":
                assert movers <= {CHANCE}
            assert client.post(f"/api/games/{game}/play", json={"record": prefix, **body}).json() == answer


def test_three_yahtzee_players_through_the_routes(party_mini_artifacts):
    """Three seats (forced order, each player playing to win) where their table is built: the reduced rule set of
    tests/web/conftest.py, whose 3-player table the tests build. The setup is listed, and play, advise, judge and
    review answer as the library for it, every seat's review included."""
    from fastapi.testclient import TestClient

    from tests.web.conftest import PARTY_MINI
    from webapp.app import create_app

    client = TestClient(create_app(party_mini_artifacts))
    yahtzee = next(g for g in client.get("/api/games").json()["games"] if g["name"] == "yahtzee")
    assert yahtzee["setups"] == [{"rules": PARTY_MINI, "players": 3, "target": None, "objective": "win"}]
    advise_judge_and_review(client, "yahtzee", yahtzee["setups"][0], party_mini_artifacts)
    play_continues(client, "yahtzee", yahtzee["setups"][0], party_mini_artifacts)


@pytest.mark.parametrize("game", GAMES)
def test_simulate_is_the_librarys(client, web_artifacts, game):
    setup = get_spec(game).setups(web_artifacts)[0]
    advisor = open_setup(game, setup, web_artifacts)
    g = advisor.game
    got = client.post(f"/api/games/{game}/simulate", json={"setup": setup, "games": 3, "seed": 9})
    assert got.status_code == 200, got.text
    want = simulate(advisor, ["table"] * g.seats, 3, 9).as_dict()
    start = g.initial_state()
    assert got.json() == plain({**want, "exact_table_values": [advisor.value(start, s) for s in range(g.seats)]})


@pytest.mark.parametrize("game", GAMES)
def test_bad_records_actions_and_seats_are_422_naming_them(client, web_artifacts, game, monkeypatch):
    spec = get_spec(game)
    setup = spec.setups(web_artifacts)[0]
    advisor, record = played(game, setup, web_artifacts, seed=2)
    g = advisor.game
    for route, extra in (("advise", {}), ("play", {}), ("review", {}), ("judge", {"action": None})):
        bad = {**record, "events": [*record["events"][:1], {"no such": "event"}]}
        assert "event 2 (" in problem(client.post(f"/api/games/{game}/{route}", json={"record": bad, **extra}))
        other = next(n for n in GAMES if n != game)
        assert f"the record is a {other!r} game, not {game!r}" == problem(client.post(
            f"/api/games/{game}/{route}", json={"record": {**record, "game": other}, **extra}))
        assert "unknown key" in problem(client.post(f"/api/games/{game}/{route}",
                                                    json={"record": {**record, "setup": {"nonsense": 1}}, **extra}))
        assert "over after event" in problem(client.post(f"/api/games/{game}/{route}", json={
            "record": {**record, "events": [*record["events"], record["events"][-1]]}, **extra}))
    assert "outside" in problem(client.post(f"/api/games/{game}/play", json={"record": record, "seat": g.seats}))
    start = {**record, "events": []}
    steps, state = replay(g, [])
    if g.to_move(state) == CHANCE:
        assert "chance is to move" in problem(client.post(f"/api/games/{game}/judge", json={
            "record": start, "action": g.action_json(state, g.chance_outcomes(state)[0][0])}))
    else:
        assert "is not legal here" in problem(client.post(f"/api/games/{game}/judge", json={
            "record": start, "action": {"not": "an action"}}))
        assert "unknown opponent model 'nobody'" in problem(client.post(
            f"/api/games/{game}/play", json={"record": start, "seat": g.seats - 1, "opponent": "nobody"})) \
            if g.seats > 1 else True
    assert "games=" in problem(client.post(f"/api/games/{game}/simulate",
                                           json={"setup": setup, "games": MAX_SIMULATED + 1}))
    # within the count but beyond the time one request may take (here: none)
    monkeypatch.setattr(games_routes, "SIMULATE_BUDGET", 0.0)
    assert "over the 0 s one run may take here" in problem(client.post(f"/api/games/{game}/simulate",
                                                                     json={"setup": setup, "games": 3}))
    assert parse_record(record).game == game
    # a search's size past what the server answers (``Option.served``) is refused on every route that opens a setup;
    # every setup the page lists is within it
    assert all(served_setup(game, s) == s for s in spec.setups(web_artifacts))
    for key, option in spec.options.items():
        if option.served is not None:
            over = {**setup, key: option.served + 1}
            assert spec.setup(over) == over  # the library takes it
            message = f"{key} may be at most {option.served} on this server"
            advise = {"record": {**start, "setup": over}}
            assert message in problem(client.post(f"/api/games/{game}/advise", json=advise))
            assert message in problem(client.post(f"/api/games/{game}/simulate", json={"setup": over, "games": 1}))


def test_what_no_game_has_is_a_problem_too(client):
    assert "unknown game 'chess'" in problem(client.post("/api/games/chess/advise",
                                                         json={"record": {"game": "chess", "events": []}}))
    assert "record" in problem(client.post(f"/api/games/{GAMES[0]}/advise", json={}))
    assert "events must be a list" in problem(client.post(f"/api/games/{GAMES[0]}/advise",
                                                          json={"record": {"game": GAMES[0], "events": 3}}))
    assert "version" in problem(client.post(f"/api/games/{GAMES[0]}/advise",
                                            json={"record": {"game": GAMES[0], "events": [], "version": 1}}))
    assert "more than the" in problem(client.post(f"/api/games/{GAMES[0]}/advise",
                                                  json={"record": {"game": GAMES[0], "events": [1] * 5000}}))
    assert problem(client.get(f"/api/games/{GAMES[0]}/advise"), 405)
    assert "seat" in problem(client.post(f"/api/games/{GAMES[0]}/play",
                                         json={"record": {"game": GAMES[0], "events": []}, "seat": "0"}))
