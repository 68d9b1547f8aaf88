"""Emoji mahjong through the harness's commands (issue 33 item 2): four seats in run, compare,
sweep, solve, tournament, replay, waits, score, show, and the result directory's report."""

import json

from click.testing import CliRunner

from simcore.cli import main
from tests.cli_run import cli_ok as _ok


def test_run_reports_four_seats_and_fair_quarters(tmp_path):
    d = tmp_path / "run"
    r = _ok("run", "emoji", "--games", "120", "--workers", "1", "--out", d, "--json")
    s = json.loads(r.stdout)
    assert s["seats"] == ["greedy"] * 4
    assert s["metrics"]["seat3_win_share"]["reference"] == 0.25
    assert s["metrics"]["seat0_ahead_of_seat3"]["reference"] == 0.5
    assert (d / "report.html").is_file() and list((d / "replays").glob("game-*.html"))
    shown = _ok("show", d)
    assert "120 games" in shown.stdout


def test_compare_solve_sweep_tournament_on_emoji_scenarios():
    r = _ok("compare", "emoji", "emoji_confirmed_only", "--games", "100", "--workers", "1",
            "--no-save")
    assert "rules that differ" in r.stdout and "scoring.yaku.tanyao: 1.5 -> 1.0" in r.stdout
    r = _ok("sweep", "emoji", "--set", "chips.ante=10,40", "--games", "60", "--workers", "1",
            "--no-save")
    assert "chips.ante=40" in r.stdout
    r = _ok("solve", "emoji", "--param", "chips.riichi_deposit", "--metric", "riichi_rate",
            "--target", "0.9", "--range", "0,400", "--games", "100", "--pilot-games", "100",
            "--workers", "1", "--no-save")
    assert "chips.riichi_deposit" in r.stdout
    r = _ok("tournament", "emoji", "--policies", "greedy,baseline,random,idle", "--games", "4",
            "--workers", "1", "--no-save")
    assert "greedy" in r.stdout and "idle" in r.stdout


def test_replay_waits_score_and_show():
    r = _ok("replay", "emoji", "--game", "2", "--round", "1")
    assert "round E1: dealer P0" in r.stdout and "t01 draws" in r.stdout
    assert "ledger: " in r.stdout
    r = _ok("waits", "--game", "emoji", "1223334k", "3334567m")
    lines = r.stdout.splitlines()
    assert lines[1].split()[-1] == "-" and lines[2].endswith("2m 4m 5m 7m 8m")
    r = _ok("score", "--game", "emoji", "123k 123k 99k tsumo riichi1 dealer last dora:9k",
            "--json")
    assert json.loads(r.stdout)["value"] == 182450
    r = _ok("score", "--game", "emoji", "234k 567m 8h", "--win", "8h", "--dora-indicator", "4m",
            "--json")
    assert json.loads(r.stdout)["value"] == 325   # spec §15 example 1
    r = _ok("show", "emoji")
    assert "(one of: split, each_full)" in r.stdout and "[X] reconstructed" in r.stdout


def test_bad_emoji_input_is_one_line():
    for args in (["waits", "--game", "emoji", "1234k 5q"], ["score", "--game", "emoji", "12k"],
                 ["sweep", "emoji", "--set", "scoring.yaku.sangen=30", "--games", "5"]):
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, r.output
