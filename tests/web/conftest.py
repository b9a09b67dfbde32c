"""One artifacts directory for the web app (shared: only read), derived from the declarations: the union of every
declared game's small instance (``pipeline/<game>/game.py`` ``small``: ``tests.shared.small``), and what the views'
own tests need beyond: full hasbro Yahtzee (the Yahtzee view's first rule set, with its published optimum). Beside
it, for the modules that ask: a reduced six-dice Maxi Yatzy served from a layered table
(``maxi_mini_artifacts``) and a reduced forced-order Yatzy of three players (``party_mini_artifacts``)."""

import dataclasses
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import shared
from tests.web.live import running_server


@pytest.fixture(scope="session")
def web_artifacts(tmp_path_factory) -> Path:
    from pipeline.declaration import declarations

    smalls = [shared.small(tmp_path_factory, d.name) for d in declarations() if d.small]
    return shared.union(tmp_path_factory, "web", *smalls, shared.yahtzee(tmp_path_factory, "hasbro"))


# A Maxi Yatzy table cannot be built in a test (33 M states): ``maxi-mini`` is a reduced six-dice rule set, Maxi's
# six upper boxes (bonus 100 at 70) and its Maxi Yatzy box, served from a layered table as Maxi is.
MAXI_MINI = "maxi-mini"
# (yahtzee.rule_sets may not be empty; only the layered family is built.)
MAXI_MINI_PARAMS = (f"yahtzee:\n  rule_sets: [{MAXI_MINI}]\n  layered:\n    rule_sets: [{MAXI_MINI}]\n"
                    "    rows_per_task: 1024\n  cluster:\n    workers: 1\n")


@pytest.fixture(scope="module")
def maxi_mini_artifacts(tmp_path_factory) -> Iterator[Path]:
    """An artifacts directory holding only the layered table of ``maxi-mini`` (no dense value table, policy,
    distribution or play-to-win table), built once per run; the rule set is registered in
    ``lookup.yahtzee.rules.RULE_SETS`` while the module runs (the servers of these tests run in this process)."""
    from lookup.yahtzee.rules import RULE_SETS, get_rules

    maxi = get_rules("maxi")
    RULE_SETS[MAXI_MINI] = dataclasses.replace(
        maxi, name=MAXI_MINI, description="Maxi Yatzy reduced for the tests: six dice, the upper boxes and Maxi "
        "Yatzy, bonus 100 at 70.", upper_threshold=70, boxes=maxi.boxes[:6] + maxi.boxes[19:])
    try:
        yield shared.shared_build(tmp_path_factory, MAXI_MINI_PARAMS, [f"yahtzee-layered-{MAXI_MINI}"])
    finally:
        del RULE_SETS[MAXI_MINI]


# The 3-player table of a full sheet takes minutes to build; ``party-mini`` is a reduced forced-order rule set,
# Scandinavian's six upper boxes with three dice (bonus 50 at 30), whose 3-player table builds in about 3 s.
PARTY_MINI = "party-mini"
PARTY_MINI_PARAMS = (f"yahtzee:\n  rule_sets: [{PARTY_MINI}]\n  duel:\n    rule_sets: [{PARTY_MINI}]\n"
                     "    players: [3]\n")


@pytest.fixture(scope="module")
def party_mini_artifacts(tmp_path_factory) -> Iterator[Path]:
    """An artifacts directory holding only the 3-player table of ``party-mini`` (no value table: the one-player
    view has no rule set), built once per run; the rule set is registered in ``lookup.yahtzee.rules.RULE_SETS``
    while the module runs (the servers of these tests run in this process)."""
    from lookup.yahtzee.rules import RULE_SETS, get_rules

    forced = get_rules("scandinavian+forced")
    RULE_SETS[PARTY_MINI] = dataclasses.replace(
        forced, name=PARTY_MINI, description="Forced-order Yatzy reduced for the tests: three dice, the upper boxes, "
        "bonus 50 at 30.", n_dice=3, upper_threshold=30, boxes=forced.boxes[:6])
    try:
        yield shared.shared_build(tmp_path_factory, PARTY_MINI_PARAMS, [f"yahtzee-party3-{PARTY_MINI}"])
    finally:
        del RULE_SETS[PARTY_MINI]


@pytest.fixture(scope="session")
def client(web_artifacts):
    from fastapi.testclient import TestClient

    from webapp.app import create_app

    return TestClient(create_app(web_artifacts))


# The browser tests: Debian's headless Chromium driven by Playwright, against a uvicorn server over
# ``web_artifacts``. Skipped with a reason only where no browser can be had; under CI=true a missing browser fails.
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _need_browser() -> None:
    problem = None
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        problem = "playwright is not installed"
    if problem is None and not os.path.exists(CHROMIUM):
        problem = "no chromium (apt-get install chromium)"
    if problem:
        if os.environ.get("CI") == "true":
            pytest.fail(f"browser tests must run in CI: {problem}")
        pytest.skip(problem)


@pytest.fixture(scope="session")
def server(web_artifacts):
    """The base address of a uvicorn server over the web app on ``web_artifacts``."""
    from webapp.app import create_app

    with running_server(create_app(web_artifacts)) as port:
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium per test module, which opens its own pages (``browser.new_page``). Not one per
    session: Playwright's sync API keeps an asyncio loop running in this thread while it is open, and a later
    test that calls ``asyncio.run`` (the TestClient's, tests/web/test_api_limits.py) would fail."""
    _need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def page(browser, server):
    """One page of the module's browser at the narrowest width the page supports (390 CSS pixels); a module
    that needs another page defines its own ``page``."""
    pg = browser.new_page(viewport={"width": 390, "height": 900})
    pg.set_default_timeout(20_000)
    yield pg
    pg.close()
