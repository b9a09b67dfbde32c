"""Farkle as the rest of the project sees it: its table families, their stages, its report. Its commands, web page,
review and conformance checks are the protocol's (``lookup.farkle.game.SPEC``): nothing of its own."""

from pipeline.declaration import GameDeclaration, Report, Stage, WarmUp

SMALL = ("farkle:\n  games: [[600, -500, 6], [500, -100, 2]]\n  cluster:\n    workers: 1\n  report:\n"
         "    simulation_games: 20\n    seed: 1\n")

GAME = GameDeclaration(
    name="farkle",
    families="pipeline.farkle.stage:families",
    stages={"farkle-points": Stage(seconds=2, note="Farkle (docs/farkle.md): expected points of a turn, 1 to 6 dice."),
            "farkle-*": Stage(params=("farkle.games",), seconds=60,
                              note="Farkle (docs/farkle.md): two-player tables, play to win, certified to 1e-12; "
                                   "the full game [10000, -2500, 6] takes ~15 min.")},
    reports=(Report(
        module="pipeline.farkle.report",
        help="Write the report: the first player's chance and its certified bounds, the expected points of a "
             "turn, a seeded simulation through the protocol.",
        artifacts=("farkle-facebook.zarr", "farkle-facebook-points.zarr"), params=("farkle.report",), seconds=20,
        note="The first player's chance with its certified bounds, the expected points of a turn, a simulation."),),
    warm=WarmUp(params=SMALL, seconds=60),
    small=SMALL,
)
