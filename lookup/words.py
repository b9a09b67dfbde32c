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
    return f"{n:{spec}} {noun_for(n, noun, plural)}"


def noun_for(n: int, noun: str, plural: str | None = None) -> str:
    """``noun`` for a count of 1 (or -1), else its plural (``plural``, ``IRREGULAR``'s or the noun and an "s"):
    the word alone, where the count is written otherwise ("random opponents" after a list of counts).

    >>> noun_for(1, "stage"), noun_for(2, "stage"), noun_for(0, "box")
    ('stage', 'stages', 'boxes')
    """
    return noun if abs(n) == 1 else plural or IRREGULAR.get(noun, noun + "s")


__all__ = ["IRREGULAR", "counted", "noun_for"]
