"""Pig as the rest of the project sees it: its table family, its stage, its report. Its commands, web page,
review and conformance checks are the protocol's (``lookup.pig.game.SPEC``): nothing of its own."""

from pipeline.declaration import GameDeclaration, Report, Stage

GAME = GameDeclaration(
    name="pig",
    families="pipeline.pig.stage:families",
    stages={"pig-*": Stage(params=("pig.targets",), seconds=6,
                           note="Pig (docs/pig.md): optimal two-player tables, one per target.")},
    reports=(Report(
        module="pipeline.pig.report",
        help="Write the report: the first player's chance, the roll / hold boundary, a simulation beside it.",
        artifacts=("pig-standard.zarr",), params=("pig.report",), seconds=10,
        note="The first player's chance, the roll / hold boundary, a seeded simulation beside the exact value."),),
    small="pig:\n  targets: [20]\n  report:\n    simulation_games: 200\n    seed: 1\n",
)
