"""The one error class of the read side, in a module of its own so that every ``lookup`` module (``store``,
``files``) can raise it without importing another."""

from __future__ import annotations


class ArtifactError(ValueError):
    """An artifact is missing, corrupted, of an unsupported schema, or not the one the caller asked for."""
