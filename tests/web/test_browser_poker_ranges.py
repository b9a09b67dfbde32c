"""The poker view's range panel in a real headless Chromium (the ``browser`` and ``server`` fixtures:
tests/web/conftest.py): cards picked on the 4x13 grid fill the hand and board fields, and the equity and the call
or fold shown are what the library answers, computed here."""


from lookup import poker
from lookup.poker.play import call_decision


def test_range_panel_picks_cards_and_shows_call_or_fold(page, server, web_artifacts):
    page.goto(server + "/#poker")
    page.wait_for_selector("#pk-picker button[data-card='As']")
    assert page.locator("#pk-picker button").count() == 52
    page.fill("#pk-r-hero", "")
    page.click("#pk-r-hero")
    for card in ("As", "Ah", "2c", "7d", "9h", "Kc"):  # two into the hand, then the board (the 6th is too many)
        page.click(f"#pk-picker button[data-card='{card}']")
    assert page.input_value("#pk-r-hero") == "As Ah" and page.input_value("#pk-r-board") == "2c 7d 9h Kc"
    page.click("#pk-picker button[data-card='Kc']")  # a picked card: taken back
    assert page.input_value("#pk-r-board") == "2c 7d 9h"
    assert page.locator("#pk-picker button.picked").count() == 5
    page.click("#pk-r-go")

    page.wait_for_selector("#pk-r-decision")
    want = poker.range_equity(["As Ah", "QQ+, AKs"], "2c 7d 9h", artifacts_dir=web_artifacts)
    decision = call_decision(want, 100, 50)
    assert want.exact and "exact" in page.inner_text("#pk-r-kind")
    assert page.inner_text("#pk-r-kind .pk-deals") == f"{want.deals:,} equally likely deals"
    assert page.inner_text("#pk-r-table tr[data-player='0'] td.eq") == f"{want.equity[0]:.6f}"
    assert page.inner_text("#pk-r-decision").startswith(decision.action.upper())
    assert page.inner_text("#pk-r-needs") == "33.33 %"
    assert page.inner_text("#pk-r-has") == f"{100 * decision.equity:.2f} %"
    # A bad range: the library's message, and no answer left on the page.
    page.fill("#pk-r-range", "QQ+, AKx")
    page.click("#pk-r-go")
    page.wait_for_function("document.getElementById('pk-r-error').textContent !== ''")
    assert "'AKx' is not a hand class" in page.inner_text("#pk-r-error") and page.inner_text("#pk-r-out") == ""
    assert page.evaluate("""(() => { const s = document.getElementById("tab-poker");
        return s.scrollWidth <= s.clientWidth && s.getBoundingClientRect().right <= window.innerWidth; })()""")
