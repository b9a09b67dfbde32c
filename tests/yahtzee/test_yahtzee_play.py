"""lookup.yahtzee play API: decide / explain / value / decide_batch, the Sheet, bad input, the CLI."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from lookup.store import ArtifactError
from lookup.yahtzee.play import decide, decide_batch, explain, value
from lookup.yahtzee.rules import CATEGORIES, get_rules
from lookup.yahtzee.sheet import Sheet
from lookup.yahtzee.tables import load_tables
from pipeline.cli import main

HASBRO = get_rules("hasbro")


def _random_situations(n: int, seed: int = 0):
    """Sheets reached by random legal play, with random dice and rerolls."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        sheet = Sheet.empty(HASBRO)
        for _ in range(rng.integers(0, 13)):
            dice = list(rng.integers(1, 7, 5))
            sheet.score(rng.choice(list(sheet.allowed(dice))), dice)
        out.append((list(map(int, rng.integers(1, 7, 5))), int(rng.integers(0, 3)), sheet))
    return out


def test_start_value_and_stats(hasbro_tables):
    """The start value is the published one (docs/yahtzee.md: 254.5877287, to its 7 decimals); P(upper bonus)
    and P(Yahtzee box ends at 50) equal an exact forward pass of the policy tables written in numpy
    (tests/yahtzee/occupancy.py), to float rounding."""
    from tests.yahtzee.occupancy import end_statistics

    assert value([None] * 13, artifacts_dir=hasbro_tables) == pytest.approx(254.5877287, abs=5e-8)
    tables = load_tables(HASBRO, hasbro_tables)
    stats = tables.stats
    assert stats["mean"] == pytest.approx(254.5877287, abs=5e-8)
    policy = {name: np.asarray(tables.policy[name]) for name in ("state_index", "reroll", "category")}
    exact = end_statistics(HASBRO, **policy)
    assert abs(exact["total"] - 1) < 1e-12
    assert abs(stats["p_upper_bonus"] - exact["p_upper_bonus"]) < 1e-12
    assert abs(stats["p_yahtzee_50"] - exact["p_yahtzee_50"]) < 1e-12


def test_only_chance_open(hasbro_tables):
    sheet = {name: 0 for name in CATEGORIES if name != "chance"}
    assert value(sheet, artifacts_dir=hasbro_tables) == pytest.approx(70 / 3, abs=1e-9)


def test_decision_follows_the_input_order(hasbro_tables):
    d = decide([6, 1, 6, 2, 6], 2, [None] * 13, artifacts_dir=hasbro_tables)
    kept = sorted(face for face, r in zip(d.dice, d.reroll, strict=True) if not r)
    assert kept == list(d.keep)
    assert d.category is None and d.expected_final > 254


def test_policy_and_value_paths_agree(hasbro_tables, hasbro_values_only):
    assert load_tables(HASBRO, hasbro_values_only).policy is None
    for dice, rerolls, sheet in _random_situations(300):
        a = decide(dice, rerolls, sheet, artifacts_dir=hasbro_tables)
        b = decide(dice, rerolls, sheet, artifacts_dir=hasbro_values_only)
        assert (a.reroll, a.keep, a.category) == (b.reroll, b.keep, b.category)
        assert a.expected_final == pytest.approx(b.expected_final, abs=1e-9)


def test_explain_ranks_and_matches_decide(hasbro_tables):
    for dice, rerolls, sheet in _random_situations(100, seed=1):
        d = decide(dice, rerolls, sheet, artifacts_dir=hasbro_tables)
        options = explain(dice, rerolls, sheet, artifacts_dir=hasbro_tables)
        values = [o.expected_final for o in options]
        assert values == sorted(values, reverse=True)
        assert options[0].regret == 0 and all(o.regret >= 0 for o in options)
        assert (options[0].category, options[0].keep) == (d.category, d.keep)
        assert options[0].expected_final == pytest.approx(d.expected_final, abs=1e-9)
        if rerolls == 0:
            assert {o.category for o in options} == set(sheet.allowed(dice))


def test_batch_equals_single_decisions(hasbro_tables):
    cases = _random_situations(400, seed=2)
    dice = np.array([c[0] for c in cases])
    rerolls = np.array([c[1] for c in cases])
    states = np.array([c[2].state for c in cases])
    actions = decide_batch(dice, rerolls, states[:, 0], states[:, 1], states[:, 2], artifacts_dir=hasbro_tables)
    for (d, r, sheet), action in zip(cases, actions, strict=True):
        single = decide(d, r, sheet, artifacts_dir=hasbro_tables)
        if r == 0:
            assert CATEGORIES[action] == single.category
        else:
            assert tuple(bool((action >> i) & 1) for i in range(5)) == single.reroll


@pytest.mark.parametrize("kwargs, message", [
    (dict(dice=[1, 2, 3, 4]), "expected 5 dice"),
    (dict(dice=[1, 2, 3, 4, 7]), "die face 7"),
    (dict(dice=[0, 2, 3, 4, 5]), "die face 0"),
    (dict(dice="12345x"), "dice"),
    (dict(rerolls=3), "rerolls"),
    (dict(rerolls=-1), "rerolls"),
    (dict(rerolls=True), "rerolls"),
    (dict(sheet={"bogus": 3}), "unknown category 'bogus'"),
    (dict(sheet={"ones": 7}), "ones cannot hold 7"),
    (dict(sheet={"full_house": 20}), "full_house cannot hold 20"),
    (dict(sheet=[None] * 12), "13 entries"),
    (dict(sheet={**{n: 0 for n in CATEGORIES}, "chance": 20}), "finished"),
    (dict(sheet={"yahtzee_bonus": 100}), "Yahtzee box"),
    (dict(rules="nope"), "unknown Yahtzee rule set 'nope'"),
    (dict(rules="verhoeff"), "not built"),
])
def test_bad_input_raises_value_error(hasbro_tables, kwargs, message):
    args = dict(dice=[1, 3, 3, 5, 6], rerolls=2, sheet=[None] * 13, rules="hasbro")
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        decide(args["dice"], args["rerolls"], args["sheet"], args["rules"], artifacts_dir=hasbro_tables)


def test_batch_bad_input_names_the_row(hasbro_tables):
    dice = np.array([[1, 2, 3, 4, 5], [1, 2, 3, 4, 5]])
    ok = dict(rerolls=np.array([2, 2]), filled_mask=np.array([0, 2]), upper=np.array([0, 0]),
              ybox=np.array([0, 0]))
    decide_batch(dice, **ok, artifacts_dir=hasbro_tables)
    with pytest.raises(ValueError, match="row 1: state unreachable"):
        decide_batch(dice, **{**ok, "upper": np.array([0, 1])}, artifacts_dir=hasbro_tables)  # twos cannot make 1
    with pytest.raises(ValueError, match="row 0: die face"):
        decide_batch(np.array([[0, 2, 3, 4, 5], [1, 2, 3, 4, 5]]), **ok, artifacts_dir=hasbro_tables)
    with pytest.raises(ValueError, match="shape"):
        decide_batch(dice[:, :4], **ok, artifacts_dir=hasbro_tables)


def test_sheet_scores_bonuses_and_forced_joker():
    sheet = Sheet.empty("hasbro")
    assert sheet.score("yahtzee", [4, 4, 4, 4, 4]) == 50
    # A second Yahtzee of fours: the fours box is open, so the forced Joker sends it there (+100 bonus).
    assert sheet.allowed([4, 4, 4, 4, 4]) == {"fours": 20}
    with pytest.raises(ValueError, match="Joker"):
        sheet.score("chance", [4, 4, 4, 4, 4])
    assert sheet.score("fours", [4, 4, 4, 4, 4]) == 120
    assert sheet.yahtzee_bonus == 100 and sheet.total == 170
    # Fours filled now: a third Yahtzee of fours goes to a lower box at Joker value.
    assert sheet.allowed([4, 4, 4, 4, 4])["large_straight"] == 40
    for face, box in zip(range(1, 7), CATEGORIES[:6], strict=False):
        if box != "fours":
            sheet.score(box, [face] * 3 + [1 if face != 1 else 2] * 2)
    assert sheet.upper_total >= 63 and sheet.upper_bonus == 35
    with pytest.raises(ValueError, match="is filled"):
        sheet.score("ones", [1, 1, 1, 2, 2])


def test_corrupted_policy_is_refused(hasbro_tables, tmp_path):
    import shutil

    root = tmp_path / "artifacts"
    shutil.copytree(hasbro_tables, root)
    shard = max((root / "yahtzee-hasbro-policy.zarr" / "reroll" / "c").rglob("*"), key=lambda p: p.stat().st_size)
    raw = bytearray(shard.read_bytes())
    raw[len(raw) // 2] ^= 0x10
    shard.write_bytes(bytes(raw))
    # Chunks are checked when read: the batch form reads the whole table (one decision reads one chunk,
    # tests/yahtzee/test_yahtzee_trust.py).
    tables = load_tables(HASBRO, root)
    with pytest.raises(ArtifactError, match="reroll"):
        np.asarray(tables.policy["reroll"])
    with pytest.raises(ArtifactError, match="reroll"):
        decide_batch(np.array([[1, 2, 3, 4, 5]]), np.array([2]), np.array([0]), np.array([0]), np.array([0]),
                     artifacts_dir=root)


def test_cli_decide_and_value(hasbro_tables, tmp_path):
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps({"ones": 3, "chance": 22}))
    runner = CliRunner()
    out = runner.invoke(main, ["yahtzee", "decide", "1", "3", "3", "5", "6", "--rerolls", "2", "--sheet",
                               str(sheet), "--artifacts", str(hasbro_tables)])
    assert out.exit_code == 0, out.output
    assert "expected final score" in out.output and "regret" in out.output
    out = runner.invoke(main, ["yahtzee", "value", "--artifacts", str(hasbro_tables)])
    assert out.exit_code == 0 and float(out.output) == pytest.approx(254.5877287, abs=5e-8)  # published (docs)
    out = runner.invoke(main, ["yahtzee", "decide", "1", "3", "3", "5", "9", "--artifacts", str(hasbro_tables)])
    assert out.exit_code == 1 and "die face 9" in out.output


@pytest.mark.slow
def test_simulated_games_agree_with_the_exact_mean(hasbro_tables):
    from pipeline.yahtzee_lab.simulate import simulate

    tables = load_tables(HASBRO, hasbro_tables)
    scores = simulate(HASBRO, tables.policy["state_index"], tables.policy["reroll"], tables.policy["category"],
                      100_000, seed=7)
    n, mean, std = len(scores), scores.mean(), scores.std()
    assert abs(mean - tables.stats["mean"]) < 4 * std / np.sqrt(n)
    # The sample sd's standard error (delta method: sqrt((m4 - sd^4) / n) / (2 sd)); was a flat 1 point.
    se_std = np.sqrt((((scores - mean) ** 4).mean() - std ** 4) / n) / (2 * std)
    assert abs(std - tables.stats["std"]) < 5 * se_std
