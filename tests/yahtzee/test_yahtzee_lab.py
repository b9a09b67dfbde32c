"""The strategy lab: engines, dice streams and modes, players' legality, statistics, tuning, Dask, CLI."""

import json

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lookup.yahtzee.rules import CATEGORIES, N_CATEGORIES, YAHTZEE, get_rules
from lookup.yahtzee.sheet import Sheet, possible_points
from lookup.yahtzee.tables import load_tables
from pipeline.cli import main
from pipeline.yahtzee.streams import destiny_list
from pipeline.yahtzee_lab import stats
from pipeline.yahtzee_lab.match import play, play_batch, simulate
from pipeline.yahtzee_lab.perturbation import N_FEATURES
from pipeline.yahtzee_lab.players import CompiledPlayer, game_rules, get_player
from pipeline.yahtzee_lab.pyengine import play_python
from pipeline.yahtzee_lab.tuning import load_weights, points_rate, random_walk

HASBRO = game_rules("hasbro")
ALPHA = (0.3, 0.3, 0.3, 0.3, 0.5, 10.0, 1.0, 3.0, 1.0, 1.0, 3.0, 3.0)  # weights that change many decisions
PERTURBATION = get_player("perturbation", alpha=ALPHA)
COMPILED = ["optimal", "esperance", "random", "decision_une", PERTURBATION]


def _name(p):
    return p if isinstance(p, str) else p.name


def test_optimal_mean_agrees_with_the_exact_mean(lab):
    exact = load_tables(get_rules("hasbro"), lab).stats
    games = simulate("optimal", 100_000, seed=11, artifacts_dir=lab)
    scores = games.scores[:, 0]
    assert abs(scores.mean() - exact["mean"]) < 4 * scores.std() / np.sqrt(len(scores))
    p = exact["p_upper_bonus"]
    assert abs(games.upper_bonus[:, 0].mean() - p) < 5 * np.sqrt(p * (1 - p) / len(scores))


def test_esperance_is_the_seed_table_with_the_bonus_paid(lab):
    exact = load_tables(get_rules("seed"), lab).stats
    scores = simulate("esperance", 40_000, seed=12, artifacts_dir=lab).scores[:, 0]
    assert abs(scores.mean() - exact["mean"]) < 4 * scores.std() / np.sqrt(len(scores))


@pytest.mark.parametrize("player", COMPILED, ids=_name)
def test_coupled_self_play_ties_every_game(lab, player):
    scores = play(player, player, 2000, seed=5, mode="coupled", artifacts_dir=lab).scores
    assert (scores[:, 0] == scores[:, 1]).all()


def test_zero_weights_play_exactly_like_esperance(lab):
    zero = get_player("perturbation", alpha=[0.0] * N_FEATURES)
    scores = play(zero, "esperance", 3000, seed=8, mode="coupled", artifacts_dir=lab).scores
    assert (scores[:, 0] == scores[:, 1]).all()


@pytest.mark.parametrize("player", ["optimal", "random", "decision_une"])
def test_antithetic_sets_replay_the_game_with_swapped_dice(lab, player):
    # The same player (blind to the opponent) on both sides: the second game of a set mirrors the first.
    scores = play(player, player, 4000, seed=9, mode="antithetic", artifacts_dir=lab).scores.reshape(-1, 2, 2)
    assert (scores[:, 0, 0] == scores[:, 1, 1]).all() and (scores[:, 0, 1] == scores[:, 1, 0]).all()
    assert (scores[:, 0, 0] != scores[:, 0, 1]).any()


def test_antithetic_and_coupled_players_see_the_announced_dice(lab):
    seen = []

    def recorder(name):
        def player(own, opp, dice, rerolls_left):
            if rerolls_left == 2:
                seen.append((name, sum(b is not None for b in own.boxes), tuple(dice)))
            return 0 if rerolls_left else next(iter(own.allowed(dice)))
        return player

    def first_rolls(mode):
        seen.clear()
        a, b = get_player(recorder("a")), get_player(recorder("b"))
        play_python(a, b, 2, seed=4, mode=mode, rules=HASBRO, artifacts_dir=lab)
        games = [seen[i:i + 26] for i in (0, 26)]
        return [{who: [d for w, _, d in game if w == who] for who in "ab"} for game in games]

    anti = first_rolls("antithetic")
    assert anti[0]["a"] == anti[1]["b"] and anti[0]["b"] == anti[1]["a"] and anti[0]["a"] != anti[0]["b"]
    coupled = first_rolls("coupled")
    assert coupled[0]["a"] == coupled[0]["b"] and coupled[0]["a"] != coupled[1]["a"]
    independent = first_rolls("independent")
    assert independent[0]["a"] != independent[0]["b"]
    # The first roll of turn t of stream s is the start of that turn's destiny list, sorted.
    assert coupled[1]["a"][3] == tuple(sorted(destiny_list(4, 1, 0, 3)[:5]))


@pytest.mark.parametrize("a, b, mode", [("optimal", "decision_une", "independent"),
                                        (PERTURBATION, "random", "antithetic"),
                                        ("esperance", PERTURBATION, "coupled"),
                                        # two table players: the lane-interleaved engine (40 games = one full
                                        # batch of LANES and a partial one)
                                        ("optimal", "esperance", "independent"),
                                        ("esperance", "optimal", "antithetic"),
                                        ("optimal", None, "solo")], ids=str)
def test_compiled_and_python_engines_play_the_same_games(lab, a, b, mode):
    a, b = get_player(a), get_player(b) if b is not None else None
    fast = play_batch(a, b, 40, seed=3, mode=mode, rules=HASBRO, first=10, artifacts_dir=lab)
    slow = play_python(a, b, 40, seed=3, mode=mode, rules=HASBRO, first=10, artifacts_dir=lab)
    assert np.array_equal(fast[0], slow[0]) and np.array_equal(fast[1], slow[1])


def test_same_results_on_one_and_two_threads_and_any_batching(lab):
    one = play("optimal", PERTURBATION, 3000, seed=21, mode="antithetic", threads=1, artifacts_dir=lab)
    two = play("optimal", PERTURBATION, 3000, seed=21, mode="antithetic", threads=2, batch=700, artifacts_dir=lab)
    assert np.array_equal(one.scores, two.scores) and np.array_equal(one.upper_bonus, two.upper_bonus)
    tail = play("optimal", PERTURBATION, 1000, seed=21, mode="antithetic", first=2000, artifacts_dir=lab)
    assert np.array_equal(tail.scores, one.scores[2000:])


def test_a_python_callable_plays_on_the_slow_path(lab):
    def greedy(own, opponent, dice, rerolls_left):
        if rerolls_left:
            return [False] * 5
        options = own.allowed(dice)
        return max(options, key=options.get)

    games = play(greedy, "optimal", 20, seed=2, mode="coupled", artifacts_dir=lab)
    assert games.players == ("greedy", "optimal") and (games.scores[:, 0] > 0).all()
    with pytest.raises(ValueError, match="illegal"):
        play(lambda own, opp, dice, left: 99, "optimal", 2, artifacts_dir=lab)


# --- every player returns legal actions, Joker cases included ---------------------------------------

_POINTS = [sorted(p) for p in possible_points(HASBRO)]


def _boxes(draw):
    boxes = [None] * N_CATEGORIES
    for c in draw(st.sets(st.integers(0, N_CATEGORIES - 1), max_size=N_CATEGORIES - 1)):
        boxes[c] = draw(st.sampled_from(_POINTS[c]))
    return boxes


@st.composite
def situations(draw):
    boxes = _boxes(draw)
    if draw(st.booleans()):  # Joker situations: Yahtzee box filled and five alike
        boxes[YAHTZEE] = draw(st.sampled_from([0, 50]))
        if all(b is not None for b in boxes):
            boxes[draw(st.sampled_from([c for c in range(N_CATEGORIES) if c != YAHTZEE]))] = None
        dice = [draw(st.integers(1, 6))] * 5
    else:
        dice = draw(st.lists(st.integers(1, 6), min_size=5, max_size=5))
    return boxes, dice, draw(st.integers(0, 2)), _boxes(draw)


@pytest.fixture(scope="module")
def wrapped(lab):
    return {_name(p): CompiledPlayer(get_player(p), "hasbro", lab) for p in COMPILED}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(situations())
def test_every_player_returns_legal_actions(wrapped, situation):
    boxes, dice, rerolls, opponent_boxes = situation
    own = Sheet.parse(boxes, HASBRO)
    opponent = Sheet.parse(opponent_boxes, HASBRO)  # random totals: the gap functions act both ways
    allowed = own.allowed(dice)
    for name, player in wrapped.items():
        action = player(own, opponent, dice, rerolls)
        if rerolls:
            assert 0 <= action < 32, name
        else:
            assert CATEGORIES[action] in allowed, (name, boxes, dice, action, allowed)


# --- statistics -------------------------------------------------------------------------------------

def test_set_wins_follow_the_seed_definition():
    # set 0: A wins both (total); set 1: one each, A higher on the set (partial for A); set 2: one each,
    # equal set means (nobody); set 3: B wins one, draws the other (partial for B).
    scores = np.array([[200, 150], [210, 100], [300, 100], [150, 200], [200, 100], [100, 200],
                       [180, 190], [150, 150]])
    sets = stats.set_wins(scores)
    assert sets["a"] == {"total": 1, "partial": 1, "points": 1.5, "points_rate": 0.375}
    assert sets["b"]["total"] == 0 and sets["b"]["partial"] == 1


def test_pair_statistics_and_intervals():
    rng = np.random.default_rng(0)
    a = rng.normal(240, 55, 20000).round()
    b = a - 5 + rng.normal(0, 20, 20000).round()
    p = stats.pair(np.stack([a, b], axis=1).astype(np.int32), "coupled")
    assert p["win"]["rate"] + p["draw"]["rate"] + p["loss"]["rate"] == pytest.approx(1)
    assert p["difference_ci"][0] < 5 < p["difference_ci"][1]
    assert p["variance_reduction"] > 5  # the paired difference is much tighter than independent games
    s = stats.summary(a)
    assert s["mean_ci"][0] < 240 < s["mean_ci"][1] and s["std_ci"][0] < 55 < s["std_ci"][1]
    assert stats.wilson(0, 10)[0] == 0 and stats.wilson(10, 10)[1] == pytest.approx(1)


def test_random_walk_keeps_improvements_only():
    target = np.arange(N_FEATURES) * 0.1
    walk = random_walk(lambda x: -float(((x - target) ** 2).sum()),
                       {"seed": 1, "initial": [0.0] * N_FEATURES, "iterations": 60, "step": 1.0, "widen": 1.5,
                        "narrow": 0.8, "min_step": 0.05, "max_step": 4.0, "target": 0.0})
    kept = walk.rate[walk.accepted == 1]
    assert (np.diff(kept) > 0).all() and walk.best_rate == kept[-1] > walk.rate[0]
    assert points_rate(np.array([[2, 1], [1, 1], [0, 1], [3, 3]])) == 0.5


def test_tuned_weights_are_the_walks_best_and_its_rates_hold_on_other_games(lab):
    """The artifact's weights are the last accepted point of the walk it records; each recorded rate is the
    points rate of its weights on the tuning games (replayed and counted here); and on held-out games (another
    seed) each agrees with it within 5 standard errors (both samples' errors, computed here): the rates the walk
    compared are estimates of the weights' rates, not artefacts of the tuning games."""
    from lookup.store import open_artifact
    from pipeline.yahtzee_lab.tuning import NAME, SCHEMA, SCHEMA_VERSIONS

    with open_artifact(lab / f"{NAME}.zarr", schema=SCHEMA, versions=SCHEMA_VERSIONS) as art:
        alphas, rates, accepted = (np.asarray(art.read(k)) for k in ("walk_alpha", "walk_rate", "walk_accepted"))
        cfg = art.meta["params"]
    kept = np.flatnonzero(accepted)
    assert kept[0] == 0 and np.array_equal(load_weights(lab), alphas[kept[-1]])
    assert all(accepted[i] == (rates[i] > rates[kept[kept < i][-1]]) for i in range(1, len(rates)))
    assert len(alphas) == cfg["iterations"] + 1 and rates[0] == 0.5  # zero weights: every coupled game a draw

    def points(alpha, games, seed):  # per game: 1 for a win of Perturbation, 1/2 for a draw, 0 for a loss
        s = play(get_player("perturbation", alpha=alpha), "esperance", games, seed=seed, mode="coupled",
                 rules=cfg["rules"], artifacts_dir=lab).scores
        return (np.sign(s[:, 0] - s[:, 1]) + 1) / 2

    for alpha, rate in zip(alphas, rates, strict=True):
        tuning, held_out = points(alpha, cfg["games"], cfg["seed"]), points(alpha, 2000, cfg["seed"] + 1000)
        assert tuning.mean() == rate
        se = np.sqrt(tuning.var(ddof=1) / len(tuning) + held_out.var(ddof=1) / len(held_out))
        assert abs(held_out.mean() - rate) <= 5 * se, (alpha, rate, held_out.mean(), se)


# --- Dask: a small LocalCluster gives exactly the local results -------------------------------------
def test_local_cluster_gives_the_local_results(lab):
    from distributed import Client, LocalCluster

    from pipeline.yahtzee_lab.distributed import dask_runner, run_local
    from pipeline.yahtzee_lab.tournament import Match, _specs, play_match, settings

    cfg = settings({"games": 1200, "batch": 300, "seed": 77})
    specs = _specs(["optimal", "perturbation", "decision_une"], lab)
    local = [play_match(Match(a, b, "antithetic", 1200), specs, cfg, lab, run_local)
             for a, b in (("optimal", "perturbation"), ("decision_une", "perturbation"))]
    # Threads in one process keep the test quick; the tasks run numba single-threaded, as on real workers.
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        run = dask_runner(client)
        remote = [play_match(Match(a, b, "antithetic", 1200), specs, cfg, lab, run)
                  for a, b in (("optimal", "perturbation"), ("decision_une", "perturbation"))]
    for (s1, b1), (s2, b2) in zip(local, remote, strict=True):
        assert np.array_equal(s1, s2) and np.array_equal(b1, b2)


# --- CLI --------------------------------------------------------------------------------------------

def test_cli_simulate_and_match(lab, tmp_path):
    runner = CliRunner()
    done = runner.invoke(main, ["--quiet", "yahtzee", "simulate", "--player", "optimal", "--games", "2000",
                                "--seed", "1", "--artifacts", str(lab), "--json"])
    assert done.exit_code == 0, done.output
    summary = json.loads(done.output)["summary"]
    # The exact mean of optimal hasbro play: the published start value (docs/yahtzee.md), at 5 standard errors.
    assert summary["n"] == 2000 and abs(summary["mean"] - 254.5877287) < 5 * summary["std"] / np.sqrt(2000)
    hist = tmp_path / "match.png"
    done = runner.invoke(main, ["--quiet", "yahtzee", "match", "esperance", "decision_une", "--games", "2000",
                                "--mode", "antithetic", "--artifacts", str(lab), "--hist", str(hist)])
    assert done.exit_code == 0, done.output
    assert "total +" in done.output and hist.stat().st_size > 1000
    done = runner.invoke(main, ["--quiet", "yahtzee", "match", "optimal", "nobody", "--artifacts", str(lab)])
    assert done.exit_code != 0 and "unknown player" in done.output
