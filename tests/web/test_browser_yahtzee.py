"""The Yahtzee view in a real headless Chromium (the ``browser`` and ``server`` fixtures: tests/web/conftest.py).

Every check compares what the page shows with ``lookup.yahtzee`` (and, for a game, each decision's cost and the
review, ``lookup.review`` through the protocol) computed here, on the dice and sheets the page shows (the page
rolls its own random dice). A game is the view for every game's (js/game.js in ``#seats``, with
js/extras/yahtzee.js); any position is js/yahtzee.js's own board."""

import json

import pytest

from lookup import yahtzee
from lookup.games import get_spec, open_setup
from lookup.records import replay
from lookup.review import judge, review
from tests.web import panel
from tests.web.pages import SEEDED_RANDOM

SCANDINAVIAN = "scandinavian+forced"
SHOWN_OPTIONS = 8  # option rows shown before "show all"
SEATS = "#seats"


def open_view(browser, server, width=1300):
    """The Yahtzee tab, on a game (its first setup started)."""
    pg = browser.new_page(viewport={"width": width, "height": 900})
    pg.set_default_timeout(20_000)
    pg.goto(server + "/#yahtzee")
    settle(pg)
    return pg


def settle(pg):
    """Wait until the view has its answers for what it shows (data-busy, set by yahtzee.js; and by game.js in a
    game)."""
    pg.wait_for_function("document.getElementById('tab-yahtzee')?.dataset.busy === '0'")
    if pg.input_value("#mode") == "game":
        pg.wait_for_selector(f"{SEATS}[data-busy='0'] .ys-sheets")


def shown(pg):
    """(dice, rerolls left, sheet, points shown in the open boxes) of any position, as the page shows them."""
    dice = [int(t) for t in pg.locator("#dice .die").all_inner_texts()]
    cells = pg.evaluate("""[...document.querySelectorAll('#sheet td.box')].map(td =>
        [td.dataset.box, td.classList.contains('filled'), td.textContent])""")
    sheet = {box: int(text) for box, filled, text in cells if filled}
    would = {box: int(text) for box, filled, text in cells if not filled and text.isdigit()}
    if pg.locator("#yahtzee-bonus").count():  # the rule set has a Yahtzee bonus
        sheet["yahtzee_bonus"] = int(pg.inner_text("#yahtzee-bonus"))
    return dice, int(pg.input_value("#rerolls")), sheet, would, [c[0] for c in cells]


def choose(pg, rules, objective="expected", target=None):
    """Any position, of rule set ``rules``, played for ``objective``."""
    pg.select_option("#mode", "position")
    settle(pg)
    pg.select_option("#rules", rules)
    settle(pg)
    pg.select_option("#objective", objective)
    if target is not None:
        pg.fill("#target", str(target))
        pg.dispatch_event("#target", "change")
    settle(pg)


def setup_label(setup):
    """A setup as the view for every game lists it (js/game.js setupText)."""
    return ", ".join(f"{k} {v}" for k, v in setup.items() if v is not None)


def new_game(pg, setup, target=None):
    """A game of ``setup`` started (its target typed where given)."""
    pg.select_option("#mode", "game")
    settle(pg)
    pg.select_option(f"{SEATS} .gv-setup", label=setup_label(setup))
    panel.settle(pg, SEATS)
    if target is not None:
        pg.fill(f"{SEATS} .gv-option-target", str(target))
        pg.dispatch_event(f"{SEATS} .gv-option-target", "change")
    pg.click(f"{SEATS} .gv-new")
    panel.settle(pg, SEATS)


def solo(rules, objective="expected", target=None):
    return {"rules": rules, "players": 1, "target": target, "objective": objective}


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


def play_to_the_end(pg, root, limit=200, check=0):
    """The advice played (the main button and key Enter in turn; the panel, shown alone, takes the page's keys) until
    the game is over; with ``check`` = k, every k-th advice to seat 0 and the table against the library first."""
    for step in range(limit):
        if panel.to_move(pg, SEATS) == "over":
            return
        if check and step % check == 0 and panel.to_move(pg, SEATS) == "0":
            _, advisor, state = table_shown(pg, "yahtzee", root)
            advice = advisor.game.action_text(state, advisor.decide(state))
            assert pg.inner_text(f"{SEATS} .gv-advice") == f"Advice for you: {advice}"
        if step % 2:
            pg.click(f"{SEATS} .gv-main")
        else:
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


def play_by_advice(pg, setup, root):
    """A whole game of ``setup`` by the advice, every second advice shown (2 and the three decisions of a turn are
    coprime: each decision of a turn is checked in some turns) and the table checked against the library; the end,
    the winner and the review the library's. Returns the record."""
    new_game(pg, setup)
    play_to_the_end(pg, root, check=2)
    record = check_the_end(pg, root)
    assert review(open_setup("yahtzee", setup, root), record).total_cost == 0
    return record


@pytest.fixture(scope="module")
def page(browser, server):
    pg = open_view(browser, server)
    yield pg
    pg.close()


def test_a_whole_scandinavian_forced_game_by_the_advice(page, web_artifacts):
    """(hasbro's whole game, with a mistake, an undo and its record, is the protocol's browser test:
    tests/web/test_browser_protocol.py.)"""
    play_by_advice(page, solo(SCANDINAVIAN), web_artifacts)


def test_dice_held_and_rolled_and_a_box_clicked_cost_the_librarys_judge(page, web_artifacts):
    """In a game: a click holds or releases a die (the advice's marks stay), Roll keeps the dice held, an open box
    clicked scores there (with rerolls left after keeping every die for each); each decision's cost appears at once
    and is the library's judge."""
    new_game(page, solo("hasbro"))
    record, advisor, state = table_shown(page, "yahtzee", web_artifacts)
    dice = list(state.dice)

    def marks():
        return page.eval_on_selector_all(f"{SEATS} .ys-dice .die", "ds => ds.map(d => [d.classList.contains('held'), "
                                                                   "d.classList.contains('reroll')])")

    before = marks()
    page.click(f"{SEATS} .ys-dice .die[data-i='0']")
    page.click(f"{SEATS} .ys-dice .die[data-i='4']")
    page.click(f"{SEATS} .ys-dice .die[data-i='0']")
    after = marks()
    assert [h for h, _ in after] == [False, False, False, False, True]
    assert [r for _, r in after] == [r for _, r in before]
    page.click(f"{SEATS} .ys-roll")
    panel.settle(page, SEATS)
    want = judge(advisor, state, (dice[4],))
    assert panel.saved(page, SEATS)["events"][:2] == [dice, [dice[4]]]
    assert float(page.get_attribute(f"{SEATS} .gv-cost", "data-cost")) == pytest.approx(want.cost, abs=1e-12)
    page.click(f"{SEATS} .ys-roll")  # nothing held: every die rolled again
    panel.settle(page, SEATS)
    record, advisor, state = table_shown(page, "yahtzee", web_artifacts)
    assert record["events"][1] == [dice[4]] and record["events"][3] == [] and state.rerolls == 0
    worst = max(advisor.game.legal_actions(state), key=lambda a: judge(advisor, state, a).cost)
    want = judge(advisor, state, worst)
    assert want.cost > 0
    page.click(f"{SEATS} .ys-box[data-box='{worst}']")
    panel.settle(page, SEATS)
    assert panel.saved(page, SEATS)["events"][5] == worst
    assert float(page.get_attribute(f"{SEATS} .gv-cost.bad", "data-cost")) == want.cost
    assert f"cost {want.cost:.4f} points (best: {want.best_text}" in page.inner_text(f"{SEATS} .gv-cost")
    # A box clicked with rerolls left: every die kept for each of them, then the box; the cost shown is the box's.
    record, advisor, state = table_shown(page, "yahtzee", web_artifacts)
    assert state.rerolls == 2 and state.kept is None
    box = next(iter(advisor.game.sheet(state).allowed(state.dice)))
    page.click(f"{SEATS} .ys-box[data-box='{box}']")
    panel.settle(page, SEATS)
    dice = list(state.dice)
    assert panel.saved(page, SEATS)["events"][len(record["events"]):len(record["events"]) + 3] == [dice, dice, box]
    last = advisor.game.apply(advisor.game.apply(state, tuple(dice)), tuple(dice))
    assert float(page.get_attribute(f"{SEATS} .gv-cost", "data-cost")) == judge(advisor, last, box).cost


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
        choose(pg, "hasbro")
        assert pg.eval_on_selector(duel, "o => o.disabled")  # hasbro: no 2-player table
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
        play_by_advice(pg, solo("scandinavian"), artifacts)
    finally:
        pg.close()


def test_six_dice_of_maxi_yatzy_from_a_layered_table(browser, maxi_mini_artifacts):
    """The only rule set built on this server is the reduced six-dice Maxi (tests/web/conftest.py): any position has
    six dice and key 6; what needs a table it lacks is switched off; a whole game by the advice."""
    from tests.web.conftest import MAXI_MINI
    from tests.web.live import running_server
    from webapp.app import create_app

    with running_server(create_app(maxi_mini_artifacts)) as port:
        pg = open_view(browser, f"http://127.0.0.1:{port}")
        try:
            choose(pg, MAXI_MINI)
            assert pg.eval_on_selector_all("#rules option", "os => os.map(o => o.value)") == [MAXI_MINI]
            dice, rerolls, sheet, _, boxes = shown(pg)
            assert len(dice) == 6 and boxes == list(yahtzee.get_rules(MAXI_MINI).categories)
            assert pg.inner_text("#last-die-key") == "6"
            rows = [r.split("\t")[0] for r in pg.locator("#sheet tr").all_inner_texts()]  # header, 6 upper boxes
            assert rows[7:] == ["upper total (bonus at 70)", "upper bonus", "maxi yatzy", "total"]
            assert pg.inner_text("#dist-stats") == "not built for this rule set"
            assert pg.eval_on_selector_all("#objective option", "os => os.map(o => o.disabled)") == [
                False, True, True, True, True]  # no goal, win, law or 2-player table
            pg.click("#dice .die[data-i='0']")  # a click (or a key) turns a die to its next face
            settle(pg)
            pg.keyboard.press("6")
            settle(pg)
            now, *_ = shown(pg)
            assert now == [dice[0] % 6 + 1, *dice[1:5], dice[5] % 6 + 1]
            assert pg.inner_text("#best") == str(yahtzee.decide(now, rerolls, sheet, MAXI_MINI,
                                                               artifacts_dir=maxi_mini_artifacts))
            assert pg.inner_text("#error") == ""
            record = play_by_advice(pg, solo(MAXI_MINI), maxi_mini_artifacts)
            assert len(record["events"][0]) == 6
        finally:
            pg.close()


def test_a_roll_typed_at_the_table_an_undo_a_redo_and_a_record_loaded(page, tmp_path):
    """At a real table: the first roll typed whole, a reroll typed as the dice rolled again only, bad rolls refused
    with the protocol's message; undo takes back the last event, redo puts it back; the record saved, then loaded
    into a new game, shows the same position. What is not built is greyed out with the command that builds it."""
    choose(page, "hasbro")
    # hasbro's play-to-win tables are not built here: those choices are greyed out and listed with the command
    # that builds them (GET /api/yahtzee/rules "unavailable"), readable without hovering
    assert page.is_disabled("#objective option[value='goal']") and page.is_visible("#unbuilt")
    page.click("#unbuilt summary")
    assert "dicetables build yahtzee-towin-hasbro" in page.inner_text("#unbuilt li[data-objective='goal']")
    new_game(page, solo("hasbro"))
    page.check(f"{SEATS} .gv-table")
    page.click(f"{SEATS} .gv-new")
    panel.settle(page, SEATS)
    error = f"{SEATS} .gv-error"

    def dice_shown():
        return [int(d) for d in page.locator(f"{SEATS} .ys-dice .die").all_inner_texts()]

    type_roll(page, "6 4 3 2 1")
    assert dice_shown() == [1, 2, 3, 4, 6] and page.inner_text(error) == ""
    page.click(f"{SEATS} .ys-dice .die[data-i='0']")  # hold the 1, roll the other four
    page.click(f"{SEATS} .ys-roll")
    panel.settle(page, SEATS)
    type_roll(page, "9")  # the protocol's message (lookup.yahtzee.positions: the roll as typed)
    assert page.inner_text(error) == "event 3 (chance): a reroll: 5 dice, or the 4 dice rolled again; got 1: [9]"
    type_roll(page, "25x6")
    assert page.inner_text(error) == ("event 3 (chance): '25x6' is not a die's face (digits, e.g. 1 3 3 5 6 or "
                                      "13356)")
    type_roll(page, "22222")  # five dice without the kept 1: the protocol refuses the roll
    assert "does not hold the dice kept" in page.inner_text(error)
    type_roll(page, "2,5 56")  # the four dice rolled again; the 1 kept is added
    assert dice_shown() == [1, 2, 5, 5, 6] and page.inner_text(error) == ""
    record = panel.saved(page, SEATS)
    assert record["events"] == [[1, 2, 3, 4, 6], [1], [1, 2, 5, 5, 6]]
    assert page.inner_text(f"{SEATS} .ys-turn") == "player 1 (you) to play: 1 reroll left"
    panel.keys_to_the_panel(page, SEATS)
    page.keyboard.press("u")
    panel.settle(page, SEATS)
    assert panel.saved(page, SEATS)["events"] == record["events"][:2]
    page.keyboard.press("y")
    panel.settle(page, SEATS)
    assert panel.saved(page, SEATS) == record and dice_shown() == [1, 2, 5, 5, 6]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    page.click(f"{SEATS} .gv-new")
    panel.settle(page, SEATS)
    page.set_input_files(f"{SEATS} .gv-load input", str(path))
    panel.settle(page, SEATS)
    assert panel.saved(page, SEATS) == record and dice_shown() == [1, 2, 5, 5, 6]
    page.uncheck(f"{SEATS} .gv-table")


@pytest.mark.parametrize("width", [390])
def test_one_player_a_whole_game_for_a_typed_goal_a_mistake_an_undo_and_the_record(browser, server, web_artifacts,
                                                                                  tmp_path, width):
    """One player playing for a goal whose target is typed (any target: the same tables), a whole game at a phone's
    width (the protocol's browser test plays hasbro at 390 and 1280 px): a deliberate mistake whose cost appears the
    moment it is made and is the library's judge; an undo and a redo; the rest by the advice; the review the
    library's; the record saved and loaded into a new game: the same setup (its typed target) and end. No horizontal
    scroll, no console error."""
    pg = browser.new_page(viewport={"width": width, "height": 844})
    pg.set_default_timeout(20_000)
    pg.add_init_script(SEEDED_RANDOM)  # the page's seeds: repeatable
    errors = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    try:
        pg.goto(server + "/#yahtzee")
        settle(pg)
        goal = next(s for s in get_spec("yahtzee").setups(web_artifacts) if s["objective"] == "goal")
        new_game(pg, goal, target=173)
        record = panel.saved(pg, SEATS)
        assert record["setup"] == {**goal, "target": 173}
        panel.keys_to_the_panel(pg, SEATS)
        costs = pg.eval_on_selector_all(f"{SEATS} .gv-options tr[data-i]", "rs => rs.map(r => r.dataset.cost)")
        mistake, _ = panel.make_a_mistake(pg, SEATS, "yahtzee", web_artifacts, costs)
        panel.undo_and_redo(pg, SEATS, "yahtzee", web_artifacts)
        play_to_the_end(pg, web_artifacts)
        record = check_the_end(pg, web_artifacts)
        reviewed = review(open_setup("yahtzee", record["setup"], web_artifacts), record)
        assert reviewed.total_cost >= mistake
        path = tmp_path / "game.json"
        path.write_text(json.dumps(record))
        pg.click(f"{SEATS} .gv-new")
        panel.settle(pg, SEATS)
        pg.set_input_files(f"{SEATS} .gv-load input", str(path))
        panel.settle(pg, SEATS)
        assert pg.inner_text(f"{SEATS} .gv-error") == "" and panel.saved(pg, SEATS) == record
        assert pg.input_value(f"{SEATS} .gv-option-target") == "173"
        check_the_end(pg, web_artifacts)
        assert pg.evaluate("document.documentElement.scrollWidth") <= width and errors == []
    finally:
        pg.close()


def test_a_turn_fits_one_phone_screen(browser, server):
    """390 x 844 CSS pixels, a game started (its first roll drawn): the dice, the advice and the whole score sheet are
    on the first screen, with no scrolling (the options, the coach and the events follow below)."""
    pg = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        pg.set_default_timeout(20_000)
        pg.goto(server + "/#yahtzee")
        settle(pg)
        boxes = pg.evaluate("""['.ys-dice', '.gv-advice', '.ys-sheets'].map((sel) => {
            const r = document.querySelector('#seats ' + sel).getBoundingClientRect(); return [r.top, r.bottom]; })""")
        assert pg.evaluate("window.scrollY") == 0 and pg.inner_text(f"{SEATS} .gv-advice").startswith("Advice for you")
        assert all(0 <= top < bottom <= 844 for top, bottom in boxes), boxes
        assert pg.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        pg.close()


@pytest.mark.parametrize("width", [390])  # a phone's: two sheets side by side (1 player at 1280: the protocol's test)
def test_two_players_in_forced_order_with_every_seats_sheet(browser, server, web_artifacts, tmp_path, width):
    """Two players in forced order, both playing to win (the 2-player table). At a real table the first roll
    typed as digits; the table of every seat shows it, the points it would score and whose turn it is, as the
    library says; a deliberate mistake shows its cost at once (the library's judge); undo and redo; the record saved
    and loaded into a new game; the game played to its end by the advice, the sheets, the winner and the review the
    library's. No horizontal scroll, no console error."""
    setups = get_spec("yahtzee").setups(web_artifacts)
    duel = next(s for s in setups if s["objective"] == "win" and s["players"] == 2)
    pg = open_view(browser, server, width)
    errors = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    try:
        assert pg.eval_on_selector_all(f"{SEATS} .gv-setup option", "os => os.map(o => o.textContent)") == [
            setup_label(s) for s in setups]  # every setup built, and only those
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
    on a game (no one-player table: any position is off), offers that setup alone, and plays it: a roll
    typed at the table, then a reroll typed as the dice rolled again only; the other seats entered here get the
    advice for the player to move (the library's); then the tables play them, to the end: sheets, winner and review
    the library's."""
    from tests.web.conftest import PARTY_MINI

    pg = open_view(browser, party_server, 390)
    try:
        assert pg.is_disabled("#mode option[value='position']") and pg.input_value("#mode") == "game"
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
