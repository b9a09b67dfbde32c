"""Driving the view for every game (js/game.js) in Chromium wherever it is mounted: a tab of its own (``#tab-GAME``)
or a part of a game's own view (Yahtzee's games of two and three players, ``#seats``). ``panel`` is the CSS selector
of the element it is mounted in; every check compares the page with the library (``lookup.review.judge``,
``lookup.records.replay``) on the record the page saves."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from lookup.games import open_setup
from lookup.records import replay, step_texts
from lookup.review import judge


def settle(pg: Any, panel: str) -> None:
    """Wait until the view has the answers for what it shows (data-busy, set by js/game.js)."""
    pg.wait_for_function(f"document.querySelector({json.dumps(panel)})?.dataset.busy === '0'")


def saved(pg: Any, panel: str) -> dict[str, Any]:
    """The game record as the page saves it (Save record: a download)."""
    with pg.expect_download() as download:
        pg.click(f"{panel} .gv-save")
    return json.loads(Path(download.value.path()).read_text())


def to_move(pg: Any, panel: str) -> str:
    """Who acts now: a seat, "-1" (chance) or "over"."""
    return pg.get_attribute(panel, "data-to-move")


def events_shown(pg: Any, panel: str) -> int:
    return int(pg.inner_text(f"{panel} .gv-count"))


def keys_to_the_panel(pg: Any, panel: str) -> None:
    """The page's keys to the panel, not to the button last clicked (beside a game's own view the panel takes keys
    only while the focus is inside it)."""
    pg.evaluate("(sel) => { document.activeElement.blur(); document.querySelector(sel).focus(); }", panel)


def shown_as_the_seat_sees(pg: Any, panel: str, game: str, root: Path, record: dict[str, Any]) -> None:
    """The position and every event on the page are what the game shows the record's seat (dominoes: the other
    hand hidden until the end)."""
    g = open_setup(game, record["setup"], root).game
    steps, state = replay(g, record["events"])
    assert pg.inner_text(f"{panel} .gv-position") == g.state_text_for(state, record["seat"])
    log = pg.eval_on_selector_all(f"{panel} .gv-log li", "ls => ls.map(l => l.textContent)")
    assert [t.split(": ", 1)[1] for t in log] == step_texts(g, steps, record["seat"], g.is_terminal(state))


def make_a_mistake(pg: Any, panel: str, game: str, root: Path, costs: list[str]) -> tuple[float, dict[str, Any]]:
    """The costliest option played (by its number key when it has one): the cost shown is the library's judge of
    that action at that record. Returns it and the record after it."""
    worst = max(range(len(costs)), key=lambda i: float(costs[i] or 0))
    before = saved(pg, panel)
    if worst < 9:
        pg.keyboard.press(str(worst + 1))
    else:
        pg.click(f"{panel} .gv-options tr[data-i='{worst}'] button")
    settle(pg, panel)
    after = saved(pg, panel)
    n = len(before["events"])
    assert after["events"][:n] == before["events"]
    advisor = open_setup(game, before["setup"], root)
    g = advisor.game
    _, state = replay(g, before["events"])
    want = judge(advisor, state, g.parse_action(state, after["events"][n]), n + 1)
    shown = float(pg.get_attribute(f"{panel} .gv-cost", "data-cost"))
    assert shown == want.cost > 0 and pg.locator(f"{panel} .gv-cost.bad").count() == 1
    assert f"cost {want.cost:.{g.unit.digits}f}" in pg.inner_text(f"{panel} .gv-cost")
    return shown, after


def undo_and_redo(pg: Any, panel: str, game: str, root: Path) -> None:
    """Undo (key U) takes back the last event, whoever made it, and shows that position; Redo (key Y) puts it
    back."""
    record, shown = saved(pg, panel), events_shown(pg, panel)
    pg.keyboard.press("u")
    settle(pg, panel)
    assert events_shown(pg, panel) == shown - 1 and saved(pg, panel)["events"] == record["events"][:-1]
    g = open_setup(game, record["setup"], root).game
    _, undone = replay(g, record["events"][:-1])
    assert pg.inner_text(f"{panel} .gv-position") == g.state_text_for(undone, record["seat"])
    pg.keyboard.press("y")
    settle(pg, panel)
    assert saved(pg, panel)["events"] == record["events"]
