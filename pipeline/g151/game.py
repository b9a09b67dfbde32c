"""151 as the rest of the project sees it: families, stages, commands, report, web routes."""

from pipeline.declaration import GameDeclaration, Report, Stage, WarmUp

GAME = GameDeclaration(
    name="g151",
    families="pipeline.g151.stage:families",
    stages={
        "g151-stated": Stage(params=("g151.targets",), seconds=5,
                             note="One stage per variant in g151.variants."),
        "g151-*": Stage(params=("g151.targets",), seconds=2),
    },
    cli="pipeline.g151.cli:cli",
    reports=(Report(
        module="pipeline.g151.report",
        help="Write the report: the notebook's comparisons computed exactly, and the optimal policies.",
        params=("g151",), seconds=8,
        note="The notebook's comparisons computed exactly, the optimal policies and their plots (not an artifact)."),),
    warm=WarmUp(params="g151:\n  variants: [stated, straights, notebook]\n  targets: [300]\n  report:\n"
                       "    simulation_games: 1000\n    seed: 1\n", seconds=20),
    small="g151:\n  variants: [stated, notebook]\n  targets: [300, 1000]\n",
)
