"""Driving the page's views in Chromium, shared by the layout test and the screenshot tool: which views the nav
lists, showing one, pressing its main button, and waiting until the page has stopped fetching."""

from __future__ import annotations

from typing import Any

# Counts the page's fetches in flight and when the last one started or ended, so a caller can wait until the
# page is quiet: a view may chain requests (advice, then its map), each starting after the previous answer.
NETWORK_WATCH = """
(() => {
  window.__inflight = 0; window.__lastNet = performance.now();
  const fetch0 = window.fetch.bind(window);
  window.fetch = async (...args) => {
    window.__inflight += 1; window.__lastNet = performance.now();
    try { return await fetch0(...args); }
    finally { window.__inflight -= 1; window.__lastNet = performance.now(); }
  };
})();
"""
QUIET_MS = 300

# The page's Math.random seeded (a linear congruential generator), so that a test's run of a view that draws its own
# dice or seeds is repeatable: add it with ``page.add_init_script`` before the page is loaded.
SEEDED_RANDOM = ("(() => { let s = 20261128; Math.random = () => "
                 "((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648); })()")

# Click the view's main button, found as js/main.js finds it for the Enter key; whether there is one.
CLICK_MAIN = """async (view) => {
  const {mainButton} = await import("/static/js/main.js");
  const b = mainButton(document.getElementById("tab-" + view));
  if (b) b.click();
  return b !== null;
}"""


def open_page(browser: Any, url: str, width: int, height: int) -> tuple[Any, list[str]]:
    """A new page of ``width`` x ``height`` CSS pixels at ``url`` watching its network; the list fills with every
    console error and uncaught exception the page reports."""
    pg = browser.new_page(viewport={"width": width, "height": height})
    pg.set_default_timeout(30_000)
    errors: list[str] = []
    pg.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.add_init_script(NETWORK_WATCH)
    pg.goto(url)
    pg.wait_for_selector("main > section[data-mounted]:not([hidden])")  # the view the address names
    settle(pg)
    return pg, errors


def settle(pg: Any) -> None:
    """Wait until no fetch is in flight and none started or ended in the last QUIET_MS milliseconds."""
    pg.wait_for_function(f"window.__inflight === 0 && performance.now() - window.__lastNet > {QUIET_MS}")


def nav_views(pg: Any) -> list[str]:
    """The views the nav lists, in its order."""
    return pg.eval_on_selector_all("nav [data-tab]", "bs => bs.map(b => b.dataset.tab)")


def show_view(pg: Any, view: str) -> None:
    """Show ``view`` as a keyboard user does (focus its nav button, Enter) and wait until it is mounted."""
    pg.focus(f"nav [data-tab='{view}']")
    pg.keyboard.press("Enter")
    pg.wait_for_selector(f"#tab-{view}[data-mounted]:not([hidden])")
    settle(pg)


def press_main(pg: Any, view: str) -> bool:
    """Click the view's main button (when it has one) and wait for its answers; whether there was one."""
    pressed = pg.evaluate(CLICK_MAIN, view)
    settle(pg)
    return pressed
