"""Two-player riichi through the harness's commands (issue 34): run, compare, sweep, solve,
tournament, replay, waits, score, validate and show on the bundled scenarios, and bad input
(one line, exit status 2, nothing written)."""

import json

import pytest
from click.testing import CliRunner

from simcore.cli import main


def _run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _ok(*args):
    r = _run(*args)
    assert r.exit_code == 0, r.output
    return r


def test_run_reports_the_first_dealer_and_writes_a_result(tmp_path):
    d = tmp_path / "run"
    r = _ok("run", "riichi2p", "--games", "60", "--workers", "1", "--out", d, "--json")
    s = json.loads(r.stdout)
    assert s["seats"] == ["greedy"] * 2
    m = s["metrics"]
    assert m["first_dealer_win_share"]["reference"] == 0.5
    assert 0 < m["draw_rate"]["value"] < 1 and m["riichi_rate"]["value"] > 0
    assert (d / "report.html").is_file() and list((d / "replays").glob("game-*.html"))
    assert "60 games" in _ok("show", d).stdout


def test_compare_red_fives_sweep_solve_and_tournament():
    r = _ok("compare", "riichi2p", "riichi2p_online", "--games", "60", "--workers", "1",
            "--no-save")
    assert "rules that differ" in r.stdout and "red_fives: false -> true" in r.stdout
    assert "yaku_red_share" in r.stdout
    r = _ok("sweep", "riichi2p", "--set", "live_wall=30,42", "--games", "40", "--workers", "1",
            "--no-save")
    assert "live_wall=42" in r.stdout
    r = _ok("solve", "riichi2p", "--param", "live_wall", "--metric", "draw_rate", "--target",
            "0.4", "--range", "24,60", "--games", "60", "--pilot-games", "100", "--workers", "1",
            "--no-save")
    assert "live_wall" in r.stdout and "estimate" in r.stdout.lower()
    r = _ok("tournament", "riichi2p", "--policies", "greedy,baseline,random", "--games", "3",
            "--workers", "1", "--no-save")
    assert "greedy" in r.stdout and "random" in r.stdout


def test_replay_waits_and_score():
    r = _ok("replay", "riichi2p", "--game", "0", "--round", "1")
    assert "hand 1: E1" in r.stdout and "draws" in r.stdout
    r = _ok("waits", "--game", "riichi2p", "234567m 345p 67s 88p", "1111m 234567p 789s")
    lines = r.stdout.splitlines()
    assert "5s 8s" in lines[1] and lines[2].split()[-1] == "-"
    r = _ok("score", "--game", "riichi2p", "234567m 345p 67s 88p +8s tsumo riichi seat:E")
    assert "4 han 20 fu" in r.stdout and "7700" in r.stdout
    r = _ok("score", "--game", "riichi2p", "--json", "19m19p19s1234567z +1m ron seat:S")
    assert json.loads(r.stdout)["limit"] == "yakuman"


def test_score_under_a_no_atozuke_scenario(tmp_path):
    """The spec's atozuke example (§5.5): the daisangen ron is refused, the 9m ron stands."""
    p = tmp_path / "no_atozuke.yaml"
    p.write_text("game: riichi2p\natozuke: false\n")
    r = _ok("score", "--rules", p, "chi:1'23s 555z 666z 77z 99m +7z ron seat:S")
    assert "not a win: atozuke" in r.stdout
    r = _ok("score", "--rules", p, "chi:1'23s 555z 666z 77z 99m +9m ron seat:S")
    assert "8000" in r.stdout
    assert "32000" in _ok("score", "--game", "riichi2p",
                          "chi:1'23s 555z 666z 77z 99m +7z ron seat:S").stdout


@pytest.mark.parametrize("yaml_text,words", [
    ("game: riichi2p\ntenpai_declaration: choose\n", "tenpai_declaration: choose"),
    ("game: riichi2p\nlive_wall: 200\n", "live_wall: expected an integer 1..96"),
    ("game: riichi2p\nred_fives: 1\n", "red_fives"),
    ("game: riichi2p\nnoten_penalty: 1550\n", "noten_penalty"),
    ("game: riichi2p\nstart_points: [25000]\n", "start_points"),
    ("game: riichi2p\nkuitan: true\nkuitann: false\n", "kuitann"),
])
def test_bad_scenarios_are_one_line_and_exit_2(tmp_path, yaml_text, words):
    p = tmp_path / "bad.yaml"
    p.write_text(yaml_text)
    out = tmp_path / "out"
    r = _run("run", p, "--games", "5", "--workers", "1", "--out", out)
    assert r.exit_code == 2, r.output
    err = r.output.strip().splitlines()
    assert len(err) == 1 and words in err[0] and "Traceback" not in r.output
    assert not out.exists()


@pytest.mark.parametrize("hand,words", [
    ("22222m 345p 67s 88p +8s tsumo", "more than 4"),
    ("234567m 345p 67s 88x +8s", "unknown letter"),
    ("234567m 345p +8s tsumo", "tiles"),
    ("234567m 345p 67s 88p +8s seat:N", "seat"),
])
def test_bad_hands_are_one_line_and_exit_2(hand, words):
    r = _run("score", "--game", "riichi2p", hand)
    assert r.exit_code == 2 and words in r.output and len(r.output.strip().splitlines()) == 1, \
        r.output
