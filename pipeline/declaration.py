"""What a game declares about itself, once, and finding the declarations: ``GameDeclaration``, ``Report``,
``declarations()``.

Each game package states in ``pipeline/<package>/game.py`` a ``GAME = GameDeclaration(...)``: its table
families, its ``dicetables`` command group, its report stages, its web routes. Everything that lists the
games is derived from these declarations: the registry of families (``pipeline.registry``), the command's
groups (``pipeline.cli``), the DVC stages (``dicetables dvc-yaml``, ``pipeline.dvc_yaml``). The web app
finds its routers itself (``webapp.app``: it imports ``lookup`` only); ``webapp`` here names the module, and
tests/web check that the two agree. Adding a game touches no shared file.

Code is named by ``"module:attribute"`` strings, imported when used: finding the declarations imports
only the ``game.py`` modules (no numba, no kernels), so that ``dicetables --help`` stays fast.

Imports no game by name (``importlib`` finds them), so no game depends on this module's list.
"""

from __future__ import annotations

import fnmatch
import importlib
import importlib.util
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from pipeline.code_deps import closure

# Every report command runs through this module (``report_command``): it is part of every report's code.
REPORT_RUNNER = "pipeline.cli_options"


@dataclass(frozen=True)
class Stage:
    """The DVC stage of the families whose name matches a pattern (``fnmatch``: ``yahtzee-towin-*``).

    ``params``: the params.yaml keys (in the family's section) whose change reruns it; ``seconds``: its rough
    wall time on a quiet machine (``meta: {seconds: N}``: ``dicetables repro`` starts long chains first);
    ``note``: a comment written above it. Declared here, not in the family: a family's code is hashed into
    its artifacts' fingerprints, and none of this changes a byte of them.
    """

    params: tuple[str, ...] = ()
    seconds: float = 5
    note: str = ""


@dataclass(frozen=True)
class Report:
    """A report stage: ``write_report(params[section], ARTIFACTS, OUT, **options)`` of ``module``.

    It is one command in the game's group (``dicetables GAME COMMAND``, with ``aliases``) and one DVC
    stage named ``OUT-report`` writing ``artifacts/reports/OUT`` (OUT: ``out``, default the game). Its
    deps are ``code_files()`` (the import closure of ``module`` and of the command that runs it, and the data
    files ``data``) and ``artifacts/<a>`` for each of ``artifacts`` (what it reads); ``params`` are the
    params.yaml keys that rerun it.
    """

    module: str
    help: str
    artifacts: tuple[str, ...] = ()
    params: tuple[str, ...] = ()
    seconds: float = 5
    command: str = "report"
    aliases: tuple[str, ...] = ()
    out: str | None = None
    section: str | None = None
    options: tuple[Callable[[Any], Any], ...] = ()
    note: str = ""
    data: tuple[str, ...] = ()

    def code_files(self) -> list[str]:
        """The files whose change reruns the report: the import closure (``pipeline.code_deps.closure``) of its
        module and of ``REPORT_RUNNER``, and ``data``."""
        return sorted({*closure((self.module, REPORT_RUNNER)), *self.data})


@dataclass(frozen=True)
class WarmUp:
    """How ``dicetables compile`` compiles a game's numba kernels (``pipeline.warm``): ``params``, a params.yaml
    text of the game's smallest instance (its families are built and its reports written, in a temporary
    directory); ``families``, the families built (default: all that ``params`` defines) where the smallest
    instance of one is not small (what only one stage or test compiles gains nothing here: it compiles once
    there); ``then`` (``"module:function"``), called with that artifacts directory, for kernels that no build or
    report calls (a user's question); ``seconds``, its rough time with an empty cache (the longest start first).
    """

    params: str
    families: tuple[str, ...] = ()
    then: str | None = None
    seconds: float = 30


@dataclass(frozen=True)
class GameDeclaration:
    """One game package (``pipeline/<name>``) as the rest of the project sees it.

    ``families`` (``"module:function"``): ``families(section) -> list[Family]`` over params section
    ``section`` (default: ``name``); ``stages``: family-name pattern -> its DVC ``Stage`` (the first match;
    every family must match one). ``cli`` (``"module:attribute"``): a ``click.Group`` named ``game`` holding the
    game's own commands (None: none), which becomes ``dicetables GAME``; ``reports`` add their commands to it,
    and so do the protocol's commands (``pipeline.protocol_cli``) for a game registered in ``lookup``.
    ``webapp``: the module of the web app holding the game's routes (``webapp.routes.<game>``), or None.
    ``game`` (default: ``name``) is the game the package belongs to: a strategy lab (``yahtzee_lab``) declares
    ``game="yahtzee"``, and its commands and reports stand in that game's group, after the game's own.
    ``warm``: how ``dicetables compile`` compiles the game's kernels (None: it has none; a package that extends
    a game puts its params in the game's warm-up, which writes its reports too). ``small``: a params.yaml text
    of the game's smallest instance (every family it defines is built): what the tests, the core-install test
    and the web tests build for it (``tests/shared.py``), and what the protocol's behavioural test plays.
    """

    name: str
    families: str
    stages: Mapping[str, Stage]
    cli: str | None = None
    reports: tuple[Report, ...] = ()
    web: str | None = None
    game: str | None = None
    section: str | None = None
    warm: WarmUp | None = None
    small: str = ""

    @property
    def game_name(self) -> str:
        return self.game or self.name

    @property
    def params_section(self) -> str:
        return self.section or self.name

    def families_of(self) -> Callable[[Mapping[str, Any]], list[Any]]:
        """The package's ``families(section)`` function (imports its stage module)."""
        return resolve(self.families)

    def stage_of(self, family: str) -> Stage:
        """The declared DVC stage of a family; ValueError when no pattern matches it."""
        for pattern, stage in self.stages.items():
            if fnmatch.fnmatchcase(family, pattern):
                return stage
        raise ValueError(f"family {family!r} has no stage declared in pipeline/{self.name}/game.py "
                         f"(patterns: {', '.join(self.stages)})")

    def report_section(self, report: Report) -> str:
        return report.section or self.params_section

    def report_out(self, report: Report) -> str:
        return report.out or self.game_name


def resolve(target: str) -> Any:
    """The object a ``"module:attribute"`` string names."""
    module, _, attribute = target.partition(":")
    if not attribute:
        raise ValueError(f"{target!r}: expected 'module:attribute'")
    return getattr(importlib.import_module(module), attribute)


@cache
def declarations(package: str = "pipeline") -> tuple[GameDeclaration, ...]:
    """Every ``GAME`` of ``<package>/<name>/game.py``: the games by name, then the packages that extend a
    game (a lab, whose families may read its game's tables), by name."""
    root = importlib.import_module(package)
    found = []
    for info in sorted(pkgutil.iter_modules(root.__path__), key=lambda m: m.name):
        if not info.ispkg or importlib.util.find_spec(f"{package}.{info.name}.game") is None:
            continue
        game = importlib.import_module(f"{package}.{info.name}.game").GAME
        if not isinstance(game, GameDeclaration) or game.name != info.name:
            raise ValueError(f"{package}/{info.name}/game.py: GAME must be a GameDeclaration named {info.name!r}")
        found.append(game)
    return tuple(sorted(found, key=lambda g: (g.game is not None and g.game != g.name, g.name)))
