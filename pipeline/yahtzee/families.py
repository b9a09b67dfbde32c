"""Every Yahtzee table family, in build order: the value/policy families and play to win (``stage``), then
the forced-order duel (``duel_build``). Kept apart from ``stage`` so that adding a family changes no
fingerprint of the existing tables (``stage.py`` is part of their code)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.family import Family
from pipeline.yahtzee import duel_build, stage


def families(section: Mapping[str, Any]) -> list[Family]:
    return stage.families(section) + duel_build.families(section)
