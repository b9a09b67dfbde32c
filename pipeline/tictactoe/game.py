"""Tic-tac-toe as the rest of the project sees it: families, stages, commands, report."""

from pipeline.declaration import GameDeclaration, Report, Stage

GAME = GameDeclaration(
    name="tictactoe",
    families="pipeline.tictactoe.stage:families",
    stages={"tictactoe-*": Stage(params=("tictactoe.rule_sets", "tictactoe.models"), seconds=5,
                                 note="Tic-tac-toe (docs/tictactoe.md): every position's minimax and best-response "
                                      "values, exact.")},
    cli="pipeline.tictactoe.cli:cli",
    reports=(Report(
        module="pipeline.tictactoe.report",
        help="Write the report: exact match-ups beside the seed's tables 1 and 2.",
        artifacts=("tictactoe-tables.zarr",), params=("tictactoe.models", "tictactoe.report"), seconds=10,
        note="Exact match-ups of every player against every model, beside the seed's tables 1 and 2."),),
    web="webapp.routes.tictactoe",
    small="tictactoe:\n  rule_sets: [standard]\n  models: [random, first, last, greedy, perfect]\n  report:\n"
          "    players: [perfect, predictive]\n",
)
