"""The view for every game (js/game.js) in a real headless Chromium (the ``browser`` and ``server`` fixtures:
tests/web/conftest.py), for every registered game whose tab shows it, alone (a game without a view of its own) or in
a part of a game's own view (dominoes, poker: its js/<game>.js mounts it), at 390 x 844 and at 1280 x 844: a whole
game with a chance outcome entered as at a real table, one deliberate mistake whose cost appears
and equals the library's judge, an undo and a redo, the record saved, the review at the end equal to the library's,
the position and the events as the player's seat is shown them, the record loaded back, and a game's strategy map
where it declares one."""

import json

import pytest

from lookup.games import get_spec, names, open_setup
from lookup.protocol import CHANCE
from lookup.records import replay
from lookup.review import review
from tests.web.pages import SEEDED_RANDOM
from tests.web.panel import (
    events_shown,
    keys_to_the_panel,
    make_a_mistake,
    saved,
    settle,
    shown_as_the_seat_sees,
    to_move,
    undo_and_redo,
)
from webapp.common import STATIC


def _view(game):
    """The game's own view's source, or None: the view for every game is the whole tab."""
    path = STATIC / "js" / f"{game}.js"
    return path.read_text() if path.is_file() else None


# Every game whose tab shows the view for every game (alone, or beside a game's own view, which imports js/game.js
# and mounts it in a part of its tab), at a phone's width and a desktop's.
PLAYED = [(n, w) for n in names() if _view(n) is None or '"./game.js"' in _view(n) for w in (390, 1280)]
HEIGHT = 844
# The number of distinct colours on a canvas (every 97th pixel): a blank one has one.
COLOURS = """(sel) => { const c = document.querySelector(sel), d = c.getContext("2d").getImageData(0, 0, c.width,
  c.height).data, seen = new Set(); for (let i = 0; i < d.length; i += 4 * 97) seen.add(d.slice(i, i + 3).join());
  return seen.size; }"""
# Games played until one brings the player a decision with a costly option (a short game, such as the small Pig's
# race to 20, may end before the player has one).
GAMES = 6


def panel(game):
    """The panel's element: the tab itself, or the part of a game's view it is mounted in."""
    return f".gv-root:is(#tab-{game}, #tab-{game} *)"  # one compound selector: "{panel} .gv-save" stays one


def fits(pg):
    width = pg.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], width


def enter_an_outcome(pg, game, root):
    """At a chance node: a listed outcome clicked, or the first outcome's JSON (the field's example) typed; the
    record then holds it."""
    tab, where = f"#tab-{game}", panel(game)
    before = saved(pg, where)
    if pg.locator(f"{tab} .gv-options button.gv-option").count():
        pg.click(f"{tab} .gv-options tr[data-i='0'] button")
    else:
        pg.fill(f"{tab} .gv-outcome", pg.get_attribute(f"{tab} .gv-outcome", "placeholder"))
        pg.press(f"{tab} .gv-outcome", "Enter")
    settle(pg, where)
    advisor = open_setup(game, before["setup"], root)
    _, state = replay(advisor.game, before["events"])
    first = advisor.game.action_json(state, advisor.game.chance_outcomes(state)[0][0])
    assert saved(pg, where)["events"][len(before["events"])] == first


def play_a_game(pg, game, root, seat):
    """A new game played to the end: its first chance event entered as at a real table, the player's first decision
    with a costly option played at its worst (its cost, the position and the events checked, then an undo and a
    redo), every other decision by the advice. Returns (a chance outcome was entered, the mistake's cost or None)."""
    tab, where = f"#tab-{game}", panel(game)
    # Chance entered here: the game stops at its first chance event, whose outcome is entered (a listed one
    # clicked, or the game's JSON typed); then the server draws. A game without chance has no such box.
    if pg.is_visible(f"{tab} .gv-table"):
        pg.check(f"{tab} .gv-table")
    pg.click(f"{tab} .gv-new")
    settle(pg, where)
    entered = mistake = None
    for _ in range(300):
        keys_to_the_panel(pg, where)
        mover = to_move(pg, where)
        if mover == "over":
            return entered, mistake
        fits(pg)
        if mover == str(CHANCE):
            enter_an_outcome(pg, game, root)
            entered = True
            pg.uncheck(f"{tab} .gv-table")
            continue
        costs = pg.eval_on_selector_all(f"{tab} .gv-options tr[data-i]", "rs => rs.map(r => r.dataset.cost)")
        if mover != str(seat) or mistake is not None or not any(c and float(c) > 0 for c in costs):
            first_is_best = pg.locator(f"{tab} tr.best[data-i='0']").count() == 1
            pg.keyboard.press("1" if first_is_best and len(costs) % 2 else "Enter")  # key 1, or the advice
            settle(pg, where)
            continue
        mistake, after = make_a_mistake(pg, where, game, root, costs)
        shown_as_the_seat_sees(pg, where, game, root, after)
        undo_and_redo(pg, where, game, root)
    raise AssertionError(f"{game}: not over after 300 steps")


@pytest.mark.parametrize(("game", "width"), PLAYED)
def test_a_whole_game_with_a_mistake_an_undo_and_the_record(browser, server, web_artifacts, game, width, tmp_path):
    pg = browser.new_page(viewport={"width": width, "height": HEIGHT})
    pg.set_default_timeout(20_000)
    pg.add_init_script(SEEDED_RANDOM)  # the seeds the page draws for its games
    errors = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    tab, where = f"#tab-{game}", panel(game)
    try:
        pg.goto(f"{server}/#{game}")
        pg.wait_for_selector(f"{tab}[data-mounted]")
        if not pg.locator(where).is_visible():
            pytest.skip(f"{game}'s view shows the panel only on request (its own browser test drives it)")
        settle(pg, where)
        seat = int(pg.input_value(f"{tab} .gv-seat"))
        for _ in range(GAMES):
            entered, mistake = play_a_game(pg, game, web_artifacts, seat)
            if mistake is not None:
                break
        assert to_move(pg, where) == "over"
        assert mistake is not None, f"no decision with a costly option came in {GAMES} games"
        assert entered or not any(s.mover == CHANCE for s in replay(open_setup(game, saved(pg, where)["setup"],
                                                                                web_artifacts).game,
                                                                     saved(pg, where)["events"])[0])
        record = saved(pg, where)
        advisor = open_setup(game, record["setup"], web_artifacts)
        assert pg.is_visible(f"{tab} .gv-table") == advisor.game.has_chance
        want = review(advisor, record, seat)
        digits = advisor.game.unit.digits
        pg.wait_for_selector(f"{tab} .gv-total-cost")
        assert pg.inner_text(f"{tab} .gv-total-cost") == f"{want.total_cost:.{digits}f}"
        assert want.total_cost >= mistake and want.finished
        assert pg.locator(f"{tab} .gv-unvalued").count() == (want.unvalued > 0)  # decisions the tables do not value
        assert pg.locator(f"{tab} .gv-review-table tr[data-index]").count() == len(record["events"])
        fits(pg)
        # The record loaded back into a new game: the same position, events and review.
        pg.click(f"{tab} .gv-new")
        settle(pg, where)
        assert events_shown(pg, where) < len(record["events"])
        path = tmp_path / f"{game}-record.json"
        path.write_text(json.dumps(record))
        pg.set_input_files(f"{tab} .gv-load input", str(path))
        settle(pg, where)
        shown_as_the_seat_sees(pg, where, game, web_artifacts, record)
        # (Saving it again is not asked here: a fifth download from one page was sometimes never started by the
        # headless Chromium, 2 runs in 5; the saves above check what Save writes.)
        assert events_shown(pg, where) == len(record["events"])
        assert pg.inner_text(f"{tab} .gv-total-cost") == f"{want.total_cost:.{digits}f}"
        assert errors == []
        if width == 1280:  # a new game from a position typed in (the command line's --position): one of the player's
            g = advisor.game  # decisions of this game, shown as the seat sees it, nothing played on
            pg.click(f"{tab} .gv-from summary")
            assert json.loads(pg.input_value(f"{tab} .gv-start")) == g.state_json(g.initial_state())
            for bad, said in (("{", "the position is not JSON"), ('"?"', "start: ")):
                pg.fill(f"{tab} .gv-start", bad)
                pg.click(f"{tab} .gv-start-go")
                settle(pg, where)
                assert pg.inner_text(f"{tab} .gv-error").startswith(said)
            state = next(s.state for s in replay(g, record["events"])[0] if s.mover == seat)
            pg.fill(f"{tab} .gv-start", json.dumps(g.state_json(state)))
            pg.click(f"{tab} .gv-start-go")
            settle(pg, where)
            assert pg.inner_text(f"{tab} .gv-error") == "" and events_shown(pg, where) == 0
            assert pg.inner_text(f"{tab} .gv-position") == g.state_text_for(state, seat)
            if get_spec(game).map is not None:  # the strategy's map at that decision (js/map.js), drawn
                assert pg.inner_text(f"{tab} .gv-map .map-act").startswith(f"The tables' play of player {seat + 1}")
                assert pg.inner_text(f"{tab} .gv-map .map-val").endswith(f"({g.unit.name})")
                assert pg.evaluate(COLOURS, f"{tab} .gv-map canvas.map-action") > 3  # actions, axes, the mark
            assert all("status of 422" in e for e in errors) and len(errors) == 1  # the refused position's answer
    finally:
        pg.close()
