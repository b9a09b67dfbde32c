"""How the leaf estimate's weights (``engine.LEAF_WEIGHTS``) were fitted: a logistic regression of the
final result on ``engine.leaf_features``, over the positions of seeded games that are not the experiment's.

Games: the realistic player (the experiment's settings, five models) against each model from both seats,
``games`` each, dealt from seeds ``base * 1_000_003 + g + 100_000 * (2 * model + seat)`` (the experiment
uses base 3 and ``g`` < 10,000; the fit used bases 555 and 556). Positions: every position of those games
after a placement or a pass that is not the end, for player 0, with the label 1 / 0.5 / 0 for player 0's
win / draw / loss; positions where the player to move holds one fitting tile are left out (the leaf
scores them exactly). The model has no intercept: the features are differences between the players, so
swapping the players flips the estimate. Fitted by Newton's method (iteratively reweighted least
squares).

``python -m pipeline.dominoes.leaf_fit GAMES BASE`` prints the weights and the mean log-likelihood.
"""

from __future__ import annotations

import sys

import numpy as np

from lookup.dominoes import engine as E

MODELS = ("random", "first", "last", "strong", "greedy")


def positions(games: int, base: int) -> tuple[np.ndarray, np.ndarray]:
    """(features, labels) of the positions of the seeded games described above."""
    from pipeline.dominoes.experiment import player_setup
    from pipeline.dominoes.kernels import engine as J

    xs: list[tuple[float, ...]] = []
    ys: list[float] = []
    log = np.full((400, 2), -9, np.int64)
    order = np.empty(E.N_TILES, np.int64)
    for mi, model in enumerate(MODELS):
        kind, mk, w = player_setup("realistic", model, MODELS)
        for seat in (0, 1):
            for g in range(games):
                seed = base * 1_000_003 + g + 100_000 * (2 * mi + seat)
                log[:] = -9
                r = J.play_game(seed, kind, seat, E.MODEL_CODES[model], mk, w, 3, 8, 200.0, 0, 2, 0, log)
                result0 = r if seat == 0 else -r
                feats = _replay(seed, log, order)
                xs += feats
                ys += [(result0 + 1) / 2] * len(feats)
    return np.array(xs), np.array(ys)


def _replay(seed: int, log: np.ndarray, order: np.ndarray) -> list[tuple[float, ...]]:
    """The features (for player 0) of the game's positions, replayed from its deal and move log."""
    E.deal(E.seed_rng(seed), order)
    h = [0, 0]
    for i in range(E.HAND_SIZE):
        h[0] |= 1 << int(order[i])
        h[1] |= 1 << int(order[E.HAND_SIZE + i])
    bone_n, left, right, to_move, passes = E.N_TILES - 2 * E.HAND_SIZE, -1, -1, 0, 0
    out = []
    i = 0
    while log[i, 0] != -1:
        mover, move = int(log[i, 0]), int(log[i, 1])
        i += 1
        if move == E.DRAW:
            h[mover] |= 1 << int(log[i, 1])
            bone_n -= 1
            i += 1
            continue
        h[0], h[1], left, right, to_move, passes = E.step(h[0], h[1], left, right, mover, passes, move)
        if E.result(0, h[0], h[1], passes) != 2.0:
            continue
        hand = h[to_move]
        if E.popcount(hand) == 1 and hand & (E.MATCH[left] | E.MATCH[right]):
            continue  # scored exactly by the leaf
        out.append(E.leaf_features(0, h[0], h[1], left, right, to_move, bone_n))
    return out


def fit(x: np.ndarray, y: np.ndarray, iterations: int = 50) -> tuple[np.ndarray, float]:
    """Logistic regression without intercept of labels ``y`` in [0, 1] on ``x``: (weights, mean
    log-likelihood)."""
    b = np.zeros(x.shape[1])
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-x @ b))
        hessian = x.T @ (x * (p * (1 - p))[:, None])
        step = np.linalg.solve(hessian, x.T @ (y - p))
        b += step
        if np.abs(step).max() < 1e-12:
            break
    p = 1 / (1 + np.exp(-x @ b))
    return b, float(np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


if __name__ == "__main__":
    x, y = positions(int(sys.argv[1]), int(sys.argv[2]))
    weights, ll = fit(x, y)
    print(f"{len(y)} positions; LEAF_WEIGHTS = ({', '.join(f'{v:.4f}' for v in weights)}); "
          f"mean log-likelihood {ll:.4f}")
