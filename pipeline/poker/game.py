"""Texas hold'em as the rest of the project sees it: families, stages, commands, report."""

from pipeline.declaration import GameDeclaration, Report, Stage, WarmUp

GAME = GameDeclaration(
    name="poker",
    families="pipeline.poker.stage:families",
    stages={
        "poker-evaluator": Stage(seconds=3, note="Texas hold'em (docs/poker.md): the evaluator tables, computed "
                                                 "from the rules' ranking."),
        "poker-preflop": Stage(params=("poker.preflop",), seconds=70,
                               note="Preflop equities of the 169 classes: heads-up and vs 1 and 2 random hands exact, "
                                    "vs 3..9 board-stratified Monte Carlo (~1.5 min of CPU; standard error <= 1e-4 "
                                    "with poker.preflop.multiway_deals: 256, ~3 min)."),
        "poker-multiway": Stage(params=("poker.multiway.max_opponents", "poker.multiway.hands"), seconds=3000,
                                note="Exact multi-way preflop counts against 1..poker.multiway.max_opponents random "
                                     "hands (none by default); the tasks run on Dask (poker.multiway.workers, "
                                     "scheduler: not dependencies, they change no byte) and resume from "
                                     "artifacts/poker-multiway.parts."),
    },
    cli="pipeline.poker.cli:cli",
    reports=(Report(
        module="pipeline.poker.report",
        help="Write the report (13x13 equity grids, JSON, Markdown) from the preflop tables.",
        artifacts=("poker-preflop.zarr",), seconds=10,
        note="The 13x13 equity grids and the published figures beside ours (not an artifact)."),),
    # The equity kernels, which a user's first `poker equity` loads (pipeline/poker/warm.py). Not the preflop
    # table's: its smallest instance is the exact heads-up table (a minute of CPU), and one stage compiles them.
    warm=WarmUp(params="poker:\n  preflop: {}\n", families=("poker-evaluator",),
                then="pipeline.poker.warm:compile_kernels", seconds=70),
    web="webapp.routes.poker",
    small="poker:\n  preflop:\n    max_opponents: 2\n    exact_opponents: 1\n    multiway_deals: 2\n    seed: 5\n",
)
