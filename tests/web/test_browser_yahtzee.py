"""The Yahtzee view in a real headless Chromium (the ``browser`` and ``server`` fixtures: tests/web/conftest.py)."""

import pytest

from lookup import yahtzee


@pytest.fixture(scope="module")
def page(browser, server):
    pg = browser.new_page(viewport={"width": 1300, "height": 900})
    pg.set_default_timeout(20_000)
    pg.goto(server + "/#yahtzee")
    pg.wait_for_selector("#sheet td.box")
    yield pg
    pg.close()


def test_enter_dice_and_sheet_by_clicking_gives_lookups_advice(page, web_artifacts):
    # dice start at 1 3 3 5 6: click die 1 once (-> 2) and die 5 twice (6 -> 1 -> 2).
    page.click("#dice .die[data-i='0']")
    page.click("#dice .die[data-i='4']")
    page.click("#dice .die[data-i='4']")
    page.once("dialog", lambda d: d.accept("3"))
    page.click("#sheet td[data-box='ones']")
    page.wait_for_function("document.querySelector(\"#sheet td[data-box='ones']\").textContent === '3'")
    page.select_option("#rerolls", "1")
    page.click("#advise")
    page.wait_for_selector("#options")
    want = yahtzee.decide([2, 3, 3, 5, 2], 1, {"ones": 3}, artifacts_dir=web_artifacts)
    assert page.inner_text("#best") == str(want)
    rows = page.locator("#options tr").all_inner_texts()[1:]
    options = yahtzee.explain([2, 3, 3, 5, 2], 1, {"ones": 3}, artifacts_dir=web_artifacts)
    assert [r.split("\t")[0] for r in rows] == [o.action for o in options]
    # The coach table comes from a second request, made after the advice is shown: wait for it.
    page.wait_for_function("document.querySelectorAll('#coach tr').length > 2")
    assert page.locator("#coach tr").count() > 2


def test_bad_sheet_entry_shows_the_library_message(page):
    page.once("dialog", lambda d: d.accept("7"))
    page.click("#sheet td[data-box='twos']")
    page.wait_for_function("document.getElementById('error').textContent !== ''")
    assert page.inner_text("#error") == "box twos cannot hold 7 points under 'hasbro'"


def test_play_a_whole_game_with_hints(page):
    page.click("#newgame")
    for _ in range(13):
        page.wait_for_selector("#options")
        page.wait_for_function("document.getElementById('status').textContent.startsWith('Click')")
        # follow the hints: roll while the advice rerolls, then score in the advised box
        while page.input_value("#rerolls") != "0":
            if "reroll" not in page.inner_text("#best") or "keep all" in page.inner_text("#best"):
                break
            advised = [page.locator(f"#dice .die[data-i='{i}']").get_attribute("class") for i in range(5)]
            for i, cls in enumerate(advised):
                if "reroll" not in cls:
                    page.click(f"#dice .die[data-i='{i}']")
            page.evaluate("document.getElementById('options').remove()")
            page.click("#roll")
            page.wait_for_selector("#options")
        page.evaluate("document.getElementById('options') && document.getElementById('options').remove()")
        page.select_option("#rerolls", "0")
        page.click("#advise")
        page.wait_for_selector("#options")
        box = page.inner_text("#best").split(" as ")[1].split(";")[0]
        page.evaluate("document.getElementById('options').remove()")
        page.click(f"#sheet td[data-box='{box}']")
        page.wait_for_function(f"document.querySelector(\"#sheet td[data-box='{box}']\").className === 'box'")
    page.wait_for_function("document.getElementById('status').textContent.startsWith('Game over')")
    assert int(page.inner_text("#total")) == int(page.inner_text("#status").split()[-1]) > 0
