"""The API holds (issue 24, item 4): one error shape on every route, bounded bodies (413 before they are read
whole), a deadline on slow bodies (408) and slow headers, one answer to text bodies (415), sync work off the
event loop, and no 5xx under a fuzz of every route (docs/web.md, "Errors" and "Limits")."""

from __future__ import annotations

import asyncio
import inspect
import json
import socket
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from lookup.games import get_spec, names
from tests.web.live import running_server
from webapp import limits, problems

PROBLEM_KEYS = {"type", "title", "status", "detail"}
LEAKS = ("params.yaml", "make run", "dicetables build", ".zarr", "Traceback")


def assert_problem(response: Any, status: int | None = None, root: Any = None) -> dict[str, Any]:
    """``response`` is an ``application/problem+json`` error (of ``status``) with a short string detail
    and nothing of the server in it."""
    if status is not None:
        assert response.status_code == status, response.text[:300]
    assert response.headers["content-type"].startswith(problems.MEDIA_TYPE), response.headers
    body = response.json()
    assert set(body) == PROBLEM_KEYS and body["status"] == response.status_code
    assert isinstance(body["detail"], str) and len(body["detail"]) <= problems.DETAIL_LIMIT + 10
    for leak in (*LEAKS, *([str(root)] if root else [])):
        assert leak not in response.text, (leak, response.text[:300])
    return body


# --- the error shape --------------------------------------------------------------------------------------


def test_every_kind_of_error_has_the_problem_shape(client, web_artifacts):
    assert_problem(client.get("/api/nothing"), 404)
    assert_problem(client.get("/api/yahtzee/hasbro/decide"), 405)
    assert_problem(client.get("/static/../../etc/passwd"), 404)
    # pydantic's refusal: one string, location and message, no list
    detail = assert_problem(client.post("/api/yahtzee/hasbro/explain", json={"dice": "x", "rerolls": 1}), 422)
    assert "dice" in detail["detail"]
    # the hot route's own reading and the library's refusal
    assert "missing field" in assert_problem(client.post("/api/yahtzee/hasbro/decide", json={}), 422)["detail"]
    assert_problem(client.post("/api/games/pig/advise", json={"record": {"game": "pig", "events": [7]}}), 422)


def test_a_table_not_built_is_named_without_path_or_build_step(client, web_artifacts):
    for path, body in (("/api/yahtzee/verhoeff/value", {"sheet": {}}),
                       ("/api/yahtzee/verhoeff/decide", {"dice": [1, 2, 3, 4, 5], "rerolls": 1}),
                       ("/api/games/dicerace/map", {"record": {"game": "dicerace",
                                                               "setup": {"dice": 4, "target": 50},
                                                               "events": []}}),
                       ("/api/games/pig/advise", {"record": {"game": "pig", "setup": {"target": 77}, "events": []}})):
        response = client.get(path) if body is None else client.post(path, json=body)
        detail = assert_problem(response, 422, web_artifacts)["detail"]
        assert "not built on this server" in detail, detail
    assert client.post("/api/yahtzee/verhoeff/value", json={"sheet": {}}).json()["detail"] == \
        "rule set 'verhoeff' is not built on this server"


def test_a_damaged_table_is_a_fixed_sentence(web_artifacts, tmp_path):
    """An artifact problem other than "not built" names files: the web says a fixed sentence instead."""
    from lookup.errors import ArtifactError

    message = problems.public_message(ArtifactError(f"{web_artifacts}/x.zarr: checksum mismatch"))
    assert message == problems.UNREADABLE


def test_echoed_input_is_cut_short(client):
    key = "k" * 50_000  # within the body limit, far beyond what a message may repeat
    for path, body in (("/api/yahtzee/hasbro/decide", {"dice": [1, 2, 3, 4, 5], "rerolls": 1, "sheet": {key: 1}}),
                       ("/api/yahtzee/hasbro/value", {"sheet": {key: 1}}),
                       ("/api/yahtzee/hasbro/score", {"dice": [1, 2, 3, 4, 5], "category": key}),
                       (f"/api/yahtzee/{'r' * 3000}/value", {"sheet": {}}),
                       ("/api/games/g151/advise", {"record": {"game": "g151", "setup": {"rules": key}, "events": []}}),
                       ("/api/games/pig/advise", {"record": {"game": "pig", "events": [key]}})):
        response = client.post(path, json=body)
        assert_problem(response, 422)
        assert len(response.content) < 1000


# --- limits -----------------------------------------------------------------------------------------------


def test_a_body_over_the_limit_is_413_before_it_is_read(client):
    big = b'{"sheet": {"' + b"x" * (limits.MAX_BODY + 10) + b'": 1}}'
    for path in ("/api/yahtzee/hasbro/decide", "/api/yahtzee/hasbro/value", "/api/games/pig/review"):
        assert_problem(client.post(path, content=big, headers={"content-type": "application/json"}), 413)

    def stream() -> Iterator[bytes]:  # chunked: no Content-Length, the count is made as it streams
        yield b'{"sheet": {"'
        for _ in range(100):
            yield b"y" * 4096

    response = client.post("/api/yahtzee/hasbro/value", content=stream(), headers={"content-type": "application/json"})
    assert_problem(response, 413)
    assert response.headers["connection"] == "close"


def test_a_body_just_under_the_limit_is_read(client):
    body = {"sheet": {}, "dice": [1, 2, 3, 4, 5], "rerolls": 1, "pad": "p" * (limits.MAX_BODY - 200)}
    assert "unknown field 'pad'" in assert_problem(client.post("/api/yahtzee/hasbro/decide", json=body), 422)["detail"]


def test_the_limit_counts_streamed_bytes_without_reading_past_it():
    """The middleware stops at the first chunk past the limit: the rest is never asked for."""
    asked = 0

    async def receive() -> dict[str, Any]:
        nonlocal asked
        asked += 1
        return {"type": "http.request", "body": b"z" * 1000, "more_body": True}  # an endless body

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def app(scope: Any, receive: Any, send: Any) -> None:  # pragma: no cover (never reached)
        raise AssertionError("the app must not see an oversized body")

    scope = {"type": "http", "method": "POST", "path": "/x", "headers": [(b"content-type", b"application/json")]}
    asyncio.run(limits.RequestLimits(app, max_body=5000)(scope, receive, send))
    assert sent[0]["status"] == 413 and asked == 6


def test_a_half_sent_body_is_408_at_the_deadline():
    async def receive() -> dict[str, Any]:
        if not getattr(receive, "done", False):
            receive.done = True  # type: ignore[attr-defined]
            return {"type": "http.request", "body": b'{"dice": [1,', "more_body": True}
        await asyncio.sleep(3600)  # the client never sends the rest
        raise AssertionError

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def app(scope: Any, receive: Any, send: Any) -> None:  # pragma: no cover
        raise AssertionError("the app must not see a half body")

    scope = {"type": "http", "method": "POST", "path": "/x", "headers": [(b"content-type", b"application/json")]}
    start = time.monotonic()
    asyncio.run(limits.RequestLimits(app, body_timeout=0.2)(scope, receive, send))
    assert sent[0]["status"] == 408 and time.monotonic() - start < 2
    assert json.loads(sent[1]["body"])["status"] == 408


def test_text_bodies_get_415_on_every_post_route(client):
    for path in _post_paths(client):
        for content_type in ("text/plain", None, "application/x-www-form-urlencoded"):
            headers = {"content-type": content_type} if content_type else {}
            response = client.post(path, content=b'{"sheet": {}}', headers=headers)
            assert_problem(response, 415)
    # JSON under its structured-suffix name is JSON
    response = client.post("/api/yahtzee/hasbro/value", content=b'{"sheet": {}}',
                           headers={"content-type": "application/problem+json; charset=utf-8"})
    assert response.status_code == 200


def test_sync_work_runs_off_the_event_loop(client):
    """Every route doing library work is a plain ``def`` (FastAPI runs it in its threadpool); the async ones
    are the hot decide (its first call per rule set goes to the threadpool) and two constant answers."""
    from fastapi.routing import APIRoute

    allowed_async = {"/api/yahtzee/{rules}/decide", "/api/yahtzee/rules", "/api/yahtzee/categories", "/"}
    for route in client.app.routes:
        if isinstance(route, APIRoute) and inspect.iscoroutinefunction(route.endpoint):
            assert route.path in allowed_async, route.path


# --- a real server: slow headers and bodies -----------------------------------------------------------------


@pytest.fixture
def live_server(web_artifacts, monkeypatch) -> Iterator[int]:
    """uvicorn as ``dicetables serve`` runs it (the timed httptools protocol), with short deadlines."""
    from webapp import server
    from webapp.app import create_app

    monkeypatch.setattr(server, "HEADER_TIMEOUT", 0.5)
    monkeypatch.setattr(limits, "BODY_TIMEOUT", 0.5)
    with running_server(create_app(web_artifacts), http=server.TimedHttpToolsProtocol, timeout_keep_alive=1,
                        lifespan="off", log_level="error") as port:
        yield port


def _exchange(port: int, data: bytes, wait: float = 5.0) -> tuple[bytes, float]:
    """Send ``data``, then read until the server closes; (what came back, seconds until closed)."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        sock.sendall(data)
        start = time.monotonic()
        got = b""
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return got, time.monotonic() - start
            got += chunk


def test_slow_headers_and_half_sent_bodies_are_cut_off(live_server):
    got, seconds = _exchange(live_server, b"POST /api/yahtzee/hasbro/value HTTP/1.1\r\nHost: x\r\nContent-")
    assert got == b"" and seconds < 3  # headers never completed: closed at the header deadline
    got, seconds = _exchange(live_server, b"POST /api/yahtzee/hasbro/value HTTP/1.1\r\nHost: x\r\n"
                             b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"sheet\"")
    assert got.startswith(b"HTTP/1.1 408") and b"problem+json" in got and seconds < 3
    got, _ = _exchange(live_server, b"POST /api/yahtzee/hasbro/value HTTP/1.1\r\nHost: x\r\n"
                       b"Content-Type: application/json\r\nContent-Length: 99999999\r\n\r\n")
    assert got.startswith(b"HTTP/1.1 413")
    got, seconds = _exchange(live_server, b"GET /api/yahtzee/categories HTTP/1.1\r\nHost: x\r\n\r\n")
    assert got.startswith(b"HTTP/1.1 200") and seconds < 3  # then the idle keep-alive connection is closed


# --- the fuzz -----------------------------------------------------------------------------------------------


def _deep(n: int) -> Any:
    out: Any = 1
    for _ in range(n):
        out = [out]
    return out


JUNK: list[Any] = [
    None, True, False, -1, 0, 7, 2**31, 2**63, 2**64 + 1, -(2**70), 10**300, 1.5, -0.0, 1e308, float("nan"),
    float("inf"), -float("inf"), "", "x", "3", "../../../etc/passwd", "/etc/passwd", "C:\\Windows\\win.ini",
    "%00", "\u0000\udcff", "x" * 5000, [], [1, 2, 3, 4, 5], [None] * 13, ["1"] * 500, _deep(60), {},
    {"ones": 3}, {"a": {"b": {"c": {}}}}, {"x" * 300: 1},
]
RAW_BODIES: list[bytes] = [
    b"", b"null", b"[]", b"7", b'"x"', b"NaN", b'{"dice": NaN}', b"{" * 5000, b"[" * 20000 + b"]" * 20000,
    b'{"sheet": ' + b"[" * 3000 + b"]" * 3000 + b"}", b'{"rerolls": ' + b"9" * 5000 + b"}",
    b'{"rerolls": 1e999}', b"\xff\xfe\x00", b'{"a": 1, "a": 2}', b'{"dice": [1, 2, 3, 4, 5], "rerolls": 1}',
]
PATH_VALUES = ["hasbro", "seed", "verhoeff", "x" * 300, "..%2F..%2Fetc", "%00", "scandinavian"]
GAME_VALUES = [*names(), "x" * 300, "..%2F..%2Fetc", "%00"]  # every registered game's routes, and odd names


def post(client: Any, url: str, body: Any) -> Any:
    """POST ``body`` as JSON the way any client may write it (the standard library's: NaN and Infinity
    included, which httpx's own encoder refuses to send)."""
    return client.post(url, content=json.dumps(body).encode(), headers={"content-type": "application/json"})


def _post_paths(client: Any) -> list[str]:
    return sorted({route.path.replace("{rules}", "hasbro").replace("{game}", "pig") for route in client.app.routes
                   if "POST" in getattr(route, "methods", ()) and route.path.startswith("/api/")})


def _schema_fields(client: Any) -> dict[tuple[str, str], tuple[dict[str, Any], list[str]]]:
    """(method, path) -> (properties, required) of each API route's JSON body, or query parameters for GET."""
    spec = client.app.openapi()
    components = spec.get("components", {}).get("schemas", {})
    out = {}
    for path, ops in spec["paths"].items():
        if not path.startswith("/api/"):
            continue
        for method, op in ops.items():
            if method == "post":
                schema = op["requestBody"]["content"]["application/json"]["schema"]
                if "$ref" in schema:
                    schema = components[schema["$ref"].rsplit("/", 1)[1]]
                out[("post", path)] = (schema.get("properties", {}), schema.get("required", []))
            elif method == "get":
                params = {p["name"]: p.get("schema", {}) for p in op.get("parameters", []) if p["in"] == "query"}
                out[("get", path)] = (params, [])
    return out


SANE = {"dice": [1, 2, 3, 4, 5], "rerolls": 1, "sheet": {}, "category": "chance", "my_score": 3,
        "other_score": 5, "banked": 100, "turn_total": 50, "target": 20,
        # poker, tic-tac-toe, dominoes: bodies the routes answer, so that each junk field is read past the model
        "hands": ["AsAh"], "board": "2c7d9h", "moves": [], "model": "random", "seat": 0, "history": [],
        "players": ["AsAh", "QQ+, AKs"],
        # few Monte Carlo deals (poker; dominoes' most): poker's default, 2,000,000, takes seconds a request when a
        # junk value (7 opponents, a budget of 0) leaves no exact count
        "samples": 8,
        "hand": ["6-6", "1-2", "3-5", "0-4", "2-2", "5-6", "1-1"],
        # every game's routes: a game's start (its name set per route), a short simulation
        "record": {"events": []}, "games": 1}


def _sane(name: str, schema: dict[str, Any]) -> Any:
    if name in SANE:
        return SANE[name]
    kinds = json.dumps(schema)
    return 1 if "integer" in kinds else "x" if "string" in kinds else {}


JUNK_SHARE = 3  # a field that several routes share gets a third of the junk values on each of them
WHOLE_BODY = "<whole body>"  # the plan's name for a junk value sent as the whole body (no field has this name)


def _junk_plan(routes: list[tuple[str, set[str]]]) -> dict[tuple[str, str], list[Any]]:
    """(url, field) -> the junk values fuzzed into that field. A field name of fewer than JUNK_SHARE routes gets
    every value on each; one that more routes share (``sheet``, ``dice``, ... read by the same validation in
    ``lookup``) gets every JUNK_SHARE-th value on each, its routes taking the offsets in turn, so that together
    they send it every value (the test's request count stays in seconds as routes are added)."""
    sharing: dict[str, list[str]] = {}
    for url, fields in routes:
        for name in sorted(fields):
            sharing.setdefault(name, []).append(url)
    plan = {}
    for name, urls in sharing.items():
        for k, url in enumerate(urls):
            plan[url, name] = list(JUNK) if len(urls) < JUNK_SHARE else JUNK[k % JUNK_SHARE::JUNK_SHARE]
    for name, urls in sharing.items():  # every junk value reaches every field name
        sent = [repr(j) for url in urls for j in plan[url, name]]
        assert {repr(j) for j in JUNK} <= set(sent), name
    return plan


def test_fuzz_every_route_never_5xx(client, web_artifacts):
    """Every API route (found in the app's OpenAPI: a route added later is fuzzed too), every body field and
    query parameter with every junk value, whole bodies that are not JSON objects or nest deeply, odd path
    parameters: no 5xx, and every error in the problem shape without a server path."""
    statuses: Counter[int] = Counter()
    requests = 0

    def check(response: Any) -> None:
        nonlocal requests
        requests += 1
        statuses[response.status_code] += 1
        assert response.status_code < 500, (response.request.url, response.text[:300])
        if response.status_code >= 400:
            assert_problem(response, root=web_artifacts)

    schema = sorted(_schema_fields(client).items())
    # Whole bodies that are not objects meet the same parsing on every route: planned as one more field that
    # every POST route shares, so they are spread over the routes like a shared field's values.
    def urls(path: str) -> list[str]:
        if "{rules}" in path:
            return [path.replace("{rules}", r) for r in PATH_VALUES]
        return [path.replace("{game}", g) for g in GAME_VALUES] if "{game}" in path else [path]

    plan = _junk_plan([(urls(path)[0], {*fields, "unknown_field", WHOLE_BODY})
                       for (method, path), (fields, _) in schema if method != "get"])
    for (method, path), (fields, required) in schema:
        paths = urls(path)
        sane = {name: _sane(name, schema) for name, schema in fields.items() if name in required or name in SANE}
        for url in paths:
            base = sane
            if "{game}" in path:  # a game's start, or a short simulation, of its first built setup
                game = url.split("/")[3]
                setup = get_spec(game).setups(web_artifacts)[0] if game in names() else {}
                base = {**sane, "record": {"game": game, "setup": setup, "events": []}} if "record" in sane else \
                    {**sane, "setup": setup}
            if method == "get":
                check(client.get(url, params={k: str(v) for k, v in base.items()}))
                for name in fields:
                    for junk in ("", "-1", "x", "1e999", "NaN", "9" * 400, "../../etc/passwd", "0x10", "[1]"):
                        check(client.get(url, params={**base, name: junk}))
                continue
            check(post(client, url, base))
            if url != paths[0]:
                continue  # odd path parameters, other games: the sane body is enough
            for name in sorted({*fields, "unknown_field"}):
                for junk in plan[url, name]:
                    check(post(client, url, {**base, name: junk}))
            for junk in plan[url, WHOLE_BODY]:
                check(post(client, url, junk))
            for raw in RAW_BODIES:
                check(client.post(url, content=raw, headers={"content-type": "application/json"}))
            check(client.post(url, content=b'{"sheet": "' + b"s" * limits.MAX_BODY + b'"}',
                              headers={"content-type": "application/json"}))  # 413
            check(client.post(url, content=json.dumps(base).encode(), headers={"content-type": "text/plain"}))  # 415
    print(f"\nAPI fuzz: {requests} requests, statuses {dict(sorted(statuses.items()))}")
    assert requests > 1000 and all(statuses[code] > 0 for code in (200, 413, 415, 422))
