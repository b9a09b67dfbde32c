"""The poker and dominoes views in a real headless Chromium (the ``browser`` and ``server``
fixtures: tests/web/conftest.py): what the page shows equals what the library answers, computed here."""

import json

from lookup import dominoes, poker
from lookup.games import get_spec
from lookup.poker.equity import DEFAULT_SAMPLES
from tests.web.panel import settle


def fits_the_width(page, view):
    """The view's section is no wider than the window and holds nothing wider than itself (the header is
    the page shell's)."""
    assert page.evaluate(f"""(() => {{ const s = document.getElementById("tab-{view}");
        return s.scrollWidth <= s.clientWidth && s.getBoundingClientRect().right <= window.innerWidth; }})()""")


def test_poker_equity_and_preflop_chart(page, server, web_artifacts):
    page.goto(server + "/#poker")
    page.wait_for_selector("#tab-poker[data-mounted] #pk-chart button[data-hand='AA']")  # and a hand dealt
    page.fill("#pk-hand-0", "Ah Kh")
    page.fill("#pk-hand-1", "7c7d")
    page.fill("#pk-board", "Qh 7s 2h")
    events = page.inner_text("#tab-poker .gv-count")
    page.press("#pk-board", "Enter")  # Enter runs its panel's button, not that of the hand played beside it
    page.wait_for_selector("#pk-table")
    assert page.inner_text("#tab-poker .gv-count") == events
    want = poker.equity(["AhKh", "7c7d"], "Qh7s2h", artifacts_dir=web_artifacts)
    assert want.exact and "exact" in page.inner_text("#pk-kind")
    shown = [page.inner_text(f"#pk-table tr[data-hand='{h}'] td.eq") for h in ("Ah Kh", "7c 7d")]
    assert shown == [f"{e:.6f}" for e in want.equity]
    # a bad card: the library's message, and no answer left on the page
    page.fill("#pk-board", "Qh 7s 2x")
    page.click("#pk-go")
    page.wait_for_function("document.getElementById('pk-error').textContent !== ''")
    assert "'2x' is not a card" in page.inner_text("#pk-error") and page.inner_text("#pk-out") == ""
    # one hand, the opponents left empty: the library's default, one random hand (the page sent 0: 100 %)
    page.fill("#pk-hand-1", "")
    page.fill("#pk-board", "")
    page.click("#pk-go")
    page.wait_for_selector("#pk-table")
    one = poker.equity(["AhKh"], artifacts_dir=web_artifacts)
    assert one.opponents == 1 and "(preflop table; 1 random opponent)" in page.inner_text("#pk-kind")
    assert page.inner_text("#pk-table tr[data-hand='Ah Kh'] td.eq") == f"{one.equity[0]:.6f}"
    # An estimate (four opponents on the flop: more than the numpy engine counts within the budget), at the page's
    # default, the library's: its deals and standard error shown, the button disabled and a status line while it
    # counts (about a second), and no second request from Enter meanwhile.
    sent = []
    page.on("request", lambda r: sent.append(r.url) if r.url.endswith("/api/poker/equity") else None)
    page.fill("#pk-hand-0", "As Kd")
    page.fill("#pk-board", "2c 7d 9h")
    page.fill("#pk-opp", "4")
    page.click("#pk-go")
    assert page.is_disabled("#pk-go") and page.inner_text("#pk-status").startswith("Counting")
    page.press("#pk-board", "Enter")
    page.wait_for_selector("#pk-go:not([disabled])", timeout=60_000)
    assert len(sent) == 1 and page.inner_text("#pk-status") == ""
    want = poker.equity(["AsKd"], "2c7d9h", 4, artifacts_dir=web_artifacts)
    assert not want.exact and want.deals == DEFAULT_SAMPLES
    kind = page.inner_text("#pk-kind")
    assert kind.startswith("estimate") and page.inner_text("#pk-kind .pk-deals") == f"{DEFAULT_SAMPLES:,} sampled deals"
    assert page.inner_text("#pk-table tr[data-hand='As Kd'] td.eq") == f"{want.equity[0]:.6f}"
    assert page.inner_text("#pk-table tr[data-hand='As Kd'] .pk-se") == f"± {want.se[0]:.6f}"
    # the chart against one random hand: AA's cell is the table's value
    page.click("#pk-chart button[data-hand='AA']")
    aa = poker.preflop("AA", 1, artifacts_dir=web_artifacts)
    assert page.inner_text("#pk-cell-equity") == f"{aa.equity:.6f}" and "exact" in page.inner_text("#pk-cell")
    assert "blue" in page.inner_text("#pk-legend")
    fits_the_width(page, "poker")


def test_dominoes_decision_values_are_lookups(page, server, web_artifacts, tmp_path):
    """Dominoes has the view for every game alone: its picture, and one decision from a hand and the moves so far
    (the question of ``dicetables dominoes decide``) as a record of the game seen from the player's seat, loaded."""
    page.goto(server + "/#dominoes")
    page.wait_for_selector("#tab-dominoes[data-mounted]")
    settle(page, "#tab-dominoes")
    # its picture (js/extras/dominoes.js): player 1 opens, its seven tiles drawn, the other hand a count
    assert page.locator("#tab-dominoes .gv-extra p[data-seat='0'] .dm-tile").count() == 7
    assert page.inner_text("#tab-dominoes .gv-extra p[data-seat='1']") == "Player 2: 7 tiles"
    hand = ["6-6", "1-2", "3-5", "0-4", "2-2", "5-6", "1-1"]
    history = ["6-6", "6-3L", "3-5L", "draw", "pass"]
    setup = next(s for s in get_spec("dominoes").setups(web_artifacts) if s["you"] == 0 and s["max_pip"] == 6 and
                 s["player"] == "realistic")
    path = tmp_path / "decision.json"
    path.write_text(json.dumps({"game": "dominoes", "setup": setup, "seat": 0, "events": [*hand, *history]}))
    page.set_input_files("#tab-dominoes .gv-load input", str(path))
    settle(page, "#tab-dominoes")
    want = dominoes.move_values(hand, history, 0, player="realistic", models=setup["models"],
                                **{k: setup[k] for k in ("depth", "samples", "max_exact", "endgame", "budget", "seed")})
    rows = page.locator("#tab-dominoes .gv-options tr[data-i]")
    shown = [(rows.nth(i).locator("button").inner_text(), rows.nth(i).locator("td").nth(1).inner_text())
             for i in range(rows.count())]
    best = max(v for _, v in want)
    assert shown == [(f"{i + 1} plays {m}" + (" ★" if v == best else ""), f"{v:.4f}") for i, (m, v) in enumerate(want)]
    assert page.inner_text("#tab-dominoes .gv-best") == f"plays {next(m for m, v in want if v == best)}"
    fits_the_width(page, "dominoes")
