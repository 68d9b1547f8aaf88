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
    # issue 46: riichi minimums the game can never reach
    ("game: riichi2p\nriichi_min_wall: 36\n", "riichi_min_wall: 36 live tiles can never"),
    ("game: riichi2p\nlive_wall: 10\nriichi_min_wall: 12\n", "at most 9 are left"),
    ("game: riichi2p\nriichi_min_points: 50100\n", "riichi_min_points: 50100 points can never"),
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


# ---- issue 46 ------------------------------------------------------------------------------------

def test_score_counts_no_ura_dora_without_riichi_under_ura_needs_riichi(tmp_path):
    # the bug: the indicators given were counted on any win (8,900: 5 han mangan + 900)
    hand = "567m 2334455699s +4s tsumo seat:S round:S dora:9p9p ura:9p3s honba:3"
    r = _ok("score", "--game", "riichi2p", "--json", hand)
    s = json.loads(r.stdout)
    assert (s["total"], s["ura"], s["han"]) == (2200, 0, 2) and s["ura_not_counted"] == 2
    assert "2200" in _ok("score", "--game", "riichi2p", hand).stdout
    # with riichi the ura count; under ura_needs_riichi: false they count without it
    riichi = json.loads(_ok("score", "--game", "riichi2p", "--json",
                            hand.replace("tsumo", "tsumo riichi")).stdout)
    assert riichi["ura"] == 3 and "ura_not_counted" not in riichi
    p = tmp_path / "ura.yaml"
    p.write_text("game: riichi2p\nura_needs_riichi: false\n")
    assert json.loads(_ok("score", "--rules", p, "--json", hand).stdout)["total"] == 8900
    p.write_text("game: riichi2p\nura_needs_riichi: false\nkan_ura_dora: false\n")
    s = json.loads(_ok("score", "--rules", p, "--json", hand).stdout)
    assert s["ura"] == 0 and s["ura_not_counted"] == 1      # 9p: only the first counts


def test_riichi_minimums_the_game_can_never_reach_are_refused_in_a_sweep_too():
    # the run cases are in test_bad_scenarios_are_one_line_and_exit_2
    r = _run("sweep", "riichi2p", "--set", "riichi_min_wall=35,40", "--games", "5",
             "--workers", "1", "--no-save")
    assert r.exit_code == 2 and "riichi_min_wall" in r.output, r.output


def test_riichi_minimums_the_game_can_reach_are_accepted(tmp_path):
    p = tmp_path / "ok.yaml"
    # the highest reachable values; and a short wall under the spec's default minimum (the
    # [R] rule then simply never lets a riichi through: the spec allows live_wall 1..96)
    p.write_text("game: riichi2p\nriichi_min_wall: 35\nriichi_min_points: 50000\n")
    _ok("validate", p)
    p.write_text("game: riichi2p\nlive_wall: 2\n")
    _ok("validate", p)


@pytest.mark.parametrize("hand,words", [
    ("567m 2334455699s +4s tsumo kan:1111p", "say which kan: minkan:"),
    ("567m 234455699s kan:1111p +4s tsumo", "say which kan: minkan:"),
    ("567m 2334455699s +4s tsumo 🀄", "unknown word '🀄'"),
    ("567m 2334455699s +4s tsumo turn:-3", "unknown key 'turn:'"),
    ("567m 2334455699s +4s tsumo last", "unknown word 'last'"),
    ("567m² 2334455699s +4s tsumo", "'²' is not a tile character"),
    ("567m 2334455699s +4s tsumo honba:²", "honba:²"),
    ("567m 2334455699s +4s tsumo honba:99999999999999999999999", "honba:9999"),
    ("567m 2334455699s +4s tsumo streak:18446744073709551616", "streak:"),
    ("567m 2334455699s +4s tsumo dora:9s9s9s", "9s more than 4 times"),
    ("567m 2334455699s +4s tsumo dora:9s ura:9s9s", "9s more than 4 times"),
    ("567m 2334455699s +4s tsumo dora:1z1z2z2z3z3z", "6 indicators"),
    ("567m 2334455699s +4s tsumo honba:1 honba:2", "honba: given twice"),
    ("567m 2334455699s +4s tsumo dora:", "no tiles in 'dora:'"),   # as P-style refuses it
])
def test_bad_riichi2p_hand_tokens_are_one_line_and_exit_2(hand, words):
    # the bug: emoji and kan: tokens were ignored by waits and misreported by score, honba past
    # 64 bits and superscript digits were tracebacks, and indicators past four copies passed
    for cmd in ("score", "waits"):
        text = hand if cmd == "score" else hand.replace(" +4s tsumo", "")
        r = _run(cmd, "--game", "riichi2p", text)
        assert r.exit_code == 2, (cmd, r.output)
        assert words in r.output and len(r.output.strip().splitlines()) == 1, (cmd, r.output)
        assert "Traceback" not in r.output


def test_the_riichi2p_run_header_counts_hands_as_its_metrics_do():
    # the bug: the header said "N rounds" while every metric says hands (mean_hands_per_game)
    from simcore.riichi2p.family import FAMILY
    assert FAMILY.ROUND_WORDS == ("hand", "hands")
    assert {m.per for m in FAMILY.CATALOGUE if m.kind in ("round_rate", "per_round")} == \
        {"hands"}
    r = _ok("run", "riichi2p", "--games", "6", "--workers", "1", "--no-save")
    head = r.stdout.splitlines()[0]
    assert " hands, seed" in head and "rounds" not in r.stdout, r.stdout
    assert "of " in r.stdout and " hands" in r.stdout
