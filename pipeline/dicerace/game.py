"""The dice race as the rest of the project sees it: families, stages, commands, report, web routes."""

from pipeline.declaration import GameDeclaration, Report, Stage, WarmUp

GAME = GameDeclaration(
    name="dicerace",
    families="pipeline.dicerace.stage:families",
    stages={
        "dicerace-probabilities": Stage(params=("dicerace.max_dice",), seconds=1),
        "dicerace-strategies": Stage(params=("dicerace.grid",), seconds=20,
                                     note="The strategy tables of every game in dicerace.grid (four artifacts, "
                                          "each holding all the games)."),
    },
    cli="pipeline.dicerace.cli:cli",
    reports=(Report(
        module="pipeline.dicerace.report",
        help="Write the heatmaps, the match-up tables (JSON + PNG) and their simulation check.",
        artifacts=("dicerace-sequential.zarr", "dicerace-oneshot.zarr", "dicerace-simultaneous.zarr",
                   "dicerace-matchups.zarr"),
        params=("dicerace.report",), seconds=15,
        note="Heatmaps and the match-up tables with their simulation check (not an artifact)."),),
    warm=WarmUp(params="dicerace:\n  max_dice: 5\n  grid: [[3, 20]]\n  report:\n    simulation_games: 200\n"
                       "    seed: 1\n", seconds=40),
    small="dicerace:\n  max_dice: 10\n  grid: [[3, 20], [5, 30]]\n  report:\n    simulation_games: 2000\n    seed: 3\n",
)
