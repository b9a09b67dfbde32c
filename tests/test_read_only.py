"""Lookup never writes (issue 37): every game's public queries, answered from a copy of the tables that nothing
may write to.

The queries are those of the core-install check (tests/core_install_queries.py: every registered game, every
setup its tables answer, through the protocol), on the run's shared small tables (every declaration's
``small``). The copy is made read-only (no write permission on any file or directory under it) and an audit hook
refuses and records any open for writing, creation, removal or rename under it (``no_writes``: the tests may run
as root, whom permissions do not stop). The games are the ones the declarations name (pipeline/<game>/game.py): a
declared game that the queries do not ask fails here.
"""

from __future__ import annotations

import os
import stat

from test_chunked import no_writes

from pipeline.declaration import declarations
from tests import shared
from tests.core_install_queries import answers


def test_every_declared_game_answers_from_a_read_only_copy(tmp_path_factory):
    f = tmp_path_factory
    small = [shared.small(f, game.name) for game in declarations() if game.small]
    root = shared.private_copy(f, "read_only", *small, shared.yahtzee(f, "hasbro"))
    with no_writes(root) as writes:
        assert all(not os.stat(p).st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)
                   for p in [root, *root.rglob("*")])
        got = answers(root)
    assert writes == []
    asked = {key.partition("/")[0] for key in got}
    assert asked == {game.game_name for game in declarations()}, "a declared game answers no setup here"
