"""Yahtzee's solver as the rest of the project sees it: families, stages, commands, the play-to-win report,
web routes. The game's main report (the tournament) is declared by its strategy lab
(``pipeline/yahtzee_lab/game.py``)."""

from pipeline.declaration import GameDeclaration, Report, Stage, WarmUp

GAME = GameDeclaration(
    name="yahtzee",
    families="pipeline.yahtzee.stage:families",
    stages={
        "yahtzee-towin-*": Stage(params=tuple(f"yahtzee.towin.{key}" for key in (
            "rule_sets", "objectives", "max_points", "rows_per_task", "headsup_games", "seed")), seconds=30,
            note="Play to win: one stage per rule set in yahtzee.towin.rule_sets ('+' written '-' in the stage "
                 "name); the tasks run on Dask (yahtzee.cluster, not a dependency: where they run changes "
                 "no byte)."),
        "yahtzee-party2-*": Stage(params=("yahtzee.duel.rule_sets", "yahtzee.duel.players"), seconds=10,
                                  note="Forced order between players who play to win (docs/yahtzee.md): one stage "
                                       "per rule set and player count in yahtzee.duel."),
        "yahtzee-party3-*": Stage(params=("yahtzee.duel.rule_sets", "yahtzee.duel.players"), seconds=240,
                                  note="Forced order among three players (docs/yahtzee.md): when yahtzee.duel.players "
                                       "lists 3."),
        "yahtzee-layered-*": Stage(params=tuple(f"yahtzee.layered.{key}" for key in (
            "rule_sets", "rows_per_task", "games", "seed")), seconds=1800,
            note="Layered value tables (Maxi Yatzy, docs/yahtzee.md): one stage per rule set in "
                 "yahtzee.layered.rule_sets, none by default; the tasks run on Dask (yahtzee.cluster)."),
        "yahtzee-law-*": Stage(params=("yahtzee.law.rule_sets",), seconds=1800,
                               note="Exact law of the final score without a policy table (Maxi Yatzy, "
                                    "docs/yahtzee.md): one stage per rule set in yahtzee.law.rule_sets, none by "
                                    "default; its layers of laws on disk under $TMPDIR."),
        "yahtzee-saved-*": Stage(params=("yahtzee.saved.rule_sets",), seconds=1000,
                                 note="Saved rolls (Swedish Maxi Yatzy, capped; docs/yahtzee.md): one stage per rule "
                                      "set in yahtzee.saved.rule_sets, none by default; values only, in memory."),
        # One stage per rule set in yahtzee.rule_sets, without params: adding a rule set rebuilds no other.
        "yahtzee-hasbro": Stage(seconds=15, note="One stage per rule set in yahtzee.rule_sets."),
        "yahtzee-seed": Stage(seconds=5),
        "yahtzee-*": Stage(seconds=30),
    },
    cli="pipeline.yahtzee.cli:cli",
    reports=(Report(
        module="pipeline.yahtzee.towin_report", command="towin-report", out="yahtzee-towin",
        help="Write the play-to-win report: P(final >= t) of the goal policy against the expected-score policy, "
             "exact.",
        artifacts=("yahtzee-scandinavian+forced-goal.zarr",),
        params=("yahtzee.towin.rule_sets", "yahtzee.towin_report"), seconds=5,
        note="The play-to-win report: both policies' P(final >= t), exact."),
        Report(
            module="pipeline.yahtzee.players_report", command="players-report", out="yahtzee-players",
            help="Write what playing to win is worth against people (forced order, 2 and 3 players, exact; the "
                 "heads-up player's seeded games).",
            artifacts=("yahtzee-scandinavian+forced-party2.zarr", "yahtzee-scandinavian+forced-headsup-games.zarr"),
            params=("yahtzee.duel.rule_sets", "yahtzee.duel.players", "yahtzee.towin.rule_sets",
                    "yahtzee.towin.headsup_games", "yahtzee.towin.seed"), seconds=3,
            note="Play to win against people: the forced-order tables' exact numbers, and the heads-up games."),),
    web="webapp.routes.yahtzee",
    # The solver, score-law, play-to-win (on one Dask worker), heads-up games and tie kernels on the smallest rule set,
    # scandinavian+forced (16 sheets: the build is a second, the compiling the rest), which every rule set's stage
    # then loads. Then the strategy lab's engine, on players that read no table (its weights read the seed
    # tables, a full solve, so they are not built here): in `make test` both workers would compile it at once.
    warm=WarmUp(params=(
        "yahtzee:\n  rule_sets: [scandinavian+forced]\n  towin:\n    rule_sets: [scandinavian+forced]\n"
        "    objectives: [goal, win, law]\n    max_points: null\n    rows_per_task: 16\n    headsup_games: 20\n"
        "    seed: 1\n  cluster:\n"
        "    scheduler: null\n    workers: 1\n  towin_report:\n    targets: [100]\n  layered:\n"
        "    rule_sets: [scandinavian+forced]\n    rows_per_task: 16\n    games: 100\n    seed: 1\n"),
        then="pipeline.yahtzee_lab.warm:compile_engine", seconds=120),
    # The smallest rule set, scandinavian+forced, for every objective of play: its value tables (expected score),
    # its play-to-win tables (goal, beat, and heads-up against an expected-score player) and its 2-player table.
    small=("yahtzee:\n  rule_sets: [scandinavian+forced]\n  towin:\n    rule_sets: [scandinavian+forced]\n"
           "    objectives: [goal, win, law]\n    max_points: null\n    rows_per_task: 16\n    headsup_games: 2000\n"
           "    seed: 3\n  duel:\n    rule_sets: [scandinavian+forced]\n    players: [2]\n  cluster:\n"
           "    workers: 1\n"),
)
