"""Progress display for long steps (rich), silenced globally by ``dicetables --quiet``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

_state = {"quiet": False}
console = Console(stderr=True)


def set_quiet(quiet: bool) -> None:
    """Silence (or restore) every progress bar and status line."""
    _state["quiet"] = quiet


def say(message: str) -> None:
    """A status line on stderr, unless quiet."""
    if not _state["quiet"]:
        console.print(message)


@contextmanager
def progress(description: str, total: int) -> Iterator[Callable[[int], None]]:
    """A progress bar of ``total`` steps; yields ``advance(n=1)``. A no-op when quiet."""
    if _state["quiet"]:
        yield lambda n=1: None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=False) as bar:
        task = bar.add_task(description, total=total)
        yield lambda n=1: bar.advance(task, n)
