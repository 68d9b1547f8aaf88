"""solve: the method on exact curves, the interval's coverage on a synthetic monotone family
with a known root (the fake family's seat-0 edge), bad input, and the command end to end."""

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner
from scipy.optimize import brentq

import fake_family
from fake_family import true_share
from simcore.cli import main
from simcore.errors import InputError
from simcore.family import registry as families
from simcore.studies import solve as ss
from simcore.studies.solve_design import Curve, RuleParam, rule_param, spread

FAM = fake_family.FAMILY


@pytest.fixture
def fake(fake2):
    return fake2   # two weak seats (tests/harness/conftest.py)


# ---------------------------------------------------------------------------------------------
# The method on known curves
# ---------------------------------------------------------------------------------------------

def test_root_set_of_an_exact_line_is_fieller_s_interval():
    xs = np.array([0.0, 1.0, 2.0])
    m = np.array([0.4, 0.5, 0.6])
    cov = np.eye(3) * 1e-4           # independent, se 0.01 each
    c = Curve(xs, m, cov)
    (lo, hi), = c.root_set(0.5)
    # at each end the test is exactly at its edge: |m(x) - t| = z sd(m(x)), with
    # m(x) = (1 - w) m_0 + w m_1 on the first segment (w = x) and the second (w = x - 1)
    for x in (lo, hi):
        i = 0 if x < 1 else 1
        w = x - i
        mx = (1 - w) * m[i] + w * m[i + 1]
        sd = math.sqrt(((1 - w) ** 2 + w ** 2) * 1e-4)
        assert abs(mx - 0.5) == pytest.approx(1.959964 * sd, rel=1e-6)
    assert lo == pytest.approx(2 - hi)      # symmetric
    assert c.estimate(0.5) == pytest.approx(1.0)


def test_no_value_reaches_a_target_outside_the_curve():
    c = Curve(np.array([0.0, 1.0]), np.array([0.2, 0.3]), np.eye(2) * 1e-6)
    assert c.root_set(0.5) == [] and c.estimate(0.5) is None


def test_a_flat_curve_gives_a_set_over_everything():
    c = Curve(np.array([0.0, 1.0, 2.0]), np.array([0.5, 0.5, 0.5]), np.eye(3) * 1e-4)
    assert c.root_set(0.5) == [[0.0, 2.0]]


def test_spread_keeps_integers_whole():
    assert spread(-2, 2, 7, True) == [-2, -1, 0, 1, 2]
    assert spread(0, 20, 5, True) == [0, 5, 10, 15, 20]
    assert spread(0.0, 1.0, 3, False) == [0.0, 0.5, 1.0]


# ---------------------------------------------------------------------------------------------
# Coverage on a synthetic family with a known root
# ---------------------------------------------------------------------------------------------

def _solve_once(sc, seed, games, pilot_games, target):
    return ss.solve(FAM, sc, "edge", "seat0_win_share", str(target), "-2,2", games=games,
                    seed=seed, pilot_games=pilot_games)


@pytest.mark.second_tier
def test_the_solution_interval_covers_the_known_root(fake):
    """60 solves of the edge that gives seat 0 a 65% share (400 games per design value): the
    95% interval holds the exact root in at least 90% of them (binomial sd at 95%: 2.8%)."""
    target = 0.65
    root = brentq(lambda h: true_share(h) - target, -2, 2)
    _, sc = families.load(fake)
    hits, widths = 0, []
    for rep in range(60):
        s = _solve_once(sc, 1000 + rep, 400, 200, target)
        assert s["ci"] is not None
        hits += s["ci"][0] <= root <= s["ci"][1]
        widths.append(s["ci"][1] - s["ci"][0])
    assert hits >= 54, (hits, root)
    assert 0 < np.median(widths) < 1.0


def test_a_target_out_of_reach_says_no_value_does(fake):
    _, sc = families.load(fake)
    s = _solve_once(sc, 7, 400, 200, 0.999)
    assert s["ci"] is None and s["verdict"].startswith("no value of edge in [-2.0, 2.0]")


# ---------------------------------------------------------------------------------------------
# Bad input: one line, exit 2, nothing written
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["--param", "nosuch.key"], "--param nosuch.key: no such key"),
    (["--param", "compensation"], "--param compensation: not a numeric rule"),
    (["--param", "deck.fruits"], "--param deck.fruits: not a numeric rule"),
    (["--param", "game.tie_break", "--range", "1,2"],
     "--range: game.tie_break is a choice rule: solve plays every value it allows "
     "(first_dealer, second_dealer, draw)"),
    (["--param", "game.tie_break", "--target", "150%"], "is a rate"),
    (["--param", "compensation.komi", "--range", "3"], "--range 3: expected LO,HI"),
    (["--param", "compensation.komi", "--range", "4,1"], "--range 4,1: LO must be below HI"),
    (["--param", "compensation.komi", "--range", "0.5,3"], "takes whole numbers"),
    (["--param", "starting_points", "--range", "-5,10"], "outside starting_points's minimum"),
    (["--param", "compensation.komi", "--target", "150%"], "is a rate"),
    (["--param", "compensation.komi", "--metric", "nope"], "--metric: unknown metric"),
    (["--param", "compensation.komi", "--max-games", "5"], "--max-games only applies"),
    ([], "Missing option '--param'"),
    (["--param", "run.games"], "--param run.games: not a rule"),
    (["--param", "players"], "--param players: not a rule"),
])
def test_bad_solve_input_is_one_line_exit_2(tmp_path, args, message):
    out = tmp_path / "out"
    r = CliRunner().invoke(main, ["solve", "new_edition", "--out", str(out), *args])
    assert r.exit_code == 2, r.output
    assert message in r.output and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1
    assert not out.exists()


def test_a_range_end_the_rules_refuse_names_the_range(tmp_path):
    f = tmp_path / "ks.yaml"
    f.write_text("extends: new_edition\nname: komi_start\ncompensation: {komi_at: start}\n")
    r = CliRunner().invoke(main, ["solve", str(f), "--param", "compensation.komi",
                                  "--range=-50,50", "--no-save"])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1
    assert "--range -50,50: at compensation.komi=-50, the second dealer would start with -10 " \
           "points (at least 1) (narrow the range)" in r.output


def test_rule_param_default_range_stays_in_bounds():
    fam, sc = families.load("new_edition")
    p = rule_param(fam, sc, "scoring.double_threshold")
    assert (p.integer, p.lo, p.hi, p.base) == (True, 1, 17, 7)
    assert isinstance(RuleParam("k", True, 0, 1, 0).value(2.0), int)


# ---------------------------------------------------------------------------------------------
# The command: a result directory, the report, show, resume
# ---------------------------------------------------------------------------------------------

def test_solve_command_end_to_end_and_resume(fake, tmp_path):
    out = tmp_path / "solve"
    args = ["solve", str(fake), "--param", "edge", "--metric", "seat0_win_share", "--target",
            "60%", "--range=-1,1", "--games", "4000", "--pilot-games", "300", "--workers", "1",
            "--quiet"]
    r = CliRunner().invoke(main, [*args, "--out", str(out), "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    root = brentq(lambda h: true_share(h) - 0.6, -2, 2)
    assert data["ci"][0] <= root <= data["ci"][1]
    assert data["games"] == 4000 and (out / "report.html").exists()
    assert (out / "figures" / "solve.png").exists()
    shown = CliRunner().invoke(main, ["show", str(out)])
    assert shown.exit_code == 0 and "95% interval" in shown.output
    # the same solve, stopped after its first chunk and resumed, gives the same answer
    from simcore.studies.results import ResultDir
    part = tmp_path / "part"
    r2 = CliRunner().invoke(main, [*args, "--out", str(part), "--json", "--no-report"])
    assert r2.exit_code == 0
    import shutil
    for f in (part / "chunks").iterdir():   # keep the first chunk (games 0..1999) only
        if int(f.stem) != 0:
            f.unlink()
    for f in (part / "games").iterdir():
        if int(f.stem.split("-")[1]) != 0:
            f.unlink()
    prov = json.loads((part / "provenance.json").read_text())
    prov["status"] = "incomplete"
    (part / "provenance.json").write_text(json.dumps(prov))
    (part / "summary.json").unlink()
    r3 = CliRunner().invoke(main, ["solve", "--resume", str(part), "--json", "--no-report",
                                  "--quiet"])
    assert r3.exit_code == 0, r3.output
    again = json.loads(r3.output)
    assert again["ci"] == data["ci"] and again["design"] == data["design"]
    assert ResultDir is not None and shutil is not None


@pytest.mark.second_tier
def test_solve_on_an_integer_rule_names_compatible_whole_values(fake):
    """MOMOJAN's komi (an integer): the design is whole values and the answer lists those
    compatible with the target."""
    r = CliRunner().invoke(main, ["solve", "new_edition", "--param", "compensation.komi",
                                  "--range=-6,6", "--games", "2000", "--pilot-games", "500",
                                  "--no-save", "--json", "--quiet"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert all(isinstance(d["value"], int) for d in data["design"])
    assert set(data["compatible_values"]) <= {d["value"] for d in data["design"]}
    assert "whole values compatible" in data["verdict"] or "no whole value" in data["verdict"] \
        or "does not detectably" in data["verdict"]
    assert math.isfinite(data["games_total"])


def test_an_absurd_target_is_refused_before_play():
    """A QA trial: --target 1e300 played the whole design in numpy overflow warnings and
    printed a 300-digit target."""
    from click.testing import CliRunner
    from simcore.cli import main
    r = CliRunner().invoke(main, ["solve", "new_edition", "--param", "scoring.ron_bonus",
                                  "--metric", "mean_winning_points", "--target", "1e300",
                                  "--no-save", "--games", "200", "--pilot-games", "100"])
    assert r.exit_code == 2 and "beyond any value a metric takes" in r.stderr, r.output
    assert "Warning" not in r.output
