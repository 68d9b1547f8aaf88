"""solve over a rule that is a choice, not a number (issue 50 item 2): every allowed value on
the same deals, ranked by distance to the target with intervals; and a numeric rule whose
effect moves in steps says so and names the step."""

import json

import numpy as np
from click.testing import CliRunner

from simcore.cli import main
from simcore.studies.solve_design import Curve, RuleParam, effect_steps

KOMI = RuleParam("compensation.komi", True, -4, 4, 0)


def _curve(m, se=0.001, rho=0.9):
    """A design curve of values -4..4 with metric ``m`` and correlated neighbours (common
    random numbers)."""
    n = len(m)
    cov = np.array([[se * se * rho ** abs(i - j) for j in range(n)] for i in range(n)])
    return Curve(np.arange(-4, -4 + n, dtype=float), np.array(m, float), cov)


def test_a_metric_that_moves_in_pairs_of_values_is_said_to_move_in_steps_of_two():
    # komi counted at the end: -4/-3 alike, -2/-1 alike, ... with jumps of 2 pp between
    m = [0.56, 0.5598, 0.54, 0.5401, 0.52, 0.5199, 0.50, 0.4999, 0.48]
    st = effect_steps(KOMI, _curve(m))
    assert st["step"] == 2
    assert st["groups"][:4] == [[-4, -3], [-2, -1], [0, 1], [2, 3]]
    assert st["within"] < 0.001


def test_a_smooth_metric_or_a_noisy_flat_one_has_no_steps():
    assert effect_steps(KOMI, _curve([0.56 - 0.01 * i for i in range(9)])) is None
    rng = np.random.default_rng(3)
    assert effect_steps(KOMI, _curve(list(0.5 + 0.0005 * rng.standard_normal(9)))) is None
    # a continuous rule never: its values are not neighbours
    assert effect_steps(RuleParam("x", False, 0, 1, 0), _curve([0.5, 0.5, 0.4, 0.4])) is None


def test_solve_of_a_choice_rule_ranks_every_value_on_the_same_deals(tmp_path):
    out = tmp_path / "tie"
    r = CliRunner().invoke(main, ["solve", "new_edition", "--param", "game.tie_break",
                                  "--games", "300", "--workers", "1", "--out", str(out),
                                  "--quiet", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["rule_kind"] == "choice" and d["scenario_value"] == "first_dealer"
    rows = {x["value"]: x for x in d["choices"]}
    assert set(rows) == {"first_dealer", "second_dealer", "draw"}
    assert sorted(x["rank"] for x in d["choices"]) == [1, 2, 3]
    ranked = sorted(d["choices"], key=lambda x: x["rank"])
    assert [x["distance"] for x in ranked] == sorted(x["distance"] for x in ranked)
    assert d["best"] == ranked[0]["value"]
    for x in d["choices"]:
        assert x["distance"] == abs(x["metric"] - 0.5)
        lo, hi = x["ci"]
        assert x["target_inside"] == (lo <= 0.5 <= hi)
        assert x["distance_ci"][0] <= x["distance"] <= x["distance_ci"][1]
    # the same deals: a tied game goes to the first dealer, splits, or goes to the second
    assert rows["draw"]["vs_scenario"]["diff"] <= 0
    assert rows["second_dealer"]["metric"] <= rows["draw"]["metric"] <= \
        rows["first_dealer"]["metric"]
    assert "vs_scenario" not in rows["first_dealer"]
    # a QA trial: the paired intervals were diff +- 1.96 se even on 4 differing games (and a
    # zero-width one on none), which compare refuses to give; now compare's own
    tb = tmp_path / "tb_draw.yaml"
    tb.write_text("extends: new_edition\ngame: {tie_break: draw}\n")
    r = CliRunner().invoke(main, ["compare", "new_edition", str(tb), "--games", "300",
                                  "--workers", "1", "--no-save", "--quiet", "--json",
                                  "--metrics", "first_dealer_win_rate"])
    assert r.exit_code == 0, r.output
    row = json.loads(r.stdout)["metrics"]["first_dealer_win_rate"]
    assert rows["draw"]["vs_scenario"]["ci"] == row["ci"]
    assert rows["draw"]["vs_scenario"]["diff"] == row["diff"]
    if row["ci"][0] is None:
        assert rows["draw"]["vs_scenario"]["no_interval"].startswith(row["verdict"])
    s = json.loads((out / "summary.json").read_text())
    assert s["rule_kind"] == "choice" and s["best"] == d["best"]
    assert (out / "report.html").exists() and (out / "figures" / "solve.png").exists()
    r = CliRunner().invoke(main, ["solve", "new_edition", "--param", "game.tie_break",
                                  "--games", "300", "--workers", "1", "--no-save", "--quiet"])
    assert r.exit_code == 0, r.output
    assert "a choice rule: each of its 3 values x 300 games on the same deals" in r.output
    assert f"game.tie_break: {d['best']} " in r.output


def test_solve_of_a_boolean_rule_plays_both_values():
    r = CliRunner().invoke(main, ["solve", "new_edition", "--param", "riichi.enabled",
                                  "--games", "200", "--workers", "1", "--no-save", "--quiet",
                                  "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert sorted(x["value"] for x in d["choices"]) == [False, True]


def test_a_solve_that_reaches_no_value_says_where_the_breakdown_points():
    """Issue 50 item 2: komi in [-6, -2] leaves the first dealer above 50% everywhere; the
    breakdown points to the level games (all to the first dealer) and the tie rule."""
    r = CliRunner().invoke(main, ["solve", "new_edition", "--param", "compensation.komi",
                                  "--metric", "first_dealer_win_rate", "--range=-6,-2",
                                  "--games", "2000", "--pilot-games", "500", "--workers", "1",
                                  "--no-save", "--quiet", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["ci"] is None and not d["compatible_values"]
    p = d["points_to"]
    assert (p["breakdown"], p["part"]) == ("score_gap", "0") and p["value"] == 1.0
    assert "game.tie_break" in p["rules"] and p["gap"] > 0 and 0 < p["pull"] < p["gap"]
    assert d["verdict"].endswith(p["text"])
