"""The one error type of artifact reading, imported by every module that reads or checks artifact files."""


class ArtifactError(ValueError):
    """An artifact is missing, corrupted, of an unsupported schema, or not the one the caller asked for."""
