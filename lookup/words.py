"""A count and its noun in what people read: "1 die", "2 dice", "1 decision", "3 decisions". One rule for lookup's
text and the command line's; the page has the same rule in ``webapp/static/js/api.js`` (``counted``)."""

from __future__ import annotations

IRREGULAR = {"die": "dice", "box": "boxes"}  # every other noun of the project's text takes an "s"


def counted(n: int, noun: str, plural: str | None = None, spec: str = "") -> str:
    """``n`` formatted with ``spec`` (``","``: thousands separated, ``"+d"``: signed), then ``noun`` for a count
    of 1 (or -1) and its plural otherwise (``plural``, default ``IRREGULAR``'s or the noun and an "s").

    >>> counted(1, "die"), counted(3, "die"), counted(0, "decision"), counted(12000, "game", spec=",")
    ('1 die', '3 dice', '0 decisions', '12,000 games')
    """
    word = noun if abs(n) == 1 else plural or IRREGULAR.get(noun, noun + "s")
    return f"{n:{spec}} {word}"


__all__ = ["IRREGULAR", "counted"]
