"""The page's shell in a real headless Chromium: the tabs are the registered games, every view fits a phone and a
desktop, the keyboard drives it, and /docs works with no network."""

import re

import pytest

from lookup.games import names
from tests.web.pages import nav_views, open_page, press_main, show_view

WIDTHS = [(390, 844), (1280, 800)]


@pytest.mark.parametrize(("width", "height"), WIDTHS, ids=[str(w) for w, _ in WIDTHS])
def test_every_view_fits_the_width_without_console_errors(browser, server, width, height):
    """Each view the nav lists (views added later are covered too), shown by keyboard and with its main button
    pressed (the widest content is the answer's): the document is never wider than the window."""
    pg, errors = open_page(browser, server + "/", width, height)
    try:
        views = nav_views(pg)
        assert views == list(names())  # the tabs are the registered games, in their order (GET /api/games)
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
        assert "/api/games/{game}/advise" in paths and "/api/games/{game}/map" in paths
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
