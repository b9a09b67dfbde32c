"""The one error class of the read side, in a module of its own so that every ``lookup`` module (``store``,
``files``) can raise it without importing another."""

from __future__ import annotations


class ArtifactError(ValueError):
    """An artifact is missing, corrupted, of an unsupported schema, or not the one the caller asked for."""


class NotBuiltError(ArtifactError):
    """A table this installation has not built (a rule set, a target, a grid point).

    The message (``str``) tells whoever builds where and how (the path, the params.yaml key, the command);
    ``public`` says the same fact without a path or a build step, for a caller who cannot build anything:
    the web app answers ``public`` (docs/web.md, "Errors").
    """

    def __init__(self, message: str, public: str) -> None:
        super().__init__(message)
        self.public = public
