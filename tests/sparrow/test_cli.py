"""Sparrow mahjong through every command (issue 49, "Done when"): run, compare, sweep, solve,
plan, tournament, tune, replay, report, show, waits and score, on 2, 4 and 5 seats."""

import json

from click.testing import CliRunner

from simcore.cli import main
from tests.cli_run import cli_ok as _ok


def test_run_show_report_replay(tmp_path):
    d = tmp_path / "run"
    s = json.loads(_ok("run", "sparrow_5p", "--games", "60", "--workers", "1", "--out", d,
                       "--json").stdout)
    assert s["seats"] == ["greedy"] * 5 and s["metrics"]["seat4_win_share"]["reference"] == 0.2
    assert (d / "report.html").is_file() and list((d / "replays").glob("game-*.html"))
    assert "60 games" in _ok("show", d).stdout
    _ok("report", d)
    r = _ok("replay", "sparrow_2p", "--game", "2", "--round", "1")
    assert "ledger: P0" in r.stdout and "P1 hand:" in r.stdout
    assert "reconstructed [X]" in _ok("show", "sparrow").stdout


def test_compare_sweep_solve_plan_tournament_tune():
    r = _ok("compare", "sparrow", "sparrow_min4", "--games", "150", "--workers", "1",
            "--no-save")
    assert "wins.min_points: 5 -> 4" in r.stdout
    r = _ok("sweep", "sparrow", "--set", "wins.min_points=3,6", "--games", "60", "--workers",
            "1", "--no-save")
    assert "wins.min_points=6" in r.stdout
    r = _ok("solve", "sparrow", "--param", "wins.min_points", "--metric", "draw_rate",
            "--target", "0.05", "--range", "2,8", "--games", "80", "--pilot-games", "100",
            "--workers", "1", "--no-save")
    assert "wins.min_points" in r.stdout
    r = _ok("plan", "sparrow", "sparrow_min4", "--metric", "draw_rate", "--detect", "0.02",
            "--pilot-games", "200", "--workers", "1")
    assert "games per variant" in r.stdout
    r = _ok("tournament", "sparrow", "--policies", "greedy,random", "--games", "20",
            "--workers", "1", "--no-save")
    assert "greedy" in r.stdout and "random" in r.stdout
    r = _ok("tune", "sparrow", "--policy", "greedy", "--against", "random", "--budget", "2",
            "--games", "10", "--workers", "1", "--no-save")
    assert "tune of greedy" in r.stdout


def test_waits_and_score():
    r = json.loads(_ok("waits", "--game", "sparrow", "--json", "123s 45s").stdout)
    assert r["waits"] == ["3s", "6s"] and r["tenpai"]
    r = json.loads(_ok("score", "--game", "sparrow", "GGG 23s", "--win", "4s",
                       "--dora-indicator", "G", "--json").stdout)
    assert r["points"] == 1 + 2 + 10 + 3 and "all_green" in r["yaku"] and r["legal"]
    r = CliRunner().invoke(main, ["score", "--game", "sparrow", "GGG 23s", "--riichi"])
    assert r.exit_code == 2 and "sparrow has no --riichi" in r.output
    r = CliRunner().invoke(main, ["waits", "--game", "sparrow", "1x 2s"])
    assert r.exit_code == 2 and "'1x'" in r.output
    r = CliRunner().invoke(main, ["score", "--game", "sparrow", "GGG 234s dealer dealer"])
    assert r.exit_code == 2 and "dealer given twice" in r.output   # as emoji and riichi2p
