"""The one error class of the read side, in a module of its own so that every ``lookup`` module (``store``,
``files``) can raise it without importing another."""

from __future__ import annotations


class ArtifactError(ValueError):
    """An artifact is missing, corrupted, of an unsupported schema, or not the one the caller asked for."""


class NotBuiltError(ArtifactError):
    """A table this installation has not built (a rule set, a target, a grid point).

    The message (``str``) tells whoever builds where and how (the path, the params.yaml key, the command);
    ``public`` says the same fact without a path or a build step, for a caller who cannot build anything:
    the web app answers ``public`` (docs/web.md, "Errors"). ``how``: the build step alone (the command, the
    params.yaml change, the extra, the cost; no path), which the page shows beside an objective it cannot offer.
    """

    def __init__(self, message: str, public: str, how: str = "") -> None:
        super().__init__(message)
        self.public = public
        self.how = how


BUILD_EXTRA = "pip install 'dicetables[build]'"


def not_built(missing: str, public: str, *, build: str, cost: str, params: str = "") -> NotBuiltError:
    """The error for a table that is not built, worded once for every game: ``missing`` says exactly what is
    missing (its file first), then how to build it: with ``params`` in params.yaml where the table is not asked for
    by default (a rule set, a target, a grid point: "'maxi' in yahtzee.layered.rule_sets"), the command
    ``dicetables build BUILD`` (``build``: the family or families), which needs the [build] extra, and roughly
    what the build costs (``cost``: the figures of docs/benchmarks.md on the project's 2-core machine).
    ``public``: the same fact for a caller who cannot build (the web's answer)."""
    where = f", with {params} in params.yaml" if params else ""
    how = (f"to build: `dicetables build {build}`{where}; the command needs the [build] extra ({BUILD_EXTRA}); the "
           f"build takes {cost}")
    return NotBuiltError(f"{missing}; {how}", public, how)
