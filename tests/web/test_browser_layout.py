"""The page's shell in a real headless Chromium: every view of the nav fits a phone and a desktop, the keyboard
drives it, the dice-race view shows lookup's win probability, and /docs works with no network."""

import re

import pytest

from lookup import dicerace
from tests.web.pages import nav_views, open_page, press_main, settle, show_view

WIDTHS = [(390, 844), (1280, 900)]


@pytest.mark.parametrize(("width", "height"), WIDTHS, ids=[str(w) for w, _ in WIDTHS])
def test_every_view_fits_the_width_without_console_errors(browser, server, width, height):
    """Each view the nav lists (views added later are covered too), shown by keyboard and with its main button
    pressed (the widest content is the answer's): the document is never wider than the window."""
    pg, errors = open_page(browser, server + "/", width, height)
    try:
        views = nav_views(pg)
        assert {"yahtzee", "dicerace", "g151"} <= set(views)
        for view in views:
            show_view(pg, view)
            assert pg.is_visible(f"#tab-{view}") and pg.evaluate("location.hash") == "#" + view
            press_main(pg, view)
            sizes = pg.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert sizes[0] <= sizes[1], (view, width, sizes)
        assert errors == []
        assert pg.evaluate("document.querySelector('meta[name=viewport]').content").startswith("width=device-width")
    finally:
        pg.close()


def test_dicerace_enter_shows_lookups_win_probability_and_clears_on_error(browser, server, web_artifacts):
    pg, errors = open_page(browser, server + "/#dicerace", 390, 844)
    try:
        assert pg.inner_text("#dr-game option") == "3 dice, target 20"  # the built game (web_artifacts)
        pg.fill("#dr-my", "12")
        pg.fill("#dr-other", "7")
        pg.press("#dr-other", "Enter")  # Enter in an input runs the view's Advise
        pg.wait_for_selector("#dr-pwin")
        # Sequential race: no draws, so P(win) = (1 + EG) / 2 with EG = P(win) - P(loss) from lookup.
        eg = dicerace.value(12, 7, dice=3, target=20, artifacts_dir=web_artifacts)
        assert float(pg.inner_text("#dr-pwin")) == pytest.approx((1 + eg) / 2, abs=1e-6)
        best = dicerace.strategy(12, 7, dice=3, target=20, artifacts_dir=web_artifacts)
        assert pg.inner_text("#dr-best").startswith("Roll " + ", ".join(f"{d} dice ({p:.3f})" for d, p in best.items()))
        assert pg.is_visible("#dr-win") and pg.is_visible("#dr-dice")
        # the map is drawn: the plot has more than a handful of distinct colours (the P(win) ramp)
        colours = pg.evaluate("""() => { const c = document.getElementById('dr-win');
            const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; const s = new Set();
            for (let k = 0; k < d.length; k += 4 * 7) s.add(d[k] + ',' + d[k + 1] + ',' + d[k + 2]);
            return s.size; }""")
        assert colours > 20
        # a score outside the game: the library's message, and no stale picture or answer left on screen
        pg.fill("#dr-my", "25")
        pg.press("#dr-my", "Enter")
        pg.wait_for_function("document.getElementById('dr-error').textContent !== ''")
        settle(pg)
        with pytest.raises(ValueError) as exc:
            dicerace.value(25, 7, dice=3, target=20, artifacts_dir=web_artifacts)
        assert pg.inner_text("#dr-error") == str(exc.value)
        assert pg.inner_text("#dr-out") == "" and not pg.is_visible("#dr-win") and not pg.is_visible("#dr-dice")
        assert [e for e in errors if "422" not in e] == []  # the refused request itself is logged by the browser
    finally:
        pg.close()


def test_docs_render_with_no_network_beyond_the_server(browser, server):
    """Swagger UI draws every route with every request outside the server refused."""
    pg = browser.new_page(viewport={"width": 1280, "height": 900})
    outside: list[str] = []

    def only_local(route):
        if route.request.url.startswith(server):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    try:
        pg.route("**/*", only_local)
        pg.goto(server + "/docs")
        pg.wait_for_selector(".opblock-summary-path", timeout=30_000)
        paths = pg.eval_on_selector_all(".opblock-summary-path", "es => es.map(e => e.textContent)")
        assert "/api/dicerace/heatmap" in paths and "/api/dicerace/games" in paths
        assert outside == []
    finally:
        pg.close()


def test_docs_html_names_only_assets_the_server_answers(client):
    html = client.get("/docs").text
    assert re.findall(r"(?:https?:)?//[\w.-]+", html) == []  # no absolute URL: nothing outside the server
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    kinds = {}
    for url in assets:
        response = client.get(url)
        assert response.status_code == 200, url
        kinds[url.rsplit(".", 1)[1]] = response.headers["content-type"]
    assert kinds["js"].startswith("text/javascript") and kinds["css"].startswith("text/css")
    assert client.get("/openapi.json").status_code == 200


def test_favicon_is_served_and_linked(client):
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"
    assert icon.content.startswith(b"<svg")
    page = client.get("/static/index.html").text
    link = re.search(r'<link rel="icon" href="([^"]+)"', page).group(1)
    assert client.get(link).content == icon.content
