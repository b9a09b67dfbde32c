"""``dicetables export-site`` (docs/js.md, "A static advisor: dicetables export-site"): the static site plays a
whole hasbro game in headless Chromium by applying its advice, the advice shown equals ``lookup.yahtzee.decide``
at every step, and, the server stopped, the page reloads and advises from its service worker's cache."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from lookup import yahtzee
from lookup.yahtzee.rules import get_rules
from pipeline.cli import main
from tests import shared
from tests.web.test_js_advisor import _node_ready

RANGE_SERVER = Path(__file__).resolve().parents[1] / "range_server.py"
STEP = ("n => Number(document.body.dataset.step) > n && document.body.dataset.ready === '1'")
STATE = "() => JSON.parse(JSON.stringify(window.siteGame))"


@pytest.fixture(scope="module")
def hasbro(tmp_path_factory) -> Path:
    return shared.yahtzee(tmp_path_factory, "hasbro")


def export(*args: str):
    return CliRunner().invoke(main, ["export-site", *args])


def test_paths_and_rules_are_checked(hasbro, tmp_path):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    (tmp_path / "file").write_text("x")
    for target, words in [(tmp_path / "full", "not empty"), (tmp_path / "file", "not a directory"),
                          (tmp_path / "no" / "site", "parent directory")]:
        done = export(str(target), "--artifacts", str(hasbro))
        assert done.exit_code == 1 and words in done.output, done.output
    done = export(str(tmp_path / "s"), "--artifacts", str(hasbro), "--rules", "seed")
    assert done.exit_code == 1 and "yahtzee-seed-values.zarr" in done.output and "hasbro" in done.output
    done = export(str(tmp_path / "s"), "--artifacts", str(tmp_path / "nowhere"))
    assert done.exit_code == 1 and "not a directory" in done.output
    assert not (tmp_path / "s").exists()


def _step(page, action: str) -> dict:
    step = int(page.evaluate("() => document.body.dataset.step"))
    page.click(action)
    page.wait_for_function(STEP, arg=step, timeout=30_000)
    return page.evaluate(STATE)


def _python_advice(state: dict, artifacts: Path, categories: list[str]) -> dict:
    sheet = dict(zip(categories, state["sheet"], strict=True))
    if state["bonus"]:
        sheet["yahtzee_bonus"] = state["bonus"]
    return yahtzee.decide(state["dice"], state["rerolls"], sheet, "hasbro", artifacts_dir=artifacts).as_dict()


def test_the_static_site_plays_a_game_and_works_offline(browser, hasbro, tmp_path):
    _node_ready()  # clients/js/node_modules: zarrita's files
    site = tmp_path / "site"
    done = export(str(site), "--artifacts", str(hasbro))
    assert done.exit_code == 0, done.output
    manifest = json.loads((site / "artifacts" / "MANIFEST.json").read_text())
    source = {e["path"]: e for e in json.loads((hasbro / "MANIFEST.json").read_text())["artifacts"]}
    assert [e["path"] for e in manifest["artifacts"]] == ["yahtzee-hasbro-values.zarr", "yahtzee-hasbro-policy.zarr"]
    assert all(e == source[e["path"]] for e in manifest["artifacts"])  # the checksums unchanged
    categories = list(get_rules("hasbro").categories)

    server = subprocess.Popen([sys.executable, str(RANGE_SERVER), str(site)], stdout=subprocess.PIPE, text=True)
    page = browser.new_page()
    try:
        port = int(server.stdout.readline())
        page.goto(f"http://127.0.0.1:{port}/")
        page.wait_for_function("() => document.body.dataset.ready === '1'", timeout=60_000)
        assert page.evaluate("() => navigator.serviceWorker.controller !== null")
        # Dice are held and released by clicking.
        state = _step(page, "#roll")
        assert state["rerolls"] == 2 and len(state["dice"]) == 5
        page.click(".die[data-i='0']")
        assert page.evaluate(STATE)["held"][0] and "held" in page.get_attribute(".die[data-i='0']", "class")
        page.click(".die[data-i='0']")
        assert not page.evaluate(STATE)["held"][0]
        # A whole game, the advice applied; every advice shown equals Python's.
        checked = 0
        while not state["over"]:
            assert _python_advice(state, hasbro, categories) == state["advice"], state
            assert page.inner_text("#advice") == f"Advice: {state['advice']['text']}"
            assert page.locator("#options tr").count() >= 1
            checked += 1
            state = _step(page, "#apply")
            if state["dice"] is None and not state["over"]:
                state = _step(page, "#roll")
        assert all(p is not None for p in state["sheet"]) and checked >= 13
        upper = sum(state["sheet"][:6])
        final = sum(state["sheet"]) + state["bonus"] + (35 if upper >= 63 else 0)
        assert page.inner_text("#status") == f"Game over: final score {final}"
        # The service worker fetched whole files: the server answered no range.
        stats = page.evaluate(f"async () => (await fetch('http://127.0.0.1:{port}/__stats__')).json()")
        assert stats["requests"] > 0 and stats["ranges"] == 0, stats
        # The server stopped: the page still loads and advises, from the service worker's cache.
        server.terminate()
        server.wait(timeout=10)
        page.reload()
        page.wait_for_function("() => document.body.dataset.ready === '1'", timeout=30_000)
        state = _step(page, "#roll")
        assert state["advice"] is not None and page.inner_text("#error") == ""
        assert _python_advice(state, hasbro, categories) == state["advice"]
        state = _step(page, "#apply")
        assert state["advice"] is not None or state["dice"] is None
    finally:
        page.close()
        if server.poll() is None:
            server.terminate()
            server.wait(timeout=10)
