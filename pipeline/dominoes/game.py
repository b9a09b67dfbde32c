"""Dominoes as the rest of the project sees it: families, stages, commands, report."""

from pipeline.declaration import GameDeclaration, Report, Stage, WarmUp

GAME = GameDeclaration(
    name="dominoes",
    families="pipeline.dominoes.stage:families",
    stages={"dominoes-*": Stage(params=("dominoes.rule_sets", "dominoes.experiment"), seconds=25,
                                note="Dominoes (docs/dominoes.md): every player against every opponent model, both "
                                     "seats, seeded games.")},
    cli="pipeline.dominoes.cli:cli",
    reports=(Report(
        module="pipeline.dominoes.report",
        help="Write the report: the experiment with 95 % intervals beside the seed's tables 3 and 4.",
        artifacts=("dominoes-matchups.zarr",), params=("dominoes.report",), seconds=3,
        note="The experiment with 95 % intervals beside the seed's tables 3 and 4."),),
    warm=WarmUp(params=(
        "dominoes:\n  rule_sets: [standard]\n  experiment:\n    players: [predictive, realistic, bayesian]\n"
        "    models: [random, first, last, strong, greedy]\n    games: 1\n    full: false\n    full_games: 1\n"
        "    seed: 1\n    depth: 2\n    samples: 2\n    max_exact: 20\n    rollouts: 0\n    endgame: 2\n"
        "    budget: 0\n  report: {}\n"), seconds=60),
    small=("dominoes:\n  rule_sets: [standard]\n  experiment:\n    players: [predictive, realistic]\n"
           "    models: [random, strong]\n    games: 12\n    seed: 5\n    depth: 2\n    samples: 3\n"
           "    max_exact: 50\n    endgame: 0\n    budget: 300\n  report: {}\n"),
)
