"""The Yahtzee view in a real headless Chromium (the ``browser`` and ``server`` fixtures: tests/web/conftest.py).

Every check compares what the page shows with ``lookup.yahtzee`` (and, for the game record, each decision's cost
and the review, ``lookup.review`` through the protocol) computed here, on the dice and sheet the page shows (the
page rolls its own random dice)."""

import json
from pathlib import Path

import pytest

from lookup import yahtzee
from lookup.games import get_spec, open_setup
from lookup.records import replay
from lookup.review import judge, review
from tests.web import panel
from tests.web.pages import SEEDED_RANDOM

SCANDINAVIAN = "scandinavian+forced"
SHOWN_OPTIONS = 8  # option rows shown before "show all"


def open_view(browser, server, width=1300):
    pg = browser.new_page(viewport={"width": width, "height": 900})
    pg.set_default_timeout(20_000)
    pg.goto(server + "/#yahtzee")
    settle(pg)
    return pg


def settle(pg):
    """Wait until the view has its answers for what it shows (data-busy, set by yahtzee.js)."""
    pg.wait_for_function("document.getElementById('tab-yahtzee')?.dataset.busy === '0'")


def saved(pg):
    """The game record as the page saves it (Save record: a download)."""
    with pg.expect_download() as download:
        pg.click("#save")
    return json.loads(Path(download.value.path()).read_text())


def shown(pg):
    """(dice, rerolls left, sheet, points shown in the open boxes) as the page shows them."""
    dice = [int(t) for t in pg.locator("#dice .die").all_inner_texts()]
    cells = pg.evaluate("""[...document.querySelectorAll('#sheet td.box')].map(td =>
        [td.dataset.box, td.classList.contains('filled'), td.textContent])""")
    sheet = {box: int(text) for box, filled, text in cells if filled}
    would = {box: int(text) for box, filled, text in cells if not filled and text.isdigit()}
    if pg.locator("#yahtzee-bonus").count():  # the rule set has a Yahtzee bonus
        sheet["yahtzee_bonus"] = int(pg.inner_text("#yahtzee-bonus"))
    return dice, int(pg.input_value("#rerolls")), sheet, would, [c[0] for c in cells]


def choose(pg, rules, objective="expected", target=None):
    pg.select_option("#rules", rules)
    settle(pg)
    pg.select_option("#objective", objective)
    if target is not None:
        pg.fill("#target", str(target))
        pg.dispatch_event("#target", "change")
    settle(pg)


def play_by_advice(pg, rules, artifacts):
    """A whole game by Apply advice (button and key in turn), every shown advice checked against lookup's
    decide for the dice and sheet shown, the sheet's boxes and would-be points against lookup's Sheet.
    Returns the final sheet shown."""
    choose(pg, rules)
    pg.click("#newgame")
    settle(pg)
    steps = 0
    while not pg.inner_text("#status").startswith("Game over"):
        dice, rerolls, sheet, would, boxes = shown(pg)
        assert boxes == list(yahtzee.get_rules(rules).categories)
        want = yahtzee.Sheet.parse(sheet, rules).allowed(dice)
        assert would == {b: p for b, p in want.items() if b not in sheet}
        assert pg.inner_text("#best") == str(yahtzee.decide(dice, rerolls, sheet, rules, artifacts_dir=artifacts))
        if steps % 2:
            pg.keyboard.press("a")
        else:
            pg.click("#apply")
        settle(pg)
        steps += 1
        assert steps < 60, (pg.inner_text("#status"), pg.inner_text("#error"), shown(pg))
    *_, sheet, _, _ = shown(pg)
    assert int(pg.inner_text("#total")) == yahtzee.Sheet.parse(sheet, rules).total
    assert pg.inner_text("#status") == f"Game over: final score {pg.inner_text('#total')}"
    assert pg.inner_text("#review-cost") == "0.0000"
    assert pg.locator("#decisions li.bad").count() == 0
    record = saved(pg)  # the protocol's record: the library replays it to the sheet shown, and reviews it alike
    advisor = open_setup("yahtzee", record["setup"], artifacts)
    _, final = replay(advisor.game, record["events"])
    assert advisor.game.totals(final) == [int(pg.inner_text("#total"))]
    want = review(advisor, record)
    assert want.total_cost == 0 and pg.locator("#decisions li").count() == want.decisions
    return sheet


@pytest.fixture(scope="module")
def page(browser, server):
    pg = open_view(browser, server)
    yield pg
    pg.close()


def test_whole_hasbro_and_scandinavian_forced_games_by_the_advice(page, web_artifacts):
    play_by_advice(page, "hasbro", web_artifacts)
    play_by_advice(page, SCANDINAVIAN, web_artifacts)


def test_a_mistake_shows_its_cost_and_the_review_lists_it(page, web_artifacts):
    choose(page, "hasbro")
    page.click("#newgame")
    settle(page)
    dice, rerolls, sheet, *_ = shown(page)

    def marks():
        return page.eval_on_selector_all("#dice .die", "ds => ds.map(d => [d.classList.contains('held'), "
                                                       "d.classList.contains('reroll')])")

    before = marks()
    page.click("#dice .die[data-i='0']")  # a hold changes that die's hold only, the advice's marks stay
    page.keyboard.press("5")
    after = marks()
    assert [h for h, _ in after] == [not before[0][0], *(h for h, _ in before[1:4]), not before[4][0]]
    assert [r for _, r in after] == [r for _, r in before]
    # Stop at once: every die kept for each of the two rerolls, the cost shown is the library's two judges'.
    advisor = open_setup("yahtzee", {"rules": "hasbro"}, web_artifacts)
    g, roll = advisor.game, sorted(dice)
    state = g.apply(g.initial_state(), tuple(roll))
    keep_all = judge(advisor, state, tuple(roll))
    again = judge(advisor, g.apply(state, tuple(roll)), tuple(roll)).cost  # the second keep, at one reroll
    stop = keep_all.cost + again
    assert stop > 0
    page.click("#scorenow")
    settle(page)
    assert float(page.get_attribute("#cost p", "data-cost")) == pytest.approx(stop, abs=1e-9)
    assert page.inner_text("#cost p") == f"score now: cost {stop:.4f} expected points (best: {keep_all.best_text})"
    options = yahtzee.explain(dice, 0, {}, artifacts_dir=web_artifacts)
    worst = options[-1]  # the box of the largest regret: never the advised one
    final = g.apply(g.apply(state, tuple(roll)), tuple(roll))
    box = judge(advisor, final, worst.category)
    assert box.cost == pytest.approx(worst.regret, abs=1e-9) and box.cost > 0
    page.click(f"#sheet td[data-box='{worst.category}']")
    settle(page)
    cost = page.locator("#cost p.bad")
    assert float(cost.get_attribute("data-cost")) == box.cost
    assert f"cost {box.cost:.4f} expected points (best: " in cost.inner_text()
    # The rest of the game by the advice: the review lists every decision; its total is the two mistakes' costs,
    # and the first two decisions (the keeps of the stop) and the box are the ones marked.
    while not page.inner_text("#status").startswith("Game over"):
        page.keyboard.press("a")
        settle(page)
    assert float(page.inner_text("#review-cost")) == pytest.approx(stop + box.cost, abs=1e-4)
    record = saved(page)
    assert record["events"][:4] == [roll, roll, roll, worst.category]
    want = review(open_setup("yahtzee", record["setup"], web_artifacts), record)
    assert page.inner_text("#review-cost") == f"{want.total_cost:.4f}" and want.mistakes == 2 + (again > 0)
    assert page.locator("#decisions li").count() == want.decisions
    assert page.locator("#decisions li.bad").first.inner_text().startswith(
        f"turn 1: [{' '.join(map(str, roll))}] keep all: cost ")


def test_goal_mode_shows_lookups_probabilities(page, web_artifacts):
    choose(page, SCANDINAVIAN, "goal", 220)
    page.select_option("#rerolls", "2")
    settle(page)
    dice, rerolls, sheet, *_ = shown(page)
    while len(set(dice)) == 1:  # the page's random roll is five alike (6 in 7776): only 6 keeps; change a die
        page.click("#dice .die[data-i='0']")
        settle(page)
        dice, rerolls, sheet, *_ = shown(page)
    assert page.inner_text("#best") == str(yahtzee.decide(dice, rerolls, sheet, SCANDINAVIAN, goal=220,
                                                         artifacts_dir=web_artifacts))
    options = yahtzee.explain(dice, rerolls, sheet, SCANDINAVIAN, goal=220, artifacts_dir=web_artifacts)
    assert len(options) > SHOWN_OPTIONS

    def rows():  # each cell's text (a row's innerText lost its tabs in 1 run of 3, on main too: read the cells)
        return page.eval_on_selector_all("#options tr", "rs => rs.slice(1).map(r => [...r.cells].map(c => "
                                          "c.textContent))")

    want = [[o.action, f"{o.probability:.6f}", f"{o.regret:.6f}"] for o in options]
    assert rows() == want[:SHOWN_OPTIONS]
    page.click("#showall")
    assert rows() == want
    page.select_option("#objective", "beat")
    settle(page)
    assert page.inner_text("#best") == str(yahtzee.decide(dice, rerolls, sheet, SCANDINAVIAN, beat=220,
                                                         artifacts_dir=web_artifacts))


def test_sheet_typed_in_place_and_the_score_law(page, web_artifacts):
    choose(page, "hasbro")
    law = yahtzee.distribution("hasbro", artifacts_dir=web_artifacts)
    assert page.inner_text("#dist-mean") == f"{law.mean:.4f}"
    page.click("#sheet td[data-box='twos']")
    page.fill("#sheet td[data-box='twos'] input", "7")
    page.keyboard.press("Enter")
    settle(page)
    assert page.inner_text("#error") == "box twos cannot hold 7 points under 'hasbro'"
    page.click("#sheet td[data-box='ones']")
    page.fill("#sheet td[data-box='ones'] input", "3")
    page.keyboard.press("Enter")
    settle(page)
    before = shown(page)[0]
    page.click("#dice .die[data-i='0']")  # outside a game a click turns the die to its next face
    settle(page)
    page.select_option("#rerolls", "1")
    settle(page)
    dice, rerolls, sheet, would, _ = shown(page)
    assert (dice, rerolls, sheet) == ([before[0] % 6 + 1, *before[1:]], 1, {"ones": 3, "yahtzee_bonus": 0})
    assert page.inner_text("#best") == str(yahtzee.decide(dice, 1, sheet, artifacts_dir=web_artifacts))
    assert would == {b: p for b, p in yahtzee.Sheet.parse(sheet, "hasbro").allowed(dice).items() if b != "ones"}


def test_narrow_screen_has_no_horizontal_scroll(browser, server):
    pg = open_view(browser, server, width=390)
    try:
        assert pg.evaluate("document.getElementById('tab-yahtzee').scrollWidth") <= 390
    finally:
        pg.close()


def test_advice_against_an_opponents_sheet_on_a_narrow_screen(browser, server, web_artifacts):
    """Both opponent objectives at 390 px: the opponent's boxes typed in the sheet's second column (by keyboard),
    the advice, the options' P(win) and the opponent's total as lookup answers them for the sheets shown, and
    the API's refusal of a bad opponent sheet in the error line."""
    pg = open_view(browser, server, width=390)
    try:
        duel = "#objective option[value='opponents']"
        assert pg.eval_on_selector(duel, "o => o.disabled")  # hasbro: no duel table
        choose(pg, SCANDINAVIAN, "opponent")
        assert not pg.eval_on_selector(duel, "o => o.disabled")
        pg.select_option("#rerolls", "2")
        settle(pg)
        pg.focus("#sheet input[data-opp='ones']")
        pg.keyboard.type("3")
        pg.keyboard.press("Tab")  # the change is sent; the focus stays on the next cell of the redrawn sheet
        settle(pg)
        assert pg.evaluate("document.activeElement.dataset.box") == "twos"
        opponent = {"ones": 3}
        dice, rerolls, sheet, *_ = shown(pg)
        assert pg.inner_text("#opp-total") == "3" and sheet == {}
        for objective, kw in (("opponent", {"opponent": opponent}), ("opponents", {"opponents": [opponent]})):
            pg.select_option("#objective", objective)
            settle(pg)
            want = yahtzee.decide(dice, rerolls, sheet, SCANDINAVIAN, artifacts_dir=web_artifacts, **kw)
            assert pg.inner_text("#best") == str(want)
            best = yahtzee.explain(dice, rerolls, sheet, SCANDINAVIAN, artifacts_dir=web_artifacts, **kw)[0]
            assert pg.locator("#options tr").first.inner_text().split("\t")[1] == "P(win) (ties half)"
            assert pg.locator("#options tr").nth(1).inner_text().split("\t")[:2] == [best.action,
                                                                                     f"{best.probability:.6f}"]
        assert pg.evaluate("document.getElementById('tab-yahtzee').scrollWidth") <= 390
        pg.fill("#sheet input[data-opp='twos']", "7")
        pg.dispatch_event("#sheet input[data-opp='twos']", "change")
        settle(pg)
        assert pg.inner_text("#error") == (f"the opponent's sheet: box twos cannot hold 7 points under "
                                           f"'{SCANDINAVIAN}'")
        assert pg.inner_text("#best") == ""
    finally:
        pg.close()


@pytest.fixture(scope="module")
def scandinavian_server(tmp_path_factory):
    from tests import shared
    from tests.web.live import running_server
    from webapp.app import create_app

    artifacts = shared.yahtzee(tmp_path_factory, "scandinavian")
    with running_server(create_app(artifacts)) as port:
        yield f"http://127.0.0.1:{port}", artifacts


@pytest.mark.full
def test_whole_free_order_scandinavian_game(browser, scandinavian_server):
    server, artifacts = scandinavian_server
    pg = open_view(browser, server)
    try:
        play_by_advice(pg, "scandinavian", artifacts)
    finally:
        pg.close()


def test_six_dice_of_maxi_yatzy_from_a_layered_table(browser, maxi_mini_artifacts):
    """The only rule set built on this server is the reduced six-dice Maxi (tests/web/conftest.py): the page opens
    on it with six dice and key 6; what needs a table it lacks is switched off; a whole game by the advice."""
    from tests.web.conftest import MAXI_MINI
    from tests.web.live import running_server
    from webapp.app import create_app

    with running_server(create_app(maxi_mini_artifacts)) as port:
        pg = open_view(browser, f"http://127.0.0.1:{port}")
        try:
            assert pg.eval_on_selector_all("#rules option", "os => os.map(o => o.value)") == [MAXI_MINI]
            dice, rerolls, sheet, _, boxes = shown(pg)
            assert len(dice) == 6 and boxes == list(yahtzee.get_rules(MAXI_MINI).categories)
            assert pg.inner_text("#last-die-key") == "6"
            rows = [r.split("\t")[0] for r in pg.locator("#sheet tr").all_inner_texts()]  # header, 6 upper boxes
            assert rows[7:] == ["upper total (bonus at 70)", "upper bonus", "maxi yatzy", "total"]
            assert pg.inner_text("#dist-stats") == "not built for this rule set"
            assert pg.eval_on_selector_all("#objective option", "os => os.map(o => o.disabled)") == [
                False, True, True, True, True]  # no goal, win, law or duel table
            pg.click("#dice .die[data-i='0']")  # outside a game a click (or a key) turns a die to its next face
            settle(pg)
            pg.keyboard.press("6")
            settle(pg)
            now, *_ = shown(pg)
            assert now == [dice[0] % 6 + 1, *dice[1:5], dice[5] % 6 + 1]
            assert pg.inner_text("#best") == str(yahtzee.decide(now, rerolls, sheet, MAXI_MINI,
                                                               artifacts_dir=maxi_mini_artifacts))
            assert pg.inner_text("#error") == ""
            play_by_advice(pg, MAXI_MINI, maxi_mini_artifacts)
        finally:
            pg.close()


def test_a_roll_typed_at_the_table_an_undo_a_redo_and_a_record_loaded(page, tmp_path):
    """At a real table: the first roll typed whole, a reroll typed as the dice rolled again only, bad rolls refused
    with the API's message; undo takes back the decision and the roll after it, redo puts them back; the record
    saved, then loaded into a new game, shows the same position."""
    choose(page, "hasbro")
    # hasbro's play-to-win tables are not built here: those choices are greyed out and listed with the command
    # that builds them (GET /api/yahtzee/rules "unavailable"), readable without hovering
    assert page.is_disabled("#objective option[value='goal']") and page.is_visible("#unbuilt")
    page.click("#unbuilt summary")
    assert "dicetables build yahtzee-towin-hasbro" in page.inner_text("#unbuilt li[data-objective='goal']")
    page.click("#newgame")
    settle(page)

    def type_roll(text):
        page.fill("#typed", text)
        page.press("#typed", "Enter")
        settle(page)

    type_roll("6 4 3 2 1")
    assert shown(page)[:2] == ([1, 2, 3, 4, 6], 2) and page.inner_text("#error") == ""
    page.keyboard.press("1")  # hold the 1, roll the other four
    page.keyboard.press("r")
    settle(page)
    type_roll("9")  # the protocol's message (lookup.yahtzee.positions: the roll as typed)
    assert page.inner_text("#error") == "event 3 (chance): a reroll: 5 dice, or the 4 dice rolled again; got 1: [9]"
    type_roll("25x6")
    assert page.inner_text("#error") == ("event 3 (chance): '25x6' is not a die's face (digits, e.g. 1 3 3 5 6 or "
                                         "13356)")
    type_roll("2,5 56")  # the four dice rolled again; the 1 kept is added
    assert shown(page)[:2] == ([1, 2, 5, 5, 6], 1)
    type_roll("22222")  # five dice without the kept 1: the protocol refuses the roll
    assert "does not hold the dice kept" in page.inner_text("#error")
    assert shown(page)[:2] == ([1, 2, 5, 5, 6], 1)
    record = saved(page)
    assert record["events"] == [[1, 2, 3, 4, 6], [1], [1, 2, 5, 5, 6]]
    page.keyboard.press("u")
    settle(page)
    assert shown(page)[:2] == ([1, 2, 3, 4, 6], 2) and saved(page)["events"] == [[1, 2, 3, 4, 6]]
    assert page.is_disabled("#undo")  # the first roll is chance's, not a decision to undo
    page.keyboard.press("y")
    settle(page)
    assert shown(page)[:2] == ([1, 2, 5, 5, 6], 1) and saved(page) == record
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    page.click("#newgame")
    settle(page)
    page.set_input_files("#load", str(path))
    settle(page)
    assert shown(page)[:2] == ([1, 2, 5, 5, 6], 1) and saved(page) == record
    assert page.inner_text("#status") == "Turn 1: roll 2"


@pytest.mark.parametrize("width", [390, 1280])
def test_one_player_a_whole_game_with_a_typed_roll_a_mistake_an_undo_and_the_record(browser, server, web_artifacts,
                                                                                    tmp_path, width):
    """One player, a whole hasbro game at a phone's and a desktop's width: the first roll typed as at a real table;
    a deliberate mistake (the worst box, chosen at once) whose cost appears the moment it is made and is the
    library's judge; an undo (the box and the roll after it) and a redo; the rest by the advice; the review the
    library's; the record saved and loaded into a new game: the same end and review. No horizontal scroll, no console
    error."""
    pg = browser.new_page(viewport={"width": width, "height": 844})
    pg.set_default_timeout(20_000)
    pg.add_init_script(SEEDED_RANDOM)  # the page rolls its own dice: repeatable
    errors = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    try:
        pg.goto(server + "/#yahtzee")
        settle(pg)
        choose(pg, "hasbro")
        pg.click("#newgame")
        settle(pg)
        pg.fill("#typed", "5 5 2 6 1")
        pg.press("#typed", "Enter")
        settle(pg)
        roll = [1, 2, 5, 5, 6]
        assert shown(pg)[:2] == (roll, 2) and pg.inner_text("#error") == ""
        worst = yahtzee.explain(roll, 0, {}, artifacts_dir=web_artifacts)[-1]  # never the advised box
        pg.click(f"#sheet td[data-box='{worst.category}']")  # stop rolling (every die kept twice), score there
        settle(pg)
        advisor = open_setup("yahtzee", {"rules": "hasbro"}, web_artifacts)
        _, last_roll = replay(advisor.game, [roll, roll, roll])
        want = judge(advisor, last_roll, worst.category)
        cost = pg.locator("#cost p.bad")
        assert float(cost.get_attribute("data-cost")) == want.cost > 0
        assert cost.inner_text() == f"{want.text}: cost {want.cost:.4f} expected points (best: {want.best_text})"
        played = saved(pg)
        assert played["events"][:4] == [roll, roll, roll, worst.category] and len(played["events"]) == 5
        pg.keyboard.press("u")  # the box and the second turn's first roll taken back
        settle(pg)
        assert saved(pg)["events"] == [roll, roll, roll] and pg.inner_text("#status") == "Turn 1: roll 3"
        assert shown(pg)[:2] == (roll, 0)
        pg.keyboard.press("y")
        settle(pg)
        assert saved(pg) == played and pg.inner_text("#status") == "Turn 2: roll 1"
        for _ in range(60):
            if pg.inner_text("#status").startswith("Game over"):
                break
            pg.keyboard.press("a")
            settle(pg)
        assert pg.inner_text("#status") == f"Game over: final score {pg.inner_text('#total')}"
        record = saved(pg)
        assert record["events"][:5] == played["events"]
        reviewed = review(advisor, record)
        assert pg.inner_text("#review-cost") == f"{reviewed.total_cost:.4f}" and reviewed.total_cost >= want.cost
        assert pg.locator("#decisions li").count() == reviewed.decisions
        path = tmp_path / "game.json"
        path.write_text(json.dumps(record))
        pg.click("#newgame")
        settle(pg)
        assert not pg.inner_text("#review")
        pg.set_input_files("#load", str(path))
        settle(pg)
        assert pg.inner_text("#error") == ""
        assert saved(pg) == record and pg.inner_text("#review-cost") == f"{reviewed.total_cost:.4f}"
        total = advisor.game.totals(replay(advisor.game, record["events"])[1])[0]
        assert pg.inner_text("#status") == f"Game over: final score {total}"
        assert pg.evaluate("document.documentElement.scrollWidth") <= width and errors == []
    finally:
        pg.close()


def test_a_turn_fits_one_phone_screen(browser, server):
    """390 x 844 CSS pixels, a game started and rolled once: the dice, the advice and the whole score sheet are on
    the first screen, with no scrolling (the options, the coach and the score law follow below)."""
    pg = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        pg.set_default_timeout(20_000)
        pg.goto(server + "/#yahtzee")
        settle(pg)
        pg.click("#newgame")
        settle(pg)
        pg.keyboard.press("r")
        settle(pg)
        boxes = pg.evaluate("""['dice', 'best', 'sheet'].map((id) => {
            const r = document.getElementById(id).getBoundingClientRect(); return [r.top, r.bottom]; })""")
        assert pg.evaluate("window.scrollY") == 0 and pg.inner_text("#best")
        assert all(0 <= top < bottom <= 844 for top, bottom in boxes), boxes
        assert pg.evaluate("document.documentElement.scrollWidth") <= 390
        assert pg.inner_text("#roll") == "Roll"  # no key hints on a phone
    finally:
        pg.close()


# --- two and three players: the view for every game (js/game.js) in #seats, with js/extras/yahtzee.js ---------------

SEATS = "#seats"


def open_seats(browser, server, width):
    """The Yahtzee tab with Players "2 or 3" (or alone, where no one-player table is built): the view for every game
    mounted in #seats, its table of every seat drawn."""
    pg = open_view(browser, server, width)
    if pg.is_enabled("#players option[value='1']"):
        pg.select_option("#players", "more")
    pg.wait_for_selector(f"{SEATS}[data-busy='0'] .ys-sheets")
    return pg


def setup_label(setup):
    """A setup as the view for every game lists it (js/game.js setupText)."""
    return ", ".join(f"{k} {v}" for k, v in setup.items() if v is not None)


def table_shown(pg, game, root):
    """The table of every seat against the library at the end of the saved record: each seat's filled boxes and
    total, the dice, whose turn. Returns the record, the advisor and the final state."""
    record = panel.saved(pg, SEATS)
    advisor = open_setup("yahtzee", record["setup"], root)
    g = advisor.game
    _, state = replay(g, record["events"])
    cells = pg.eval_on_selector_all(f"{SEATS} .ys-sheets td[data-box]", "tds => tds.map(td => [Number(td.dataset.seat),"
                                    " td.dataset.box, td.querySelector('b')?.textContent ?? null])")
    shown = [{b: int(p) for s, b, p in cells if s == seat and p is not None} for seat in range(g.seats)]
    want = [{b: p for b, p in g.sheet(state, seat).to_dict().items() if b in g.rules.categories and p is not None}
            for seat in range(g.seats)]
    assert shown == want
    totals = pg.eval_on_selector_all(f"{SEATS} .ys-sheets td[data-key='total']", "tds => tds.map(td => "
                                     "Number(td.textContent))")
    assert totals == g.totals(state)
    if not g.is_terminal(state) and state.dice is not None and state.kept is None:
        assert [int(d) for d in pg.locator(f"{SEATS} .ys-dice .die").all_inner_texts()] == list(state.dice)
        would = pg.eval_on_selector_all(f"{SEATS} .ys-sheets td[data-box] :is(.would, .ys-box)",
                                        "es => es.map(e => [e.closest('td').dataset.box, Number(e.textContent)])")
        assert dict(would) == g.sheet(state).allowed(state.dice)
    return record, advisor, state


def type_roll(pg, text):
    pg.fill(f"{SEATS} .gv-outcome", text)
    pg.press(f"{SEATS} .gv-outcome", "Enter")
    panel.settle(pg, SEATS)


def play_to_the_end(pg, game_root, limit=200):
    """The advice played (key Enter, the focus on no element: shown alone, the panel takes the page's keys) until
    the game is over."""
    for _ in range(limit):
        if panel.to_move(pg, SEATS) == "over":
            return
        pg.evaluate("document.activeElement.blur()")
        pg.keyboard.press("Enter")
        panel.settle(pg, SEATS)
    raise AssertionError(f"not over after {limit} moves: {pg.inner_text(SEATS + ' .gv-position')}")


def check_the_end(pg, root, seat=0):
    """At the end: every seat's sheet and total as the library replays the record, the winner named, and the review
    (for ``seat``) the library's. Returns the record."""
    pg.wait_for_selector(f"{SEATS} .gv-total-cost")
    record, advisor, final = table_shown(pg, "yahtzee", root)
    g = advisor.game
    returns = g.returns(final)
    winners = [s for s, r in enumerate(returns) if r == max(returns)]
    assert pg.get_attribute(f"{SEATS} .ys-turn", "data-mover") == "over"
    assert all(f"player {s + 1}" in pg.inner_text(f"{SEATS} .ys-turn") for s in winners)
    want = review(advisor, record, seat)
    assert pg.inner_text(f"{SEATS} .gv-total-cost") == f"{want.total_cost:.{g.unit.digits}f}" and want.finished
    assert pg.locator(f"{SEATS} .gv-review-table tr[data-index]").count() == len(record["events"])
    return record


@pytest.mark.parametrize("width", [1280, 390])
def test_two_players_in_forced_order_with_every_seats_sheet(browser, server, web_artifacts, tmp_path, width):
    """Players "2 or 3": forced order, both players playing to win (the duel table). At a real table the first roll
    typed as digits; the table of every seat shows it, the points it would score and whose turn it is, as the
    library says; a deliberate mistake shows its cost at once (the library's judge); undo and redo; the record saved
    and loaded into a new game; the game played to its end by the advice, the sheets, the winner and the review the
    library's. No horizontal scroll, no console error."""
    setups = [s for s in get_spec("yahtzee").setups(web_artifacts) if s["players"] > 1]
    duel = next(s for s in setups if s["objective"] == "win" and s["players"] == 2)
    pg = open_seats(browser, server, width)
    errors = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    try:
        assert pg.eval_on_selector_all(f"{SEATS} .gv-setup option", "os => os.map(o => o.textContent)") == [
            setup_label(s) for s in setups]  # the setups of more than one seat, and only those
        pg.select_option(f"{SEATS} .gv-setup", label=setup_label(duel))
        panel.settle(pg, SEATS)
        pg.check(f"{SEATS} .gv-table")
        pg.click(f"{SEATS} .gv-new")
        panel.settle(pg, SEATS)
        assert panel.to_move(pg, SEATS) == "-1" and "as digits" in pg.inner_text(f"{SEATS} .gv-advice")
        type_roll(pg, "6 5 3 3 1" if width > 600 else "65331")
        record, advisor, state = table_shown(pg, "yahtzee", web_artifacts)
        assert record["events"] == [[1, 3, 3, 5, 6]] and record["setup"] == duel
        assert pg.inner_text(f"{SEATS} .ys-turn") == "player 1 (you) to play: 2 rerolls left"
        pg.uncheck(f"{SEATS} .gv-table")
        # The mistake: the costliest option, by its key (the focus inside the panel: keys are its own there).
        pg.focus(f"{SEATS} .gv-main")
        costs = pg.eval_on_selector_all(f"{SEATS} .gv-options tr[data-i]", "rs => rs.map(r => r.dataset.cost)")
        mistake, _ = panel.make_a_mistake(pg, SEATS, "yahtzee", web_artifacts, costs)
        panel.undo_and_redo(pg, SEATS, "yahtzee", web_artifacts)
        table_shown(pg, "yahtzee", web_artifacts)
        # A one-player record is refused here, saying where it loads.
        solo = tmp_path / "solo.json"
        solo.write_text(json.dumps({"version": 2, "game": "yahtzee", "setup": {"rules": "hasbro"}, "events": []}))
        pg.set_input_files(f"{SEATS} .gv-load input", str(solo))
        panel.settle(pg, SEATS)
        assert pg.inner_text(f"{SEATS} .gv-error") == ("solo.json: its setup (rules hasbro) is not one of this view's "
                                                        "(a game of one player: choose Players 1 to load it)")
        # The record saved and loaded into a new game: the same position.
        record = panel.saved(pg, SEATS)
        path = tmp_path / "duel.json"
        path.write_text(json.dumps(record))
        pg.click(f"{SEATS} .gv-new")
        panel.settle(pg, SEATS)
        pg.set_input_files(f"{SEATS} .gv-load input", str(path))
        panel.settle(pg, SEATS)
        assert panel.saved(pg, SEATS) == record and pg.inner_text(f"{SEATS} .gv-error") == ""
        table_shown(pg, "yahtzee", web_artifacts)
        assert pg.evaluate("document.documentElement.scrollWidth") <= width
        play_to_the_end(pg, web_artifacts)
        final = check_the_end(pg, web_artifacts)
        assert final["events"][:len(record["events"])] == record["events"]
        assert review(advisor, final, 0).total_cost >= mistake
        assert pg.evaluate("document.documentElement.scrollWidth") <= width and errors == []
    finally:
        pg.close()


@pytest.fixture(scope="module")
def party_server(party_mini_artifacts):
    from tests.web.live import running_server
    from webapp.app import create_app

    with running_server(create_app(party_mini_artifacts)) as port:
        yield f"http://127.0.0.1:{port}"


def test_three_players_each_playing_to_win(browser, party_server, party_mini_artifacts):
    """A server whose only Yahtzee table is a 3-player one (a reduced rule set, tests/web/conftest.py): the tab opens
    on the game of every seat (no one-player table: Players 1 is off), offers that setup alone, and plays it: a roll
    typed at the table, then a reroll typed as the dice rolled again only; the other seats entered here get the
    advice for the player to move (the library's); then the tables play them, to the end: sheets, winner and review
    the library's."""
    from tests.web.conftest import PARTY_MINI

    pg = open_seats(browser, party_server, 390)
    try:
        assert pg.is_disabled("#players option[value='1']") and pg.input_value("#players") == "more"
        assert pg.eval_on_selector_all(f"{SEATS} .gv-setup option", "os => os.map(o => o.textContent)") == [
            setup_label(s) for s in get_spec("yahtzee").setups(party_mini_artifacts)]
        assert f"rules {PARTY_MINI}, players 3, objective win" in pg.inner_text(f"{SEATS} .gv-setup")
        pg.check(f"{SEATS} .gv-table")
        pg.select_option(f"{SEATS} .gv-opponent", "none")  # every seat's decisions entered here
        pg.click(f"{SEATS} .gv-new")
        panel.settle(pg, SEATS)
        type_roll(pg, "3,1,3")
        assert panel.saved(pg, SEATS)["events"] == [[1, 3, 3]]
        table_shown(pg, "yahtzee", party_mini_artifacts)
        pg.focus(f"{SEATS} .gv-main")
        pg.keyboard.press("Enter")  # the advice: a keep, then the reroll at the table
        panel.settle(pg, SEATS)
        record = panel.saved(pg, SEATS)
        advisor = open_setup("yahtzee", record["setup"], party_mini_artifacts)
        g = advisor.game
        _, state = replay(g, record["events"])
        assert state.kept is not None and len(state.kept) < 3, state  # 1 3 3: the advice rerolls a die at least
        rolled = "6" * (3 - len(state.kept))
        type_roll(pg, rolled)
        assert panel.saved(pg, SEATS)["events"][-1] == sorted([*state.kept, *[6] * len(rolled)])
        # On to the second player's turn (by the advice, dice drawn): the advice is for that player, the library's.
        pg.uncheck(f"{SEATS} .gv-table")
        while True:
            record, advisor, state = table_shown(pg, "yahtzee", party_mini_artifacts)
            if panel.to_move(pg, SEATS) == "1":
                break
            pg.focus(f"{SEATS} .gv-main")
            pg.keyboard.press("Enter")
            panel.settle(pg, SEATS)
        assert pg.inner_text(f"{SEATS} .ys-turn").startswith("player 2 to play")
        advice = g.action_text(state, advisor.decide(state))
        assert pg.inner_text(f"{SEATS} .gv-advice") == f"Advice for player 2: {advice}"
        pg.select_option(f"{SEATS} .gv-opponent", "table")
        play_to_the_end(pg, party_mini_artifacts)
        check_the_end(pg, party_mini_artifacts)
    finally:
        pg.close()
