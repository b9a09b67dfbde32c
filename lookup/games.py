"""The registered games: every ``lookup/<game>/game.py`` that declares ``SPEC = GameSpec(...)``, found by name
(no list of games is kept anywhere), and opening one setup of a game as an :class:`lookup.protocol.Advisor`.

A game's **setup** is what a player chooses before a game (the rule set, the target, the number of players,
the objective, the opponent model): a JSON object of the game's declared options. ``GameSpec.setups(root)``
lists the setups the tables in ``root`` answer (the page and the tests offer exactly those);
``open_setup(name, setup, root)`` is the advisor of one, with the game (``advisor.game``).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from lookup.naming import by_name
from lookup.protocol import JSON, Advisor, json_object
from lookup.validate import integer, shown

Opener = Callable[[dict[str, JSON], Path | None], Advisor]


@dataclass(frozen=True)
class Option:
    """One setup option: its default, a line of help, and what it may be (``choices``, or an int in
    ``low..high``; a list of choices with ``many``). None as default: the option may be left out (null).
    ``served``: the most a request to the web server may ask (a bound on the time one answer takes, for options
    that set a search's size; None: ``high``), checked by ``served_setup``. ``free``: every value in ``low..high``
    is answered by the tables of a setup built with any one of them (Yahtzee's target), so a page offers it as a
    field to type rather than only the setups listed.
    ``choices`` may be a live view (a ``Sequence`` read at each check), for names registered at run time."""

    default: JSON
    help: str
    choices: Sequence[JSON] = ()
    low: int | None = None
    high: int | None = None
    many: bool = False
    served: int | None = None
    free: bool = False

    def check(self, name: str, value: JSON) -> JSON:
        if value is None and self.default is None:
            return None
        if self.many:
            if not isinstance(value, list) or not value:
                raise ValueError(f"{name} must be a non-empty list of {', '.join(map(str, self.choices))}, "
                                 f"got {shown(value)}")
            return [self._one(name, v) for v in value]
        return self._one(name, value)

    def _one(self, name: str, value: JSON) -> JSON:
        if self.choices:
            if type(value) is not type(self.choices[0]) or value not in self.choices:
                raise ValueError(f"{name} must be one of {', '.join(map(str, self.choices))}, got {shown(value)}")
            return value
        if isinstance(self.default, int) or self.low is not None:
            return integer(value, name, self.low, self.high)
        if type(value) is not str or not value:
            raise ValueError(f"{name} must be a non-empty string, got {shown(value)}")
        return value


# In a map's axis path (``MapSpec``, drawn by ``lookup.maps``): the index of the seat to move, of the other seat.
MOVER, OTHER = "mover", "other"


@dataclass(frozen=True)
class Axis:
    """One coordinate a map varies: ``label`` for people (with its unit), ``path`` its place in the position's JSON
    (``Game.state_json``: keys and list indices, :data:`MOVER` / :data:`OTHER` for a seat's index), ``values(game)``
    the values it takes (a ``range``)."""

    label: str
    path: tuple[str | int, ...]
    values: Callable[[Any], range]


@dataclass(frozen=True)
class MapSpec:
    """A game's map: ``y`` the rows (drawn upwards), ``x`` the columns."""

    y: Axis
    x: Axis


@dataclass(frozen=True)
class GameSpec:
    """A game as every generic feature sees it.

    name: the package (``lookup/<name>``), the command group, the page's tab; title: for people; summary: the
    rules in one paragraph; options: the setup's options; setups(root): every setup the tables in ``root``
    answer (full option dicts; [] when nothing is built); open(setup, root): the advisor of one checked setup;
    map: the two coordinates of a position its strategy is drawn over (``lookup.maps``), None for no map.
    """

    name: str
    title: str
    summary: str
    options: Mapping[str, Option]
    setups: Callable[[Path], list[dict[str, JSON]]]
    open: Opener
    notes: Mapping[str, str] = field(default_factory=dict)
    map: MapSpec | None = None

    def setup(self, given: Mapping[str, JSON] | None) -> dict[str, JSON]:
        """``given`` completed with the defaults and checked; ValueError naming an unknown or bad option."""
        given = json_object({} if given is None else given, f"{self.name} setup", dict.fromkeys(self.options, False))
        return {k: opt.check(k, given[k]) if k in given else opt.default for k, opt in self.options.items()}


def served_setup(name: str, setup: Mapping[str, JSON] | None) -> dict[str, JSON]:
    """Game ``name``'s ``setup`` checked as ``GameSpec.setup`` does, then against each option's ``served`` bound:
    what a server answers (ValueError naming the option and its bound beyond it)."""
    spec = get_spec(name)
    checked = spec.setup(setup)
    for key, option in spec.options.items():
        value = checked[key]
        if option.served is not None and isinstance(value, int) and value > option.served:
            raise ValueError(f"{key} may be at most {option.served} on this server (it bounds the time of an "
                             f"answer; the library and the command line allow up to {option.high}), got {value}")
    return checked


@cache
def names() -> tuple[str, ...]:
    """The registered games' names: every package ``lookup/<name>/`` with a ``game.py`` (which must declare
    ``SPEC``), sorted. Found on disk, importing nothing: ``dicetables --help`` stays fast."""
    import lookup

    return tuple(sorted(info.name for info in pkgutil.iter_modules(lookup.__path__)
                        if info.ispkg and (Path(info.module_finder.path) / info.name / "game.py").is_file()))


@cache
def specs() -> dict[str, GameSpec]:
    """Every registered game by name (``names``), its ``game.py`` imported."""
    return {name: get_spec(name) for name in names()}


def get_spec(name: str) -> GameSpec:
    """The registered game called ``name`` (only its own module imported); ValueError listing the games otherwise."""
    by_name(dict.fromkeys(names()), name, "game")
    spec = getattr(importlib.import_module(f"lookup.{name}.game"), "SPEC", None)
    if not isinstance(spec, GameSpec) or spec.name != name:
        raise ValueError(f"lookup/{name}/game.py: SPEC must be a GameSpec named {name!r}")
    return spec


def game_map(name: str) -> MapSpec:
    """The coordinates game ``name``'s strategy is drawn over (``lookup.maps``); ValueError when it declares none."""
    found = get_spec(name).map
    if found is None:
        raise ValueError(f"{name} has no map (its GameSpec declares none)")
    return found


def open_setup(name: str, setup: Mapping[str, JSON] | None = None,
               artifacts_dir: str | Path | None = None) -> Advisor:
    """The advisor (with its ``game``) of game ``name`` under ``setup`` (defaults for what it leaves out), over the
    tables of ``artifacts_dir`` (default: ``$DICETABLES_ARTIFACTS`` or the project's artifacts/). ValueError for
    a bad setup or tables that are not built."""
    spec = get_spec(name)
    return spec.open(spec.setup(setup), None if artifacts_dir is None else Path(artifacts_dir))
