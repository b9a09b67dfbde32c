"""The leaf estimate's fit: the regression recovers known weights, the positions come from replayed games."""

import numpy as np

from lookup.dominoes import engine as E
from pipeline.dominoes.leaf_fit import fit, positions


def test_fit_recovers_the_weights_of_logistic_data():
    rng = np.random.default_rng(7)
    x = rng.normal(size=(40_000, 3))
    truth = np.array([1.5, -0.5, 0.25])
    y = (rng.random(len(x)) < 1 / (1 + np.exp(-x @ truth))).astype(float)
    weights, ll = fit(x, y)
    assert np.abs(weights - truth).max() < 0.06  # about 4 standard errors at this sample size
    assert ll > fit(x[:, :1], y)[1]  # the other features add information


def test_positions_are_the_replayed_games_positions():
    x, y = positions(2, 901)
    assert x.shape == (len(y), len(E.LEAF_WEIGHTS)) and len(y) > 40
    assert set(np.unique(y)) <= {0.0, 0.5, 1.0}
    assert (np.abs(x[:, 0]) <= 1).all() and set(np.unique(x[:, 3])) <= {-1.0, 1.0}
