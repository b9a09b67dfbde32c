"""The Yahtzee strategy lab as the rest of the project sees it: part of the game ``yahtzee`` (its commands
stand in ``dicetables yahtzee``), Perturbation's weights, and the game's report (the tournament)."""

import click

from pipeline.declaration import GameDeclaration, Report, Stage

GAME = GameDeclaration(
    name="yahtzee_lab",
    game="yahtzee",
    families="pipeline.yahtzee_lab.stage:families",
    stages={"yahtzee-perturbation-weights": Stage(
        params=("yahtzee_lab.perturbation",), seconds=30,
        note="Perturbation's weights tuned by the seed's random walk against esperance (reads the seed tables).")},
    cli="pipeline.yahtzee_lab.cli:cli",
    reports=(Report(
        module="pipeline.yahtzee_lab.report", aliases=("tournament",),  # its name before every game had `report`
        help="The tournament: every pair of players (params: yahtzee_lab.tournament); writes JSON, Markdown and PNG.",
        options=(
            click.option("--scheduler", default=None, help="Address of a Dask scheduler to run the game batches on."),
            click.option("--local-cluster", "local_cluster", type=int, default=None,
                         help="Start a local Dask cluster of N worker processes for the game batches."),
            click.option("--games", type=int, default=None, help="Override the games per match.")),
        artifacts=("yahtzee-hasbro-values.zarr", "yahtzee-hasbro-policy.zarr", "yahtzee-hasbro-distribution.zarr",
                   "yahtzee-seed-values.zarr", "yahtzee-seed-policy.zarr", "yahtzee-seed-distribution.zarr",
                   "yahtzee-scandinavian-distribution.zarr", "yahtzee-perturbation-weights.zarr"),
        params=("yahtzee_lab.tournament", "yahtzee_lab.distributions"), seconds=35,
        note="The strategy tournament: every pair of players, statistics, histograms (not an artifact)."),),
)
