"""A dominoes game entered at a real table on the page (the view for every game, js/game.js, on a setup seen from one
seat: ``lookup.dominoes.seen``), in a real headless Chromium: the setup chosen puts the player at its seat, the other
seat "entered here" and chance entered; the seat's tiles typed, the other's moves clicked without tiles, and at
each of the seat's decisions the costs shown are those of ``lookup.dominoes.move_values`` on the history the player
would type (computed here); a mistake's cost at once, an undo and a redo, the review at the end equal to the
library's, and the record loaded back."""

import json
import re

import pytest

from lookup.dominoes import engine as E
from lookup.dominoes import move_values
from lookup.dominoes.game import Dominoes
from lookup.dominoes.rules import tile_name
from lookup.games import get_spec, open_setup
from lookup.protocol import CHANCE
from lookup.review import review
from tests.dominoes.test_dominoes_seen import full_game, seen_events
from tests.web.panel import events_shown, keys_to_the_panel, saved, settle, shown_as_the_seat_sees, to_move

TAB = "#tab-dominoes"
WHERE = f".gv-root:is({TAB}, {TAB} *)"
YOU = 1


def costs_shown(pg) -> list[float]:
    return [float(c) for c in pg.eval_on_selector_all(f"{TAB} .gv-options tr[data-i]",
                                                       "rs => rs.map(r => r.dataset.cost)")]


# At a phone's width (the view for every game, dominoes included, is played at 390 and 1280 in test_browser_protocol).
@pytest.mark.parametrize("width", [390])
def test_a_game_entered_as_seen_from_one_seat(browser, server, web_artifacts, tmp_path, width):
    setups = get_spec("dominoes").setups(web_artifacts)
    index = next(i for i, s in enumerate(setups) if s["you"] == YOU and s["max_pip"] == 6)
    setup = setups[index]
    options = {"player": setup["player"], "model": setup["models"][0], "models": setup["models"],
               **{k: setup[k] for k in ("depth", "samples", "max_exact", "endgame", "budget", "seed")}}
    start, end = full_game(Dominoes(), 4)
    hand = [tile_name(t) for t in range(E.N_TILES) if start.hands[YOU] >> t & 1]
    pg = browser.new_page(viewport={"width": width, "height": 844})
    pg.set_default_timeout(30_000)
    errors = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        pg.goto(f"{server}/#dominoes")
        pg.wait_for_selector(f"{TAB}[data-mounted]")
        settle(pg, WHERE)
        pg.select_option(f"{TAB} .gv-setup", str(index))
        settle(pg, WHERE)
        assert pg.input_value(f"{TAB} .gv-seat") == str(YOU) and pg.input_value(f"{TAB} .gv-opponent") == "none"
        assert pg.is_checked(f"{TAB} .gv-table") and to_move(pg, WHERE) == str(CHANCE)
        typed, checked, mistake, undone = [], 0, None, False
        events = seen_events(start, end, YOU)
        assert events[:len(hand)] == hand
        # The hand as dealt, typed at once; one tile more than the deal is refused, the dealt ones kept.
        extra = next(tile_name(t) for t in range(E.N_TILES) if tile_name(t) not in hand)
        pg.fill(f"{TAB} .gv-outcome", " ".join(hand) + f", {extra}")
        pg.press(f"{TAB} .gv-outcome", "Enter")
        settle(pg, WHERE)
        assert saved(pg, WHERE)["events"] == hand
        assert pg.inner_text(f"{TAB} .gv-error") == f"{extra}: nothing more is dealt or rolled now"
        for event in events[len(hand):] + ["pips:end"]:
            keys_to_the_panel(pg, WHERE)
            mover = to_move(pg, WHERE)
            if mover == "over":
                break
            if event == "pips:end":  # a blocked game whose result needs the other's pips
                event = f"pips:{E.pips(end.hands[1 - YOU])}"
            if mover == str(CHANCE):  # a tile of the seat's deal or draw, typed
                pg.fill(f"{TAB} .gv-outcome", event)
                pg.press(f"{TAB} .gv-outcome", "Enter")
                if typed and typed[-1] == "draw":
                    typed[-1] = f"draw:{event}"
                settle(pg, WHERE)
                continue
            texts = pg.eval_on_selector_all(f"{TAB} .gv-options button.gv-option", "bs => bs.map(b => b.textContent)")
            pick = next(i for i, t in enumerate(texts) if re.sub(r"^\d ", "", t).removesuffix(" ★") in
                        (f"plays {event}", f"shows {event.removeprefix('pips:')} pips in hand"))
            if mover == str(YOU) and len(texts) > 1:
                want = move_values(hand, typed, YOU, **options)
                best = max(v for _, v in want)
                assert costs_shown(pg) == [best - v for _, v in want]
                assert pg.inner_text(f"{TAB} .gv-best") == f"plays {max(want, key=lambda mv: mv[1])[0]}"
                checked += 1
            elif mover != str(YOU):
                assert pg.is_disabled(f"{TAB} .gv-main")
                assert "click the one played" in pg.inner_text(f"{TAB} .gv-advice")
            cost = costs_shown(pg)[pick] if mover == str(YOU) and len(texts) > 1 else 0
            pg.click(f"{TAB} .gv-options tr[data-i='{pick}'] button")
            settle(pg, WHERE)
            if mover != str(CHANCE) and not event.startswith("pips:"):
                typed.append(event)
            if cost > 0 and mistake is None:  # the game's own play: its first costly move is the mistake shown
                mistake = cost
                assert float(pg.get_attribute(f"{TAB} .gv-cost", "data-cost")) == cost
                shown_as_the_seat_sees(pg, WHERE, "dominoes", web_artifacts, saved(pg, WHERE))
            if mover != str(YOU) and not undone and checked:  # undo the other's move, and redo it
                record, shown = saved(pg, WHERE), events_shown(pg, WHERE)
                keys_to_the_panel(pg, WHERE)
                pg.keyboard.press("u")
                settle(pg, WHERE)
                assert events_shown(pg, WHERE) == shown - 1
                pg.keyboard.press("y")
                settle(pg, WHERE)
                assert saved(pg, WHERE)["events"] == record["events"]
                undone = True
        assert to_move(pg, WHERE) == "over" and checked >= 5 and mistake is not None and undone
        record = saved(pg, WHERE)
        assert record["seat"] == YOU and record["setup"]["you"] == YOU
        advisor = open_setup("dominoes", record["setup"], web_artifacts)
        want = review(advisor, record, YOU)
        assert want.finished and want.end == Dominoes().returns(end)[YOU]
        pg.wait_for_selector(f"{TAB} .gv-total-cost")
        assert pg.inner_text(f"{TAB} .gv-total-cost") == f"{want.total_cost:.4f}" and want.total_cost >= mistake
        # The record loaded back into a new game: the same position and events.
        pg.click(f"{TAB} .gv-new")
        settle(pg, WHERE)
        path = tmp_path / "seen.json"
        path.write_text(json.dumps(record))
        pg.set_input_files(f"{TAB} .gv-load input", str(path))
        settle(pg, WHERE)
        shown_as_the_seat_sees(pg, WHERE, "dominoes", web_artifacts, record)
        assert events_shown(pg, WHERE) == len(record["events"]) and errors == []
    finally:
        pg.close()
